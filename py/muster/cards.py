"""The result card: what the newest chance point or fight did, as the viewer may see it.

After a die is rolled (or typed in), a marker drawn, or a fight is resolved, the panel shows
a card: the die and its face (or the marker drawn), the fight it settled, what happened to
each unit, and the units and places concerned, marked on the map until the player taps on
(docs/play-view.md, ``card``).

The card is made from the log the game keeps, so the card and the log always agree: the
lines one action logged, when one of them is a result (``Ruleset.card_keys``), headed by the
line that declared the fight (``Ruleset.card_heads``). With hidden information a side sees
only the lines the log shows it (an event with ``to`` is for that side alone), so a card
tells no more than the log does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .shapes import Event

# How far back (in log lines) the line that declared a fight is looked for.
HEAD_REACH = 200
# How many actions that logged results in a row, without dice, one card holds at most (a fight
# without dice and its aftermath: the losses chosen, the retreats).
MERGE = 6
# Lines a card leaves out: the bookkeeping an action may log after its result (the log keeps
# them). Modifiers (keys ending in "modifier") are the preview's, shown under the fight's line.
QUIET = frozenset({"log.turn_end", "log.turn_start", "log.game_over"})
# The lines of a chance point settled: a die rolled or typed in, a marker drawn from a cup.
CHANCE = frozenset({"log.roll", "log.draw"})


def result_card(
    log: Sequence[Event],
    marks: Sequence[int],
    seen: Callable[[Event], bool],
    keys: frozenset[str],
    heads: Mapping[str, frozenset[str]],
    quiet: frozenset[str],
    words: Mapping[str, str],
) -> dict[str, Any] | None:
    """The newest card in ``log``: the lines of the last action (``marks[i]``: where action
    ``i``'s lines begin) that logged a line keyed in ``keys``, among the lines ``seen`` lets
    the viewer read; None if no action did. Without a die, the actions just before it that
    logged results too (or nothing the viewer may read) are in the card, back to the one that
    declared the fight: a fight and its aftermath, seen at once by the side the tablet is
    handed to.

    ``heads``: for a die's purpose (``""`` without a die), the keys of the line that declared
    the fight it settles: the newest such line before the action, in the same turn and, for a
    card without a die, after the card before it. ``words``: parameter kinds, to
    find the units and places the lines name.

    >>> log = [{"key": "log.hf_fire", "params": {"units": ["a"]}},
    ...        {"key": "log.roll", "params": {"die": "d6", "value": 4, "purpose": "fire"}},
    ...        {"key": "log.status", "params": {"unit": "b", "to": "0101"}}]
    >>> card = result_card(log, [0, 1], lambda e: True, frozenset({"log.roll"}),
    ...                    {"fire": frozenset({"log.hf_fire"})}, frozenset(), {"unit": "unit",
    ...                    "units": "units", "to": "place"})
    >>> card["die"]["value"], card["head"]["key"], [x["key"] for x in card["lines"]]
    (4, 'log.hf_fire', ['log.status'])
    >>> card["at"], card["units"], card["places"]
    (2, ['a', 'b'], ['0101'])
    """

    def lines_of(i: int) -> list[Event]:
        stop = marks[i + 1] if i + 1 < len(marks) else len(log)
        return [e for e in log[marks[i] : stop] if seen(e)]

    index = len(marks) - 1
    while index >= 0:
        lines = lines_of(index)
        if any(e["key"] in keys for e in lines):
            break
        index -= 1
    else:
        return None
    roll = next((e for e in lines if e["key"] in CHANCE), None)
    purpose = str(roll["params"].get("purpose", "")) if roll else ""
    wanted = heads.get(purpose, frozenset())
    first = index
    if roll is None:
        first = _fight_begins(lines_of, index, keys, wanted)
        lines = [e for i in range(first, index + 1) for e in lines_of(i)]
    own = next((e for e in lines if e["key"] in wanted), None)
    if own is not None:  # the action that declared the fight settled it too
        head: dict[str, Any] | None = _label(own)
    else:
        head = _head(log, marks[first], seen, keys, purpose, wanted)
    shown = [
        _label(e)
        for e in lines
        if e is not roll
        and e is not own
        and e["key"] not in quiet
        and not e["key"].endswith("modifier")
    ]
    named = ([head] if head else []) + shown
    units, places = _named(named, words)
    card: dict[str, Any] = {
        "die": dict(roll["params"]) if roll and roll["key"] == "log.roll" else None,
        "draw": dict(roll["params"]) if roll and roll["key"] == "log.draw" else None,
        "head": head,
        "lines": shown,
        "units": units,
        "places": places,
    }
    # Where the card stands in the lines the viewer may read (how many come before it): with
    # what it says, it tells one card from another (the screen keeps which was put away).
    card["seq"] = sum(1 for e in log[: marks[first]] if seen(e))
    card["at"] = index + 1
    return card


def _fight_begins(
    lines_of: Callable[[int], list[Event]], index: int, keys: frozenset[str], wanted: frozenset[str]
) -> int:
    """The first action of a fight without dice that action ``index`` ends: a fight and its
    aftermath (losses chosen, retreats) are one card, so the actions before it that logged
    results too, back to the one that declared the fight (``wanted``), at most ``MERGE``."""
    first = index
    while (
        first > 0 and index - first < MERGE and not any(e["key"] in wanted for e in lines_of(first))
    ):
        before = lines_of(first - 1)
        if not before:  # nothing the viewer may read (a block picked, a hidden step)
            first -= 1
            continue
        if not any(e["key"] in keys for e in before):
            break
        first -= 1
    return first


def _head(
    log: Sequence[Event],
    before: int,
    seen: Callable[[Event], bool],
    keys: frozenset[str],
    purpose: str,
    heads: frozenset[str],
) -> dict[str, Any] | None:
    """The line that declared the fight a card settles, if it is near enough."""
    if not heads:
        return None
    for e in reversed(log[max(0, before - HEAD_REACH) : before]):
        if not seen(e):
            continue
        if e["key"] in heads:
            return _label(e)
        if e["key"] == "log.turn_start":
            return None
        if not purpose and e["key"] in keys:
            return None
    return None


def _label(event: Event) -> dict[str, Any]:
    return {"key": event["key"], "params": event.get("params", {})}


def _named(lines: list[dict[str, Any]], words: Mapping[str, str]) -> tuple[list[Any], list[Any]]:
    """The units and the places ``lines`` name, each once, in the order named."""
    units: list[Any] = []
    places: list[Any] = []
    for line in lines:
        for name, value in line["params"].items():
            kind = words.get(name)
            if kind in ("unit", "units"):
                into = units
            elif kind in ("place", "places"):
                into = places
            else:
                continue
            for one in value if isinstance(value, list) else [value]:
                if isinstance(one, str) and one not in into:
                    into.append(one)
    return units, places
