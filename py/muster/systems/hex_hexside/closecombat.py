"""hex-hexside close combat as the aid's 12 steps, each a decision or a chance point.

  1 designate the attack      attackers and defending hexes (toggles), then confirm
  2 retreat before combat     the defender's morale 5 units may step away (an interrupt)
  3 determine the odds        strengths of both sides, the CRT column (logged)
  4 select the lead units     attacker, then defender, choose one unit each
  5 determine the DRM         terrain by the chart's combining rule; in a multi-hex attack
                              the attacker chooses the pair of hexes
  6 resolve the combat        one d6 + DRM on the CRT (the owner's table or the stand-in)
  7 leader loss check         a d6 per leader stacked with a side that loses a step
  8 apply the results         loss points (lead unit first, then the owner's choice), "S",
                              "r" with the morale effects, retreats chosen by their owner
  9 advance after combat      into emptied defending hexes
 10 extended attack           cavalry that advanced may attack again at once
 11 Winning Combat marker     to the attacking lead unit when the defender left unhurt
 12 cavalry action            cavalry in the combat becomes Engaged; deep charges (19.11.1)

Bombardment runs steps 3, 5, 6 and 8 with the Bomb column. Defaults: ``sequence.json``.
Steps 9 to 12 are in ``aftermath.py``; previews and prompts in ``screen.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ... import play
from ...hexgrid import hex_distance
from ...hexmap import Scenario
from ...modifier import Modifier
from ...movement import Board, stacking_allows
from ...shapes import Action
from . import aftermath, combat
from . import tables as T
from .combat import settings
from .movement import RULES as MOVEMENT
from .position import (
    board_for,
    enemy_side,
    fighters_in,
    log,
    may_attack,
    new_combat,
    open_targets,
    pair_ok,
    spec,
    units_of,
)
from .state import HexHexsideState, ongoing, plain

State = HexHexsideState  # the state's shape (state.py)
Event = dict[str, Any]


def must_attack_targets(scenario: Scenario, state: State, board: Board | None = None) -> list[str]:
    """Targets open to units that must attack after a deep charge (19.11.1), if any (``board``:
    the position's, when the caller has it)."""
    must = [
        uid for uid, u in state["units"].items() if u["must"] and may_attack(scenario, state, uid)
    ]
    if not must:
        return []
    board = board or board_for(scenario, state)
    return [
        t
        for t in open_targets(scenario, state)
        if any(pair_ok(scenario, state, board, uid, t) for uid in must)
    ]


def attack_actions(scenario: Scenario, state: State, board: Board | None = None) -> list[Action]:
    """Step 1 begins: one action per enemy hex some unit may attack."""
    board = board or board_for(scenario, state)
    forced = must_attack_targets(scenario, state, board)
    if forced:
        return [{"type": "attack", "target": t} for t in forced]
    able = [uid for uid in state["units"] if may_attack(scenario, state, uid)]
    return [
        {"type": "attack", "target": t}
        for t in open_targets(scenario, state)
        if any(pair_ok(scenario, state, board, uid, t) for uid in able)
    ]


def _pool(scenario: Scenario, state: State, c: dict[str, Any]) -> list[str]:
    if c.get("pool") is not None:
        return [u for u in c["pool"] if may_attack(scenario, state, u, extended=True)]
    return [uid for uid in state["units"] if may_attack(scenario, state, uid)]


def designation_valid(scenario: Scenario, state: State, board: Board, c: dict[str, Any]) -> bool:
    """Every attacker next to a defending hex and every defending hex next to an attacker."""
    attackers, targets = c["attackers"], c["targets"]
    if not attackers or not targets:
        return False
    ok = {(a, t) for a in attackers for t in targets if pair_ok(scenario, state, board, a, t)}
    return all(any((a, t) in ok for t in targets) for a in attackers) and all(
        any((a, t) in ok for a in attackers) for t in targets
    )


def combat_actions(scenario: Scenario, state: State, board: Board | None = None) -> list[Action]:
    """The actions of the combat step in progress (``board``: the position's, if at hand)."""
    c = ongoing(state, "combat")
    step = c["step"]
    if step == "designate":
        board = board or board_for(scenario, state)
        must = [u for u in c["attackers"] if state["units"][u]["must"]]
        actions: list[Action] = []
        for uid in _pool(scenario, state, c):
            if uid in must:
                continue
            if any(pair_ok(scenario, state, board, uid, t) for t in c["targets"]):
                actions.append({"type": "toggle_attacker", "unit": uid})
        for t in open_targets(scenario, state):
            if t in c["targets"]:
                if len(c["targets"]) > 1:
                    actions.append({"type": "toggle_target", "hex": t})
            elif any(pair_ok(scenario, state, board, a, t) for a in c["attackers"]):
                actions.append({"type": "toggle_target", "hex": t})
        if designation_valid(scenario, state, board, c):
            actions.append({"type": "confirm"})
        return actions + [{"type": "cancel"}]
    if step == "retreat_before":
        actions = [
            {"type": "retreat_before", "unit": uid, "to": to}
            for uid in c["volunteers"]
            for to in retreat_options(scenario, state, uid, _attacker_hexes(state, c), board)
        ]
        return actions + [{"type": "stand"}]
    if step in ("lead_attacker", "lead_defender"):
        side = "attacker" if step == "lead_attacker" else "defender"
        units = c["attackers"] if side == "attacker" else c["defenders"]
        return [{"type": "lead", "unit": u} for u in units if not state["units"][u]["out"]]
    if step == "terrain":
        return [{"type": "terrain", "from": a, "into": d} for a, d in c["pairs"]]
    if step == "advance":
        moves: list[Action] = [
            {"type": "advance", "unit": u, "to": h}
            for u, h in aftermath.advance_options(scenario, state, board)
        ]
        return moves + [{"type": "no_advance"}]
    if step == "extended":
        targets: list[Action] = [
            {"type": "extended_attack", "target": t}
            for t in aftermath.extended_targets(scenario, state, board)
        ]
        return targets + [{"type": "no_extended"}]
    if step == "cavalry":
        charges: list[Action] = [
            {"type": "deep_charge", "unit": u} for u in aftermath.deep_charge_units(scenario, state)
        ]
        return charges + [{"type": "end_combat"}]
    return []


def decision_actions(scenario: Scenario, state: State) -> list[Action]:
    """An owner's choice while results are applied: who takes a loss, where a unit retreats."""
    d = ongoing(state, "decision")
    if d["kind"] == "loss":
        return [{"type": "take_loss", "unit": u} for u in d["options"]]
    return [{"type": "retreat", "unit": d["unit"], "to": to} for to in d["options"]]


# -- step 1: designation ------------------------------------------------------------------------


def attack(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """Designate an attack on a hex; every unit able to join is in it until toggled out."""
    board = board_for(scenario, state)
    target = action["target"]
    attackers = [
        uid for uid in _pool(scenario, state, {}) if pair_ok(scenario, state, board, uid, target)
    ]
    state["combat"] = new_combat(state, attackers, [target], pool=None)
    return []


def toggle_attacker(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """Add a unit to the attack, or take it out."""
    c = ongoing(state, "combat")
    uid = action["unit"]
    if uid in c["attackers"]:
        c["attackers"].remove(uid)
    else:
        c["attackers"].append(uid)
    return []


def toggle_target(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """Add a defending hex (a multi-hex attack), or take one out."""
    c = ongoing(state, "combat")
    if action["hex"] in c["targets"]:
        c["targets"].remove(action["hex"])
    else:
        c["targets"].append(action["hex"])
    return []


def cancel(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """Give up the attack being designated (an extended attack: decline it)."""
    state["combat"] = None
    return []


def confirm(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """Step 1 done: the attack stands; step 2, retreat before combat, comes first."""
    c = ongoing(state, "combat")
    for uid in c["attackers"]:
        u = state["units"][uid]
        u.update(attacked=True, must=False)
        if c["extended"]:
            u["extended"] = True
    c["defenders"] = [u for t in c["targets"] for u in fighters_in(scenario, state, t)]
    if not settings(scenario)["designation"]["defend_many"]:
        # A hex is attacked once a player turn: kept only under this reading.
        state.setdefault("defended", []).extend(c["targets"])
    events = [
        log("hh_attack", units=list(c["attackers"]), targets=list(c["targets"])),
    ]
    if c["extended"]:
        events.append(log("hh_extended", units=list(c["attackers"])))
    who = settings(scenario)["retreat_before_combat"]["who"]  # a flag of the morale table
    c["volunteers"] = [
        uid
        for uid in c["defenders"]
        if who in T.morale_effects(combat.morale(scenario, uid))
        and state["units"][uid]["status"] != "routed"
        and retreat_options(scenario, state, uid, _attacker_hexes(state, c))
    ]
    if c["volunteers"]:
        c["step"] = "retreat_before"
        return events
    return events + _after_retreat_before(rules, scenario, state)


# -- step 2: retreat before combat --------------------------------------------------------------


def retreat_before(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """A morale 5 defender steps away before the odds are worked out."""
    c = ongoing(state, "combat")
    uid = action["unit"]
    events = _move_retreat(scenario, state, uid, action["to"])
    events[0]["key"] = "log.hh_retreat_before"
    c["volunteers"].remove(uid)
    c["defenders"].remove(uid)
    c["volunteers"] = [
        u for u in c["volunteers"] if retreat_options(scenario, state, u, _attacker_hexes(state, c))
    ]
    if c["volunteers"]:
        return events
    return events + _after_retreat_before(rules, scenario, state)


def stand(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """The defender stands: the combat goes on."""
    return _after_retreat_before(rules, scenario, state)


def _after_retreat_before(rules: Any, scenario: Scenario, state: State) -> list[Event]:
    c = ongoing(state, "combat")
    c["volunteers"] = []
    c["defenders"] = [u for t in c["targets"] for u in fighters_in(scenario, state, t)]
    if not c["defenders"]:
        return [log("hh_no_defenders")] + aftermath._advance_step(rules, scenario, state)
    c["odds"] = combat.odds(scenario, state, c["attackers"], c["defenders"])
    events = [log("hh_odds", **c["odds"])]
    return events + _lead_step(rules, scenario, state)


# -- steps 4 and 5: lead units, DRM -------------------------------------------------------------


def _lead_step(rules: Any, scenario: Scenario, state: State) -> list[Event]:
    c = ongoing(state, "combat")
    for side, units in (("attacker", c["attackers"]), ("defender", c["defenders"])):
        if c["lead"][side] is None:
            if len(units) > 1:
                c["step"] = "lead_" + side
                return []
            c["lead"][side] = units[0]
            return [log("hh_lead", unit=units[0], side_role=side)] + _lead_step(
                rules, scenario, state
            )
    return _terrain_step(rules, scenario, state)


def lead(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """A side chooses its lead unit."""
    c = ongoing(state, "combat")
    side = "attacker" if c["step"] == "lead_attacker" else "defender"
    c["lead"][side] = action["unit"]
    return [log("hh_lead", unit=action["unit"], side_role=side)] + _lead_step(
        rules, scenario, state
    )


def terrain_pairs(
    scenario: Scenario, state: State, board: Board, c: dict[str, Any]
) -> list[list[str]]:
    """The (attacking hex, defending hex) pairs the attacker may take the terrain DRM from."""
    column = combat.column_for(spec(scenario, c["lead"]["attacker"])["type"])
    hexes = sorted({state["units"][a]["hex"] for a in c["attackers"]})
    pairs: list[list[str]] = []
    for a in hexes:
        for d in c["targets"]:
            ah, dh = scenario.hex_at(a), scenario.hex_at(d)
            if (
                hex_distance(ah, dh) == 1
                and combat.terrain_drm(board, column, ah, dh).prohibited is None
            ):
                pairs.append([a, d])
    return pairs


def _terrain_step(rules: Any, scenario: Scenario, state: State) -> list[Event]:
    c = ongoing(state, "combat")
    pairs = terrain_pairs(scenario, state, board_for(scenario, state), c)
    if len(pairs) > 1:
        c["pairs"] = pairs
        c["step"] = "terrain"
        return []
    c["pair"] = pairs[0]
    return _roll_step(rules, scenario, state)


def terrain(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """In a multi-hex attack, the attacker chooses which pair of hexes gives the terrain DRM."""
    c = ongoing(state, "combat")
    c["pair"] = [action["from"], action["into"]]
    return [log("hh_pair", **{"from": action["from"], "into": action["into"]})] + _roll_step(
        rules, scenario, state
    )


def close_parts(
    scenario: Scenario, state: State, c: dict[str, Any], board: Board | None = None
) -> list[Modifier]:
    """Every DRM of the combat in progress, as it stands (on ``board``, the rules' board of
    ``state``, if one is given)."""
    board = board or board_for(scenario, state)
    pair = (scenario.hex_at(c["pair"][0]), scenario.hex_at(c["pair"][1]))
    parts, _ = combat.drm_parts(
        scenario, state, board, c["lead"]["attacker"], c["lead"]["defender"], pair
    )
    return parts


def _roll_step(rules: Any, scenario: Scenario, state: State) -> list[Event]:
    c = ongoing(state, "combat")
    parts = close_parts(scenario, state, c)
    return _die(state, c, parts, log("hh_drm", total=_total(parts), column=c["odds"]["column"]))


def _total(parts: list[Modifier]) -> int:
    return int(sum(p.value for p in parts))


def _die(state: State, c: dict[str, Any], parts: list[Modifier], head: Event) -> list[Event]:
    """Step 6 is due: the d6 of the combat as a chance point, its DRM fixed now and logged."""
    c["drm"] = _total(parts)
    c["step"] = "resolve"
    state["combat"] = c
    column = c["odds"]["column"]
    purpose = "bombard" if c["bombard"] else "close_combat"
    state["chance"] = {"die": "d6", "purpose": purpose, "column": column, "drm": c["drm"]}
    return [head, *(modifier_event(p) for p in parts)]


def modifier_event(part: Modifier) -> Event:
    """A DRM or rally modifier as a log line: its value, its words (a label) and its rule."""
    return log(
        "hh_modifier",
        value=part.value,
        reason={"key": part.key, "params": dict(part.params)},
        rule=part.rule,
    )


# -- bombardment --------------------------------------------------------------------------------


def bombard(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """Artillery bombards a hex: its strength against the hex's, with the Bomb column."""
    uid, target = action["unit"], action["target"]
    state["units"][uid]["bombarded"] = True
    c = new_combat(state, [uid], [target], pool=None)
    c.update(bombard=True, pair=[state["units"][uid]["hex"], target])
    c["defenders"] = fighters_in(scenario, state, target)
    c["lead"]["attacker"] = uid
    c["odds"] = bombard_odds(scenario, state, uid, target)
    parts = list(_bombard_terrain(scenario, state, uid, target).parts)
    return _die(state, c, parts, log("hh_bombard", unit=uid, target=target, **c["odds"]))


def bombard_odds(scenario: Scenario, state: State, uid: str, target: str) -> dict[str, Any]:
    """The odds of a bombardment: the gun's strength against the target hex's
    (``bombardment.defender_strength``: all its units, or its strongest unit)."""
    defenders = fighters_in(scenario, state, target)
    if settings(scenario)["bombardment"]["defender_strength"] == "strongest_unit" and defenders:
        defenders = [max(defenders, key=lambda u: combat.strength(scenario, state, u))]
    return combat.odds(scenario, state, [uid], defenders)


def guns_hit(scenario: Scenario, bombard: bool) -> bool:
    """True if the results of a combat hit its attacker: a close combat, or a bombardment whose
    results against the guns are applied (``bombardment.attacker_results``)."""
    return not bombard or settings(scenario)["bombardment"]["attacker_results"] == "applied"


def _bombard_terrain(scenario: Scenario, state: State, uid: str, target: str) -> combat.TerrainDrm:
    board = board_for(scenario, state)
    a = scenario.hex_at(state["units"][uid]["hex"])
    return combat.bombard_parts(board, a, scenario.hex_at(target))


# -- steps 6 to 8: resolution, leader loss, results ---------------------------------------------


def _resolve(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    value = action["value"]
    c = ongoing(state, "combat")
    t = combat.tables_of(scenario, state)
    modified = value + c["drm"]
    codes = T.crt_result(c["odds"]["column"], modified, t)
    c.update(roll=value, codes=list(codes), fought=True, step="results")
    effects = combat.result_effects(codes, t)
    hit = ("attacker", "defender") if guns_hit(scenario, c["bombard"]) else ("defender",)
    if "attacker" not in hit:
        effects["attacker"] = {"loss": 0, "r": False, "S": False}
    c["effects"] = effects
    lead_a = c["lead"]["attacker"]
    if not c["bombard"] and state["units"][lead_a]["wcm"] is not None:
        state["units"][lead_a]["wcm"] = None
    source = state["crt"].get("source")
    events = [result_event(scenario, "log.", c, value, modified, codes, t, source)]
    queue: list[dict[str, Any]] = []
    every = settings(scenario)["leader_loss"]["when"] == "every_combat"
    for side in hit:
        if effects[side]["loss"] or every:
            queue += [
                {"do": "leader", "unit": lid} for lid in _leaders_at(scenario, state, c, side)
            ]
    for side in ("attacker", "defender"):
        e = effects[side]
        if e["loss"]:
            queue.append({"do": "loss", "side": side, "n": e["loss"]})
        if e["S"]:
            whole = settings(scenario)["results"]["S"] == "eliminated"
            for uid in units_of(state, c, side):
                if "S_means_surrender" in T.morale_effects(combat.morale(scenario, uid)):
                    item = {"do": "unit_loss", "unit": uid, "why": "S"}
                    queue.append({**item, "all": True} if whole else item)
        if e["r"]:
            queue.append({"do": "r", "side": side})
    queue.append({"do": "after"})
    state["queue"] = queue
    return events + drain(rules, scenario, state)


def result_event(
    scenario: Scenario,
    prefix: str,
    c: dict[str, Any],
    value: int,
    modified: int,
    codes: T.Codes,
    t: T.HexsideTables,
    source: str | None = None,
) -> Event:
    """The result of a combat's die as a line of words (``prefix`` "log." or "chance."): the
    codes of the stand-in table as ids, an owner's codes as its text with their effects; a
    bombardment's effects on the target only (results against the guns are ignored). The
    table is named: the stand-in, the scenario's own (``source`` "scenario") or the owner's."""
    params: dict[str, Any] = {"roll": value, "total": modified, "column": c["odds"]["column"]}
    effects = combat.result_effects(codes, t)
    if not guns_hit(scenario, c["bombard"]):
        target = combat.effect_words(effects["defender"]) or [NO_EFFECT]
        return {"key": prefix + "hh_bombard_result", "params": {**params, "effects": target}}
    if not codes:
        key = "hh_result_none"
    elif t.stand_in:
        key, params["codes"] = "hh_result", list(codes)
    else:
        key = "hh_result_own"
        params["own_codes"] = " + ".join(codes)
        for side in ("attacker", "defender"):
            params[side] = combat.effect_words(effects[side]) or [NO_EFFECT]
    params["table"] = "stand_in" if t.stand_in else "scenario" if source == "scenario" else "own"
    return {"key": prefix + key, "params": params}


NO_EFFECT = {"key": "ui.no_effect", "params": {}}


def _attacker_hexes(state: State, c: dict[str, Any]) -> list[str]:
    return sorted({state["units"][u]["hex"] for u in c["attackers"]})


def _leaders_at(scenario: Scenario, state: State, c: dict[str, Any], side: str) -> list[str]:
    hexes = {state["units"][u]["hex"] for u in units_of(state, c, side)}
    owner = c["side"] if side == "attacker" else enemy_side(scenario, state)
    return [
        uid
        for uid, u in state["units"].items()
        if not u["out"]
        and spec(scenario, uid)["type"] == "leader"
        and spec(scenario, uid)["side"] == owner
        and u["hex"] in hexes
    ]


def _leader_result(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    item = state["queue"].pop(0)
    uid = item["unit"]
    rule = settings(scenario)["leader_loss"]
    lost = action["value"] in rule["lost_on"]
    events = [log("hh_leader_lost" if lost else "hh_leader_safe", unit=uid, roll=action["value"])]
    if lost:
        state["units"][uid]["out"] = True
        side = spec(scenario, uid)["side"]
        state["army"][side]["points"] -= settings(scenario)["army_morale"]["points_per_leader"]
        events += rules.army_check(scenario, state)
        if state["result"]:
            return events
    return events + drain(rules, scenario, state)


def _worsen(scenario: Scenario, state: State, uid: str) -> str:
    """Disorder a unit: formed becomes disordered; disordered routs (``results.second_disorder``
    "rout") or stays disordered ("stay_disordered"); routed stays routed."""
    u = state["units"][uid]
    if u["status"] == "formed":
        u["status"] = "disordered"
    elif u["status"] == "disordered" and settings(scenario)["results"]["second_disorder"] == "rout":
        u["status"] = "routed"
    return str(u["status"])


def take_step(rules: Any, scenario: Scenario, state: State, uid: str, why: str) -> list[Event]:
    """One loss point on one unit, with the morale table's effects and army morale."""
    u = state["units"][uid]
    had_loss = u["lost"] > 0
    u["lost"] += 1
    side = spec(scenario, uid)["side"]
    state["army"][side]["points"] -= settings(scenario)["army_morale"]["points_per_step"]
    steps = int(spec(scenario, uid).get("steps", 1))
    events = [log("hh_step_lost", unit=uid, cause=why, left=max(steps - u["lost"], 0))]
    if u["lost"] >= steps:
        u["out"] = True
        events.append(log("hh_eliminated", unit=uid))
    elif had_loss:
        flags = T.morale_effects(combat.morale(scenario, uid))
        if "loss_with_step_loss_rout" in flags:
            u["status"] = "routed"
            events.append(log("status", unit=uid, status="routed"))
        elif "loss_with_step_loss_disorder" in flags:
            events.append(log("status", unit=uid, status=_worsen(scenario, state, uid)))
    checked: list[Event] = rules.army_check(scenario, state)
    return events + checked


def drain(rules: Any, scenario: Scenario, state: State) -> list[Event]:
    """Carry out the queued results until a die or an owner's decision is needed (a step of a
    leader or a retreating unit already out is dropped)."""
    return play.drain((rules, scenario), plain(state), STEPS, gone=lambda step: _gone(state, step))


def _gone(state: State, step: play.Step) -> bool:
    return step["do"] in ("leader", "retreat") and state["units"][step["unit"]]["out"]


Context = tuple[Any, Scenario]  # (the rules, the scenario) of the queued steps


def _leader_step(ctx: Context, state: State, step: play.Step) -> play.Outcome:
    """Step 7: a die for a leader stacked with a side that lost a step (``_leader_result``)."""
    state["chance"] = {"die": "d6", "purpose": "leader_loss", "unit": step["unit"]}
    return play.WAIT, []


def _loss_step(ctx: Context, state: State, step: play.Step) -> play.Outcome:
    """A side's loss points one by one: on its lead unit first (default), else on the unit its
    owner chooses (a decision, ``take_loss``); over when none is left or none can take one."""
    rules, scenario = ctx
    if step["n"] <= 0:
        return play.DONE, []  # the last one taken on the owner's choice
    c = ongoing(state, "combat")
    units = units_of(state, c, step["side"])
    lead = c["lead"][step["side"]]
    if not units:
        return play.DONE, []
    if lead in units and settings(scenario)["results"]["losses_to"] == "lead_first_then_owner":
        units = [lead]
    if len(units) > 1:
        state["decision"] = {"kind": "loss", "side": step["side"], "options": units}
        return play.WAIT, []
    return play.AGAIN, _one_loss(rules, scenario, state, units[0])


def _unit_loss_step(ctx: Context, state: State, step: play.Step) -> play.Outcome:
    """An "S" on a unit that surrenders: one loss point, or all it has (``results.S``)."""
    rules, scenario = ctx
    whole = step.get("all", False)
    return play.DONE, _lose(rules, scenario, state, step["unit"], step["why"], whole)


def _r_step(ctx: Context, state: State, step: play.Step) -> play.Outcome:
    """An "r" on a side: morale effects, and the retreats put first (``_r_result``)."""
    scenario = ctx[1]
    return play.DONE, _r_result(scenario, state, ongoing(state, "combat"), step["side"])


def _retreat_step(ctx: Context, state: State, step: play.Step) -> play.Outcome:
    """A unit's one-hex retreat: its owner chooses among several hexes (``retreat``); with
    none it loses one loss point, or all (``results.no_retreat``)."""
    rules, scenario = ctx
    uid = step["unit"]
    options = retreat_options(scenario, state, uid, step["away"])
    if len(options) > 1:
        state["decision"] = {"kind": "retreat", "unit": uid, "options": options}
        return play.WAIT, []
    if options:
        return play.DONE, _move_retreat(scenario, state, uid, options[0])
    whole = settings(scenario)["results"]["no_retreat"] == "eliminated"
    events = [log("hh_no_retreat", unit=uid)]
    return play.DONE, events + _lose(rules, scenario, state, uid, "no_retreat", whole)


def _after_step(ctx: Context, state: State, step: play.Step) -> play.Outcome:
    """Steps 9 to 12, once the results are carried out (``aftermath``)."""
    rules, scenario = ctx
    return play.DONE_WAIT, aftermath._advance_step(rules, scenario, state)


# The steps of the queue (``play.drain``, which takes the state as a plain dict), by their
# ``"do"``.
STEPS: dict[str, Callable[[Context, Any, play.Step], play.Outcome]] = {
    "leader": _leader_step,
    "loss": _loss_step,
    "unit_loss": _unit_loss_step,
    "r": _r_step,
    "retreat": _retreat_step,
    "after": _after_step,
}


def _lose(
    rules: Any, scenario: Scenario, state: State, uid: str, why: str, whole: bool
) -> list[Event]:
    """One loss point on ``uid``, or (``whole``) every step it has left, one by one."""
    events: list[Event] = []
    while not state["units"][uid]["out"] and not state["result"]:
        events += take_step(rules, scenario, state, uid, why)
        if not whole:
            break
    return events


def _one_loss(rules: Any, scenario: Scenario, state: State, uid: str) -> list[Event]:
    """One loss point of the first queued "loss" on ``uid`` (the step leaves the queue when
    the queue runs on and finds none left)."""
    state["queue"][0]["n"] -= 1
    return take_step(rules, scenario, state, uid, "crt")


def take_loss(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """The owner chooses which unit takes a loss point."""
    state["decision"] = None
    return _one_loss(rules, scenario, state, action["unit"]) + drain(rules, scenario, state)


def _r_result(scenario: Scenario, state: State, c: dict[str, Any], side: str) -> list[Event]:
    """An "r": morale 5 is not affected; 4 and 3 are disordered; the others retreat one hex."""
    events: list[Event] = []
    away = _attacker_hexes(state, c) if side == "defender" else list(c["targets"])
    moves_back = settings(scenario)["results"]["r"] == "retreat_one_hex"
    retreats = []
    for uid in units_of(state, c, side):
        flags = T.morale_effects(combat.morale(scenario, uid))
        if "immune_to_r" in flags:
            events.append(log("hh_r_ignored", unit=uid))
            continue
        if "r_gives_disorder" in flags:
            events.append(log("status", unit=uid, status=_worsen(scenario, state, uid)))
        if moves_back:
            retreats.append({"do": "retreat", "unit": uid, "away": away})
    play.first(plain(state), *retreats)
    return events


def retreat_options(
    scenario: Scenario, state: State, uid: str, away: list[str], board: Board | None = None
) -> list[str]:
    """The hexes ``uid`` may retreat one hex into: enterable, free of the enemy, not in an enemy
    zone of control unless a friend is there, within stacking, farther from ``away``."""
    board = board or board_for(scenario, state)
    unit = board.unit(uid)
    step = MOVEMENT.stepper(board, unit)
    zoc = board.enemy_zoc(unit.side, MOVEMENT)
    threats = [scenario.hex_at(x) for x in away]
    if not threats:
        return []
    here = min(hex_distance(unit.hex, t) for t in threats)
    found = []
    for n in scenario.neighbors[unit.hex]:
        occupants = board.units_in(n)
        if any(u.side != unit.side for u in occupants):
            continue
        prohibited = step(unit.hex, n).prohibited
        if prohibited is not None and prohibited.key != "move.prohibited.leave_zoc":
            continue
        if n in zoc and not any(u.side == unit.side and u.type != "leader" for u in occupants):
            continue
        if not stacking_allows(board, unit, n):
            continue
        if min(hex_distance(n, t) for t in threats) <= here:
            continue
        found.append(board.label(n))
    return sorted(found)


def _move_retreat(scenario: Scenario, state: State, uid: str, to: str) -> list[Event]:
    """Move a unit one hex back; leaders left alone in its hex go with it."""
    u = state["units"][uid]
    frm = u["hex"]
    u["hex"] = to
    if not fighters_in(scenario, state, frm):
        side = spec(scenario, uid)["side"]
        for lid, lu in state["units"].items():
            if not lu["out"] and lu["hex"] == frm and spec(scenario, lid)["side"] == side:
                lu["hex"] = to
    return [log("retreat", unit=uid, **{"from": frm, "to": to})]


def retreat(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """The owner picks the hex its unit retreats into."""
    state["decision"] = None
    state["queue"].pop(0)
    events = _move_retreat(scenario, state, action["unit"], action["to"])
    return events + drain(rules, scenario, state)


# What each chance point of a combat was rolled for (steps 6, 7 and 12), and its handler.
CHANCE: dict[str, Callable[..., list[Event]]] = {
    "close_combat": _resolve,
    "bombard": _resolve,
    "leader_loss": _leader_result,
    "deep_charge": aftermath.deep_result,
}

HANDLERS: dict[str, Callable[..., list[Event]]] = {
    "attack": attack,
    "toggle_attacker": toggle_attacker,
    "toggle_target": toggle_target,
    "confirm": confirm,
    "cancel": cancel,
    "retreat_before": retreat_before,
    "stand": stand,
    "lead": lead,
    "terrain": terrain,
    "bombard": bombard,
    "take_loss": take_loss,
    "retreat": retreat,
    "advance": aftermath.advance,
    "no_advance": aftermath.no_advance,
    "extended_attack": aftermath.extended_attack,
    "no_extended": aftermath.no_extended,
    "deep_charge": aftermath.deep_charge,
    "end_combat": aftermath.end_combat,
}
