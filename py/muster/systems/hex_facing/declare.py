"""hex-facing: a fire, a melee or a charge declared, up to its die (one handler per action).

A fire's modifiers are fixed when it is declared. A melee or charge, once declared: the guns in
the attacked hex may fire in reaction (8.3); then its cavalry may countercharge (9.4, stand-in
of combat.json); then the die. What the dice do is ``aftermath.py``'s.
"""

from __future__ import annotations

from typing import Any

from ...hexmap import Scenario
from ...modifier import total
from ...shapes import Action
from . import combat, fighting
from . import tables as T
from .position import (
    board_for,
    die_name,
    modifier_event,
)
from .state import HexFacingState, ongoing

State = HexFacingState  # the state's shape (state.py)
Event = dict[str, Any]


def fire(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """Declare a fire: its modifiers are fixed now, the die decides."""
    situation = fighting.fire_situation(scenario, state, action)
    parts = combat.fire_modifiers(situation, T.tables_for(scenario))
    firers = [action["unit"]] + ([action["with"]] if "with" in action else [])
    if action.get("kind") != "reaction":
        ongoing(state, "active")["acted"] += firers
    state["chance"] = {
        "die": die_name(scenario),
        "purpose": "fire",
        "target": action["target"],
        "units": firers,
        "total": total(parts),
    }
    key = "log.hf_reaction_fire" if action.get("kind") == "reaction" else "log.hf_fire"
    return [
        {
            "key": key,
            "params": {
                "units": firers,
                "target": action["target"],
                "total": total(parts),
            },
        },
        *(modifier_event(p) for p in parts),
    ]


def melee(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """Declare a melee or charge; guns in the defending hex may fire in reaction first."""
    if action.get("counter"):
        state["counterattack"] = None
    else:
        ongoing(state, "active")["acted"] += action["attackers"]
    chance, parts = _melee_chance(scenario, state, action)
    key = "log.hf_charge" if action.get("charge") else "log.hf_melee"
    key = "log.hf_counterattack" if action.get("counter") else key
    events: list[Event] = [
        {
            "key": key,
            "params": {
                "attackers": list(action["attackers"]),
                "target": action["target"],
                "total": chance["total"],
            },
        },
        *(modifier_event(p) for p in parts),
    ]
    guns = [
        g
        for g in fighting.fighters(state, scenario, action["target"])
        if scenario.units[g]["type"] == "artillery"
        and state["units"][g]["status"] != "routed"
        and state["units"][g]["reacted"] != state["turn"]
    ]
    targets = sorted({state["units"][a]["hex"] for a in action["attackers"]})
    pairs = [
        [g, t]
        for g in guns
        for t in targets
        if fighting.can_fire(
            scenario, state, {"type": "fire", "unit": g, "target": t, "kind": "reaction"}
        )
    ]
    if pairs:
        state["reaction"] = {"pairs": pairs, "melee": action}
        return events
    return events + _await_roll(scenario, state, action, chance)


def _await_roll(
    scenario: Scenario, state: State, melee: Action, chance: dict[str, Any] | None = None
) -> list[Event]:
    """After any reaction fire: the defender's cavalry may countercharge (9.4), else the
    melee's die is due."""
    chance = chance or _melee_chance(scenario, state, melee)[0]
    units = fighting.countercharge_units(scenario, state, board_for(scenario, state), melee)
    if units:
        state["countercharge"] = {"units": units, "melee": melee}
        return []
    state["chance"] = chance
    return []


def _melee_chance(
    scenario: Scenario,
    state: State,
    action: Action,
    countercharge: list[str] | None = None,
) -> tuple[dict[str, Any], list[Any]]:
    """The melee's die roll as a chance point, with its modifiers as things stand now;
    ``countercharge``: the defending units that countercharged."""
    board = board_for(scenario, state)
    situation = fighting.melee_situation(scenario, state, board, action, bool(countercharge))
    parts = combat.melee_modifiers(situation, T.tables_for(scenario))
    chance = {
        "die": die_name(scenario),
        "purpose": "melee",
        "target": action["target"],
        "units": list(action["attackers"]),
        "charge": bool(action.get("charge")),
        "counter": bool(action.get("counter")),
        "countercharge": list(countercharge or ()),
        "total": total(parts),
    }
    return chance, parts


def countercharge(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """The defender's cavalry countercharges the charge (9.4, a stand-in of combat.json):
    if an attacker falls back on a roll of 0-4, it pursues (9.5)."""
    melee = ongoing(state, "countercharge")["melee"]
    units = list(ongoing(state, "countercharge")["units"])
    state["countercharge"] = None
    chance, parts = _melee_chance(scenario, state, melee, units)
    state["chance"] = chance
    rule = T.raw_tables()["procedures"]["countercharge"]["rule"]
    params = {
        "units": units,
        "attackers": list(melee["attackers"]),
        "target": melee["target"],
        "total": chance["total"],
        "rule": rule,
    }
    return [{"key": "log.hf_countercharge", "params": params}]


def no_countercharge(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """The defender's cavalry stands to receive the charge."""
    melee = ongoing(state, "countercharge")["melee"]
    state["countercharge"] = None
    state["chance"] = _melee_chance(scenario, state, melee)[0]
    return []


def reaction_fire(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """A gun in the attacked hex fires at an attacker before the melee (-1, rule 8.3)."""
    reaction = ongoing(state, "reaction")
    state["reaction"] = None
    state["after"] = reaction["melee"]
    state["units"][action["unit"]]["reacted"] = state["turn"]
    shot: Action = {
        "type": "fire",
        "unit": action["unit"],
        "target": action["target"],
        "kind": "reaction",
    }
    return fire(rules, scenario, state, shot)


def no_counterattack(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """The defender does not strike back."""
    state["counterattack"] = None
    return []


def no_reaction(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """The defender lets the melee go ahead without reaction fire."""
    melee = ongoing(state, "reaction")["melee"]
    state["reaction"] = None
    return _await_roll(scenario, state, melee)


def resume(scenario: Scenario, state: State) -> list[Event]:
    """After a reaction fire: the melee goes on with the attackers still able to attack."""
    melee = state["after"]
    assert melee is not None, "no melee held back"
    state["after"] = None
    able = [
        a
        for a in melee["attackers"]
        if not state["units"][a]["out"] and state["units"][a]["status"] != "routed"
    ]
    if not able:
        return [{"key": "log.melee_cancelled", "params": {"target": melee["target"]}}]
    melee = {**melee, "attackers": able}
    try:
        return _await_roll(scenario, state, melee)
    except combat.IllegalCombatError:
        return [{"key": "log.melee_cancelled", "params": {"target": melee["target"]}}]
