"""What the hex-hexside rules ask of a position: the board with the units where the state puts
them, who stands in a hex, who may attack whom, and a fresh combat record.

Close combat (``closecombat.py``, steps 1-8) and its aftermath (``aftermath.py``, steps 9-12)
both read these; neither imports the other's module for them.
"""

from __future__ import annotations

from typing import Any

from ...hexgrid import hex_distance
from ...hexmap import Scenario
from ...movement import Board
from . import combat
from .combat import settings
from .state import HexHexsideState, phasing

State = HexHexsideState  # the state's shape (state.py)
Event = dict[str, Any]


def board_for(scenario: Scenario, state: State) -> Board:
    """The map with the units where the state puts them, with the flags movement reads."""
    positions = {}
    flags: dict[str, dict[str, Any]] = {}
    stacks: dict[tuple[str, str], int] = {}
    units = scenario.units
    for uid, u in state["units"].items():
        if u["out"]:
            flags[uid] = {"out": True}
            continue
        positions[uid] = u["hex"]
        spec = units[uid]
        if spec["type"] != "leader":
            key = (spec["side"], u["hex"])
            stacks[key] = stacks.get(key, 0) + 1
        flags[uid] = {
            "disordered": u["status"] == "disordered",
            "routed": u["status"] == "routed",
            "engaged": u["engaged"],
            "formation": u["formation"],
        }
        if u["moved"]:
            flags[uid]["allowance"] = 0
    for uid, f in flags.items():
        spec = units[uid]
        if not f.get("out") and spec["type"] != "leader":
            f["support"] = stacks[(spec["side"], state["units"][uid]["hex"])] > 1
    return Board(scenario, positions, flags)


def spec(scenario: Scenario, uid: str) -> dict[str, Any]:
    """The scenario's record of unit ``uid`` (side, type, ratings, steps)."""
    return scenario.units[uid]


def log(key: str, **params: Any) -> Event:
    """A log line ``log.<key>`` with its parameters."""
    return {"key": "log." + key, "params": params}


def enemy_side(scenario: Scenario, state: State) -> str:
    """The side that is not phasing (two-sided games)."""
    return str(next(s["id"] for s in scenario.data["sides"] if s["id"] != state["side"]))


def fighters_in(scenario: Scenario, state: State, label: str) -> list[str]:
    """The combat units (not leaders) in hex ``label``."""
    return [
        uid
        for uid, u in state["units"].items()
        if not u["out"] and u["hex"] == label and spec(scenario, uid)["type"] != "leader"
    ]


def enemy_hexes(scenario: Scenario, state: State, side: str) -> list[str]:
    """Hexes holding combat units of a side other than ``side``."""
    return sorted(
        {
            u["hex"]
            for uid, u in state["units"].items()
            if not u["out"]
            and spec(scenario, uid)["side"] != side
            and spec(scenario, uid)["type"] != "leader"
        }
    )


def open_targets(scenario: Scenario, state: State) -> list[str]:
    """The enemy hexes that may be attacked now: all of them, or (``designation.defend_many``
    false) those not attacked yet this player turn."""
    found = enemy_hexes(scenario, state, phasing(state))
    if settings(scenario)["designation"]["defend_many"]:
        return found
    defended = state.get("defended", [])
    return [t for t in found if t not in defended]


def units_of(state: State, c: dict[str, Any], side: str) -> list[str]:
    """The units of one side (``attacker`` or ``defender``) of combat ``c`` still in play."""
    units = c["attackers"] if side == "attacker" else c["defenders"]
    return [u for u in units if not state["units"][u]["out"]]


def may_attack(scenario: Scenario, state: State, uid: str, extended: bool = False) -> bool:
    """True if ``uid`` may be designated to attack now (``designation`` in sequence.json)."""
    rule = settings(scenario)["designation"]
    u = state["units"][uid]
    s = spec(scenario, uid)
    if u["out"] or s["side"] != state["side"] or s["type"] not in rule["may_attack"]:
        return False
    if u["status"] in rule["not_states"] or u["bombarded"]:
        return False
    return extended or u["must"] or not (rule["attack_once"] and u["attacked"])


def pair_ok(scenario: Scenario, state: State, board: Board, uid: str, target: str) -> bool:
    """True if ``uid`` is adjacent to ``target`` across a hexside the chart lets it attack."""
    a = scenario.hex_at(state["units"][uid]["hex"])
    d = scenario.hex_at(target)
    if hex_distance(a, d) != 1:
        return False
    column = combat.column_for(spec(scenario, uid)["type"])
    return combat.terrain_drm(board, column, a, d).prohibited is None


def new_combat(
    state: State, attackers: list[str], targets: list[str], pool: list[str] | None
) -> dict[str, Any]:
    """A combat at step 1 (designation): ``pool`` lists who may join an extended attack."""
    return {
        "step": "designate",
        "side": state["side"],
        "attackers": attackers,
        "targets": targets,
        "pool": pool,
        "extended": pool is not None,
        "bombard": False,
        "defenders": [],
        "volunteers": [],
        "lead": {"attacker": None, "defender": None},
        "pairs": [],
        "pair": None,
        "odds": None,
        "drm": None,
        "codes": None,
        "roll": None,
        "effects": None,
        "advanced": [],
        "extend": None,
        "fought": False,
    }
