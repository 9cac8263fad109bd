"""area-locale combat: maneuver attacks and their blocking, assaults with leading pieces,
defensive artillery fire, losses by the choosing rules, cavalry pursuit, retreats.

Everything that needs a player's choice becomes a decision (``state["pending"]``) for the side
the notes name: the defender blocks, the enemy chooses among leading pieces, the owner among
the others and where its groups retreat. Results queue up in ``state["queue"]``; ``drain``
carries them out until a decision is needed. No dice: the game is deterministic.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from ...areamap import AreaScenario
from . import pieces as P

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]
# The notes' numbers of an assault: a leading piece of this many steps or more among the
# attacker's (step 1); the result the attacker wins at (step 4); the steps the winner loses,
# and the loser beyond the result's size (step 5); what the pursuing cavalry loses (step 6).
ASSAULT = {"strong_steps": 2, "wins_at": 1, "winner_loss": 1, "loser_loss": 1, "pursuer_loss": 1}


def _log(key: str, **params: Any) -> Event:
    """A log event every side may read (nothing hidden in its parameters)."""
    return {"key": "log." + key, "params": params}


# -- leading pieces -----------------------------------------------------------------------------


def leading_options(
    scenario: AreaScenario, state: State, approach: str, may_be_empty: bool
) -> list[list[str]]:
    """The sets of leading pieces allowed on ``approach`` ("A/N"): 1 narrow, up to 2 wide;
    infantry or cavalry, not mixed; one of 2 or more steps (step 1 of an assault)."""
    a, n = approach.split("/")
    ap = scenario.approach(a, n)
    obstructed = "cavalry_obstructed" in (ap.flags | scenario.approach(n, a).flags)
    here = [
        pid
        for pid in P.at(state, a, n)
        if P.kind(scenario, pid) in ("infantry", "cavalry")
        and not (obstructed and P.kind(scenario, pid) == "cavalry")
    ]
    out: list[list[str]] = [[]] if may_be_empty else []
    for size in range(1, ap.leaders + 1):
        for combo in combinations(here, size):
            kinds = {P.kind(scenario, pid) for pid in combo}
            strong = any(state["pieces"][pid]["steps"] >= ASSAULT["strong_steps"] for pid in combo)
            if len(kinds) == 1 and strong:
                out.append(list(combo))
    return out


def can_assault(scenario: AreaScenario, state: State, approach: str) -> bool:
    """True if the phasing side may assault from ``approach`` now (1 command)."""
    a, n = approach.split("/")
    side = state["side"]
    if state["commands"] < P.COMMANDS["assault"] or P.demoralized(scenario, state, side):
        return False
    mine = P.at(state, a, n, side, scenario)
    blockers = P.at(state, n, a, P.other(scenario, side), scenario)
    if not mine or not blockers or any(state["pieces"][p]["assaulted"] for p in mine):
        return False
    return bool(leading_options(scenario, state, approach, may_be_empty=False))


def start_assault(scenario: AreaScenario, state: State, approach: str) -> list[Event]:
    """An assault from ``approach`` on the enemy approach facing it: 1 command."""
    a, n = approach.split("/")
    state["commands"] -= P.COMMANDS["assault"]
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
    }
    state["pending"] = {
        "kind": "lead",
        "side": state["side"],
        "options": leading_options(scenario, state, approach, may_be_empty=False),
    }
    return [_log("al_assault", side=state["side"], frm=a, to=n)]


def _reveal(state: State, ids: list[str]) -> None:
    for pid in ids:
        state["pieces"][pid]["revealed"] = True


def _leads_events(scenario: AreaScenario, state: State, side: str, ids: list[str]) -> list:
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
    s = state["assault"]
    ids = P.by_name(scenario, ids)
    _reveal(state, ids)
    if s["lead"] is None:
        s["lead"] = ids
        return _leads_events(scenario, state, state["side"], ids) + _defence_step(scenario, state)
    events: list[Event] = []
    guns = defensive_guns(scenario, state)
    if fire and guns:
        _reveal(state, guns)
        per = P.settings(scenario)["artillery_fire"]["per_step"]
        s["artillery"] = per * sum(state["pieces"][g]["steps"] for g in guns)
        events.append(_log("al_artillery_fire", steps=s["artillery"]))
    s["defence"] = ids
    defender = P.other(scenario, state["side"])
    events += _leads_events(scenario, state, defender, ids)
    return events + _result(scenario, state)


def defensive_guns(scenario: AreaScenario, state: State) -> list[str]:
    """Step 2: the defender's artillery that may fire in this assault: on the defending
    approach, unless it bombarded or declared a bombardment on the previous turn."""
    s = state["assault"]
    return [
        pid
        for pid in s["defenders"]
        if not state["pieces"][pid]["out"]
        and P.kind(scenario, pid) == "artillery"
        and not state["pieces"][pid]["declared"]
        and state["pieces"][pid]["bombarded"] < state["turn"] - 1
    ]


def _defence_step(scenario: AreaScenario, state: State) -> list[Event]:
    """The defender's one decision of the assault, asked whatever it holds: its leading pieces
    (step 3, none allowed), with fire or hold for its artillery (step 2) when it has a gun that
    may fire. A question of its own for the guns would tell the attacker they are there."""
    s = state["assault"]
    options = leading_options(scenario, state, f"{s['to']}/{s['from']}", may_be_empty=True)
    state["pending"] = {
        "kind": "lead",
        "side": P.other(scenario, state["side"]),
        "options": options,
        "fire": bool(defensive_guns(scenario, state)),
    }
    return []


def _result(scenario: AreaScenario, state: State) -> list[Event]:
    """Step 4: attacker's leading steps - artillery - terrain - defender's leading steps."""
    s = state["assault"]
    state["pending"] = None
    steps = state["pieces"]
    effect = scenario.approach(s["to"], s["from"]).effect
    attack = sum(steps[p]["steps"] for p in s["lead"])
    defence = sum(steps[p]["steps"] for p in s["defence"])
    result = attack - s["artillery"] - effect - defence
    s["result"] = result
    won = result >= ASSAULT["wins_at"]
    attacker, defender = state["side"], P.other(scenario, state["side"])
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
    loser_loss = ASSAULT["loser_loss"] + abs(result)
    winner_loss = ASSAULT["winner_loss"]
    a_loss, d_loss = (winner_loss, loser_loss) if won else (loser_loss, winner_loss)
    queue: list[dict[str, Any]] = [
        _loss_item(s["lead"], s["attackers"], a_loss, attacker, defender),
        _loss_item(s["defence"], s["defenders"], d_loss, defender, attacker),
    ]
    if won:
        queue.append({"do": "pursuit"})
        queue.append({"do": "assault_won"})
    else:
        queue.append({"do": "back", "pieces": s["attackers"], "to": s["from"]})
    queue.append({"do": "assault_over"})
    state["queue"] = queue + state["queue"]
    return events + drain(scenario, state)


def _loss_item(lead: list[str], all_: list[str], n: int, owner: str, enemy: str) -> dict:
    rest = [p for p in all_ if p not in lead]
    return {"do": "loss", "n": n, "lead": lead, "rest": rest, "owner": owner, "enemy": enemy}


# -- the queue of results -----------------------------------------------------------------------


def drain(scenario: AreaScenario, state: State) -> list[Event]:
    """Carry out queued results until a side must choose."""
    events: list[Event] = []
    queue = state["queue"]
    while queue and not state["result"]:
        item = queue[0]
        do = item["do"]
        if do == "loss":
            alive_lead = [p for p in item["lead"] if not state["pieces"][p]["out"]]
            pool, chooser = (
                (alive_lead, item["enemy"])
                if alive_lead
                else (
                    [p for p in item["rest"] if not state["pieces"][p]["out"]],
                    item["owner"],
                )
            )
            if item["n"] <= 0 or not pool:
                queue.pop(0)
                continue
            if len(pool) > 1:
                state["pending"] = {"kind": "loss", "side": chooser, "options": pool}
                return events
            events += take_loss(scenario, state, pool[0])
            continue
        if do == "group":
            if _group_step(scenario, state, item, events):
                return events
            continue
        queue.pop(0)
        if do == "back":
            for pid in item["pieces"]:
                p = state["pieces"][pid]
                if not p["out"]:
                    p["approach"] = None
                    p["locale"] = item["to"]
        elif do == "pursuit":
            if _offer_pursuit(scenario, state):
                return events
        elif do == "assault_won":
            s = state["assault"]
            enter = {"do": "enter", "pieces": s["attackers"], "to": s["to"], "won": True}
            hit = f"{s['to']}/{s['from']}"
            events += _defenders_fall_back(scenario, state, s["to"], s["from"], hit, enter)
        elif do == "enter":
            events += _enter(scenario, state, item)
            if state["pending"]:
                return events
        elif do == "assault_over":
            state["assault"] = None
        elif do == "maneuver_won":
            enter = {"do": "enter", "pieces": item["pieces"], "to": item["to"], "won": False}
            events += _defenders_fall_back(
                scenario, state, item["to"], item["from"], item["hit"], enter
            )
    events += _check_end(scenario, state)
    return events


def take_loss(scenario: AreaScenario, state: State, pid: str) -> list[Event]:
    """The piece chosen (or the only one) takes one step of the loss being applied."""
    item = state["queue"][0]
    state["pending"] = None
    item["n"] -= 1
    if item["n"] <= 0:
        state["queue"].pop(0)
    return P.lose_step(scenario, state, pid, item.get("why", "assault"))


def _offer_pursuit(scenario: AreaScenario, state: State) -> bool:
    """Step 6: a winning attacker is asked whether its cavalry pursues whenever the loser has
    pieces left on the attacked approach and cavalry may cross it: all things both sides see.
    Its choices are its cavalry that did not lead (1 piece on a narrow approach, 2 on a wide
    one), or none; whether the loser has cavalry is checked when the cavalry pursues (see
    ``pursue``), so the question tells neither side anything of the other's hidden blocks."""
    s = state["assault"]
    a, n = s["from"], s["to"]
    ap, there = scenario.approach(a, n), scenario.approach(n, a)
    if "cavalry_obstructed" in (ap.flags | there.flags):
        return False
    if not [p for p in s["defenders"] if not state["pieces"][p]["out"]]:
        return False
    cavalry = [
        p
        for p in s["attackers"]
        if not state["pieces"][p]["out"] and P.kind(scenario, p) == "cavalry" and p not in s["lead"]
    ]
    options = [list(c) for k in range(1, ap.leaders + 1) for c in combinations(cavalry, k)]
    state["pending"] = {"kind": "pursuit", "side": state["side"], "options": options}
    return True


def pursue(scenario: AreaScenario, state: State, ids: list[str]) -> list[Event]:
    """The pursuit: the loser loses the cavalry's steps less its terrain effect; the pursuing
    cavalry loses 1 step. Not if the loser has cavalry (the notes: "if the defending side has
    no cavalry, pursuit is possible"): then the pursuit stops, and nothing is lost."""
    s = state["assault"]
    state["pending"] = None
    losers = [p for p in s["defenders"] if not state["pieces"][p]["out"]]
    if any(P.kind(scenario, p) == "cavalry" for p in losers):
        return [_log("al_pursuit_stopped", side=state["side"])] + drain(scenario, state)
    _reveal(state, ids)
    effect = scenario.approach(s["to"], s["from"]).effect
    loss = max(0, sum(state["pieces"][p]["steps"] for p in ids) - effect)
    defender = P.other(scenario, state["side"])
    events = [_log("al_pursuit", side=state["side"], loss=loss)]
    state["queue"][0:0] = [
        {
            "do": "loss",
            "n": loss,
            "lead": [],
            "rest": s["defenders"],
            "owner": defender,
            "enemy": state["side"],
            "why": "pursuit",
        },
        {
            "do": "loss",
            "n": ASSAULT["pursuer_loss"],
            "lead": [],
            "rest": ids,
            "owner": state["side"],
            "enemy": defender,
            "why": "pursuit",
        },
    ]
    return events + drain(scenario, state)


def no_pursuit(scenario: AreaScenario, state: State) -> list[Event]:
    """The winner does not pursue."""
    state["pending"] = None
    return drain(scenario, state)


# -- retreats -----------------------------------------------------------------------------------


def _defenders_fall_back(
    scenario: AreaScenario, state: State, locale: str, came_from: str, hit: str, enter: dict
) -> list[Event]:
    """Every defending piece in a lost locale retreats, group by group (the notes): artillery
    is eliminated; the attacked approach goes without loss; other approaches and the reserve
    (but cavalry) lose a step first. Then the attackers ``enter``."""
    side = P.other(scenario, state["side"])
    groups: dict[str, list[str]] = {}
    for pid in P.in_locale(scenario, state, locale, side):
        groups.setdefault(P.position(state["pieces"][pid]), []).append(pid)
    events: list[Event] = []
    items = []
    for where, group in sorted(groups.items()):
        for gun in [p for p in group if P.kind(scenario, p) == "artillery"]:
            state["pieces"][gun]["out"] = True
            state["army"][side] -= state["pieces"][gun]["steps"]
            events.append(_log("al_guns_lost", side=side, locale=locale))
        group = [p for p in group if P.kind(scenario, p) != "artillery"]
        if not group:
            continue
        takers = group  # another approach: the group loses a step
        if where == hit:
            takers = []
        elif where == locale:  # the reserve: its pieces other than cavalry
            takers = [p for p in group if P.kind(scenario, p) != "cavalry"]
        items.append(
            {
                "do": "group",
                "group": group,
                "frm": locale,
                "came_from": came_from,
                "loss": bool(takers),
                "takers": takers,
                "side": side,
            }
        )
    state["queue"][0:0] = items + [enter]  # the attackers enter once the defenders are gone
    return events


def _group_step(scenario: AreaScenario, state: State, item: dict, events: list[Event]) -> bool:
    """One retreating group: its step loss (owner's choice), then where it goes (owner's
    choice); True when a decision is pending.

    The owner is asked which block loses the step whenever the group has two or more blocks
    and loses a step, even when one block only may take it (a reserve group of one infantry
    and one cavalry): whether it is asked then depends only on what both sides see (how many
    blocks stand there, and the step lost, which the log and the army's morale show), never on
    the types of the other side's hidden blocks."""
    group = [p for p in item["group"] if not state["pieces"][p]["out"]]
    if not group:
        state["queue"].pop(0)
        return False
    takers = [p for p in item["takers"] if not state["pieces"][p]["out"]]
    if item["loss"] and takers:
        if len(group) > 1:
            state["pending"] = {"kind": "group_loss", "side": item["side"], "options": takers}
            return True
        item["loss"] = False
        events += P.lose_step(scenario, state, takers[0], "retreat")
        return False
    options = P.retreat_options(scenario, state, group, item["frm"], item["came_from"])
    if len(options) > 1:
        state["pending"] = {
            "kind": "retreat",
            "side": item["side"],
            "options": options,
            "group": group,
        }
        return True
    state["queue"].pop(0)
    events += _retreat_to(scenario, state, group, item["frm"], options[0] if options else None)
    return False


def group_loss(scenario: AreaScenario, state: State, pid: str) -> list[Event]:
    """The owner chooses which piece of a retreating group loses its step."""
    state["pending"] = None
    state["queue"][0]["loss"] = False
    return P.lose_step(scenario, state, pid, "retreat") + drain(scenario, state)


def retreat_to(scenario: AreaScenario, state: State, locale: str) -> list[Event]:
    """The owner chooses where a group retreats."""
    item = state["queue"].pop(0)
    group = state["pending"]["group"]
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
    if not item["won"] and all(P.kind(scenario, p) == "cavalry" for p in movers):
        events += offer_follow(scenario, state, movers, item["to"])
    return events


# -- maneuver attacks ---------------------------------------------------------------------------


def maneuver(
    scenario: AreaScenario, state: State, group: list[str], frm: str, to: str, from_reserve: bool
) -> list[Event]:
    """A group moves into a locale that holds the enemy. From a reserve, the defender may block
    with a piece of its reserve (an interrupt); otherwise the attack succeeds."""
    defender = P.other(scenario, state["side"])
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
    state["queue"][0:0] = [
        {"do": "maneuver_won", "pieces": group, "from": frm, "to": to, "hit": f"{to}/{frm}"}
    ]
    return drain(scenario, state)


def block(scenario: AreaScenario, state: State, pid: str | None) -> list[Event]:
    """The defender blocks with ``pid`` (to the approach facing the attacker), or lets it in."""
    pending = state["pending"]
    state["pending"] = None
    group, frm, to = pending["group"], pending["frm"], pending["to"]
    if pid is None:
        return [_log("al_not_blocked", side=P.side_of(scenario, group[0]))] + _maneuver_won(
            scenario, state, group, frm, to
        )
    state["pieces"][pid]["approach"] = frm
    for g in group:  # the blocked group stops on its own approach facing the blocker
        state["pieces"][g].update(locale=frm, approach=to)
    attacker = P.side_of(scenario, group[0])
    own = {"key": "log.al_stopped_own", "params": {"units": group, "at": f"{frm}/{to}"}}
    return [
        _log("al_blocked", side=P.side_of(scenario, pid), frm=frm, to=to),
        _log("al_stopped", side=attacker, at=f"{frm}/{to}", count=len(group)),
        {**own, "to": attacker},
    ]


# -- cavalry moving on --------------------------------------------------------------------------


def offer_follow(scenario: AreaScenario, state: State, group: list[str], locale: str) -> list:
    """Cavalry that moved into a locale may move on to one of its approaches at once."""
    side = state["side"]
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
            "group": group,
            "locale": locale,
        }
    return []


def follow(scenario: AreaScenario, state: State, facing: str | None) -> list[Event]:
    """The cavalry moves on to the approach facing ``facing``, or stays in the reserve."""
    pending = state["pending"]
    state["pending"] = None
    if facing is not None:
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
            winner = P.other(scenario, side)
            state["result"] = {"winner": winner, "points": score(scenario, state), "wiped": side}
            state["phase"] = "over"
            state["pending"] = None
            state["queue"] = []
            return [
                {
                    "key": "log.game_over",
                    "params": {"winner": winner, "points": state["result"]["points"]},
                }
            ]
    return []


def score(scenario: AreaScenario, state: State) -> dict[str, int]:
    """Objective points of the locales each side holds."""
    points = {s["id"]: 0 for s in scenario.data["sides"]}
    for lid, loc in scenario.locales.items():
        holder = state["held"].get(lid)
        if loc.objective and holder in points:
            points[holder] += loc.objective
    return points
