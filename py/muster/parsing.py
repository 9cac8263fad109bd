"""What every scenario parser and every check of a data file shares: refusals that name the
place (``ScenarioError``), the reading of whole numbers, texts and names, and the facts every
scenario answers whatever its map.

Its public names are the whole of what the parsers share: ``expect`` (a refusal unless a
condition holds), ``show`` / ``brief`` / ``worded_options`` (values for a message),
``whole_number``, ``nonempty_text``, ``known_name``, ``json_object``, ``one_of``,
``optional_text`` (values read or refused), ``is_chain`` and ``check_like`` (an override like
its default).

It imports nothing of the maps, the tables or the rules, so each of them may use it (the
hex map in ``hexmap``, the area map in ``areamap``, the override checks beside their tables).
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from .errors import ScenarioError

T = TypeVar("T")


class ScenarioFacts:
    """What every scenario answers, whatever its map: its id and its rule system."""

    __slots__ = ()
    data: dict[str, Any]

    @property
    def id(self) -> str:
        """The scenario id."""
        return str(self.data["id"])

    @property
    def system(self) -> str:
        """The rule system id."""
        return str(self.data["system"])


def expect(cond: bool, place: str, problem: str, **params: Any) -> None:
    """A refusal at ``place`` unless ``cond``: ``problem`` is its key (``muster.problems``)."""
    if not cond:
        raise ScenarioError(place, problem, **params)


def show(value: Any, limit: int = 60) -> str:
    """``value`` as JSON for a message, cut short (check it with ``check_plain`` first).

    >>> show("wods"), show(["a", {"b": None}]), show("x" * 100, 8)
    ('"wods"', '["a", {"b": null}]', '"xxxxxx…')
    """
    if isinstance(value, str) and len(value) > limit:
        value = value[:limit]  # no need to write a long text out to cut it
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def worded_options(options: Any) -> str:
    """The values a setting may take, for a message: each as JSON, with commas.

    >>> worded_options(("flat", "pointy"))
    '"flat", "pointy"'
    """
    return ", ".join(show(o) for o in options)


def brief(name: str, limit: int = 40) -> str:
    """A name (an id, a hex number) for a place in a message, cut short."""
    return name if len(name) <= limit else name[:limit] + "…"


def whole_number(value: Any, place: str, lo: int, hi: int) -> int:
    """``value`` if it is a whole number from ``lo`` to ``hi``, else a refusal naming ``place``.

    >>> whole_number(3, "turns", 1, 99)
    3
    """
    ok = isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi
    if not ok:
        raise ScenarioError(place, "problem.whole_number", lo=lo, hi=hi, got=show(value))
    return int(value)


def nonempty_text(value: Any, place: str) -> str:
    """``value`` if it is a text that is not empty, else a refusal naming ``place``."""
    expect(isinstance(value, str) and value != "", place, "problem.non_empty_text")
    return str(value)


def known_name(value: Any, names: Any, place: str, problem: str) -> str:
    """``value`` if it is one of ``names`` (texts), else a refusal: ``problem``, the key of
    the unknown thing's words (``problem.unknown_terrain``), with the value as ``got``.

    Never hashes a value that is not text, so a list or object is refused, not crashed on.
    """
    if not (isinstance(value, str) and value in names):
        raise ScenarioError(place, problem, got=show(value))
    return value


def json_object(value: Any, place: str) -> dict[str, Any]:
    """``value`` if it is a JSON object, else a refusal naming ``place``."""
    if not isinstance(value, dict):
        raise ScenarioError(place, "problem.object")
    return value


def one_of(value: Any, options: tuple[T, ...], place: str) -> T:
    """The one of ``options`` (texts) that ``value`` is, else a refusal listing them.

    >>> one_of("flat", ("flat", "pointy"), "map.orientation")
    'flat'
    >>> one_of(1, ("flat", "pointy"), "map.orientation")
    Traceback (most recent call last):
    ...
    muster.errors.ScenarioError: map.orientation: expected one of "flat", "pointy"
    """
    for option in options:
        if isinstance(value, str) and value == option:
            return option
    raise ScenarioError(place, "problem.one_of", options=worded_options(options))


def optional_text(spec: dict[str, Any], key: str, place: str) -> None:
    """Refuse ``spec[key]`` when it is given and is not text (drawing-only fields)."""
    if key in spec:
        expect(isinstance(spec[key], str), f"{place} {key}", "problem.text")


def is_chain(spec: dict[str, Any], key: str) -> bool:
    """True if ``spec[key]`` is a list of two or more (a road's hexes or locales)."""
    chain = spec.get(key)
    return isinstance(chain, list) and len(chain) >= 2


def check_like(default: Any, value: Any, place: str) -> None:
    """Check an override against the default it replaces: known keys, the same kinds; a
    whole number where the default is one; list items like the default's items.

    >>> check_like({"a": [1], "b": 2.5}, {"a": [2, 3], "b": 2}, "x")
    >>> check_like({"a": [1]}, {"a": [2, [3]]}, "x")
    Traceback (most recent call last):
    ...
    muster.errors.ScenarioError: x.a[1]: not the type of the setting
    """
    if isinstance(default, dict):
        expect(isinstance(value, dict), place, "problem.object")
        for key, v in value.items():
            at = f"{place}.{brief(key)}"
            expect(key in default, at, "problem.no_such_setting")
            check_like(default[key], v, at)
        return
    if isinstance(default, list):
        expect(isinstance(value, list), place, "problem.setting_kind")
        if default:
            model = default[0]
            if all(isinstance(d, dict) for d in default):  # rows of a sequence: any row's keys
                model = {k: v for d in reversed(default) for k, v in d.items()}
            for i, v in enumerate(value):
                check_like(model, v, f"{place}[{i}]")
        return
    number = (int, float)
    same = (
        isinstance(value, bool) == isinstance(default, bool)
        and (
            isinstance(value, type(default))
            or (isinstance(default, float) and isinstance(value, number))
        )
    ) or default is None
    expect(same, place, "problem.setting_kind")
