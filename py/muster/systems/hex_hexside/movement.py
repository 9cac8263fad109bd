"""hex-hexside movement: the terrain effects chart's combining rule and its ZOC exit costs.

A step costs (chart, "how terrain combines"): the highest cost among the terrains of the
hex entered, plus each hexside crossed (slope top when climbing to the up side, slope bottom
when going down; a stream not crossed by a bridge or ford, note 3 (``crossings`` in
sequence.json); entrenchment; pond and the Elbe prohibited; the Mietzel for infantry in column
only, costing all its MP), plus the cost of leaving an enemy ZOC (support +1; Engaged Prussian
cavalry +1, other Engaged fast units +2, only if not engaged by Formed cavalry). Roads are a
documented default (``movement.json``).

``reach`` lists where a unit may end its move: the core's search (``movement.reachable_costs``)
over steps worked out once per scenario, unit type and formation, its answer kept in the
scenario's memo while nothing the search depends on changes (the movement listing's fast path).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ... import play
from ...hexgrid import Hex, Hexside
from ...modifier import Modifier
from ...movement import (
    Board,
    Step,
    SteppedRules,
    Unit,
    Way,
    collect_zoc,
    prohibited_step,
    reachable_costs,
)
from ...terrain import Cell

SYSTEM = "hex-hexside"
FOLDER = "hex_hexside"
TEC = "terrain effects chart"
ZOC_TABLE = "leaving an enemy ZOC"
NONE: frozenset[str] = frozenset()  # a step's flags: hex-hexside sets none


def crossing(scenario: Any, features: tuple[str, ...]) -> tuple[str | None, frozenset[str]]:
    """Note 3 of the chart ("if there is no bridge or ford"): the bridge or ford on a hexside
    with ``features`` (None if none), and the features it cancels there (``crossings`` in
    sequence.json: by default the stream)."""
    rule = play.settings(scenario, FOLDER)["crossings"]
    by = next((f for f in features if f in rule["features"]), None)
    if by is None:
        return None, frozenset()
    return by, frozenset(f for f in features if f in rule["cancel"])


def _value(c: Cell, unit: Unit) -> float:
    return c.for_unit(unit.type) or 0


def _adjacent(neighbors: dict[Hex, tuple[Hex, ...]], unit: Unit) -> tuple[Hex, ...]:
    return neighbors[unit.hex]


# zoc.extent (its closed set in movement.json): the hexes a unit's zone covers. The units of
# hex-hexside have no facing: a zone is the six hexes around the unit.
EXTENTS: dict[str, Callable[[dict[Hex, tuple[Hex, ...]], Unit], tuple[Hex, ...]]] = {
    "adjacent": _adjacent,
}


class HexHexsideMovement(SteppedRules):
    """Step costs and zones of control of the hex-hexside system."""

    def zoc(self, board: Board, side: str) -> dict[Hex, tuple[str, ...]]:
        """The hexes around each non-routed combat unit (``zoc.extent``: the six adjacent), not
        across a prohibited hexside."""
        through = board.data["zoc"]["through_prohibited_hexsides"]
        neighbors = board.scenario.neighbors

        shut = board.memo(("hex-hexside zoc shut",))  # (hex, neighbour) -> a P hexside between

        def open_side(unit: Unit, n: Hex) -> bool:
            key = (unit.hex, n)
            found = shut.get(key)
            if found is None:
                features = board.hexside(unit.hex, n)
                cancelled = crossing(board.scenario, features)[1] if features else ()
                found = shut[key] = any(
                    board.cell(f, "mp_inf_art_leader").prohibited
                    for f in features
                    if f not in ("slope", "mietzel_river") and f not in cancelled
                )
            return not found

        reach = EXTENTS[board.data["zoc"]["extent"]]

        def zone(unit: Unit) -> list[Hex]:
            return [n for n in reach(neighbors, unit) if through or open_side(unit, n)]

        return collect_zoc(board, side, zone)

    def exit_cost(self, board: Board, unit: Unit, zoc_units: tuple[str, ...]) -> Modifier | None:
        """The cost of leaving an enemy ZOC, or None when the unit may not leave it."""
        rule = board.data["zoc_exit"]
        rows = {row.id: row for row in board.chart.leaving_enemy_zoc}
        if unit.has("support"):
            return Modifier(rows["support"].mp, "move.zoc_exit_support", ZOC_TABLE)
        if unit.has("engaged") and unit.type in rule["fast_types"]:
            by_formed_cavalry = any(
                board.units[u].type == "cavalry"
                and not board.units[u].has("engaged")
                and not board.units[u].has("disordered")
                and not board.units[u].has("routed")
                for u in zoc_units
            )
            if by_formed_cavalry:
                return None
            if unit.type == "cavalry" and unit.side in rule["prussian_sides"]:
                row = rows["prussian_cavalry_engaged"]
                return Modifier(row.mp, "move.zoc_exit_engaged_prussian_cavalry", ZOC_TABLE)
            row = rows["other_fast_engaged"]
            return Modifier(row.mp, "move.zoc_exit_engaged_fast", ZOC_TABLE)
        if rule["unlisted"] == "free":
            return Modifier(0, "move.leave_zoc", ZOC_TABLE)
        return None

    def min_step(self, board: Board, unit: Unit) -> float:
        """The cheapest a step can be: the lowest hex terrain cost, or the road's."""
        col = board.data["unit_columns"][unit.type]
        rows = [r for r in board.chart.rows if r.kind == "hex" and not r[col].prohibited]
        return float(min([board.data["road"]["cost"]] + [_value(r[col], unit) for r in rows]))

    def stepper(self, board: Board, unit: Unit) -> Callable[[Hex, Hex], Step]:
        """The step function for one unit. What the map alone decides (terrain, hexsides,
        roads) is worked out once per scenario, unit type and formation (``fixed_step``, kept
        in the scenario's memo); each step adds the zones of control of the units now."""
        data = board.data
        col = data["unit_columns"][unit.type]
        in_column = unit.type == "infantry" and unit.state.get("formation") == "column"
        fixed = board.memo(("hex-hexside step", col, unit.type, in_column))
        zoc = {} if unit.type in data["zoc"]["ignored_by"] else board.enemy_zoc(unit.side, self)
        zoc_stops = data["zoc"]["entering_stops"]
        exits: dict[Hex, Modifier | None] = {}

        def step(frm: Hex, to: Hex) -> Step:
            found = fixed.get((frm, to))
            if found is None:
                found = fixed[(frm, to)] = fixed_step(board, unit, col, in_column, frm, to)
            if found.prohibited is not None:
                return found
            stop = found.stop
            enters = stop is None and zoc_stops and to in zoc
            if frm not in zoc:
                if not enters:
                    return found
                return Step(frm, to, found.cost, found.parts, None, "zoc", NONE, found.road)
            if frm not in exits:
                exits[frm] = self.exit_cost(board, unit, zoc[frm])
            exit_part = exits[frm]
            if exit_part is None:
                parts = list(found.parts)
                return prohibited_step(frm, to, parts, "move.prohibited.leave_zoc", ZOC_TABLE)
            cost = found.cost + exit_part.value
            stop = "zoc" if enters else stop
            return Step(
                frm, to, cost, (*found.parts, exit_part), None, stop, frozenset(), found.road
            )

        return step


def fixed_step(board: Board, unit: Unit, col: str, in_column: bool, frm: Hex, to: Hex) -> Step:
    """A step as the map alone decides it: the highest hex terrain cost (or the road's), then
    each hexside crossed (slope top climbing to the up side, slope bottom going down; what a
    bridge or ford crosses cancelled, note 3; the Mietzel all MP, infantry in column only);
    or the chart's prohibition. Zones of control are not in it."""
    data = board.data
    road_rule = data["road"]
    scenario = board.scenario
    parts: list[Modifier] = []
    stop = None
    road = "road" if "road" in scenario.side_roads.get((frm, to), ()) else None
    terrain = board.memo(("hex-hexside terrain", col, unit.type))
    part = terrain.get(to)
    if part is None:
        part = terrain[to] = _terrain_part(board, scenario.hexes[to].terrain, col, unit)
    if part.key != "move.terrain":
        return Step(frm, to, 0, (), part)
    if road and road_rule["cancels_hex_terrain"]:
        part = Modifier(road_rule["cost"], "move.road", "default", (("kind", "road"),))
    parts.append(part)
    features = scenario.side_features.get((frm, to), ())
    up, by, cancelled = None, None, frozenset[str]()
    if features:
        up = scenario.hexsides[Hexside.between(frm, to)].up
        by, cancelled = crossing(scenario, features)
    for f in features:
        name = f
        if f == "slope":
            name = "slope_top" if up == to else "slope_bottom"
        c = board.cell(name, col)
        if name in cancelled:
            params = (("feature", name), ("by", by))
            parts.append(Modifier(0, "move.cancelled", TEC + " (3)", params))
        elif c.prohibited:
            return prohibited_step(frm, to, parts, "move.prohibited.hexside", TEC, feature=name)
        elif "all_mp_column_only" in c.flags:
            if not in_column:
                return prohibited_step(
                    frm, to, parts, "move.prohibited.column_only", TEC, feature=name
                )
            parts.append(Modifier(0, "move.all_mp", TEC + " (**)", (("feature", name),)))
            stop = "all_mp"
        elif road and name in road_rule["cancels_hexsides"]:
            parts.append(
                Modifier(0, "move.cancelled", "default", (("feature", name), ("by", road)))
            )
        else:
            rule = board.rule(name, col, TEC)
            parts.append(Modifier(_value(c, unit), "move.hexside", rule, (("feature", name),)))
    cost = 0.0
    for p in parts:
        cost += p.value
    return Step(frm, to, cost, tuple(parts), None, stop, frozenset(), road)


def _terrain_part(board: Board, terrain: tuple[str, ...], col: str, unit: Unit) -> Modifier:
    """The highest cost among a hex's terrains (the chart's combining rule), or the prohibition."""
    cell = board.cell
    for t in terrain:
        if cell(t, col).prohibited:
            return Modifier(
                0, "move.prohibited.terrain", board.rule(t, col, TEC), (("terrain", t),)
            )
    worst = max(terrain, key=lambda t: _value(cell(t, col), unit))
    rule = board.rule(worst, col, TEC + " (combining)")
    return Modifier(_value(cell(worst, col), unit), "move.terrain", rule, (("terrain", worst),))


RULES = HexHexsideMovement()


# -- what a unit can reach, kept while nothing it depends on changes -----------------------------

REACH_MEMO = ("hex-hexside reach",)  # scenario.memo[REACH_MEMO]: key -> reachable(...)
REACH_KEEP = 256  # answers kept at most (a movement phase asks a few dozen): then start afresh


@dataclass(frozen=True, slots=True)
class Reached:
    """Where a unit may end its move this turn: each hex with its cheapest cost (``costs``, in
    the order the search found them; the unit's own hex first, at 0) and their printed numbers
    in order (``labels``, without the unit's own hex): the move actions of a listing."""

    costs: dict[Hex, float]
    labels: tuple[str, ...]


def reach(board: Board, uid: str) -> Reached:
    """Every hex ``uid`` may end its move in, with its cheapest cost: the hexes and costs of
    ``movement.reachable(board, uid, RULES)`` (``search``).

    A search depends on the unit (hex, allowance, flags), on every enemy unit (hex, flags: the
    hexes they hold, their zones of control and what leaving them costs) and on the hexes where
    the stacking limit forbids ending a move; the map and the scenario's tables do not change.
    The answer is kept in the scenario's memo under all of these, so the next position of a
    movement phase, where one friendly unit moved, searches again only for the units whose key
    changed."""
    unit = board.unit(uid)
    keys = board.keys
    enemies = keys.get(("enemies", unit.side))
    if enemies is None:
        enemies = keys[("enemies", unit.side)] = tuple(
            (u.id, u.hex, _flags(u)) for u in board.units.values() if u.side != unit.side
        )
    shut = _shut(board, unit, keys)
    key = (uid, unit.hex, unit.allowance, _flags(unit), enemies, shut)
    memo = board.memo(REACH_MEMO)
    found = memo.get(key)
    if found is None:
        if len(memo) >= REACH_KEEP:
            memo.clear()
        costs = search(board, uid)
        ends = {h: c for h, c in costs.items() if h == unit.hex or h not in shut}
        label = board.scenario.label
        labels = tuple(label(h) for h in sorted(ends) if h != unit.hex)
        found = memo[key] = Reached(ends, labels)
    return found


def search(board: Board, uid: str) -> dict[Hex, float]:
    """Every hex ``uid`` can reach this move, those it may only pass through included, with its
    cheapest cost: the costs of ``movement.reachable(board, uid, RULES).passed``, found faster
    by the core's search (``movement.reachable_costs``) with each step the map alone decides
    taken from a list made once per scenario, unit type and formation (``fixed_step``), and
    only the steps out of or into an enemy zone of control asked of the unit's stepper."""
    unit = board.unit(uid)
    col = board.data["unit_columns"][unit.type]
    in_column = unit.type == "infantry" and unit.state.get("formation") == "column"
    ways = board.memo(("hex-hexside ways", col, unit.type, in_column))
    neighbors = board.scenario.neighbors

    def make(h: Hex) -> tuple[Way, ...]:
        return _ways(board, unit, col, in_column, h, neighbors[h])

    zoc = {} if unit.type in board.data["zoc"]["ignored_by"] else board.enemy_zoc(unit.side, RULES)
    return reachable_costs(board, unit, RULES, ways, make, zoc)


def _ways(
    board: Board, unit: Unit, col: str, in_column: bool, h: Hex, around: tuple[Hex, ...]
) -> tuple[Way, ...]:
    """The steps out of ``h`` the map allows, in the order of its neighbours (``fixed_step``):
    each as (neighbour, cost, stop, step)."""
    found = []
    for n in around:
        step = fixed_step(board, unit, col, in_column, h, n)
        if step.prohibited is None:
            found.append((n, step.cost, step.stop, step))
    return tuple(found)


def _flags(unit: Unit) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(unit.state.items()))


def _shut(board: Board, unit: Unit, keys: dict[Any, Any]) -> frozenset[Hex]:
    """The hexes where ``unit`` may not end its move for the stacking limit (none for a unit
    the limit leaves free)."""
    limit = board.data["stacking"]
    free = limit.get("free_types", ())
    if unit.type in free:
        return frozenset()
    found = keys.get("shut")
    if found is None:
        counts: dict[Hex, int] = {}
        for u in board.units.values():
            if u.type not in free:
                counts[u.hex] = counts.get(u.hex, 0) + 1
        found = keys["shut"] = frozenset(h for h, n in counts.items() if n >= limit["max_units"])
    return found
