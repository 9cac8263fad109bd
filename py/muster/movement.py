"""Movement on a hex map: step costs with their breakdown, zones of control, and a Dijkstra.

The rules of each system live in ``systems/<system>/movement.py`` as a ``StepRules`` object:
what one step costs a unit, and which hexes each side's zone of control covers. This module
holds what the systems share: the board's occupancy, the search, and the result records.
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from .errors import IllegalActionError, RulesError
from .hexgrid import Hex, Hexside, hex_neighbors
from .scenario import Scenario

SYSTEM_DIRS = {"hex-facing": "hex_facing", "hex-hexside": "hex_hexside"}


@dataclass(frozen=True, slots=True)
class Part:
    """One line of a cost breakdown: the MP it adds, a message key, its parameters, its rule."""

    value: float
    key: str
    rule: str
    params: tuple[tuple[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The part as plain JSON."""
        return {
            "value": self.value,
            "key": self.key,
            "rule": self.rule,
            "params": dict(self.params),
        }


@dataclass(frozen=True, slots=True)
class Step:
    """The cost of moving a unit from one hex into an adjacent one, or why it may not.

    ``stop`` means the unit must end its move in ``to`` (an enemy zone of control, all its MP).
    ``flags`` carries consequences of the step, such as ``"disorder"``.
    """

    frm: Hex
    to: Hex
    cost: float
    parts: tuple[Part, ...]
    prohibited: Part | None = None
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

    def zoc(self, board: Board, side: str) -> dict[Hex, tuple[str, ...]]:
        """Every hex in a zone of control of ``side``, with the ids of the units exerting it."""
        ...


@cache
def movement_data(system: str) -> dict[str, Any]:
    """The movement defaults of a system (``systems/<system>/movement.json``)."""
    path = Path(__file__).parent / "systems" / SYSTEM_DIRS[system] / "movement.json"
    return json.loads(path.read_text(encoding="utf-8"))


class Board:
    """A scenario's map with the units where they stand now; built per query, never mutated."""

    def __init__(self, scenario: Scenario, positions: dict[str, str] | None = None) -> None:
        self.scenario = scenario
        self.data = dict(movement_data(scenario.system))
        for key, value in scenario.data.get("overrides", {}).get("movement", {}).items():
            default = self.data[key]
            self.data[key] = {**default, **value} if isinstance(default, dict) else value
        self.units: dict[str, Unit] = {}
        self.occupants: dict[Hex, list[str]] = {}
        for uid, spec in scenario.units.items():
            label = (positions or {}).get(uid, spec["hex"])
            h = scenario.hex_at(label)
            unit = Unit(
                uid,
                spec["side"],
                spec["type"],
                h,
                float(spec.get("ratings", {}).get("movement", 0)),
                dict(spec.get("state", {})),
                spec.get("facing"),
            )
            self.units[uid] = unit
            self.occupants.setdefault(h, []).append(uid)
        self._zoc: dict[str, dict[Hex, tuple[str, ...]]] = {}

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
        return any(u.side != side for n in hex_neighbors(h) for u in self.units_in(n))

    def hexside(self, a: Hex, b: Hex) -> tuple[str, ...]:
        """The features printed on the side between two adjacent hexes."""
        data = self.scenario.hexsides.get(Hexside.between(a, b))
        return data.features if data else ()

    def road(self, a: Hex, b: Hex) -> tuple[str, ...]:
        """The road kinds joining two adjacent hexes."""
        return self.scenario.roads.get(Hexside.between(a, b), ())

    def label(self, h: Hex) -> str:
        """Printed number of ``h``."""
        return self.scenario.label(h)


@dataclass(frozen=True, slots=True)
class Reach:
    """A hex a unit can reach: total cost, the previous hex, the step into it."""

    hex: Hex
    cost: float
    prev: Hex | None
    step: Step | None


def stacking_allows(board: Board, unit: Unit, h: Hex) -> bool:
    """True if ``unit`` may end its move in ``h`` under the stacking limit (data)."""
    limit = board.data["stacking"]
    free = set(limit.get("free_types", ()))
    if unit.type in free:
        return True
    count = sum(1 for u in board.units_in(h) if u.id != unit.id and u.type not in free)
    return count + 1 <= limit["max_units"]


def reachable(board: Board, unit_id: str, rules: StepRules) -> dict[Hex, Reach]:
    """Every hex the unit can reach this move with its cheapest cost and path (Dijkstra).

    Honours prohibited terrain, zones of control (entering one ends the move), enemy-occupied
    hexes, and stacking at the end of the move; hexes it may only pass through are left out.
    """
    unit = board.unit(unit_id)
    allowance = unit.allowance
    best: dict[Hex, Reach] = {unit.hex: Reach(unit.hex, 0.0, None, None)}
    done: set[Hex] = set()
    queue: list[tuple[float, int, Hex]] = [(0.0, 0, unit.hex)]
    counter = 1
    hexes = board.scenario.hexes
    while queue:
        cost, _, h = heapq.heappop(queue)
        if h in done:
            continue
        done.add(h)
        here = best[h]
        if here.step is not None and here.step.stop:
            continue
        for n in hex_neighbors(h):
            if n not in hexes or n in done:
                continue
            if any(u.side != unit.side for u in board.units_in(n)):
                continue
            step = rules.step(board, unit, h, n)
            if step.prohibited is not None:
                continue
            total = cost + step.cost
            if step.stop == "all_mp":
                if cost != 0:
                    continue
                total = max(total, allowance)
            elif total > allowance + 1e-9:
                continue
            known = best.get(n)
            if known is None or total < known.cost - 1e-9:
                best[n] = Reach(n, total, h, step)
                heapq.heappush(queue, (total, counter, n))
                counter += 1
    return {h: r for h, r in best.items() if h == unit.hex or stacking_allows(board, unit, h)}


def path_to(reach: dict[Hex, Reach], target: Hex) -> list[Step]:
    """The steps of the cheapest path to ``target`` found by :func:`reachable`.

    Raises:
        IllegalActionError: the target is not reachable.
    """
    if target not in reach:
        raise IllegalActionError("error.unreachable", "hex cannot be reached: {hex}", hex=target)
    steps: list[Step] = []
    node = reach[target]
    while node.step is not None:
        steps.append(node.step)
        node = reach[node.prev]  # type: ignore[index]
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
