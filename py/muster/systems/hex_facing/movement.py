"""hex-facing movement: the terrain table's costs per unit type and its notes (c), (d), (i).

A step into an adjacent hex costs (terrain table; ``movement.json`` holds the defaults):
  hex terrain (the costliest of the hex's terrains; a road or trail followed replaces it, c)
  + each hexside feature crossed (stream, redoubt/wall, fortification: cancelled by road, c;
    a stream by a bridge; slope and steep slope never cancelled, prohibited ones passable
    along a road at +2, c; steep slope between hexes 3 levels apart impassable, i)
  + the change of level (cancelled by road, c)
  + a friendly unit in the hex entered
  + leaving an enemy ZOC; a disordered unit +1 to enter one (d).
Road movement is not allowed into a hex adjacent to an enemy unit (4.3.1).
"""

from __future__ import annotations

from functools import cache

from ...hexgrid import Hex, hex_neighbor
from ...movement import Board, Part, Step, Unit
from ...terrain import Cell, TerrainChart, load_chart

SYSTEM = "hex-facing"
BRIDGES = ("bridge", "pontoon_bridge")
WATER = ("river", "lake", "sea")
STREAMS = ("stream", "canal", "ford")
WORKS = ("redoubt", "wall", "fortification")
SLOPES = ("slope", "steep_slope")
TABLE = "terrain table"


@cache
def _cells() -> dict[str, object]:
    chart: TerrainChart = load_chart(SYSTEM)
    return {name: row for row in chart.rows for name in row.names}


def cell(name: str, column: str) -> Cell:
    """The terrain table's cell for terrain ``name`` in ``column``."""
    return _cells()[name][column]  # type: ignore[index]


def _no(key: str, **params: object) -> Part:
    return Part(0, key, TABLE, tuple(params.items()))


def front_directions(board: Board, unit: Unit) -> tuple[int, ...]:
    """The directions of a unit's front hexes (all six in town, village, castle, square)."""
    facing = board.data["facing"]
    terrain = board.scenario.hexes[unit.hex].terrain
    six = set(facing["six_front_terrains"]) & set(terrain)
    if six or any(unit.has(s) for s in facing["six_front_states"]) or unit.facing is None:
        return tuple(range(6))
    d, vertex = divmod(unit.facing, 2)
    if vertex:
        return (d % 6, (d + 1) % 6)
    return ((d - 1) % 6, d % 6, (d + 1) % 6)


class HexFacingMovement:
    """Step costs and zones of control of the hex-facing system."""

    def zoc(self, board: Board, side: str) -> dict[Hex, tuple[str, ...]]:
        """Front hexes of the side's non-routed combat units, not across what they cannot cross."""
        rule = board.data["zoc"]
        out: dict[Hex, tuple[str, ...]] = {}
        for unit in board.units.values():
            if unit.side != side or unit.type not in rule["exerted_by"]:
                continue
            if any(unit.has(s) for s in rule["not_by_states"]):
                continue
            for d in front_directions(board, unit):
                n = hex_neighbor(unit.hex, d)
                if n not in board.scenario.hexes:
                    continue
                if not rule["through_prohibited_hexsides"] and self._blocked(board, unit, n):
                    continue
                out[n] = out.get(n, ()) + (unit.id,)
        return out

    def _blocked(self, board: Board, unit: Unit, n: Hex) -> bool:
        col = board.data["unit_columns"][unit.type]
        if any(cell(t, col).prohibited for t in board.scenario.hexes[n].terrain):
            return True
        return any(cell(f, col).prohibited for f in board.hexside(unit.hex, n) if f not in BRIDGES)

    def step(self, board: Board, unit: Unit, frm: Hex, to: Hex) -> Step:
        """The cost of moving ``unit`` from ``frm`` into the adjacent ``to``."""
        data = board.data
        col = data["unit_columns"][unit.type]
        parts: list[Part] = []
        flags: set[str] = set()
        kinds = board.road(frm, to)
        road = None
        if kinds:
            near_enemy = board.adjacent_to_enemy(to, unit.side)
            if not (data["road"]["adjacent_enemy_forbids_road"] and near_enemy):
                road = "road" if "road" in kinds else "trail"
            else:
                parts.append(_no("move.road_denied_adjacent_enemy", rule="4.3.1"))

        def prohibited(key: str, **params: object) -> Step:
            return Step(frm, to, 0, tuple(parts), Part(0, key, TABLE, tuple(params.items())))

        # Hex terrain, or the road or trail followed (c).
        if road:
            parts.append(
                Part(cell(road, col).value or 0, "move.road", TABLE + " (c)", (("kind", road),))
            )
        else:
            terrain = board.scenario.hexes[to].terrain
            if kinds and set(BRIDGES) & set(terrain):
                terrain = tuple(t for t in terrain if t not in WATER + BRIDGES) or ("clear",)
            for t in terrain:
                if cell(t, col).prohibited:
                    return prohibited("move.prohibited.terrain", terrain=t)
            worst = max(terrain, key=lambda t: cell(t, col).value or 0)
            parts.append(
                Part(cell(worst, col).value or 0, "move.terrain", TABLE, (("terrain", worst),))
            )

        # Hexside features.
        features = board.hexside(frm, to)
        level_from = board.scenario.hexes[frm].level
        level_to = board.scenario.hexes[to].level
        bridged = next((f for f in features if f in BRIDGES), None)
        for f in features:
            c = cell(f, col)
            if f in BRIDGES:
                parts.append(Part(0, "move.hexside", TABLE, (("feature", f),)))
            elif f in STREAMS and (bridged or road):
                parts.append(_no("move.cancelled", feature=f, by=bridged or road))
            elif f in WORKS and c.prohibited:
                return prohibited("move.prohibited.hexside", feature=f)
            elif f in WORKS and road:
                parts.append(_no("move.cancelled", feature=f, by=road))
            elif (
                f == "steep_slope"
                and abs(level_to - level_from) >= data["steep_slope_impassable_levels"]
            ):
                return prohibited("move.prohibited.steep_slope_levels", feature=f)
            elif c.prohibited:
                if not (f in SLOPES and road and "road_trail" in c.flags):
                    return prohibited("move.prohibited.hexside", feature=f)
                extra = data["road"]["prohibited_crossing_extra"]
                parts.append(
                    Part(
                        extra,
                        "move.road_crossing",
                        TABLE + " (c)",
                        (("feature", f), ("kind", road)),
                    )
                )
            else:
                parts.append(Part(c.value or 0, "move.hexside", TABLE, (("feature", f),)))
                if "disorder" in c.flags and not (f in SLOPES and road):
                    flags.add("disorder")

        # Change of level (c: a road cancels its extra cost).
        delta = level_to - level_from
        if delta:
            name = (
                ("level_up_1" if delta == 1 else "level_up_2_plus")
                if delta > 0
                else ("level_down_1" if delta == -1 else "level_down_2_plus")
            )
            c = cell(name, col)
            if c.prohibited and not (road and data["level_prohibition_cancelled_by_road"]["value"]):
                return prohibited("move.prohibited.level", delta=delta)
            if road:
                parts.append(_no("move.cancelled", feature=name, by=road))
            else:
                parts.append(Part(c.value or 0, "move.level", TABLE, (("delta", delta),)))

        # A friendly unit in the hex entered.
        if any(u.side == unit.side and u.id != unit.id for u in board.units_in(to)):
            parts.append(Part(cell("friendly_unit", col).value or 0, "move.friendly_unit", TABLE))

        # Zones of control.
        stop = None
        rule = data["zoc"]
        if unit.type not in rule["ignored_by"]:
            zoc = board.enemy_zoc(unit.side, self)
            if frm in zoc:
                parts.append(
                    Part(cell("leaving_enemy_zoc", col).value or 0, "move.leave_zoc", TABLE)
                )
            if to in zoc:
                if unit.has("disordered"):
                    parts.append(Part(1, "move.enter_zoc_disordered", TABLE + " (d)"))
                if rule["entering_stops"]:
                    stop = "zoc"
        cost = sum(p.value for p in parts)
        return Step(frm, to, cost, tuple(parts), None, stop, frozenset(flags), road)


RULES = HexFacingMovement()
