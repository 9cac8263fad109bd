"""hex-hexside movement: the terrain effects chart's combining rule and its ZOC exit costs.

A step costs (chart, "how terrain combines"): the highest cost among the terrains of the
hex entered, plus each hexside crossed (slope top when climbing to the up side, slope bottom
when going down; a stream not crossed by a bridge, note 3; entrenchment; pond and the Elbe
prohibited; the Mietzel for infantry in column only, costing all its MP), plus the cost of
leaving an enemy ZOC (support +1; Engaged Prussian cavalry +1, other Engaged fast units +2,
only if not engaged by Formed cavalry). Roads are a documented default (``movement.json``).
"""

from __future__ import annotations

from collections.abc import Callable

from ...hexgrid import Hex, Hexside
from ...movement import Board, Part, Step, SteppedRules, Unit, collect_zoc, prohibited_step
from ...terrain import Cell

SYSTEM = "hex-hexside"
TEC = "terrain effects chart"
ZOC_TABLE = "leaving an enemy ZOC"


def _value(c: Cell, unit: Unit) -> float:
    return c.for_unit(unit.type) or 0


class HexHexsideMovement(SteppedRules):
    """Step costs and zones of control of the hex-hexside system."""

    def zoc(self, board: Board, side: str) -> dict[Hex, tuple[str, ...]]:
        """The six hexes around each non-routed combat unit, not across a prohibited hexside."""
        through = board.data["zoc"]["through_prohibited_hexsides"]
        neighbors = board.scenario.neighbors

        def open_side(unit: Unit, n: Hex) -> bool:
            return not any(
                board.cell(f, "mp_inf_art_leader").prohibited
                for f in board.hexside(unit.hex, n)
                if f not in ("slope", "mietzel_river")
            )

        def zone(unit: Unit) -> list[Hex]:
            return [n for n in neighbors[unit.hex] if through or open_side(unit, n)]

        return collect_zoc(board, side, zone)

    def exit_cost(self, board: Board, unit: Unit, zoc_units: tuple[str, ...]) -> Part | None:
        """The cost of leaving an enemy ZOC, or None when the unit may not leave it."""
        rule = board.data["zoc_exit"]
        rows = {row.id: row for row in board.chart.leaving_enemy_zoc}
        if unit.has("support"):
            return Part(rows["support"].mp, "move.zoc_exit_support", ZOC_TABLE)
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
                return Part(row.mp, "move.zoc_exit_engaged_prussian_cavalry", ZOC_TABLE)
            row = rows["other_fast_engaged"]
            return Part(row.mp, "move.zoc_exit_engaged_fast", ZOC_TABLE)
        if rule["unlisted"] == "free":
            return Part(0, "move.leave_zoc", ZOC_TABLE)
        return None

    def min_step(self, board: Board, unit: Unit) -> float:
        """The cheapest a step can be: the lowest hex terrain cost, or the road's."""
        col = board.data["unit_columns"][unit.type]
        rows = [r for r in board.chart.rows if r.kind == "hex" and not r[col].prohibited]
        return min([board.data["road"]["cost"]] + [_value(r[col], unit) for r in rows])

    def stepper(self, board: Board, unit: Unit) -> Callable[[Hex, Hex], Step]:
        """The step function for one unit, with what does not change between steps hoisted."""
        data = board.data
        col = data["unit_columns"][unit.type]
        road_rule = data["road"]
        road_cancels_hex = road_rule["cancels_hex_terrain"]
        road_cancels_sides = road_rule["cancels_hexsides"]
        road_part = Part(road_rule["cost"], "move.road", "default", (("kind", "road"),))
        scenario = board.scenario
        hexes, side_roads, side_features = (
            scenario.hexes,
            scenario.side_roads,
            scenario.side_features,
        )
        terrain_memo = board.memo(("hex-hexside terrain", col, unit.type))
        zoc = {} if unit.type in data["zoc"]["ignored_by"] else board.enemy_zoc(unit.side, self)
        zoc_stops = data["zoc"]["entering_stops"]
        in_column = unit.type == "infantry" and unit.state.get("formation") == "column"
        exits: dict[Hex, Part | None] = {}

        def step(frm: Hex, to: Hex) -> Step:
            parts: list[Part] = []
            stop = None
            road = "road" if "road" in side_roads.get((frm, to), ()) else None
            part = terrain_memo.get(to)
            if part is None:
                part = terrain_memo[to] = _terrain_part(board, hexes[to].terrain, col, unit)
            if part.key != "move.terrain":
                return Step(frm, to, 0, (), part)
            parts.append(road_part if road and road_cancels_hex else part)

            features = side_features.get((frm, to), ())
            if features:
                up = scenario.hexsides[Hexside.between(frm, to)].up
                bridged = "bridge" in features
            cell, rule_of = board.cell, board.rule
            for f in features:
                name = f
                if f == "slope":
                    name = "slope_top" if up == to else "slope_bottom"
                c = cell(name, col)
                if c.prohibited:
                    return prohibited_step(
                        frm, to, parts, "move.prohibited.hexside", TEC, feature=name
                    )
                if "all_mp_column_only" in c.flags:
                    if not in_column:
                        return prohibited_step(
                            frm, to, parts, "move.prohibited.column_only", TEC, feature=name
                        )
                    parts.append(Part(0, "move.all_mp", TEC + " (**)", (("feature", name),)))
                    stop = "all_mp"
                elif name == "stream" and bridged:
                    parts.append(
                        Part(
                            0, "move.cancelled", TEC + " (3)", (("feature", name), ("by", "bridge"))
                        )
                    )
                elif road and name in road_cancels_sides:
                    parts.append(
                        Part(0, "move.cancelled", "default", (("feature", name), ("by", road)))
                    )
                else:
                    rule = rule_of(name, col, TEC)
                    parts.append(Part(_value(c, unit), "move.hexside", rule, (("feature", name),)))

            if frm in zoc:
                if frm not in exits:
                    exits[frm] = self.exit_cost(board, unit, zoc[frm])
                exit_part = exits[frm]
                if exit_part is None:
                    return prohibited_step(frm, to, parts, "move.prohibited.leave_zoc", ZOC_TABLE)
                parts.append(exit_part)
            if to in zoc and zoc_stops and stop is None:
                stop = "zoc"
            cost = 0.0
            for p in parts:
                cost += p.value
            return Step(frm, to, cost, tuple(parts), None, stop, frozenset(), road)

        return step


def _terrain_part(board: Board, terrain: tuple[str, ...], col: str, unit: Unit) -> Part:
    """The highest cost among a hex's terrains (the chart's combining rule), or the prohibition."""
    cell = board.cell
    for t in terrain:
        if cell(t, col).prohibited:
            return Part(0, "move.prohibited.terrain", board.rule(t, col, TEC), (("terrain", t),))
    worst = max(terrain, key=lambda t: _value(cell(t, col), unit))
    rule = board.rule(worst, col, TEC + " (combining)")
    return Part(_value(cell(worst, col), unit), "move.terrain", rule, (("terrain", worst),))


RULES = HexHexsideMovement()
