#!/usr/bin/env python3
"""Map benchmark: touch pans and pinches and tap-to-lit on the play map (static/render/hex.js)
at the tablet size, on a 12x10, a 60x40 and a 160x125 map, at full speed and with the CPU
slowed 4x (CDP ``Emulation.setCPUThrottlingRate``).

A frame's time is the main thread's work for one frame that handled a touch: from the first
input event of the frame to the end of its rendering (style, layout, paint), as the page sees
it (bench/map.html). Tap-to-lit is the time from the finger's lift to the end of the frame that
shows the hex lit. Also printed: the document's elements and hexes, and the JS heap, after the
gestures. Figures, not a pass or fail: a duration asserted on these shared machines fails at
random. What holds without a clock (a big map panned and pinched by touch, far fewer hexes in
the document than on the map) is tests/e2e/test_big_map.py.

    python bench/map.py [--rounds 3] [--gestures 20] [--throttle 1,4] [--sizes 12x10,60x40,160x125]
"""

from __future__ import annotations

import argparse
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
from tests.conftest import chromium_launch_args  # noqa: E402

BENCH_MOUNT = "/__bench__/"
TABLET = {
    "viewport": {"width": 820, "height": 1180},
    "device_scale_factor": 2,
    "has_touch": True,
    "is_mobile": True,
}
TERRAIN = {"woods": 0.14, "town": 0.03, "marsh": 0.04, "rough": 0.06, "garden": 0.02}


def label(col: int, row: int, digits: tuple[int, int]) -> str:
    return f"{col:0{digits[0]}d}{row:0{digits[1]}d}"


def generate(columns: int, rows: int, seed: int = 1, units: int = 60) -> dict[str, Any]:
    """A hex-facing scenario of columns x rows (flat, even stagger): mixed terrain, hills,
    streams between hexes of a column, a road every 12 rows and ``units`` units spread over
    the map (three-digit numbers past 99 columns or rows)."""
    rng = random.Random(seed)
    digits = (3 if columns > 99 else 2, 3 if rows > 99 else 2)
    hexes: dict[str, Any] = {}
    for c in range(1, columns + 1):
        for r in range(1, rows + 1):
            roll = rng.random()
            for terrain, share in TERRAIN.items():
                if roll < share:
                    hexes[label(c, r, digits)] = {"terrain": [terrain]}
                    break
                roll -= share
            if rng.random() < 0.08:
                hexes.setdefault(label(c, r, digits), {})["level"] = rng.choice([1, 1, 2])
    sides = []
    for c in range(1, columns + 1):
        for r in range(1, rows):
            if rng.random() < 0.03:
                a, b = label(c, r, digits), label(c, r + 1, digits)
                sides.append({"between": [a, b], "features": ["stream"]})
    roads = [
        {"kind": "road", "hexes": [label(c, r, digits) for c in range(1, columns + 1)]}
        for r in range(4, rows + 1, 12)
    ]
    cells = [(c, r) for c in range(1, columns + 1) for r in range(1, rows + 1)]
    rng.shuffle(cells)
    placed = []
    for i, (c, r) in enumerate(cells[:units]):
        placed.append(
            {
                "id": f"u{i}",
                "side": "a" if i % 2 else "b",
                "type": rng.choice(["infantry", "infantry", "cavalry", "artillery"]),
                "name": f"Unit {i}",
                "hex": label(c, r, digits),
                "ratings": {"movement": 6},
                "facing": rng.randrange(12),
            }
        )
    return {
        "format": "muster-scenario/1",
        "id": f"map-{columns}x{rows}",
        "system": "hex-facing",
        "title": f"Map {columns}x{rows}",
        "map": {
            "orientation": "flat",
            "stagger": "even",
            "columns": columns,
            "rows": rows,
            "column_digits": digits[0],
            "row_digits": digits[1],
            "hexes": hexes,
            "hexsides": sides,
            "roads": roads,
        },
        "sides": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
        "units": placed,
    }


class Fingers:
    def __init__(self, cdp: Any) -> None:
        self.cdp = cdp

    def send(self, kind: str, points: list[tuple[float, float]]) -> None:
        touch = [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": touch})

    def pan(self, x: float, y: float, dx: float, dy: float, steps: int = 20) -> None:
        self.send("touchStart", [(x, y)])
        for i in range(1, steps + 1):
            self.send("touchMove", [(x + dx * i / steps, y + dy * i / steps)])
            time.sleep(0.008)
        self.send("touchEnd", [])

    def pinch(self, x: float, y: float, d0: float, d1: float, steps: int = 20) -> None:
        def at(d: float) -> list[tuple[float, float]]:
            return [(x - d / 2, y), (x + d / 2, y)]

        self.send("touchStart", at(d0))
        for i in range(1, steps + 1):
            self.send("touchMove", at(d0 + (d1 - d0) * i / steps))
            time.sleep(0.008)
        self.send("touchEnd", [])

    def tap(self, x: float, y: float) -> None:
        self.send("touchStart", [(x, y)])
        self.send("touchEnd", [])


def gestures(f: Fingers, n: int) -> None:
    """n gestures in the middle of the view: pans each way and pinches out and in, in turn."""
    w, h = TABLET["viewport"]["width"], TABLET["viewport"]["height"]
    x, y = w / 2, h / 2
    moves = [
        lambda: f.pan(x - 150, y, 300, 0),
        lambda: f.pan(x + 150, y, -300, 0),
        lambda: f.pan(x, y - 150, 0, 300),
        lambda: f.pan(x, y + 150, 0, -300),
        lambda: f.pinch(x, y, 200, 400),
        lambda: f.pinch(x, y, 400, 200),
    ]
    for i in range(n):
        moves[i % len(moves)]()


def tap_to_lit(page: Any, f: Fingers, labels: list[str]) -> list[float]:
    out = []
    for lab in labels:
        page.evaluate("bench.clearLit()")
        p = page.evaluate("l => bench.hexToClient(l)", lab)
        f.tap(p["x"], p["y"])
        out.append(page.evaluate("l => bench.lit(l)", lab))
    return out


def near_centre(scenario: dict[str, Any], n: int) -> list[str]:
    """n hex labels about the middle of the map, a few hexes apart."""
    m = scenario["map"]
    digits = (m["column_digits"], m["row_digits"])
    c, r = m["columns"] // 2, m["rows"] // 2
    return [label(c + (i % 3) - 1, r + (i // 3) - 1, digits) for i in range(n)]


def run(sizes: list[tuple[int, int]], throttles: list[float], rounds: int, count: int) -> dict:
    dist = Path(tempfile.mkdtemp()) / "dist"
    build.build(dist)
    server = build.make_server(dist, 0, "/", {BENCH_MOUNT: ROOT / "bench"})
    build.serve_in_thread(server)
    url = f"http://127.0.0.1:{server.server_address[1]}{BENCH_MOUNT}map.html"
    out: dict[str, dict[str, list[float]]] = {}
    with sync_playwright() as pw:
        options = chromium_launch_args()
        options["args"] = [*options["args"], "--enable-precise-memory-info"]
        browser = pw.chromium.launch(**options)
        for throttle in throttles:
            for cols, rows in sizes:
                scenario = generate(cols, rows)
                key = f"{cols}x{rows} cpu/{throttle:g}"
                rec = out.setdefault(key, {})
                for _ in range(rounds):
                    context = browser.new_context(**TABLET)
                    page = context.new_page()
                    cdp = context.new_cdp_session(page)
                    page.goto(url)
                    page.wait_for_selector("html[data-ready='1']", state="attached")
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
                    f = Fingers(cdp)
                    shown = page.evaluate("s => bench.open(s)", scenario)
                    rec.setdefault("open (ms)", []).append(shown["shown"])
                    labels = near_centre(scenario, 5)
                    page.evaluate("l => bench.zoomTo(1, l)", labels[0])
                    page.evaluate("bench.record()")
                    gestures(f, count)
                    frames = page.evaluate("bench.frames()")
                    rec.setdefault("frame (ms)", []).extend(frames)
                    page.evaluate("l => bench.zoomTo(1, l)", labels[0])
                    rec.setdefault("tap-to-lit at zoom 1 (ms)", []).extend(
                        tap_to_lit(page, f, labels)
                    )
                    page.evaluate("l => bench.zoomTo(0.4, l)", labels[0])
                    rec.setdefault("tap-to-lit at zoom 0.4 (ms)", []).extend(
                        tap_to_lit(page, f, labels)
                    )
                    counts = page.evaluate("bench.counts()")
                    rec.setdefault("elements", []).append(counts["nodes"])
                    rec.setdefault("hexes in document", []).append(counts["hexes"])
                    if counts["heap"]:
                        rec.setdefault("JS heap (MB)", []).append(counts["heap"] / 1e6)
                    context.close()
                print(key, summary(rec), flush=True)
        browser.close()
    server.shutdown()
    return out


def p95(values: list[float]) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(0.95 * len(s)))]


def summary(rec: dict[str, list[float]]) -> str:
    parts = []
    for name, values in rec.items():
        if not values:
            continue
        parts.append(
            f"{name}: median {statistics.median(values):.1f}, p95 {p95(values):.1f}"
            f" (n={len(values)})"
        )
    return "; ".join(parts)


def table(out: dict[str, dict[str, list[float]]]) -> str:
    names = sorted({n for rec in out.values() for n in rec}, key=lambda n: list(ROWS).index(n))
    head = "| | " + " | ".join(out) + " |"
    rule = "|---|" + "---|" * len(out)
    lines = [head, rule]
    for name in names:
        cells = []
        for rec in out.values():
            v = rec.get(name) or []
            cells.append(f"{statistics.median(v):.0f} / {p95(v):.0f}" if v else "-")
        lines.append(f"| {name} (median / p95) | " + " | ".join(cells) + " |")
    return "\n".join(lines)


ROWS = (
    "open (ms)",
    "frame (ms)",
    "tap-to-lit at zoom 1 (ms)",
    "tap-to-lit at zoom 0.4 (ms)",
    "elements",
    "hexes in document",
    "JS heap (MB)",
)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--gestures", type=int, default=20)
    ap.add_argument("--throttle", default="1,4")
    ap.add_argument("--sizes", default="12x10,60x40,160x125")
    args = ap.parse_args()
    sizes = [tuple(int(v) for v in s.split("x")) for s in args.sizes.split(",")]
    throttles = [float(t) for t in args.throttle.split(",")]
    out = run(sizes, throttles, args.rounds, args.gestures)  # type: ignore[arg-type]
    print(f"\n{args.rounds} runs of {args.gestures} gestures and 5 taps a zoom each\n")
    print(table(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
