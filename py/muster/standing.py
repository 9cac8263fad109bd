"""The objectives, each side's standing and the scenario's briefing, for every system alike.

What the screen shows of how a game is being won (docs/play-view.md, "Objectives, standing
and the briefing"):

- ``objectives``: each objective of the scenario, its points and who holds it now, for the map;
- ``standing``: under the prompt, one line per side (its points now, as the end would count
  them, by source, and how far it is ahead or behind) and how many turns are left;
- ``briefing``: what a player reads before a game: the description, the sides, the turns, the
  victory conditions (each marked when it is Muster's default, not the game's own) and the
  tables in use, each with the marks of the rows that are Muster's assumptions.

The points come from the system's own count (``Ruleset.score``, the one the end uses) and the
conditions from its own settings (``Ruleset.victory``): nothing here knows a system.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from . import play
from .reference import MARKS, sequence_flags

Label = dict[str, Any]


def objective_marks(scenario: Any, state: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """Each objective of ``scenario`` (the file's order): its place (``at``), ``points`` and
    ``holder`` (a side, or None: nobody yet, or no game).

    >>> from muster.scenario import load_builtin
    >>> objective_marks(load_builtin("demo-hohenbrueck"), {"held": {"1203": "austria"}})[2:]
    [{'at': '1203', 'points': 2, 'holder': 'austria'}, {'at': '0805', 'points': 1, 'holder': None}]
    """
    held = (state or {}).get("held") or {}
    return [
        {"at": place, "points": points, "holder": held.get(place)}
        for place, points in play.objectives(scenario)
    ]


def standing(rules: Any, scenario: Any, state: Mapping[str, Any]) -> list[Label]:
    """Under the prompt: each side's points now (``Ruleset.score``: what the end would give,
    by source) and how far it leads or trails the best of the others, then the turns left.
    Nothing once the game is over (the result says it), nor for a system that scores nothing.
    """
    if state.get("result"):
        return []
    score: Mapping[str, Mapping[str, int]] = rules.score(scenario, state)
    if not score:
        return []
    totals = {side: sum(parts.values()) for side, parts in score.items()}
    lines: list[Label] = []
    for side, parts in score.items():
        best = max((n for other, n in totals.items() if other != side), default=0)
        lead = totals[side] - best
        sources = [
            {"key": f"score.{source}", "params": {"value": value}}
            for source, value in parts.items()
        ]
        params: dict[str, Any] = {"side": side, "score": totals[side], "sources": sources}
        if lead > 0:
            lines.append({"key": "standing.ahead", "params": {**params, "n": lead}})
        elif lead < 0:
            lines.append({"key": "standing.behind", "params": {**params, "n": -lead}})
        else:
            lines.append({"key": "standing.level", "params": params})
    turn, turns = state.get("turn"), state.get("turns")
    if isinstance(turn, int) and isinstance(turns, int):
        left = max(1, turns - turn + 1)
        lines.append({"key": "standing.turns_left", "params": {"turns": turns, "count": left}})
    return lines


def view_part(rules: Any, scenario: Any, state: Mapping[str, Any]) -> dict[str, Any]:
    """What every view carries of the objectives and the standing."""
    return {
        "objectives": objective_marks(scenario, state),
        "standing": standing(rules, scenario, state),
    }


def briefing(
    rules: Any, scenario: Any, state: Mapping[str, Any] | None, reference: Mapping[str, Any]
) -> dict[str, Any]:
    """What the scenario says before (and during) a game: its title and description as the
    file gives them, the sides in the order they play, the turns, the objectives (held, in a
    game), the victory conditions (``Ruleset.victory``: labels with ``flags``) and the tables
    in use (``reference``: the rules reference of the same scenario and game), each with how
    many of its entries carry each mark (``default``: Muster's default where the rules are
    silent; ``standin``: a stand-in for the game's own table; ``override``: this scenario's)."""
    data = scenario.data
    victory = rules.victory(scenario)
    turns = (state or {}).get("turns")
    return {
        "id": scenario.id,
        "title": data["title"],
        "description": data.get("description", ""),
        "sides": [s["id"] for s in data["sides"]],
        "turns": turns if isinstance(turns, int) else victory.get("turns"),
        "objectives": objective_marks(scenario, state),
        "victory": victory.get("conditions", []),
        "tables": [_table(section) for section in reference.get("sections", ())],
    }


def _table(section: Mapping[str, Any]) -> dict[str, Any]:
    """A chart of the rules reference as the briefing lists it: its id (to open it), title,
    rule and the count of each mark among the section, its remarks, rows, cells and notes."""
    found: list[str] = list(section.get("flags", ()))
    for part in ("intro", "rows", "notes"):
        for entry in section.get(part, ()):
            found += entry.get("flags", ())
            for flags in entry.get("cell_flags", {}).values():
                found += flags
    return {
        "id": section["id"],
        "title": section["title"],
        "rule": section.get("rule"),
        "marks": {mark: n for mark in MARKS if (n := _count(found, mark))},
    }


def _count(flags: Iterable[str], mark: str) -> int:
    return sum(1 for f in flags if f == mark)


def condition(
    scenario: Any, folder: str, key: str, params: Mapping[str, Any], *path: str
) -> dict[str, Any]:
    """A victory condition in words (``victory.<key>``) and the marks of the setting it reads
    (``path`` in the system's ``sequence.json``): ``default`` where it is Muster's own,
    ``override`` where the scenario changes it."""
    flags = sequence_flags(scenario, play.sequence_data(folder), *path)
    if path == ("turns",) and "turns" in scenario.data:
        flags = [f for f in flags if f != "default"]  # the scenario's own count
    return {"key": f"victory.{key}", "params": dict(params), "flags": flags}


def victory(
    scenario: Any, folder: str, settings: Mapping[str, Any], counted: Iterable[tuple[str, ...]]
) -> dict[str, Any]:
    """A system's victory conditions in words: the turns, then each of ``counted`` (its key,
    then the path of the setting in ``settings`` that counts it) whose setting is set; a number
    (points) is its ``value``.

    >>> class S:
    ...     data = {"system": "hex-facing"}
    >>> found = victory(S(), "hex_facing", {"turns": 9, "victory": {"points": 2, "off": False}},
    ...                 [("routed", "victory", "points"), ("gone", "victory", "off")])
    >>> found["turns"], [(c["key"], c["params"]) for c in found["conditions"]]
    (9, [('victory.turns', {'turns': 9}), ('victory.routed', {'value': 2})])
    """
    turns = settings["turns"]
    lines = [condition(scenario, folder, "turns", {"turns": turns}, "turns")]
    for key, *path in counted:
        value: Any = settings
        for step in path:
            value = value[step]
        if value:
            points = isinstance(value, int) and not isinstance(value, bool)
            lines.append(
                condition(scenario, folder, key, {"value": value} if points else {}, *path)
            )
    return {"turns": turns, "conditions": lines}
