"""How Muster weighs a position of hex-facing for one side (``muster.opponent``): the weights
are data (``evaluation.json``), each term the side's own less the other's (``muster.worth``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ... import play, worth
from . import rules as R
from .position import formation_of, settings

SYSTEM = "hex-facing"


def evaluate(scenario: Any, state: Any, side: str) -> float:
    """The worth of ``state`` to ``side``: more is better for it, the other side's worth is
    its opposite (the game is zero-sum)."""
    w = worth.weights(SYSTEM)
    over = worth.ended(state, side, w)
    if over is not None:
        return over
    total = worth.points(R.RULES.score(scenario, state), side, w)
    near: dict[str, list[Any]] = {}
    keep = worth.lasting(state, w)
    for uid, u in state["units"].items():
        if u["out"]:
            continue
        spec = scenario.units[uid]
        sign = keep if spec["side"] == side else -keep
        strength = spec["ratings"].get("strength", 1)
        if u["status"] == "routed":
            total += sign * w["routed"] * strength
            continue
        total += sign * w["strength"] * strength
        if u["status"] == "disordered":
            total += sign * w["disordered"] * strength
        near.setdefault(spec["side"], []).append(scenario.hex_at(u["hex"]))
    caps = (int(w["reach_cap"]), int(w["advance_cap"]))
    reach, advance = worth.hex_objectives(scenario, near, side, caps)
    total += w["reach"] * reach
    total += w["advance"] * advance
    return total


def _will_move(scenario: Any, state: Any) -> Callable[[str], bool]:
    """Whether a formation's units may still move before the end: any, while a turn follows
    this one; in the last turn, those of a formation still in the cup, or of the one active
    before its combat step (the rules' ``formation_steps``)."""
    if state["turn"] < state["turns"]:
        return lambda formation: True
    later = set(state["cup"])
    active = state.get("active")
    if active:
        steps = settings(scenario)["formation_steps"]
        if "move" in steps and active["step"] in steps[: steps.index("move") + 1]:
            later.add(active["formation"])
    return later.__contains__


def threat(scenario: Any, state: Any, side: str) -> float:
    """The objectives each side could take at its next move, for the levels that look at the
    other side's turn (``Level.threats``): an objective the side does not hold, with none of
    the other side's units on it (``w["take"]`` times its points) or only routed ones and
    leaders, that a melee may drive off (``w["take_routed"]`` times), and one of the side's
    units next to it, not routed, of a formation that will move again before the end;
    ``side``'s less the other's. No unit counts twice."""
    w = worth.weights(SYSTEM)
    take, take_routed = w["take"], w["take_routed"]
    if not take and not take_routed:
        return 0.0
    goals = play.objectives(scenario)
    if not goals:
        return 0.0
    on: dict[str, list[str]] = {}
    for uid, u in state["units"].items():
        if not u["out"]:
            on.setdefault(u["hex"], []).append(uid)
    moves = _will_move(scenario, state)
    used: set[str] = set()
    total = 0.0
    for label, points in goals:
        there = [(scenario.units[uid], state["units"][uid]) for uid in on.get(label, ())]
        beside = [uid for n in sorted(worth.neighbours(scenario, label)) for uid in on.get(n, ())]
        for taker in (side, *(s["id"] for s in scenario.data["sides"] if s["id"] != side)):
            if taker == state["held"].get(label):
                continue
            others = [(spec, u) for spec, u in there if spec["side"] != taker]
            if any(spec["type"] != "leader" and u["status"] != "routed" for spec, u in others):
                continue
            weight = take_routed if others else take
            for uid in beside:
                spec, u = scenario.units[uid], state["units"][uid]
                if uid in used or spec["side"] != taker or u["status"] == "routed":
                    continue
                if not moves(formation_of(scenario, uid)):
                    continue
                used.add(uid)
                total += (1 if taker == side else -1) * weight * points
                break
    return total
