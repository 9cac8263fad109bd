"""hex-hexside's own search of the hexes a unit can reach (``movement.reach``), the fast path of
its movement listing: the same hexes and costs as the core's ``movement.reachable`` in every
position of random games of the demo, and kept while nothing it depends on changes."""

from __future__ import annotations

import random

import pytest

from muster.game import Game
from muster.movement import reachable
from muster.scenario import load_builtin
from muster.systems.hex_hexside import movement
from muster.systems.hex_hexside.position import board_for
from muster.systems.hex_hexside.rules import RULES


def positions(seed: int, every: int = 5) -> list[tuple[object, dict]]:
    scenario = load_builtin("demo-hohenbrueck")
    game = Game.start(scenario, RULES, seed)
    rng = random.Random(seed)
    found = []
    while not game.state.get("result"):
        if len(game.actions) % every == 0:
            found.append((scenario, game.state))
        game.push(rng.choice(game.legal_actions()))
    return found


@pytest.mark.parametrize("seed", [1, 2])
def test_reach_finds_what_the_cores_search_finds(seed):
    checked = 0
    for scenario, state in positions(seed):
        board = board_for(scenario, state)
        for uid, unit in board.units.items():
            core = reachable(board, uid, movement.RULES)
            assert movement.search(board, uid) == {h: r.cost for h, r in core.passed.items()}
            found = movement.reach(board, uid)
            assert found.costs == {h: r.cost for h, r in core.items()}
            assert found.labels == tuple(board.label(h) for h in sorted(core) if h != unit.hex)
            checked += 1
    assert checked > 1000


def test_a_unit_is_searched_again_only_when_what_its_reach_depends_on_changes(monkeypatch):
    scenario = load_builtin("demo-hohenbrueck")
    game = Game.start(scenario, RULES, 1)
    while game.state["phase"] != "movement":
        game.push({"type": "end_phase"})
    searched: list[str] = []
    search = movement.search

    def counting(board, uid):
        searched.append(uid)
        return search(board, uid)

    monkeypatch.setattr(movement, "search", counting)
    RULES.legal_actions(scenario, game.state)
    first = set(searched)
    assert first  # every unit of the side that may move
    searched.clear()
    RULES.legal_actions(scenario, game.state)
    assert searched == []  # the same position: nothing searched again
    # One unit moves: the others keep their reach unless its move changed what theirs hangs on.
    mover = sorted(first)[0]
    move = next(a for a in game.legal_actions() if a["type"] == "move" and a["unit"] == mover)
    game.push(move)
    searched.clear()
    RULES.legal_actions(scenario, game.state)
    assert mover not in searched and len(searched) < len(first) - 1
    # An enemy unit elsewhere: every unit of the side is searched again.
    state = game.state
    enemy = next(
        uid
        for uid, u in state["units"].items()
        if scenario.units[uid]["side"] != state["side"] and not u["out"]
    )
    state["units"][enemy]["status"] = "routed"  # a routed unit has no zone of control
    searched.clear()
    RULES.legal_actions(scenario, state)
    assert set(searched) == first - {mover}
