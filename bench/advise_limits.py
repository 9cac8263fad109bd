#!/usr/bin/env python3
"""How long Muster takes to decide in a battle at the core's limits: the scenarios of
``bench/limits.py`` (a hex-facing and a hex-hexside map of 160x125 hexes with 2,000 units, an
area-locale map of the most locales and blocks), each at its first decision, at each level,
with the app's budget of time (``BUDGET_MS`` of static/muster.js) and in CPython: elapsed and
CPU ms, the legal actions and how many actions the search took (``nodes``).

    python bench/advise_limits.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "bench")]

import limits  # noqa: E402
from advise_speed import APP_BUDGET_MS  # noqa: E402

from muster.api import Session  # noqa: E402
from muster.opponent import LEVELS  # noqa: E402


def main() -> int:
    print(f"budget: {APP_BUDGET_MS} ms")
    print("| system | legal actions | level | elapsed ms | CPU ms | actions taken |")
    print("| ------ | ------------- | ----- | ---------- | ------ | ------------- |")
    for system in ("hex-facing", "hex-hexside", "area-locale"):
        data = limits.area_scenario() if system == "area-locale" else limits.hex_scenario(system)
        session = Session()
        assert session.call("load_scenario", {"scenario": data})["ok"]
        assert session.call("new_game", {"seed": 1})["ok"]
        game = session.game
        while game.rules.decider(game.scenario, game.state) is None or game.state.get("chance"):
            game.push({"type": "roll"})
        side = game.rules.decider(game.scenario, game.state)
        legal = len(game.legal_actions())
        for level in sorted(LEVELS):
            asked = {"viewer": side, "level": level, "seed": 1, "budget_ms": APP_BUDGET_MS}
            t, c = time.perf_counter(), time.process_time()
            answer = session.call("advise", asked)
            dt, dc = time.perf_counter() - t, time.process_time() - c
            assert answer["ok"], answer
            nodes = answer["result"]["nodes"]
            print(f"| {system} | {legal} | {level} | {dt * 1000:.0f} | {dc * 1000:.0f} | {nodes} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
