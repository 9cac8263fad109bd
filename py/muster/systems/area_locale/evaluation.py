"""How Muster weighs a position of area-locale for one side (``muster.opponent``): the weights
are data (``evaluation.json``), each term the side's own less the other's.

It reads a whole state: the opponent gives it a determinized one (the other side's hidden
blocks sampled from what the side has seen), never the game's own."""

from __future__ import annotations

from collections import deque
from typing import Any

from ... import worth
from ...play import objectives
from . import rules as R

SYSTEM = "area-locale"


def evaluate(scenario: Any, state: Any, side: str) -> float:
    """The worth of ``state`` to ``side``: more is better for it, the other side's worth is
    its opposite (the game is zero-sum)."""
    w = worth.weights(SYSTEM)
    over = worth.ended(state, side, w)
    if over is not None:
        return over
    total = worth.points(R.RULES.score(scenario, state), side, w)
    total += w["morale"] * worth.signed(state["army"], side)
    near: dict[str, list[tuple[str, str | None]]] = {}
    for pid, p in state["pieces"].items():
        if p["out"]:
            continue
        owner = scenario.units[pid]["side"]
        total += (1 if owner == side else -1) * w["steps"] * p["steps"]
        near.setdefault(owner, []).append((p["locale"], p["approach"]))
    cap = int(w["reach_cap"])

    def distance(place: tuple[str, str | None], goal: str) -> float:
        """Locales from a piece to ``goal``; a piece on an approach stands half way to the
        locale it faces (so moving up to an approach, to assault from it, gains)."""
        locale, approach = place
        found = _distances(scenario, goal)
        far = float(found.get(locale, 99))
        return far if approach is None else min(far, found.get(approach, 99) + 0.5)

    goals = objectives(scenario)
    total += w["reach"] * worth.reach(goals, near, side, distance, cap)
    total += w["advance"] * worth.advance(goals, near, side, distance, int(w["advance_cap"]))
    return total


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
