"""Hex-map scenarios: the board of a hex battle, parsed, validated and indexed by cube hex
(format in docs/scenario-format.md).

``muster.scenario.parse_scenario`` is the entry point: it checks what every scenario has, then
calls ``parse_hex_scenario`` here (or ``areamap.parse_area_scenario``) and the scenario's
overrides. Every problem raises :class:`ScenarioError` naming the place (``hex 0412: unknown
terrain "wods"``); nothing is half-loaded.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from .errors import ScenarioError
from .hexgrid import HEX_DIRECTIONS, Hex, Hexside, Numbering, Orientation, Stagger, hex_distance
from .limits import (
    MAX_FORMATIONS,
    MAX_HEXES,
    MAX_HEXSIDE_ENTRIES,
    MAX_OBJECTIVES,
    MAX_SIDES,
    MAX_UNITS,
    check_count,
    too_large,
)
from .parsing import (
    ScenarioFacts,
    brief,
    expect,
    is_chain,
    json_object,
    known_name,
    nonempty_text,
    one_of,
    optional_text,
    show,
    whole_number,
)
from .systems import data_path
from .terrain import load_chart
from .texts import check_words

LEVELS = ("points", "demoralized", "broken")  # a side's army morale (hex-hexside)
UNIT_TYPES = ("infantry", "cavalry", "artillery", "leader")
UNIT_FLAGS = ("disordered", "routed", "square", "engaged", "support")  # units[].state
UNIT_FORMATIONS = ("column", "line")  # units[].state.formation
# Hexside features that have an up side; the scenario names it with "up".
DIRECTIONAL_FEATURES = frozenset({"slope", "crest", "steep_slope"})
ROAD_KINDS = frozenset({"road", "trail"})
ORIENTATIONS: tuple[Orientation, ...] = ("flat", "pointy")  # map.orientation
STAGGERS: tuple[Stagger, ...] = ("odd", "even")  # map.stagger
_STEPS = frozenset((d.q, d.r) for d in HEX_DIRECTIONS)  # (dq, dr) from a hex to a neighbour


def hex_terrains(system: str) -> frozenset[str]:
    """The hex terrain ids a scenario of ``system`` may use."""
    return load_chart(system).names("hex")


def hexside_features(system: str) -> frozenset[str]:
    """The hexside feature ids a scenario of ``system`` may use.

    A slope is one directional id (its chart rows top/bottom follow from "up"); bridges
    are drawn on the hexside they cross even where the chart files them with roads.
    """
    chart = load_chart(system)
    names = set(chart.names("hexside"))
    if {"slope_top", "slope_bottom"} & names:
        names -= {"slope_top", "slope_bottom"}
        names.add("slope")
    return frozenset(names | (chart.names("connection") - ROAD_KINDS))


def connection_kinds(system: str) -> frozenset[str]:
    """The road and trail kinds a scenario of ``system`` may draw."""
    return (load_chart(system).names("connection") & ROAD_KINDS) or frozenset({"road"})


@dataclass(frozen=True, slots=True)
class HexData:
    """What the map prints in one hex."""

    terrain: tuple[str, ...]
    level: int = 0


@dataclass(frozen=True, slots=True)
class HexsideData:
    """What the map prints on one hexside."""

    features: tuple[str, ...]
    name: str | dict[str, str] | None = None  # a text, or texts by language (muster.texts)
    up: Hex | None = None


@dataclass(slots=True)
class Scenario(ScenarioFacts):
    """A validated scenario: the raw JSON plus its board indexed by cube hex."""

    data: dict[str, Any]
    numbering: Numbering
    hexes: dict[Hex, HexData]
    hexsides: dict[Hexside, HexsideData]
    roads: dict[Hexside, tuple[str, ...]]
    units: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Indexes for searches, built once: on-map neighbours of each hex, and the hexside
    # features and roads between two adjacent hexes keyed by the ordered pair (both ways).
    neighbors: dict[Hex, tuple[Hex, ...]] = field(default_factory=dict)
    side_features: dict[tuple[Hex, Hex], tuple[str, ...]] = field(default_factory=dict)
    side_roads: dict[tuple[Hex, Hex], tuple[str, ...]] = field(default_factory=dict)
    memo: dict[Any, Any] = field(default_factory=dict)
    labels: dict[Hex, str] = field(default_factory=dict)  # printed numbers (given or worked out)
    at_label: dict[str, Hex] = field(default_factory=dict)  # on-map hexes by printed number

    def __post_init__(self) -> None:
        hexes = self.hexes
        if len(self.labels) != len(hexes):
            self.labels = {h: self.numbering.label(h) for h in hexes}
        self.at_label = {label: h for h, label in self.labels.items()}
        # Neighbours found by plain-tuple lookups (a Hex is a tuple): the map's own Hex
        # objects come back, with no new Hex built and checked per direction.
        own: dict[tuple[int, int, int], Hex] = {h: h for h in hexes}
        steps = [tuple(d) for d in HEX_DIRECTIONS]
        self.neighbors = {
            h: tuple(
                n
                for n in (own.get((h[0] + dq, h[1] + dr, h[2] + ds)) for dq, dr, ds in steps)
                if n is not None
            )
            for h in hexes
        }
        for side, data in self.hexsides.items():
            self.side_features[(side.a, side.b)] = data.features
            self.side_features[(side.b, side.a)] = data.features
        for side, kinds in self.roads.items():
            self.side_roads[(side.a, side.b)] = kinds
            self.side_roads[(side.b, side.a)] = kinds

    def hex_at(self, label: str) -> Hex:
        """The on-map hex printed as ``label``.

        Raises:
            ScenarioError: if the label is malformed or off the map.
        """
        found = self.at_label.get(label) if isinstance(label, str) else None
        if found is not None:
            return found
        return _on_map_hex(self.numbering, self.hexes, label, f"hex {label}")

    def label(self, h: Hex) -> str:
        """The printed number of ``h`` (on the map or off it)."""
        found = self.labels.get(h)
        return found if found is not None else self.numbering.label(h)


@dataclass(frozen=True, slots=True)
class _Grid:
    """A hex map while it is parsed: its numbering, its hexes, each hex by printed number."""

    numbering: Numbering
    hexes: dict[Hex, HexData]
    at: dict[str, Hex]

    def hex(self, label: Any, place: str) -> Hex:
        """The on-map hex printed as ``label``, else a refusal naming ``place``."""
        found = self.at.get(label) if isinstance(label, str) else None
        if found is not None:
            return found
        return _on_map_hex(self.numbering, self.hexes, label, place)  # other spellings, errors


def _on_map_hex(numbering: Numbering, hexes: dict[Hex, HexData], label: Any, place: str) -> Hex:
    if not isinstance(label, str):
        raise ScenarioError(place, "problem.hex_number", got=show(label))
    try:
        h = numbering.to_hex(label)
    except ValueError:
        digits = numbering.column_digits + numbering.row_digits
        raise ScenarioError(place, "problem.hex_digits", n=digits, got=show(label)) from None
    if h not in hexes:
        raise ScenarioError(place, "problem.off_map", id=brief(label))
    return h


def parse_hex_scenario(data: dict[str, Any], system: str) -> Scenario:
    """Validate a hex-map scenario and index its board: the part of
    ``muster.scenario.parse_scenario`` after the checks every scenario has (plain JSON within
    the limits, its format, id, title and system) and before its overrides; call that one.

    Raises:
        ScenarioError: naming the first place that is wrong.
        InvalidActionError: a count over its limit (``error.too_large``).
    """
    m = json_object(data.get("map"), "map")
    grid = _parse_grid(m, system)
    hexsides = _parse_hexsides(m.get("hexsides", []), system, grid)
    roads = _parse_roads(m.get("roads", []), system, grid)
    _parse_labels(m.get("labels", []), grid)
    sides = _parse_sides(data.get("sides"))
    units = _parse_units(data.get("units", []), sides, grid, system)
    _parse_play(data, sides, units, grid)
    labels = {h: label for label, h in grid.at.items()}
    return Scenario(data, grid.numbering, grid.hexes, hexsides, roads, units, labels=labels)


def _parse_grid(m: dict[str, Any], system: str) -> _Grid:
    orientation = one_of(m.get("orientation"), ORIENTATIONS, "map.orientation")
    stagger = one_of(m.get("stagger"), STAGGERS, "map.stagger")
    cd = whole_number(m.get("column_digits", 2), "map.column_digits", 1, 3)
    rd = whole_number(m.get("row_digits", 2), "map.row_digits", 1, 3)
    first_col = whole_number(m.get("first_column", 1), "map.first_column", 0, 10**cd - 1)
    first_row = whole_number(m.get("first_row", 1), "map.first_row", 0, 10**rd - 1)
    cols = whole_number(m.get("columns"), "map.columns", 1, 10**cd - first_col)
    rows = whole_number(m.get("rows"), "map.rows", 1, 10**rd - first_row)
    if cols * rows > MAX_HEXES:
        raise too_large("map", "hexes", cols * rows, MAX_HEXES)
    numbering = Numbering(orientation, stagger, cd, rd)
    terrains = hex_terrains(system)
    default = known_name(
        m.get("default_terrain", "clear"),
        terrains,
        "map.default_terrain",
        "problem.unknown_terrain",
    )
    listed = m.get("hexes", {})
    expect(isinstance(listed, dict), "map.hexes", "problem.hexes_object")
    check_count(listed, "map.hexes", "hexes", MAX_HEXES)
    plain = HexData((default,), 0)
    at = {
        f"{c:0{cd}d}{r:0{rd}d}": numbering.offset_to_hex(c, r)
        for c in range(first_col, first_col + cols)
        for r in range(first_row, first_row + rows)
    }
    _drop_off_map(m.get("off_map", []), at)
    hexes = dict.fromkeys(at.values(), plain)
    grid = _Grid(numbering, hexes, at)
    for label, spec in listed.items():
        place = f"hex {brief(label)}"
        h = grid.hex(label, place)
        expect(isinstance(spec, dict), place, "problem.object")
        unknown = set(spec) - {"terrain", "level"}
        if unknown:
            raise ScenarioError(place, "problem.unknown_key", got=show(sorted(unknown)[0]))
        terrain = spec.get("terrain", [default])
        if isinstance(terrain, str):
            terrain = [terrain]
        expect(isinstance(terrain, list) and terrain != [], place, "problem.terrain_list")
        for t in terrain:
            known_name(t, terrains, place, "problem.unknown_terrain")
        expect(len(set(terrain)) == len(terrain), place, "problem.terrain_twice")
        level = whole_number(spec.get("level", 0), place + " level", -9, 99)
        hexes[h] = HexData(tuple(terrain), level)
    return grid


def _drop_off_map(items: Any, at: dict[str, Hex]) -> None:
    """Take the hexes of ``map.off_map`` (printed numbers within the columns and rows that lie
    off a board that is no rectangle) out of the map: no unit, terrain, hexside, road or label
    may be there, and no move or line of sight passes through them. One hex at least stays."""
    expect(isinstance(items, list), "map.off_map", "problem.list")
    check_count(items, "map.off_map", "hexes", MAX_HEXES)
    seen: set[str] = set()
    for i, label in enumerate(items):
        place = f"map.off_map[{i}]"
        expect(isinstance(label, str), place, "problem.hex_number", got=show(label))
        expect(label not in seen, place, "problem.listed_twice")
        expect(label in at, place, "problem.off_map", id=brief(label))
        seen.add(label)
    expect(len(seen) < len(at), "map.off_map", "problem.all_off_map")
    for label in seen:
        del at[label]


def _pair(grid: _Grid, value: Any, place: str) -> tuple[Hex, Hex]:
    ok = isinstance(value, list) and len(value) == 2
    expect(ok, place, "problem.between")
    h1 = grid.hex(value[0], place)
    h2 = grid.hex(value[1], place)
    if hex_distance(h1, h2) != 1:
        raise ScenarioError(place, "problem.not_adjacent", id=value[0], other=value[1])
    return h1, h2


def _parse_hexsides(items: Any, system: str, grid: _Grid) -> dict[Hexside, HexsideData]:
    expect(isinstance(items, list), "map.hexsides", "problem.list")
    check_count(items, "map.hexsides", "hexsides", MAX_HEXSIDE_ENTRIES)
    known = hexside_features(system)
    out: dict[Hexside, HexsideData] = {}
    seen: set[tuple[Hex, Hex]] = set()  # (smaller, larger): hashed at C speed
    label, at = grid.numbering.label, grid.at.get
    for i, spec in enumerate(items):
        # The usual case fast (two printed numbers of adjacent hexes); the rest checked by
        # _pair, which names the place and the problem.
        pair = spec.get("between") if type(spec) is dict else None
        h1 = h2 = None
        if type(pair) is list and len(pair) == 2 and type(pair[0]) is type(pair[1]) is str:
            h1, h2 = at(pair[0]), at(pair[1])
        if h1 is None or h2 is None or (h2[0] - h1[0], h2[1] - h1[1]) not in _STEPS:
            if not isinstance(spec, dict):
                raise ScenarioError(f"map.hexsides[{i}]", "problem.object")
            h1, h2 = _pair(grid, spec.get("between"), f"map.hexsides[{i}]")
        key = (h1, h2) if h1 < h2 else (h2, h1)
        features = spec.get("features")
        ok = key not in seen and isinstance(features, list) and features != []
        ok = ok and all(isinstance(f, str) and f in known for f in features)
        if not ok:  # the place and the problem, worked out only when there is one
            place = f"hexside {label(h1)}/{label(h2)}"
            expect(key not in seen, place, "problem.listed_twice")
            expect(isinstance(features, list) and features != [], place, "problem.feature_list")
            for f in features:
                known_name(f, known, place, "problem.unknown_feature")
        up = None
        if DIRECTIONAL_FEATURES.intersection(features):
            place = f"hexside {label(h1)}/{label(h2)}"
            expect("up" in spec, place, "problem.up_needed")
            up = grid.hex(spec["up"], place)
            expect(up in (h1, h2), place, "problem.up_not_here", id=spec["up"])
        name = spec.get("name")
        if name is not None:
            check_words(name, f"hexside {label(h1)}/{label(h2)} name")
        seen.add(key)
        out[Hexside(*key)] = HexsideData(tuple(features), name, up)
    return out


def _parse_roads(items: Any, system: str, grid: _Grid) -> dict[Hexside, tuple[str, ...]]:
    expect(isinstance(items, list), "map.roads", "problem.list")
    check_count(items, "map.roads", "roads", MAX_HEXSIDE_ENTRIES)
    chains = [s["hexes"] for s in items if isinstance(s, dict) and is_chain(s, "hexes")]
    steps = sum(len(chain) - 1 for chain in chains)
    if steps > MAX_HEXSIDE_ENTRIES:
        raise too_large("map.roads", "road_hexsides", steps, MAX_HEXSIDE_ENTRIES)
    kinds = connection_kinds(system)
    out: dict[Hexside, tuple[str, ...]] = {}
    for i, spec in enumerate(items):
        place = f"map.roads[{i}]"
        expect(isinstance(spec, dict), place, "problem.object")
        kind = known_name(spec.get("kind", "road"), kinds, place, "problem.unknown_road_kind")
        chain = spec.get("hexes")
        expect(is_chain(spec, "hexes"), place, "problem.road_hexes")
        cells = [grid.hex(x, place) for x in chain]
        for a, b, la, lb in zip(cells, cells[1:], chain, chain[1:], strict=False):
            if hex_distance(a, b) != 1:
                raise ScenarioError(place, "problem.not_adjacent", id=la, other=lb)
            side = Hexside.between(a, b)
            if kind not in out.get(side, ()):
                out[side] = out.get(side, ()) + (kind,)
    return out


def _parse_labels(items: Any, grid: _Grid) -> None:
    expect(isinstance(items, list), "map.labels", "problem.list")
    check_count(items, "map.labels", "labels", MAX_HEXSIDE_ENTRIES)
    for i, spec in enumerate(items):
        place = f"map.labels[{i}]"
        expect(isinstance(spec, dict), place, "problem.object")
        grid.hex(spec.get("hex"), place)
        check_words(spec.get("text"), place + " text")


def _parse_sides(items: Any) -> set[str]:
    expect(isinstance(items, list) and len(items) >= 2, "sides", "problem.two_or_more_sides")
    check_count(items, "sides", "sides", MAX_SIDES)
    ids: set[str] = set()
    for i, spec in enumerate(items):
        place = f"sides[{i}]"
        expect(isinstance(spec, dict), place, "problem.object")
        sid = nonempty_text(spec.get("id"), place + " id")
        expect(sid not in ids, place, "problem.side_twice", got=show(sid))
        check_words(spec.get("name"), place + " name")
        optional_text(spec, "color", place)
        optional_text(spec, "text", place)
        if "army_morale" in spec:
            army, at = spec["army_morale"], f"side {brief(sid)} army_morale"
            expect(isinstance(army, dict), at, "problem.object")
            levels = [whole_number(army.get(k), f"{at} {k}", 0, 9999) for k in LEVELS]
            expect(levels[0] > levels[1] > levels[2], at, "problem.army_levels")
        ids.add(sid)
    return ids


def _parse_units(
    items: Any, sides: set[str], grid: _Grid, system: str
) -> dict[str, dict[str, Any]]:
    expect(isinstance(items, list), "units", "problem.list")
    check_count(items, "units", "units", MAX_UNITS)
    out: dict[str, dict[str, Any]] = {}
    for i, spec in enumerate(items):
        place = f"units[{i}]"
        expect(isinstance(spec, dict), place, "problem.object")
        uid = nonempty_text(spec.get("id"), place + " id")
        place = f"unit {brief(uid)}"
        expect(uid not in out, place, "problem.id_twice")
        known_name(spec.get("side"), sides, place, "problem.unknown_side")
        known_name(spec.get("type"), UNIT_TYPES, place, "problem.unknown_unit_type")
        check_words(spec.get("name"), place + " name")
        grid.hex(spec.get("hex"), place)
        ratings = spec.get("ratings", {})
        expect(isinstance(ratings, dict), place, "problem.ratings_object")
        for key, value in ratings.items():
            number = isinstance(value, int | float) and not isinstance(value, bool)
            if not number:
                raise ScenarioError(place, "problem.rating_number", id=show(key))
        check_ratings(system, spec["type"], ratings, place)
        if "facing" in spec:
            whole_number(spec["facing"], place + " facing", 0, 11)
        if "steps" in spec:
            whole_number(spec["steps"], place + " steps", 1, 99)
        if "formation" in spec:
            expect(isinstance(spec["formation"], str), place, "problem.formation_id")
        _unit_state(spec.get("state", {}), place + " state")
        out[uid] = spec
    return out


@cache
def unit_types(system: str) -> dict[str, Any]:
    """The unit types of ``system`` with the ratings each needs and its steps
    (``systems/<system>/units.json``: name, min, max, default, required)."""
    text = data_path(system, "units.json").read_text(encoding="utf-8")
    types: dict[str, Any] = json.loads(text)["types"]
    return types


def check_ratings(system: str, unit_type: str, ratings: dict[str, Any], place: str) -> None:
    """Refuse a rating the rules read that is not a whole number within its bounds for
    ``unit_type`` (units.json), or a required one that is missing; others are not read."""
    for spec in unit_types(system).get(unit_type, {}).get("ratings", ()):
        name, lo, hi = spec["name"], spec["min"], spec["max"]
        if name not in ratings:
            expect(not spec["required"], place, "problem.rating_missing", id=show(name))
            continue
        value = ratings[name]
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if not (isinstance(value, int) and lo <= value <= hi):
            got = show(ratings[name])
            raise ScenarioError(place, "problem.rating_range", id=show(name), lo=lo, hi=hi, got=got)


def _unit_state(state: Any, place: str) -> None:
    """Check a unit's starting flags: true/false flags, and a formation."""
    expect(isinstance(state, dict), place, "problem.object")
    for key, value in state.items():
        if key == "formation":
            known_name(value, UNIT_FORMATIONS, f"{place} formation", "problem.unknown_formation")
        else:
            known_name(key, UNIT_FLAGS, place, "problem.unknown_flag")
            expect(isinstance(value, bool), f"{place} {key}", "problem.bool")


def _parse_play(
    data: dict[str, Any],
    sides: set[str],
    units: dict[str, dict[str, Any]],
    grid: _Grid,
) -> None:
    """Check what play needs: turns, formations (and each unit's), objectives."""
    if "turns" in data:
        whole_number(data["turns"], "turns", 1, 99)
    ids: set[str] = set()
    items = data.get("formations", [])
    expect(isinstance(items, list), "formations", "problem.list")
    check_count(items, "formations", "formations", MAX_FORMATIONS)
    for i, spec in enumerate(items):
        place = f"formations[{i}]"
        expect(isinstance(spec, dict), place, "problem.object")
        fid = nonempty_text(spec.get("id"), place + " id")
        place = f"formation {brief(fid)}"
        expect(fid not in ids, place, "problem.id_twice")
        known_name(spec.get("side"), sides, place, "problem.unknown_side")
        check_words(spec.get("name"), place + " name")
        expect(isinstance(spec.get("orders", True), bool), place, "problem.orders_bool")
        ids.add(fid)
    side_of = {f["id"]: f["side"] for f in items}
    for uid, unit in units.items():
        if "formation" in unit:
            place = f"unit {brief(uid)}"
            fid = known_name(unit["formation"], ids, place, "problem.unknown_formation")
            side = side_of[fid]
            expect(side == unit["side"], place, "problem.formation_side", id=fid, other=side)
    items = data.get("objectives", [])
    expect(isinstance(items, list), "objectives", "problem.list")
    check_count(items, "objectives", "objectives", MAX_OBJECTIVES)
    for i, spec in enumerate(items):
        place = f"objectives[{i}]"
        expect(isinstance(spec, dict), place, "problem.object")
        grid.hex(spec.get("hex"), place)
        whole_number(spec.get("points"), place + " points", 0, 999)
