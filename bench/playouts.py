#!/usr/bin/env python3
"""Random playouts: seeded games of legal actions only, checked for crashes and dead ends.

Every game must end (a result) within the action limit; after each action an invariant
hook checks the state; each finished game must save and replay to the same state.

    python bench/playouts.py [--games 1000] [--scenario demo-valmont]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from muster.game import Game  # noqa: E402
from muster.scenario import load_builtin  # noqa: E402
from muster.systems import game_rules  # noqa: E402

LIMIT = 20_000


def invariants(game: Game) -> None:
    """What must hold after every action."""
    state = game.state
    assert json.loads(json.dumps(state)) == state, "state is not plain JSON"
    legal = game.legal_actions()
    assert legal or state.get("result"), "dead end: no legal action and no result"
    hexes = {u["hex"] for u in state.get("units", {}).values() if not u.get("out")}
    for label in hexes:
        game.scenario.hex_at(label)


def main() -> int:
    """Play the games and report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--scenario", default="demo-valmont")
    args = parser.parse_args()
    scenario = load_builtin(args.scenario)
    rules = game_rules(scenario.system)
    started = time.perf_counter()
    lengths = []
    for seed in range(args.games):
        rng = random.Random(seed)
        game = Game.start(scenario, rules, seed)
        for _ in range(LIMIT):
            legal = game.legal_actions()
            if not legal:
                break
            game.apply(rng.choice(legal))
            invariants(game)
        assert game.state.get("result"), f"seed {seed}: no result after {LIMIT} actions"
        if seed % 50 == 0:
            assert Game.load(game.save(), game_rules).state == game.state, f"seed {seed}: replay"
        lengths.append(len(game.actions))
    elapsed = time.perf_counter() - started
    lengths.sort()
    print(
        f"{args.games} games of {args.scenario}: all ended with a result, no exception, "
        f"no dead end; actions per game median {lengths[len(lengths) // 2]}, "
        f"max {lengths[-1]}; {elapsed:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
