"""hex-hexside on screen: previews with every DRM and exact odds, the combat in progress,
and the prompt with the side that decides (pass-and-play hands the tablet over).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ...dice import distribution as die_distribution
from ...movement import Part
from ...scenario import Scenario
from . import closecombat as cc
from . import combat
from . import tables as T

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]


STEP_NUMBER = {
    "designate": 1,
    "retreat_before": 2,
    "lead_attacker": 4,
    "lead_defender": 4,
    "terrain": 5,
    "advance": 9,
    "extended": 10,
    "cavalry": 12,
}


def _outcomes(state: State, column: str, drm: int) -> list[dict[str, Any]]:
    return combat.distribution(state, column, drm)


def preview(scenario: Scenario, state: State, action: Action) -> dict[str, Any]:
    """The DRM (each with its rule) and the exact odds of a close combat or bombardment."""
    t = combat.tables_of(state)
    if action["type"] == "deep_charge":
        uid = action["unit"]
        leader = combat.leader_with(scenario, state, uid)
        parts = [Part(combat.morale(scenario, uid), "drm.hh_morale", "19.11.1", (("unit", uid),))]
        if leader is not None:
            parts.append(
                Part(combat._mm(scenario, leader), "drm.leader", "19.11.1", (("unit", leader),))
            )
        need = t.deep_charge_at_least - sum(int(p.value) for p in parts)
        p = T.deep_charge_probability(int(parts[0].value), int(sum(x.value for x in parts[1:])), t)
        return test_preview(state, parts, need, "deep_charge", p)
    if action["type"] == "bombard":
        uid, target = action["unit"], action["target"]
        defenders = cc.fighters_in(scenario, state, target)
        odds = combat.odds(scenario, state, [uid], defenders)
        parts = list(cc._bombard_terrain(scenario, state, uid, target).parts)
        return _answer(state, odds, parts, provisional=False, bombard=True)
    c = dict(state["combat"])
    provisional = action["type"] == "confirm"
    if provisional:
        c["defenders"] = [u for t_ in c["targets"] for u in cc.fighters_in(scenario, state, t_)]
        c["lead"] = {
            "attacker": max(c["attackers"], key=lambda u: combat.morale(scenario, u)),
            "defender": max(c["defenders"], key=lambda u: combat.morale(scenario, u)),
        }
        c["odds"] = combat.odds(scenario, state, c["attackers"], c["defenders"])
        pairs = cc.terrain_pairs(scenario, state, cc._board(scenario, state), c)
        best = None
        for pair in pairs:
            parts = cc.close_parts(scenario, state, {**c, "pair": pair})
            total = sum(p.value for p in parts)
            if best is None or total > best[0]:
                best = (total, parts)
        parts = best[1] if best else []
    else:
        c["pair"] = [action["from"], action["into"]]
        parts = cc.close_parts(scenario, state, c)
    return _answer(state, c["odds"], parts, provisional=provisional, bombard=False)


def _answer(
    state: State, odds: dict[str, Any], parts: list[Part], provisional: bool, bombard: bool
) -> dict[str, Any]:
    total = int(sum(p.value for p in parts))
    return {
        "modifiers": [p.to_json() for p in parts],
        "total": total,
        "odds": odds,
        "outcomes": _outcomes(state, odds["column"], total),
        "provisional": provisional,
        "bombard": bombard,
        "crt": state["crt"],
    }


def test_preview(
    state: State, parts: list[Part], target: int, kind: str, p: Fraction | None = None
) -> dict[str, Any]:
    """Odds of a rally (die at most ``target``) or a deep charge (die at least ``target``)."""
    t = combat.tables_of(state)
    if p is None:
        dist = die_distribution(t.die)
        p = sum((q for f, q in dist.items() if f <= target), Fraction(0))
    words = {
        "rally": ("effect.hh_rallies", "effect.hh_fails"),
        "deep_charge": ("effect.hh_must", "effect.hh_not"),
    }
    yes, no = words[kind]
    return {
        "modifiers": [x.to_json() for x in parts],
        "total": int(sum(x.value for x in parts)),
        "target": target,
        "outcomes": [
            {"outcome": {"result": [{"key": yes, "params": {}}]}, "p": float(p)},
            {"outcome": {"result": [{"key": no, "params": {}}]}, "p": float(1 - p)},
        ],
        "provisional": False,
        "crt": None,
    }


def combat_view(scenario: Scenario, state: State) -> dict[str, Any] | None:
    """The combat in progress as the screen shows it, with the odds once they are known."""
    c = state["combat"]
    if c is None:
        return None
    view = {k: c[k] for k in ("step", "side", "attackers", "targets", "defenders", "lead", "pair")}
    view.update(
        bombard=c["bombard"],
        extended=c["extended"],
        odds=c["odds"],
        codes=c["codes"],
        roll=c["roll"],
        number=STEP_NUMBER.get(c["step"], {"resolve": 6, "results": 8}.get(c["step"])),
    )
    designating = c["step"] == "designate"
    if designating and cc.designation_valid(scenario, state, cc._board(scenario, state), c):
        view["preview"] = preview(scenario, state, {"type": "confirm"})
    elif c["step"] == "resolve":
        parts = (
            list(cc._bombard_terrain(scenario, state, c["attackers"][0], c["targets"][0]).parts)
            if c["bombard"]
            else cc.close_parts(scenario, state, c)
        )
        view["preview"] = _answer(state, c["odds"], parts, provisional=False, bombard=c["bombard"])
    return view


def prompt(scenario: Scenario, state: State) -> dict[str, Any] | None:
    """What the screen asks now, and which side decides (pass-and-play hands the tablet over)."""
    if state["result"]:
        return None
    side = state["side"]
    other = cc.enemy_side(scenario, state)
    chance = state["chance"]
    if chance:
        return {
            "key": f"prompt.chance.hh_{chance['purpose']}",
            "params": {k: v for k, v in chance.items() if k not in ("die", "purpose")},
            "side": side,
        }
    d = state["decision"]
    if d is not None:
        if d["kind"] == "loss":
            owner = state["combat"]["side"] if d["side"] == "attacker" else other
            return {"key": "prompt.hh_loss", "params": {}, "side": owner}
        owner = cc._spec(scenario, d["unit"])["side"]
        return {"key": "prompt.retreat", "params": {"unit": d["unit"]}, "side": owner}
    c = state["combat"]
    if c is not None:
        decider = other if c["step"] in ("retreat_before", "lead_defender") else side
        params = {"targets": ", ".join(c["targets"])}
        return {"key": f"prompt.hh_{c['step']}", "params": params, "side": decider}
    params = {"side": side}
    if state["phase"] == "combat" and cc.must_attack_targets(scenario, state):
        return {"key": "prompt.hh_must_attack", "params": params, "side": side}
    return {"key": f"prompt.hh_{state['phase']}", "params": params, "side": side}
