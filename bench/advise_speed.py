#!/usr/bin/env python3
"""How fast Muster thinks in CPython: ms per decision at each level (the median and the worst,
in the process's CPU time, which the neighbours of a shared machine do not stretch, and in
elapsed time) and actions per second of its search (actions taken on its own copies of the
state), over positions of each demo reached by random play; and the cost of copying a state
(``knowledge.clone`` against ``copy.deepcopy``), measured in one run. The browser's figures:
``bench/advise_pyodide.py``.

    python bench/advise_speed.py [--positions 8]
"""

from __future__ import annotations

import argparse
import copy
import random
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from muster.game import Game  # noqa: E402
from muster.opponent import LEVELS, advise  # noqa: E402
from muster.opponent.knowledge import clone  # noqa: E402
from muster.scenario import load_builtin  # noqa: E402
from muster.systems import game_rules  # noqa: E402

DEMOS = ("demo-valmont", "demo-hohenbrueck", "demo-fontanella")
# the budget of time the app gives Muster's every decision (static/muster.js)
APP_BUDGET_MS = int(
    re.search(r"export const BUDGET_MS = (\d+);", (ROOT / "static/muster.js").read_text())[1]
)


def positions(scenario_id: str, count: int) -> list[Game]:
    """``count`` games of the demo, each stopped where a side decides after random play."""
    sc = load_builtin(scenario_id)
    rules = game_rules(sc.system)
    games = []
    for n in range(count):
        game = Game.start(sc, rules, n)
        rng = random.Random(n)
        for _ in range(rng.randrange(0, 200)):
            if game.state.get("result"):
                break
            game.push(rng.choice(game.legal_actions()))
        while not game.state.get("result") and (
            rules.decider(sc, game.state) is None or game.state.get("chance")
        ):
            game.push({"type": "roll"})
        if not game.state.get("result"):
            games.append(game)
    return games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=8)
    args = ap.parse_args()
    print("| demo | level | CPU ms (median, worst) | elapsed ms (median) | search actions/s |")
    print("| ---- | ----- | ---------------------- | ------------------- | ---------------- |")
    for scenario_id in DEMOS:
        games = positions(scenario_id, args.positions)
        for level in sorted(LEVELS):
            ms, cpu, rate = [], [], []
            for game in games:
                side = game.rules.decider(game.scenario, game.state)
                t, c = time.perf_counter(), time.process_time()
                answer = advise(game, side, level, 1)
                dt, dc = time.perf_counter() - t, time.process_time() - c
                ms.append(1000 * dt)
                cpu.append(1000 * dc)
                rate.append(answer["nodes"] / max(dc, 1e-6))
            print(
                f"| {scenario_id} | {level} | {statistics.median(cpu):.0f}, {max(cpu):.0f} "
                f"| {statistics.median(ms):.0f} | {statistics.median(rate):.0f} |"
            )
        state = games[0].state
        for name, how in (("clone", clone), ("deepcopy", copy.deepcopy)):
            t = time.perf_counter()
            for _ in range(200):
                how(state)
            print(
                f"{scenario_id}: one state copied by {name}: {(time.perf_counter() - t) * 5:.3f} ms"
            )


if __name__ == "__main__":
    main()
