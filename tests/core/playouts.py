"""One random playout for the tests of every system: legal actions at random (some types
preferred, to reach combat's corners often); the state stays plain JSON, the game ends with a
result (no dead end), and its save replays to the same state.

The actions are taken with ``Game.push`` (unchecked: each is one of the legal actions just
listed); the replay of the save at the end goes through ``Game.load``, which takes every
action again with the checked ``Game.apply``, so each playout tries both paths."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from typing import Any

from muster.game import Game
from muster.systems import game_rules

LIMIT = 20_000  # actions: a game longer than this is taken for one that never ends


def random_playout(
    scenario: Any,
    rules: Any,
    seed: int,
    prefer: Iterable[str] = (),
    bias: float = 0.0,
    check: Callable[[Game], None] | None = None,
) -> Game:
    """Play ``scenario`` to its end at random; ``check(game)`` runs after every action."""
    preferred = set(prefer)
    game = Game.start(scenario, rules, seed)
    rng = random.Random(seed)
    while not game.state.get("result"):
        legal = game.legal_actions()
        assert legal, f"seed {seed}: no legal action and no result"
        assert len(game.actions) < LIMIT, f"seed {seed}: no result after {LIMIT} actions"
        fights = [a for a in legal if a["type"] in preferred]
        game.push(rng.choice(fights) if fights and rng.random() < bias else rng.choice(legal))
        assert json.loads(json.dumps(game.state)) == game.state
        if check is not None:
            check(game)
    assert game.legal_actions() == []
    assert Game.load(game.save(), game_rules).state == game.state
    return game
