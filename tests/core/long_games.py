"""Long games for the resume tests and bench: a demo with its turns raised so that random play
goes on for thousands of actions (fights avoided, so the armies last), played with the fast
``Game.push``."""

from __future__ import annotations

import copy
import random
from typing import Any

from muster.game import Game
from muster.scenario import load_builtin, parse_scenario
from muster.systems import game_rules

FIGHTS = frozenset({"fire", "charge", "melee", "attack", "assault", "bombard"})


def long_game(
    actions: int,
    seed: int = 1,
    scenario: str = "demo-valmont",
    pick: int | None = None,
    until: str | None = None,
) -> Game:
    """A game of ``scenario`` (99 turns, dice seeded with ``seed``) after ``actions`` random
    actions (chosen with ``pick``, by default ``seed``), not over; with ``until``, played on
    from there to the first position where an action of that type is legal (so that games of
    different lengths end at the same kind of position)."""
    data: dict[str, Any] = copy.deepcopy(load_builtin(scenario).data)
    data["turns"] = 99
    sc = parse_scenario(data)
    game = Game.start(sc, game_rules(sc.system), seed)
    rng = random.Random(seed if pick is None else pick)
    while True:
        legal = game.legal_actions()
        if len(game.actions) >= actions and (
            until is None or any(a["type"] == until for a in legal)
        ):
            return game
        assert legal and not game.state.get("result"), len(game.actions)
        calm = [a for a in legal if a["type"] not in FIGHTS]
        game.push(rng.choice(calm or legal))
