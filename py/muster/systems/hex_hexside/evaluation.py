"""How Muster weighs a position of hex-hexside for one side (``muster.opponent``): the weights
are data (``evaluation.json``), each term the side's own less the other's (``muster.worth``)."""

from __future__ import annotations

from typing import Any

from ... import worth
from ...hexgrid import hex_distance
from . import rules as R

SYSTEM = "hex-hexside"


def evaluate(scenario: Any, state: Any, side: str) -> float:
    """The worth of ``state`` to ``side``: more is better for it, the other side's worth is
    its opposite (the game is zero-sum)."""
    w = worth.weights(SYSTEM)
    over = worth.ended(state, side, w)
    if over is not None:
        return over
    total = worth.points(R.RULES.score(scenario, state), side, w)
    army = {s: a["points"] for s, a in state["army"].items()}
    total += w["morale"] * worth.signed(army, side)
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
    goals = [(scenario.hex_at(o["hex"]), o["points"]) for o in scenario.data.get("objectives", [])]
    total += w["reach"] * worth.reach(goals, near, side, hex_distance, int(w["reach_cap"]))
    total += w["advance"] * worth.advance(goals, near, side, hex_distance, int(w["advance_cap"]))
    return total
