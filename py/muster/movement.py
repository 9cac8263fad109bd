"""Movement on a hex map: step costs with their breakdown, zones of control, and a Dijkstra.

The rules of each system live in ``systems/<system>/movement.py`` as a ``StepRules`` object:
what one step costs a unit, and which hexes each side's zone of control covers. This module
holds what the systems share: the board's occupancy, the search, and the result records.
"""

from __future__ import annotations

import heapq
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

from .errors import IllegalActionError, RulesError, ScenarioError
from .hexgrid import Hex, hex_neighbors
from .hexmap import Scenario
from .modifier import Modifier
from .parsing import brief, check_like, expect, known_name, show
from .play import NOTES, check_closed, refuse_notes
from .systems import data_path
from .terrain import Cell, TerrainChart, TerrainRow, chart_with_overrides, load_chart

SCENARIO_OVERRIDE = "scenario"


@dataclass(frozen=True, slots=True)
class Step:
    """The cost of moving a unit from one hex into an adjacent one, or why it may not.

    ``stop`` means the unit must end its move in ``to`` (an enemy zone of control, all its MP).
    ``flags`` carries consequences of the step, such as ``"disorder"``.
    """

    frm: Hex
    to: Hex
    cost: float
    parts: tuple[Modifier, ...]
    prohibited: Modifier | None = None
    stop: str | None = None
    flags: frozenset[str] = frozenset()
    road: str | None = None


@dataclass(frozen=True, slots=True)
class Unit:
    """What movement needs to know of a unit."""

    id: str
    side: str
    type: str
    hex: Hex
    allowance: float
    state: dict[str, Any] = field(default_factory=dict, hash=False)
    facing: int | None = None

    def has(self, flag: str) -> bool:
        """True if the unit's state has ``flag`` set (e.g. ``disordered``, ``engaged``)."""
        return bool(self.state.get(flag))


class StepRules(Protocol):
    """The movement rules of one system."""

    def step(self, board: Board, unit: Unit, frm: Hex, to: Hex) -> Step:
        """The cost of one step, with its breakdown, or the rule that prohibits it."""
        ...

    def stepper(self, board: Board, unit: Unit) -> Callable[[Hex, Hex], Step]:
        """``step`` for one unit, with what does not change between its steps worked out once."""
        ...

    def min_step(self, board: Board, unit: Unit) -> float:
        """A lower bound on the cost of any step of ``unit`` (prunes the search)."""
        ...

    def zoc(self, board: Board, side: str) -> dict[Hex, tuple[str, ...]]:
        """Every hex in a zone of control of ``side``, with the ids of the units exerting it."""
        ...


class SteppedRules(ABC):
    """Base of a system's movement rules: ``step`` asks the unit's ``stepper``."""

    @abstractmethod
    def stepper(self, board: Board, unit: Unit) -> Callable[[Hex, Hex], Step]:
        """The step function for one unit (each system defines it)."""

    def step(self, board: Board, unit: Unit, frm: Hex, to: Hex) -> Step:
        """The cost of moving ``unit`` from ``frm`` into the adjacent ``to``."""
        return self.stepper(board, unit)(frm, to)


@cache
def movement_data(system: str) -> dict[str, Any]:
    """The movement defaults of a system (``systems/<system>/movement.json``)."""
    path = data_path(system, "movement.json")
    if not path.exists():
        raise KeyError(system)  # a system of areas moves by its own rules
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def movement_columns(system: str) -> list[str]:
    """The terrain chart columns a unit type may move by (``unit_columns``' closed set)."""
    return [c.key for c in load_chart(system).columns if c.group == "movement"]


def movement_closed(system: str) -> dict[str, list[Any]]:
    """The settings of ``movement.json`` whose values come from a closed set: dotted path ->
    the values allowed (for a list, its items). The file's top-level ``"closed"`` object; the
    unit types' chart columns are the chart's (``movement_columns``).

    >>> movement_closed("hex-facing")["zoc.extent"]
    ['front_hexes', 'adjacent']
    """
    closed = movement_data(system).get("closed", {})
    return dict(closed) if isinstance(closed, dict) else {}


# Entries of movement.json that document a rule (its number, a default's mark, how facings
# are numbered) and that no rule reads: refused as an override, like the notes.
MOVEMENT_NOTES = frozenset({"road.rule", "road.prohibited_crossing_default", "facing.values"})
# The least and greatest value of each number of movement.json (an allowance of MP, levels,
# units); a cost below 0 would let a unit gain MP by moving.
NUMBER_BOUNDS: dict[str, tuple[int, int]] = {
    "road.prohibited_crossing_extra": (0, 99),
    "road.cost": (0, 99),
    "steep_slope_impassable_levels": (1, 99),
    "disordered_zoc_entry.extra": (0, 99),
    "stacking.max_units": (1, 99),
}
# Settings that name sides of the scenario (their closed set is the scenario's sides).
SIDE_LISTS = ("zoc_exit.prussian_sides",)


def check_movement_overrides(
    system: str,
    movement: Any,
    place: str = "overrides.movement",
    sides: Collection[str] | None = None,
) -> None:
    """Check a scenario's overrides of the movement table (``overrides.movement``): known
    settings only, no note (nor an entry of ``MOVEMENT_NOTES``), each of its default's kind,
    a number within its bounds, a setting of a closed set (``movement_closed``) from its
    set, each unit type's chart column one the chart has, and the sides named ones of
    ``sides`` (the scenario's, when given).

    Raises:
        ScenarioError: naming the place of the first problem.
    """
    expect(isinstance(movement, dict), place, "problem.object")
    defaults = movement_data(system)
    for key, value in movement.items():
        at = f"{place}.{brief(key)}"
        expect(key not in NOTES and key not in MOVEMENT_NOTES, at, "problem.note")
        expect(key in defaults, at, "problem.no_such_movement_setting")
        expect(type(value) is type(defaults[key]), at, "problem.setting_kind")
        if isinstance(value, dict):
            refuse_notes(value, at)
            for sub in value:
                expect(f"{key}.{sub}" not in MOVEMENT_NOTES, f"{at}.{brief(sub)}", "problem.note")
            extra = set(value) - set(defaults[key])
            if extra:
                raise ScenarioError(at, "problem.unknown_key", got=show(sorted(extra)[0]))
            for sub, v in value.items():
                check_like(defaults[key][sub], v, f"{at}.{brief(sub)}")
        else:
            check_like(defaults[key], value, at)
    for path, (least, most) in NUMBER_BOUNDS.items():
        found = _setting_at(movement, path)
        if found is not None and not isinstance(found, bool):
            ok = isinstance(found, int | float) and least <= found <= most
            expect(
                ok, f"{place}.{path}", "problem.number_range", lo=least, hi=most, got=show(found)
            )
    check_closed(defaults, movement_closed(system), movement, place)
    columns = movement.get("unit_columns", {})
    if columns:
        allowed = movement_columns(system)
        for unit_type, column in columns.items():
            known_name(
                column, allowed, f"{place}.unit_columns.{unit_type}", "problem.unknown_column"
            )
    for path in SIDE_LISTS:
        named = _setting_at(movement, path)
        if named is None or sides is None:
            continue
        # The scenario's sides, and those its default names (which match no side elsewhere).
        allowed = list(dict.fromkeys([*sides, *_setting_at(defaults, path)]))
        ok = all(isinstance(n, str) and n in allowed for n in named)
        ok = ok and len(set(named)) == len(named)
        expect(ok, f"{place}.{path}", "problem.some_of_once", options=", ".join(allowed))


def _setting_at(data: Mapping[str, Any], path: str) -> Any:
    """The value at a dotted ``path`` of a settings object, or None where it has none."""
    here: Any = data
    for key in path.split("."):
        if not isinstance(here, dict) or key not in here:
            return None
        here = here[key]
    return here


def movement_settings(scenario: Scenario) -> dict[str, Any]:
    """The movement defaults of the scenario's system with its overrides (objects merged key
    by key); worked out once per scenario and kept in ``scenario.memo[("movement",
    system)]`` (the rules ask often; do not change it)."""
    key = ("movement", scenario.system)
    found: dict[str, Any] | None = scenario.memo.get(key)
    if found is None:
        found = dict(movement_data(scenario.system))
        for name, value in scenario.data.get("overrides", {}).get("movement", {}).items():
            default = found[name]
            found[name] = {**default, **value} if isinstance(default, dict) else value
        scenario.memo[key] = found
    return found


class Board:
    """A scenario's map with the units where they stand now; built per query, never mutated."""

    def __init__(
        self,
        scenario: Scenario,
        positions: dict[str, str] | None = None,
        states: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        """The scenario's units where ``positions`` puts them, with ``states`` (flags such as
        ``disordered``, ``square``, ``facing``, an ``allowance`` this move, ``out`` for a unit
        no longer on the map) over what the scenario says."""
        self.scenario = scenario
        self.data = movement_settings(scenario)
        # The terrain chart in force: the system's, with this scenario's cell overrides.
        chart_overrides = scenario.data.get("overrides", {}).get("terrain", {})
        if "chart" not in scenario.memo:
            scenario.memo["chart"] = (
                chart_with_overrides(scenario.system, chart_overrides)
                if chart_overrides
                else load_chart(scenario.system)
            )
        self.chart: TerrainChart = scenario.memo["chart"]
        self.rows: dict[str, TerrainRow] = {n: r for r in self.chart.rows for n in r.names}
        self.overridden: frozenset[tuple[str, str]] = frozenset(
            (name, column)
            for row_name, cells in chart_overrides.items()
            for name in self.rows[row_name].names
            for column in cells
        )
        self.units: dict[str, Unit] = {}
        self.occupants: dict[Hex, list[str]] = {}
        for uid, spec in scenario.units.items():
            state = {**spec.get("state", {}), **(states or {}).get(uid, {})}
            if state.get("out"):
                continue
            label = (positions or {}).get(uid, spec["hex"])
            h = scenario.hex_at(label)
            allowance = state.get("allowance", spec.get("ratings", {}).get("movement", 0))
            facing = state.get("facing", spec.get("facing"))
            unit = Unit(uid, spec["side"], spec["type"], h, float(allowance), state, facing)
            self.units[uid] = unit
            self.occupants.setdefault(h, []).append(uid)
        self._zoc: dict[str, dict[Hex, tuple[str, ...]]] = {}
        # what a system's memo of reachable hexes keys its answers by, worked out once a board
        self.keys: dict[Any, Any] = {}
        self._near_enemy: dict[str, frozenset[Hex]] = {}
        self._friends: dict[str, frozenset[Hex]] = {}

    def cell(self, name: str, column: str) -> Cell:
        """The terrain chart's cell for terrain ``name`` in ``column`` (overrides applied)."""
        return self.rows[name].cells[column]

    def rule(self, name: str, column: str, table: str) -> str:
        """The rule reference for a cell: the table's, or the scenario's override of it."""
        return SCENARIO_OVERRIDE if (name, column) in self.overridden else table

    def unit(self, uid: str) -> Unit:
        """The unit ``uid``.

        Raises:
            RulesError: no such unit.
        """
        try:
            return self.units[uid]
        except KeyError:
            raise RulesError("error.unknown_unit", "no unit {unit}", unit=uid) from None

    def units_in(self, h: Hex) -> list[Unit]:
        """The units standing in ``h``."""
        return [self.units[u] for u in self.occupants.get(h, ())]

    def enemies_of(self, side: str) -> Iterable[Unit]:
        """Units of every other side."""
        return (u for u in self.units.values() if u.side != side)

    def enemy_zoc(self, side: str, rules: StepRules) -> dict[Hex, tuple[str, ...]]:
        """Hexes in an enemy zone of control for ``side`` (cached per board)."""
        if side not in self._zoc:
            merged: dict[Hex, tuple[str, ...]] = {}
            for other in {u.side for u in self.units.values()} - {side}:
                for h, ids in rules.zoc(self, other).items():
                    merged[h] = merged.get(h, ()) + ids
            self._zoc[side] = merged
        return self._zoc[side]

    def adjacent_to_enemy(self, h: Hex, side: str) -> bool:
        """True if a unit of another side stands next to ``h``."""
        near = self._near_enemy.get(side)
        if near is None:
            near = frozenset(
                n for u in self.units.values() if u.side != side for n in hex_neighbors(u.hex)
            )
            self._near_enemy[side] = near
        return h in near

    def friends_near(self, unit: Unit) -> frozenset[Hex]:
        """Hexes holding a unit of ``unit``'s side other than ``unit`` itself."""
        found = self._friends.get(unit.id)
        if found is None:
            found = frozenset(
                u.hex for u in self.units.values() if u.side == unit.side and u.id != unit.id
            )
            self._friends[unit.id] = found
        return found

    def memo(self, key: Any) -> dict[Any, Any]:
        """A per-scenario cache (terrain costs by hex and column): the map never changes."""
        found: dict[Any, Any] = self.scenario.memo.setdefault(key, {})
        return found

    def hexside(self, a: Hex, b: Hex) -> tuple[str, ...]:
        """The features printed on the side between two adjacent hexes."""
        return self.scenario.side_features.get((a, b), ())

    def road(self, a: Hex, b: Hex) -> tuple[str, ...]:
        """The road kinds joining two adjacent hexes."""
        return self.scenario.side_roads.get((a, b), ())

    def label(self, h: Hex) -> str:
        """Printed number of ``h``."""
        return self.scenario.label(h)


def collect_zoc(
    board: Board, side: str, zone_of: Callable[[Unit], Iterable[Hex]]
) -> dict[Hex, tuple[str, ...]]:
    """Every hex in a zone of control of ``side``: ``zone_of`` gives each exerting unit's."""
    rule = board.data["zoc"]
    out: dict[Hex, tuple[str, ...]] = {}
    for unit in board.units.values():
        if unit.side != side or unit.type not in rule["exerted_by"]:
            continue
        if any(unit.has(s) for s in rule["not_by_states"]):
            continue
        for n in zone_of(unit):
            out[n] = out.get(n, ()) + (unit.id,)
    return out


def prohibited_step(
    frm: Hex, to: Hex, parts: list[Modifier], key: str, rule: str, **params: Any
) -> Step:
    """A step the rules forbid, naming the rule that does."""
    return Step(frm, to, 0, tuple(parts), Modifier(0, key, rule, tuple(params.items())))


@dataclass(frozen=True, slots=True)
class Reach:
    """A hex a unit can reach: total cost, the previous hex, the step into it."""

    hex: Hex
    cost: float
    prev: Hex | None
    step: Step | None


class Reachable(dict[Hex, Reach]):
    """The hexes a unit may end its move in, each with its cheapest path (a dict), and
    ``passed``: every hex the search reached, those it may only pass through included, so
    that a path walks back through them."""

    __slots__ = ("passed",)

    def __init__(self, ends: dict[Hex, Reach], passed: dict[Hex, Reach]) -> None:
        super().__init__(ends)
        self.passed = passed


def stacking_allows(board: Board, unit: Unit, h: Hex) -> bool:
    """True if ``unit`` may end its move in ``h`` under the stacking limit (data)."""
    if h not in board.occupants:
        return True
    limit = board.data["stacking"]
    free = set(limit.get("free_types", ()))
    if unit.type in free:
        return True
    count = sum(1 for u in board.units_in(h) if u.id != unit.id and u.type not in free)
    return bool(count + 1 <= limit["max_units"])


Way = tuple[Hex, float, str | None, Step | None]
"""A step out of a hex known before a search (``reachable_costs``' ``ways``): the neighbour
entered, the step's cost and stop, and the step itself (None where only its cost is known)."""


def reachable_costs(
    board: Board,
    unit: Unit,
    rules: StepRules,
    ways: dict[Hex, Sequence[Way]] | None = None,
    make_ways: Callable[[Hex], Sequence[Way]] | None = None,
    asked: Container[Hex] | None = None,
    paths: dict[Hex, Reach] | None = None,
) -> dict[Hex, float]:
    """Every hex ``unit`` can reach this move, those it may only pass through included, with
    its cheapest cost, in the order first found (its own hex first, at 0): the movement search
    (Dijkstra) of :func:`reachable` and of the systems' listings of legal moves.

    Honours prohibited steps, enemy-held hexes (never entered), the allowance, and a step's
    ``stop`` (a zone of control entered ends the move; ``"all_mp"`` is a first step only and
    costs the whole allowance); a hex from which even the cheapest step (``rules.min_step``)
    would overrun the allowance is not expanded. Stacking, which decides only where the move
    may end, is the caller's.

    Every step is asked of ``rules.stepper``, unless ``ways`` holds the steps out of each hex
    that the map alone decides, with their costs, in the order of its neighbours (prohibited
    ones left out; ``make_ways(hex)`` gives those of a hex it lacks, then kept in it): then
    only the steps out of or into a hex of ``asked`` (an enemy zone of control) are asked of
    the stepper. ``paths``, if given, receives the cheapest path to each hex found as a
    ``Reach`` (the previous hex and the step; None where a way has no step).

    >>> from muster.scenario import load_builtin
    >>> from muster.systems.hex_facing.movement import RULES
    >>> board = Board(load_builtin("demo-valmont"))
    >>> unit = board.unit("fr-1-1")
    >>> costs = reachable_costs(board, unit, RULES)
    >>> next(iter(costs)) == unit.hex, costs == {h: r.cost for h, r in reachable(
    ...     board, unit.id, RULES).passed.items()}
    (True, True)
    """
    allowance = unit.allowance
    over = allowance + 1e-9
    last_expanding = allowance - rules.min_step(board, unit) + 1e-9
    step_of = rules.stepper(board, unit)
    if ways is None:
        ways = asked = _open_ways(board)  # every hex of the map: every step asked
    make = make_ways or _no_ways
    ask: Container[Hex] = () if asked is None else asked
    start = unit.hex
    # Hexes not to enter again: those the enemy holds, then those searched.
    closed = {u.hex for u in board.enemies_of(unit.side)} - {start}
    costs: dict[Hex, float] = {start: 0.0}
    stops: dict[Hex, bool] = {start: False}
    queue: list[tuple[float, int, Hex]] = [(0.0, 0, start)]
    counter = 1
    heappop, heappush = heapq.heappop, heapq.heappush
    while queue:
        cost, _, h = heappop(queue)
        if h in closed:
            continue
        closed.add(h)
        if stops[h] or cost > last_expanding:
            continue
        out = ways.get(h)
        if out is None:
            out = ways[h] = make(h)
        from_asked = h in ask
        for n, step_cost, stop, step in out:
            if n in closed:
                continue
            if from_asked or n in ask:
                step = step_of(h, n)
                if step.prohibited is not None:
                    continue
                step_cost, stop = step.cost, step.stop
            total = cost + step_cost
            if stop == "all_mp":
                if cost != 0:
                    continue
                total = max(total, allowance)
            elif total > over:
                continue
            known = costs.get(n)
            if known is None or total < known - 1e-9:
                costs[n] = total
                stops[n] = bool(stop)
                if paths is not None:
                    paths[n] = Reach(n, total, h, step)
                heappush(queue, (total, counter, n))
                counter += 1
    return costs


def _open_ways(board: Board) -> dict[Hex, Sequence[Way]]:
    """Every neighbour of each hex as a way of unknown cost (``reachable_costs`` asks the
    stepper for each), made once per scenario."""
    found: dict[Hex, Sequence[Way]] = board.memo(("movement open ways",))
    if not found:
        for h, around in board.scenario.neighbors.items():
            found[h] = tuple((n, 0.0, None, None) for n in around)
    return found


def _no_ways(h: Hex) -> Sequence[Way]:
    raise KeyError(h)  # every hex of the map has its ways


def reachable(board: Board, unit_id: str, rules: StepRules) -> Reachable:
    """Every hex the unit can reach this move with its cheapest cost and path (Dijkstra,
    :func:`reachable_costs`).

    Honours prohibited terrain, zones of control (entering one ends the move), enemy-occupied
    hexes, and stacking at the end of the move; hexes it may only pass through are left out
    (but kept in ``passed``, for the paths through them).
    """
    unit = board.unit(unit_id)
    best: dict[Hex, Reach] = {unit.hex: Reach(unit.hex, 0.0, None, None)}
    reachable_costs(board, unit, rules, paths=best)
    ends = {h: r for h, r in best.items() if h == unit.hex or stacking_allows(board, unit, h)}
    return Reachable(ends, best)


def reachable_hexes(board: Board, unit_id: str, rules: StepRules) -> list[Hex]:
    """The hexes of ``reachable(board, unit_id, rules)`` (its own hex first), found without
    their paths: the listing of legal moves needs none."""
    unit = board.unit(unit_id)
    costs = reachable_costs(board, unit, rules)
    return [h for h in costs if h == unit.hex or stacking_allows(board, unit, h)]


def path_to(reach: dict[Hex, Reach], target: Hex) -> list[Step]:
    """The steps of the cheapest path to ``target`` found by :func:`reachable`.

    Raises:
        IllegalActionError: the target is not reachable.
    """
    if target not in reach:
        raise IllegalActionError("error.unreachable", "hex cannot be reached: {hex}", hex=target)
    walk = reach.passed if isinstance(reach, Reachable) else reach
    steps: list[Step] = []
    node = reach[target]
    while node.step is not None and node.prev is not None:
        steps.append(node.step)
        node = walk[node.prev]
    steps.reverse()
    return steps


def step_json(board: Board, step: Step) -> dict[str, Any]:
    """A step as JSON for the UI: from, to, cost, breakdown and consequences."""
    out: dict[str, Any] = {
        "from": board.label(step.frm),
        "to": board.label(step.to),
        "cost": step.cost,
        "parts": [p.to_json() for p in step.parts],
    }
    if step.stop:
        out["stop"] = step.stop
    if step.flags:
        out["flags"] = sorted(step.flags)
    if step.road:
        out["road"] = step.road
    return out
