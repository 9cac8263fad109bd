"""How Muster weighs a position of area-locale for one side (``muster.opponent``): the weights
are data (``evaluation.json``), each term the side's own less the other's.

It reads a whole state: the opponent gives it a determinized one (the other side's hidden
blocks sampled from what the side has seen), never the game's own."""

from __future__ import annotations

from collections import deque
from typing import Any

from ... import worth
from ...play import objectives
from . import assault as A
from . import position as P
from . import rules as R

SYSTEM = "area-locale"


def evaluate(scenario: Any, state: Any, side: str) -> float:
    """The worth of ``state`` to ``side``: more is better for it, the other side's worth is
    its opposite (the game is zero-sum)."""
    w = worth.weights(SYSTEM)
    over = worth.ended(state, side, w)
    if over is not None:
        return over
    total = worth.points(R.RULES.score(scenario, state), side, w)
    keep = worth.lasting(state, w)
    total += keep * w["morale"] * worth.signed(state["army"], side)
    near: dict[str, list[tuple[str, str | None]]] = {}
    for pid, p in state["pieces"].items():
        if p["out"]:
            continue
        owner = scenario.units[pid]["side"]
        total += (1 if owner == side else -1) * keep * w["steps"] * p["steps"]
        near.setdefault(owner, []).append((p["locale"], p["approach"]))
    goals = objectives(scenario)
    total += w["reach"] * _reach(scenario, goals, near, side, int(w["reach_cap"]))
    total += w["advance"] * _advance(scenario, goals, near, side, int(w["advance_cap"]))
    return total


# A piece's distance to an objective, in locales: from its locale, or (on an approach) half a
# locale more than from the locale its approach faces, if that is nearer: moving up to an
# approach, to assault from it, gains. ``worth.reach`` and ``worth.advance`` with it measure
# every piece against every objective, 2,000 blocks by a hundred objectives in a battle at the
# core's limits (0.5 s a position); these give the same values looking outward from each
# objective, locale by locale, and keeping each locale's distance to the nearest one.


def _reach(
    scenario: Any, goals: list[tuple[str, int]], near: dict[str, list[Place]], side: str, cap: int
) -> float:
    """``worth.reach`` of the objectives by the distance above: for each, its points times how
    much nearer the side's nearest piece stands than the other side's, at most ``cap`` either
    way (a side with no piece stands ``cap`` away; one with none that can reach it, 99)."""
    groups = [
        [p for s, places in near.items() if (s == side) == mine for p in places]
        for mine in (True, False)
    ]
    held = [({loc for loc, _ in g}, {f for _, f in g if f is not None}) for g in groups]
    total = 0.0
    for goal, value in goals:
        found: list[float | None] = [None, None]
        for d, layer in _layers(scenario, goal):
            known = [v for v in found if v is not None]
            if known and d > known[0] + cap:
                break  # the other is further than the cap past it: the cap either way
            for i, (here, facing) in enumerate(held):
                if found[i] is None:
                    if not here.isdisjoint(layer):
                        found[i] = float(d)
                    elif not facing.isdisjoint(layer):
                        found[i] = d + 0.5
            if None not in found:
                break
        far = [
            v if v is not None else (99.0 if groups[i] else float(cap)) for i, v in enumerate(found)
        ]
        total += value * max(-cap, min(cap, far[1] - far[0]))
    return total


def _layers(scenario: Any, goal: str) -> list[tuple[int, frozenset[str]]]:
    """The locales by their distance from ``goal``, nearest first (those it reaches)."""
    key = ("evaluation.layers", goal)
    found: list[tuple[int, frozenset[str]]] | None = scenario.memo.get(key)
    if found is None:
        by: dict[int, set[str]] = {}
        for locale, d in _distances(scenario, goal).items():
            by.setdefault(d, set()).add(locale)
        found = scenario.memo[key] = [(d, frozenset(by[d])) for d in sorted(by)]
    return found


def _advance(
    scenario: Any, goals: list[tuple[str, int]], near: dict[str, list[Place]], side: str, cap: int
) -> float:
    """``worth.advance`` by the distance above: each side's mean of ``cap`` less each piece's
    distance to the nearest objective (none below 0), the side's less the other's."""
    if not goals:
        return 0.0
    key = ("evaluation.nearest", tuple(goals))
    kept: dict[str, int] | None = scenario.memo.get(key)
    if kept is None:
        kept = {}
        for goal, _ in goals:
            for locale, d in _distances(scenario, goal).items():
                kept[locale] = min(d, kept.get(locale, 99))
        scenario.memo[key] = kept

    def distance(place: Place) -> float:
        far = float(kept.get(place[0], 99))
        return far if place[1] is None else min(far, kept.get(place[1], 99) + 0.5)

    return worth.forward(near, side, distance, cap)


def _distances(scenario: Any, goal: str) -> dict[str, int]:
    key = ("evaluation.distances", goal)
    found: dict[str, int] | None = scenario.memo.get(key)
    if found is None:
        found = {goal: 0}
        todo = deque([goal])
        while todo:
            here = todo.popleft()
            for there in scenario.neighbors.get(here, ()):
                if there not in found:
                    found[there] = found[here] + 1
                    todo.append(there)
        scenario.memo[key] = found
    return found


Place = tuple[str, str | None]  # a locale and the approach's facing locale (None: its reserve)
Placed = dict[str, dict[Place, list[str]]]  # side -> place -> its pieces there


def threat(scenario: Any, state: Any, side: str) -> float:
    """What each side could strike at its next player turn, for the levels that look at the
    other side's turn (``Level.threats``): ``w["strike"]`` times the worth of each side's
    best strikes (``strikes``), ``side``'s less the other's."""
    w = worth.weights(SYSTEM)
    if not w["strike"] or state.get("result"):
        return 0.0
    placed = _placed(scenario, state)
    total = 0.0
    for taker in (s["id"] for s in scenario.data["sides"]):
        found = sum(s["worth"] for s in strikes(scenario, state, taker, placed))
        total += found if taker == side else -found
    return w["strike"] * total


def _placed(scenario: Any, state: Any) -> Placed:
    placed: Placed = {s["id"]: {} for s in scenario.data["sides"]}
    for pid, p in state["pieces"].items():
        if not p["out"]:
            owner = scenario.units[pid]["side"]
            placed[owner].setdefault((p["locale"], p["approach"]), []).append(pid)
    return placed


def strikes(
    scenario: Any, state: Any, taker: str, placed: Placed | None = None
) -> list[dict[str, Any]]:
    """``taker``'s best strikes at its next player turn, as this reading sees them: each
    ``{"from": (locale, facing or None), "to": locale, "kind", "lost", "worth"}``, at most one
    a command, each of its places and each locale struck once, the worthiest first. A strike
    is an objective walked into (``kind`` "walk": no enemy there), a maneuver attack the enemy
    cannot block ("maneuver": from an approach it does not block, or from a reserve into a
    locale with none of its pieces in reserve, across a border it does not block) or an
    assault the attacker wins whatever the defender leads, its guns firing ("assault"). The
    objective changes hands; the defenders lose (``lost``) what their fall back costs (guns
    eliminated, a step a group but on the approach struck and for the reserve's cavalry, a
    group with nowhere to go all its steps) and, in an assault, the result's steps. ``worth``
    is in the terms of ``evaluate``: the points changing hands, and the steps, the defender's
    lost less the attacker's."""
    w = worth.weights(SYSTEM)
    settings = P.settings(scenario)
    placed = _placed(scenario, state) if placed is None else placed
    mine = placed.get(taker, {})
    theirs = [places for side, places in placed.items() if side != taker]
    goals = dict(objectives(scenario))
    per_step = settings["army_morale"]["points_per_step"]  # morale a step lost costs
    step = worth.lasting(state, w) * (w["steps"] + w["morale"] * per_step)
    held = state["held"]
    crowd: dict[str, int] = {}  # pieces of the taker in each locale (its capacity)
    for (locale, _), ids in mine.items():
        crowd[locale] = crowd.get(locale, 0) + len(ids)
    enemy_at: dict[str, dict[Place, list[str]]] = {}
    others: dict[str, int] = {}  # and of the other side
    for places in theirs:
        for place, ids in places.items():
            enemy_at.setdefault(place[0], {})[place] = ids
            others[place[0]] = others.get(place[0], 0) + len(ids)
    crowds = (crowd, others)

    def taken(locale: str) -> float:
        """What the objective at ``locale`` changing hands to the taker is worth."""
        points = goals.get(locale, 0)
        if not points or held.get(locale) == taker:
            return 0.0
        return w["points"] * points * (1 if held.get(locale) is None else 2)

    def strike(place: Place, to: str, kind: str, lost: int = 0, cost: int = 0) -> None:
        value = taken(to) + step * (lost - cost)
        found.append({"from": place, "to": to, "kind": kind, "lost": lost, "worth": value})

    def falls(locale: str, came_from: str, skip: bool = False) -> int:
        return _retreat(scenario, state, locale, enemy_at[locale], came_from, crowds, skip)

    found: list[dict[str, Any]] = []
    demoralized = P.demoralized(scenario, state, taker)
    for place, ids in mine.items():
        a, facing = place
        ways = scenario.neighbors[a] if facing is None else (facing,)
        for n in ways:
            there = enemy_at.get(n)
            if not there and not taken(n):
                continue  # walking into a locale that is no objective to take gains nothing
            if not scenario.passable(a, n) or scenario.locales[n].capacity <= crowd.get(n, 0):
                continue
            if not there:
                strike(place, n, "walk")
            elif (n, a) not in there and (facing is not None or (n, None) not in there):
                # nobody on the border, and (from a reserve) nobody in its reserve to block
                strike(place, n, "maneuver", falls(n, a))
        if facing is not None and (facing, a) in enemy_at.get(facing, {}) and not demoralized:
            won = _assault(scenario, state, settings, place, ids, enemy_at[facing])
            if won is not None:
                lost, kept = won
                strike(place, facing, "assault", lost + falls(facing, a, True), kept)
    found.sort(key=lambda f: -f["worth"])
    used: set[Place] = set()
    struck: set[str] = set()
    chosen: list[dict[str, Any]] = []
    for each in found:
        if len(chosen) >= settings["commands"]["per_turn"] or each["worth"] <= 0:
            break
        if each["from"] in used or each["to"] in struck:
            continue
        used.add(each["from"])
        struck.add(each["to"])
        chosen.append(each)
    return chosen


def _assault(
    scenario: Any,
    state: Any,
    settings: dict[str, Any],
    place: Place,
    ids: list[str],
    there: dict[Place, list[str]],
) -> tuple[int, int] | None:
    """An assault from ``place`` (an approach) on the enemy blocking it, if the attacker
    wins it whatever the defender leads, its guns firing: the steps the defenders on the
    attacked approach lose, and the attacker's. None if it may lose (or may not be made)."""
    a, n = place
    assert n is not None
    pieces = state["pieces"]
    attack = A.leading_options(scenario, state, f"{a}/{n}", "attacker", sorted(ids))
    blockers = there[(n, a)]
    if not attack:
        return None
    defence = A.leading_options(scenario, state, f"{n}/{a}", "defender", blockers)
    guns = list(blockers)
    if settings["artillery_fire"]["from"] == "locale":
        guns += there.get((n, None), [])
    fire = settings["artillery_fire"]["per_step"] * sum(
        pieces[g]["steps"]
        for g in guns
        if P.kind(scenario, g) == "artillery"
        and not pieces[g]["declared"]
        and pieces[g]["bombarded"] < state["turn"] - 1
    )
    effect = scenario.approach(n, a).effect
    strongest = max(sum(pieces[p]["steps"] for p in lead) for lead in defence)
    best = max(sum(pieces[p]["steps"] for p in lead) for lead in attack)
    result = best - fire - effect - strongest
    if result < settings["assault"]["wins_at"]:
        return None
    losses = settings["losses"]
    standing = sum(pieces[p]["steps"] for p in blockers)
    return min(standing, losses["loser"] + abs(result)), losses["winner"]


def struck(scenario: Any, state: Any, side: str) -> list[str]:
    """The locales ``side`` could strike at its next player turn (``strikes``), the worthiest
    first."""
    return [s["to"] for s in strikes(scenario, state, side)]


def _retreat(
    scenario: Any,
    state: Any,
    locale: str,
    there: dict[Place, list[str]],
    came_from: str,
    crowds: tuple[dict[str, int], dict[str, int]],
    skip: bool = False,
) -> int:
    """The steps the defenders of ``locale`` lose as they all fall back from it (``there``: their
    pieces by place) before an attack from ``came_from``, as the rules play it
    (``position.fall_back``): guns eliminated, each group's step lost first, and a group with
    nowhere to go (``position.ways_out``, on the pieces counted in ``crowds``: the attacker's,
    the defender's) all its steps. ``skip``: the attacked approach not counted (an assault's
    losses are its own)."""
    pieces = state["pieces"]
    attackers, defenders = crowds
    total = 0
    by_facing = {facing: group for (_, facing), group in there.items()}
    for each in P.fall_back(scenario, by_facing, came_from):
        if skip and each.facing == came_from:
            continue
        total += sum(pieces[p]["steps"] for p in each.out)
        if not each.group:
            continue
        ways = P.ways_out(
            scenario,
            locale,
            came_from,
            len(each.group),
            lambda m: bool(attackers.get(m)),
            lambda m: defenders.get(m, 0),
        )
        if not ways:
            total += sum(pieces[p]["steps"] for p in each.group)
        else:
            total += min(each.loss, sum(pieces[p]["steps"] for p in each.takers))
    return total
