"""What a position is worth to a side, for Muster's search (``muster.opponent``): the terms every
system's ``evaluation.py`` shares. Its weights are data (``systems/<x>/evaluation.json``), each
term the side's own less the other's, so the game stays zero-sum.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any

from .hexgrid import hex_neighbors
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
    mean: dict[str, float] = {}
    for s, pieces in near.items():
        closeness = [max(0.0, cap - min(distance(p, g) for g in places)) for p in pieces]
        mean[s] = sum(closeness) / len(closeness) if closeness else 0.0
    return signed(mean, side)
