#!/usr/bin/env python3
"""Random playouts: seeded games of legal actions only, checked for crashes and dead ends.

Every game must end (a result) within the action limit; after each action an invariant
hook checks the state; every 50th game must save and replay to the same state. Actions are
taken with ``Game.push`` (unchecked: each is one of the legal actions just listed); the
replay goes through ``Game.load``, which checks every action with ``Game.apply``.

    python bench/playouts.py [--games 1000] [--scenario demo-valmont]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
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
    """What must hold after every action (a dead end shows as no legal action, no result)."""
    state = game.state
    assert json.loads(json.dumps(state)) == state, "state is not plain JSON"
    hexes = {u["hex"] for u in state.get("units", {}).values() if not u.get("out")}
    for label in hexes:
        game.scenario.hex_at(label)


def play(args: tuple[str, int, int]) -> list[int]:
    """Play seeds [first, last) and return each game's number of actions."""
    scenario_id, first, last = args
    scenario = load_builtin(scenario_id)
    rules = game_rules(scenario.system)
    lengths = []
    for seed in range(first, last):
        rng = random.Random(seed)
        game = Game.start(scenario, rules, seed)
        for _ in range(LIMIT):
            legal = game.legal_actions()
            if not legal:
                break
            game.push(rng.choice(legal))
            invariants(game)
        assert game.state.get("result"), f"seed {seed}: dead end or no result after {LIMIT}"
        if seed % 50 == 0:
            assert Game.load(game.save(), game_rules).state == game.state, f"seed {seed}: replay"
        lengths.append(len(game.actions))
    return lengths


def main() -> int:
    """Play the games (split over --jobs processes) and report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--scenario", default="demo-valmont")
    args = parser.parse_args()
    started = time.perf_counter()
    bounds = [args.games * i // args.jobs for i in range(args.jobs + 1)]
    chunks = [(args.scenario, a, b) for a, b in zip(bounds, bounds[1:], strict=False)]
    with multiprocessing.Pool(args.jobs) as pool:
        lengths = sorted(n for part in pool.map(play, chunks) for n in part)
    elapsed = time.perf_counter() - started
    print(
        f"{args.games} games of {args.scenario}: all ended with a result, no exception, "
        f"no dead end; actions per game median {lengths[len(lengths) // 2]}, "
        f"max {lengths[-1]}; {elapsed:.0f} s on {args.jobs} processes"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
