"""The shapes the game model and every rule system share, typed once: an action, a log event,
the state's common part, and a refusal.

They are ``TypedDict``\\ s: at run time plain ``dict``\\ s (the state is JSON), to mypy a checked
shape. A system keeps its own keys in its own ``TypedDict`` that extends these
(``class HexFacingState(State): ...`` in its folder) and names it in its ruleset,
``class Rules(RulesBase[HexFacingState, HexFacingAction])``; see ``muster.ruleset``.

>>> action: Action = {"type": "move", "unit": "fr-1", "to": "0412"}
>>> action["type"]
'move'
"""

from __future__ import annotations

from typing import Any, Required, TypedDict

# Every field an action of the three systems may hold today, beside its type. A field holds an
# id (unit, hex number, locale, approach "a/b"), a list of them, a number or a flag.
Action = TypedDict(
    "Action",
    {
        "type": Required[str],
        # who acts or is chosen
        "unit": str,
        "units": list[str],
        "attackers": list[str],
        "with": str,  # hex-facing: the second firer of a combined fire
        # where: the place a tap on the map takes the action at (ruleset.PLACE_FIELDS)
        "at": str,
        "to": str,
        "target": str,
        "hex": str,
        "approach": str,
        "from": str,
        "into": str,
        "path": list[str],
        # how
        "facing": int,
        "attack": bool,
        "charge": bool,
        "fire": bool,
        "form": bool,
        "counter": bool,  # hex-facing: the melee of a counterattack
        "kind": str,  # hex-facing: a fire carried out as a reaction ("reaction")
        # a roll: the face (typed in, or recorded), how it was rolled, the chance point settled
        "value": Any,
        "how": str,
        "chance": dict[str, Any],
    },
    total=False,
)


class Event(TypedDict, total=False):
    """A line of the log: a message key and its params; ``to``: the only side that may read
    it (hidden information)."""

    key: Required[str]
    params: Required[dict[str, Any]]
    to: str


class Rng(TypedDict):
    """The seeded die of a game: its seed and how many rolls it has given."""

    seed: int
    counter: int


class State(TypedDict, total=False):
    """What the game model and the shared rules read of every system's state (plain JSON).

    A system's own state extends it with its keys."""

    side: str  # the side whose turn it is (where the system keeps one)
    turn: int
    turns: int
    phase: str
    # the end: {"winner", "points", ...}; absent or None while the game goes on
    result: dict[str, Any] | None
    rng: Rng
    # a chance point: {"die": "d6" | "d10", ...} or {"options": [...], ...}; None: none now
    chance: dict[str, Any] | None
    held: dict[str, str]  # objective (hex or locale) -> the side holding it
    queue: list[dict[str, Any]]  # steps pending (the queue of muster.play)


class Refusal(TypedDict):
    """Why an action is not allowed now, as the checked ``Game.apply`` says it
    (``Ruleset.refusal``).

    ``params`` are words only (names, printed hex numbers, numbers, labels), never ids;
    ``rule`` is the rule reference as the aid writes it ("8.7", "terrain table") or None;
    ``place`` the place in words or None (both also given to the English message).
    """

    key: str
    params: dict[str, Any]
    rule: str | None
    place: str | None
