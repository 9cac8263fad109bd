"""How Muster weighs a position of area-locale for one side (``muster.opponent``): the weights
are data (``evaluation.json``), each term the side's own less the other's.

It reads a whole state: the opponent gives it a determinized one (the other side's hidden
blocks sampled from what the side has seen), never the game's own."""

from __future__ import annotations

import json
from collections import deque
from functools import cache
from typing import Any

from ...play import objectives
from . import rules as R


@cache
def weights() -> dict[str, float]:
    """The weights of ``evaluation.json`` (its note left out)."""
    from .. import data_path

    data = json.loads(data_path("area-locale", "evaluation.json").read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if k != "why"}


def evaluate(scenario: Any, state: Any, side: str) -> float:
    """The worth of ``state`` to ``side``: more is better for it, the other side's worth is
    its opposite (the game is zero-sum)."""
    w = weights()
    result = state.get("result")
    if result:
        winner = result.get("winner")
        return 0.0 if winner is None else (w["win"] if winner == side else -w["win"])
    total = 0.0
    for s, parts in R.RULES.score(scenario, state).items():
        total += (1 if s == side else -1) * w["points"] * sum(parts.values())
    for s, points in state["army"].items():
        total += (1 if s == side else -1) * w["morale"] * points
    near: dict[str, set[str]] = {}
    for pid, p in state["pieces"].items():
        if p["out"]:
            continue
        owner = scenario.units[pid]["side"]
        total += (1 if owner == side else -1) * w["steps"] * p["steps"]
        near.setdefault(owner, set()).add(p["locale"])
    cap = int(w["reach_cap"])
    mine = near.get(side, set())
    theirs = {loc for s, locs in near.items() if s != side for loc in locs}
    for locale, points in objectives(scenario):
        a = _distance(scenario, locale, mine, cap)
        b = _distance(scenario, locale, theirs, cap)
        total += w["reach"] * points * max(-cap, min(cap, b - a))
    return total


def _distance(scenario: Any, goal: str, places: set[str], cap: int) -> int:
    """Locales from ``goal`` to the nearest of ``places`` (``cap`` if none is nearer)."""
    table = _distances(scenario, goal)
    return min((table.get(p, cap) for p in places), default=cap)


def _distances(scenario: Any, goal: str) -> dict[str, int]:
    key = ("evaluation.distances", goal)
    found: dict[str, int] | None = scenario.memo.get(key)
    if found is None:
        found = {goal: 0}
        todo = deque([goal])
        while todo:
            here = todo.popleft()
            for there in scenario.neighbors.get(here, ()):
                if there not in found:
                    found[there] = found[here] + 1
                    todo.append(there)
        scenario.memo[key] = found
    return found
