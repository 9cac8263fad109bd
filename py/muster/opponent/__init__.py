"""Muster plays a side: a computer opponent, and the advisor that says what it would do.

It decides from the side's own view only (``knowledge``: the hex systems hide nothing; in
area-locale the other side's hidden blocks are sampled, several times per decision) and its
own seeded random stream, never the game's. It searches (``search``: expectimax over the exact
chance outcomes, the best actions followed by the side's next decisions) and values a position
by the system's own ends (``systems/<x>/evaluation.py``, its weights in ``evaluation.json``).

Three levels, by budget and depth; their names are the words of ``LEVELS[n].key``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable
from typing import Any

from .. import systems
from ..errors import IllegalActionError, RulesError
from ..game import Game, _replayable, chance_faces
from ..play import objectives
from ..shapes import Action, State
from .knowledge import searchable
from .search import Evaluate, Level, Search, decide, fingerprint

LEVELS = {
    # The default level is meant to decide within 2 s in the browser: bench/advise_pyodide.py
    # measures each level there (and bench/advise_speed.py in CPython).
    1: Level("level.muster_1", chances=1, deepen=2, plies=1, worlds=1, nodes=800, replies=4),
    # Level 2 also weighs what each side's fire could do at its next turn (``threats``), level 3
    # that and what its close combats could (``assaults``): in demo-hohenbrueck level 2 against
    # level 1 went from 42 % to 70 %, level 3 against level 2 from 48 % to 88 % and against
    # greedy from 60 % to 100 % (README, Strength: the runs, and each reading tried alone).
    2: Level(
        "level.muster_2",
        chances=1,
        deepen=3,
        plies=1,
        worlds=2,
        nodes=1500,
        replies=5,
        threats=1.0,
    ),
    3: Level(
        "level.muster_3",
        chances=2,
        deepen=6,
        plies=2,
        worlds=3,
        nodes=6000,
        replies=6,
        threats=1.0,
        assaults=1.0,
    ),
}
DEFAULT_LEVEL = 2
RECENT = 256  # at most how many of the turn's positions Muster remembers, not to go back to
Label = dict[str, Any]


def evaluation(system: str, threats: float = 0.0, assaults: float = 0.0) -> Evaluate:
    """The system's ``evaluate(scenario, state, side) -> float``; plus, ``threats`` times,
    what each side could do to the other at its next turn (the system's ``threat``: its fire,
    the objectives it could take; where it has one), and ``assaults`` times what its close
    combats could (``assault``)."""
    described = systems.get(system)
    found = described.evaluate
    if found is None:
        raise RulesError("error.no_opponent", "Muster cannot play {system} yet", system=system)
    looks = [
        (weight, term)
        for weight, term in ((threats, described.threat), (assaults, described.assault))
        if weight and term is not None
    ]
    if not looks:
        return found
    base = found

    def looking(scenario: Any, state: Any, side: str) -> float:
        value = base(scenario, state, side)
        if state.get("result"):
            return value
        return value + sum(weight * term(scenario, state, side) for weight, term in looks)

    return looking


def levels() -> list[dict[str, Any]]:
    """The levels as the API lists them: number, the key of its name, and its budget."""
    return [
        {"level": n, "key": lv.key, "nodes": lv.nodes, "default": n == DEFAULT_LEVEL}
        for n, lv in LEVELS.items()
    ]


def advise(
    game: Game, side: str, level: int, seed: int, budget_ms: int | None = None
) -> dict[str, Any]:
    """What Muster would do now for ``side`` (the side that decides): the action, why (labels),
    its value and how many actions it considered. The game is not changed.

    It reads of the game only what ``side`` may: its view (``Game.view``: the state as the
    side sees it and the legal actions), and the scenario.
    """
    return think(game, side, LEVELS[level], f"muster/{seed}/{level}", budget_ms)


def think(
    game: Game, side: str, lv: Level, seed: str | int, budget_ms: int | None = None
) -> dict[str, Any]:
    """``advise`` at a level given whole (a test may give a small budget of its own).

    Raises:
        IllegalActionError: a die is due: it is rolled (by the game's stream, or at the
            table), never chosen among its faces.
    """
    rules, scenario = game.rules, game.scenario
    if game.state.get("chance"):
        raise IllegalActionError(
            "error.advise_not_deciding",
            "{side} does not decide now: nothing to advise",
            side=side,
        )
    legal = game.legal_for(side)
    deadline = None if budget_ms is None else time.monotonic() + budget_ms / 1000
    evaluate = evaluation(scenario.system, lv.threats, lv.assaults)
    worlds = lv.worlds if rules.hidden_information else 1
    # The positions the side has seen this turn (as its screen showed them), not to go back
    # to, each with how long ago it was seen (0: the newest).
    seen = seen_ages(_known(rules, scenario, s, side) for s in this_turn(game))
    # Its own random streams, from its seed and what the side knows: the worlds of hidden
    # blocks it samples are the same for the whole turn (its plan holds from one decision to
    # the next, rather than picking blocks for one world and putting them back for another);
    # the faces it draws change with each position of the turn.
    turn = game.state.get("turn")
    worlds_rng = random.Random(f"{seed}/{side}/{turn}")
    rng = random.Random(f"{seed}/{side}/{turn}/{len(seen)}")
    searches = []
    for _ in range(worlds):
        state = searchable(rules, scenario, game.state, side, worlds_rng)
        budget = lv.nodes // worlds
        search = Search(rules, scenario, side, evaluate, rng, lv, deadline, budget, seen)
        searches.append((search, state))
    if len(legal) == 1:
        index, values = 0, [evaluate(scenario, searches[0][1], side)]
    else:
        index, values = decide(searches, legal)
    action = legal[index]
    state = searches[0][1]
    return {
        "action": action,
        "why": why(rules, scenario, state, side, action, evaluate),
        "value": round(values[index], 2) if math.isfinite(values[index]) else None,
        "considered": len(legal),
        "nodes": sum(s.nodes for s, _ in searches),
    }


def seen_ages(fingerprints: Iterable[str]) -> dict[str, int]:
    """Each position of ``fingerprints`` (newest first) with how long ago it was last seen."""
    ages: dict[str, int] = {}
    for age, key in enumerate(fingerprints):
        ages.setdefault(key, age)
    return ages


def this_turn(game: Game, most: int = RECENT) -> list[State]:
    """The game's positions of the current turn (the newest ``most`` of them), newest first:
    the ones the game dropped to save room are replayed on copies (``Game`` keeps its newest
    states and a checkpoint now and then), and the game is not changed."""
    turn = game.state.get("turn")
    found: list[State] = []
    index = len(game.states) - 1
    while index >= 0 and len(found) < most:
        state = game.states[index]
        if state is None:
            start, kept = game._kept_before(index)
            replayed = [kept]
            for i in range(start, index):
                replayed.append(_replayed(game, replayed[-1], i))
            for state in reversed(replayed[1:]):  # index down to start + 1
                if state.get("turn") != turn or len(found) >= most:
                    return found
                found.append(state)
            index = start
            continue
        if state.get("turn") != turn:
            break
        found.append(state)
        index -= 1
    return found


# What the latest decisions worked out about the game's positions, by the identity of the
# state they were worked out from (held, so the identity stays its own): a game's states are
# never changed once made, so a position is fingerprinted, and a dropped one replayed, once.
_MEMO: dict[tuple[Any, ...], tuple[Any, Any]] = {}
MEMO_SIZE = 1024


def _memo(key: tuple[Any, ...], source: Any, work: Any) -> Any:
    found = _MEMO.get(key)
    if found is not None and found[0] is source:
        return found[1]
    if len(_MEMO) >= MEMO_SIZE:
        _MEMO.clear()
    value = work()
    _MEMO[key] = (source, value)
    return value


def _known(rules: Any, scenario: Any, state: State, side: str) -> str:
    """``fingerprint`` of one of the game's states, worked out once."""
    key = ("fingerprint", id(state), side, id(scenario))
    return _memo(key, state, lambda: fingerprint(rules, scenario, state, side))  # type: ignore[no-any-return]


def _replayed(game: Game, before: State, i: int) -> State:
    """The state after the game's action ``i`` from ``before`` (the one before it), replayed
    once (on a copy: ``Game._next``)."""
    action = game.actions[i]
    key = ("replayed", id(before), i)
    return _memo(key, before, lambda: game._next(before, _replayable(action))[0])  # type: ignore[no-any-return]


def why(
    rules: Any, scenario: Any, state: State, side: str, action: Action, evaluate: Evaluate
) -> list[Label]:
    """Why the action: the modifiers and the odds of a previewable one (``rules.preview``),
    the chance point it leads to and its faces, the strike of the other side it guards against
    and the one of its own it readies (where the system reads them), and the objective it
    weighed most."""
    labels: list[Label] = []
    if action["type"] in rules.previewable:
        try:
            shown = rules.preview(scenario, state, action)
        except Exception:
            shown = None
        if shown:
            for mod in shown.get("modifiers", []):
                label = {"key": mod["key"], "params": mod.get("params", {})}
                labels.append(
                    {"key": "advise.modifier", "params": {"value": mod["value"], "why": label}}
                )
            outcomes = shown.get("outcomes", [])
            if outcomes:
                p = max(o["p"] for o in outcomes)
                labels.append(
                    {
                        "key": "advise.odds",
                        "params": {"count": len(outcomes), "value": round(100 * p)},
                    }
                )
    after: Any = None
    try:
        search = Search(rules, scenario, side, evaluate, random.Random(0), LEVELS[1])
        after = search.child(state, action)
    except Exception:
        after = None
    if after is not None and after.get("chance"):
        chance = after["chance"]
        params = {"count": len(chance_faces(chance)), "purpose": chance.get("purpose", "")}
        labels.append({"key": "advise.chance", "params": params})
    labels += _strikes(scenario, state, after, side)
    goal = _objective(scenario, state, after, side, evaluate)
    if goal is not None:
        labels.append({"key": "advise.objective", "params": {"at": goal[0], "worth": goal[1]}})
    return labels


def _strikes(scenario: Any, before: State, after: Any, side: str) -> list[Label]:
    """Where the system reads the strikes each side could make at its next turn: the worthiest
    place the other side could strike before the action and not after it (the action guards
    it), and the worthiest the side could strike after it and not before (it readies it)."""
    places = systems.get(scenario.system).strikes
    if places is None or after is None or after.get("result"):
        return []
    labels = []
    for other in (s["id"] for s in scenario.data["sides"] if s["id"] != side):
        still = set(places(scenario, after, other))
        guarded = [p for p in places(scenario, before, other) if p not in still]
        if guarded:
            labels.append({"key": "advise.guards", "params": {"at": guarded[0]}})
            break
    known = set(places(scenario, before, side))
    ready = [p for p in places(scenario, after, side) if p not in known]
    if ready:
        labels.append({"key": "advise.prepares", "params": {"at": ready[0]}})
    return labels


def _objective(
    scenario: Any, before: State, after: Any, side: str, evaluate: Evaluate
) -> tuple[str, int] | None:
    """The objective the action weighed: the one it takes or keeps, or else the one of most
    points not held by the side (the threat or the goal)."""
    places = objectives(scenario)
    if not places:
        return None
    held_after = (after or before).get("held") or {}
    held_before = before.get("held") or {}
    for place, points in places:
        if held_after.get(place) == side and held_before.get(place) != side:
            return place, points
    open_ = [(p, n) for p, n in places if held_after.get(p) != side]
    return max(open_, key=lambda x: x[1]) if open_ else max(places, key=lambda x: x[1])
