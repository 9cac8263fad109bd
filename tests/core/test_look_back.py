"""Looking back over a game: ``Game.view_at`` and the API's ``look_back`` show the position
after any number of actions, read only, as the viewer may see it (replaying the states a long
game dropped, without keeping them); every log line of a view says after which action it was
logged (``log_at``)."""

from __future__ import annotations

import random

import pytest

from muster.api import Session
from muster.game import Game, state_hash
from muster.scenario import load_builtin
from muster.systems import game_rules

DEMOS = ("demo-valmont", "demo-hohenbrueck", "demo-fontanella")


def played(demo: str, actions: int, seed: int = 5) -> tuple[Game, list[dict], list[int]]:
    """A game of ``demo`` after ``actions`` random actions, every state on the way (index i:
    after i actions; states are never changed once made), and for every log line the count
    of actions when it came."""
    sc = load_builtin(demo)
    game = Game.start(sc, game_rules(sc.system), seed)
    rng = random.Random(seed)
    states = [game.state]
    at: list[int] = []
    for n in range(1, actions + 1):
        legal = game.legal_actions()
        if not legal:
            break
        events = game.apply(rng.choice(legal))
        at.extend([n] * len(events))
        states.append(game.state)
    return game, states, at


def replayable(action: dict) -> dict:
    """A recorded action as it is played again: a digital roll rolls the seeded die again."""
    if action["type"] != "roll":
        return action
    if action["how"] == "digital":
        return {"type": "roll"}
    return {"type": "roll", "value": action["value"]}


def sides(game: Game) -> list[str]:
    return [s["id"] for s in game.scenario.data["sides"]]


@pytest.mark.parametrize("demo", DEMOS)
def test_each_position_is_the_one_played(demo):
    game, states, _ = played(demo, 40)
    rules, sc = game.rules, game.scenario
    replay = Game.start(sc, rules, game.seed)
    viewer = sides(game)[0]
    for index in range(len(game.actions) + 1):
        if index:
            replay.apply(replayable(game.actions[index - 1]))
        assert state_hash(replay.state) == state_hash(states[index])
        seen = game.view_at(index, viewer)
        assert seen["state"] == rules.view_for(sc, replay.state, viewer)
        extra = rules.view_extra(sc, replay.state, viewer)
        assert seen["markers"] == extra.get("markers", {})
        assert seen["arrows"] == extra.get("arrows", [])
        assert seen["at"] == index
        assert seen["moves"] == len(game.actions)
        assert "legal" not in seen and "choices" not in seen


@pytest.mark.parametrize("demo", DEMOS)
def test_the_last_position_is_the_view_of_now(demo):
    game, _, _ = played(demo, 30)
    for viewer in sides(game):
        now = game.view(viewer, 0)
        back = game.view_at(len(game.actions), viewer)
        assert back["state"] == now["state"]
        assert back["markers"] == now.get("markers", {})
        assert back["arrows"] == now.get("arrows", [])


def test_dropped_states_are_replayed_and_not_kept():
    game, states, _ = played("demo-valmont", 300)
    assert len(game.actions) == 300
    dropped = [i for i, s in enumerate(game.states) if s is None]
    assert len(dropped) > 100
    for index in (0, 1, 63, 64, 65, 130, 200, 236, 237, 299, 300):
        full = game.view_at(index, None)["state"]
        assert full == game.rules.view_for(game.scenario, states[index], None)
    assert [i for i, s in enumerate(game.states) if s is None] == dropped
    # and the game goes on as before
    assert game.state is states[-1]


def test_a_hidden_position_shows_only_the_viewers_blocks():
    game, states, _ = played("demo-fontanella", 60)
    assert game.rules.hidden_information
    for index in (0, 10, 35, len(game.actions)):
        state = states[index]
        for viewer in sides(game):
            seen = game.view_at(index, viewer)
            assert seen["state"] == game.rules.view_for(game.scenario, state, viewer)
            assert seen["viewer"] == viewer
        # no viewer: the side deciding now, as in the view
        decider = game.rules.decider(game.scenario, game.state)
        assert game.view_at(index, None)["viewer"] == decider


@pytest.mark.parametrize("demo", DEMOS)
def test_every_log_line_says_after_which_action_it_came(demo):
    game, _, at = played(demo, 80)
    assert len(at) == len(game.log)
    if not game.rules.hidden_information:
        view = game.view(None, 10_000)
        assert view["log"] == game.log
        assert view["log_at"] == at
        view = game.view(None, 7)
        assert view["log"] == game.log[-7:]
        assert view["log_at"] == at[-7:]
        assert game.view(None, 0)["log_at"] == []
        return
    # With hidden blocks the counts would tell one side how often the other decided.
    for viewer in sides(game):
        assert "log_at" not in game.view(viewer, 10_000)


def test_a_log_count_over_the_lines_gives_them_all():
    game, _, at = played("demo-valmont", 4)
    lines = len(game.log)
    assert 1 < lines < 50
    view = game.view(None, lines + 1)
    assert view["log"] == game.log and view["log_at"] == at


def test_log_at_follows_undo():
    game, _, _ = played("demo-hohenbrueck", 20)
    while game.can_undo() and len(game.actions) > 12:
        game.undo()
    view = game.view(None, 10_000)
    assert len(view["log_at"]) == len(view["log"]) == len(game.log)
    assert all(1 <= n <= 12 for n in view["log_at"])
    assert view["log_at"] == sorted(view["log_at"])


# -- the API --------------------------------------------------------------------------------


def session_of(demo: str, actions: int) -> Session:
    session = Session()
    assert session.call("load_scenario", {"id": demo})["ok"]
    assert session.call("new_game", {"seed": 4})["ok"]
    rng = random.Random(4)
    for _ in range(actions):
        assert session.call("act", {"action": rng.choice(session.game.legal_actions())})["ok"]
    return session


@pytest.mark.parametrize("demo", [d for d in DEMOS if d != "demo-fontanella"])
def test_look_back_answers_the_view_at(demo):
    session = session_of(demo, 25)
    game = session.game
    viewer = sides(game)[1]
    before = (state_hash(game.state), len(game.actions), game.revision, len(game.log))
    for at in (0, 12, 25):
        answer = session.call("look_back", {"at": at, "viewer": viewer})
        assert answer["ok"], answer
        assert answer["result"] == game.view_at(at, viewer)
        assert answer["result"]["at"] == at and answer["result"]["moves"] == 25
    assert session.call("look_back", {"at": 3})["ok"]
    assert (state_hash(game.state), len(game.actions), game.revision, len(game.log)) == before


@pytest.mark.parametrize("bad", [-1, 26, 1.0, 1.5, True, False, "3", None, [1], {"at": 1}])
def test_look_back_takes_only_a_count_of_the_actions_played(bad):
    session = session_of("demo-valmont", 25)
    answer = session.call("look_back", {"at": bad})
    assert not answer["ok"]
    assert answer["error"]["key"] == "error.bad_count"
    assert answer["error"]["params"] == {"name": "at", "limit": 25}


def test_look_back_is_not_offered_with_hidden_blocks():
    session = session_of("demo-fontanella", 5)
    before = state_hash(session.game.state)
    answer = session.call("look_back", {"at": 1})
    assert answer["error"]["key"] == "error.no_look_back"
    assert state_hash(session.game.state) == before


def test_look_back_refuses_an_unknown_viewer_and_no_game():
    session = session_of("demo-hohenbrueck", 5)
    answer = session.call("look_back", {"at": 1, "viewer": "prussia-and-france"})
    assert answer["error"]["key"] == "error.bad_viewer"
    empty = Session()
    assert empty.call("look_back", {"at": 0})["error"]["key"] == "error.no_game"
    assert empty.call("load_scenario", {"id": "demo-valmont"})["ok"]
    assert empty.call("look_back", {"at": 0})["error"]["key"] == "error.no_game"
