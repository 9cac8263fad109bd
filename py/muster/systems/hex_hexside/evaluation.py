"""How Muster weighs a position of hex-hexside for one side (``muster.opponent``): the weights
are data (``evaluation.json``), each term the side's own less the other's."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from ...hexgrid import hex_distance
from . import rules as R

FOLDER = "hex_hexside"


@cache
def weights() -> dict[str, float]:
    """The weights of ``evaluation.json`` (its note left out)."""
    from .. import data_path

    data = json.loads(data_path("hex-hexside", "evaluation.json").read_text(encoding="utf-8"))
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
    score = R.RULES.score(scenario, state)
    for s, parts in score.items():
        total += (1 if s == side else -1) * w["points"] * sum(parts.values())
    for s, army in state["army"].items():
        total += (1 if s == side else -1) * w["morale"] * army["points"]
    near: dict[str, list[Any]] = {}
    for uid, u in state["units"].items():
        if u["out"]:
            continue
        spec = scenario.units[uid]
        sign = 1 if spec["side"] == side else -1
        total += sign * w["steps"] * (spec.get("steps", 1) - u["lost"])
        if u["status"] != "formed":
            total += sign * w["disrupted"]
        near.setdefault(spec["side"], []).append(scenario.hex_at(u["hex"]))
    total += w["reach"] * reach(scenario, near, side, int(w["reach_cap"]))
    return total


def reach(scenario: Any, near: dict[str, list[Any]], side: str, cap: int) -> float:
    """For each objective, its points times how many hexes nearer ``side``'s nearest unit
    stands than the other's (at most ``cap`` either way)."""
    mine = near.get(side, [])
    theirs = [h for s, hexes in near.items() if s != side for h in hexes]
    total = 0.0
    for label, points in _objectives(scenario):
        goal = scenario.hex_at(label)
        a = min((hex_distance(h, goal) for h in mine), default=cap)
        b = min((hex_distance(h, goal) for h in theirs), default=cap)
        total += points * max(-cap, min(cap, b - a))
    return total


def _objectives(scenario: Any) -> list[tuple[str, int]]:
    return [(o["hex"], o["points"]) for o in scenario.data.get("objectives", [])]
