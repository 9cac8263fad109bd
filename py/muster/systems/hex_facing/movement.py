"""hex-facing movement: the terrain table's costs per unit type and its notes (c), (d), (i).

A step into an adjacent hex costs (terrain table; ``movement.json`` holds the defaults):
  hex terrain (the costliest of the hex's terrains, or their sum: hex_terrain_combination;
    a road or trail followed replaces it, c)
  + each hexside feature crossed (stream, redoubt/wall, fortification: cancelled by road, c;
    a stream by a bridge; slope and steep slope never cancelled, prohibited ones passable
    along a road at +2, c; steep slope between hexes 3 levels apart impassable, i)
  + the change of level (cancelled by road, c)
  + a friendly unit in the hex entered
  + leaving an enemy ZOC; a disordered unit +1 to enter one (d).
Road movement is not allowed into a hex adjacent to an enemy unit (4.3.1).
"""

from __future__ import annotations

from collections.abc import Callable

from ...hexgrid import Hex, hex_neighbor
from ...modifier import Modifier
from ...movement import (
    Board,
    Reachable,
    Step,
    SteppedRules,
    Unit,
    collect_zoc,
    prohibited_step,
    reachable,
)
from .tables import level_row

SYSTEM = "hex-facing"
BRIDGES = ("bridge", "pontoon_bridge")
WATER = ("river", "lake", "sea")
STREAMS = ("stream", "canal", "ford")
WORKS = ("redoubt", "wall", "fortification")
SLOPES = ("slope", "steep_slope")
TABLE = "terrain table"
# Steps kept per terrain column for a scenario (the map's own costs, the same for every unit
# of the column); past this the cache starts again, so a huge map holds memory in check.
STEPS_KEPT = 40_000


def _no(key: str, **params: object) -> Modifier:
    return Modifier(0, key, TABLE, tuple(params.items()))


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


def _road_part(board: Board, road: str, col: str) -> Modifier:
    rule = board.rule(road, col, TABLE + " (c)")
    return Modifier(board.cell(road, col).value or 0, "move.road", rule, (("kind", road),))


def _terrain_parts(board: Board, terrain: tuple[str, ...], col: str) -> tuple[Modifier, ...]:
    """The cost of a hex's terrains for a column as ``hex_terrain_combination.rule`` combines
    them (movement.json): the costliest alone (``highest``), or each of them, their costs
    added up (``sum``); or, first and alone, the prohibition of one of them."""
    cell = board.cell
    for t in terrain:
        if cell(t, col).prohibited:
            rule = board.rule(t, col, TABLE)
            return (Modifier(0, "move.prohibited.terrain", rule, (("terrain", t),)),)
    combine = COMBINATIONS[board.data["hex_terrain_combination"]["rule"]]
    return tuple(
        Modifier(
            cell(t, col).value or 0, "move.terrain", board.rule(t, col, TABLE), (("terrain", t),)
        )
        for t in combine(board, terrain, col)
    )


def _highest(board: Board, terrain: tuple[str, ...], col: str) -> tuple[str, ...]:
    """The costliest of the terrains (the first of them on a tie)."""
    return (max(terrain, key=lambda t: board.cell(t, col).value or 0),)


def _every(board: Board, terrain: tuple[str, ...], col: str) -> tuple[str, ...]:
    """Every terrain of the hex, each once."""
    return tuple(dict.fromkeys(terrain))


# hex_terrain_combination.rule (its closed set in movement.json): which terrains of a hex
# count, each adding its cost.
COMBINATIONS: dict[str, Callable[[Board, tuple[str, ...], str], tuple[str, ...]]] = {
    "highest": _highest,
    "sum": _every,
}


# zoc.extent (movement.json): the directions a unit's zone of control covers, by value: its
# front hexes, or the six around it.
EXTENTS: dict[str, Callable[[Board, Unit], tuple[int, ...]]] = {
    "front_hexes": lambda board, unit: front_directions(board, unit),
    "adjacent": lambda board, unit: tuple(range(6)),
}


def zone_directions(board: Board, unit: Unit) -> tuple[int, ...]:
    """The directions a unit's zone of control covers, as ``zoc.extent`` says (``EXTENTS``)."""
    return EXTENTS[board.data["zoc"]["extent"]](board, unit)


class HexFacingMovement(SteppedRules):
    """Step costs and zones of control of the hex-facing system."""

    def zoc(self, board: Board, side: str) -> dict[Hex, tuple[str, ...]]:
        """The zones of the side's non-routed combat units (their front hexes, or the six
        around them: ``zoc.extent``), not across what they cannot cross."""
        through = board.data["zoc"]["through_prohibited_hexsides"]
        hexes = board.scenario.hexes

        def zone(unit: Unit) -> list[Hex]:
            near = [hex_neighbor(unit.hex, d) for d in zone_directions(board, unit)]
            return [
                n for n in near if n in hexes and (through or not self._blocked(board, unit, n))
            ]

        return collect_zoc(board, side, zone)

    def _blocked(self, board: Board, unit: Unit, n: Hex) -> bool:
        col = board.data["unit_columns"][unit.type]
        cell = board.cell
        if any(cell(t, col).prohibited for t in board.scenario.hexes[n].terrain):
            return True
        return any(cell(f, col).prohibited for f in board.hexside(unit.hex, n) if f not in BRIDGES)

    def min_step(self, board: Board, unit: Unit) -> float:
        """The cheapest a step can be: the lowest hex terrain, road or trail cost."""
        col = board.data["unit_columns"][unit.type]
        rows = [r for r in board.chart.rows if r.kind == "hex" or r.id in ("road", "trail")]
        values = [r[col].value for r in rows if not r[col].prohibited]
        return min(v for v in values if v is not None)

    def stepper(self, board: Board, unit: Unit) -> Callable[[Hex, Hex], Step]:
        """The step function for one unit, with what does not change between steps hoisted."""
        data = board.data
        col = data["unit_columns"][unit.type]
        road_rule = data["road"]
        forbid_road_near_enemy = road_rule["adjacent_enemy_forbids_road"]
        side_roads = board.scenario.side_roads
        friends = board.friends_near(unit)
        rule = data["zoc"]
        zoc = {} if unit.type in rule["ignored_by"] else board.enemy_zoc(unit.side, self)
        zoc_stops = rule["entering_stops"]
        disordered = unit.has("disordered")
        cell, rule_of = board.cell, board.rule
        friendly_part = Modifier(
            cell("friendly_unit", col).value or 0,
            "move.friendly_unit",
            rule_of("friendly_unit", col, TABLE),
        )
        leave_part = Modifier(
            cell("leaving_enemy_zoc", col).value or 0,
            "move.leave_zoc",
            rule_of("leaving_enemy_zoc", col, TABLE),
        )
        extra = data["disordered_zoc_entry"]["extra"]
        enter_part = Modifier(extra, "move.enter_zoc_disordered", TABLE + " (d)")
        side = unit.side

        fixed_memo = board.memo(("hex-facing steps", col))
        fixed = MapSteps(board, col).step

        def with_units(base: Step, friendly: bool, leaving: bool, entering: bool) -> Step:
            """The step with what the units make of it: a friendly unit in the hex entered;
            zones of control (leaving one costs; a disordered unit pays to enter one, d;
            entering one stops)."""
            parts = list(base.parts)
            cost = base.cost
            if friendly:
                parts.append(friendly_part)
                cost += friendly_part.value
            stop = None
            if leaving:
                parts.append(leave_part)
                cost += leave_part.value
            if entering:
                if disordered:
                    parts.append(enter_part)
                    cost += enter_part.value
                if zoc_stops:
                    stop = "zoc"
            return Step(base.frm, base.to, cost, tuple(parts), None, stop, base.flags, base.road)

        def step(frm: Hex, to: Hex) -> Step:
            kinds = side_roads.get((frm, to))
            road_ok = bool(kinds) and not (
                forbid_road_near_enemy and board.adjacent_to_enemy(to, side)
            )
            key = (frm, to, road_ok)
            base = fixed_memo.get(key)
            if base is None:
                if len(fixed_memo) >= STEPS_KEPT:
                    fixed_memo.clear()
                base = fixed_memo[key] = fixed(frm, to, kinds, road_ok)
            friendly, leaving, entering = to in friends, frm in zoc, to in zoc
            if base.prohibited is not None or not (friendly or leaving or entering):
                return base
            return with_units(base, friendly, leaving, entering)

        return step


class MapSteps:
    """The steps of one terrain column as the map alone makes them (terrain, road, hexside,
    level): the same for every unit of the column, so a stepper keeps them for the scenario."""

    def __init__(self, board: Board, col: str) -> None:
        data = board.data
        self.board, self.col = board, col
        self.hexes = board.scenario.hexes
        self.side_features = board.scenario.side_features
        self.cell, self.rule_of = board.cell, board.rule
        self.crossing_extra = data["road"]["prohibited_crossing_extra"]
        self.steep_limit = data["steep_slope_impassable_levels"]
        self.level_road = data["level_prohibition_cancelled_by_road"]["value"]
        self.terrain_memo = board.memo(("hex-facing terrain", col))
        self.road_parts = {kind: _road_part(board, kind, col) for kind in ("road", "trail")}

    def step(self, frm: Hex, to: Hex, kinds: tuple[str, ...] | None, road_ok: bool) -> Step:
        """The step from ``frm`` into ``to``: ``kinds``, the roads or trails along it;
        ``road_ok``, whether the unit may follow them."""
        parts: list[Modifier] = []
        flags: set[str] = set()
        road = None
        if kinds:
            if road_ok:
                road = "road" if "road" in kinds else "trail"
            else:
                parts.append(_no("move.road_denied_adjacent_enemy", rule="4.3.1"))
        blocked = self._ground(frm, to, kinds, road, parts)
        if blocked is None:
            blocked = self._hexsides(frm, to, road, parts, flags)
        if blocked is None:
            blocked = self._level(frm, to, road, parts)
        if blocked is not None:
            return blocked
        cost = 0.0
        for p in parts:
            cost += p.value
        return Step(frm, to, cost, tuple(parts), None, None, frozenset(flags), road)

    def _ground(
        self,
        frm: Hex,
        to: Hex,
        kinds: tuple[str, ...] | None,
        road: str | None,
        parts: list[Modifier],
    ) -> Step | None:
        """Hex terrain, or the road or trail followed (c); a step refused if the terrain
        prohibits it."""
        if road:
            parts.append(self.road_parts[road])
            return None
        terrain = self.hexes[to].terrain
        if kinds and set(BRIDGES) & set(terrain):
            terrain = tuple(t for t in terrain if t not in WATER + BRIDGES) or ("clear",)
            found = _terrain_parts(self.board, terrain, self.col)
        else:
            memo = self.terrain_memo.get(to)
            if memo is None:
                memo = self.terrain_memo[to] = _terrain_parts(self.board, terrain, self.col)
            found = memo
        if found[0].key != "move.terrain":
            return Step(frm, to, 0, tuple(parts), found[0])
        parts.extend(found)
        return None

    def _hexsides(
        self, frm: Hex, to: Hex, road: str | None, parts: list[Modifier], flags: set[str]
    ) -> Step | None:
        """The hexside features crossed; a step refused if one prohibits it."""
        features = self.side_features.get((frm, to), ())
        climb = abs(self.hexes[to].level - self.hexes[frm].level)
        bridged = next((f for f in features if f in BRIDGES), None) if features else None
        col, cell = self.col, self.cell
        for f in features:
            c = cell(f, col)
            if f in BRIDGES:
                parts.append(Modifier(0, "move.hexside", TABLE, (("feature", f),)))
            elif f in STREAMS and (bridged or road):
                parts.append(_no("move.cancelled", feature=f, by=bridged or road))
            elif f in WORKS and c.prohibited:
                return prohibited_step(frm, to, parts, "move.prohibited.hexside", TABLE, feature=f)
            elif f in WORKS and road:
                parts.append(_no("move.cancelled", feature=f, by=road))
            elif f == "steep_slope" and climb >= self.steep_limit:
                return prohibited_step(
                    frm, to, parts, "move.prohibited.steep_slope_levels", TABLE, feature=f
                )
            elif c.prohibited:
                if not (f in SLOPES and road and "road_trail" in c.flags):
                    return prohibited_step(
                        frm, to, parts, "move.prohibited.hexside", TABLE, feature=f
                    )
                params = (("feature", f), ("kind", road))
                parts.append(
                    Modifier(self.crossing_extra, "move.road_crossing", TABLE + " (c)", params)
                )
            else:
                rule = self.rule_of(f, col, TABLE)
                parts.append(Modifier(c.value or 0, "move.hexside", rule, (("feature", f),)))
                if "disorder" in c.flags and not (f in SLOPES and road):
                    flags.add("disorder")
        return None

    def _level(self, frm: Hex, to: Hex, road: str | None, parts: list[Modifier]) -> Step | None:
        """The change of level (c: a road cancels its extra cost); a step refused if the
        table prohibits it."""
        delta = self.hexes[to].level - self.hexes[frm].level
        name = level_row(delta)
        if not name:
            return None
        c = self.cell(name, self.col)
        if c.prohibited and not (road and self.level_road):
            return prohibited_step(frm, to, parts, "move.prohibited.level", TABLE, delta=delta)
        if road:
            parts.append(_no("move.cancelled", feature=name, by=road))
        else:
            rule = self.rule_of(name, self.col, TABLE)
            parts.append(Modifier(c.value or 0, "move.level", rule, (("delta", delta),)))
        return None


RULES = HexFacingMovement()


# -- what a unit can reach, kept while nothing it depends on changes -----------------------------

REACH_MEMO = ("hex-facing reach",)  # scenario.memo[REACH_MEMO]: key -> reachable(...)
# answers kept at most, then afresh: a formation's move step and a search from one position ask
# a dozen or so, and each answer holds a path to every hex reached, so that many more would
# grow the browser's WebAssembly heap past its 30 MiB (tests/e2e/test_boot_replays.py)
REACH_KEEP = 32


def reach(board: Board, uid: str) -> Reachable:
    """``movement.reachable(board, uid, RULES)``, kept in the scenario's memo under the unit
    and every unit on the board with its hex, allowance, facing and flags: all a search of
    hex-facing reads besides the map and the tables, which do not change (enemy zones of
    control follow facing, stacking the friends). A move taken from a position whose moves
    were just listed, and every move a search tries from one position, search once. The
    answer is shared: never change it."""
    units = board.keys.get("units")
    if units is None:
        units = board.keys["units"] = tuple(
            (u.id, u.hex, u.allowance, u.facing, tuple(sorted(u.state.items())))
            for u in board.units.values()
        )
    memo = board.memo(REACH_MEMO)
    try:
        found: Reachable | None = memo.get((uid, units))
    except TypeError:  # a flag the scenario gave as a list or an object: not kept
        return reachable(board, uid, RULES)
    if found is None:
        if len(memo) >= REACH_KEEP:
            memo.clear()
        found = memo[uid, units] = reachable(board, uid, RULES)
    return found
