"""Properties over random positions of every system (the demos played at random, seeded):

- undo after an action gives back the same state (and hash, legal actions and log), and redo
  after undo the same state as after the action, rolls included;
- no query changes the state: every query of the API (``muster.api``) and every query of a
  ``Ruleset`` leaves the game's state, its hash, its actions and its redo stack as they were
  (and none fails with an internal error).

A failure names the scenario, the seed, the number of actions played and the action, so
``random.Random(seed)`` replays it.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

from muster.api import Session
from muster.game import Game, canonical, state_hash

DEMOS = ["demo-valmont", "demo-hohenbrueck", "demo-fontanella"]
SEEDS = (11, 12)
LIMIT = 160  # actions per game: past the first turn's combat in every demo
RATE = 0.12  # share of positions checked
FARTHEST = 8  # hexes of a unit's reach whose path is asked


def positions(scenario_id: str, seed: int, rate: float = RATE) -> Iterator[tuple[Session, Any]]:
    """A seeded random game of ``scenario_id`` in a session; stops (yields the session and the
    game's random source) at about ``rate`` of its positions. The caller may act and undo,
    and must leave the game where it found it or one action further."""
    session = Session()
    assert session.call("load_scenario", {"id": scenario_id})["ok"]
    assert session.call("new_game", {"seed": seed})["ok"]
    game = session.game
    assert game is not None
    rng = random.Random(seed)
    while not game.state.get("result") and len(game.actions) < LIMIT:
        if rng.random() < rate:
            yield session, rng
        if game.state.get("result"):
            break
        game.push(rng.choice(game.legal_actions()))


def where(scenario_id: str, seed: int, game: Game, what: Any = None) -> str:
    """A failure's place: scenario, seed, actions played, and the action or query."""
    text = f"{scenario_id} seed {seed} after {len(game.actions)} actions"
    return text if what is None else f"{text}: {canonical(what)}"


@pytest.mark.parametrize("scenario_id", DEMOS)
def test_undo_after_apply_and_redo_after_undo(scenario_id):
    checked = 0
    for seed in SEEDS:
        for session, rng in positions(scenario_id, seed, rate=0.25):
            game = session.game
            action = rng.choice(game.legal_actions())
            before, legal, log = copy.deepcopy(game.state), game.legal_actions(), list(game.log)
            at = where(scenario_id, seed, game, action)
            game.apply(action)
            after, after_log = copy.deepcopy(game.state), list(game.log)
            game.undo()
            assert game.state == before, f"undo: another state, {at}"
            assert state_hash(game.state) == state_hash(before), at
            assert game.legal_actions() == legal, f"undo: other legal actions, {at}"
            assert game.log == log, f"undo: another log, {at}"
            game.redo()
            assert game.state == after, f"redo: another state, {at}"
            assert game.log == after_log, f"redo: another log, {at}"
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize("scenario_id", DEMOS)
def test_undo_back_to_the_start_and_redo_to_the_end(scenario_id):
    # Far enough to drop states from the history (game.KEEP_RECENT): undo rebuilds them.
    seed = SEEDS[0]
    session = Session()
    session.call("load_scenario", {"id": scenario_id})
    session.call("new_game", {"seed": seed})
    game = session.game
    rng = random.Random(seed)
    hashes = [state_hash(game.state)]
    while not game.state.get("result") and len(game.actions) < LIMIT:
        game.apply(rng.choice(game.legal_actions()))
        hashes.append(state_hash(game.state))
    assert None in game.states, "the history kept every state: play further"
    for n in range(len(hashes) - 1, 0, -1):
        game.undo()
        assert state_hash(game.state) == hashes[n - 1], where(scenario_id, seed, game, "undo")
    for n in range(1, len(hashes)):
        game.redo()
        assert state_hash(game.state) == hashes[n], where(scenario_id, seed, game, "redo")


def api_queries(session: Session, rng: random.Random) -> list[tuple[str, dict[str, Any]]]:
    """Every query of the API, with parameters that fit the position (a few of each)."""
    game = session.game
    sc = game.scenario
    sides = [s["id"] for s in sc.data["sides"]]
    legal = game.legal_actions()
    queries: list[tuple[str, dict[str, Any]]] = [
        ("version", {}),
        ("scenario_list", {}),
        ("rules_reference", {}),
        ("save", {}),
        ("editor_catalog", {"system": sc.system}),
        ("scenario_template", {"system": sc.system}),
        ("scenario_check", {"scenario": sc.data}),
        ("check_crt", {"crt": None}),
        ("game_view", {}),
        ("game_view", {"log": 5}),
        *[("game_view", {"viewer": side}) for side in sides],
        ("look_back", {"at": 0}),
        ("look_back", {"at": len(game.actions)}),
        ("look_back", {"at": rng.randint(0, len(game.actions))}),
        # Refused calls change nothing either.
        ("act", {"action": {"type": "no_such_action"}}),
        ("preview", {"action": {"type": "no_such_action"}}),
        ("game_view", {"viewer": "nobody"}),
    ]
    if legal and not game.state.get("chance"):
        # Refused near misses: a legal action's type with a unit or a place that is not there
        # (the refusal names the action, the rule and the place; it reads, never writes).
        model = rng.choice(legal)
        queries += [
            ("act", {"action": {**model, "unit": "no-such-unit"}}),
            ("act", {"action": {**model, "to": "9999", "target": "9999"}}),
        ]
    fights = [a for a in legal if a["type"] in game.rules.previewable]
    queries += [("preview", {"action": a}) for a in rng.sample(fights, min(3, len(fights)))]
    board = game.rules.board(sc, game.state)
    if board is not None:
        side = game.rules.decider(sc, game.state)
        alive = [uid for uid, u in game.state.get("units", {}).items() if not u.get("out")]
        units = alive or list(sc.units)
        mine = [uid for uid in units if sc.units[uid]["side"] == side] or units
        labels = [game.state["units"][uid]["hex"] for uid in units if uid in game.state["units"]]
        for uid in rng.sample(mine, min(2, len(mine))):
            queries.append(("reachable", {"unit": uid}))
            reach = session.call("reachable", {"unit": uid})
            if reach["ok"]:
                queries.append(
                    ("path", {"unit": uid, "to": rng.choice(list(reach["result"]["hexes"]))})
                )
        if len(labels) >= 2:
            a, b = rng.sample(labels, 2)
            queries += [("los", {"from": a, "to": b}), ("hex_info", {"hex": a})]
    else:
        queries += [("hex_info", {"hex": "0101"}), ("reachable", {"unit": next(iter(sc.units))})]
    return queries


def ruleset_queries(game: Game, rng: random.Random) -> list[tuple[str, Any]]:
    """Every query of the game's ``Ruleset`` on its state (what the game and the API ask)."""
    rules, sc = game.rules, game.scenario
    state = game.state
    sides = [None] + [s["id"] for s in sc.data["sides"]]
    legal = rules.legal_actions(sc, state) if not state.get("chance") else []
    out: list[tuple[str, Any]] = [
        ("legal_actions", lambda: rules.legal_actions(sc, state)),
        ("decider", lambda: rules.decider(sc, state)),
        ("board", lambda: rules.board(sc, state)),
        ("prompt", lambda: rules.prompt(sc, state)),
        ("reference", lambda: rules.reference(sc, state)),
    ]
    if legal:
        out.append(("choices", lambda: rules.choices(sc, state, legal)))
    if state.get("chance"):  # asked only at a chance point, as the game does
        out.append(("chance_results", lambda: rules.chance_results(sc, state)))
    for side in sides:
        out.append((f"view_for {side}", lambda side=side: rules.view_for(sc, state, side)))
        out.append((f"view_extra {side}", lambda side=side: rules.view_extra(sc, state, side)))
    fights = [a for a in legal if a["type"] in rules.previewable]
    for action in rng.sample(fights, min(2, len(fights))):
        out.append((f"preview {canonical(action)}", lambda a=action: rules.preview(sc, state, a)))
    return out


def fingerprint(game: Game) -> tuple[Any, ...]:
    """What no query may change: the state, its hash, the actions and the redo stack."""
    return (
        copy.deepcopy(game.state),
        state_hash(game.state),
        copy.deepcopy(game.actions),
        copy.deepcopy(game.redo_stack),
    )


@pytest.mark.parametrize("scenario_id", DEMOS)
def test_no_query_changes_the_state(scenario_id):
    checked: set[str] = set()
    for seed in SEEDS:
        for session, rng in positions(scenario_id, seed):
            game = session.game
            before = fingerprint(game)
            for method, params in api_queries(session, rng):
                answer = session.call(method, params)
                at = where(scenario_id, seed, game, [method, params])
                assert answer["ok"] or answer["error"]["key"] != "error.internal", (at, answer)
                assert session.game is game, at
                after = fingerprint(game)
                assert after[1] == before[1], f"the state hash changed: {at}"
                assert after == before, f"the game changed: {at}"
                checked.add(method)
            for name, query in ruleset_queries(game, rng):
                query()
                assert fingerprint(game) == before, where(scenario_id, seed, game, name)
                checked.add(name.split()[0])
    expected = (
        {"reachable", "path", "los", "hex_info"} if scenario_id != "demo-fontanella" else set()
    )
    # Previews are asked only where a fire or melee is legal: some position must have one.
    expected |= {"preview"} if scenario_id != "demo-fontanella" else set()
    missing = (
        expected | {"game_view", "look_back", "legal_actions", "view_for", "choices"}
    ) - checked
    assert not missing, f"{scenario_id}: never asked {sorted(missing)}"


@pytest.mark.parametrize("scenario_id", ["demo-valmont", "demo-hohenbrueck"])
def test_every_reachable_hex_has_a_path(scenario_id):
    # The map lights the hexes ``reachable`` lists; a tap on any of them asks ``path``.
    asked = 0
    for seed in SEEDS:
        for session, rng in positions(scenario_id, seed, rate=0.1):
            game = session.game
            side = game.rules.decider(game.scenario, game.state)
            mine = [
                uid
                for uid, u in game.state["units"].items()
                if not u.get("out") and game.scenario.units[uid]["side"] == side
            ]
            for uid in rng.sample(mine, min(2, len(mine))):
                reach = session.call("reachable", {"unit": uid})
                assert reach["ok"], where(scenario_id, seed, game, ["reachable", uid])
                hexes = reach["result"]["hexes"]
                # The farthest hexes: the longest paths, through the most hexes on the way.
                far = sorted(hexes, key=lambda h: (-hexes[h]["cost"], h))[:FARTHEST]
                for label, entry in ((h, hexes[h]) for h in far):
                    answer = session.call("path", {"unit": uid, "to": label})
                    at = where(scenario_id, seed, game, ["path", uid, label])
                    assert answer["ok"], (at, answer)
                    assert answer["result"]["cost"] == entry["cost"], at
                    assert answer["result"]["hexes"][-1] == label, at
                    asked += 1
    assert asked >= 50
