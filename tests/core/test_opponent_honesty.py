"""Muster is honest: it decides from its own side's view and its own random stream only.

The same position and bot seed give the same decision whatever the view does not show: the
game's random stream reseeded, the other side's hidden blocks shuffled among themselves (ids
renamed) or replaced by garbage of the same shape."""

from __future__ import annotations

import copy
import random

import pytest

from muster.game import Game
from muster.opponent import Level, think
from muster.scenario import load_builtin
from muster.systems import game_rules

# A small fixed budget of actions (no time budget): the decisions are deterministic.
SMALL = Level("level.muster_1", chances=1, deepen=2, plies=1, worlds=2, nodes=300)
DEMOS = ("demo-valmont", "demo-hohenbrueck", "demo-fontanella")


def position(scenario_id: str, seed: int, moves: int) -> Game:
    """A game after ``moves`` random actions, stopped where a side decides."""
    scenario = load_builtin(scenario_id)
    rules = game_rules(scenario.system)
    game = Game.start(scenario, rules, seed)
    rng = random.Random(seed)
    while (
        len(game.actions) < moves
        or rules.decider(scenario, game.state) is None
        or game.state.get("chance")
    ):
        assert not game.state.get("result")
        game.push(rng.choice(game.legal_actions()))
    return game


def with_state(game: Game, state: dict) -> Game:
    """The same game at ``state`` in place of its current state."""
    other = Game(game.scenario, game.rules, game.seed, dict(game.options))
    other.states = [*game.states[:-1], state]
    other.actions = list(game.actions)
    other.log = list(game.log)
    other.log_marks = list(game.log_marks)
    return other


def decision(game: Game, seed: int = 5) -> dict:
    side = game.rules.decider(game.scenario, game.state)
    return think(game, side, SMALL, seed)["action"]


@pytest.mark.parametrize("scenario_id", DEMOS)
@pytest.mark.parametrize("moves", [40, 150])
def test_the_games_random_stream_is_never_read(scenario_id, moves):
    game = position(scenario_id, 11, moves)
    state = copy.deepcopy(game.state)
    state["rng"] = {"seed": 987654, "counter": 4321}
    assert decision(with_state(game, state)) == decision(game)


def hidden_ids(game: Game) -> list[str]:
    """The other side's blocks the deciding side cannot see (on the map, not revealed)."""
    sc, state = game.scenario, game.state
    side = game.rules.decider(sc, state)
    return [
        pid
        for pid, p in state["pieces"].items()
        if sc.units[pid]["side"] != side and not p["revealed"] and not p["out"]
    ]


def renamed(value, rename):
    if isinstance(value, str):
        return rename.get(value, value)
    if isinstance(value, dict):
        return {rename.get(k, k): renamed(v, rename) for k, v in value.items()}
    if isinstance(value, list):
        return [renamed(v, rename) for v in value]
    return value


@pytest.mark.parametrize("seed", [3, 4, 5])
@pytest.mark.parametrize("moves", [30, 120])
def test_hidden_blocks_shuffled_give_the_same_decision(seed, moves):
    game = position("demo-fontanella", seed, moves)
    hidden = hidden_ids(game)
    assert len(hidden) >= 2
    shuffled = list(hidden)
    random.Random(seed).shuffle(shuffled)
    assert shuffled != hidden
    state = renamed(game.state, dict(zip(hidden, shuffled, strict=True)))
    state["pieces"] = {pid: state["pieces"][pid] for pid in game.state["pieces"]}
    other = with_state(game, state)
    side = game.rules.decider(game.scenario, game.state)
    rules, sc = game.rules, game.scenario
    # The premise: the side's screen is the same; the blocks behind it are not.
    assert rules.view_for(sc, state, side) == rules.view_for(sc, game.state, side)
    assert state["pieces"] != game.state["pieces"]
    assert decision(other) == decision(game)


@pytest.mark.parametrize("seed", [6, 7])
def test_hidden_blocks_replaced_by_garbage_give_the_same_decision(seed):
    game = position("demo-fontanella", seed, 80)
    state = copy.deepcopy(game.state)
    for pid in hidden_ids(game):
        p = state["pieces"][pid]
        p.update(steps=77, moved="garbage", assaulted="garbage", bombarded=-1234)
        p.update(declared="garbage", road="garbage")
    assert decision(with_state(game, state)) == decision(game)


def test_the_bot_seed_is_its_own():
    """Two bot seeds may differ; the same seed always gives the same decision."""
    game = position("demo-fontanella", 2, 10)
    assert decision(game, 9) == decision(game, 9)
