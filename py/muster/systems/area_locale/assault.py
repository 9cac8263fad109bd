"""area-locale combat: maneuver attacks and their blocking, assaults with leading pieces,
defensive artillery fire, losses by the choosing rules, cavalry pursuit, retreats.

Everything that needs a player's choice becomes a decision (``state["pending"]``) for the side
the notes name: the defender blocks, the enemy chooses among leading pieces, the owner among
the others and where its groups retreat. Results queue up in ``state["queue"]``; ``drain``
carries them out (``play.drain``, a handler a step, ``STEPS``) until a decision is needed.
No dice: the game is deterministic.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

from ... import play
from ...areamap import AreaScenario
from . import position as P
from . import tables
from .state import AreaLocaleState, asked, fighting, phasing, plain

State = AreaLocaleState  # the state's shape (state.py)
Action = dict[str, Any]
Event = dict[str, Any]
Step = play.Step  # a step of the queue (``state["queue"]``)
Outcome = play.Outcome
_DEFAULTS = tables.defaults()
# The notes' numbers of an assault by default (sequence.json "leading", "assault", "losses"),
# for readers outside the rules (the rules read the scenario's settings): a leading piece of
# this many steps or more among the attacker's (step 1); the result the attacker wins at
# (step 4); the steps the winner loses, and the loser beyond the result's size (step 5); what
# the pursuing cavalry loses (step 6).
ASSAULT: dict[str, int] = {
    "strong_steps": _DEFAULTS["leading"]["strong_steps"],
    "wins_at": _DEFAULTS["assault"]["wins_at"],
    "winner_loss": _DEFAULTS["losses"]["winner"],
    "loser_loss": _DEFAULTS["losses"]["loser"],
    "pursuer_loss": _DEFAULTS["losses"]["pursuer"],
}


def _log(key: str, **params: Any) -> Event:
    """A log event every side may read (nothing hidden in its parameters)."""
    return {"key": "log." + key, "params": params}


# -- leading pieces -----------------------------------------------------------------------------


def leading_options(
    scenario: AreaScenario,
    state: State,
    approach: str,
    role: str,
    standing: list[str] | None = None,
) -> list[list[str]]:
    """The sets of leading pieces allowed on ``approach`` ("A/N") for ``role``, "attacker"
    (step 1 of an assault) or "defender" (step 3): 1 narrow, up to 2 wide; infantry or cavalry,
    not mixed; the attacker's with one of 2 or more steps, the defender's of any steps, or
    none (``leading`` of sequence.json). ``standing``: the pieces on the approach, where the
    caller has them already (else they are looked for)."""
    a, n = approach.split("/")
    ap = scenario.approach(a, n)
    rule = P.settings(scenario)["leading"]
    types, mixed = rule["types"], rule["mixed"]
    strong = rule["strong_steps"] if role in rule["strong_for"] else 0
    obstructed = "cavalry_obstructed" in (ap.flags | scenario.approach(n, a).flags)
    here = [
        pid
        for pid in (P.at(state, a, n) if standing is None else standing)
        if P.kind(scenario, pid) in types
        and not (obstructed and P.kind(scenario, pid) == "cavalry")
    ]
    out: list[list[str]] = [[]] if role == "defender" else []
    for size in range(1, P.leaders(scenario, ap) + 1):
        for combo in combinations(here, size):
            kinds = {P.kind(scenario, pid) for pid in combo}
            if len(kinds) > 1 and not mixed:
                continue
            if any(state["pieces"][pid]["steps"] >= strong for pid in combo):
                out.append(list(combo))
    return out


def can_assault(scenario: AreaScenario, state: State, approach: str) -> bool:
    """True if the phasing side may assault from ``approach`` now (1 command)."""
    a, n = approach.split("/")
    side = phasing(state)
    if state["commands"] < P.cost(scenario, "assault") or P.demoralized(scenario, state, side):
        return False
    mine = P.at(state, a, n, side, scenario)
    blockers = P.at(state, n, a, P.other(scenario, side), scenario)
    if not mine or not blockers or any(state["pieces"][p]["assaulted"] for p in mine):
        return False
    return bool(leading_options(scenario, state, approach, "attacker"))


def start_assault(scenario: AreaScenario, state: State, approach: str) -> list[Event]:
    """An assault from ``approach`` on the enemy approach facing it: 1 command."""
    a, n = approach.split("/")
    state["commands"] -= P.cost(scenario, "assault")
    attackers = P.at(state, a, n)
    for pid in attackers:
        state["pieces"][pid]["assaulted"] = True
    state["assault"] = {
        "from": a,
        "to": n,
        "attackers": attackers,
        "defenders": P.at(state, n, a),
        "lead": None,
        "defence": None,
        "artillery": 0,
        "result": None,
        "won": None,
        "pursuit": None,
    }
    state["pending"] = {
        "kind": "lead",
        "side": state["side"],
        "options": leading_options(scenario, state, approach, "attacker"),
    }
    return [_log("al_assault", side=state["side"], frm=a, to=n)]


def _reveal(state: State, ids: list[str]) -> None:
    for pid in ids:
        state["pieces"][pid]["revealed"] = True


def _leads_events(scenario: AreaScenario, state: State, side: str, ids: list[str]) -> list[Event]:
    """The leading blocks: their count and steps for both sides (they are shown on the map
    this turn); which blocks they are, in the owner's own log only."""
    steps = sum(state["pieces"][p]["steps"] for p in ids)
    if not ids:
        return [_log("al_leads_none", side=side)]
    own = {"key": "log.al_leads_own", "params": {"units": ids, "steps": steps}}
    return [_log("al_leads", side=side, count=len(ids), steps=steps), {**own, "to": side}]


def choose_lead(
    scenario: AreaScenario, state: State, ids: list[str], fire: bool = False
) -> list[Event]:
    """Steps 1 to 3: a side chooses and reveals its leading pieces (kept in the order of their
    names: the enemy chooses among them, and sees them in the view). The defender's choice
    holds step 2 as well: ``fire`` if its artillery fires (offered only when it may)."""
    s = fighting(state)
    ids = P.by_name(scenario, ids)
    _reveal(state, ids)
    if s["lead"] is None:
        s["lead"] = ids
        return _leads_events(scenario, state, phasing(state), ids) + _defence_step(scenario, state)
    events: list[Event] = []
    guns = defensive_guns(scenario, state)
    if fire and guns:
        _reveal(state, guns)
        per = P.settings(scenario)["artillery_fire"]["per_step"]
        s["artillery"] = per * sum(state["pieces"][g]["steps"] for g in guns)
        events.append(_log("al_artillery_fire", steps=s["artillery"]))
    s["defence"] = ids
    defender = P.other(scenario, phasing(state))
    events += _leads_events(scenario, state, defender, ids)
    return events + _result(scenario, state)


def defensive_guns(scenario: AreaScenario, state: State) -> list[str]:
    """Step 2: the defender's artillery that may fire in this assault: in the attacked locale,
    in its reserve or on the attacked approach (``artillery_fire.from`` "locale"; "approach":
    there only), unless it bombarded or declared a bombardment on the previous turn."""
    s = fighting(state)
    where = list(s["defenders"])
    if P.settings(scenario)["artillery_fire"]["from"] == "locale":
        where += P.at(state, s["to"], None, P.other(scenario, phasing(state)), scenario)
    return [
        pid
        for pid in where
        if not state["pieces"][pid]["out"]
        and P.kind(scenario, pid) == "artillery"
        and not state["pieces"][pid]["declared"]
        and state["pieces"][pid]["bombarded"] < state["turn"] - 1
    ]


def _defence_step(scenario: AreaScenario, state: State) -> list[Event]:
    """The defender's one decision of the assault, asked whatever it holds: its leading pieces
    (step 3, none allowed), with fire or hold for its artillery (step 2) when it has a gun that
    may fire. A question of its own for the guns would tell the attacker they are there."""
    s = fighting(state)
    options = leading_options(scenario, state, f"{s['to']}/{s['from']}", "defender")
    state["pending"] = {
        "kind": "lead",
        "side": P.other(scenario, phasing(state)),
        "options": options,
        "fire": bool(defensive_guns(scenario, state)),
    }
    return []


def _result(scenario: AreaScenario, state: State) -> list[Event]:
    """Step 4: attacker's leading steps - artillery - terrain - defender's leading steps."""
    s = fighting(state)
    state["pending"] = None
    steps = state["pieces"]
    effect = scenario.approach(s["to"], s["from"]).effect
    attack = sum(steps[p]["steps"] for p in s["lead"])
    defence = sum(steps[p]["steps"] for p in s["defence"])
    result = attack - s["artillery"] - effect - defence
    s["result"] = result
    won = result >= P.settings(scenario)["assault"]["wins_at"]
    s["won"] = won
    attacker, defender = phasing(state), P.other(scenario, phasing(state))
    events = [
        _log(
            "al_result",
            attack=attack,
            artillery=s["artillery"],
            effect=effect,
            defence=defence,
            result=result,
            winner=attacker if won else defender,
        )
    ]
    losses = P.settings(scenario)["losses"]
    loser_loss = losses["loser"] + abs(result)
    winner_loss = losses["winner"]
    a_loss, d_loss = (winner_loss, loser_loss) if won else (loser_loss, winner_loss)
    queued: list[Step] = [
        _loss_item(s["lead"], s["attackers"], a_loss, attacker, defender),
        _loss_item(s["defence"], s["defenders"], d_loss, defender, attacker),
        {"do": "pursuit"},
    ]
    if won:
        queued.append({"do": "assault_won"})
    else:
        queued.append({"do": "back", "pieces": s["attackers"], "to": s["from"]})
    queued.append({"do": "assault_over"})
    play.first(plain(state), *queued)
    return events + drain(scenario, state)


def _loss_item(lead: list[str], all_: list[str], n: int, owner: str, enemy: str) -> dict[str, Any]:
    rest = [p for p in all_ if p not in lead]
    return {"do": "loss", "n": n, "lead": lead, "rest": rest, "owner": owner, "enemy": enemy}


# -- the queue of results -----------------------------------------------------------------------


def drain(scenario: AreaScenario, state: State) -> list[Event]:
    """Carry out queued results until a side must choose (``play.drain`` with ``STEPS``);
    once the queue has run out, a side with no piece left loses."""
    events = play.drain(scenario, plain(state), STEPS)
    if not state["pending"]:  # no side is asked: the queue ran out (no dice here)
        events += _check_end(scenario, state)
    return events


def _step_loss(scenario: AreaScenario, state: State, step: Step) -> Outcome:
    """``n`` steps lost, one at a time: by the leading pieces still there (the enemy chooses
    among them), then by the others (the owner chooses); asked only among two or more."""
    alive_lead = [p for p in step["lead"] if not state["pieces"][p]["out"]]
    pool, chooser = (
        (alive_lead, step["enemy"])
        if alive_lead
        else ([p for p in step["rest"] if not state["pieces"][p]["out"]], step["owner"])
    )
    if step["n"] <= 0 or not pool:
        return play.DONE, []
    if len(pool) > 1:
        state["pending"] = {"kind": "loss", "side": chooser, "options": pool}
        return play.WAIT, []
    return play.AGAIN, take_loss(scenario, state, pool[0])


def take_loss(scenario: AreaScenario, state: State, pid: str) -> list[Event]:
    """The piece chosen (or the only one) takes one step of the loss being applied (the first
    step of the queue, which ``drain`` takes off once no step of it is left)."""
    step = state["queue"][0]
    state["pending"] = None
    step["n"] -= 1
    return P.lose_step(scenario, state, pid, step.get("why", "assault"))


def _step_back(scenario: AreaScenario, state: State, step: Step) -> Outcome:
    """The attackers of a lost assault go back to the reserve of their locale."""
    for pid in step["pieces"]:
        p = state["pieces"][pid]
        if not p["out"]:
            p["approach"] = None
            p["locale"] = step["to"]
    return play.DONE, []


def _step_pursuit(scenario: AreaScenario, state: State, step: Step) -> Outcome:
    """Step 6 of an assault: the pursuit is offered (see ``_offer_pursuit``), or not."""
    return (play.DONE_WAIT if _offer_pursuit(scenario, state) else play.DONE), []


def _step_assault_won(scenario: AreaScenario, state: State, step: Step) -> Outcome:
    """The attacker won: the defenders fall back, then the attackers enter."""
    s = fighting(state)
    enter = {"do": "enter", "pieces": s["attackers"], "to": s["to"], "won": True}
    return play.DONE, _defenders_fall_back(scenario, state, s["to"], s["from"], enter)


def _step_enter(scenario: AreaScenario, state: State, step: Step) -> Outcome:
    """The winners enter the locale (its cavalry may then be asked to move on)."""
    events = _enter(scenario, state, step)
    return (play.DONE_WAIT if state["pending"] else play.DONE), events


def _step_assault_over(scenario: AreaScenario, state: State, step: Step) -> Outcome:
    """The assault is settled."""
    state["assault"] = None
    return play.DONE, []


def _step_maneuver_won(scenario: AreaScenario, state: State, step: Step) -> Outcome:
    """A maneuver attack not blocked: the defenders fall back, then the group enters."""
    enter = {"do": "enter", "pieces": step["pieces"], "to": step["to"], "won": False}
    return play.DONE, _defenders_fall_back(scenario, state, step["to"], step["from"], enter)


def _offer_pursuit(scenario: AreaScenario, state: State) -> bool:
    """Step 6: the side that may pursue (``pursuit.by``: by default the attacker, whatever the
    result, as the notes tie pursuit to no result) is asked whether its cavalry pursues
    whenever the other side has pieces left in the assault and cavalry may cross the border:
    all things both sides see. Its choices are its cavalry in the assault that did not lead
    (1 piece on a narrow approach, 2 on a wide one, by its own approach), or none; whether the
    pursued side has cavalry is checked when the cavalry pursues (see ``pursue``), so the
    question tells neither side anything of the other's hidden blocks."""
    s = fighting(state)
    by = P.settings(scenario)["pursuit"]["by"]
    if by == "winning_attacker" and not s["won"]:
        return False
    attacker, defender = phasing(state), P.other(scenario, phasing(state))
    if by == "winner" and not s["won"]:  # the defender's cavalry pursues the attacker
        side, frm, to, mine, lead, theirs = (
            defender,
            s["to"],
            s["from"],
            s["defenders"],
            s["defence"],
            s["attackers"],
        )
    else:
        side, frm, to, mine, lead, theirs = (
            attacker,
            s["from"],
            s["to"],
            s["attackers"],
            s["lead"],
            s["defenders"],
        )
    ap, there = scenario.approach(frm, to), scenario.approach(to, frm)
    if "cavalry_obstructed" in (ap.flags | there.flags):
        return False
    if not [p for p in theirs if not state["pieces"][p]["out"]]:
        return False
    cavalry = [
        p
        for p in mine
        if not state["pieces"][p]["out"] and P.kind(scenario, p) == "cavalry" and p not in lead
    ]
    most = P.leaders(scenario, ap)
    options = [list(c) for k in range(1, most + 1) for c in combinations(cavalry, k)]
    s["pursuit"] = {"side": side, "from": frm, "to": to, "pursued": theirs}
    state["pending"] = {"kind": "pursuit", "side": side, "options": options}
    return True


def pursuit_target(state: State) -> str:
    """The approach of the side a pursuit would strike ("locale/facing")."""
    chase = fighting(state)["pursuit"]
    return f"{chase['to']}/{chase['from']}"


def pursue(scenario: AreaScenario, state: State, ids: list[str]) -> list[Event]:
    """The pursuit: the pursued side loses the cavalry's steps less its own terrain effect; the
    pursuing cavalry loses 1 step (``losses.pursuer``). Not if the pursued side has cavalry
    (the notes: "if the defending side has no cavalry, pursuit is possible"): then the pursuit
    stops, and nothing is lost."""
    chase = fighting(state)["pursuit"]
    state["pending"] = None
    side = chase["side"]
    pursued = [p for p in chase["pursued"] if not state["pieces"][p]["out"]]
    if any(P.kind(scenario, p) == "cavalry" for p in pursued):
        return [_log("al_pursuit_stopped", side=side)] + drain(scenario, state)
    _reveal(state, ids)
    effect = scenario.approach(chase["to"], chase["from"]).effect
    loss = max(0, sum(state["pieces"][p]["steps"] for p in ids) - effect)
    other = P.other(scenario, side)
    events = [_log("al_pursuit", side=side, loss=loss)]
    play.first(
        plain(state),
        {
            "do": "loss",
            "n": loss,
            "lead": [],
            "rest": chase["pursued"],
            "owner": other,
            "enemy": side,
            "why": "pursuit",
        },
        {
            "do": "loss",
            "n": P.settings(scenario)["losses"]["pursuer"],
            "lead": [],
            "rest": ids,
            "owner": side,
            "enemy": other,
            "why": "pursuit",
        },
    )
    return events + drain(scenario, state)


def no_pursuit(scenario: AreaScenario, state: State) -> list[Event]:
    """The winner does not pursue."""
    state["pending"] = None
    return drain(scenario, state)


# -- retreats -----------------------------------------------------------------------------------


def _defenders_fall_back(
    scenario: AreaScenario,
    state: State,
    locale: str,
    came_from: str,
    enter: dict[str, Any],
) -> list[Event]:
    """Every defending piece in a lost locale retreats, group by group (the notes): artillery
    is eliminated; the attacked approach goes without loss; other approaches and the reserve
    (but cavalry) lose a step first. Then the attackers ``enter``."""
    side = P.other(scenario, phasing(state))
    groups: dict[str | None, list[str]] = {}  # by approach (None: the reserve, first)
    for pid in P.in_locale(scenario, state, locale, side):
        groups.setdefault(state["pieces"][pid]["approach"], []).append(pid)
    by_facing = dict(sorted(groups.items(), key=lambda kv: (kv[0] is not None, kv[0] or "")))
    events: list[Event] = []
    items = []
    for each in P.fall_back(scenario, by_facing, came_from):
        for pid in each.out:
            state["pieces"][pid]["out"] = True
            state["army"][side] -= state["pieces"][pid]["steps"]
            lost = "al_guns_lost" if P.kind(scenario, pid) == "artillery" else "al_eliminated"
            events.append(_log(lost, side=side, locale=locale))
        if not each.group:
            continue
        items.append(
            {
                "do": "group",
                "group": each.group,
                "frm": locale,
                "came_from": came_from,
                "loss": each.loss,
                "takers": each.takers,
                "side": side,
            }
        )
    play.first(plain(state), *items, enter)  # the attackers enter once the defenders are gone
    return events


def _step_group(scenario: AreaScenario, state: State, step: Step) -> Outcome:
    """One retreating group: its step loss (owner's choice), then where it goes (owner's
    choice).

    The owner is asked which block loses the step whenever the group has two or more blocks
    and loses a step, even when one block only may take it (a reserve group of one infantry
    and one cavalry): whether it is asked then depends only on what both sides see (how many
    blocks stand there, and the step lost, which the log and the army's morale show), never on
    the types of the other side's hidden blocks."""
    group = [p for p in step["group"] if not state["pieces"][p]["out"]]
    if not group:
        return play.DONE, []
    takers = [p for p in step["takers"] if not state["pieces"][p]["out"]]
    if step["loss"] > 0 and takers:
        if len(group) > 1:
            state["pending"] = {"kind": "group_loss", "side": step["side"], "options": takers}
            return play.WAIT, []
        step["loss"] -= 1
        return play.AGAIN, P.lose_step(scenario, state, takers[0], "retreat")
    options = P.retreat_options(scenario, state, group, step["frm"], step["came_from"])
    if len(options) > 1:
        state["pending"] = {
            "kind": "retreat",
            "side": step["side"],
            "options": options,
            "group": group,
        }
        return play.WAIT, []
    return play.DONE, _retreat_to(
        scenario, state, group, step["frm"], options[0] if options else None
    )


def group_loss(scenario: AreaScenario, state: State, pid: str) -> list[Event]:
    """The owner chooses which piece of a retreating group loses its step."""
    state["pending"] = None
    state["queue"][0]["loss"] -= 1
    return P.lose_step(scenario, state, pid, "retreat") + drain(scenario, state)


def retreat_to(scenario: AreaScenario, state: State, locale: str) -> list[Event]:
    """The owner chooses where a group retreats."""
    item = state["queue"].pop(0)
    group = asked(state)["group"]
    state["pending"] = None
    return _retreat_to(scenario, state, group, item["frm"], locale) + drain(scenario, state)


def _retreat_to(
    scenario: AreaScenario, state: State, group: list[str], frm: str, to: str | None
) -> list[Event]:
    side = P.side_of(scenario, group[0])
    if to is None:
        for pid in group:
            state["army"][side] -= state["pieces"][pid]["steps"]
            state["pieces"][pid]["out"] = True
        return [_log("al_no_retreat", side=side, locale=frm, count=len(group))]
    for pid in group:
        state["pieces"][pid].update(locale=to, approach=None)
    return [_log("al_retreat", side=side, frm=frm, to=to, count=len(group))]


def _enter(scenario: AreaScenario, state: State, item: dict[str, Any]) -> list[Event]:
    movers = [p for p in item["pieces"] if not state["pieces"][p]["out"]]
    for pid in movers:
        state["pieces"][pid].update(locale=item["to"], approach=None, moved=True)
    if item["won"]:
        state["won"].append(item["to"])
    if not movers:
        return []
    own = {"key": "log.al_move_own", "params": {"units": movers, "to": item["to"]}}
    events = [
        _log("al_enter", side=state["side"], to=item["to"], count=len(movers)),
        {**own, "to": state["side"]},
    ]
    if not item["won"]:
        events += offer_follow(scenario, state, movers, item["to"])
    return events


# -- maneuver attacks ---------------------------------------------------------------------------


def maneuver(
    scenario: AreaScenario, state: State, group: list[str], frm: str, to: str, from_reserve: bool
) -> list[Event]:
    """A group moves into a locale that holds the enemy. From a reserve, the defender may block
    with a piece of its reserve (an interrupt); otherwise the attack succeeds."""
    defender = P.other(scenario, phasing(state))
    events = [_log("al_maneuver", side=state["side"], frm=frm, to=to, count=len(group))]
    blockers = P.at(state, to, None, defender, scenario)
    if from_reserve and blockers:
        state["pending"] = {
            "kind": "block",
            "side": defender,
            "options": blockers,
            "group": group,
            "frm": frm,
            "to": to,
        }
        return events
    return events + _maneuver_won(scenario, state, group, frm, to)


def _maneuver_won(
    scenario: AreaScenario, state: State, group: list[str], frm: str, to: str
) -> list[Event]:
    play.first(
        plain(state),
        {"do": "maneuver_won", "pieces": group, "from": frm, "to": to},
    )
    return drain(scenario, state)


def block(scenario: AreaScenario, state: State, pid: str | None) -> list[Event]:
    """The defender blocks with ``pid`` (to the approach facing the attacker), or lets it in."""
    pending = asked(state)
    state["pending"] = None
    group, frm, to = pending["group"], pending["frm"], pending["to"]
    if pid is None:
        return [_log("al_not_blocked", side=P.side_of(scenario, group[0]))] + _maneuver_won(
            scenario, state, group, frm, to
        )
    state["pieces"][pid]["approach"] = frm
    # The blocked group stops on its own approach facing the blocker (``blocked_attack``), or
    # in its own reserve.
    facing = to if P.settings(scenario)["blocked_attack"]["attacker_to"] == "own_approach" else None
    for g in group:
        state["pieces"][g].update(locale=frm, approach=facing)
    at = P.position(state["pieces"][group[0]])
    attacker = P.side_of(scenario, group[0])
    own = {"key": "log.al_stopped_own", "params": {"units": group, "at": at}}
    return [
        _log("al_blocked", side=P.side_of(scenario, pid), frm=frm, to=to),
        _log("al_stopped", side=attacker, at=at, count=len(group)),
        {**own, "to": attacker},
    ]


# -- cavalry moving on --------------------------------------------------------------------------


def offer_follow(
    scenario: AreaScenario, state: State, group: list[str], locale: str
) -> list[Event]:
    """Cavalry that moved into a locale may move on to one of its approaches at once: the
    cavalry of the group (``cavalry_follow.group`` "with_others"; "cavalry_only": only when
    the whole group is cavalry), for ``cavalry_follow.cost`` commands."""
    side = phasing(state)
    rule = P.settings(scenario)["cavalry_follow"]
    cavalry = [p for p in group if P.kind(scenario, p) == "cavalry"]
    if not cavalry or (rule["group"] == "cavalry_only" and len(cavalry) < len(group)):
        return []
    if state["commands"] < rule["cost"]:
        return []
    targets = [
        n
        for n in scenario.neighbors[locale]
        if scenario.passable(locale, n)
        and P.enemy_in(scenario, state, n, side)
        and "cavalry_obstructed" not in scenario.approach(locale, n).flags
    ]
    if targets:
        state["pending"] = {
            "kind": "follow",
            "side": side,
            "options": targets,
            "group": cavalry,
            "locale": locale,
        }
    return []


def follow(scenario: AreaScenario, state: State, facing: str | None) -> list[Event]:
    """The cavalry moves on to the approach facing ``facing``, or stays in the reserve."""
    pending = asked(state)
    state["pending"] = None
    if facing is not None:
        state["commands"] -= P.settings(scenario)["cavalry_follow"]["cost"]
        for pid in pending["group"]:
            state["pieces"][pid]["approach"] = facing
        return [_log("al_follow", side=state["side"], locale=pending["locale"], to=facing)]
    return []


# -- the end ------------------------------------------------------------------------------------


def _check_end(scenario: AreaScenario, state: State) -> list[Event]:
    """A side with no piece left loses at once."""
    if state["result"]:
        return []
    for side in (s["id"] for s in scenario.data["sides"]):
        if not any(P.side_of(scenario, pid) == side for pid in P.live(state)):
            state["pending"] = None
            winner = P.other(scenario, side)
            return play.game_over(plain(state), score(scenario, state), winner=winner, wiped=side)
    return []


def score(scenario: AreaScenario, state: State) -> dict[str, int]:
    """Objective points of the locales each side holds (none if ``victory.objectives`` is
    false)."""
    sides = [s["id"] for s in scenario.data["sides"]]
    counted = play.objectives(scenario) if P.settings(scenario)["victory"]["objectives"] else ()
    return play.objective_points(sides, state["held"], counted)


# The steps of the queue (``play.drain``, which takes the state as a plain dict), by their
# ``"do"``.
STEPS: dict[str, Callable[[AreaScenario, Any, Step], Outcome]] = {
    "loss": _step_loss,
    "group": _step_group,
    "back": _step_back,
    "pursuit": _step_pursuit,
    "assault_won": _step_assault_won,
    "enter": _step_enter,
    "assault_over": _step_assault_over,
    "maneuver_won": _step_maneuver_won,
}
