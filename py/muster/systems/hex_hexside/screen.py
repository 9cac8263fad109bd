"""hex-hexside on screen (docs/play-view.md): previews with every DRM and exact odds, the
combat in progress (a close combat with its step of the aid's 12, or a bombardment, which has
no steps and no lead units), the prompt with the side that decides and why, the legal actions
grouped into labelled choices, what each face of a die does, markers and arrows on the map,
and how the screen words every parameter these messages carry (``WORDS``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from ... import flow
from ...dice import distribution as die_distribution
from ...game import chance_faces
from ...hexgrid import hex_distance
from ...hexmap import Scenario
from ...modifier import Modifier
from ...movement import Board
from ...ruleset import Choice, Label, choice, item
from ...shapes import Action
from . import aftermath, combat, reference
from . import closecombat as cc
from . import tables as T
from .position import board_for, enemy_side, fighters_in, may_attack, pair_ok, spec
from .state import HexHexsideState, ongoing, phasing

State = HexHexsideState  # the state's shape (state.py)
Event = dict[str, Any]


# The aid's step (1-12) of each point of a close combat: the combat's own step, a die rolled
# for it, or an owner's decision while results are applied.
STEP_NUMBER = {
    "designate": 1,
    "retreat_before": 2,
    "lead_attacker": 4,
    "lead_defender": 4,
    "terrain": 5,
    "resolve": 6,
    "results": 8,
    "advance": 9,
    "extended": 10,
    "cavalry": 12,
}
CHANCE_STEP = {"close_combat": 6, "leader_loss": 7, "deep_charge": 12}
# How the screen words each parameter of hex-hexside's messages (beyond COMMON_WORDS).
WORDS: dict[str, str] = {
    "phase": "word:hh_phase.",
    "level": "word:army_level.",
    "side_role": "word:ui.",
    "cause": "word:hh_why.",
    "table": "word:crt_table.",
    "step": "word:hh_step.",
    "number": "number",
    "codes": "words:hh_code.",
    "own_codes": "text",
    "column": "text",
    "attack": "number",
    "defence": "number",
    "drm": "number",
    "bonus": "number",
    "need": "number",
    "left": "count",
    "modifier": "number",
    "effects": "labels",
    "attacker": "labels",
    "defender": "labels",
    "reason": "label",
    "then": "label",
    "detail": "text",
    "allowance": "number",
    "distance": "number",
    "reach": "number",
}
# Markers a unit may carry (``marker.<id>`` words, ``marker_sign.<id>`` the sign drawn).
LOST_MARKERS = 5  # step losses: hh_lost_1 .. hh_lost_5 (5: five or more)
# Every marker ``markers`` may put on a unit, in the order it puts them.
MARKERS = (
    "hh_locked",
    *(f"hh_lost_{n}" for n in range(1, LOST_MARKERS + 1)),
    "hh_column",
    "hh_engaged",
    "hh_wcm",
    "hh_must_attack",
    "hh_lead",
)


def _outcomes(
    scenario: Scenario, state: State, column: str, drm: int, bombard: bool
) -> list[dict[str, Any]]:
    if cc.guns_hit(scenario, bombard):
        return combat.distribution(scenario, state, column, drm)
    return bombard_outcomes(scenario, state, column, drm)


def bombard_outcomes(
    scenario: Scenario, state: State, column: str, drm: int
) -> list[dict[str, Any]]:
    """Exact chances of each effect of a bombardment on its target (results against the guns
    are ignored, so they are not listed), grouped by effect."""
    t = combat.tables_of(scenario, state)
    found: dict[str, dict[str, Any]] = {}
    for face in t.die.faces:
        codes = T.crt_result(column, face + drm, t)
        effect = combat.result_effects(codes, t)["defender"]
        words = combat.effect_words(effect)
        key = repr(words)
        entry = found.setdefault(key, {"rolls": [], "p": 0.0, "outcome": {"target": words}})
        entry["rolls"].append(face)
        entry["p"] += 1 / len(t.die.faces)
    return list(found.values())


def preview(
    scenario: Scenario, state: State, action: Action, board: Board | None = None
) -> dict[str, Any]:
    """The DRM (each with its rule) and the exact odds of a close combat or bombardment (a
    close combat's worked out on ``board``, the rules' board of ``state``, if one is given)."""
    t = combat.tables_of(scenario, state)
    if action["type"] == "deep_charge":
        uid = action["unit"]
        leader = combat.leader_with(scenario, state, uid)
        parts = [
            Modifier(combat.morale(scenario, uid), "drm.hh_morale", "19.11.1", (("unit", uid),))
        ]
        if leader is not None:
            parts.append(
                Modifier(combat._mm(scenario, leader), "drm.leader", "19.11.1", (("unit", leader),))
            )
        need = t.deep_charge_at_least - sum(int(p.value) for p in parts)
        p = T.deep_charge_probability(int(parts[0].value), int(sum(x.value for x in parts[1:])), t)
        return test_preview(scenario, state, parts, need, "deep_charge", p)
    if action["type"] == "bombard":
        uid, target = action["unit"], action["target"]
        odds = cc.bombard_odds(scenario, state, uid, target)
        parts = list(cc._bombard_terrain(scenario, state, uid, target).parts)
        return _answer(scenario, state, odds, parts, provisional=False, bombard=True)
    c = dict(ongoing(state, "combat"))
    provisional = action["type"] == "confirm"
    if provisional:
        c["defenders"] = [u for t_ in c["targets"] for u in fighters_in(scenario, state, t_)]
        c["lead"] = {
            "attacker": max(c["attackers"], key=lambda u: combat.morale(scenario, u)),
            "defender": max(c["defenders"], key=lambda u: combat.morale(scenario, u)),
        }
        c["odds"] = combat.odds(scenario, state, c["attackers"], c["defenders"])
        board = board or board_for(scenario, state)
        pairs = cc.terrain_pairs(scenario, state, board, c)
        best = None
        for pair in pairs:
            parts = cc.close_parts(scenario, state, {**c, "pair": pair}, board)
            total = sum(p.value for p in parts)
            if best is None or total > best[0]:
                best = (total, parts)
        parts = best[1] if best else []
    else:
        c["pair"] = [action["from"], action["into"]]
        parts = cc.close_parts(scenario, state, c, board)
    return _answer(scenario, state, c["odds"], parts, provisional=provisional, bombard=False)


def _answer(
    scenario: Scenario,
    state: State,
    odds: dict[str, Any],
    parts: list[Modifier],
    provisional: bool,
    bombard: bool,
) -> dict[str, Any]:
    total = int(sum(p.value for p in parts))
    outcomes = _outcomes(scenario, state, odds["column"], total, bombard)
    answer = {
        "modifiers": reference.with_refs(parts),
        "total": total,
        "ref": "crt",
        "odds": odds,
        "outcomes": outcomes,
        "provisional": provisional,
        "bombard": bombard,
        "crt": state["crt"],
    }
    hit = ("target", "defender")
    if bombard and not any(o["outcome"].get(side) for o in outcomes for side in hit):
        # The aid sets no floor to a bombardment's odds: it may be fired, and says why it
        # cannot have an effect (the best face of the die, on this column).
        face = max(combat.tables_of(scenario, state).die.faces)
        params = {"column": odds["column"], "face": face, "best": face + total}
        answer["notes"] = [{"key": "note.hh_bombard_no_result", "params": params}]
    return answer


def test_preview(
    scenario: Scenario,
    state: State,
    parts: list[Modifier],
    target: int,
    kind: str,
    p: Fraction | None = None,
) -> dict[str, Any]:
    """Odds of a rally (die at most ``target``) or a deep charge (die at least ``target``)."""
    t = combat.tables_of(scenario, state)
    if p is None:
        dist = die_distribution(t.die)
        p = sum((q for f, q in dist.items() if f <= target), Fraction(0))
    words = {
        "rally": ("effect.hh_rallies", "effect.hh_fails"),
        "deep_charge": ("effect.hh_must", "effect.hh_not"),
    }
    yes, no = words[kind]
    return {
        "modifiers": reference.with_refs(parts),
        "total": int(sum(x.value for x in parts)),
        "ref": "rally" if kind == "rally" else "deep-charges",
        "target": target,
        "outcomes": [
            {"outcome": {"result": [{"key": yes, "params": {}}]}, "p": float(p)},
            {"outcome": {"result": [{"key": no, "params": {}}]}, "p": float(1 - p)},
        ],
        "provisional": False,
        "crt": None,
    }


# -- the combat in progress ------------------------------------------------------------------


def step_number(state: State) -> int | None:
    """The aid's step (1-12) a close combat is at now; none without one, or for a bombardment."""
    c = state["combat"]
    if c is None or c["bombard"]:
        return None
    chance = state["chance"]
    if chance and chance["purpose"] in CHANCE_STEP:
        return CHANCE_STEP[chance["purpose"]]
    if state["decision"] is not None:
        return STEP_NUMBER["results"]
    return STEP_NUMBER.get(c["step"])


def _step_params(state: State) -> dict[str, Any]:
    number = step_number(state)
    if number is None:
        return {}
    return {"number": number, "step": T.STEP_IDS[number - 1]}


def _label(key: str, **params: Any) -> Label:
    return {"key": key, "params": params}


def combat_view(scenario: Scenario, state: State) -> dict[str, Any] | None:
    """The combat in progress as the screen shows it: a close combat (``kind`` "close") with its
    step of the aid's 12, or a bombardment (``kind`` "bombard": a gun, its target, the odds
    and the die, no steps and no lead units); ``title`` and ``lines`` word it, ``preview``
    gives every modifier and the exact odds once they are known."""
    c = state["combat"]
    if c is None:
        return None
    t = combat.tables_of(scenario, state)
    result = None
    if c["codes"] is not None:
        total = c["roll"] + c["drm"]
        source = state["crt"].get("source")
        result = cc.result_event(
            scenario, "log.", c, c["roll"], total, tuple(c["codes"]), t, source
        )
    if c["bombard"]:
        return _bombard_view(scenario, state, c, result)
    return _close_view(scenario, state, c, result)


def _bombard_view(
    scenario: Scenario, state: State, c: dict[str, Any], result: Label | None
) -> dict[str, Any]:
    """A bombardment: a gun, its target, the odds and the die, no steps and no lead units."""
    uid, target = c["attackers"][0], c["targets"][0]
    title = _label("combat.hh_bombard", unit=uid, target=target)
    view: dict[str, Any] = {
        "kind": "bombard",
        "bombard": True,
        "unit": uid,
        "target": target,
        "from": c["pair"][0],
        "attackers": [uid],
        "targets": [target],
        "defenders": list(c["defenders"]),
        "odds": c["odds"],
        "drm": c["drm"],
        "roll": c["roll"],
        "result": result,
        "title": title,
    }
    lines = [title, _label("combat.hh_odds", **c["odds"])]
    if c["drm"] is not None:
        lines.append(_label("combat.hh_drm", drm=c["drm"]))
    if result is not None:
        lines.append(result)
    view["lines"] = lines
    if c["step"] == "resolve" and c["roll"] is None:
        parts = list(cc._bombard_terrain(scenario, state, uid, target).parts)
        view["preview"] = _answer(
            scenario, state, c["odds"], parts, provisional=False, bombard=True
        )
    return view


def _close_view(
    scenario: Scenario, state: State, c: dict[str, Any], result: Label | None
) -> dict[str, Any]:
    """A close combat with its step of the aid's 12."""
    params = _step_params(state)
    title = _label("combat.hh_step", **params)
    view = {k: c[k] for k in ("step", "side", "attackers", "targets", "defenders", "lead", "pair")}
    view.update(
        kind="close",
        bombard=False,
        extended=c["extended"],
        odds=c["odds"],
        drm=c["drm"],
        codes=c["codes"],
        roll=c["roll"],
        result=result,
        number=params["number"],
        step_name=params["step"],
        title=title,
    )
    lines = [title, _label("combat.hh_who", units=list(c["attackers"]), targets=list(c["targets"]))]
    if c["extended"]:
        lines.append(_label("combat.hh_extended"))
    for role in ("attacker", "defender"):
        if c["lead"][role] is not None:
            lines.append(_label(f"combat.hh_lead_{role}", unit=c["lead"][role]))
    if c["odds"] is not None:
        lines.append(_label("combat.hh_odds", **c["odds"]))
    if c["drm"] is not None:
        lines.append(_label("combat.hh_drm", drm=c["drm"]))
    if result is not None:
        lines.append(result)
    view["lines"] = lines
    designating = c["step"] == "designate"
    if designating and cc.designation_valid(scenario, state, board_for(scenario, state), c):
        view["preview"] = preview(scenario, state, {"type": "confirm"})
    elif c["step"] == "resolve" and c["roll"] is None:
        parts = cc.close_parts(scenario, state, c)
        view["preview"] = _answer(
            scenario, state, c["odds"], parts, provisional=False, bombard=False
        )
    return view


# -- the prompt ------------------------------------------------------------------------------


def _prompt(key: str, side: str, why: Label | None = None, **params: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"key": key, "params": {"side": side, **params}, "side": side}
    if why is not None:
        out["why"] = why
    return out


def _must_units(scenario: Scenario, state: State) -> list[str]:
    return [
        uid for uid, u in state["units"].items() if u["must"] and may_attack(scenario, state, uid)
    ]


def prompt(scenario: Scenario, state: State) -> dict[str, Any] | None:
    """What the screen asks now, of which side (pass-and-play hands the tablet over), and why
    when the choice is forced; a close combat's prompts carry its step of the aid's 12."""
    if state["result"]:
        return None
    side = phasing(state)
    other = enemy_side(scenario, state)
    c = state["combat"]
    bombard = c is not None and c["bombard"]
    step = _step_params(state)
    chance = state["chance"]
    if chance:
        return _chance_prompt(scenario, state, chance, side)
    d = state["decision"]
    if d is not None:
        where = {"target": ongoing(state, "combat")["targets"][0]} if bombard else step
        if d["kind"] == "loss":
            owner = ongoing(state, "combat")["side"] if d["side"] == "attacker" else other
            n = state["queue"][0]["n"] if state["queue"] else 1
            why = (
                _label("why.hh_bombard_loss", n=n)
                if bombard
                else _label("why.hh_loss", n=n, side_role=d["side"])
            )
            key = "prompt.hh_bombard_loss" if bombard else "prompt.hh_loss"
            return _prompt(key, owner, why, **where)
        owner = spec(scenario, d["unit"])["side"]
        why = _label("why.hh_r", unit=d["unit"])
        key = "prompt.hh_bombard_retreat" if bombard else "prompt.hh_retreat"
        return _prompt(key, owner, why, unit=d["unit"], **where)
    if c is not None:
        key = f"prompt.hh_{c['step']}"
        targets = list(c["targets"])
        if c["step"] == "designate":
            must = [u for u in c["attackers"] if state["units"][u]["must"]]
            reason = None
            if c["extended"]:
                reason = _label("why.hh_extended", units=list(c["pool"] or c["attackers"]))
            elif must:
                reason = _label("why.hh_must_attack", units=must)
            return _prompt(key, side, reason, targets=targets, **step)
        if c["step"] == "retreat_before":
            why = _label("why.hh_retreat_before", units=list(c["volunteers"]))
            return _prompt(key, other, why, targets=targets, **step)
        if c["step"] in ("lead_attacker", "lead_defender"):
            # lead_units.chooser: each side its own ("owner"), or the attacker both ("attacker").
            chooser = combat.settings(scenario)["lead_units"]["chooser"]
            owner = side if c["step"] == "lead_attacker" or chooser == "attacker" else other
            return _prompt(key, owner, _label("why.hh_lead"), **step)
        if c["step"] == "terrain":
            return _prompt(key, side, _label("why.hh_terrain"), targets=targets, **step)
        if c["step"] == "extended":
            return _prompt(key, side, None, units=list(c["advanced"]), **step)
        return _prompt(key, side, None, targets=targets, **step)
    if state["phase"] == "combat" and cc.must_attack_targets(scenario, state):
        why = _label("why.hh_must_attack", units=_must_units(scenario, state))
        return _prompt("prompt.hh_must_attack", side, why)
    return _prompt(f"prompt.hh_{state['phase']}", side)


def _chance_prompt(
    scenario: Scenario, state: State, chance: dict[str, Any], side: str
) -> dict[str, Any]:
    purpose = chance["purpose"]
    step = _step_params(state)
    if purpose == "rally":
        return _prompt("prompt.chance.hh_rally", side, unit=chance["unit"], need=chance["target"])
    if purpose == "bombard":
        return _prompt(
            "prompt.chance.hh_bombard",
            side,
            unit=ongoing(state, "combat")["attackers"][0],
            target=ongoing(state, "combat")["targets"][0],
            column=chance["column"],
            drm=chance["drm"],
        )
    if purpose == "close_combat":
        return _prompt(
            "prompt.chance.hh_close_combat",
            side,
            column=chance["column"],
            drm=chance["drm"],
            **step,
        )
    if purpose == "leader_loss":
        if ongoing(state, "combat")["bombard"]:
            return _prompt(
                "prompt.chance.hh_bombard_leader_loss",
                side,
                unit=chance["unit"],
                target=ongoing(state, "combat")["targets"][0],
            )
        return _prompt("prompt.chance.hh_leader_loss", side, unit=chance["unit"], **step)
    need = combat.tables_of(scenario, state).deep_charge_at_least
    return _prompt(
        "prompt.chance.hh_deep_charge",
        side,
        unit=chance["unit"],
        bonus=chance["bonus"],
        need=need,
        **step,
    )


# -- choices ---------------------------------------------------------------------------------

# Actions that end a step, a combat or a phase: one last choice, each labelled with what follows.
GO_ON = ("cancel", "stand", "no_advance", "no_extended", "end_combat", "end_phase")
CHOICE_OF = {
    "rally": "choice.hh_rally",
    "move": "choice.hh_move",
    "formation": "choice.hh_formation",
    "bombard": "choice.hh_bombard",
    "toggle_attacker": "choice.hh_attackers",
    "toggle_target": "choice.hh_targets",
    "confirm": "choice.hh_confirm",
    "retreat_before": "choice.hh_retreat_before",
    "lead": "choice.hh_lead",
    "terrain": "choice.hh_terrain",
    "advance": "choice.hh_advance",
    "extended_attack": "choice.hh_extended",
    "deep_charge": "choice.hh_deep_charge",
    "take_loss": "choice.hh_take_loss",
    "retreat": "choice.hh_retreat",
}


def choices(rules: Any, scenario: Scenario, state: State, legal: list[Action]) -> list[Choice]:
    """The legal actions in labelled choices, every one in exactly one item (``CHOICE_ITEMS``,
    by the action's type); the choice that ends the step, the combat or the phase last, its
    items saying what follows."""
    c = _Choices(rules, scenario, state, legal)
    for a in legal:
        kind = a["type"]
        made = _go_on_item if kind in GO_ON else CHOICE_ITEMS.get(kind, _unit_item)
        made(c, a)
    groups = c.groups
    last = groups.pop("choice.hh_go_on", None)
    if last:
        last["end"] = True
    return list(groups.values()) + ([last] if last else [])


class _Choices:
    """The choices being made of the legal actions (``choices``), each under its key."""

    def __init__(self, rules: Any, scenario: Scenario, state: State, legal: list[Action]):
        self.rules, self.scenario, self.state, self.legal = rules, scenario, state, legal
        self.groups: dict[str, Choice] = {}
        no_combat = state["phase"] == "combat" and state["combat"] is None
        self.forced = no_combat and bool(_must_units(scenario, state))

    def fight(self, a: Action) -> bool:
        """True if the action is previewed as a fight."""
        return a["type"] in self.rules.previewable

    def put(
        self,
        key: str,
        it: dict[str, Any],
        params: dict[str, Any] | None = None,
        kind: str = "buttons",
    ) -> None:
        """``it`` in the choice ``key``, made with its parameters the first time."""
        if key not in self.groups:
            self.groups[key] = choice(key, params or {}, kind)
        self.groups[key]["items"].append(it)


def _go_on_item(c: _Choices, a: Action) -> None:
    """An action that ends the step, the combat or the phase, saying what follows."""
    kind, state = a["type"], c.state
    params: dict[str, Any] = {"then": then_label(c.rules, c.scenario, state, a)}
    if kind == "end_phase":
        params["phase"] = state["phase"]
    key = f"action.hh_{kind}"
    if kind == "cancel" and ongoing(state, "combat")["extended"]:
        key = "action.hh_decline_extended"
    it = item(a, key, params, fight=c.fight(a))
    if kind == "cancel":
        it["give_up"] = True  # never the primary button (muster.flow)
    if kind == "end_phase" and state["phase"] == "movement":
        movers = {m["unit"] for m in c.legal if m["type"] in ("move", "formation")}
        unused = flow.unused_label("unused.units_not_moved", len(movers))
        if unused:
            it["unused"] = unused
    c.put("choice.hh_go_on", it)


def _move_item(c: _Choices, a: Action) -> None:
    it = item(a, "action.hh_move", {"unit": a["unit"], "to": a["to"]})
    c.put(CHOICE_OF["move"], it, kind="map")


def _formation_item(c: _Choices, a: Action) -> None:
    it = item(a, "action.hh_formation", {"unit": a["unit"], "formation": a["to"]})
    it["at"] = None  # "to" is a formation here, not a place
    c.put(CHOICE_OF["formation"], it)


def _attack_item(c: _Choices, a: Action) -> None:
    key = "choice.hh_must_attack" if c.forced else "choice.hh_attack"
    c.put(key, item(a, "action.hh_attack", {"target": a["target"]}, fight=c.fight(a)))


def _toggle_attacker_item(c: _Choices, a: Action) -> None:
    inside = a["unit"] in ongoing(c.state, "combat")["attackers"]
    key = "action.hh_remove_attacker" if inside else "action.hh_add_attacker"
    c.put(CHOICE_OF["toggle_attacker"], item(a, key, {"unit": a["unit"]}))


def _toggle_target_item(c: _Choices, a: Action) -> None:
    inside = a["hex"] in ongoing(c.state, "combat")["targets"]
    key = "action.hh_remove_target" if inside else "action.hh_add_target"
    c.put(CHOICE_OF["toggle_target"], item(a, key, {"hex": a["hex"]}))


def _confirm_item(c: _Choices, a: Action) -> None:
    picked = ongoing(c.state, "combat")
    params = {"units": list(picked["attackers"]), "targets": list(picked["targets"])}
    it = item(a, "action.hh_confirm", params, fight=c.fight(a))
    it["primary"] = True  # the attack designated: the natural next step
    c.put(CHOICE_OF["confirm"], it)


def _lead_item(c: _Choices, a: Action) -> None:
    role = "attacker" if ongoing(c.state, "combat")["step"] == "lead_attacker" else "defender"
    it = item(a, "action.hh_lead", {"unit": a["unit"]}, fight=c.fight(a))
    c.put(CHOICE_OF["lead"], it, {"side_role": role})


def _terrain_item(c: _Choices, a: Action) -> None:
    params = {"from": a["from"], "into": a["into"]}
    it = item(a, "action.hh_terrain", params, at=a["into"], fight=c.fight(a))
    c.put(CHOICE_OF["terrain"], it)


def _extended_item(c: _Choices, a: Action) -> None:
    units = _extended_with(c.scenario, c.state, a["target"])
    params = {"target": a["target"], "units": units}
    it = item(a, "action.hh_extended_attack", params, fight=c.fight(a))
    c.put(CHOICE_OF["extended_attack"], it)


def _take_loss_item(c: _Choices, a: Action) -> None:
    d = ongoing(c.state, "decision")
    n = c.state["queue"][0]["n"] if c.state["queue"] else 1
    it = item(a, "action.hh_take_loss", {"unit": a["unit"]}, fight=c.fight(a))
    c.put(CHOICE_OF["take_loss"], it, {"n": n, "side_role": d["side"]})


def _unit_item(c: _Choices, a: Action) -> None:
    """rally, bombard, retreat_before, advance, deep_charge, retreat: a unit (and a place)."""
    params = {k: v for k, v in a.items() if k != "type"}
    kind = a["type"]
    c.put(CHOICE_OF[kind], item(a, f"action.hh_{kind}", params, fight=c.fight(a)))


# Each action's item in its choice, by the action's type: those that go on (``GO_ON``) in the
# last choice; the others not listed here are a unit's (``_unit_item``).
CHOICE_ITEMS: dict[str, Callable[[_Choices, Action], None]] = {
    "move": _move_item,
    "formation": _formation_item,
    "attack": _attack_item,
    "toggle_attacker": _toggle_attacker_item,
    "toggle_target": _toggle_target_item,
    "confirm": _confirm_item,
    "lead": _lead_item,
    "terrain": _terrain_item,
    "extended_attack": _extended_item,
    "take_loss": _take_loss_item,
}


def _extended_with(scenario: Scenario, state: State, target: str) -> list[str]:
    board = board_for(scenario, state)
    return [
        u
        for u in aftermath._extended_units(scenario, state)
        if pair_ok(scenario, state, board, u, target)
    ]


def then_label(rules: Any, scenario: Scenario, state: State, action: Action) -> Label:
    """What follows ``action`` (one that ends a step, a combat or a phase), worked out by
    taking it on a copy of the state: the next step, the end of the combat, the next phase,
    the next player turn or turn, or the end of the game."""
    after = copy.deepcopy(state)
    rules.apply(scenario, after, action)
    if after["result"]:
        return _label("then.hh_game_over")
    number = step_number(after)
    c = after["combat"]
    if c is not None and c["bombard"]:
        return _label("then.hh_bombard")
    if number is not None:
        c = ongoing(after, "combat")
        if c["extended"] and not (state["combat"] and state["combat"]["extended"]):
            return _label("then.hh_extended", units=list(c["attackers"]), targets=c["targets"])
        return _label("then.hh_step", number=number, step=T.STEP_IDS[number - 1])
    if after["chance"] and after["chance"]["purpose"] == "rally":
        return _label("then.hh_rally", unit=after["chance"]["unit"])
    if after["turn"] != state["turn"]:
        return _label("then.hh_turn", turn=after["turn"], side=after["side"], phase=after["phase"])
    if after["side"] != state["side"]:
        return _label("then.hh_player_turn", side=after["side"], phase=after["phase"])
    if after["phase"] != state["phase"]:
        return _label("then.hh_phase", phase=after["phase"])
    return _label("then.hh_combat_ends")


# -- what each face of a die does ------------------------------------------------------------


def chance_results(scenario: Scenario, state: State) -> list[Label | None]:
    """For each face of the die now rolled, in order, what it does: the rally passed or failed,
    the CRT result of this combat with its DRM (a bombardment's on its target only), a leader
    lost or unhurt, a deep charge made or not."""
    chance = state["chance"]
    if not chance:
        return []
    faces = chance_faces(chance)
    purpose = chance["purpose"]
    if purpose == "rally":
        uid = chance["unit"]
        status = state["units"][uid]["status"]
        better = "disordered" if status == "routed" else "formed"
        return [
            _label("chance.hh_rally_pass", unit=uid, status=better)
            if f <= chance["target"]
            else _label("chance.hh_rally_fail", unit=uid)
            for f in faces
        ]
    if purpose in ("close_combat", "bombard"):
        c, t = ongoing(state, "combat"), combat.tables_of(scenario, state)
        out: list[Label | None] = []
        for f in faces:
            codes = T.crt_result(chance["column"], f + chance["drm"], t)
            source = state["crt"].get("source")
            out.append(
                cc.result_event(scenario, "chance.", c, f, f + chance["drm"], codes, t, source)
            )
        return out
    if purpose == "leader_loss":
        lost_on = combat.settings(scenario)["leader_loss"]["lost_on"]
        return [
            _label(
                "chance.hh_leader_lost" if f in lost_on else "chance.hh_leader_safe",
                unit=chance["unit"],
            )
            for f in faces
        ]
    need = combat.tables_of(scenario, state).deep_charge_at_least
    return [
        _label(
            "chance.hh_deep_must" if f + chance["bonus"] >= need else "chance.hh_deep_not",
            unit=chance["unit"],
            total=f + chance["bonus"],
        )
        for f in faces
    ]


# -- markers and arrows ----------------------------------------------------------------------


def markers(scenario: Scenario, state: State, locked: list[str]) -> dict[str, list[str]]:
    """unit id -> its markers: Locked in an enemy zone, steps lost, in column, Engaged, a
    Winning Combat marker, must attack (a deep charge), lead unit of the combat in progress."""
    c = state["combat"]
    leads = set() if c is None or c["bombard"] else {u for u in c["lead"].values() if u}
    out: dict[str, list[str]] = {}
    for uid, u in state["units"].items():
        if u["out"]:
            continue
        marks = []
        if uid in locked:
            marks.append("hh_locked")
        if u["lost"]:
            marks.append(f"hh_lost_{min(u['lost'], LOST_MARKERS)}")
        if u["formation"] == "column":
            marks.append("hh_column")
        if u["engaged"]:
            marks.append("hh_engaged")
        if u["wcm"] is not None:
            marks.append("hh_wcm")
        if u["must"]:
            marks.append("hh_must_attack")
        if uid in leads:
            marks.append("hh_lead")
        if marks:
            out[uid] = marks
    return out


def arrows(scenario: Scenario, state: State) -> list[dict[str, str]]:
    """The attack or bombardment in progress: from each attacking hex to each defending hex
    next to it (a bombardment: from the gun to its target)."""
    c = state["combat"]
    if c is None:
        return []
    if c["bombard"]:
        return [{"from": c["pair"][0], "to": c["targets"][0], "kind": "bombard"}]
    out: list[dict[str, str]] = []
    for uid in c["attackers"]:
        u = state["units"][uid]
        if u["out"]:
            continue
        for t in c["targets"]:
            if hex_distance(scenario.hex_at(u["hex"]), scenario.hex_at(t)) != 1:
                continue
            arrow = {"from": u["hex"], "to": t, "kind": "attack"}
            if arrow not in out:
                out.append(arrow)
    return out
