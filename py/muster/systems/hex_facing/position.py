"""What the hex-facing rules and screen both read: the sequence settings, the formations,
the codes of a melee result row, the chance die and the rally's modifier.

Kept apart so that ``rules.py`` (the handlers) and ``screen.py`` (what the screen shows) each
import it and not each other.
"""

from __future__ import annotations

from typing import Any

from ...hexgrid import hex_distance
from ...hexmap import Scenario
from .. import common
from . import fighting
from . import tables as T
from .state import HexFacingState

FOLDER = "hex_facing"
State = HexFacingState  # the state's shape (state.py)
NO_CODE = "none"  # the word logged for a result with no code (worded "no effect")


def sequence_data() -> dict[str, Any]:
    """The turn sequence defaults (``sequence.json``)."""
    return common.sequence_data(FOLDER)


def settings(scenario: Any) -> dict[str, Any]:
    """The sequence defaults with the scenario's overrides and its own turn count."""
    return common.settings(scenario, FOLDER)


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
