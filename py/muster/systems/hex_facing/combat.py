"""hex-facing combat: melee, charge and fire modifiers, the result tables, and exact odds.

Pure functions of plain facts (a ``MeleeSituation`` or ``FireSituation``) over ``combat.json``
(the aid's tables, and the defaults it leaves open, each marked) and the terrain chart's Fire
and Melee columns; one ``Part`` per modifier. ``level``: the attacker's (firer's) hex level
minus the target's, so -1 is an attack one level up (the terrain table's "+1 level" row).

>>> s = MeleeSituation((Combatant("infantry", 8, 5),), (Combatant("infantry", 4, 4),))
>>> [(p.key, p.value) for p in melee_modifiers(s)]
[('melee.force_ratio', 2), ('melee.cohesion', 1), ('melee.terrain', 1)]
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ...dice import Die, bind, distribution, map_outcomes
from ...errors import RulesError, ScenarioError
from ...movement import Part
from ...parsing import _brief, _expect, _show
from ...play import NOTES
from ...terrain import TerrainChart, chart_with_overrides, load_chart

SYSTEM = "hex-facing"
TABLE = "terrain table"
UNIT_TYPES = ("infantry", "cavalry", "artillery", "leader")
POSITIONS = ("front", "rear", "front_and_rear")
FIRE_KINDS = ("fire", "reaction", "counter_battery")
# Terrain table level rows by the climb of an attack (the target's level minus the attacker's).
LEVEL_ROWS = {1: "level_up_1", 2: "level_up_2_plus", -1: "level_down_1", -2: "level_down_2_plus"}
MELEE_IDS: tuple[str, ...] = ("force_ratio", "cohesion", "terrain", "routed", "rear")
MELEE_IDS += ("front_and_rear", "rear_in_enemy_front", "cavalry_melee", "heavy_charge")
MELEE_IDS += ("charge", "charge_vs_square", "infantry_vs_square")
FIRE_IDS: tuple[str, ...] = ("fire_strength", "combined_fire", "six_front_firer")
FIRE_IDS += ("reaction_or_counter_battery", "terrain", "concentrated", "square", "adjacent")
FIRE_IDS += ("effective_range", "long_range")
# Rows whose value the code computes, and what it computes.
COMPUTED = {"force_ratio": "force_ratio", "cohesion": "cohesion_difference"}
COMPUTED |= {"terrain": "terrain_table", "fire_strength": "fire_strength"}
FAVOUR, ANY_ALL = ("least_favourable", "most_favourable"), ("any", "all")
# Each setting the code reads, with the choices it implements; then the lists it reads.
CHOICES: dict[str, tuple[Any, ...]] = {"cohesion_test.pass_if": ("at_most", "below")}
CHOICES |= {f"combining.{k}": FAVOUR for k in ("hex_terrains", "approaches", "works")}
CHOICES |= {f"readings.{k}": ANY_ALL for k in ("routed_defender", "cavalry_melee", "square")}
CHOICES |= {"readings.six_front_cavalry": ANY_ALL, "readings.italic": ("cavalry_replaces",)}
CHOICES |= {"combining.not_combined": ("highest",), "force_ratio.rounding": ("row_at_or_below",)}
CHOICES |= {"fire_modifiers.combined_strength": ("highest",)}
CHOICES |= {"disorder_again": ("rout", "disordered")}
CHOICES |= {"readings.disordered_attack": ("may", "melee_only", "may_not")}
# The stand-in procedures (8.7, 9.4, 9.5): how each is offered.
MAY_MUST = ("may", "must")
CHOICES |= {"procedures.breakthrough.advance": MAY_MUST, "procedures.pursuit.advance": MAY_MUST}
CHOICES |= {"procedures.counterattack.melee": MAY_MUST}
CHOICES |= {"procedures.countercharge.reaction": (True, False)}
CHOICES |= {"procedures.countercharge.facing": ("front", "any")}
CHOICES |= {"procedures.countercharge.charge_bonus": ("kept", "lost")}
# Each list setting the code reads, with the items it may hold.
LISTS: dict[str, tuple[str, ...]] = {"combat_types": UNIT_TYPES}
LISTS |= {"fire_modifiers.firer_types": UNIT_TYPES, "retreat_blocked.becomes": ("rout",)}
LISTS |= {"procedures.countercharge.against": ("charge", "melee")}
LISTS |= {"procedures.countercharge.by": UNIT_TYPES}
LISTS |= {"procedures.countercharge.states": ("good", "disordered")}
LISTS |= {"procedures.pursuit.failed": ("disorder", "rout")}
# Each whole number the code reads, with its least value.
NUMBERS = {"fire_modifiers.long_range_limit": 0, "procedures.breakthrough.units": 1}
NUMBERS |= {"procedures.pursuit.units": 1}
# Parameters the code reads from table rows and terrain notes, with their types.
PARAMS: dict[str, dict[str, type]] = {"combined_fire": {"units": int}, "g": {}, "e": {}}
PARAMS |= {"concentrated": {"min_units": int, "not_types": list}, "h": {"river_rows": list}}
PARAMS |= {"adjacent": {"range": int, "target_types": list}, "f": {"close_range": int}}
PARAMS |= {"b": {"attacking_from": int, "cavalry_defender": int, "attacker_type": str}}
PARAMS |= {"reaction_or_counter_battery": {"rules": dict}}
PARAMS |= {"rear_in_enemy_front": {"enemy_types": list}}
PARAMS |= {"front_and_rear": {"attackers_adjacent": bool}}
WHEN = ("countercharge_and_attacker_retreats",)
# A scenario's own combat defaults (``overrides.combat``, in combat.json's shape): the settings
# above under a node combat.json marks default that have more than one value the rules play,
# but for the units that fight and those that fire (the listings of melees and fires read the
# unit types, not only these lists). The rest of a default is held fixed: the die (the results
# tables are printed for a d10 read 0-9), a reading with one way implemented (a blocked
# retreat routs, the rounding of a force ratio, ...), the procedures' effects, the pursuit's
# test. The aid's words and rule numbers (``FACT_KEYS``) and every other entry are facts of
# the aid's chart.
FIXED = ("combat_types", "fire_modifiers.firer_types")
FACT_KEYS = frozenset({"seed", "rule", "rules"})
NOT_EMPTY = ("procedures.pursuit.failed",)  # a test needs its failure
Effects = tuple[str, ...]
Code = tuple[Effects, Effects]  # a result code: its effects, and more if its cohesion test fails
Outcomes = list[tuple[dict[str, list[str]], Fraction]]
Side = tuple[bool, int, int, bool]  # a side of a result: cavalry, cohesion, test DRM, can retreat
Dist = dict[Effects, Fraction]


class CombatDataError(ValueError):
    """combat.json is malformed; the message names the place (``at``, a dotted path)."""

    def __init__(self, message: str, at: str = "") -> None:
        self.at = at
        super().__init__(message)


class IllegalCombatError(RulesError):
    """A melee, charge or fire the rules forbid; the message names the rule and the place."""

    def __init__(self, what: str, rule: str, **params: Any) -> None:
        """The error ``combat.<what>`` broken under ``rule``, with where it happens."""
        template = f"illegal {what}" + "".join(f" {k}={{{k}}}" for k in params) + " ({rule})"
        super().__init__(f"combat.{what}", template, rule=rule, **params)


@dataclass(frozen=True, slots=True)
class Combatant:
    """A unit in a melee or fire: type, ratings, state, and the terrain of its own hex.

    An attacker's ``hexside``: the features it attacks across (works there protect the
    defender); ``works_held``: works on that hexside it attacks out of (note g).
    """

    type: str
    strength: int = 0
    cohesion: int = 0
    heavy: bool = False
    disordered: bool = False
    routed: bool = False
    in_square: bool = False
    terrain: tuple[str, ...] = ("clear",)
    hexside: tuple[str, ...] = ()
    works_held: tuple[str, ...] = ()
    level: int = 0
    fire_strength: int = 0
    effective_range: int = 0
    formation: str = ""

    def __post_init__(self) -> None:
        """Check the unit type."""
        if self.type not in UNIT_TYPES:
            raise ValueError(f"unit type must be one of {UNIT_TYPES}, got {self.type!r}")


@dataclass(frozen=True, slots=True)
class MeleeSituation:
    """A melee or charge: attackers, defenders, the defender's hex terrains, and how it is made.

    ``position``: "front", "rear" or "front_and_rear" (of the defender); ``rear_in_enemy_front``:
    an attacker's rear hex is in the front hex of enemy infantry or artillery not taking part;
    ``countercharge``: the defender's cavalry countercharged (9.4, a stand-in of combat.json).
    """

    attackers: tuple[Combatant, ...]
    defenders: tuple[Combatant, ...]
    terrain: tuple[str, ...] = ("clear",)
    charge: bool = False
    position: str = "front"
    rear_in_enemy_front: bool = False
    attackers_adjacent: bool = True
    countercharge: bool = False

    def __post_init__(self) -> None:
        """Check that both sides have units and the position is known."""
        if not self.attackers or not self.defenders or self.position not in POSITIONS:
            raise ValueError(f"a melee needs both sides and a position in {POSITIONS}: {self}")


@dataclass(frozen=True, slots=True)
class FireSituation:
    """A fire: its firers (one, or two of a formation in one hex), the target hex, the range.

    ``hexside``: the target hex's side features the fire crosses; ``kind``: one of FIRE_KINDS.
    """

    firers: tuple[Combatant, ...]
    targets: tuple[Combatant, ...]
    range: int = 1
    terrain: tuple[str, ...] = ("clear",)
    hexside: tuple[str, ...] = ()
    level: int = 0
    kind: str = "fire"

    def __post_init__(self) -> None:
        """Check the firers, the range and the kind of fire."""
        if not self.firers or not self.targets or self.range < 1 or self.kind not in FIRE_KINDS:
            raise ValueError(f"a fire needs both sides, range >= 1, a kind in {FIRE_KINDS}")


@dataclass(frozen=True, slots=True)
class DrmRow:
    """A row of a DRM table: id, value (a number or what is computed), rule, and the rest."""

    id: str
    value: int | str
    rule: str
    params: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class RatioRow:
    """A row of the force ratio table: "1:1.5", its value attacker / defender (2/3), DRM -1."""

    ratio: str
    value: Fraction
    drm: int


@dataclass(frozen=True, slots=True)
class ResultCell:
    """A cell of a result table: codes, the italic cavalry-only codes and when they apply."""

    codes: Effects
    cavalry: Effects | None
    when: str | None
    rules: Effects


@dataclass(frozen=True, slots=True)
class ResultRow:
    """A row of a result table: the totals it covers (``None``: open-ended) and its cells."""

    low: int | None
    high: int | None
    seed: str
    cells: Mapping[str, ResultCell]

    def covers(self, total: int) -> bool:
        """True if ``total`` falls in this row."""
        return (self.low is None or self.low <= total) and (self.high is None or total <= self.high)


@dataclass(frozen=True, slots=True)
class CombatTables:
    """The checked combat tables, the terrain chart they use, and the chosen defaults."""

    die: Die
    melee: Mapping[str, DrmRow]
    fire: Mapping[str, DrmRow]
    force_ratio: tuple[RatioRow, ...]
    fire_table: tuple[ResultRow, ...]
    melee_table: tuple[ResultRow, ...]
    codes: Mapping[str, Code]
    notes: Mapping[str, Mapping[str, Any]]
    settings: Mapping[str, Any]
    chart: TerrainChart


Tables = CombatTables | None  # None: the system's own tables


def raw_tables() -> dict[str, Any]:
    """A fresh copy of combat.json, parsed (for overrides and checks)."""
    return json.loads((Path(__file__).parent / "combat.json").read_text(encoding="utf-8"))


@cache
def load_tables() -> CombatTables:
    """The system's combat tables, read and checked once.

    Raises:
        CombatDataError: combat.json is malformed.
    """
    return parse_tables(raw_tables())


def tables_for(scenario: Any) -> CombatTables:
    """The combat tables a scenario plays with: the system's with the scenario's own defaults
    (``overrides.combat``), on its terrain chart with the scenario's cell overrides (the Fire
    and Melee columns are the chart's); made once and kept in
    ``scenario.memo["hf combat tables"]``, where a test may put tables of its own."""
    found = scenario.memo.get("hf combat tables")
    if found is None:
        terrain = scenario.data.get("overrides", {}).get("terrain")
        chart = chart_with_overrides(SYSTEM, terrain) if terrain else None
        own = scenario.data.get("overrides", {}).get("combat")
        found = parse_tables(raw_for(scenario), chart) if chart or own else load_tables()
        scenario.memo["hf combat tables"] = found
    return found


def raw_for(scenario: Any) -> dict[str, Any]:
    """combat.json with the scenario's own defaults (``overrides.combat``) merged in."""
    return with_overrides(raw_tables(), scenario.data.get("overrides", {}).get("combat") or {})


def with_overrides(data: Mapping[str, Any], own: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` (a parsed combat.json) with ``own`` merged in, object by object.

    >>> with_overrides({"a": {"b": 1, "c": 2}}, {"a": {"c": 3}})
    {'a': {'b': 1, 'c': 3}}
    """
    out = dict(data)
    for key, value in own.items():
        inner = out.get(key)
        if isinstance(value, Mapping) and isinstance(inner, Mapping):
            value = with_overrides(inner, value)
        out[key] = value
    return out


@cache
def open_settings() -> Mapping[tuple[str, ...], str]:
    """The defaults a scenario may change (``overrides.combat``): each one's path in
    combat.json (``("disorder_again", "value")``) and the setting it holds
    (``"disorder_again"``), in the file's order.

    >>> open_settings()[("cohesion_test", "pass_if")]
    'cohesion_test.pass_if'
    """
    raw = raw_tables()
    order: dict[tuple[str, ...], int] = {}

    def number(node: Any, path: tuple[str, ...]) -> None:
        order[path] = len(order)
        for key, inner in node.items() if isinstance(node, dict) else ():
            number(inner, (*path, key))

    number(raw, ())
    found: dict[tuple[str, ...], str] = {}
    for setting in (*CHOICES, *LISTS, *NUMBERS):
        here: Any = raw
        marked = False
        for key in setting.split("."):
            here = here[key]
            marked = marked or (isinstance(here, dict) and here.get("default") is True)
        path = tuple(setting.split("."))
        if isinstance(here, dict):
            path += ("value",)
        ways = CHOICES.get(setting, LISTS.get(setting, (0, 1)))  # a number: many
        if marked and setting not in FIXED and len(ways) > 1:
            found[path] = setting
    return MappingProxyType(dict(sorted(found.items(), key=lambda kv: order[kv[0]])))


def check_overrides(own: Any, place: str = "overrides.combat") -> None:
    """Check a scenario's own combat defaults (``overrides.combat``, combat.json's shape): only
    the defaults of ``open_settings``, each of its kind and from its closed set (a list: some
    of its items, each once); no note, no fact of the aid's chart, no default held fixed.

    Raises:
        ScenarioError: naming the place of the first problem.
    """
    opened = open_settings()

    def walk(value: Any, node: Any, path: tuple[str, ...], marked: bool) -> None:
        at = place + "".join(f".{_brief(k)}" for k in path)
        below = any(o[: len(path)] == path for o in opened)  # an open default under here
        if not below and not (isinstance(value, dict) and isinstance(node, dict)):
            # Named where it is written: a fact of the aid, or a default held fixed.
            if marked and not FACT_KEYS & set(path):
                raise ScenarioError(at, "problem.combat_fixed")
            raise ScenarioError(at, "problem.combat_fact")
        _expect(isinstance(value, dict), at, "problem.object")
        for key, inner in value.items():
            here, spot = (*path, key), f"{at}.{_brief(key)}"
            _expect(key not in NOTES, spot, "problem.note")
            _expect(isinstance(node, dict) and key in node, spot, "problem.no_such_combat_setting")
            deeper = marked or (isinstance(node[key], dict) and node[key].get("default") is True)
            if here in opened:
                _check_setting(opened[here], inner, spot)
            else:
                walk(inner, node[key], here, deeper)

    walk(own, raw_tables(), (), False)
    try:
        parse_tables(with_overrides(raw_tables(), own))
    except CombatDataError as exc:  # settings each right that do not fit together
        raise ScenarioError(
            f"{place}.{exc.at}" if exc.at else place, "problem.combat_table"
        ) from None


def _check_setting(setting: str, value: Any, at: str) -> None:
    """One open default's value: of its choices, some of its items each once, or a whole
    number of at least its least value."""

    def listed(items: Sequence[Any]) -> str:
        return ", ".join(i if isinstance(i, str) else _show(i) for i in items)

    if setting in CHOICES:
        choices = CHOICES[setting]
        ok = any(type(value) is type(c) and value == c for c in choices)
        _expect(ok, at, "problem.one_of", options=listed(choices))
    elif setting in LISTS:
        items = LISTS[setting]
        ok = isinstance(value, list) and all(isinstance(v, str) and v in items for v in value)
        ok = ok and len(set(value)) == len(value) and (bool(value) or setting not in NOT_EMPTY)
        how = "problem.one_or_more_of_once" if setting in NOT_EMPTY else "problem.some_of_once"
        _expect(ok, at, how, options=listed(items))
    else:
        least = NUMBERS[setting]
        ok = type(value) is int and value >= least
        _expect(ok, at, "problem.at_least", least=least)


def _number(x: Any) -> Fraction | None:
    ok = isinstance(x, int | float) and not isinstance(x, bool)
    return (Fraction(repr(x)) if isinstance(x, float) else Fraction(x)) if ok else None


def parse_tables(data: Any, chart: TerrainChart | None = None) -> CombatTables:
    """Check ``data`` (a parsed combat.json) and build its tables, on the system's chart.

    Raises:
        CombatDataError: the data is malformed; the message names the place.
    """

    def need(ok: bool, place: str, problem: str) -> None:
        if not ok:
            raise CombatDataError(f"{SYSTEM} combat.json: {place}: {problem}", place)

    def texts(x: Any, place: str) -> tuple[str, ...]:
        need(isinstance(x, list) and all(isinstance(s, str) for s in x), place, "expected texts")
        return tuple(x)

    def get(path: str) -> Any:
        x = data
        for key in path.split("."):
            need(isinstance(x, dict) and key in x, path, "missing")
            x = x[key]
        return x["value"] if isinstance(x, dict) and "value" in x else x

    def explained(x: Any, place: str) -> None:
        if isinstance(x, dict):
            if x.get("default") is True or x.get("implied") is True:
                need(isinstance(x.get("why"), str) and bool(x["why"]), place, "default: no why")
            for k, v in x.items():
                explained(v, f"{place}.{k}" if place else k)
        elif isinstance(x, list):
            for i, v in enumerate(x):
                explained(v, f"{place}[{i}]")

    def params(x: dict[str, Any], name: str, place: str) -> None:
        for k, kind in PARAMS.get(name, {}).items():
            ok = isinstance(x.get(k), kind) and isinstance(x.get(k), bool) == (kind is bool)
            need(ok, f"{place} {k}", f"expected a {kind.__name__}")

    def drm_rows(section: str, ids: tuple[str, ...]) -> Mapping[str, DrmRow]:
        rows: dict[str, DrmRow] = {}
        for i, r in enumerate(get(f"{section}.rows")):
            need(isinstance(r, dict) and isinstance(r.get("id"), str), f"{section}[{i}]", "no id")
            place = f"{section} row {r['id']!r}"
            texts([r.get(k) for k in ("kind", "rule", "seed", "condition")], place + " texts")
            v = r.get("value")
            ok = v == COMPUTED[r["id"]] if r["id"] in COMPUTED else type(v) is int
            need(ok and r["id"] not in rows, place, f"twice, or not {COMPUTED.get(r['id'], int)}")
            params(r, r["id"], place)
            extra = {k: x for k, x in r.items() if k not in ("id", "rule", "value")}
            rows[r["id"]] = DrmRow(r["id"], v, r["rule"], MappingProxyType(extra))
        need(tuple(rows) == ids, section, f"expected the rows {ids} in this order")
        for row in rows.values():
            for k in ("not_with", "cancels", "added_to"):
                refs = texts(row.params.get(k, []), f"{section} row {row.id!r} {k}")
                need(set(refs) <= set(rows), f"{section} row {row.id!r} {k}", "unknown row")
        return MappingProxyType(rows)

    def ratio_rows() -> tuple[RatioRow, ...]:
        rows: list[RatioRow] = []
        for i, r in enumerate(get("force_ratio.rows")):
            place = f"force_ratio.rows[{i}]"
            need(isinstance(r, dict) and isinstance(r.get("ratio"), str), place, "no ratio")
            a, d = _number(r.get("attacker")), _number(r.get("defender"))
            ok = a is not None and d is not None and a > 0 and d > 0
            need(ok and type(r.get("drm")) is int, place, "expected strengths > 0 and a drm")
            rows.append(RatioRow(r["ratio"], (a or Fraction(1)) / (d or 1), r["drm"]))
            ok = len(rows) == 1 or rows[-1].value < rows[-2].value and rows[-1].drm < rows[-2].drm
            need(ok, place, "rows must fall in ratio and DRM")
        need(bool(rows), "force_ratio.rows", "no rows")
        return tuple(rows)

    def result_codes() -> Mapping[str, Code]:
        codes: dict[str, Code] = {}
        procedures = get("procedures")
        for name, c in get("codes").items():
            place = f"codes {name!r}"
            ok = isinstance(c, dict) and c.get("procedure", "") in {"", *procedures}
            need(ok, place, "expected an object naming a known procedure, if any")
            c = {**procedures.get(c.get("procedure"), {}), **c}
            failed = texts(c.get("failed", []), place + " failed")
            need(bool(failed) == (c.get("test") is True), place, "a test needs its failure")
            codes[name] = (texts(c.get("effects"), place + " effects"), failed)
        return MappingProxyType(codes)

    def bands(section: str, key: str) -> tuple[ResultRow, ...]:
        out: list[ResultRow] = []
        listed = get(f"{section}.rows")
        for i, r in enumerate(listed):
            place = f"{section}.rows[{i}]"
            need(isinstance(r, dict) and isinstance(r.get("seed"), str), place, "expected a seed")
            band = r.get(key)
            ok = isinstance(band, list) and len(band) == 2
            need(ok and all(x is None or type(x) is int for x in band), place, f"{key}: [lo, hi]")
            low, high = band
            ok = (high is None) == (i == 0) and (low is None) == (i == len(listed) - 1)
            ok = ok and (not out or out[-1].low == (high or 0) + 1)
            ok = ok and (low is None or high is None or low <= high)
            need(ok, place, "rows must fall from an open top to an open bottom with no gap")
            cells = {}
            for side in (k for k in get(f"{section}.columns") if k != key):
                c, at = r.get(side), f"{place} {side}"
                need(isinstance(c, dict) and c.get("when") in (None, *WHEN), at, "bad cell")
                cavalry = None if c.get("cavalry") is None else texts(c["cavalry"], at)
                need(set(texts(c.get("codes"), at) + (cavalry or ())) <= set(codes), at, "code?")
                rules = texts(c.get("rules", []), f"{at} rules")
                cells[side] = ResultCell(tuple(c["codes"]), cavalry, c.get("when"), rules)
            out.append(ResultRow(low, high, r["seed"], MappingProxyType(cells)))
        return tuple(out)

    need(isinstance(data, dict) and data.get("system") == SYSTEM, "system", f"not {SYSTEM!r}")
    explained(data, "")
    settings: dict[str, Any] = {path: get(path) for path in (*CHOICES, *LISTS, *NUMBERS)}
    for path, choices in CHOICES.items():
        ok = any(settings[path] == c and type(settings[path]) is type(c) for c in choices)
        need(ok, path, f"expected one of {choices}")
    for path, items in LISTS.items():
        settings[path] = texts(settings[path], path)
        need(set(settings[path]) <= set(items), path, f"expected some of {items}")
    for path, least in NUMBERS.items():
        ok = type(settings[path]) is int and settings[path] >= least
        need(ok, path, f"expected a whole number of at least {least}")
    try:
        die = Die.from_json({k: get(f"die.{k}") for k in ("sides", "first")})
    except ValueError as e:
        raise CombatDataError(f"{SYSTEM} combat.json: die: {e}", "die") from None
    melee = drm_rows("melee_modifiers", MELEE_IDS)
    fire = drm_rows("fire_modifiers", FIRE_IDS)
    rules = fire["reaction_or_counter_battery"].params["rules"]
    need(set(rules) == set(FIRE_KINDS[1:]), "fire reaction row", f"rules for {FIRE_KINDS[1:]}")
    notes = get("terrain_notes")
    for note in "befgh":
        ok = isinstance(notes.get(note), dict) and isinstance(notes[note].get("rule"), str)
        need(ok, f"terrain_notes {note!r}", "missing, or without its rule")
        params(notes[note], note, f"terrain_notes {note!r}")
    codes = result_codes()
    notes = MappingProxyType({k: MappingProxyType(v) for k, v in notes.items()})
    tables = (melee, fire, ratio_rows(), bands("fire_table", "total"), bands("melee_table", "roll"))
    extra = (codes, notes, MappingProxyType(settings), chart or load_chart(SYSTEM))
    return CombatTables(die, *tables, *extra)


def total(parts: Iterable[Part]) -> int:
    """The sum of the modifier lines."""
    return int(sum(p.value for p in parts))


def force_ratio_drm(attack_strength: float, defense_strength: float, tables: Tables = None) -> Part:
    """The force ratio line (8.6): the row at or below the ratio, in the defender's favour.

    >>> force_ratio_drm(29, 10).params
    (('ratio', '2:1'), ('attack', 29), ('defense', 10))

    Raises:
        ValueError: a strength is negative or not a number, or both are 0.
    """
    t = tables or load_tables()
    a, d = _number(attack_strength), _number(defense_strength)
    if a is None or d is None or a < 0 or d < 0 or a == d == 0:
        raise ValueError(f"bad strengths {attack_strength!r} : {defense_strength!r}")
    rows = t.force_ratio
    row = rows[0] if d == 0 else next((r for r in rows if r.value <= a / d), rows[-1])
    params = (("ratio", row.ratio), ("attack", attack_strength), ("defense", defense_strength))
    return Part(row.drm, "melee.force_ratio", t.melee["force_ratio"].rule, params)


def _quant(t: CombatTables, reading: str, facts: Iterable[bool]) -> bool:
    return (any if t.settings[f"readings.{reading}"] == "any" else all)(facts)


def _pick(t: CombatTables, combining: str, options: Sequence[Sequence[Part]]) -> list[Part]:
    """The option least (or most) favourable to the attacker, as combat.json chooses."""
    least = t.settings[f"combining.{combining}"] == "least_favourable"
    return list((min if least else max)(options, key=total))


def _six_front(t: CombatTables, terrain: Iterable[str]) -> bool:
    return any("six_front_hexes" in t.chart.row(n).flags for n in terrain)


def _bridge(t: CombatTables, names: Sequence[str]) -> tuple[list[str], list[str]]:
    """Note (h): (the names that count, the bridges ignored); over a river the bridge counts."""
    river = set(t.notes["h"]["river_rows"])
    bridges = [n for n in names if "river_bridge_only" in t.chart.row(n)["melee"].flags]
    water = [n for n in names if t.chart.row(n).id in river]
    if bridges and water:
        return [n for n in names if n not in water], []
    return [n for n in names if n not in bridges], bridges


def _hex_part(t: CombatTables, column: str, terrain: Sequence[str]) -> Part:
    """The line of the target hex: its least favourable terrain (OT skipped; note h)."""
    names = _bridge(t, [n for n in terrain if not t.chart.row(n)[column].other_terrain])[0]
    lines = []
    for n in names or ["clear"]:
        cell = t.chart.row(n)[column]
        if cell.prohibited:
            raise IllegalCombatError(f"{column}_terrain", TABLE, terrain=n)
        lines.append([Part(int(cell.value or 0), f"{column}.terrain", TABLE, (("terrain", n),))])
    return _pick(t, "hex_terrains", lines)[0]


def _side_parts(
    t: CombatTables, column: str, features: Sequence[str], level: int, close: bool
) -> tuple[list[Part], list[Part]]:
    """The lines of the hexside features crossed and of the level, as (works, others)."""
    names, ignored = _bridge(t, features)
    names += [LEVEL_ROWS[max(-2, min(2, -level))]] if level else []
    rule = t.notes["h"]["rule"]
    others = [Part(0, f"{column}.bridge_ignored", rule, (("feature", n),)) for n in ignored]
    works: list[Part] = []
    for n in names:
        cell = t.chart.row(n)[column]
        short, into = "close_range_fire" in cell.flags, "into_from" in cell.flags
        if short and not close:
            continue
        rule = TABLE + (" (f)" if short else "") + (" (g)" if into else "")
        kind = "works" if into else "level" if n in LEVEL_ROWS.values() else "hexside"
        if cell.prohibited:
            raise IllegalCombatError(f"{column}_{kind}", rule, feature=n)
        params = (("level", level),) if kind == "level" else (("feature", n),)
        (works if into else others).append(
            Part(int(cell.value or 0), f"{column}.{kind}", rule, params)
        )
    return works, others


def _approach(t: CombatTables, hex_part: Part, a: Combatant) -> list[Part]:
    """The terrain lines of one attacker as if it attacked alone (table; notes b, g, h)."""
    works, others = _side_parts(t, "melee", a.hexside, a.level, True)
    parts = _pick(t, "works", [[hex_part], *([w] for w in works)]) + others
    own: list[list[Part]] = []
    if _six_front(t, a.terrain):
        b = t.notes["b"]
        own.append([Part(b["attacking_from"], "melee.six_front_attacker", b["rule"])])
    for n in a.works_held:
        cell = t.chart.row(n)["melee"]
        if "into_from" not in cell.flags:
            raise ValueError(f"{n!r} is not a redoubt, wall or fortification")
        value = int(getattr(cell.attacking_from, "value", 0) or 0)
        own.append([Part(value, "melee.works_from", TABLE + " (g)", (("feature", n),))])
    return parts + _pick(t, "works", own) if own else parts


def _fixed_rows(
    t: CombatTables, s: MeleeSituation, att: list[Combatant], dfn: list[Combatant]
) -> list[Part]:
    """The melee rows with a printed value that apply, after the aid's combining rules."""
    square = _quant(t, "square", (d.in_square for d in dfn))
    heavy = any(a.heavy for a in att if a.type == "cavalry")
    lost = s.countercharge and t.settings["procedures.countercharge.charge_bonus"] == "lost"
    cavalry = _quant(t, "cavalry_melee", (a.type == "cavalry" for a in att))
    applies = {
        "routed": _quant(t, "routed_defender", (d.routed for d in dfn)),
        "rear": s.position == "rear",
        "front_and_rear": s.position == "front_and_rear",
        "rear_in_enemy_front": s.rear_in_enemy_front,
        "cavalry_melee": cavalry and not s.charge,
        "heavy_charge": s.charge and heavy and not lost,
        "charge": s.charge and not heavy and not lost,
        "charge_vs_square": s.charge and square,
        "infantry_vs_square": square and all(a.type == "infantry" for a in att),
    }
    chosen = [r for r in t.melee.values() if applies.get(r.id)]
    cancelled = {c for r in chosen for c in r.params.get("cancels", ())}
    chosen = [r for r in chosen if r.id not in cancelled]

    def beaten(i: int, r: DrmRow) -> bool:
        """Not combined with a row that beats it: a higher one, or an equal one printed first."""
        return any(
            (o.id in r.params.get("not_with", ()) or r.id in o.params.get("not_with", ()))
            and (int(o.value) > int(r.value) or o.value == r.value and j < i)
            for j, o in enumerate(chosen)
        )

    kept = [r for i, r in enumerate(chosen) if not beaten(i, r)]
    return [Part(int(r.value), f"melee.{r.id}", r.rule) for r in kept]


def melee_modifiers(situation: MeleeSituation, tables: Tables = None) -> list[Part]:
    """Every modifier of the aid's melee DRM table that applies, one line each, in table order.

    Raises:
        IllegalCombatError: a charge without cavalry or against, from or through note (e)
            terrain; a defender in prohibited terrain; front-and-rear attackers not adjacent;
            a disordered attacker where ``readings.disordered_attack`` bars it.
        ValueError: no combat unit on a side (UnknownTerrainError: a terrain not in the chart).
    """
    t, s = tables or load_tables(), situation
    kinds = t.settings["combat_types"]
    att, dfn = ([u for u in side if u.type in kinds] for side in (s.attackers, s.defenders))
    if not att or not dfn:
        raise ValueError("a melee needs a combat unit on each side")
    both = t.melee["front_and_rear"]
    if (
        s.position == "front_and_rear"
        and not s.attackers_adjacent
        and both.params["attackers_adjacent"]
    ):
        raise IllegalCombatError("attackers_not_adjacent", both.rule)
    barred = t.settings["readings.disordered_attack"]
    charge_barred = barred == "melee_only" and s.charge
    if any(a.disordered for a in att) and (barred == "may_not" or charge_barred):
        raise IllegalCombatError("disordered_attacker", "default")
    cavalry = [a for a in att if a.type == "cavalry"]
    if s.charge and not cavalry:
        raise IllegalCombatError("charge_without_cavalry", t.melee["charge"].rule)
    # Note (e): no charge from, through or against such terrain.
    places = [("against", n) for n in s.terrain] + [("from", n) for a in cavalry for n in a.terrain]
    places += [("through", n) for a in cavalry for n in (*a.hexside, *a.works_held)]
    for where, n in places if s.charge else ():
        if "no_charge" in t.chart.row(n)["melee"].flags:
            if where == "through":  # a hexside feature or works
                raise IllegalCombatError(
                    "charge_through", t.notes["e"]["rule"], where=where, feature=n
                )
            raise IllegalCombatError("charge", t.notes["e"]["rule"], where=where, terrain=n)
    parts = [force_ratio_drm(sum(a.strength for a in att), sum(d.strength for d in dfn), t)]
    best_a, best_d = max(a.cohesion for a in att), max(d.cohesion for d in dfn)
    params = (("attacker", best_a), ("defender", best_d))
    parts.append(Part(best_a - best_d, "melee.cohesion", t.melee["cohesion"].rule, params))
    hex_part = _hex_part(t, "melee", s.terrain)
    parts += _pick(t, "approaches", [_approach(t, hex_part, a) for a in att])
    b, cav = t.notes["b"], _quant(t, "six_front_cavalry", (d.type == "cavalry" for d in dfn))
    if cav and _six_front(t, s.terrain) and any(a.type == b["attacker_type"] for a in att):
        parts.append(Part(b["cavalry_defender"], "melee.six_front_cavalry", b["rule"]))
    return parts + _fixed_rows(t, s, att, dfn)


def fire_modifiers(situation: FireSituation, tables: Tables = None) -> list[Part]:
    """Every modifier of the aid's fire DRM table that applies, one line each, in table order.

    Raises:
        IllegalCombatError: a firer with no fire; firers not one combined fire of a formation;
            a crest or steep slope at close range (note f). UnknownTerrainError: as above.
    """
    t, s = tables or load_tables(), situation
    rows = t.fire
    for f in s.firers:
        if f.type not in t.settings["fire_modifiers.firer_types"]:
            raise IllegalCombatError("fire_by", rows["fire_strength"].rule, type=f.type)
    combined = rows["combined_fire"]
    one = len({f.formation for f in s.firers}) == 1
    if len(s.firers) > 1 and (len(s.firers) != combined.params["units"] or not one):
        raise IllegalCombatError("combined_fire", combined.rule, count=len(s.firers))

    def line(row: DrmRow, value: int | None = None, **params: Any) -> Part:
        v = int(row.value) if value is None else value
        return Part(v, f"fire.{row.id}", row.rule, tuple(params.items()))

    # Combined fire: the higher fire strength and the shorter effective range count.
    strength = max(f.fire_strength for f in s.firers)
    effective = min(f.effective_range for f in s.firers)
    parts = [line(rows["fire_strength"], strength, strength=strength)]
    if len(s.firers) > 1:
        parts.append(line(combined))
    if any(f.in_square or _six_front(t, f.terrain) for f in s.firers):
        parts.append(line(rows["six_front_firer"]))
    if s.kind != "fire":
        row = rows["reaction_or_counter_battery"]
        parts.append(Part(int(row.value), f"fire.{s.kind}", row.params["rules"][s.kind]))
    close = s.range <= t.notes["f"]["close_range"]
    works, others = _side_parts(t, "fire", s.hexside, s.level, close)
    parts += _pick(t, "works", [[_hex_part(t, "fire", s.terrain)], *([w] for w in works)])
    parts += others
    row = rows["concentrated"]
    kinds = [u.type for u in s.targets if u.type in t.settings["combat_types"]]
    count = sum(1 for k in kinds if k not in row.params["not_types"])
    if count >= row.params["min_units"]:
        parts.append(line(row, count=count))
    if any(u.in_square for u in s.targets):
        parts.append(line(rows["square"]))
    row = rows["adjacent"]
    if s.range == row.params["range"] and set(kinds) & set(row.params["target_types"]):
        parts.append(line(row))
    if s.range <= effective:
        parts.append(line(rows["effective_range"], range=s.range, effective=effective))
    else:
        row, beyond = rows["long_range"], s.range - effective
        parts.append(line(row, int(row.value) * beyond, hexes=beyond))
    return parts


def fire_result(roll: int, total: int, tables: Tables = None) -> ResultRow:
    """The fire table's row for die ``roll`` + ``total`` (fire strength and DRM)."""
    return next(r for r in (tables or load_tables()).fire_table if r.covers(roll + total))


def melee_result(roll_total: int, tables: Tables = None) -> ResultRow:
    """The melee results table's row for a modified die roll."""
    return next(r for r in (tables or load_tables()).melee_table if r.covers(roll_total))


def cohesion_test_passes(
    roll: int, cohesion: int, modifiers: int = 0, tables: Tables = None
) -> bool:
    """True if a cohesion test (PZw) passes with die ``roll`` (default: roll + mods <= cohesion)."""
    at_most = (tables or load_tables()).settings["cohesion_test.pass_if"] == "at_most"
    return roll + modifiers <= cohesion if at_most else roll + modifiers < cohesion


def _dedupe(effects: Iterable[str]) -> Effects:
    return tuple(dict.fromkeys(effects))


def _effects(t: CombatTables, cell: ResultCell, side: Side, met: bool) -> Dist:
    """The exact effects of a result cell on one side, with every cohesion test it calls for."""
    cavalry, cohesion, modifiers, can_retreat = side
    italic = cavalry and cell.cavalry is not None and (cell.when is None or met)
    codes = cell.cavalry if italic and cell.cavalry is not None else cell.codes
    test = map_outcomes(
        distribution(t.die), lambda f: cohesion_test_passes(f, cohesion, modifiers, t)
    )
    dist: Dist = {(): Fraction(1)}
    for name in codes:
        effects, failed = t.codes[name]

        def apply(done: Effects, e: Effects = effects, f: Effects = failed) -> Dist:
            done = _dedupe((*done, *e))
            return map_outcomes(test, lambda ok: done if ok else _dedupe((*done, *f)))

        dist = bind(dist, apply)
    swap = {} if can_retreat else {"retreat": t.settings["retreat_blocked.becomes"]}
    dist = map_outcomes(dist, lambda e: _dedupe(x for y in e for x in swap.get(y, (y,))))
    return {e: p for e, p in dist.items() if p}


def _listed(dist: Mapping[Any, Fraction], sides: tuple[str, ...]) -> Outcomes:
    out = [({s: list(e) for s, e in zip(sides, k, strict=True)}, p) for k, p in dist.items() if p]
    return sorted(out, key=lambda o: (-o[1], json.dumps(o[0])))


def fire_distribution(
    total_drm: int, target_cohesion: int, cohesion_modifiers: int = 0, tables: Tables = None
) -> Outcomes:
    """Every result of a fire with its exact probability, ``[({"target": [...]}, p)]``.

    >>> fire_distribution(5, 5)
    [({'target': []}, Fraction(16, 25)), ({'target': ['disorder']}, Fraction(9, 25))]
    """
    t = tables or load_tables()
    side = (False, target_cohesion, cohesion_modifiers, True)

    def after(face: int) -> dict[tuple[Effects], Fraction]:
        cell = fire_result(face, total_drm, t).cells["result"]
        return map_outcomes(_effects(t, cell, side, True), lambda e: (e,))

    return _listed(bind(distribution(t.die), after), ("target",))


def melee_distribution(
    total_drm: int,
    attacker_cohesion: int,
    defender_cohesion: int,
    attacker_is_cavalry: bool,
    defender_is_cavalry: bool = False,
    *,
    countercharge: bool = False,
    cohesion_modifiers: tuple[int, int] = (0, 0),
    can_retreat: tuple[bool, bool] = (True, True),
    tables: Tables = None,
) -> Outcomes:
    """Every result of a melee with its exact probability, cohesion tests included.

    Each outcome is ``{"defender": [...], "attacker": [...]}``, likeliest first. ``countercharge``:
    the defender countercharged (9.4), so its cavalry may pursue an attacker that retreats;
    ``cohesion_modifiers`` and ``can_retreat`` are (attacker, defender).

    >>> melee_distribution(5, 5, 5, False)[1]
    ({'defender': ['retreat'], 'attacker': []}, Fraction(3, 10))
    """
    t = tables or load_tables()
    blocked = set(t.settings["retreat_blocked.becomes"]) | {"retreat"}
    att = (attacker_is_cavalry, attacker_cohesion, cohesion_modifiers[0], can_retreat[0])
    dfn = (defender_is_cavalry, defender_cohesion, cohesion_modifiers[1], can_retreat[1])

    def after(face: int) -> dict[tuple[Effects, Effects], Fraction]:
        row = melee_result(face + total_drm, t)

        def defender(a: Effects) -> dict[tuple[Effects, Effects], Fraction]:
            met = countercharge and bool(blocked & set(a))
            return map_outcomes(_effects(t, row.cells["defender"], dfn, met), lambda d: (d, a))

        return bind(_effects(t, row.cells["attacker"], att, True), defender)

    return _listed(bind(distribution(t.die), after), ("defender", "attacker"))
