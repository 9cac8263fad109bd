"""hex-facing: what a fire's or a melee's die does (one handler per action and per die).

The results (the defenders' then the attackers' effects and cohesion tests, in order) queue up
as steps (``play.drain``); then the counterattack, the breakthrough or the pursuit the result
calls for (8.7, 9.5, stand-ins of combat.json); then the melee a reaction fire put off.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ... import play
from ...hexgrid import hex_distance
from ...hexmap import Scenario
from ...shapes import Action
from . import combat, declare, fighting
from . import tables as T
from .position import (
    NO_CODE,
    board_for,
    die_name,
    if_falls_back,
    melee_codes,
)
from .state import HexFacingState, ongoing, plain

State = HexFacingState  # the state's shape (state.py)
Event = dict[str, Any]
Step = dict[str, Any]  # a step of the queue (play.drain): "settle", "test", "effect"
PROCEDURES = ("breakthrough", "pursuit", "counterattack")  # results that move or strike back


def fire_result(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    chance = action["chance"]
    row = combat.fire_result(action["value"], chance["total"], T.tables_for(scenario))
    codes = list(row.cells["result"].codes)
    total = action["value"] + chance["total"]
    events: list[Event] = [
        {"key": "log.hf_fire_result", "params": {"total": total, "codes": codes or [NO_CODE]}}
    ]
    away = [state["units"][chance["units"][0]]["hex"]]
    for uid in fighting.fighters(state, scenario, chance["target"]):
        play.then(plain(state), *result_steps(scenario, uid, codes, away))
    return events + drain(scenario, state)


def melee_result(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """The melee table read; its effects, tests and advances queue up in order."""
    chance = action["chance"]
    tables = T.tables_for(scenario)
    row = combat.melee_result(action["value"] + chance["total"], tables)
    target = chance["target"]
    defenders = fighting.fighters(state, scenario, target)
    attacker_hexes = [state["units"][a]["hex"] for a in chance["units"]]
    d_codes, a_codes = melee_codes(scenario, state, chance, row)
    later = if_falls_back(chance, row)
    params: dict[str, Any] = {
        "total": action["value"] + chance["total"],
        "defender_codes": d_codes or [NO_CODE],
        "attacker_codes": a_codes or [NO_CODE],
    }
    key = "log.hf_melee_result"
    if later:
        key, params["cavalry_codes"] = "log.hf_melee_result_if_falls_back", later
    events: list[Event] = [{"key": key, "params": params}]
    for uid in defenders:
        play.then(plain(state), *result_steps(scenario, uid, d_codes, attacker_hexes))
    for uid in chance["units"]:
        play.then(plain(state), *result_steps(scenario, uid, a_codes, [target]))
    play.then(
        plain(state),
        {
            "do": "settle",
            "chance": chance,
            "defenders": defenders,
            "d_codes": d_codes,
            "a_codes": a_codes,
            "if_falls_back": later,
            "attacker_hexes": attacker_hexes,
            "fell_back": [],
        },
    )
    return events + drain(scenario, state)


def _settle(scenario: Scenario, state: State, item: dict[str, Any]) -> list[Event]:
    """After a melee's effects: the defender's counterattack or pursuit, the winning
    attackers' breakthrough or pursuit (8.7, 9.5: stand-ins of combat.json)."""
    chance, target = item["chance"], item["chance"]["target"]
    events: list[Event] = []
    units = state["units"]
    able = [
        d
        for d in item["defenders"]
        if units[d]["status"] != "routed"
        and units[d]["hex"] == target
        and scenario.units[d]["type"] in ("infantry", "cavalry")
    ]
    here = scenario.hex_at(target)
    held = sorted(
        {
            units[a]["hex"]
            for a in chance["units"]
            if units[a]["status"] != "routed"
            and not units[a]["out"]
            and hex_distance(here, scenario.hex_at(units[a]["hex"])) == 1
        }
    )
    if "counterattack" in item["d_codes"] and not chance.get("counter") and able and held:
        state["counterattack"] = {"units": able, "targets": held}
    # The defender's pursuit: the italic result of a cavalry defender, or after a
    # countercharge (9.4) the 0-4 row's, if an attacker fell back.
    fell = [a for a in chance["units"] if a in item.get("fell_back", ())]
    d_codes = list(item["d_codes"]) + (item.get("if_falls_back", []) if fell else [])
    if "pursuit" in d_codes:
        chasers = chance.get("countercharge") or item["defenders"]
        chasers = [d for d in chasers if d in able and scenario.units[d]["type"] == "cavalry"]
        origins = item.get("attacker_hexes", [])
        left = [origins[i] for i, a in enumerate(chance["units"]) if a in fell and i < len(origins)]
        vacated = [h for h in dict.fromkeys(left) if not fighting.units_in(state, scenario, h)]
        if chasers and vacated:
            events += _follow(scenario, state, "pursuit", chasers, vacated[0])
    a_codes = item["a_codes"]
    vacated_target = not fighting.units_in(state, scenario, target)
    if vacated_target and any(c in ("breakthrough", "pursuit") for c in a_codes):
        movers = [u for u in chance["units"] if units[u]["status"] != "routed"]
        if "pursuit" in a_codes:
            movers = [u for u in movers if scenario.units[u]["type"] == "cavalry"]
            events += _follow(scenario, state, "pursuit", movers, target)
        else:
            events += _follow(scenario, state, "breakthrough", movers, target)
    return events


def _follow(
    scenario: Scenario, state: State, procedure: str, movers: list[str], to: str
) -> list[Event]:
    """A winner's advance into a vacated hex (breakthrough or pursuit): offered when the
    procedure says "may", made by the first of ``movers`` when it says "must"."""
    t = T.tables_for(scenario).settings
    count = t[f"procedures.{procedure}.units"]
    if not movers:
        return []
    if t[f"procedures.{procedure}.advance"] == "may":
        state["advance"] = {"hex": to, "units": movers, "procedure": procedure, "left": count}
        return []
    events: list[Event] = []
    for uid in movers[:count]:
        events += _move_in(scenario, state, uid, to, procedure)
    return events


def _move_in(scenario: Scenario, state: State, uid: str, to: str, procedure: str) -> list[Event]:
    """A unit advances by ``procedure``; the cohesion test of a pursuit is due next (before
    what else is queued, after the tests of the units that pursued before it)."""
    if procedure != "pursuit":
        return advance_into(scenario, state, uid, to)
    frm = state["units"][uid]["hex"]
    state["units"][uid]["hex"] = to
    rule = T.raw_tables()["procedures"]["pursuit"]["rule"]
    failed = T.tables_for(scenario).settings["procedures.pursuit.failed"]
    if failed:
        queue = state["queue"]
        at = next((i for i, q in enumerate(queue) if not q.get("pursuit")), len(queue))
        test = {"do": "test", "unit": uid, "failed": list(failed), "away": [], "pursuit": True}
        queue.insert(at, test)
    return [{"key": "log.hf_pursuit", "params": {"unit": uid, "from": frm, "to": to, "rule": rule}}]


def result_steps(
    scenario: Scenario, uid: str, codes: list[str], away: list[str]
) -> list[dict[str, Any]]:
    """A result's codes on one unit, as queued steps: effects, then its cohesion test."""
    steps: list[dict[str, Any]] = []
    codes_table = T.tables_for(scenario).codes
    for code in codes:
        if code in PROCEDURES:
            continue  # they move or strike back: see _settle
        effects, failed = codes_table[code]
        steps += [{"do": "effect", "unit": uid, "effect": e, "away": away} for e in effects]
        if failed:
            steps.append({"do": "test", "unit": uid, "failed": list(failed), "away": away})
    return steps


def drain(scenario: Scenario, state: State) -> list[Event]:
    """Carry out the queued steps until a die or a decision is needed (``play.drain``;
    a step of a unit out is dropped); once none is left, the melee a reaction fire put
    off goes on."""
    units = state["units"]
    handlers: dict[str, Callable[[Scenario, Any, play.Step], play.Outcome]] = {
        "settle": _settle_step,
        "test": _test_step,
        "effect": _effect_step,
    }
    events = play.drain(
        scenario,
        plain(state),
        handlers,
        gone=lambda step: step["do"] != "settle" and units[step["unit"]]["out"],
    )
    if not state["queue"] and state.get("after"):
        events += declare.resume(scenario, state)
    return events


def _settle_step(scenario: Scenario, state: State, step: Step) -> play.Outcome:
    """The melee settles (``_settle``); it waits on the winners' choice to advance."""
    events = _settle(scenario, state, step)
    return (play.DONE_WAIT if state.get("advance") else play.DONE), events


def _test_step(scenario: Scenario, state: State, step: Step) -> play.Outcome:
    """A cohesion test: its die is due."""
    state["chance"] = {
        "die": die_name(scenario),
        "purpose": "cohesion",
        "unit": step["unit"],
        "failed": step["failed"],
    }
    return play.WAIT, []


def _effect_step(scenario: Scenario, state: State, step: Step) -> play.Outcome:
    """An effect on one unit: a retreat (its owner picks the hex where there is a choice:
    ``retreat``), else a worse status."""
    uid = step["unit"]
    if step["effect"] == "retreat":
        board = board_for(scenario, state)
        options = fighting.retreat_options(scenario, state, board, uid, step["away"])
        if len(options) > 1:
            state["retreat"] = {"unit": uid, "options": options, "away": list(step["away"])}
            return play.WAIT, []
        return play.DONE, retreat_into(state, uid, options[0] if options else None)
    again = T.tables_for(scenario).settings["disorder_again"]
    status = fighting.worsen(state, uid, step["effect"], again)
    return play.DONE, [{"key": "log.status", "params": {"unit": uid, "status": status}}]


def retreat_into(state: State, uid: str, to: str | None) -> list[Event]:
    """A unit retreats into ``to``, or routs where it has nowhere to go; either way it has
    fallen back (the melee waiting to settle notes it: 9.4)."""
    settle = next((q for q in state["queue"] if q["do"] == "settle"), None)
    if settle is not None:
        settle.setdefault("fell_back", []).append(uid)
    unit = state["units"][uid]
    if to is None:
        fighting.worsen(state, uid, "rout")
        return [{"key": "log.retreat_blocked", "params": {"unit": uid}}]
    frm = unit["hex"]
    unit["hex"] = to
    return [{"key": "log.retreat", "params": {"unit": uid, "from": frm, "to": to}}]


def retreat(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """The owner picks the hex its unit retreats into."""
    state["retreat"] = None
    state["queue"].pop(0)
    return retreat_into(state, action["unit"], action["to"]) + drain(scenario, state)


def advance_into(scenario: Scenario, state: State, uid: str, to: str) -> list[Event]:
    frm = state["units"][uid]["hex"]
    state["units"][uid]["hex"] = to
    return [{"key": "log.advance", "params": {"unit": uid, "from": frm, "to": to}}]


def test_result(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    test = state["queue"].pop(0)
    uid = test["unit"]
    cohesion = int(scenario.units[uid].get("ratings", {}).get("cohesion", 0))
    tables = T.tables_for(scenario)
    passed = combat.cohesion_test_passes(action["value"], cohesion, tables=tables)
    events: list[Event] = [
        {
            "key": "log.test_passed" if passed else "log.test_failed",
            "params": {"unit": uid, "roll": action["value"], "cohesion": cohesion},
        }
    ]
    if not passed:
        away = test["away"]
        effects = [{"do": "effect", "unit": uid, "effect": e, "away": away} for e in test["failed"]]
        play.first(plain(state), *effects)
    return events + drain(scenario, state)


def advance(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """A winner advances into the hex the other side left (breakthrough, or a pursuit
    the procedure makes optional); others may follow while its count allows."""
    advance = ongoing(state, "advance")
    procedure = advance.get("procedure", "breakthrough")
    left = int(advance.get("left", 1)) - 1
    others = [u for u in advance["units"] if u != action["unit"]]
    state["advance"] = {**advance, "units": others, "left": left} if left and others else None
    events = _move_in(scenario, state, action["unit"], action["to"], procedure)
    return events + drain(scenario, state)


def hold(rules: Any, scenario: Scenario, state: State, action: Action) -> list[Event]:
    """The winners stay where they are."""
    state["advance"] = None
    return drain(scenario, state)
