#!/usr/bin/env python3
"""How fast Muster thinks in the browser: ms per decision at each level, through the app's
engine (postMessage to the worker, Pyodide, and back) in headless Chromium, beside the same
calls in CPython (``Session.call``), on the same positions.

The positions are those of ``bench/advise_speed.py`` (each demo, random play, a side to
decide), carried to the browser as saves (``load_save``); each ``advise`` is timed once per
position and level after one warm-up call: in CPython and in the browser without a budget of
time (the same search in each: their ratio is Pyodide's cost), and in the browser with the
app's own (``BUDGET_MS`` of static/muster.js, past which the search stops deepening: what a
player waits). Prints, per demo and level, the median and the worst of each; the target is the
default level's worst within 2 s in the browser, with the app's budget.

    python bench/advise_pyodide.py [--positions 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "py"), str(ROOT / "bench")]

from advise_speed import APP_BUDGET_MS, DEMOS, positions  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

import build  # noqa: E402
from muster.api import Session  # noqa: E402
from muster.opponent import DEFAULT_LEVEL, LEVELS  # noqa: E402
from tests.conftest import chromium_launch_args  # noqa: E402

TARGET_MS = 2000

BROWSER_LOOP = """async ([saves, levels, budget]) => {
  const engine = window.muster.engine;
  const times = {};
  for (const [save, viewer] of saves) {
    await engine.call("load_save", {save: save});  // an error is thrown
    await engine.call("advise", {viewer: viewer, level: levels[0], seed: 1});  // warm-up
    for (const level of levels) {
      const start = performance.now();
      const asked = {viewer: viewer, level: level, seed: 1};
      if (budget) asked.budget_ms = budget;
      await engine.call("advise", asked);
      (times[level] = times[level] || []).push(performance.now() - start);
    }
  }
  return times;
}"""


def cpython_times(saves: list[tuple[Any, str]], levels: list[int]) -> dict[int, list[float]]:
    """Milliseconds per ``advise`` through ``Session.call`` in this process."""
    times: dict[int, list[float]] = {lv: [] for lv in levels}
    for save, viewer in saves:
        session = Session()
        assert session.call("load_save", {"save": save})["ok"]
        session.call("advise", {"viewer": viewer, "level": levels[0], "seed": 1})  # warm-up
        for lv in levels:
            start = time.perf_counter()
            answer = session.call("advise", {"viewer": viewer, "level": lv, "seed": 1})
            assert answer["ok"], answer
            times[lv].append((time.perf_counter() - start) * 1000)
    return times


def browser_times(
    saves_by_demo: dict[str, list[tuple[Any, str]]], levels: list[int], budgets: list[int]
) -> dict[int, dict[str, dict[int, list[float]]]]:
    """Milliseconds per ``advise`` round trip from the page through the worker, in Chromium,
    by budget of time (0: none), demo and level."""
    dist = Path(tempfile.mkdtemp()) / "dist"
    build.build(dist)
    server = build.make_server(dist, 0, "/")
    build.serve_in_thread(server)
    url = f"http://127.0.0.1:{server.server_address[1]}/?nosw"
    out: dict[int, dict[str, dict[int, list[float]]]] = {b: {} for b in budgets}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(**chromium_launch_args())
        page = browser.new_page()
        page.goto(url)
        page.wait_for_selector("html[data-ready='1']", state="attached", timeout=120_000)
        for demo, saves in saves_by_demo.items():
            for budget in budgets:
                found = page.evaluate(BROWSER_LOOP, [saves, levels, budget])
                out[budget][demo] = {int(k): v for k, v in found.items()}
        browser.close()
    server.shutdown()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=5)
    n = ap.parse_args().positions
    levels = sorted(LEVELS)
    saves = {
        demo: [
            (g.save(), g.rules.decider(g.scenario, g.state))
            for g in positions(demo, n)
            if not g.state.get("chance")  # the API advises no one at a chance point
        ]
        for demo in DEMOS
    }
    cp = {demo: cpython_times(s, levels) for demo, s in saves.items()}
    br = browser_times(saves, levels, [0, APP_BUDGET_MS])
    print(
        "| demo | level | positions | CPython ms (median, worst) | browser ms (median, worst) "
        f"| browser, app's {APP_BUDGET_MS} ms budget (median, worst) |"
    )
    print("| ---- | ----- | --------- | ------------- | ------------- | ------------- |")
    worst_default = 0.0
    for demo in DEMOS:
        for lv in levels:
            c, b, a = cp[demo][lv], br[0][demo][lv], br[APP_BUDGET_MS][demo][lv]
            if lv == DEFAULT_LEVEL:
                worst_default = max(worst_default, max(a))
            cells = [f"{statistics.median(t):.0f}, {max(t):.0f}" for t in (c, b, a)]
            print(f"| {demo} | {lv} | {len(b)} | " + " | ".join(cells) + " |")
    verdict = "met" if worst_default <= TARGET_MS else "missed"
    print(
        f"default level (level {DEFAULT_LEVEL}), slowest decision in the browser with the app's "
        f"budget: {worst_default:.0f} ms (target {TARGET_MS} ms: {verdict})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
