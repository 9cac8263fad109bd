"""What the hex-facing screen shows (docs/play-view.md): the prompt, the legal actions grouped
into labelled choices, what each face of a chance point does, the markers on the counters and
the arrows of a fight in progress.

Everything is a label (a message key and its parameters): ids, codes and rule references go
out as they are and the screen words them by the kinds in ``WORDS``. The numbers a label
shows (what a test must reach, a result's codes) are read from the system's own tables.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from ... import flow
from ...hexmap import Scenario
from ...ruleset import Choice, Item, Label, choice, item
from ...shapes import Action
from . import combat, position
from . import tables as T
from .state import HexFacingState, ongoing

State = HexFacingState  # the state's shape (state.py)

# The stand-in procedures of results the aid names without their rules (combat.json).
COUNTERATTACK_RULE = "counterattack"
BREAKTHROUGH_RULE = "breakthrough"
COUNTERCHARGE_RULE = "countercharge"

# Parameter name -> kind of every hex-facing message beyond ruleset.COMMON_WORDS.
WORDS: dict[str, str] = {
    "step": "word:step.",
    "reason": "label",
    "codes": "words:hf_code.",
    "cavalry_codes": "words:hf_code.",
    "defender_codes": "words:hf_code.",
    "attacker_codes": "words:hf_code.",
    "failed": "words:effect.",
    "with": "unit",
    "guns": "units",
    "cohesion": "number",
    "needed": "number",
    "drm": "number",
    "factor": "number",
    "strength": "number",
    "range": "number",
    "effective": "number",
    "hexes": "count",
    "level": "number",
    "delta": "number",
    "attack": "number",
    "defense": "number",
    "attacker": "number",
    "defender": "number",
    "ratio": "text",
    "where": "word:hf_where.",
    "type": "word:unit_type.",
    "kind": "word:connection.",
    "allowance": "number",
    "distance": "number",
    "reach": "number",
}

# Unit states shown on the counter, in the order they are listed.
MARKERS = ("hf_routed", "hf_disordered", "hf_square", "hf_reacted", "hf_done")


def label(key: str, **params: Any) -> Label:
    """A message key with its parameters."""
    return {"key": key, "params": params}


def _side_of(scenario: Scenario, uid: str) -> str:
    return str(scenario.units[uid]["side"])


def _turn_side(state: State) -> str | None:
    """The side whose turn it is: the active formation's, or the side rallying."""
    if state["active"]:
        return str(state["active"]["side"])
    if state["rally"]:
        return str(state["rally"]["side"])
    return None


def needed(scenario: Scenario, cohesion: int, modifier: int = 0) -> int:
    """The highest die face that passes a cohesion test, as the scenario's combat table reads
    it (below the lowest face: none does)."""
    t = T.tables_for(scenario)
    faces = list(t.die.faces)
    passing = [f for f in faces if combat.cohesion_test_passes(f, cohesion, modifier, t)]
    return max(passing) if passing else min(faces) - 1


def _cohesion(scenario: Scenario, uid: str) -> int:
    return int(scenario.units[uid].get("ratings", {}).get("cohesion", 0))


def _no_orders_why(scenario: Scenario, state: State) -> Label | None:
    """Why a formation without orders is held back in its present step, if it is."""
    active = ongoing(state, "active")
    if active["orders"]:
        return None
    rule = position.settings(scenario)["no_orders"]
    if active["step"] == "move":
        return label("why.hf_no_orders_move", factor=rule["movement_factor"])
    if active["step"] == "combat" and not rule["may_melee"]:
        return label("why.hf_no_orders_melee")
    return None


# -- the prompt -------------------------------------------------------------------------------


def prompt(scenario: Scenario, state: State, decider: str | None) -> dict[str, Any] | None:
    """What is asked now, of whom, and why when the choice is forced."""
    if state["result"]:
        return None
    if state["chance"]:
        return _chance_prompt(scenario, state)
    asked: dict[str, Any]
    if state["retreat"]:
        uid = state["retreat"]["unit"]
        asked = {
            **label("prompt.hf_retreat", unit=uid),
            "why": label("why.hf_retreat", unit=uid, count=len(state["retreat"]["options"])),
        }
    elif state["counterattack"]:
        counter = state["counterattack"]
        asked = label(
            "prompt.hf_counterattack",
            units=counter["units"],
            targets=counter["targets"],
            rule=_procedure_rule(COUNTERATTACK_RULE),
        )
    elif state["reaction"]:
        reaction = state["reaction"]
        asked = label(
            "prompt.hf_reaction",
            guns=sorted({g for g, _ in reaction["pairs"]}),
            target=reaction["melee"]["target"],
            attackers=list(reaction["melee"]["attackers"]),
            rule=_reaction_rule(),
        )
    elif state["countercharge"]:
        cc = state["countercharge"]
        asked = label(
            "prompt.hf_countercharge",
            units=list(cc["units"]),
            attackers=list(cc["melee"]["attackers"]),
            target=cc["melee"]["target"],
            rule=_procedure_rule(COUNTERCHARGE_RULE),
        )
    elif state["advance"]:
        advance = state["advance"]
        asked = label(
            "prompt.hf_pursue" if advance.get("procedure") == "pursuit" else "prompt.hf_advance",
            units=advance["units"],
            to=advance["hex"],
            rule=_procedure_rule(advance.get("procedure", BREAKTHROUGH_RULE)),
        )
    elif state["phase"] == "formation":
        active = ongoing(state, "active")
        if active["facing_due"]:
            uid = active["facing_due"]
            asked = {
                **label("prompt.hf_facing", unit=uid, formation=active["formation"]),
                "why": label("why.hf_facing_after_move", unit=uid),
            }
        else:
            asked = label(
                f"prompt.hf_{active['step']}", formation=active["formation"], side=active["side"]
            )
            why = _no_orders_why(scenario, state)
            if why:
                asked["why"] = why
    elif state["phase"] == "rally":
        asked = label("prompt.hf_rally", side=ongoing(state, "rally")["side"])
    else:
        return None
    return {**asked, "side": decider}


def _chance_prompt(scenario: Scenario, state: State) -> dict[str, Any]:
    chance = ongoing(state, "chance")
    purpose = chance["purpose"]
    side = _turn_side(state)
    if purpose == "activation":
        asked = label("prompt.hf_draw", count=len(chance["options"]))
    elif purpose == "fire":
        key = "prompt.hf_reaction_roll" if state["after"] else "prompt.hf_fire_roll"
        asked = label(key, units=chance["units"], target=chance["target"], total=chance["total"])
    elif purpose == "melee":
        key = "prompt.hf_melee_roll"
        key = "prompt.hf_charge_roll" if chance.get("charge") else key
        key = "prompt.hf_counterattack_roll" if chance.get("counter") else key
        asked = label(
            key, attackers=chance["units"], target=chance["target"], total=chance["total"]
        )
        if chance.get("countercharge"):
            asked = label(
                "prompt.hf_countercharged_roll",
                attackers=chance["units"],
                target=chance["target"],
                total=chance["total"],
                units=list(chance["countercharge"]),
            )
    elif purpose == "cohesion":
        uid = chance["unit"]
        asked = label(
            "prompt.hf_test_roll",
            unit=uid,
            needed=needed(scenario, _cohesion(scenario, uid)),
            failed=list(chance["failed"]),
        )
    else:  # rally
        uid = chance["unit"]
        asked = label(
            "prompt.hf_rally_roll",
            unit=uid,
            needed=needed(scenario, _cohesion(scenario, uid), chance["modifier"]),
            drm=chance["modifier"],
        )
    return {**asked, "side": side}


@cache
def _procedure_rule(name: str) -> str:
    """The rule a stand-in procedure of combat.json stands for (8.7, 9.5)."""
    return str(T.raw_tables()["procedures"][name]["rule"])


@cache
def _reaction_rule() -> str:
    return str(T.load_tables().fire["reaction_or_counter_battery"].params["rules"]["reaction"])


# -- choices ----------------------------------------------------------------------------------


def choices(scenario: Scenario, state: State, legal: list[Action]) -> list[Choice]:
    """Every legal action in one labelled item (``CHOICE_ITEMS``, by the action's type); the
    action that ends a step or phase last."""
    c = _Choices(scenario, state)
    ending: list[Item] = []
    for a in legal:
        made = CHOICE_ITEMS.get(a["type"])
        if made is not None:
            made(c, a)
        else:
            ending.append(_ending(scenario, state, a))
    out = list(c.groups.values())
    movers = {a["unit"] for a in legal if a["type"] in ("move", "face", "square")}
    for it in ending:
        if it["action"]["type"] == "next_step" and ongoing(state, "active")["step"] == "move":
            unused = flow.unused_label("unused.units_not_moved", len(movers))
            if unused:
                it["unused"] = unused
    if ending:
        done = choice("choice.hf_done", {}, end=True)
        done["items"] = ending
        out.append(done)
    return out


class _Choices:
    """The choices being made of the legal actions (``choices``), each under its key."""

    def __init__(self, scenario: Scenario, state: State) -> None:
        self.scenario, self.state = scenario, state
        self.active = state["active"]
        self.formation = self.active["formation"] if self.active else None
        self.groups: dict[str, Choice] = {}

    def group(self, key: str, kind: str = "buttons", **params: Any) -> Choice:
        """The choice ``key``, made with its parameters the first time."""
        if key not in self.groups:
            self.groups[key] = choice(key, params, kind)
        return self.groups[key]


def _fire_item(c: _Choices, a: Action) -> None:
    key = "action.hf_fire_with" if "with" in a else "action.hf_fire"
    c.group("choice.hf_fire", formation=c.formation)["items"].append(
        item(a, key, _fields(a, "unit", "with", "target"), fight=True)
    )


def _move_item(c: _Choices, a: Action) -> None:
    c.group("choice.hf_move", "map", formation=c.formation)["items"].append(
        item(a, "action.hf_move", _fields(a, "unit", "to"))
    )


def _face_item(c: _Choices, a: Action) -> None:
    if c.active and c.active["facing_due"]:
        ch = c.group("choice.hf_facing", "facing", unit=c.active["facing_due"])
        key = "action.hf_face"
    else:
        ch = c.group("choice.hf_turn", "facing", formation=c.formation)
        key = "action.hf_turn"
    ch["items"].append(item(a, key, _fields(a, "unit", "facing")))


def _square_item(c: _Choices, a: Action) -> None:
    key = "action.hf_form_square" if a["form"] else "action.hf_leave_square"
    c.group("choice.hf_square", formation=c.formation)["items"].append(
        item(a, key, _fields(a, "unit"))
    )


def _melee_item(c: _Choices, a: Action) -> None:
    params = _fields(a, "attackers", "target")
    if a.get("counter"):
        units = ongoing(c.state, "counterattack")["units"]
        ch = c.group("choice.hf_counterattack", units=units)
        key, params["rule"] = "action.hf_counterattack", _procedure_rule(COUNTERATTACK_RULE)
    else:
        ch = c.group("choice.hf_melee", formation=c.formation)
        key = "action.hf_charge" if a.get("charge") else "action.hf_melee"
    ch["items"].append(item(a, key, params, at=a["target"], fight=True))


def _reaction_item(c: _Choices, a: Action) -> None:
    target = ongoing(c.state, "reaction")["melee"]["target"]
    c.group("choice.hf_reaction", target=target)["items"].append(
        item(a, "action.hf_reaction_fire", _fields(a, "unit", "target"), fight=True)
    )


def _countercharge_item(c: _Choices, a: Action) -> None:
    melee = ongoing(c.state, "countercharge")["melee"]
    params = {
        "units": list(a["units"]),
        "target": melee["target"],
        "rule": _procedure_rule(COUNTERCHARGE_RULE),
    }
    at = melee["target"]
    c.group("choice.hf_countercharge", target=at)["items"].append(
        item(a, "action.hf_countercharge", params, a["units"][0], at, fight=True)
    )


def _retreat_item(c: _Choices, a: Action) -> None:
    c.group("choice.hf_retreat", unit=a["unit"])["items"].append(
        item(a, "action.hf_retreat", _fields(a, "unit", "to"))
    )


def _advance_item(c: _Choices, a: Action) -> None:
    procedure = ongoing(c.state, "advance").get("procedure", BREAKTHROUGH_RULE)
    rule = _procedure_rule(procedure)
    key = "pursue" if procedure == "pursuit" else "advance"
    c.group(f"choice.hf_{key}", to=a["to"], rule=rule)["items"].append(
        item(a, f"action.hf_{key}", _fields(a, "unit", "to"))
    )


def _rally_item(c: _Choices, a: Action) -> None:
    uid = a["unit"]
    drm = position.rally_modifier(c.scenario, c.state, uid)
    params = {"unit": uid, "needed": needed(c.scenario, _cohesion(c.scenario, uid), drm)}
    c.group("choice.hf_rally", side=ongoing(c.state, "rally")["side"])["items"].append(
        item(a, "action.hf_rally", params)
    )


# Each action's item in its choice, by the action's type; any other ends a step or phase.
CHOICE_ITEMS: dict[str, Callable[[_Choices, Action], None]] = {
    "fire": _fire_item,
    "move": _move_item,
    "face": _face_item,
    "square": _square_item,
    "melee": _melee_item,
    "reaction_fire": _reaction_item,
    "countercharge": _countercharge_item,
    "retreat": _retreat_item,
    "advance": _advance_item,
    "rally": _rally_item,
}


def _fields(action: Mapping[str, Any], *names: str) -> dict[str, Any]:
    return {n: action[n] for n in names if n in action}


def _ending(scenario: Scenario, state: State, a: Action) -> Item:
    """The item of an action that ends a step, an offer or a phase, saying what happens."""
    t = a["type"]
    if t == "next_step":
        active = ongoing(state, "active")
        steps = position.settings(scenario)["formation_steps"]
        last = steps.index(active["step"]) == len(steps) - 1
        key = "action.hf_end_activation" if last else "action.hf_end_step"
        params = {"formation": active["formation"], "step": active["step"]}
    elif t == "no_counterattack":
        key, params = (
            "action.hf_no_counterattack",
            {"units": ongoing(state, "counterattack")["units"]},
        )
    elif t == "no_reaction":
        melee = ongoing(state, "reaction")["melee"]
        key, params = "action.hf_no_reaction", {"target": melee["target"]}
    elif t == "no_countercharge":
        cc = ongoing(state, "countercharge")
        params = {"units": list(cc["units"]), "target": cc["melee"]["target"]}
        return item(a, "action.hf_no_countercharge", params, unit=None, at=None, fight=True)
    elif t == "hold":
        key, params = "action.hf_hold", {"units": ongoing(state, "advance")["units"]}
    elif t == "end_rally":
        sides = [s["id"] for s in scenario.data["sides"]]
        side = ongoing(state, "rally")["side"]
        last = sides.index(side) == len(sides) - 1
        key = "action.hf_end_rally_turn" if last else "action.hf_end_rally"
        params = {"side": side, "turn": state["turn"]}
    else:  # pragma: no cover - every action type is grouped above
        raise ValueError(f"no choice for {t!r}")
    return item(a, key, params, unit=None, at=None)


# -- chance results ---------------------------------------------------------------------------


def chance_results(scenario: Scenario, state: State, faces: list[Any]) -> list[Label | None]:
    """What each face of the chance point does, read from the system's tables."""
    chance = ongoing(state, "chance")
    purpose = chance["purpose"]
    if purpose == "activation":
        found = position.formations(scenario)
        out: list[Label | None] = []
        for fid in faces:
            formation = found[fid]
            key = (
                "chance.hf_drawn" if formation.get("orders", True) else "chance.hf_drawn_no_orders"
            )
            out.append(label(key, formation=fid, side=formation["side"]))
        return out
    t = T.tables_for(scenario)
    if purpose == "fire":
        total = chance["total"]
        out = []
        for f in faces:
            codes = list(combat.fire_result(f, total, t).cells["result"].codes)
            out.append(label("chance.hf_fire", total=f + total, codes=codes or [position.NO_CODE]))
        return out
    if purpose == "melee":
        total = chance["total"]
        out = []
        for f in faces:
            row = combat.melee_result(f + total, t)
            d_codes, a_codes = position.melee_codes(scenario, state, chance, row)
            later = position.if_falls_back(chance, row)
            params = {
                "total": f + total,
                "defender_codes": d_codes or [position.NO_CODE],
                "attacker_codes": a_codes or [position.NO_CODE],
            }
            if later:
                out.append(label("chance.hf_melee_if_falls_back", **params, cavalry_codes=later))
            else:
                out.append(label("chance.hf_melee", **params))
        return out
    uid = chance["unit"]
    cohesion = _cohesion(scenario, uid)
    if purpose == "cohesion":
        need = needed(scenario, cohesion)
        return [
            label("chance.hf_test_pass", unit=uid, needed=need)
            if combat.cohesion_test_passes(f, cohesion, tables=t)
            else label("chance.hf_test_fail", unit=uid, needed=need, failed=list(chance["failed"]))
            for f in faces
        ]
    if purpose == "rally":
        drm = chance["modifier"]
        need = needed(scenario, cohesion, drm)
        status = state["units"][uid]["status"]
        better = "disordered" if status == "routed" else "good"
        return [
            label("chance.hf_rally_pass", unit=uid, needed=need, status=better)
            if combat.cohesion_test_passes(f, cohesion, drm, t)
            else label("chance.hf_rally_fail", unit=uid, needed=need, status=status)
            for f in faces
        ]
    return [None for _ in faces]


# -- markers and arrows -----------------------------------------------------------------------


def markers(scenario: Scenario, state: State) -> dict[str, list[str]]:
    """Unit id -> the markers on its counter (unit states a player must see)."""
    active = state["active"]
    acted = set(active["acted"]) if active else set()
    out: dict[str, list[str]] = {}
    for uid, u in state["units"].items():
        if u["out"]:
            continue
        on = {
            "hf_routed": u["status"] == "routed",
            "hf_disordered": u["status"] == "disordered",
            "hf_square": bool(u["square"]),
            "hf_reacted": u["reacted"] == state["turn"],
            "hf_done": uid in acted,
        }
        shown = [m for m in MARKERS if on[m]]
        if shown:
            out[uid] = shown
    return out


def arrows(scenario: Scenario, state: State) -> list[dict[str, str]]:
    """The fire or melee in progress, from each firer or attacker to the target hex."""
    units = state["units"]
    out: list[dict[str, str]] = []

    def add(uids: list[str], target: str, kind: str) -> None:
        for place in dict.fromkeys(units[u]["hex"] for u in uids if not units[u]["out"]):
            if place != target:
                out.append({"from": place, "to": target, "kind": kind})

    chance = state["chance"]
    melee = None
    if state["reaction"]:
        melee = state["reaction"]["melee"]
    elif state["countercharge"]:
        melee = state["countercharge"]["melee"]
    elif state["after"]:
        melee = state["after"]
    elif chance and chance["purpose"] == "melee":
        melee = {"attackers": chance["units"], "target": chance["target"], **chance}
    else:
        settle = next((q for q in state["queue"] if q["do"] == "settle"), None)
        if settle:
            c = settle["chance"]
            melee = {"attackers": c["units"], "target": c["target"], "charge": c.get("charge")}
    if melee:
        kind = "charge" if melee.get("charge") else "melee"
        add(list(melee["attackers"]), melee["target"], kind)
    if chance and chance["purpose"] == "fire":
        add(chance["units"], chance["target"], "fire")
    return out
