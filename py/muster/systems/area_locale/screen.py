"""What an area-locale screen shows beside the blocks (``docs/play-view.md``): the prompt (who
acts, what is asked, why a choice is forced), the legal actions grouped into labelled choices,
markers on blocks and the attacks in progress drawn as arrows.

Nothing here may tell a side what the other side's hidden blocks are. The prompt every side
gets (``prompt``) holds only what both sides see; the side that decides gets its own
(``prompt_for``), which may name its own blocks (the ones that must move) or say what only it
knows (its guns may fire). Choices go to the deciding side only, and name only blocks it may
see (its own, and the enemy's revealed leading blocks it chooses among for losses). Markers
are put on blocks the viewer sees; arrows join places both sides see.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from ... import flow
from ...areamap import AreaScenario
from ...ruleset import Action, choice, item
from . import position as P
from .assault import pursuit_target
from .sideview import shown_blocks
from .state import AreaLocaleState, asked, fighting

State = AreaLocaleState  # the state's shape (state.py)

# Parameter name -> kind (docs/play-view.md) of every parameter an area-locale message emits
# beyond ``ruleset.COMMON_WORDS`` (side, unit(s), frm, to, at, locale, approach, count, n, cost,
# turn, winner, points are common).
WORDS: dict[str, str] = {
    "phase": "word:al_phase.",
    "next": "word:al_phase.",
    "reason": "word:al_why.",
    "steps": "count",
    "loss": "count",
    "effect": "number",
    "attack": "number",
    "artillery": "number",
    "defence": "number",
    "result": "number",
    "path": "places",
    "places": "places",
    "here": "text",  # a locale's name, in a refusal (words only)
}

# Marker ids, in the order a block lists them (legend: ``marker.<id>``, sign ``marker_sign.<id>``).
MARKERS = ("lead", "declared", "fired", "revealed", "must_move", "moved", "assaulted")


# -- the prompt -----------------------------------------------------------------------------------


def prompt(rules: Any, scenario: AreaScenario, state: State) -> dict[str, Any] | None:
    """The prompt both sides may read: who acts and what is asked, nothing the deciding side
    alone knows."""
    return prompt_for(rules, scenario, state, None)


def prompt_for(
    rules: Any, scenario: AreaScenario, state: State, viewer: str | None
) -> dict[str, Any] | None:
    """The prompt on ``viewer``'s screen: the deciding side's own (which may name its blocks),
    or the one both sides read."""
    if state["result"]:
        return None
    side = rules.decider(scenario, state)
    mine = viewer is not None and viewer == side
    pending = state["pending"]
    # Whether cavalry may move on tells what the blocks that moved in are: the other side is not
    # told that it is asked (to it the phasing side is still moving).
    if pending and (pending["kind"] != "follow" or mine):
        return _decision_prompt(scenario, state, pending, mine)
    # The commands left as ``count``: the words may take its plural forms.
    params: dict[str, Any] = {"side": side, "count": state["commands"]}
    shown: dict[str, Any] = {"key": f"prompt.al_{state['phase']}", "params": params, "side": side}
    if mine and state["phase"] == "movement":
        must = rules._compulsory(scenario, state)
        if must:
            places = sorted({P.position(state["pieces"][pid]) for pid in must})
            why = {"units": P.by_name(scenario, must), "places": places, "count": len(must)}
            shown["why"] = {"key": "why.al_must_move", "params": why}
    return shown


def _decision_prompt(
    scenario: AreaScenario, state: State, pending: dict[str, Any], mine: bool
) -> dict[str, Any]:
    """An interrupt: the deciding side and what it decides; never the phasing side's commands."""
    kind, side = pending["kind"], pending["side"]
    params: dict[str, Any] = {"side": side}
    why: dict[str, Any]
    if kind == "lead":
        s = fighting(state)
        attacker = s["lead"] is None
        frm, to = (s["from"], s["to"]) if attacker else (s["to"], s["from"])
        most = P.leaders(scenario, scenario.approach(frm, to))
        if attacker:
            kind = "lead_attacker"
            params["approach"] = f"{frm}/{to}"
            why = {"key": "why.al_lead", "params": {"approach": f"{frm}/{to}", "n": most}}
        else:
            kind = "lead_defender"
            params.update(frm=f"{to}/{frm}", to=f"{frm}/{to}")
            # Whether the defender's guns may fire is its own secret until they do.
            guns = "why.al_defend_guns" if mine and pending.get("fire") else "why.al_defend"
            why = {"key": guns, "params": {"approach": f"{frm}/{to}", "n": most}}
    elif kind == "loss":
        entry = state["queue"][0]
        reason = entry.get("why", "assault")
        own = side == entry["owner"]
        params.update(n=entry["n"], reason=reason)
        why = {
            "key": "why.al_loss_own" if own else "why.al_loss_enemy",
            "params": {"n": entry["n"], "reason": reason},
        }
    elif kind == "group_loss":
        at = _group_place(state, state["queue"][0]["group"])
        params["at"] = at
        why = {"key": "why.al_group_loss", "params": {"at": at, "locale": state["queue"][0]["frm"]}}
    elif kind == "retreat":
        entry = state["queue"][0]
        at = _group_place(state, pending["group"])
        params.update(at=at, count=len(pending["group"]))
        why = {"key": "why.al_retreat", "params": {"locale": entry["frm"]}}
    elif kind == "pursuit":
        why = {"key": "why.al_pursuit", "params": {"at": pursuit_target(state)}}
    elif kind == "block":
        params.update(frm=pending["frm"], to=pending["to"])
        why = {
            "key": "why.al_block",
            "params": {"frm": pending["frm"], "to": pending["to"], "count": len(pending["group"])},
        }
    else:  # follow (its own side's screen only)
        params["locale"] = pending["locale"]
        cost = P.settings(scenario)["cavalry_follow"]["cost"]
        why = {"key": "why.al_follow", "params": {"locale": pending["locale"], "cost": cost}}
    return {"key": f"prompt.al_{kind}", "params": params, "side": side, "why": why}


def _group_place(state: State, group: list[str]) -> str:
    """Where a group of blocks stands (they stand together): its first block still in play."""
    alive = [pid for pid in group if not state["pieces"][pid]["out"]] or group
    return P.position(state["pieces"][alive[0]])


# -- choices --------------------------------------------------------------------------------------


def choices(
    rules: Any, scenario: AreaScenario, state: State, legal: list[Action]
) -> list[dict[str, Any]]:
    """Every legal action in one item of one choice, each labelled (``CHOICE_ITEMS``, by the
    action's type); the choice that ends the phase or the turn last."""
    c = _Choices(rules, scenario, state, legal)
    for action in legal:
        CHOICE_ITEMS.get(action["type"], _end_item)(c, action)
    order = ("move", "road", "assault", "bombard", "declare", "select")
    ranked = sorted(
        c.groups.items(),
        key=lambda kv: (kv[0][0] == "end", order.index(kv[0][0]) if kv[0][0] in order else -1),
    )
    return [g for _, g in ranked]


class _Choices:
    """The choices being made of the legal actions (``choices``), each under its key."""

    def __init__(self, rules: Any, scenario: AreaScenario, state: State, legal: list[Action]):
        self.rules, self.scenario, self.state, self.legal = rules, scenario, state, legal
        self.pending = state["pending"] or {}
        self.groups: dict[tuple[Any, ...], dict[str, Any]] = {}
        self.costs: dict[str, int] = {}
        if state["selection"] and any(a["type"] == "move" for a in legal):
            found = rules.destinations(scenario, state, state["selection"])
            self.costs = {to: cost for to, cost, _ in found}

    def group(self, key: tuple[Any, ...], label: str, params: dict[str, Any]) -> dict[str, Any]:
        """The choice under ``key``, made with its label the first time."""
        if key not in self.groups:
            self.groups[key] = choice(label, params)
        return self.groups[key]


def _select_item(c: _Choices, action: Action) -> None:
    pid = action["unit"]
    place = P.position(c.state["pieces"][pid])
    chosen = pid in c.state["selection"]
    g = c.group(("select", place), "choice.al_select", {"at": place})
    key = "action.al_unselect" if chosen else "action.al_select"
    g["items"].append(item(action, key, {"unit": pid}, at=None))


def _move_item(c: _Choices, action: Action) -> None:
    selection = list(c.state["selection"])
    g = c.group(("move",), "choice.al_move", {"units": selection, "count": len(selection)})
    key, params = _move_label(c.state, action, c.costs[action["to"]])
    g["items"].append(_tap_place(item(action, key, params)))


def _road_item(c: _Choices, action: Action) -> None:
    g = c.group(("road",), "choice.al_road", {"unit": action["unit"]})
    path = action["path"]
    frm = c.state["pieces"][action["unit"]]["locale"]
    params = {"to": path[-1], "path": path, "cost": c.rules._road_cost(c.scenario, frm, path)}
    g["items"].append(_tap_place(item(action, "action.al_road", params, at=path[-1])))


def _assault_item(c: _Choices, action: Action) -> None:
    ap = action["approach"]
    a, n = ap.split("/")
    g = c.group(("assault",), "choice.al_assault", {"count": c.state["commands"]})
    params = {"approach": a, "to": n, "cost": 1}  # from one locale on the next
    g["items"].append(item(action, "action.al_assault", params, at=ap))


def _gun_item(c: _Choices, action: Action) -> None:
    """A bombardment or its declaration: a tap on the gun; its target is the rules' (the
    label names it, an arrow shows it)."""
    kind, pid = action["type"], action["unit"]
    target = c.rules._target(c.scenario, c.state, pid) or []
    at = P.position(c.state["pieces"][target[0]]) if target else None
    g = c.group((kind,), f"choice.al_{kind}", {})
    shown = item(action, f"action.al_{kind}", {"unit": pid, "at": at})
    shown["at"] = None
    g["items"].append(shown)


def _lead_choice_item(c: _Choices, action: Action) -> None:
    _lead_item(c.scenario, c.state, action, c.group)


def _take_step_item(c: _Choices, action: Action) -> None:
    g = _loss_choice(c.state, c.group)
    g["items"].append(item(action, "action.al_take_step", {"unit": action["unit"]}))


def _retreat_item(c: _Choices, action: Action) -> None:
    units = list(c.pending["group"])
    g = c.group(("retreat",), "choice.al_retreat", {"units": units, "count": len(units)})
    g["items"].append(item(action, "action.al_retreat", {"to": action["to"]}))


def _pursue_item(c: _Choices, action: Action) -> None:
    g = c.group(("pursue",), "choice.al_pursue", {"at": pursuit_target(c.state)})
    units = action["units"]
    key = "action.al_pursue" if units else "action.al_pursue_none"
    params = {"units": units, "count": len(units)} if units else {}
    unit = units[0] if len(units) == 1 else None
    g["items"].append(item(action, key, params, unit=unit))


def _block_item(c: _Choices, action: Action) -> None:
    frm, to = c.pending["frm"], c.pending["to"]
    g = c.group(("block",), "choice.al_block", {"frm": frm, "to": to})
    if action.get("unit"):
        params = {"unit": action["unit"], "at": f"{to}/{frm}"}
        g["items"].append(item(action, "action.al_block", params, at=f"{to}/{frm}"))
    else:
        g["items"].append(item(action, "action.al_no_block", {"to": to}, at=None))


def _follow_item(c: _Choices, action: Action) -> None:
    locale = c.pending["locale"]
    g = c.group(("follow",), "choice.al_follow", {"locale": locale})
    if action.get("to"):
        at = f"{locale}/{action['to']}"
        g["items"].append(item(action, "action.al_follow", {"at": at}, at=at))
    else:
        g["items"].append(item(action, "action.al_stay", {"locale": locale}, at=None))


def _end_item(c: _Choices, action: Action) -> None:
    """The end of the phase or of the turn, with what it leaves unused."""
    g = c.group(("end",), "choice.al_end", {})
    g["end"] = True
    key, params = _end_label(c.rules, c.scenario, c.state, action)
    ending = item(action, key, params)
    unused = _unused(c.scenario, c.state, c.legal)
    if unused:
        ending["unused"] = unused
    g["items"].append(ending)


# Each action's item in its choice, by the action's type (any other ends the phase or turn).
CHOICE_ITEMS: dict[str, Callable[[_Choices, Action], None]] = {
    "select": _select_item,
    "move": _move_item,
    "road": _road_item,
    "assault": _assault_item,
    "bombard": _gun_item,
    "declare": _gun_item,
    "lead": _lead_choice_item,
    "take_step": _take_step_item,
    "retreat": _retreat_item,
    "pursue": _pursue_item,
    "block": _block_item,
    "follow": _follow_item,
    "end_phase": _end_item,
    "end_turn": _end_item,
}


def _tap_place(shown: dict[str, Any]) -> dict[str, Any]:
    """An item taken by a tap on its place only: the group it moves is already selected."""
    shown["unit"] = None
    return shown


def _move_label(state: State, action: Action, cost: int) -> tuple[str, dict[str, Any]]:
    """The label of a move of the selected group, by the case of the notes it is."""
    to = action["to"]
    first = state["pieces"][state["selection"][0]]
    if action.get("attack"):
        return "action.al_attack", {"to": to, "cost": cost}
    if "/" in to:
        return "action.al_move_up", {"to": to, "cost": cost}
    if first["approach"] is not None and to == first["locale"]:
        if cost == 0:
            return "action.al_move_back_free", {"to": to}
        return "action.al_move_back", {"to": to, "cost": cost}
    return "action.al_move", {"to": to, "cost": cost}


def _lead_item(scenario: AreaScenario, state: State, action: Action, group: Any) -> None:
    """A set of leading blocks; for a defender whose guns may fire, with fire or hold."""
    s = fighting(state)
    attacker = s["lead"] is None
    ap = f"{s['from']}/{s['to']}" if attacker else f"{s['to']}/{s['from']}"
    units = action["units"]
    steps = sum(state["pieces"][pid]["steps"] for pid in units)
    params = {"units": units, "count": len(units), "steps": steps} if units else {}
    unit = units[0] if len(units) == 1 else None
    if "fire" in action:
        how = "fire" if action["fire"] else "hold"
        g = group(("lead", how), f"choice.al_lead_{how}", {"approach": ap})
        key = f"action.al_lead_{how}" if units else f"action.al_none_{how}"
    else:
        g = group(("lead",), "choice.al_lead", {"approach": ap})
        key = "action.al_lead" if units else "action.al_lead_none"
    g["items"].append(item(action, key, params, unit=unit))


def _loss_choice(state: State, group: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    pending = asked(state)
    entry = state["queue"][0]
    if pending["kind"] == "group_loss":
        return group(("loss",), "choice.al_group_loss", {"at": _group_place(state, entry["group"])})
    params = {"n": entry["n"], "reason": entry.get("why", "assault")}
    return group(("loss",), "choice.al_loss", params)


def _unused(scenario: AreaScenario, state: State, legal: list[Action]) -> dict[str, Any] | None:
    """The commands an ending leaves unused: those left when no later phase of the player turn
    spends commands (movement, assault) and a block could still spend them now."""
    phases = P.phases(scenario)
    later = phases[phases.index(state["phase"]) + 1 :]
    if any(p in ("movement", "assault") for p in later):
        return None
    if not any(a["type"] in ("select", "move", "road", "assault") for a in legal):
        return None
    return flow.unused_label("unused.commands", state["commands"])


def _end_label(
    rules: Any, scenario: AreaScenario, state: State, action: Action
) -> tuple[str, dict[str, Any]]:
    """What ending the phase (or the turn) does: the phase it goes on to (past any that pass by
    themselves), the side that plays next, or the end of the game."""
    after = copy.deepcopy(state)
    rules.apply(scenario, after, action)
    phase = state["phase"]
    if after["result"]:
        return "action.al_end_game", {"phase": phase}
    if after["side"] != state["side"]:
        return "action.al_end_turn", {"phase": phase, "side": after["side"]}
    return "action.al_end_phase", {"phase": phase, "next": after["phase"]}


# -- markers and arrows ---------------------------------------------------------------------------


def markers(rules: Any, scenario: AreaScenario, state: State, viewer: str) -> dict[str, list[Any]]:
    """Block id as ``viewer`` sees it -> its markers: only on blocks it sees (its own, and the
    enemy's revealed ones), and what only the owner knows on its own blocks only."""
    assault = state["assault"] or {}
    leading = set(assault.get("lead") or []) | set(assault.get("defence") or [])
    phasing = state["side"] == viewer and not state["result"]
    must = set(rules._compulsory(scenario, state)) if phasing else set()
    if state["phase"] != "movement":
        must = set()
    out: dict[str, list[str]] = {}
    for block in shown_blocks(scenario, state, viewer):
        if block["hidden"]:
            continue
        pid = block["id"]
        p = state["pieces"][pid]
        own = block["side"] == viewer
        fired = p["bombarded"] == state["turn"] and block["side"] == state["side"]
        on = {
            "lead": pid in leading,
            "declared": p["declared"],
            "fired": fired,
            "revealed": p["revealed"],
            "must_move": pid in must,
            "moved": own and phasing and p["moved"] and not fired,
            "assaulted": own and phasing and p["assaulted"],
        }
        shown = [m for m in MARKERS if on[m]]
        if shown:
            out[pid] = shown
    return out


def arrows(rules: Any, scenario: AreaScenario, state: State, viewer: str) -> list[dict[str, Any]]:
    """Attacks in progress, between places both sides see: the assault (approach to approach),
    a maneuver attack awaiting the defender's block (locale to locale), and in the bombardment
    phase each declared gun of the phasing side to its target."""
    out: list[dict[str, Any]] = []
    s = state["assault"]
    if s:
        frm, to = f"{s['from']}/{s['to']}", f"{s['to']}/{s['from']}"
        out.append({"from": frm, "to": to, "kind": "assault"})
    pending = state["pending"]
    if pending and pending["kind"] == "block":
        out.append({"from": pending["frm"], "to": pending["to"], "kind": "maneuver"})
    if state["phase"] == "bombardment" and not state["result"]:
        for pid in rules._own(scenario, state):
            p = state["pieces"][pid]
            target = rules._target(scenario, state, pid) if p["declared"] else None
            if target:
                at = P.position(state["pieces"][target[0]])
                arrow = {"from": P.position(p), "to": at, "kind": "bombardment"}
                if arrow not in out:
                    out.append(arrow)
    # In an order that comes from the places alone (the guns' ids would give another).
    return sorted(out, key=lambda a: (a["kind"] != "assault", a["kind"], a["from"], a["to"]))
