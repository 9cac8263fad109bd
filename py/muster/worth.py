"""What a position is worth to a side, for Muster's search (``muster.opponent``): the terms every
system's ``evaluation.py`` shares. Its weights are data (``systems/<x>/evaluation.json``), each
term the side's own less the other's, so the game stays zero-sum.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from .hexgrid import Hex, hex_distance, hex_neighbors, hex_ring
from .systems import data_path


@cache
def weights(system: str) -> dict[str, float]:
    """The weights of ``system``'s ``evaluation.json`` (its note, ``why``, left out)."""
    data = json.loads(data_path(system, "evaluation.json").read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if k != "why"}


def ended(state: Mapping[str, Any], side: str, w: Mapping[str, float]) -> float | None:
    """The worth of a finished game (``w["win"]`` won, its opposite lost, 0 drawn), or None
    while it goes on."""
    result = state.get("result")
    if not result:
        return None
    winner = result.get("winner")
    return 0.0 if winner is None else (w["win"] if winner == side else -w["win"])


def lasting(state: Mapping[str, Any], w: Mapping[str, float]) -> float:
    """What a side's forces are still worth, as a share of their worth at the start: they
    count for what they can still do, and the end counts only points, so their worth falls
    by ``w["late"]`` of it over the game's turns (0: never; 1: to nothing past the last)."""
    turns = int(state.get("turns") or 1)
    return 1.0 - w["late"] * (int(state.get("turn", 1)) - 1) / turns


def neighbours(scenario: Any, label: str) -> frozenset[str]:
    """The labels of the hexes next to hex ``label`` on a hex map, worked out once per
    scenario (``scenario.memo``)."""
    key = ("worth.near", label)
    found = scenario.memo.get(key)
    if found is None:
        h = scenario.hex_at(label)
        found = frozenset(scenario.label(n) for n in hex_neighbors(h) if n in scenario.hexes)
        scenario.memo[key] = found
    return found  # type: ignore[no-any-return]


def signed(by_side: Mapping[str, float], side: str) -> float:
    """``side``'s value less every other side's."""
    return sum(value if s == side else -value for s, value in by_side.items())


def points(score: Mapping[str, Mapping[str, float]], side: str, w: Mapping[str, float]) -> float:
    """The score's points (``Ruleset.score``: side -> its parts), weighed by ``w["points"]``."""
    return w["points"] * signed({s: sum(parts.values()) for s, parts in score.items()}, side)


def reach(
    goals: Iterable[tuple[Any, float]],
    near: Mapping[str, Iterable[Any]],
    side: str,
    distance: Callable[[Any, Any], float],
    cap: int,
) -> float:
    """For each objective (``goals``: place and points), its points times how much nearer
    ``side``'s nearest piece stands than the other side's (``near``: side -> the places its
    pieces stand), at most ``cap`` either way; ``distance(place, goal)``."""
    mine = list(near.get(side, ()))
    theirs = [p for s, places in near.items() if s != side for p in places]
    total = 0.0
    for goal, value in goals:
        a = min((distance(p, goal) for p in mine), default=cap)
        b = min((distance(p, goal) for p in theirs), default=cap)
        total += value * max(-cap, min(cap, b - a))
    return total


def advance(
    goals: Iterable[tuple[Any, float]],
    near: Mapping[str, Iterable[Any]],
    side: str,
    distance: Callable[[Any, Any], float],
    cap: int,
) -> float:
    """How far forward each side's pieces stand, on average: for each piece, ``cap`` less its
    distance to the nearest objective (none below 0), the side's mean less the other sides'.
    Unlike ``reach`` (the nearest piece only) every piece counts, so a move that brings up
    one more unit gains, and a side does not end its step with its army left behind."""
    places = [goal for goal, _ in goals]
    if not places:
        return 0.0
    return forward(near, side, lambda p: min(distance(p, g) for g in places), cap)


def forward(
    near: Mapping[str, Iterable[Any]], side: str, nearest: Callable[[Any], float], cap: int
) -> float:
    """``advance`` given each piece's distance to the nearest objective (``nearest``, of its
    place): each side's mean of ``cap`` less it (none below 0), the side's less the others'."""
    mean: dict[str, float] = {}
    for s, pieces in near.items():
        closeness = [max(0.0, cap - nearest(p)) for p in pieces]
        mean[s] = sum(closeness) / len(closeness) if closeness else 0.0
    return signed(mean, side)


# How many pieces past which ``hex_objectives`` looks outward from each objective, ring by
# ring, for the nearest piece of each side, rather than measure every piece against every
# objective: a battle of 2,000 units and 50 objectives is 100,000 distances a position.
MANY = 200


def ring(scenario: Any, goal: Hex, radius: int) -> Sequence[Hex]:
    """The hexes ``radius`` steps from ``goal`` (on the map or off it), worked out once per
    scenario (``scenario.memo``)."""
    key = ("worth.ring", goal, radius)
    found = scenario.memo.get(key)
    if found is None:
        found = scenario.memo[key] = tuple(hex_ring(goal, radius))
    return found  # type: ignore[no-any-return]


def hex_objectives(
    scenario: Any, near: Mapping[str, Iterable[Hex]], side: str, caps: tuple[int, int | None]
) -> tuple[float, float]:
    """``reach`` and ``advance`` of the scenario's objectives on a hex map (``caps``: theirs;
    the advance's None: not worked out, 0), the same values, worked out so that they grow with
    the battle, not with its square: with more than ``MANY`` pieces each objective looks
    outward ring by ring for the nearest piece of each side, no further than the reach's cap
    past the first found (beyond it the difference is the cap either way), and each hex's
    distance to the nearest objective is kept (``scenario.memo``)."""
    goals = [(scenario.hex_at(o["hex"]), o["points"]) for o in scenario.data.get("objectives", [])]
    near_goals = _hex_reach(scenario, goals, near, side, caps[0])
    if caps[1] is None:
        return near_goals, 0.0
    return near_goals, _hex_advance(scenario, goals, near, side, caps[1])


def _hex_reach(
    scenario: Any,
    goals: list[tuple[Hex, float]],
    near: Mapping[str, Iterable[Hex]],
    side: str,
    cap: int,
) -> float:
    mine = list(near.get(side, ()))
    theirs = [p for s, places in near.items() if s != side for p in places]
    if len(mine) + len(theirs) <= MANY or not mine or not theirs:
        return reach(goals, near, side, hex_distance, cap)
    occupied: dict[Hex, int] = {}
    for place in mine:
        occupied[place] = 1
    for place in theirs:
        occupied[place] = occupied.get(place, 0) | 2
    total = 0.0
    for goal, value in goals:
        a = b = -1
        radius, last = 0, -1
        while True:
            for h in ring(scenario, goal, radius):
                bits = occupied.get(h)
                if bits:
                    if bits & 1 and a < 0:
                        a = radius
                    if bits & 2 and b < 0:
                        b = radius
            if a >= 0 and b >= 0:
                break
            if last < 0 and (a >= 0 or b >= 0):
                last = radius + cap
            if radius == last:
                a, b = (a if a >= 0 else last), (b if b >= 0 else last)
                break
            radius += 1
        total += value * max(-cap, min(cap, b - a))
    return total


def _hex_advance(
    scenario: Any, goals: list[tuple[Hex, float]], near: Any, side: str, cap: int
) -> float:
    places = tuple(goal for goal, _ in goals)
    if not places:
        return 0.0
    key = ("worth.nearest", places)
    kept: dict[Hex, int] | None = scenario.memo.get(key)
    if kept is None:
        kept = scenario.memo[key] = {}

    def nearest(p: Hex) -> int:
        d = kept.get(p)
        if d is None:
            d = kept[p] = min(hex_distance(p, g) for g in places)
        return d

    return forward(near, side, nearest, cap)
