"""hex-hexside tables: combat sequence, rally, deep charges, morale effects and the (stand-in) CRT.

Short lookups over ``combat.json`` (the aid's tables, and the defaults it leaves open, marked);
one ``Modifier`` per rally modifier; exact d6 chances as ``Fraction``s.

>>> [(p.key, p.value) for p in rally_modifiers(RallyFacts(leader=1, enemy_distance=1))]
[('rally.leader', 1), ('rally.adjacent_enemy', -1)]
>>> rally_probability(4, rally_modifiers(RallyFacts(enemy_distance=2, army="broken")))
Fraction(1, 3)
>>> odds_column(7, 3), crt_result("2:1", 6), is_stand_in_crt()
('2:1', ('D1', 'Dr'), True)
>>> deep_charge_probability(5), deep_charge_probability(5, 2)
(Fraction(1, 6), Fraction(1, 2))
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from ...dice import Die, distribution, map_outcomes
from ...modifier import Modifier
from ...problems import english

STEP_IDS: tuple[str, ...] = (
    "designate_attack",
    "retreat_before_combat",
    "determine_odds",
    "select_lead_units",
    "determine_drm",
    "resolve_combat",
    "leader_loss_check",
    "apply_results",
    "advance_after_combat",
    "extended_attack",
    "winning_combat_marker",
    "cavalry_action",
)
RALLY_IDS: tuple[str, ...] = ("leader", "far_from_enemy", "infantry_in_cover", "friendly_shaken")
RALLY_IDS += ("adjacent_enemy", "army_demoralized", "army_broken")
ARMY_STATES = ("normal", "demoralized", "broken")
SIDES = ("attacker", "defender", "both")
# The problem of a field of a table that is not of its kind (``_get``).
_KIND_PROBLEMS = {
    dict: "problem.object",
    list: "problem.list",
    str: "problem.text",
    int: "problem.whole",
    bool: "problem.bool",
}
RESULTS = ("r", "S")  # a CRT code's "result": retreat, surrender (result_effects)
Codes = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RallyFacts:
    """What the rally modifiers ask of a unit (``leader``: the stacked friendly leader's morale
    modifier, None if none; ``enemy_distance``: hexes to the nearest enemy, None if none, 1 is
    adjacent; ``friendly_shaken``: stacked with or adjacent to a friendly unit in disorder or rout).

    Raises:
        ValueError: an unknown army state, or a distance below 1.
    """

    leader: int | None = None
    enemy_distance: int | None = None
    unit_type: str = "infantry"
    terrain: tuple[str, ...] = ("clear",)
    friendly_shaken: bool = False
    army: str = "normal"

    def __post_init__(self) -> None:
        """Check the facts."""
        if self.army not in ARMY_STATES:
            raise ValueError(f"army must be one of {ARMY_STATES}, got {self.army!r}")
        if self.enemy_distance is not None and self.enemy_distance < 1:
            raise ValueError(f"enemy_distance must be at least 1, got {self.enemy_distance}")


@dataclass(frozen=True, slots=True)
class RallyRow:
    """One rally modifier row: its id, value (an int, or None: the leader's), and parameters."""

    id: str
    value: int | None
    rule: str
    params: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class HexsideTables:
    """The parsed combat.json of hex-hexside."""

    die: Die
    sequence: tuple[str, ...]
    rally: tuple[RallyRow, ...]
    deep_charge_at_least: int
    morale: Mapping[int, frozenset[str]]
    columns: tuple[tuple[str, int, int], ...]
    crt: Mapping[int, Mapping[str, Codes]]
    codes: Mapping[str, Mapping[str, Any]]
    stand_in: bool


Tables = HexsideTables | None  # None: the system's own tables


class TableError(ValueError):
    """A malformed table: ``at`` names the place (``crt.rows[2].cells.1:1``), ``problem`` is
    the key of what is wrong (``muster.problems``) with ``params``; the message reads
    ``combat.json: <at>: <problem in English>``.

    >>> str(TableError("crt.rows", "problem.crt_faces", faces="1, 2, 3, 4, 5, 6"))
    'combat.json: crt.rows: expected one row for each face of the die (1, 2, 3, 4, 5, 6)'
    """

    def __init__(self, at: str, problem: str, **params: Any) -> None:
        self.at, self.problem, self.params = at, problem, params
        super().__init__(f"combat.json: {at}: {english(problem, params)}")


def _get(data: Any, path: str, kind: type, at: str = "") -> Any:
    """``data`` at the dotted ``path`` (named ``at.path``), checked to be of ``kind``."""
    here, where = data, f"{at}.{path}" if at else path
    for name in path.split("."):
        if not isinstance(here, Mapping) or name not in here:
            raise TableError(where, "problem.missing")
        here = here[name]
    if not isinstance(here, kind) or (isinstance(here, bool) and kind is int):
        raise TableError(where, _KIND_PROBLEMS.get(kind, "problem.setting_kind"), got=_short(here))
    return here


def _int(x: Any, where: str, lo: int | None = None, hi: int | None = None) -> int:
    ok = isinstance(x, int) and not isinstance(x, bool)
    if not ok or (lo is not None and x < lo) or (hi is not None and x > hi):
        if lo is None or hi is None:
            raise TableError(where, "problem.whole", got=_short(x))
        raise TableError(where, "problem.whole_number", lo=lo, hi=hi, got=_short(x))
    return int(x)


def _short(value: Any, limit: int = 60) -> str:
    """``value`` as JSON cut short for a message (an owner's table may hold anything)."""
    text = json.dumps(value[:limit] if isinstance(value, str) else value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _options(options: Iterable[Any]) -> str:
    """The values a field may take, for a message: each as JSON, with commas."""
    return ", ".join(_short(o) for o in options)


def _name(key: str) -> str:
    """A key of the owner's table for a place in a message, cut short."""
    return key if len(key) <= 40 else key[:40] + "…"


def parse_crt(crt: Any, die: Die, where: str = "crt") -> tuple[Any, ...]:
    """Check a CRT (the shape of combat.json's ``crt``): columns, one row per die face, codes.

    Raises:
        ValueError: the table is malformed; the message names the place.
    """
    codes = _get(crt, "codes", dict, where)
    for code, entry in codes.items():
        at = f"{where}.codes.{_name(code)}"
        if _get(entry, "side", str, at) not in SIDES:
            raise TableError(f"{at}.side", "problem.one_of", options=_options(SIDES))
        _int(entry.get("steps"), f"{at}.steps", 0, 99)
        if entry.get("result") not in (None, *RESULTS):
            raise TableError(f"{at}.result", "problem.one_of", options=_options(RESULTS))
        if not isinstance(entry.get("text", ""), str):
            raise TableError(f"{at}.text", "problem.text")
    columns: list[tuple[str, int, int]] = []
    for i, col in enumerate(_get(crt, "columns", list, where)):
        at = f"{where}.columns[{i}]"
        label = _get(col, "label", str, at)
        a, d = (_int(col.get(k), f"{at}.{k}") for k in ("attacker", "defender"))
        if a < 1 or d < 1 or (columns and a * columns[-1][2] <= columns[-1][1] * d):
            raise TableError(at, "problem.crt_ratio")
        columns.append((label, a, d))
    if not columns or len({c[0] for c in columns}) != len(columns):
        raise TableError(f"{where}.columns", "problem.crt_columns")
    table: dict[int, dict[str, Codes]] = {}
    for i, row in enumerate(_get(crt, "rows", list, where)):
        at = f"{where}.rows[{i}]"
        roll = _int(row.get("roll") if isinstance(row, Mapping) else None, f"{at}.roll")
        cells = _get(row, "cells", dict, at)
        if roll in table or roll not in die.faces:
            raise TableError(f"{at}.roll", "problem.crt_roll", got=roll)
        if set(cells) != {c[0] for c in columns}:
            raise TableError(f"{at}.cells", "problem.crt_cells")
        for label, cell in cells.items():
            known = isinstance(cell, list) and all(isinstance(c, str) and c in codes for c in cell)
            if not known:
                raise TableError(f"{at}.cells.{_name(label)}", "problem.crt_code", got=_short(cell))
        table[roll] = {k: tuple(v) for k, v in cells.items()}
    if set(table) != set(die.faces):
        faces = ", ".join(str(f) for f in die.faces)
        raise TableError(f"{where}.rows", "problem.crt_faces", faces=faces)
    stand_in = crt.get("stand_in", False)
    if not isinstance(stand_in, bool) or (stand_in and not isinstance(crt.get("why"), str)):
        raise TableError(f"{where}.stand_in", "problem.crt_stand_in")
    if _get(crt, "roll_limits.value", str, where) != "clamp":
        raise TableError(f"{where}.roll_limits.value", "problem.one_of", options='"clamp"')
    return tuple(columns), table, codes, stand_in


def _default(data: Any, path: str, allowed: tuple[str, ...]) -> str:
    value, parent = _get(data, path, str), path.rsplit(".", 1)[0]
    if value not in allowed:
        raise ValueError(f"combat.json: {path} must be one of {allowed}, got {value!r}")
    if _get(data, f"{parent}.default", bool) is not True or not _get(data, f"{parent}.why", str):
        raise ValueError(f"combat.json: {parent} must be marked default with a why")
    return str(value)


def parse_tables(data: Any) -> HexsideTables:
    """Check ``data`` (a parsed combat.json, perhaps with the owner's own ``crt``) and build it.

    Raises:
        ValueError: the data is malformed; the message names the place.
    """
    die = Die(_int(_get(data, "die.sides", int), "die.sides"), _get(data, "die.first", int))
    steps = _get(data, "combat_sequence.steps", list)
    ids = tuple(s.get("id") if isinstance(s, Mapping) else None for s in steps)
    if ids != STEP_IDS or [s.get("step") for s in steps] != list(range(1, 13)):
        raise ValueError(f"combat.json: combat_sequence.steps must be {STEP_IDS} numbered 1-12")
    rule = _get(data, "rally_modifiers.rule", str)
    rows = _get(data, "rally_modifiers.rows", list)
    if tuple(r.get("id") if isinstance(r, Mapping) else None for r in rows) != RALLY_IDS:
        raise ValueError(f"combat.json: rally_modifiers.rows must be {RALLY_IDS}")
    rally = []
    for r in rows:
        at, leader = f"rally_modifiers.{r['id']}.value", r["id"] == "leader"
        if leader != (r.get("value") == "leader_morale_modifier"):
            raise ValueError(f"combat.json: {at}: only the leader row is the leader's modifier")
        rally.append(RallyRow(r["id"], None if leader else _int(r.get("value"), at), rule, r))
    _int(rally[1].params.get("min_hexes"), "rally_modifiers.far_from_enemy.min_hexes")
    for key in ("unit_types", "terrains.value"):
        _get(rows[2], key, list, "rally_modifiers.infantry_in_cover")
    _default(data, "rally_roll.pass_if", ("at_most",))
    at_least = _int(_get(data, "deep_charges.at_least", int), "deep_charges.at_least")
    flags = _get(data, "morale_effects.flags", dict)
    morale: dict[int, frozenset[str]] = {}
    for i, row in enumerate(_get(data, "morale_effects.rows", list)):
        m = _int(row.get("morale") if isinstance(row, Mapping) else None, f"morale_effects[{i}]")
        names = _get(row, "flags", list, f"morale_effects.rows[{i}]")
        if m in morale or any(f not in flags for f in names):
            raise ValueError(f"combat.json: morale_effects.rows[{i}] repeated or unknown flag")
        morale[m] = frozenset(names)
    if not morale or sorted(morale) != list(range(min(morale), max(morale) + 1)):
        raise ValueError("combat.json: morale_effects.rows must be consecutive morale values")
    _default(data, "morale_effects.beyond.above", ("as_highest",))
    _default(data, "morale_effects.beyond.below", ("as_lowest",))
    _default(data, "odds.strength", ("all_units", "lead_units"))
    _default(data, "odds.rounding", ("defender_favour",))
    columns, crt, codes, stand_in = parse_crt(_get(data, "crt", dict), die)
    _get(data, "deep_charges.rule", str)
    parts = (at_least, morale, columns, crt, codes, stand_in)
    return HexsideTables(die, ids, tuple(rally), *parts)


def raw_tables() -> dict[str, Any]:
    """A fresh copy of combat.json, parsed (for overrides such as the owner's CRT)."""
    data: dict[str, Any] = json.loads((Path(__file__).parent / "combat.json").read_text("utf-8"))
    return data


@cache
def load_tables() -> HexsideTables:
    """The system's tables, read and checked once.

    Raises:
        ValueError: combat.json is malformed.
    """
    return parse_tables(raw_tables())


def rally_modifiers(facts: RallyFacts, tables: Tables = None) -> list[Modifier]:
    """The rally modifiers that apply to a unit, in the aid's order, one ``Modifier`` each."""
    t = tables or load_tables()
    row = {r.id: r for r in t.rally}
    d = facts.enemy_distance
    cover = row["infantry_in_cover"].params
    in_cover = any(n in cover["terrains"]["value"] for n in facts.terrain)
    applies = {"leader": facts.leader is not None, "adjacent_enemy": d == 1}
    applies["far_from_enemy"] = d is None or d >= row["far_from_enemy"].params["min_hexes"]
    applies["infantry_in_cover"] = facts.unit_type in cover["unit_types"] and in_cover
    applies["friendly_shaken"] = facts.friendly_shaken
    applies |= {f"army_{s}": facts.army == s for s in ("demoralized", "broken")}
    parts = []
    for r in t.rally:
        if applies[r.id]:
            value = (facts.leader or 0) if r.value is None else r.value
            params = (("modifier", value),) if r.value is None else ()
            parts.append(Modifier(value, f"rally.{r.id}", r.rule, params))
    return parts


def _chance(t: HexsideTables, test: Callable[[int], bool]) -> Fraction:
    """The exact chance that a roll of the die passes ``test``."""
    return map_outcomes(distribution(t.die), test).get(True, Fraction(0))


def rally_probability(
    morale: int, modifiers: Iterable[Modifier], tables: Tables = None
) -> Fraction:
    """The exact chance a unit rallies: the die at most its morale plus the modifiers (default)."""
    t = tables or load_tables()
    target = morale + sum(p.value for p in modifiers)
    return _chance(t, lambda f: f <= target)


def deep_charge_probability(morale: int, leader: int = 0, tables: Tables = None) -> Fraction:
    """The exact chance a deep charge try (19.11.1) gives die + morale + leader of 11 or more."""
    t = tables or load_tables()
    return _chance(t, lambda f: f + morale + leader >= t.deep_charge_at_least)


def odds_column(attack: Fraction | int, defence: Fraction | int, tables: Tables = None) -> str:
    """The CRT column of ``attack`` against ``defence``, rounded in the defender's favour.

    Raises:
        ValueError: a strength is negative or not a number, or both are 0.
    """
    t = tables or load_tables()
    for x in (attack, defence):
        if not isinstance(x, int | Fraction) or isinstance(x, bool) or x < 0:
            raise ValueError(f"odds: strengths must be numbers >= 0, got {attack!r}:{defence!r}")
    if attack == 0 and defence == 0:
        raise ValueError("odds: no strength on either side (0:0)")
    at_or_below = [label for label, a, d in t.columns if attack * d >= defence * a]
    return at_or_below[-1] if at_or_below else t.columns[0][0]


def crt_result(column: str, roll: int, tables: Tables = None) -> Codes:
    """The result codes of the CRT at ``column`` for the modified ``roll`` (kept to the rows).

    Raises:
        ValueError: an unknown column, or a roll that is not a whole number.
    """
    t = tables or load_tables()
    if column not in t.crt[t.die.first] or not isinstance(roll, int) or isinstance(roll, bool):
        raise ValueError(f"crt: no column {column!r} (see {t.columns}) or bad roll {roll!r}")
    return t.crt[min(max(roll, t.die.first), t.die.faces[-1])][column]


def morale_effects(morale: int, tables: Tables = None) -> frozenset[str]:
    """The morale table's flags for a unit of ``morale`` (beyond the rows: the nearest row)."""
    t = tables or load_tables()
    return t.morale[min(max(morale, min(t.morale)), max(t.morale))]


def is_stand_in_crt(tables: Tables = None) -> bool:
    """True when the CRT is the shipped stand-in, not the game's own table."""
    return (tables or load_tables()).stand_in
