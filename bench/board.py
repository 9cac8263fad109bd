#!/usr/bin/env python3
"""Board benchmark: reachable hexes and line of sight on a generated 60x40 map.

Times the same queries through the JSON facade in CPython and, in headless Chromium,
through the app's engine (postMessage to the worker, Pyodide, and back), and prints
medians and the Pyodide/CPython ratio. Budget: under 16 ms a query in the browser.

    python bench/board.py [--queries 200] [--system hex-facing]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "py")]

from playwright.sync_api import sync_playwright  # noqa: E402

import build  # noqa: E402
from muster.api import Session  # noqa: E402
from muster.hexgrid import Numbering, hex_neighbors  # noqa: E402
from tests.conftest import chromium_launch_args  # noqa: E402

COLUMNS, ROWS = 60, 40
TERRAIN = {
    "hex-facing": {"woods": 0.14, "town": 0.03, "marsh": 0.04, "rough": 0.06, "garden": 0.02},
    "hex-hexside": {"woods": 0.16, "town": 0.03, "marsh": 0.05, "walled_town": 0.01},
}


def generate(system: str, seed: int = 1) -> dict[str, Any]:
    """A 60x40 scenario with mixed terrain, hills with slopes, streams, roads and 40 units."""
    rng = random.Random(seed)
    n = Numbering("flat", "even")
    labels = [f"{c:02d}{r:02d}" for c in range(1, COLUMNS + 1) for r in range(1, ROWS + 1)]
    on_map = set(labels)
    hexes: dict[str, Any] = {}
    for label in labels:
        roll = rng.random()
        for terrain, share in TERRAIN[system].items():
            if roll < share:
                hexes[label] = {"terrain": [terrain]}
                break
            roll -= share
    for _ in range(12):  # hills: a level-1 blob, sometimes a level-2 top
        centre = n.to_hex(rng.choice(labels))
        for h in (centre, *hex_neighbors(centre)):
            label = n.label(h)
            if label in on_map:
                hexes.setdefault(label, {})["level"] = 1
        if rng.random() < 0.5:
            hexes.setdefault(n.label(centre), {})["level"] = 2
    sides: dict[tuple[str, str], dict[str, Any]] = {}
    for label in labels:
        h = n.to_hex(label)
        level = hexes.get(label, {}).get("level", 0)
        for m in hex_neighbors(h):
            other = n.label(m)
            if other not in on_map or other < label:
                continue
            other_level = hexes.get(other, {}).get("level", 0)
            if level != other_level:
                up = label if level > other_level else other
                feature = "slope" if system == "hex-hexside" or rng.random() < 0.7 else "crest"
                sides[(label, other)] = {"between": [label, other], "features": [feature], "up": up}
            elif rng.random() < 0.03:
                sides[(label, other)] = {"between": [label, other], "features": ["stream"]}
    roads = []
    for row in (8, 20, 32):
        roads.append(
            {"kind": "road", "hexes": [f"{c:02d}{row:02d}" for c in range(1, COLUMNS + 1)]}
        )
    for (a, b), spec in list(sides.items()):  # a road crossing a slope keeps it
        if "stream" in spec["features"] and a[2:] in ("08", "20", "32") and b[2:] == a[2:]:
            spec["features"].append("bridge")
    units = []
    types = ["infantry"] * 5 + ["cavalry"] * 3 + ["artillery"]
    free = [x for x in labels if x not in hexes or "terrain" not in hexes[x]]
    rng.shuffle(free)
    for i in range(40):
        side = "a" if i % 2 else "b"
        utype = rng.choice(types)
        mp = {"infantry": 6, "cavalry": 12, "artillery": 4}[utype]
        units.append(
            {
                "id": f"u{i}",
                "side": side,
                "type": utype,
                "name": f"Unit {i}",
                "hex": free[i],
                "ratings": {"movement": mp},
                "facing": rng.randrange(12),
            }
        )
    return {
        "format": "muster-scenario/1",
        "id": f"bench-{system}",
        "system": system,
        "title": f"Benchmark map {COLUMNS}x{ROWS}",
        "map": {
            "orientation": "flat",
            "stagger": "even",
            "columns": COLUMNS,
            "rows": ROWS,
            "hexes": hexes,
            "hexsides": list(sides.values()),
            "roads": roads,
        },
        "sides": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
        "units": units,
    }


def queries(scenario: dict[str, Any], count: int, seed: int = 2) -> list[dict[str, Any]]:
    """Alternating reachable (a random unit) and LOS (a random pair within 20 hexes)."""
    rng = random.Random(seed)
    n = Numbering("flat", "even")
    labels = [f"{c:02d}{r:02d}" for c in range(1, COLUMNS + 1) for r in range(1, ROWS + 1)]
    out = []
    for i in range(count):
        if i % 2 == 0:
            unit = rng.choice(scenario["units"])["id"]
            out.append({"method": "reachable", "params": {"unit": unit}})
        else:
            a = rng.choice(labels)
            while True:
                b = rng.choice(labels)
                ha, hb = n.to_hex(a), n.to_hex(b)
                if 0 < max(abs(ha.q - hb.q), abs(ha.r - hb.r), abs(ha.s - hb.s)) <= 20:
                    break
            out.append({"method": "los", "params": {"from": a, "to": b}})
    return out


def cpython_times(scenario: dict[str, Any], qs: list[dict[str, Any]]) -> dict[str, list[float]]:
    """Milliseconds per query through Session.call_json in this process."""
    session = Session()
    assert session.call("load_scenario", {"scenario": scenario})["ok"]
    times: dict[str, list[float]] = {"reachable": [], "los": []}
    for q in qs:
        text = json.dumps(q)
        start = time.perf_counter()
        answer = json.loads(session.call_json(text))
        times[q["method"]].append((time.perf_counter() - start) * 1000)
        assert answer["ok"], answer
    return times


BROWSER_LOOP = """async ([scenario, qs]) => {
  const engine = window.muster.engine;
  await engine.call("load_scenario", {scenario: scenario});
  const times = {reachable: [], los: []};
  for (const q of qs) {
    const start = performance.now();
    await engine.call(q.method, q.params);
    times[q.method].push(performance.now() - start);
  }
  return times;
}"""


def browser_times(scenario: dict[str, Any], qs: list[dict[str, Any]]) -> dict[str, list[float]]:
    """Milliseconds per query round trip from the page through the worker, in Chromium."""
    dist = Path(tempfile.mkdtemp()) / "dist"
    build.build(dist)
    server = build.make_server(dist, 0, "/")
    build.serve_in_thread(server)
    url = f"http://127.0.0.1:{server.server_address[1]}/?nosw"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(**chromium_launch_args())
        page = browser.new_page()
        page.goto(url)
        page.wait_for_selector("html[data-ready='1']", state="attached", timeout=120_000)
        page.evaluate(BROWSER_LOOP, [scenario, qs[: len(qs) // 5]])  # warm-up
        times = page.evaluate(BROWSER_LOOP, [scenario, qs])
        browser.close()
    server.shutdown()
    return times


def main() -> int:
    """Run both and print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--system", default="hex-facing", choices=sorted(TERRAIN))
    args = parser.parse_args()
    scenario = generate(args.system)
    qs = queries(scenario, args.queries)
    cpython_times(scenario, qs[: len(qs) // 5])  # warm-up
    cp = cpython_times(scenario, qs)
    br = browser_times(scenario, qs)
    print(f"{args.system}, {COLUMNS}x{ROWS} map, {len(qs)} queries, medians (ms); p90 in brackets")
    print(f"{'':12}{'CPython':>18}{'browser':>18}{'ratio':>8}")
    for method in ("reachable", "los"):
        c, b = statistics.median(cp[method]), statistics.median(br[method])
        c90 = statistics.quantiles(cp[method], n=10)[-1]
        b90 = statistics.quantiles(br[method], n=10)[-1]
        print(f"{method:12}{c:>10.2f} [{c90:5.2f}]{b:>10.2f} [{b90:5.2f}]{b / c:>8.1f}")
    worst = max(max(br["reachable"]), max(br["los"]))
    print(f"slowest browser query: {worst:.1f} ms (budget 16 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
