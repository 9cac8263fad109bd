#!/usr/bin/env python3
"""Time of listing the legal actions, per rule system, over the positions of random games.

For each system, seeded random games of its shipped scenarios (the demos) are played to
their end; every position where a side decides (no chance point, no result) is kept. Each
position is then listed afresh: ``rules.legal_actions(scenario, state)`` called on the
system's ``Ruleset`` directly, with no ``Game`` cache. Two figures per position:

- *first*: the listing made while the game is played, the first time that position is ever
  listed, as the app lists each new position once (what a system remembers between positions,
  a unit's reach kept until something it depends on changes, stays as it would in play);
- *again*: the median of ``--repeat`` further listings on deep copies of the state.

Printed per system and figure: the number of positions, the median, the 99th percentile and
the worst of the positions' times, and the target (p99 <= 5 ms, worst <= 50 ms) with PASS or
FAIL, judged on the first listing. The worst position is named (scenario, seed, action
number) so it can be replayed.

    python3 bench/legal_actions.py [--system hex-hexside] [--games 10] [--seed 1]
        [--repeat 3] [--scenario demo-hohenbrueck] [--clock cpu|wall]

Exit status 1 if a system misses the target. CPython only; the scenario's own caches
(``scenario.memo``: settings, terrain chart) stay warm, as in the app. Times are the
process's CPU time by default (``time.process_time``): on a machine shared with other work
the elapsed time's tail measures the neighbours; ``--clock wall`` gives elapsed time.
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from muster.game import Game  # noqa: E402
from muster.scenario import builtin_scenarios, load_builtin  # noqa: E402
from muster.systems import game_rules  # noqa: E402

P99_MS = 5.0
WORST_MS = 50.0
LIMIT = 20_000  # actions: a longer game is taken for one that never ends


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def positions(
    scenario: Any, seed: int, clock: str = "cpu"
) -> list[tuple[int, dict[str, Any], float]]:
    """The positions where a side decides in one random game: (action number, state, the
    time in ms of its first listing, made as the game is played)."""
    now = CLOCKS[clock]
    rules = game_rules(scenario.system)
    game = Game.start(scenario, rules, seed)
    rng = random.Random(seed)
    out = []
    while not game.state.get("result") and len(game.actions) < LIMIT:
        state = game.state
        if state.get("chance"):
            legal = game.legal_actions()
        else:
            started = now()
            legal = rules.legal_actions(scenario, state)
            out.append((len(game.actions), state, (now() - started) * 1000))
        if not legal:
            break
        game.push(rng.choice(legal))  # one of the legal actions: no check again
    return out


def time_listing(
    rules: Any, scenario: Any, state: dict[str, Any], repeat: int, clock: str = "cpu"
) -> float:
    """The median time in ms of ``repeat`` further listings of ``state``'s legal actions."""
    now = CLOCKS[clock]
    times = []
    for _ in range(repeat):
        fresh = copy.deepcopy(state)
        started = now()
        rules.legal_actions(scenario, fresh)
        times.append((now() - started) * 1000)
    return statistics.median(times)


def percentile(sorted_values: list[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank) of sorted values."""
    if not sorted_values:
        return 0.0
    rank = max(1, -(-len(sorted_values) * p // 100))
    return sorted_values[int(rank) - 1]


def measure(
    system: str, scenario_ids: list[str], games: int, seed: int, repeat: int, clock: str
) -> bool:
    """Print the figures of one system; True if it meets the target."""
    first: list[tuple[float, str, int, int]] = []  # ms, scenario, seed, action number
    again: list[tuple[float, str, int, int]] = []
    for scenario_id in scenario_ids:
        scenario = load_builtin(scenario_id)  # its caches stay warm, as in the app
        rules = game_rules(system)
        for s in range(seed, seed + games):
            for index, state, ms in positions(scenario, s, clock):
                first.append((ms, scenario_id, s, index))
                again.append((time_listing(rules, scenario, state, repeat, clock), *first[-1][1:]))
    if not first:
        print(f"{system}: no positions")
        return False
    ok = True
    for name, timed in (("first", first), ("again", again)):
        values = sorted(t[0] for t in timed)
        median, p99, worst = statistics.median(values), percentile(values, 99), values[-1]
        passed = p99 <= P99_MS and worst <= WORST_MS
        slowest = max(timed)
        verdict = ("PASS" if passed else "FAIL") if name == "first" else "(information)"
        if name == "first":
            ok = passed
        print(
            f"{system if name == 'first' else '':12} {name:5} positions {len(values):6}  "
            f"median {median:7.3f} ms  p99 {p99:7.3f} ms  worst {worst:8.3f} ms "
            f"(at {slowest[1]} seed {slowest[2]} after {slowest[3]} actions)  {verdict}"
        )
    return ok


def main() -> int:
    """Measure every system asked for and report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--system", action="append", help="one system (repeatable); default all")
    parser.add_argument("--scenario", action="append", help="one shipped scenario (repeatable)")
    parser.add_argument("--games", type=int, default=10, help="games per scenario (10)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (1)")
    parser.add_argument("--repeat", type=int, default=3, help="listings per position (3)")
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="cpu",
        help="cpu: the process's CPU time (default; steady on a shared machine), wall: elapsed",
    )
    args = parser.parse_args()
    shipped = builtin_scenarios()
    systems = args.system or sorted({e["system"] for e in shipped})
    started = time.perf_counter()
    ok = True
    for system in systems:
        ids = [e["id"] for e in shipped if e["system"] == system]
        if args.scenario:
            ids = [i for i in ids if i in args.scenario]
        if not ids:
            continue
        ok = measure(system, ids, args.games, args.seed, args.repeat, args.clock) and ok
    print(
        f"{args.games} games per scenario from seed {args.seed}; target on the first listing "
        f"p99 <= {P99_MS:g} ms, worst <= {WORST_MS:g} ms; again: median of {args.repeat} "
        f"listings per position; {args.clock} time; {time.perf_counter() - started:.0f} s"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
