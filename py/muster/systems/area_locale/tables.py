"""area-locale's numbers as data: the settings of ``sequence.json`` (costs in commands, leading
pieces per width, the assault's result and losses, pursuit, retreats, roads, the order of the
player turn; a scenario overrides them under ``overrides.sequence``) and the piece types with
their steps of ``units.json``. Each file is loaded once and checked; the rules read the
settings in force through ``pieces.settings(scenario)``.

This module imports nothing of the core but ``play`` and ``problems``: the system's
descriptor (``SYSTEM``) gives its piece types and its check of sequence overrides to the core.

>>> piece_steps()
{'infantry': 3, 'cavalry': 2, 'artillery': 1}
>>> problem({"leading": {"narrow": -1}})
('leading.narrow', 'problem.at_least', {'least': 0})
>>> problem({"player_turn": [{"phase": "movement"}, {"phase": "movement"}]})
('player_turn', 'problem.phase_twice', {})
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from ... import play
from ...problems import english

FOLDER = "area_locale"
HERE = Path(__file__).parent
# Keys of sequence.json that document, never set (contract: notes).
NOTES = frozenset({"why", "source", "system", "default", "aid", "closed"})
# Whole-number settings that may be below 0: the result the attacker wins at, the army morale
# at which an army is demoralized. Every other whole number is a count or a cost (0 or more).
SIGNED = frozenset({"assault.wins_at", "army_morale.demoralized_at"})
PHASES = "player_turn.phase"  # the closed set of the phases of a player turn


@cache
def units() -> dict[str, dict[str, Any]]:
    """The piece types of ``units.json``: ratings (none) and steps (min, max, default)."""
    types: dict[str, dict[str, Any]] = json.loads(
        (HERE / "units.json").read_text(encoding="utf-8")
    )["types"]
    for kind, spec in types.items():
        steps = spec["steps"]
        ok = all(isinstance(steps[k], int) for k in ("min", "max", "default"))
        if not (ok and 1 <= steps["min"] <= steps["default"] <= steps["max"]):
            raise ValueError(f"units.json {kind}: steps must be 1 <= min <= default <= max")
    return types


def piece_steps() -> dict[str, int]:
    """Each piece type and its most steps (the notes: infantry 3, cavalry 2, artillery 1)."""
    return {kind: int(spec["steps"]["max"]) for kind, spec in units().items()}


@cache
def defaults() -> dict[str, Any]:
    """The settings of ``sequence.json``, checked once (a bad file is the code's error)."""
    data = play.sequence_data(FOLDER)
    found = _problem(data, data)
    if found:
        raise ValueError(f"sequence.json {found[0]}: {english(found[1], found[2])}")
    return data


def merged(overrides: dict[str, Any]) -> dict[str, Any]:
    """The settings with a scenario's ``overrides.sequence`` (objects merged key by key, as
    ``muster.play.settings`` merges them)."""
    data = dict(defaults())
    for key, value in overrides.items():
        default = data.get(key)
        data[key] = {**default, **value} if isinstance(default, dict) else value
    return data


Problem = tuple[str, str, dict[str, Any]]  # (dotted path, problem key, its params)


def problem(overrides: Any) -> Problem | None:
    """The first setting of ``overrides`` (a scenario's ``overrides.sequence``) the rules
    cannot play: a count below 0, a value outside its closed set, a phase twice; as
    (dotted path, problem key, its params: ``muster.problems``), or None. Keys and kinds are
    checked by the scenario loader."""
    if not isinstance(overrides, dict):
        return None
    return _problem(merged(overrides), defaults())


def _problem(data: dict[str, Any], base: dict[str, Any]) -> Problem | None:
    closed: dict[str, list[Any]] = base["closed"]
    for key, value in data.items():
        if key in NOTES:
            continue
        if key == "player_turn":
            phases = [row.get("phase") for row in value if isinstance(row, dict)]
            if not phases or len(set(phases)) != len(phases):
                return "player_turn", "problem.phase_twice", {}
            if not set(phases) <= set(closed["player_turn.phase"]):
                return "player_turn", "problem.phases_of", {"options": _options(closed[PHASES])}
            continue
        leaves = value.items() if isinstance(value, dict) else [(None, value)]
        for sub, leaf in leaves:
            if sub in NOTES:
                continue
            path = key if sub is None else f"{key}.{sub}"
            found = _leaf(path, leaf, closed.get(path))
            if found:
                return path, *found
    return None


def _leaf(path: str, leaf: Any, allowed: list[Any] | None) -> tuple[str, dict[str, Any]] | None:
    if allowed is not None:
        items = leaf if isinstance(leaf, list) else [leaf]
        if not all(item in allowed for item in items):
            key = "problem.some_of" if isinstance(leaf, list) else "problem.one_of"
            return key, {"options": _options(allowed)}
        if isinstance(leaf, list) and len(set(leaf)) != len(leaf):
            return "problem.item_twice", {}
    isint = isinstance(leaf, int) and not isinstance(leaf, bool)
    if isint and path not in SIGNED and leaf < 0:
        return "problem.at_least", {"least": 0}
    return None


def _options(options: list[Any]) -> str:
    """The values a setting may take, for a message (as ``muster.parsing`` lists them)."""
    return ", ".join(json.dumps(o, ensure_ascii=False) for o in options)
