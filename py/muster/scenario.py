"""Scenario files: parse, validate and index a hex-map battle (format in docs/scenario-format.md).

Every problem raises :class:`ScenarioError` naming the place (``hex 0412: unknown terrain
"wods"``); nothing is half-loaded.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ScenarioError
from .hexgrid import Hex, Hexside, Numbering, hex_distance, hex_neighbors
from .terrain import TerrainDataError, chart_with_overrides, load_chart

FORMAT = "muster-scenario/1"
SYSTEMS = ("hex-facing", "hex-hexside", "area-locale")
LEVELS = ("points", "demoralized", "broken")  # a side's army morale (hex-hexside)
UNIT_TYPES = ("infantry", "cavalry", "artillery", "leader")
# Hexside features that have an up side; the scenario names it with "up".
DIRECTIONAL_FEATURES = frozenset({"slope", "crest", "steep_slope"})
ROAD_KINDS = frozenset({"road", "trail"})
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
    labels: dict[Hex, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        hexes = self.hexes
        self.labels = {h: self.numbering.label(h) for h in hexes}
        self.neighbors = {h: tuple(n for n in hex_neighbors(h) if n in hexes) for h in hexes}
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
        return _on_map_hex(self.numbering, self.hexes, label, f"hex {label}")

    def label(self, h: Hex) -> str:
        """The printed number of ``h`` (on the map or off it)."""
        found = self.labels.get(h)
        return found if found is not None else self.numbering.label(h)


def _expect(cond: bool, place: str, problem: str) -> None:
    if not cond:
        raise ScenarioError(place, problem)


def _int(value: Any, place: str, lo: int, hi: int) -> int:
    ok = isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi
    _expect(ok, place, f"expected a whole number from {lo} to {hi}, got {json.dumps(value)}")
    return int(value)


def _str(value: Any, place: str) -> str:
    _expect(isinstance(value, str) and value != "", place, "expected a non-empty text")
    return str(value)


def _on_map_hex(numbering: Numbering, hexes: dict[Hex, HexData], label: Any, place: str) -> Hex:
    _expect(isinstance(label, str), place, f"expected a hex number, got {json.dumps(label)}")
    try:
        h = numbering.to_hex(label)
    except ValueError as exc:
        raise ScenarioError(place, str(exc)) from None
    _expect(h in hexes, place, f"hex {label} is not on the map")
    return h


def parse_scenario(data: Any) -> Scenario:
    """Validate a scenario's JSON object and index its board.

    Raises:
        ScenarioError: naming the first place that is wrong.
    """
    _expect(isinstance(data, dict), "scenario", "expected a JSON object")
    _expect(data.get("format") == FORMAT, "format", f'expected "{FORMAT}"')
    _str(data.get("id"), "id")
    _str(data.get("title"), "title")
    system = data.get("system")
    _expect(system in SYSTEMS, "system", f"unknown system {json.dumps(system)}")
    if system == "area-locale":
        from .areamap import parse_area_scenario

        return parse_area_scenario(data)  # type: ignore[return-value]
    m = data.get("map")
    _expect(isinstance(m, dict), "map", "expected a JSON object")
    numbering, hexes = _parse_grid(m, system)
    hexsides = _parse_hexsides(m.get("hexsides", []), system, numbering, hexes)
    roads = _parse_roads(m.get("roads", []), system, numbering, hexes)
    _parse_labels(m.get("labels", []), numbering, hexes)
    sides = _parse_sides(data.get("sides"))
    units = _parse_units(data.get("units", []), sides, numbering, hexes)
    _parse_play(data, sides, units, numbering, hexes)
    _parse_overrides(data.get("overrides", {}), system)
    return Scenario(data, numbering, hexes, hexsides, roads, units)


def _parse_grid(m: dict[str, Any], system: str) -> tuple[Numbering, dict[Hex, HexData]]:
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
    numbering = Numbering(orientation, stagger, cd, rd)
    terrains = hex_terrains(system)
    default = m.get("default_terrain", "clear")
    _expect(default in terrains, "map.default_terrain", f"unknown terrain {json.dumps(default)}")
    plain = HexData((default,), 0)
    hexes = {
        numbering.offset_to_hex(c, r): plain
        for c in range(first_col, first_col + cols)
        for r in range(first_row, first_row + rows)
    }
    listed = m.get("hexes", {})
    _expect(isinstance(listed, dict), "map.hexes", "expected a JSON object keyed by hex number")
    for label, spec in listed.items():
        place = f"hex {label}"
        h = _on_map_hex(numbering, hexes, label, place)
        _expect(isinstance(spec, dict), place, "expected a JSON object")
        unknown = set(spec) - {"terrain", "level"}
        if unknown:
            raise ScenarioError(place, f"unknown key {json.dumps(sorted(unknown)[0])}")
        terrain = spec.get("terrain", [default])
        if isinstance(terrain, str):
            terrain = [terrain]
        _expect(isinstance(terrain, list) and terrain != [], place, "terrain must be a list")
        for t in terrain:
            _expect(t in terrains, place, f"unknown terrain {json.dumps(t)}")
        _expect(len(set(terrain)) == len(terrain), place, "terrain listed twice")
        level = _int(spec.get("level", 0), place + " level", -9, 99)
        hexes[h] = HexData(tuple(terrain), level)
    return numbering, hexes


def _pair(
    numbering: Numbering, hexes: dict[Hex, HexData], value: Any, place: str
) -> tuple[Hex, Hex]:
    ok = isinstance(value, list) and len(value) == 2
    _expect(ok, place, 'expected "between": two hex numbers')
    h1 = _on_map_hex(numbering, hexes, value[0], place)
    h2 = _on_map_hex(numbering, hexes, value[1], place)
    _expect(hex_distance(h1, h2) == 1, place, f"hexes {value[0]} and {value[1]} are not adjacent")
    return h1, h2


def _parse_hexsides(
    items: Any, system: str, numbering: Numbering, hexes: dict[Hex, HexData]
) -> dict[Hexside, HexsideData]:
    _expect(isinstance(items, list), "map.hexsides", "expected a list")
    known = hexside_features(system)
    out: dict[Hexside, HexsideData] = {}
    for i, spec in enumerate(items):
        place = f"map.hexsides[{i}]"
        _expect(isinstance(spec, dict), place, "expected a JSON object")
        h1, h2 = _pair(numbering, hexes, spec.get("between"), place)
        place = f"hexside {numbering.label(h1)}/{numbering.label(h2)}"
        side = Hexside.between(h1, h2)
        _expect(side not in out, place, "listed twice")
        features = spec.get("features")
        _expect(isinstance(features, list) and features != [], place, "expected a feature list")
        for f in features:
            _expect(f in known, place, f"unknown hexside feature {json.dumps(f)}")
        up = None
        if DIRECTIONAL_FEATURES & set(features):
            _expect("up" in spec, place, 'a slope or crest needs "up": the higher hex')
            up = _on_map_hex(numbering, hexes, spec["up"], place)
            _expect(up in (h1, h2), place, f"up hex {spec['up']} is not one of the two hexes")
        name = spec.get("name")
        if name is not None:
            _str(name, place + " name")
        out[side] = HexsideData(tuple(features), name, up)
    return out


def _parse_roads(
    items: Any, system: str, numbering: Numbering, hexes: dict[Hex, HexData]
) -> dict[Hexside, tuple[str, ...]]:
    _expect(isinstance(items, list), "map.roads", "expected a list")
    kinds = connection_kinds(system)
    out: dict[Hexside, tuple[str, ...]] = {}
    for i, spec in enumerate(items):
        place = f"map.roads[{i}]"
        _expect(isinstance(spec, dict), place, "expected a JSON object")
        kind = spec.get("kind", "road")
        _expect(kind in kinds, place, f"unknown road kind {json.dumps(kind)}")
        chain = spec.get("hexes")
        _expect(isinstance(chain, list) and len(chain) >= 2, place, "expected 2 or more hexes")
        cells = [_on_map_hex(numbering, hexes, x, place) for x in chain]
        for a, b, la, lb in zip(cells, cells[1:], chain, chain[1:], strict=False):
            _expect(hex_distance(a, b) == 1, place, f"hexes {la} and {lb} are not adjacent")
            side = Hexside.between(a, b)
            if kind not in out.get(side, ()):
                out[side] = out.get(side, ()) + (kind,)
    return out


def _parse_labels(items: Any, numbering: Numbering, hexes: dict[Hex, HexData]) -> None:
    _expect(isinstance(items, list), "map.labels", "expected a list")
    for i, spec in enumerate(items):
        place = f"map.labels[{i}]"
        _expect(isinstance(spec, dict), place, "expected a JSON object")
        _on_map_hex(numbering, hexes, spec.get("hex"), place)
        _str(spec.get("text"), place + " text")


def _parse_sides(items: Any) -> set[str]:
    _expect(isinstance(items, list) and len(items) >= 2, "sides", "expected two or more sides")
    ids: set[str] = set()
    for i, spec in enumerate(items):
        place = f"sides[{i}]"
        _expect(isinstance(spec, dict), place, "expected a JSON object")
        sid = _str(spec.get("id"), place + " id")
        _expect(sid not in ids, place, f"side {json.dumps(sid)} listed twice")
        _str(spec.get("name"), place + " name")
        if "army_morale" in spec:
            army, at = spec["army_morale"], f"side {sid} army_morale"
            _expect(isinstance(army, dict), at, "expected a JSON object")
            levels = [_int(army.get(k), f"{at} {k}", 0, 9999) for k in LEVELS]
            _expect(levels[0] > levels[1] > levels[2], at, "expected points > demoralized > broken")
        ids.add(sid)
    return ids


def _parse_units(
    items: Any, sides: set[str], numbering: Numbering, hexes: dict[Hex, HexData]
) -> dict[str, dict[str, Any]]:
    _expect(isinstance(items, list), "units", "expected a list")
    out: dict[str, dict[str, Any]] = {}
    for i, spec in enumerate(items):
        place = f"units[{i}]"
        _expect(isinstance(spec, dict), place, "expected a JSON object")
        uid = _str(spec.get("id"), place + " id")
        place = f"unit {uid}"
        _expect(uid not in out, place, "id used twice")
        _expect(spec.get("side") in sides, place, f"unknown side {json.dumps(spec.get('side'))}")
        utype = spec.get("type")
        _expect(utype in UNIT_TYPES, place, f"unknown unit type {json.dumps(utype)}")
        _str(spec.get("name"), place + " name")
        _on_map_hex(numbering, hexes, spec.get("hex"), place)
        ratings = spec.get("ratings", {})
        _expect(isinstance(ratings, dict), place, "ratings must be a JSON object")
        for key, value in ratings.items():
            number = isinstance(value, int | float) and not isinstance(value, bool)
            _expect(number, place, f"rating {json.dumps(key)} must be a number")
        if "facing" in spec:
            _int(spec["facing"], place + " facing", 0, 11)
        out[uid] = spec
    return out


def _parse_play(
    data: dict[str, Any],
    sides: set[str],
    units: dict[str, dict[str, Any]],
    numbering: Numbering,
    hexes: dict[Hex, HexData],
) -> None:
    """Check what play needs: turns, formations (and each unit's), objectives."""
    if "turns" in data:
        _int(data["turns"], "turns", 1, 99)
    ids: set[str] = set()
    items = data.get("formations", [])
    _expect(isinstance(items, list), "formations", "expected a list")
    for i, spec in enumerate(items):
        place = f"formations[{i}]"
        _expect(isinstance(spec, dict), place, "expected a JSON object")
        fid = _str(spec.get("id"), place + " id")
        place = f"formation {fid}"
        _expect(fid not in ids, place, "id used twice")
        _expect(spec.get("side") in sides, place, f"unknown side {json.dumps(spec.get('side'))}")
        _str(spec.get("name"), place + " name")
        _expect(isinstance(spec.get("orders", True), bool), place, "orders must be true or false")
        ids.add(fid)
    for uid, unit in units.items():
        if "formation" in unit:
            fid = unit["formation"]
            _expect(fid in ids, f"unit {uid}", f"unknown formation {json.dumps(fid)}")
            side = next(f["side"] for f in items if f["id"] == fid)
            _expect(side == unit["side"], f"unit {uid}", f"formation {fid} is of side {side}")
    items = data.get("objectives", [])
    _expect(isinstance(items, list), "objectives", "expected a list")
    for i, spec in enumerate(items):
        place = f"objectives[{i}]"
        _expect(isinstance(spec, dict), place, "expected a JSON object")
        _on_map_hex(numbering, hexes, spec.get("hex"), place)
        _int(spec.get("points"), place + " points", 0, 999)


def _parse_overrides(overrides: Any, system: str) -> None:
    """Check a scenario's table overrides against the tables they change."""
    from .los import LosDataError, los_config
    from .movement import movement_data

    _expect(isinstance(overrides, dict), "overrides", "expected a JSON object")
    unknown = set(overrides) - {"los", "movement", "terrain", "sequence"}
    if unknown:
        raise ScenarioError("overrides", f"unknown table {json.dumps(sorted(unknown)[0])}")
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
    defaults = movement_data(system)
    for key, value in movement.items():
        place = f"overrides.movement.{key}"
        _expect(key in defaults, place, "no such movement setting")
        _expect(type(value) is type(defaults[key]), place, "not the type of the setting")
        if isinstance(value, dict):
            extra = set(value) - set(defaults[key])
            if extra:
                raise ScenarioError(place, f"unknown key {json.dumps(sorted(extra)[0])}")
    if "sequence" in overrides:
        _like(_sequence_data(system), overrides["sequence"], "overrides.sequence")


def _sequence_data(system: str) -> dict[str, Any]:
    path = Path(__file__).parent / "systems" / system.replace("-", "_") / "sequence.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def _like(default: Any, value: Any, place: str) -> None:
    """Check an override against the default it replaces: known keys, the same kinds."""
    if isinstance(default, dict):
        _expect(isinstance(value, dict), place, "expected a JSON object")
        for key, v in value.items():
            _expect(key in default, f"{place}.{key}", "no such setting")
            _like(default[key], v, f"{place}.{key}")
        return
    number = (int, float)
    same = (
        isinstance(value, bool) == isinstance(default, bool)
        and (
            isinstance(value, type(default))
            or (isinstance(default, number) and isinstance(value, number))
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
