"""hex-facing fire and melee on the map: who may fire or attack whom, the situation the
combat tables read, previews with exact odds, and the effects of results on the state.

The tables and their arithmetic are in ``combat.py``; this module turns positions into the
plain facts those functions take, and results back into positions and states.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from ...hexgrid import Hex, Hexside, hex_distance
from ...hexmap import Scenario
from ...los import line_of_sight, trace
from ...modifier import total
from ...movement import Board, Unit
from ...shapes import Action
from . import combat, reference
from . import tables as T
from .combat import Combatant, FireSituation, IllegalCombatError, MeleeSituation
from .geometry import (
    attack_position,
    attackers_adjacent,
    front_hexes,
    in_front_arc,
    rear_in_enemy_front,
)
from .movement import RULES as MOVEMENT
from .state import HexFacingState, ongoing

State = HexFacingState  # the state's shape (state.py)


def combatant(
    scenario: Scenario,
    state: State,
    uid: str,
    hexside: tuple[str, ...] = (),
    level: int = 0,
) -> Combatant:
    """A unit as the combat tables see it."""
    spec = scenario.units[uid]
    u = state["units"][uid]
    ratings = spec.get("ratings", {})
    return Combatant(
        type=spec["type"],
        strength=int(ratings.get("strength", 0)),
        cohesion=int(ratings.get("cohesion", 0)),
        heavy=bool(ratings.get("heavy", 0)),
        disordered=u["status"] == "disordered",
        routed=u["status"] == "routed",
        in_square=u["square"],
        terrain=scenario.hexes[scenario.hex_at(u["hex"])].terrain,
        hexside=hexside,
        level=level,
        fire_strength=int(ratings.get("fire", 0)),
        effective_range=int(ratings.get("range", 0)),
        formation=spec.get("formation", uid),
    )


def units_in(state: State, scenario: Scenario, label: str) -> list[str]:
    """Units on the map in hex ``label``, leaders last."""
    found = [uid for uid, u in state["units"].items() if not u["out"] and u["hex"] == label]
    return sorted(found, key=lambda uid: scenario.units[uid]["type"] == "leader")


def fighters(state: State, scenario: Scenario, label: str) -> list[str]:
    """The combat units (not leaders) in a hex."""
    return [u for u in units_in(state, scenario, label) if scenario.units[u]["type"] != "leader"]


def _level(scenario: Scenario, a: Hex, b: Hex) -> int:
    return scenario.hexes[a].level - scenario.hexes[b].level


# -- fire -------------------------------------------------------------------------------------


def fire_actions(scenario: Scenario, state: State, board: Board, ready: list[str]) -> list[Action]:
    """Every fire the artillery in ``ready`` may make: in range, in the front arc, in sight."""
    actions: list[Action] = []
    beyond = T.tables_for(scenario).settings["fire_modifiers.long_range_limit"]
    enemy_hexes: dict[str, set[str]] = {}
    for uid, u in state["units"].items():
        if not u["out"] and scenario.units[uid]["type"] != "leader":
            enemy_hexes.setdefault(scenario.units[uid]["side"], set()).add(u["hex"])
    for uid in ready:
        spec = scenario.units[uid]
        if spec["type"] != "artillery" or state["units"][uid]["status"] == "routed":
            continue
        unit = board.unit(uid)
        reach = int(spec.get("ratings", {}).get("range", 0)) + beyond
        partner = [
            other
            for other in ready
            if other != uid
            and other > uid
            and scenario.units[other]["type"] == "artillery"
            and state["units"][other]["hex"] == state["units"][uid]["hex"]
            and state["units"][other]["status"] != "routed"
        ]
        targets = sorted(
            label for side, hexes in enemy_hexes.items() if side != spec["side"] for label in hexes
        )
        for label in targets:
            target = scenario.hex_at(label)
            if hex_distance(unit.hex, target) > reach or not in_front_arc(board, unit, target):
                continue
            fires: list[Action] = [{"type": "fire", "unit": uid, "target": label}]
            fires += [{"type": "fire", "unit": uid, "with": o, "target": label} for o in partner]
            actions += [fire for fire in fires if can_fire(scenario, state, fire)]
    return actions


def can_fire(scenario: Scenario, state: State, action: Action) -> bool:
    """True if the tables allow this fire: in sight, and no hexside that forbids it."""
    origin = scenario.hex_at(state["units"][action["unit"]]["hex"])
    if not line_of_sight(scenario, origin, scenario.hex_at(action["target"])).clear:
        return False
    try:
        combat.fire_modifiers(fire_situation(scenario, state, action), T.tables_for(scenario))
    except IllegalCombatError:
        return False
    return True


def fire_situation(scenario: Scenario, state: State, action: Action) -> FireSituation:
    """The facts of a fire for the tables: firers, targets, range, target terrain, hexside."""
    firers = [action["unit"]] + ([action["with"]] if "with" in action else [])
    origin = scenario.hex_at(state["units"][action["unit"]]["hex"])
    target = scenario.hex_at(action["target"])
    last = trace(origin, target)[-1].hexside
    side = scenario.hexsides.get(last) if isinstance(last, Hexside) else None
    targets = [combatant(scenario, state, t) for t in fighters(state, scenario, action["target"])]
    kind = action.get("kind", "fire")
    if kind == "fire" and targets and all(t.type == "artillery" for t in targets):
        kind = "counter_battery"  # fire at guns alone (7.6): the -1 of the fire DRM table
    return FireSituation(
        firers=tuple(combatant(scenario, state, f) for f in firers),
        targets=tuple(targets),
        kind=kind,
        range=hex_distance(origin, target),
        terrain=scenario.hexes[target].terrain,
        hexside=side.features if side else (),
        level=_level(scenario, origin, target),
    )


# -- melee ------------------------------------------------------------------------------------


def melee_actions(scenario: Scenario, state: State, board: Board, ready: list[str]) -> list[Action]:
    """Every melee and charge the units in ``ready`` may declare (each subset of the units
    that have the defender's hex in front of them), as the tables allow."""
    by_target: dict[str, list[str]] = {}
    for uid in ready:
        spec = scenario.units[uid]
        u = state["units"][uid]
        if spec["type"] not in ("infantry", "cavalry") or u["status"] == "routed" or u["square"]:
            continue
        for h in front_hexes(board, board.unit(uid)):
            if h not in scenario.hexes:
                continue
            label = scenario.label(h)
            enemies = [
                x
                for x in fighters(state, scenario, label)
                if scenario.units[x]["side"] != spec["side"]
            ]
            if enemies:
                by_target.setdefault(label, []).append(uid)
    actions: list[Action] = []
    for label in sorted(by_target):
        eligible = sorted(by_target[label])
        for size in range(1, len(eligible) + 1):
            for group in combinations(eligible, size):
                cavalry = any(scenario.units[g]["type"] == "cavalry" for g in group)
                for charge in (False, True) if cavalry else (False,):
                    action: Action = {"type": "melee", "target": label, "attackers": list(group)}
                    if charge:
                        action["charge"] = True
                    try:
                        combat.melee_modifiers(
                            melee_situation(scenario, state, board, action),
                            T.tables_for(scenario),
                        )
                    except IllegalCombatError:
                        continue
                    actions.append(action)
    return actions


def melee_situation(
    scenario: Scenario, state: State, board: Board, action: Action, countercharge: bool = False
) -> MeleeSituation:
    """The facts of a melee for the tables: both sides, terrain, position, the charge, and
    whether the defender countercharged."""
    target = scenario.hex_at(action["target"])
    defenders = fighters(state, scenario, action["target"])
    attackers = []
    for uid in action["attackers"]:
        here = scenario.hex_at(state["units"][uid]["hex"])
        features = scenario.side_features.get((here, target), ())
        attackers.append(combatant(scenario, state, uid, features, _level(scenario, here, target)))
    attacking_units: list[Unit] = [board.unit(a) for a in action["attackers"]]
    defending_units = [board.unit(d) for d in defenders]
    watching = T.tables_for(scenario).melee["rear_in_enemy_front"].params["enemy_types"]
    return MeleeSituation(
        attackers=tuple(attackers),
        defenders=tuple(combatant(scenario, state, d) for d in defenders),
        terrain=scenario.hexes[target].terrain,
        charge=bool(action.get("charge")),
        position=attack_position(board, defending_units[0], attacking_units),
        rear_in_enemy_front=rear_in_enemy_front(board, attacking_units, defending_units, watching),
        attackers_adjacent=attackers_adjacent(attacking_units),
        countercharge=countercharge,
    )


def countercharge_units(
    scenario: Scenario, state: State, board: Board, action: Action
) -> list[str]:
    """The defending units that may countercharge the melee or charge ``action`` (9.4, a
    stand-in of combat.json): of the types, in the states and, if so set, with a charging
    unit in one of their front hexes, as ``procedures.countercharge`` says; none when the
    countercharge is not offered or not against this kind of attack."""
    t = T.tables_for(scenario).settings
    kind = "charge" if action.get("charge") else "melee"
    if not t["procedures.countercharge.reaction"]:
        return []
    if kind not in t["procedures.countercharge.against"]:
        return []
    attacking = {scenario.hex_at(state["units"][a]["hex"]) for a in action["attackers"]}
    found = []
    for uid in fighters(state, scenario, action["target"]):
        u = state["units"][uid]
        if scenario.units[uid]["type"] not in t["procedures.countercharge.by"]:
            continue
        if u["status"] not in t["procedures.countercharge.states"] or u["square"]:
            continue
        facing = t["procedures.countercharge.facing"]
        if facing == "front" and not front_hexes(board, board.unit(uid)) & attacking:
            continue
        found.append(uid)
    return found


# -- previews and effects ---------------------------------------------------------------------


def preview(scenario: Scenario, state: State, board: Board, action: Action) -> dict[str, Any]:
    """Modifiers, their total and the exact odds of every outcome, before committing."""
    if action["type"] == "reaction_fire":
        action = {
            "type": "fire",
            "unit": action["unit"],
            "target": action["target"],
            "kind": "reaction",
        }
    countercharge = action["type"] == "countercharge"
    if action["type"] in ("countercharge", "no_countercharge"):
        action = ongoing(state, "countercharge")["melee"]
    t = T.tables_for(scenario)
    notes: list[dict[str, Any]] = []
    if action["type"] == "fire":
        fire = fire_situation(scenario, state, action)
        parts = combat.fire_modifiers(fire, t)
        drm = total(parts)
        cohesion = min((u.cohesion for u in fire.targets), default=0)
        outcomes = combat.fire_distribution(drm, cohesion, tables=t)
        if all(not outcome["target"] for outcome, _ in outcomes):
            notes.append(no_effect_note(drm, cohesion, t))
    else:
        melee = melee_situation(scenario, state, board, action, countercharge)
        parts = combat.melee_modifiers(melee, t)
        drm = total(parts)
        notes += disordered_notes(action["attackers"], melee.attackers)
        outcomes = combat.melee_distribution(
            drm,
            max(a.cohesion for a in melee.attackers),
            max((d.cohesion for d in melee.defenders), default=0),
            any(a.type == "cavalry" for a in melee.attackers),
            any(d.type == "cavalry" for d in melee.defenders),
            countercharge=countercharge,
            tables=t,
        )
    answer: dict[str, Any] = {
        "modifiers": reference.with_refs(parts),
        "total": drm,
        "ref": "fire-table" if action["type"] == "fire" else "melee-table",
        "outcomes": [{"outcome": o, "p": float(p)} for o, p in outcomes],
    }
    if notes:
        answer["notes"] = notes
    return answer


def disordered_notes(ids: list[str], attackers: tuple[Combatant, ...]) -> list[dict[str, Any]]:
    """The reading a melee with a disordered attacker rests on (combat.json
    ``readings.disordered_attack``): the aid bars no disordered unit from attacking, and its
    cohesion rating counts when it is the best among the attackers."""
    disordered = [uid for uid, a in zip(ids, attackers, strict=True) if a.disordered]
    if not disordered:
        return []
    notes = [{"key": "note.hf_disordered_attacker", "params": {"units": disordered}}]
    best = max(a.cohesion for a in attackers)
    formed = [a.cohesion for a in attackers if not a.disordered]
    if max(formed, default=best - 1) < best:  # the best rating is a disordered unit's alone
        uid = next(u for u, a in zip(ids, attackers, strict=True) if a.cohesion == best)
        params = {"unit": uid, "cohesion": best}
        notes.append({"key": "note.hf_disordered_cohesion", "params": params})
    return notes


def no_effect_note(drm: int, cohesion: int, t: T.CombatTables) -> dict[str, Any]:
    """Why a fire the aid allows cannot have an effect: even the die's best face totals less
    than the fire table's first result, or it calls at most for cohesion tests the target
    passes on every face."""
    best = t.die.first + t.die.sides - 1
    if not combat.fire_result(best, drm, t).cells["result"].codes:
        need = min(r.low for r in t.fire_table if r.cells["result"].codes and r.low is not None)
        return {"key": "note.hf_fire_no_result", "params": {"best": best + drm, "need": need}}
    return {"key": "note.hf_fire_tests_passed", "params": {"cohesion": cohesion}}


def worsen(state: State, uid: str, effect: str, again: str = "rout") -> str:
    """Apply "disorder" or "rout" to a unit; a disordered unit disordered again becomes
    ``again`` (combat.json "disorder_again": routs, by default). Returns its new status."""
    unit = state["units"][uid]
    if effect == "disorder" and unit["status"] == "disordered":
        effect = "rout" if again == "rout" else "none"
    if effect == "rout" or (effect == "disorder" and unit["status"] == "routed"):
        unit["status"] = "routed"
        unit["square"] = False
    elif effect == "disorder":
        unit["status"] = "disordered"
    return str(unit["status"])


def retreat_options(
    scenario: Scenario, state: State, board: Board, uid: str, away_from: list[str]
) -> list[str]:
    """The hexes a unit may retreat one hex into (default): free of the enemy, enterable,
    within stacking, and farther from each hex it retreats from than the hex it leaves (so
    never next to an attacker); the best first: out of enemy zones, then farthest."""
    unit = board.unit(uid)
    step = MOVEMENT.stepper(board, unit)
    threats = [scenario.hex_at(x) for x in away_from]
    zoc = board.enemy_zoc(unit.side, MOVEMENT)
    stacking = board.data["stacking"]
    free, most = set(stacking["free_types"]), stacking["max_units"]
    found = []
    for n in scenario.neighbors[unit.hex]:
        if any(u.side != unit.side for u in board.units_in(n)):
            continue
        if step(unit.hex, n).prohibited is not None:
            continue
        if len([u for u in board.units_in(n) if u.type not in free]) >= most:
            continue
        if any(hex_distance(n, t) <= hex_distance(unit.hex, t) for t in threats):
            continue
        nearest = min((hex_distance(n, t) for t in threats), default=0)
        found.append((n in zoc, -nearest, scenario.label(n)))
    found.sort()
    return [label for _, _, label in found]
