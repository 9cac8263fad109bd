"""Scenario files: parse, validate and index a hex-map battle (format in docs/scenario-format.md).

Every problem raises :class:`ScenarioError` naming the place (``hex 0412: unknown terrain
"wods"``); nothing is half-loaded.
"""

from __future__ import annotations

import gc
import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from .errors import ScenarioError
from .hexgrid import HEX_DIRECTIONS, Hex, Hexside, Numbering, hex_distance
from .limits import (
    MAX_FORMATIONS,
    MAX_HEXES,
    MAX_HEXSIDE_ENTRIES,
    MAX_OBJECTIVES,
    MAX_SCENARIO_CHARS,
    MAX_SIDES,
    MAX_UNITS,
    check_count,
    check_plain,
    check_size,
    too_large,
)
from .terrain import TerrainDataError, chart_with_overrides, load_chart

FORMAT = "muster-scenario/1"
SYSTEMS = ("hex-facing", "hex-hexside", "area-locale")
# The kind of map a scenario of each system has: a hex grid, or areas (docs/scenario-format.md).
MAP_KINDS = {"hex-facing": "hex", "hex-hexside": "hex", "area-locale": "areas"}
# How a side's army morale is written, by system (sides[].army_morale): three levels, one
# number, or not at all.
ARMY_MORALE = {"hex-facing": None, "hex-hexside": "levels", "area-locale": "number"}
LEVELS = ("points", "demoralized", "broken")  # a side's army morale (hex-hexside)
UNIT_TYPES = ("infantry", "cavalry", "artillery", "leader")
UNIT_FLAGS = ("disordered", "routed", "square", "engaged", "support")  # units[].state
UNIT_FORMATIONS = ("column", "line")  # units[].state.formation
# Hexside features that have an up side; the scenario names it with "up".
DIRECTIONAL_FEATURES = frozenset({"slope", "crest", "steep_slope"})
ROAD_KINDS = frozenset({"road", "trail"})
_STEPS = frozenset((d.q, d.r) for d in HEX_DIRECTIONS)  # (dq, dr) from a hex to a neighbour
SCENARIO_DIR = Path(__file__).parent / "scenarios"
DEFAULT_SCENARIO = "demo-hohenbrueck"


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
    name: str | None = None
    up: Hex | None = None


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
        own = {h: h for h in hexes}.get
        steps = [tuple(d) for d in HEX_DIRECTIONS]
        self.neighbors = {
            h: tuple(
                n
                for n in (own((h[0] + dq, h[1] + dr, h[2] + ds)) for dq, dr, ds in steps)
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


def _expect(cond: bool, place: str, problem: str) -> None:
    if not cond:
        raise ScenarioError(place, problem)


def _show(value: Any, limit: int = 60) -> str:
    """``value`` as JSON for a message, cut short (check it with ``check_plain`` first).

    >>> _show("wods"), _show(["a", {"b": None}]), _show("x" * 100, 8)
    ('"wods"', '["a", {"b": null}]', '"xxxxxx…')
    """
    if isinstance(value, str) and len(value) > limit:
        value = value[:limit]  # no need to write a long text out to cut it
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _brief(name: str, limit: int = 40) -> str:
    """A name (an id, a hex number) for a place in a message, cut short."""
    return name if len(name) <= limit else name[:limit] + "…"


def _int(value: Any, place: str, lo: int, hi: int) -> int:
    ok = isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi
    if not ok:
        raise ScenarioError(place, f"expected a whole number from {lo} to {hi}, got {_show(value)}")
    return int(value)


def _str(value: Any, place: str) -> str:
    _expect(isinstance(value, str) and value != "", place, "expected a non-empty text")
    return str(value)


def _known(value: Any, names: Any, place: str, what: str) -> str:
    """``value`` if it is one of ``names`` (texts), else a refusal: unknown ``what``.

    Never hashes a value that is not text, so a list or object is refused, not crashed on.
    """
    if not (isinstance(value, str) and value in names):
        raise ScenarioError(place, f"unknown {what} {_show(value)}")
    return value


def _optional_text(spec: dict[str, Any], key: str, place: str) -> None:
    """Refuse ``spec[key]`` when it is given and is not text (drawing-only fields)."""
    if key in spec:
        _expect(isinstance(spec[key], str), f"{place} {key}", "expected a text")


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
        raise ScenarioError(place, f"expected a hex number, got {_show(label)}")
    try:
        h = numbering.to_hex(label)
    except ValueError as exc:
        raise ScenarioError(place, str(exc)) from None
    if h not in hexes:
        raise ScenarioError(place, f"hex {label} is not on the map")
    return h


def parse_scenario(data: Any) -> Scenario:
    """Validate a scenario's JSON object and index its board.

    Any JSON value in any place is either what the format allows or refused; the limits
    (``muster.limits``, docs/scenario-format.md "Limits") are checked before the work they bound.

    Raises:
        ScenarioError: naming the first place that is wrong.
        InvalidActionError: not plain JSON, or over a limit (``error.too_large`` and others of
            ``muster.limits``), naming the place.
    """
    collecting = gc.isenabled()
    gc.disable()  # many new objects and no cycles: a collection meanwhile only costs (~30 %)
    try:
        return _parse_scenario(data)
    finally:
        if collecting:
            gc.enable()


def _parse_scenario(data: Any) -> Scenario:
    check_plain(data, "scenario")
    _expect(isinstance(data, dict), "scenario", "expected a JSON object")
    check_size(data, "scenario", MAX_SCENARIO_CHARS)
    _expect(data.get("format") == FORMAT, "format", f'expected "{FORMAT}"')
    _str(data.get("id"), "id")
    _str(data.get("title"), "title")
    _optional_text(data, "description", "scenario")
    system = _known(data.get("system"), SYSTEMS, "system", "system")
    if system == "area-locale":
        from .areamap import parse_area_scenario

        return parse_area_scenario(data)  # type: ignore[return-value]
    m = data.get("map")
    _expect(isinstance(m, dict), "map", "expected a JSON object")
    grid = _parse_grid(m, system)
    hexsides = _parse_hexsides(m.get("hexsides", []), system, grid)
    roads = _parse_roads(m.get("roads", []), system, grid)
    _parse_labels(m.get("labels", []), grid)
    sides = _parse_sides(data.get("sides"))
    units = _parse_units(data.get("units", []), sides, grid, system)
    _parse_play(data, sides, units, grid)
    _parse_overrides(data.get("overrides", {}), system)
    labels = {h: label for label, h in grid.at.items()}
    return Scenario(data, grid.numbering, grid.hexes, hexsides, roads, units, labels=labels)


def _parse_grid(m: dict[str, Any], system: str) -> _Grid:
    orientation = m.get("orientation")
    _expect(orientation in ("flat", "pointy"), "map.orientation", 'expected "flat" or "pointy"')
    stagger = m.get("stagger")
    _expect(stagger in ("odd", "even"), "map.stagger", 'expected "odd" or "even"')
    cd = _int(m.get("column_digits", 2), "map.column_digits", 1, 3)
    rd = _int(m.get("row_digits", 2), "map.row_digits", 1, 3)
    first_col = _int(m.get("first_column", 1), "map.first_column", 0, 10**cd - 1)
    first_row = _int(m.get("first_row", 1), "map.first_row", 0, 10**rd - 1)
    cols = _int(m.get("columns"), "map.columns", 1, 10**cd - first_col)
    rows = _int(m.get("rows"), "map.rows", 1, 10**rd - first_row)
    if cols * rows > MAX_HEXES:
        raise too_large("map", "hexes", cols * rows, MAX_HEXES)
    numbering = Numbering(orientation, stagger, cd, rd)
    terrains = hex_terrains(system)
    default = _known(m.get("default_terrain", "clear"), terrains, "map.default_terrain", "terrain")
    listed = m.get("hexes", {})
    _expect(isinstance(listed, dict), "map.hexes", "expected a JSON object keyed by hex number")
    check_count(listed, "map.hexes", "hexes", MAX_HEXES)
    plain = HexData((default,), 0)
    at = {
        f"{c:0{cd}d}{r:0{rd}d}": numbering.offset_to_hex(c, r)
        for c in range(first_col, first_col + cols)
        for r in range(first_row, first_row + rows)
    }
    hexes = dict.fromkeys(at.values(), plain)
    grid = _Grid(numbering, hexes, at)
    for label, spec in listed.items():
        place = f"hex {_brief(label)}"
        h = grid.hex(label, place)
        _expect(isinstance(spec, dict), place, "expected a JSON object")
        unknown = set(spec) - {"terrain", "level"}
        if unknown:
            raise ScenarioError(place, f"unknown key {_show(sorted(unknown)[0])}")
        terrain = spec.get("terrain", [default])
        if isinstance(terrain, str):
            terrain = [terrain]
        _expect(isinstance(terrain, list) and terrain != [], place, "terrain must be a list")
        for t in terrain:
            _known(t, terrains, place, "terrain")
        _expect(len(set(terrain)) == len(terrain), place, "terrain listed twice")
        level = _int(spec.get("level", 0), place + " level", -9, 99)
        hexes[h] = HexData(tuple(terrain), level)
    return grid


def _pair(grid: _Grid, value: Any, place: str) -> tuple[Hex, Hex]:
    ok = isinstance(value, list) and len(value) == 2
    _expect(ok, place, 'expected "between": two hex numbers')
    h1 = grid.hex(value[0], place)
    h2 = grid.hex(value[1], place)
    if hex_distance(h1, h2) != 1:
        raise ScenarioError(place, f"hexes {value[0]} and {value[1]} are not adjacent")
    return h1, h2


def _parse_hexsides(items: Any, system: str, grid: _Grid) -> dict[Hexside, HexsideData]:
    _expect(isinstance(items, list), "map.hexsides", "expected a list")
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
                raise ScenarioError(f"map.hexsides[{i}]", "expected a JSON object")
            h1, h2 = _pair(grid, spec.get("between"), f"map.hexsides[{i}]")
        key = (h1, h2) if h1 < h2 else (h2, h1)
        features = spec.get("features")
        ok = key not in seen and isinstance(features, list) and features != []
        ok = ok and all(isinstance(f, str) and f in known for f in features)
        if not ok:  # the place and the problem, worked out only when there is one
            place = f"hexside {label(h1)}/{label(h2)}"
            _expect(key not in seen, place, "listed twice")
            _expect(isinstance(features, list) and features != [], place, "expected a feature list")
            for f in features:
                _known(f, known, place, "hexside feature")
        up = None
        if DIRECTIONAL_FEATURES.intersection(features):
            place = f"hexside {label(h1)}/{label(h2)}"
            _expect("up" in spec, place, 'a slope or crest needs "up": the higher hex')
            up = grid.hex(spec["up"], place)
            _expect(up in (h1, h2), place, f"up hex {spec['up']} is not one of the two hexes")
        name = spec.get("name")
        if name is not None:
            _str(name, f"hexside {label(h1)}/{label(h2)} name")
        seen.add(key)
        out[Hexside(*key)] = HexsideData(tuple(features), name, up)
    return out


def _parse_roads(items: Any, system: str, grid: _Grid) -> dict[Hexside, tuple[str, ...]]:
    _expect(isinstance(items, list), "map.roads", "expected a list")
    check_count(items, "map.roads", "roads", MAX_HEXSIDE_ENTRIES)
    chains = [s["hexes"] for s in items if isinstance(s, dict) and _chain(s, "hexes")]
    steps = sum(len(chain) - 1 for chain in chains)
    if steps > MAX_HEXSIDE_ENTRIES:
        raise too_large("map.roads", "road_hexsides", steps, MAX_HEXSIDE_ENTRIES)
    kinds = connection_kinds(system)
    out: dict[Hexside, tuple[str, ...]] = {}
    for i, spec in enumerate(items):
        place = f"map.roads[{i}]"
        _expect(isinstance(spec, dict), place, "expected a JSON object")
        kind = _known(spec.get("kind", "road"), kinds, place, "road kind")
        chain = spec.get("hexes")
        _expect(_chain(spec, "hexes"), place, "expected 2 or more hexes")
        cells = [grid.hex(x, place) for x in chain]
        for a, b, la, lb in zip(cells, cells[1:], chain, chain[1:], strict=False):
            if hex_distance(a, b) != 1:
                raise ScenarioError(place, f"hexes {la} and {lb} are not adjacent")
            side = Hexside.between(a, b)
            if kind not in out.get(side, ()):
                out[side] = out.get(side, ()) + (kind,)
    return out


def _chain(spec: dict[str, Any], key: str) -> bool:
    """True if ``spec[key]`` is a list of two or more (a road's hexes or locales)."""
    chain = spec.get(key)
    return isinstance(chain, list) and len(chain) >= 2


def _parse_labels(items: Any, grid: _Grid) -> None:
    _expect(isinstance(items, list), "map.labels", "expected a list")
    check_count(items, "map.labels", "labels", MAX_HEXSIDE_ENTRIES)
    for i, spec in enumerate(items):
        place = f"map.labels[{i}]"
        _expect(isinstance(spec, dict), place, "expected a JSON object")
        grid.hex(spec.get("hex"), place)
        _str(spec.get("text"), place + " text")


def _parse_sides(items: Any) -> set[str]:
    _expect(isinstance(items, list) and len(items) >= 2, "sides", "expected two or more sides")
    check_count(items, "sides", "sides", MAX_SIDES)
    ids: set[str] = set()
    for i, spec in enumerate(items):
        place = f"sides[{i}]"
        _expect(isinstance(spec, dict), place, "expected a JSON object")
        sid = _str(spec.get("id"), place + " id")
        _expect(sid not in ids, place, f"side {_show(sid)} listed twice")
        _str(spec.get("name"), place + " name")
        _optional_text(spec, "color", place)
        _optional_text(spec, "text", place)
        if "army_morale" in spec:
            army, at = spec["army_morale"], f"side {_brief(sid)} army_morale"
            _expect(isinstance(army, dict), at, "expected a JSON object")
            levels = [_int(army.get(k), f"{at} {k}", 0, 9999) for k in LEVELS]
            _expect(levels[0] > levels[1] > levels[2], at, "expected points > demoralized > broken")
        ids.add(sid)
    return ids


def _parse_units(
    items: Any, sides: set[str], grid: _Grid, system: str
) -> dict[str, dict[str, Any]]:
    _expect(isinstance(items, list), "units", "expected a list")
    check_count(items, "units", "units", MAX_UNITS)
    out: dict[str, dict[str, Any]] = {}
    for i, spec in enumerate(items):
        place = f"units[{i}]"
        _expect(isinstance(spec, dict), place, "expected a JSON object")
        uid = _str(spec.get("id"), place + " id")
        place = f"unit {_brief(uid)}"
        _expect(uid not in out, place, "id used twice")
        _known(spec.get("side"), sides, place, "side")
        _known(spec.get("type"), UNIT_TYPES, place, "unit type")
        _str(spec.get("name"), place + " name")
        grid.hex(spec.get("hex"), place)
        ratings = spec.get("ratings", {})
        _expect(isinstance(ratings, dict), place, "ratings must be a JSON object")
        for key, value in ratings.items():
            number = isinstance(value, int | float) and not isinstance(value, bool)
            if not number:
                raise ScenarioError(place, f"rating {_show(key)} must be a number")
        check_ratings(system, spec["type"], ratings, place)
        if "facing" in spec:
            _int(spec["facing"], place + " facing", 0, 11)
        if "steps" in spec:
            _int(spec["steps"], place + " steps", 1, 99)
        if "formation" in spec:
            _expect(isinstance(spec["formation"], str), place, "formation must be a formation id")
        _unit_state(spec.get("state", {}), place + " state")
        out[uid] = spec
    return out


@cache
def unit_types(system: str) -> dict[str, Any]:
    """The unit types of ``system`` with the ratings each needs and its steps
    (``systems/<system>/units.json``: name, min, max, default, required)."""
    path = Path(__file__).parent / "systems" / system.replace("-", "_") / "units.json"
    return json.loads(path.read_text(encoding="utf-8"))["types"]


def check_ratings(system: str, unit_type: str, ratings: dict[str, Any], place: str) -> None:
    """Refuse a rating the rules read that is not a whole number within its bounds for
    ``unit_type`` (units.json), or a required one that is missing; others are not read."""
    for spec in unit_types(system).get(unit_type, {}).get("ratings", ()):
        name, lo, hi = spec["name"], spec["min"], spec["max"]
        if name not in ratings:
            _expect(not spec["required"], place, f"rating {_show(name)} is missing")
            continue
        value = ratings[name]
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if not (isinstance(value, int) and lo <= value <= hi):
            raise ScenarioError(
                place,
                f"rating {_show(name)} must be a whole number from {lo} to {hi}, "
                f"got {_show(ratings[name])}",
            )


def _unit_state(state: Any, place: str) -> None:
    """Check a unit's starting flags: true/false flags, and a formation."""
    _expect(isinstance(state, dict), place, "expected a JSON object")
    for key, value in state.items():
        if key == "formation":
            _known(value, UNIT_FORMATIONS, f"{place} formation", "formation")
        else:
            _known(key, UNIT_FLAGS, place, "flag")
            _expect(isinstance(value, bool), f"{place} {key}", "expected true or false")


def _parse_play(
    data: dict[str, Any],
    sides: set[str],
    units: dict[str, dict[str, Any]],
    grid: _Grid,
) -> None:
    """Check what play needs: turns, formations (and each unit's), objectives."""
    if "turns" in data:
        _int(data["turns"], "turns", 1, 99)
    ids: set[str] = set()
    items = data.get("formations", [])
    _expect(isinstance(items, list), "formations", "expected a list")
    check_count(items, "formations", "formations", MAX_FORMATIONS)
    for i, spec in enumerate(items):
        place = f"formations[{i}]"
        _expect(isinstance(spec, dict), place, "expected a JSON object")
        fid = _str(spec.get("id"), place + " id")
        place = f"formation {_brief(fid)}"
        _expect(fid not in ids, place, "id used twice")
        _known(spec.get("side"), sides, place, "side")
        _str(spec.get("name"), place + " name")
        _expect(isinstance(spec.get("orders", True), bool), place, "orders must be true or false")
        ids.add(fid)
    side_of = {f["id"]: f["side"] for f in items}
    for uid, unit in units.items():
        if "formation" in unit:
            place = f"unit {_brief(uid)}"
            fid = _known(unit["formation"], ids, place, "formation")
            side = side_of[fid]
            _expect(side == unit["side"], place, f"formation {fid} is of side {side}")
    items = data.get("objectives", [])
    _expect(isinstance(items, list), "objectives", "expected a list")
    check_count(items, "objectives", "objectives", MAX_OBJECTIVES)
    for i, spec in enumerate(items):
        place = f"objectives[{i}]"
        _expect(isinstance(spec, dict), place, "expected a JSON object")
        grid.hex(spec.get("hex"), place)
        _int(spec.get("points"), place + " points", 0, 999)


def _parse_overrides(overrides: Any, system: str) -> None:
    """Check a scenario's table overrides against the tables they change."""
    from .los import LosDataError, los_config
    from .movement import movement_data

    _expect(isinstance(overrides, dict), "overrides", "expected a JSON object")
    if "crt" in overrides:  # an owner's combat results table: hex-hexside's alone
        _expect(system == "hex-hexside", "overrides.crt", CRT_ONLY.format(system=system))
        from .systems.hex_hexside.rules import check_scenario_crt

        check_scenario_crt(overrides["crt"])
        overrides = {k: v for k, v in overrides.items() if k != "crt"}
    unknown = set(overrides) - set(override_tables(system))
    if unknown:
        raise ScenarioError("overrides", f"unknown table {_show(sorted(unknown)[0])}")
    if "terrain" in overrides:
        try:
            chart_with_overrides(system, overrides["terrain"])
        except TerrainDataError as exc:
            raise ScenarioError("overrides.terrain", str(exc)) from None
    if "los" in overrides:
        try:
            los_config(system, overrides["los"])
        except LosDataError as exc:
            raise ScenarioError("overrides.los", str(exc)) from None
    movement = overrides.get("movement", {})
    _expect(isinstance(movement, dict), "overrides.movement", "expected a JSON object")
    defaults = movement_data(system) if "movement" in overrides else {}
    for key, value in movement.items():
        place = f"overrides.movement.{_brief(key)}"
        _expect(key in defaults, place, "no such movement setting")
        _expect(type(value) is type(defaults[key]), place, "not the type of the setting")
        if isinstance(value, dict):
            extra = set(value) - set(defaults[key])
            if extra:
                raise ScenarioError(place, f"unknown key {_show(sorted(extra)[0])}")
            for sub, v in value.items():
                _like(defaults[key][sub], v, f"{place}.{_brief(sub)}")
        else:
            _like(defaults[key], value, place)
    if "sequence" in overrides:
        _like(_sequence_data(system), overrides["sequence"], "overrides.sequence")
    _choices(system, overrides)


# A scenario's own combat results table (overrides.crt) is read by hex-hexside alone.
CRT_ONLY = (
    "only a hex-hexside scenario may hold its own combat results table (this one is {system})"
)


# Settings whose values come from a closed set, where the kind alone lets through a value the
# rules cannot read: the terrain chart column each unit type moves by, and the orderings of
# steps (a non-empty list of distinct items of the default's).
ORDERINGS = ("formation_steps",)


def _choices(system: str, overrides: dict[str, Any]) -> None:
    """Check the overridden settings that name a chart column or order the default's steps."""
    columns = overrides.get("movement", {}).get("unit_columns", {})
    if columns:
        chart = load_chart(system)
        allowed = {c.key for c in chart.columns if c.group == "movement"}
        for unit_type, column in columns.items():
            place = f"overrides.movement.unit_columns.{unit_type}"
            _known(column, allowed, place, "movement column")
    sequence = overrides.get("sequence", {})
    for key in ORDERINGS:
        if key in sequence:
            steps, allowed = sequence[key], _sequence_data(system)[key]
            ok = steps != [] and len(set(steps)) == len(steps) and set(steps) <= set(allowed)
            _expect(ok, f"overrides.sequence.{key}", f"expected some of {', '.join(allowed)}")


def override_tables(system: str) -> tuple[str, ...]:
    """The tables a scenario of ``system`` may override: those the system ships."""
    folder = Path(__file__).parent / "systems" / system.replace("-", "_")
    names = ("los", "movement", "terrain", "sequence")
    return tuple(n for n in names if (folder / f"{n}.json").exists())


def _sequence_data(system: str) -> dict[str, Any]:
    path = Path(__file__).parent / "systems" / system.replace("-", "_") / "sequence.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def _like(default: Any, value: Any, place: str) -> None:
    """Check an override against the default it replaces: known keys, the same kinds; a
    whole number where the default is one; list items like the default's items.

    >>> _like({"a": [1], "b": 2.5}, {"a": [2, 3], "b": 2}, "x")
    >>> _like({"a": [1]}, {"a": [2, [3]]}, "x")
    Traceback (most recent call last):
    ...
    muster.errors.ScenarioError: x.a[1]: not the type of the setting
    """
    if isinstance(default, dict):
        _expect(isinstance(value, dict), place, "expected a JSON object")
        for key, v in value.items():
            at = f"{place}.{_brief(key)}"
            _expect(key in default, at, "no such setting")
            _like(default[key], v, at)
        return
    if isinstance(default, list):
        _expect(isinstance(value, list), place, "not the type of the setting")
        if default:
            model = default[0]
            if all(isinstance(d, dict) for d in default):  # rows of a sequence: any row's keys
                model = {k: v for d in reversed(default) for k, v in d.items()}
            for i, v in enumerate(value):
                _like(model, v, f"{place}[{i}]")
        return
    number = (int, float)
    same = (
        isinstance(value, bool) == isinstance(default, bool)
        and (
            isinstance(value, type(default))
            or (isinstance(default, float) and isinstance(value, number))
        )
    ) or default is None
    _expect(same, place, "not the type of the setting")


def builtin_scenarios() -> list[dict[str, Any]]:
    """The scenarios shipped with the core: id, system, title, file name."""
    out = []
    # The default demo first (the app opens the first); the others by file name.
    paths = sorted(SCENARIO_DIR.glob("*.json"), key=lambda p: (p.stem != DEFAULT_SCENARIO, p.name))
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        out.append(
            {"id": data["id"], "system": data["system"], "title": data["title"], "file": path.name}
        )
    return out


def load_builtin(scenario_id: str) -> Scenario:
    """Parse the shipped scenario ``scenario_id``.

    Raises:
        ScenarioError: if there is no such scenario.
    """
    for entry in builtin_scenarios():
        if entry["id"] == scenario_id:
            text = (SCENARIO_DIR / entry["file"]).read_text(encoding="utf-8")
            return parse_scenario(json.loads(text))
    raise ScenarioError("scenario", f"no scenario {json.dumps(scenario_id)}")
