"""What a position is worth to Muster (``muster.worth`` and each system's ``evaluation``): every
weight of ``evaluation.json`` is read, and every piece's advance counts, not only the nearest."""

from __future__ import annotations

import random

import pytest

from muster import worth
from muster.game import Game
from muster.opponent import evaluation
from muster.scenario import load_builtin
from muster.systems import game_rules

DEMOS = {"hex-facing": "demo-valmont", "hex-hexside": "demo-hohenbrueck"}
DEMOS["area-locale"] = "demo-fontanella"


def positions(scenario_id: str, count: int = 6, step: int = 25) -> list:
    """States of a demo every ``step`` random actions (dice rolled as they come)."""
    sc = load_builtin(scenario_id)
    game = Game.start(sc, game_rules(sc.system), 7)
    rng = random.Random(7)
    found = []
    while len(found) < count and not game.state.get("result"):
        for _ in range(step):
            if game.state.get("result"):
                break
            if game.rules.decider(sc, game.state) is None:
                game.push({"type": "roll"})
            else:
                game.apply(rng.choice(game.legal_actions()))
        found.append(game.state)
    return [sc, found]


class Read(dict):
    """Weights that note which of them were read."""

    def __init__(self, *args):
        super().__init__(*args)
        self.read = set()

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)


@pytest.mark.parametrize("system", sorted(DEMOS))
def test_every_weight_is_read(system, monkeypatch):
    sc, states = positions(DEMOS[system])
    evaluate = evaluation(system)
    side = sc.data["sides"][0]["id"]
    noted = Read(worth.weights(system))
    monkeypatch.setattr(worth, "weights", lambda _system: noted)
    for state in states:
        evaluate(sc, state, side)
        # a unit in each state that weighs on its own (disordered, routed, not in good order)
        for uid in list(state.get("units", {}))[:1]:
            for status in ("disordered", "routed", "disrupted"):
                unit = {**state["units"][uid], "status": status}
                evaluate(sc, {**state, "units": {**state["units"], uid: unit}}, side)
    assert evaluate(sc, {**states[-1], "result": {"winner": side}}, side) == noted["win"]
    assert noted.read == set(noted), set(noted) - noted.read  # none left unread


@pytest.mark.parametrize("system", sorted(DEMOS))
def test_the_worth_of_a_position_is_zero_sum(system):
    sc, states = positions(DEMOS[system])
    evaluate = evaluation(system)
    a, b = (s["id"] for s in sc.data["sides"])
    for state in states:
        assert evaluate(sc, state, a) == pytest.approx(-evaluate(sc, state, b))


def test_every_piece_brought_forward_gains_not_only_the_nearest():
    def distance(place: int, goal: int) -> float:
        return abs(place - goal)

    goals = [(0, 1)]
    behind = {"a": [1, 6], "b": [3]}
    forward = {"a": [1, 5], "b": [3]}  # the piece behind moved up; the nearest did not move
    assert worth.reach(goals, behind, "a", distance, 6) == worth.reach(
        goals, forward, "a", distance, 6
    )
    assert worth.advance(goals, forward, "a", distance, 8) > worth.advance(
        goals, behind, "a", distance, 8
    )
    # zero-sum: the other side's worth is the opposite
    assert worth.advance(goals, forward, "b", distance, 8) == -worth.advance(
        goals, forward, "a", distance, 8
    )
