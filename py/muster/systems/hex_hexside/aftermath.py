"""hex-hexside close combat, steps 9 to 12: advance, extended attack, the Winning Combat
marker, cavalry action and deep charges (19.11.1). Defaults: ``sequence.json``.
"""

from __future__ import annotations

from typing import Any

from ...hexgrid import hex_distance
from ...hexmap import Scenario
from ...movement import Board, stacking_allows
from ...shapes import Action
from . import combat
from .combat import settings
from .movement import RULES as MOVEMENT
from .position import (
    board_for,
    fighters_in,
    log,
    may_attack,
    new_combat,
    open_targets,
    pair_ok,
    spec,
    units_of,
)
from .state import HexHexsideState, ongoing

State = HexHexsideState  # the state's shape (state.py)
Event = dict[str, Any]


def _vacated(scenario: Scenario, state: State, c: dict[str, Any]) -> list[str]:
    """The defending hexes with no defending unit left in them."""
    return [
        t
        for t in c["targets"]
        if not any(spec(scenario, u)["side"] != c["side"] for u in fighters_in(scenario, state, t))
    ]


def advance_options(
    scenario: Scenario, state: State, board: Board | None = None
) -> list[tuple[str, str]]:
    """(unit, hex) pairs an attacker may advance into an emptied defending hex."""
    c = ongoing(state, "combat")
    rule = settings(scenario)["advance"]
    board = board or board_for(scenario, state)
    out = []
    for uid in units_of(state, c, "attacker"):
        u = state["units"][uid]
        if spec(scenario, uid)["type"] not in rule["who"] or u["status"] in rule["not_states"]:
            continue
        if uid in c["advanced"]:
            continue
        unit = board.unit(uid)
        step = MOVEMENT.stepper(board, unit)
        for t in _vacated(scenario, state, c):
            h = scenario.hex_at(t)
            if hex_distance(unit.hex, h) != 1 or not stacking_allows(board, unit, h):
                continue
            prohibited = step(unit.hex, h).prohibited
            if prohibited is None or prohibited.key == "move.prohibited.leave_zoc":
                out.append((uid, t))
    return out


def _advance_step(rules: Any, scenario: Scenario, state: State) -> list[Event]:
    c = ongoing(state, "combat")
    if not c["bombard"] and advance_options(scenario, state):
        c["step"] = "advance"
        return []
    return _extended_step(rules, scenario, state)


def advance(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """An attacker advances into an emptied defending hex (enemy leaders alone there are taken)."""
    c = ongoing(state, "combat")
    uid, to = action["unit"], action["to"]
    u = state["units"][uid]
    events = [log("advance", unit=uid, **{"from": u["hex"], "to": to})]
    u["hex"] = to
    c["advanced"].append(uid)
    for lid, lu in state["units"].items():
        if not lu["out"] and lu["hex"] == to and spec(scenario, lid)["side"] != c["side"]:
            lu["out"] = True
            side = spec(scenario, lid)["side"]
            state["army"][side]["points"] -= settings(scenario)["army_morale"]["points_per_leader"]
            events.append(log("hh_leader_taken", unit=lid))
            events += rules.army_check(scenario, state)
    if state["result"] or advance_options(scenario, state):
        return events
    return events + _extended_step(rules, scenario, state)


def no_advance(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """The attackers stay where they are."""
    return _extended_step(rules, scenario, state)


def _extended_units(scenario: Scenario, state: State) -> list[str]:
    c = ongoing(state, "combat")
    rule = settings(scenario)["extended_attack"]
    return [
        uid
        for uid in c["advanced"]
        if spec(scenario, uid)["type"] in rule["who"]
        and not state["units"][uid]["out"]
        and not (rule["once_per_turn"] and state["units"][uid]["extended"])
        and may_attack(scenario, state, uid, extended=True)
    ]


def extended_targets(scenario: Scenario, state: State, board: Board | None = None) -> list[str]:
    """Enemy hexes the cavalry that advanced may attack at once (step 10)."""
    board = board or board_for(scenario, state)
    units = _extended_units(scenario, state)
    return [
        t
        for t in open_targets(scenario, state)
        if any(pair_ok(scenario, state, board, u, t) for u in units)
    ]


def _extended_step(rules: Any, scenario: Scenario, state: State) -> list[Event]:
    c = ongoing(state, "combat")
    if not c["bombard"] and extended_targets(scenario, state):
        c["step"] = "extended"
        return []
    return _wcm_step(rules, scenario, state)


def extended_attack(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """The cavalry that advanced will attack ``target`` once this combat is over."""
    board = board_for(scenario, state)
    units = [
        u
        for u in _extended_units(scenario, state)
        if pair_ok(scenario, state, board, u, action["target"])
    ]
    ongoing(state, "combat")["extend"] = {"target": action["target"], "units": units}
    return _wcm_step(rules, scenario, state)


def no_extended(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """No extended attack."""
    return _wcm_step(rules, scenario, state)


def _wcm_step(rules: Any, scenario: Scenario, state: State) -> list[Event]:
    c = ongoing(state, "combat")
    events: list[Event] = []
    e = c["effects"]
    unhurt = e is not None and not e["attacker"]["loss"] and not e["attacker"]["r"]
    lead_a = c["lead"]["attacker"]
    left = c["fought"] and len(_vacated(scenario, state, c)) == len(c["targets"])
    # winning_combat_marker.when: the aid's step 11 names the marker, not when it is won.
    when = "never" if c["bombard"] else settings(scenario)["winning_combat_marker"]["when"]
    earned = when == "defender_left" or (when == "defender_left_and_attacker_unhurt" and unhurt)
    if earned and left and not state["units"][lead_a]["out"]:
        state["units"][lead_a]["wcm"] = state["pturn"]
        events.append(log("hh_wcm", unit=lead_a))
    return events + _cavalry_step(rules, scenario, state)


def deep_charge_units(scenario: Scenario, state: State) -> list[str]:
    """Engaged, formed cavalry of the phasing side that has not tried a deep charge this turn."""
    return [
        uid
        for uid, u in state["units"].items()
        if not u["out"]
        and spec(scenario, uid)["side"] == state["side"]
        and spec(scenario, uid)["type"] == "cavalry"
        and u["engaged"]
        and u["status"] == "formed"
        and u["deep"] != state["turn"]
    ]


def _cavalry_step(rules: Any, scenario: Scenario, state: State) -> list[Event]:
    c = ongoing(state, "combat")
    events: list[Event] = []
    if not c["bombard"] and c["fought"]:
        engage = settings(scenario)["cavalry_action"]["engaged_after_combat"]
        for uid in units_of(state, c, "attacker") + units_of(state, c, "defender"):
            u = state["units"][uid]
            if engage and spec(scenario, uid)["type"] == "cavalry" and not u["engaged"]:
                u["engaged"] = True
                events.append(log("hh_engaged", unit=uid))
        if deep_charge_units(scenario, state):
            c["step"] = "cavalry"
            return events
    return events + _finish(scenario, state)


def deep_charge(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """Try a deep charge (19.11.1): d6 + morale + a stacked leader's morale modifier."""
    uid = action["unit"]
    state["units"][uid]["deep"] = state["turn"]
    leader = combat.leader_with(scenario, state, uid)
    bonus = combat.morale(scenario, uid) + (0 if leader is None else combat._mm(scenario, leader))
    state["chance"] = {"die": "d6", "purpose": "deep_charge", "unit": uid, "bonus": bonus}
    need = combat.tables_of(scenario, state).deep_charge_at_least
    return [log("hh_deep_charge", unit=uid, bonus=bonus, need=need)]


def deep_result(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """Step 12's die: a deep charge's unit must charge on if the roll and its bonus reach the
    table's least total."""
    chance = action["chance"]
    uid = chance["unit"]
    total = action["value"] + chance["bonus"]
    must = total >= combat.tables_of(scenario, state).deep_charge_at_least
    state["units"][uid]["must"] = must
    key = "hh_deep_must" if must else "hh_deep_not"
    events = [log(key, unit=uid, total=total)]
    if not deep_charge_units(scenario, state):
        events += _finish(scenario, state)
    return events


def end_combat(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """No more deep charges: the combat is over."""
    return _finish(scenario, state)


def _finish(scenario: Scenario, state: State) -> list[Event]:
    c = state["combat"]
    state["combat"] = None
    ext = c.get("extend") if c else None
    if ext and ext["units"] and not state["result"]:
        state["combat"] = new_combat(
            state, list(ext["units"]), [ext["target"]], pool=list(ext["units"])
        )
    return []
