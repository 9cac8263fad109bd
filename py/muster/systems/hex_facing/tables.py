"""hex-facing's own tables: ``combat.json`` (the aid's modifier and result tables, and the
defaults it leaves open, each marked) read and checked into ``CombatTables``, on the terrain
chart whose Fire and Melee columns the modifiers read; a scenario's own defaults
(``overrides.combat``) checked and merged in.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ...dice import Die
from ...errors import ScenarioError
from ...parsing import brief, expect, show
from ...play import NOTES
from ...terrain import TerrainChart, chart_with_overrides, load_chart

SYSTEM = "hex-facing"
TABLE = "terrain table"
UNIT_TYPES = ("infantry", "cavalry", "artillery", "leader")
POSITIONS = ("front", "rear", "front_and_rear")
FIRE_KINDS = ("fire", "reaction", "counter_battery")
# The terrain table's level rows by the climb (levels up; negative: down) of a step or of an
# attack (the target's level minus the attacker's); the last row each way reads any climb beyond.
LEVEL_ROWS = {1: "level_up_1", 2: "level_up_2_plus", -1: "level_down_1", -2: "level_down_2_plus"}
MOST_LEVELS = max(LEVEL_ROWS)  # the climb of the "2+" rows
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


def level_row(climb: int) -> str | None:
    """The terrain table's row for a climb of ``climb`` levels (negative: down); None if level.

    >>> level_row(1), level_row(-3), level_row(0)
    ('level_up_1', 'level_down_2_plus', None)
    """
    return LEVEL_ROWS[max(-MOST_LEVELS, min(MOST_LEVELS, climb))] if climb else None


def raw_tables() -> dict[str, Any]:
    """A fresh copy of combat.json, parsed (for overrides and checks)."""
    data: dict[str, Any] = json.loads((Path(__file__).parent / "combat.json").read_text("utf-8"))
    return data


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
    found: CombatTables | None = scenario.memo.get("hf combat tables")
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
        at = place + "".join(f".{brief(k)}" for k in path)
        below = any(o[: len(path)] == path for o in opened)  # an open default under here
        if not below and not (isinstance(value, dict) and isinstance(node, dict)):
            # Named where it is written: a fact of the aid, or a default held fixed.
            if marked and not FACT_KEYS & set(path):
                raise ScenarioError(at, "problem.combat_fixed")
            raise ScenarioError(at, "problem.combat_fact")
        expect(isinstance(value, dict), at, "problem.object")
        for key, inner in value.items():
            here, spot = (*path, key), f"{at}.{brief(key)}"
            expect(key not in NOTES, spot, "problem.note")
            expect(isinstance(node, dict) and key in node, spot, "problem.no_such_combat_setting")
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
        return ", ".join(i if isinstance(i, str) else show(i) for i in items)

    if setting in CHOICES:
        choices = CHOICES[setting]
        ok = any(type(value) is type(c) and value == c for c in choices)
        expect(ok, at, "problem.one_of", options=listed(choices))
    elif setting in LISTS:
        items = LISTS[setting]
        ok = isinstance(value, list) and all(isinstance(v, str) and v in items for v in value)
        ok = ok and len(set(value)) == len(value) and (bool(value) or setting not in NOT_EMPTY)
        how = "problem.one_or_more_of_once" if setting in NOT_EMPTY else "problem.some_of_once"
        expect(ok, at, how, options=listed(items))
    else:
        least = NUMBERS[setting]
        ok = type(value) is int and value >= least
        expect(ok, at, "problem.at_least", least=least)


def number(x: Any) -> Fraction | None:
    """``x`` as an exact fraction if it is a number (a float by its shortest repr), else None."""
    ok = isinstance(x, int | float) and not isinstance(x, bool)
    return (Fraction(repr(x)) if isinstance(x, float) else Fraction(x)) if ok else None


def parse_tables(data: Any, chart: TerrainChart | None = None) -> CombatTables:
    """Check ``data`` (a parsed combat.json) and build its tables, on the system's chart.

    Raises:
        CombatDataError: the data is malformed; the message names the place.
    """
    read = _TablesReader(data)
    need, get = read.need, read.get
    need(isinstance(data, dict) and data.get("system") == SYSTEM, "system", f"not {SYSTEM!r}")
    read.explained(data, "")
    settings = read.settings()
    try:
        die = Die.from_json({k: get(f"die.{k}") for k in ("sides", "first")})
    except ValueError as e:
        raise CombatDataError(f"{SYSTEM} combat.json: die: {e}", "die") from None
    melee = read.drm_rows("melee_modifiers", MELEE_IDS)
    fire = read.drm_rows("fire_modifiers", FIRE_IDS)
    rules = fire["reaction_or_counter_battery"].params["rules"]
    need(set(rules) == set(FIRE_KINDS[1:]), "fire reaction row", f"rules for {FIRE_KINDS[1:]}")
    notes = get("terrain_notes")
    for note in "befgh":
        ok = isinstance(notes.get(note), dict) and isinstance(notes[note].get("rule"), str)
        need(ok, f"terrain_notes {note!r}", "missing, or without its rule")
        read.params(notes[note], note, f"terrain_notes {note!r}")
    codes = read.result_codes()
    notes = MappingProxyType({k: MappingProxyType(v) for k, v in notes.items()})
    ratios = read.ratio_rows()
    fire_table = read.bands("fire_table", "total", codes)
    tables = (melee, fire, ratios, fire_table, read.bands("melee_table", "roll", codes))
    extra = (codes, notes, MappingProxyType(settings), chart or load_chart(SYSTEM))
    return CombatTables(die, *tables, *extra)


class _TablesReader:
    """The checks of a combat.json, table by table (``parse_tables``)."""

    def __init__(self, data: Any) -> None:
        self.data = data

    def need(self, ok: bool, place: str, problem: str) -> None:
        """A ``CombatDataError`` naming ``place`` unless ``ok``."""
        if not ok:
            raise CombatDataError(f"{SYSTEM} combat.json: {place}: {problem}", place)

    def texts(self, x: Any, place: str) -> tuple[str, ...]:
        """``x`` if it is a list of texts."""
        ok = isinstance(x, list) and all(isinstance(s, str) for s in x)
        self.need(ok, place, "expected texts")
        return tuple(x)

    def get(self, path: str) -> Any:
        """The entry at a dotted ``path`` (its ``value`` where it has one)."""
        x = self.data
        for key in path.split("."):
            self.need(isinstance(x, dict) and key in x, path, "missing")
            x = x[key]
        return x["value"] if isinstance(x, dict) and "value" in x else x

    def explained(self, x: Any, place: str) -> None:
        """Every default (or implied reading) under ``x`` says why."""
        if isinstance(x, dict):
            if x.get("default") is True or x.get("implied") is True:
                ok = isinstance(x.get("why"), str) and bool(x["why"])
                self.need(ok, place, "default: no why")
            for k, v in x.items():
                self.explained(v, f"{place}.{k}" if place else k)
        elif isinstance(x, list):
            for i, v in enumerate(x):
                self.explained(v, f"{place}[{i}]")

    def params(self, x: dict[str, Any], name: str, place: str) -> None:
        """The parameters the code reads of a row or note (``PARAMS``), each of its type."""
        for k, kind in PARAMS.get(name, {}).items():
            ok = isinstance(x.get(k), kind) and isinstance(x.get(k), bool) == (kind is bool)
            self.need(ok, f"{place} {k}", f"expected a {kind.__name__}")

    def settings(self) -> dict[str, Any]:
        """The settings the code reads, each of its choices, items or least value."""
        need = self.need
        settings: dict[str, Any] = {path: self.get(path) for path in (*CHOICES, *LISTS, *NUMBERS)}
        for path, choices in CHOICES.items():
            ok = any(settings[path] == c and type(settings[path]) is type(c) for c in choices)
            need(ok, path, f"expected one of {choices}")
        for path, items in LISTS.items():
            settings[path] = self.texts(settings[path], path)
            need(set(settings[path]) <= set(items), path, f"expected some of {items}")
        for path, least in NUMBERS.items():
            ok = type(settings[path]) is int and settings[path] >= least
            need(ok, path, f"expected a whole number of at least {least}")
        return settings

    def drm_rows(self, section: str, ids: tuple[str, ...]) -> Mapping[str, DrmRow]:
        """A DRM table's rows, in the order the code knows them."""
        need, texts = self.need, self.texts
        rows: dict[str, DrmRow] = {}
        for i, r in enumerate(self.get(f"{section}.rows")):
            need(isinstance(r, dict) and isinstance(r.get("id"), str), f"{section}[{i}]", "no id")
            place = f"{section} row {r['id']!r}"
            texts([r.get(k) for k in ("kind", "rule", "seed", "condition")], place + " texts")
            v = r.get("value")
            ok = v == COMPUTED[r["id"]] if r["id"] in COMPUTED else type(v) is int
            need(ok and r["id"] not in rows, place, f"twice, or not {COMPUTED.get(r['id'], int)}")
            self.params(r, r["id"], place)
            extra = {k: x for k, x in r.items() if k not in ("id", "rule", "value")}
            rows[r["id"]] = DrmRow(r["id"], v, r["rule"], MappingProxyType(extra))
        need(tuple(rows) == ids, section, f"expected the rows {ids} in this order")
        for row in rows.values():
            for k in ("not_with", "cancels", "added_to"):
                refs = texts(row.params.get(k, []), f"{section} row {row.id!r} {k}")
                need(set(refs) <= set(rows), f"{section} row {row.id!r} {k}", "unknown row")
        return MappingProxyType(rows)

    def ratio_rows(self) -> tuple[RatioRow, ...]:
        """The force ratio table's rows, falling in ratio and DRM."""
        need = self.need
        rows: list[RatioRow] = []
        for i, r in enumerate(self.get("force_ratio.rows")):
            place = f"force_ratio.rows[{i}]"
            need(isinstance(r, dict) and isinstance(r.get("ratio"), str), place, "no ratio")
            a, d = number(r.get("attacker")), number(r.get("defender"))
            ok = a is not None and d is not None and a > 0 and d > 0
            need(ok and type(r.get("drm")) is int, place, "expected strengths > 0 and a drm")
            rows.append(RatioRow(r["ratio"], (a or Fraction(1)) / (d or 1), r["drm"]))
            ok = len(rows) == 1 or rows[-1].value < rows[-2].value and rows[-1].drm < rows[-2].drm
            need(ok, place, "rows must fall in ratio and DRM")
        need(bool(rows), "force_ratio.rows", "no rows")
        return tuple(rows)

    def result_codes(self) -> Mapping[str, Code]:
        """The result codes: each one's effects, and more if its cohesion test fails."""
        need, texts = self.need, self.texts
        codes: dict[str, Code] = {}
        procedures = self.get("procedures")
        for name, c in self.get("codes").items():
            place = f"codes {name!r}"
            ok = isinstance(c, dict) and c.get("procedure", "") in {"", *procedures}
            need(ok, place, "expected an object naming a known procedure, if any")
            c = {**procedures.get(c.get("procedure"), {}), **c}
            failed = texts(c.get("failed", []), place + " failed")
            need(bool(failed) == (c.get("test") is True), place, "a test needs its failure")
            codes[name] = (texts(c.get("effects"), place + " effects"), failed)
        return MappingProxyType(codes)

    def bands(self, section: str, key: str, codes: Mapping[str, Code]) -> tuple[ResultRow, ...]:
        """A result table's rows: from an open top to an open bottom with no gap."""
        need = self.need
        out: list[ResultRow] = []
        listed = self.get(f"{section}.rows")
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
            for side in (k for k in self.get(f"{section}.columns") if k != key):
                cells[side] = self.result_cell(r.get(side), f"{place} {side}", codes)
            out.append(ResultRow(low, high, r["seed"], MappingProxyType(cells)))
        return tuple(out)

    def result_cell(self, c: Any, at: str, codes: Mapping[str, Code]) -> ResultCell:
        """A cell of a result table: known codes, the italic cavalry codes, when they apply."""
        need, texts = self.need, self.texts
        need(isinstance(c, dict) and c.get("when") in (None, *WHEN), at, "bad cell")
        cavalry = None if c.get("cavalry") is None else texts(c["cavalry"], at)
        need(set(texts(c.get("codes"), at) + (cavalry or ())) <= set(codes), at, "code?")
        rules = texts(c.get("rules", []), f"{at} rules")
        return ResultCell(tuple(c["codes"]), cavalry, c.get("when"), rules)
