"""What the hex-facing rules and screen both read of a position: the sequence settings, the
formations, the board with the units where the state puts them, the units acting, the codes
of a melee result row, the chance die, the rally's modifier, a modifier's log line.

Kept apart so that the handlers (``rules.py``, ``declare.py``, ``aftermath.py``) and
``screen.py`` (what the screen shows) each import it and not each other.
"""

from __future__ import annotations

from typing import Any

from ... import play
from ...hexgrid import hex_distance
from ...hexmap import Scenario
from ...modifier import Modifier
from ...movement import Board
from . import fighting
from . import tables as T
from .state import HexFacingState, ongoing

FOLDER = "hex_facing"
State = HexFacingState  # the state's shape (state.py)
Event = dict[str, Any]
NO_CODE = "none"  # the word logged for a result with no code (worded "no effect")


def sequence_data() -> dict[str, Any]:
    """The turn sequence defaults (``sequence.json``)."""
    return play.sequence_data(FOLDER)


def settings(scenario: Any) -> dict[str, Any]:
    """The sequence defaults with the scenario's overrides and its own turn count."""
    return play.settings(scenario, FOLDER)


def formations(scenario: Scenario) -> dict[str, dict[str, Any]]:
    """The scenario's formations by id; a unit without one forms its own."""
    found = {f["id"]: f for f in scenario.data.get("formations", [])}
    for uid, unit in scenario.units.items():
        fid = unit.get("formation", uid)
        found.setdefault(fid, {"id": fid, "side": unit["side"], "name": unit["name"]})
    return found


def formation_of(scenario: Scenario, uid: str) -> str:
    """The formation a unit belongs to."""
    return str(scenario.units[uid].get("formation", uid))


def melee_codes(
    scenario: Scenario, state: State, chance: dict[str, Any], row: T.ResultRow
) -> tuple[list[str], list[str]]:
    """The codes of a melee result row for the defenders now in the target hex and for the
    attackers (the italic cavalry codes for cavalry), as (defender's, attacker's); codes
    that apply only on a condition (the 0-4 row's pursuit) are not among them."""
    defenders = fighting.fighters(state, scenario, chance["target"])
    cav_attack = any(scenario.units[a]["type"] == "cavalry" for a in chance["units"])
    cav_defence = any(scenario.units[d]["type"] == "cavalry" for d in defenders)
    d_cell, a_cell = row.cells["defender"], row.cells["attacker"]
    d_codes = d_cell.cavalry if cav_defence and d_cell.cavalry and not d_cell.when else d_cell.codes
    a_codes = a_cell.cavalry if cav_attack and a_cell.cavalry else a_cell.codes
    return list(d_codes), list(a_codes)


def if_falls_back(chance: dict[str, Any], row: T.ResultRow) -> list[str]:
    """The defender's codes of ``row`` that apply if an attacker then falls back: the italic
    pursuit of the 0-4 row, when the defender's cavalry countercharged (9.4, 9.5); else none."""
    cell = row.cells["defender"]
    if cell.when == "countercharge_and_attacker_retreats" and chance.get("countercharge"):
        return list(cell.cavalry or ())
    return []


def die_name(scenario: Scenario) -> str:
    """The name of the chance die that rolls as the combat table's die ("d10": 0-9).

    Raises:
        CombatDataError: no die the game rolls reads like the table's.
    """
    from ...game import DICE

    die = T.tables_for(scenario).die
    for name, other in DICE.items():
        if other == die:
            return name
    raise T.CombatDataError(f"{T.SYSTEM} combat.json: die: no die rolls {die}")


def rally_modifier(scenario: Scenario, state: State, uid: str) -> int:
    """The rally roll's modifier: a friendly leader within ``rally.leader_range`` helps."""
    rule = settings(scenario)["rally"]
    here = scenario.hex_at(state["units"][uid]["hex"])
    side = scenario.units[uid]["side"]
    for other, u in state["units"].items():
        spec = scenario.units[other]
        if u["out"] or spec["side"] != side or spec["type"] != "leader":
            continue
        if hex_distance(here, scenario.hex_at(u["hex"])) <= rule["leader_range"]:
            return int(rule["modifier_adjacent_leader"])
    return 0


def board_for(scenario: Scenario, state: State) -> Board:
    """The map with the units where the state puts them."""
    positions = {uid: u["hex"] for uid, u in state["units"].items()}
    states = {}
    for uid, u in state["units"].items():
        flags: dict[str, Any] = {"facing": u["facing"], "out": u["out"], "square": u["square"]}
        flags["disordered"] = u["status"] == "disordered"
        flags["routed"] = u["status"] == "routed"
        states[uid] = flags
    active = state.get("active")
    if active and not active["orders"]:
        factor = settings(scenario)["no_orders"]["movement_factor"]
        for uid in active_units(scenario, state):
            rating = scenario.units[uid].get("ratings", {}).get("movement", 0)
            states[uid]["allowance"] = rating * factor
    return Board(scenario, positions, states)


def active_units(scenario: Scenario, state: State) -> list[str]:
    """The units of the formation now acting that are still on the map."""
    active = ongoing(state, "active")
    return [
        uid
        for uid, u in state["units"].items()
        if not u["out"] and formation_of(scenario, uid) == active["formation"]
    ]


def modifier_event(part: Modifier) -> Event:
    """A log line of one modifier of a fire or melee: its value, what it is, its rule."""
    reason = {"key": part.key, "params": dict(part.params)}
    return {
        "key": "log.hf_modifier",
        "params": {"value": part.value, "reason": reason, "rule": part.rule},
    }


def live_formations(scenario: Scenario, state: State) -> list[str]:
    """Formations with a unit still on the map, in scenario order."""
    out = []
    for fid in formations(scenario):
        if any(
            not u["out"] and formation_of(scenario, uid) == fid for uid, u in state["units"].items()
        ):
            out.append(fid)
    return out
