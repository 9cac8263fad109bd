"""Dice as data: exact outcome distributions, and a seeded portable RNG whose state is JSON.

Probabilities are exact ``Fraction``s; chance points list every outcome as OpenSpiel does.
Rolls come from splitmix64 over Python integers masked to 64 bits, with rejection sampling so
every face is exactly equally likely: the same numbers in CPython and Pyodide, no ``random``.

>>> chance_outcomes(D6)[0], roll(0, 0, D10), roll(0, 1, D10)
((1, Fraction(1, 6)), 5, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

from .errors import IllegalActionError

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
T = TypeVar("T", bound=Hashable)
H = TypeVar("H", bound=Callable[..., Any])  # a handler
U = TypeVar("U", bound=Hashable)


def _whole(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


@dataclass(frozen=True, slots=True)
class Die:
    """A die with ``sides`` faces numbered from ``first``: ``Die(10, 0)`` reads 0-9.

    Raises:
        ValueError: ``sides`` is not a whole number of at least 1.
    """

    sides: int
    first: int

    def __post_init__(self) -> None:
        """Check the die."""
        if not _whole(self.sides) or not _whole(self.first) or self.sides < 1:
            raise ValueError(f"a die needs whole sides >= 1 and first face, got {self!r}")

    @property
    def faces(self) -> tuple[int, ...]:
        """Every face, lowest first."""
        return tuple(range(self.first, self.first + self.sides))

    @classmethod
    def from_json(cls, data: Any) -> Die:
        """The die written as ``{"sides": 10, "first": 0}``.

        Raises:
            ValueError: not such an object.
        """
        if not isinstance(data, Mapping) or set(data) != {"sides", "first"}:
            raise ValueError(f"expected {{'sides': n, 'first': n}}, got {data!r}")
        return cls(data["sides"], data["first"])


D10 = Die(10, 0)
D6 = Die(6, 1)


def distribution(die: Die) -> dict[int, Fraction]:
    """Each face of ``die`` with its exact probability."""
    p = Fraction(1, die.sides)
    return {face: p for face in die.faces}


def chance_outcomes(die: Die) -> list[tuple[int, Fraction]]:
    """The outcomes of a roll as ``[(face, probability)]``, lowest face first (OpenSpiel's form)."""
    return sorted(distribution(die).items())


def map_outcomes(dist: Mapping[T, Fraction], fn: Callable[[T], U]) -> dict[U, Fraction]:
    """The distribution of ``fn(outcome)``: equal results have their probabilities added.

    >>> map_outcomes(distribution(D6), lambda f: f >= 5)
    {False: Fraction(2, 3), True: Fraction(1, 3)}
    """
    out: dict[U, Fraction] = {}
    for outcome, p in dist.items():
        key = fn(outcome)
        out[key] = out.get(key, Fraction(0)) + p
    return out


def mixture(parts: Iterable[tuple[Fraction, Mapping[T, Fraction]]]) -> dict[T, Fraction]:
    """The distribution that follows ``dist`` with probability ``weight``, for each pair.

    >>> mixture([(Fraction(1, 2), {"a": Fraction(1)}), (Fraction(1, 2), {"b": Fraction(1)})])
    {'a': Fraction(1, 2), 'b': Fraction(1, 2)}
    """
    out: dict[T, Fraction] = {}
    for weight, dist in parts:
        for outcome, p in dist.items():
            out[outcome] = out.get(outcome, Fraction(0)) + weight * p
    return out


def bind(dist: Mapping[T, Fraction], fn: Callable[[T], Mapping[U, Fraction]]) -> dict[U, Fraction]:
    """The distribution after a second chance step ``fn`` that depends on the first outcome.

    >>> bind({0: Fraction(1)}, lambda _: distribution(Die(2, 0)))
    {0: Fraction(1, 2), 1: Fraction(1, 2)}
    """
    return mixture((p, fn(outcome)) for outcome, p in dist.items())


def mix64(z: int) -> int:
    """The splitmix64 finaliser: a bijection of 64-bit integers that scrambles every bit."""
    z &= MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def splitmix64(state: int) -> tuple[int, int]:
    """One splitmix64 step: the next state and its 64-bit output.

    >>> hex(splitmix64(0)[1])
    '0xe220a8397b1dcdaf'
    """
    state = (state + GAMMA) & MASK
    return state, mix64(state)


def uniform_index(next_word: Callable[[], int], n: int, bits: int = 64) -> int:
    """An exactly uniform index in ``range(n)``: words past the last multiple of n are redrawn.

    Raises:
        ValueError: ``n`` is not between 1 and ``2**bits``.
    """
    if not 1 <= n <= 1 << bits:
        raise ValueError(f"cannot draw one of {n} from {bits}-bit words")
    limit = (1 << bits) - (1 << bits) % n
    while True:
        word = next_word()
        if word < limit:
            return word % n


def roll(seed: int, counter: int, die: Die) -> int:
    """The face of roll number ``counter`` of a game seeded with ``seed``.

    The roll reads the splitmix64 sequence whose state starts at ``mix64(seed ^ mix64(counter))``
    (both masked to 64 bits), rejecting the few words that would favour low faces.

    >>> [roll(2024, n, D6) for n in range(6)]
    [1, 5, 4, 2, 1, 1]

    Raises:
        ValueError: ``seed`` or ``counter`` is not an integer.
    """
    if not _whole(seed) or not _whole(counter):
        raise ValueError(f"seed and counter must be integers, got {seed!r}, {counter!r}")
    state = mix64((seed & MASK) ^ mix64(counter & MASK))

    def next_word() -> int:
        nonlocal state
        state, word = splitmix64(state)
        return word

    return die.first + uniform_index(next_word, die.sides)


@dataclass(frozen=True, slots=True)
class Rng:
    """The dice of a game: its seed and how many rolls it has made; plain JSON.

    >>> face, after = Rng(7).roll(D10)
    >>> after.to_json()
    {'seed': 7, 'counter': 1}
    """

    seed: int
    counter: int = 0

    def roll(self, die: Die) -> tuple[int, Rng]:
        """The next face, and the RNG after it."""
        return roll(self.seed, self.counter, die), Rng(self.seed, self.counter + 1)

    def to_json(self) -> dict[str, int]:
        """The state as plain JSON."""
        return {"seed": self.seed, "counter": self.counter}

    @classmethod
    def from_json(cls, data: Any) -> Rng:
        """The state written as ``{"seed": s, "counter": n}``.

        Raises:
            ValueError: not such an object.
        """
        ok = isinstance(data, Mapping) and set(data) == {"seed", "counter"}
        if not ok or not all(_whole(v) for v in data.values()):
            raise ValueError(f"expected {{'seed': s, 'counter': n}} of integers, got {data!r}")
        return cls(data["seed"], data["counter"])


def chance_handler(action: Mapping[str, Any], *tables: Mapping[str, H]) -> H:
    """The handler of a settled chance point: what ``action["chance"]["purpose"]`` was rolled
    for, in the first table that has it.

    >>> chance_handler({"chance": {"purpose": "rally"}}, {"rally": len}) is len
    True
    >>> chance_handler({"chance": {"purpose": "sortie"}}, {"rally": len})
    Traceback (most recent call last):
    ...
    muster.errors.IllegalActionError: no roll is due for sortie

    Raises:
        IllegalActionError: no table has that purpose (``error.no_roll_due``).
    """
    purpose = action["chance"]["purpose"]
    for table in tables:
        found = table.get(purpose)
        if found is not None:
            return found
    raise IllegalActionError("error.no_roll_due", "no roll is due for {purpose}", purpose=purpose)
