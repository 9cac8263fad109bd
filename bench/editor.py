#!/usr/bin/env python3
"""Hex editor benchmark: painting by drag on a 60x40 map, and redrawing a 2,500-hex map.

In headless Chromium at the tablet's size (820x1180, two device pixels a CSS pixel, touch),
bench/editor.html mounts the scenario editor's hex map (static/editor/hexedit.js) on the
generated maps of bench/board.py and:

- paints along a snake of N adjacent hexes with pointer events, one a frame, with a brush of
  one hex and of radius 2: per event, the handler's ms and the ms from the event to the end
  of the frame that draws the new hexes (style, layout and paint on the main thread);
  budget 16 ms. Then the ms from the pointer's lift to the stroke's one change drawn;
- times update() on a 50x50 map (2,500 hexes): every layer drawn again ("load"), and after a
  change of one hex (only the terrain layer is drawn again), each to the end of its frame;
- times opening: mount() to the first frame drawn (target under 1 s with the core's check).

Prints medians and the worst over several rounds.

    python bench/editor.py [--rounds 5] [--hexes 40] [--cpu-throttle 1]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "py"), str(ROOT / "bench")]

import board  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

import build  # noqa: E402
from tests.conftest import chromium_launch_args  # noqa: E402

BENCH_MOUNT = "/__bench__/"
BUDGET_MS = 16.0


def sized(columns: int, rows: int) -> dict[str, Any]:
    """bench/board.py's generated hex-facing map at another size."""
    board.COLUMNS, board.ROWS = columns, rows
    try:
        return board.generate("hex-facing")
    finally:
        board.COLUMNS, board.ROWS = 60, 40


def run(rounds: int, hexes: int, throttle: float) -> dict[str, list[float]]:
    """Every measurement, in ms, over `rounds` rounds."""
    dist = Path(tempfile.mkdtemp()) / "dist"
    build.build(dist)
    server = build.make_server(dist, 0, "/", {BENCH_MOUNT: ROOT / "bench"})
    build.serve_in_thread(server)
    url = f"http://127.0.0.1:{server.server_address[1]}{BENCH_MOUNT}editor.html"
    drag_map = board.generate("hex-facing")
    big_map = sized(50, 50)
    out: dict[str, list[float]] = {}

    def add(name: str, values: list[float] | float) -> None:
        out.setdefault(name, []).extend(values if isinstance(values, list) else [values])

    with sync_playwright() as pw:
        browser = pw.chromium.launch(**chromium_launch_args())
        context = browser.new_context(
            viewport={"width": 820, "height": 1180},
            device_scale_factor=2,
            has_touch=True,
            is_mobile=True,
        )
        page = context.new_page()
        if throttle > 1:
            cdp = context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        page.goto(url)
        page.wait_for_selector("html[data-ready='1']", state="attached")
        for i in range(rounds + 1):
            warm = i == 0  # the first round warms up and is not counted
            opened = page.evaluate("(s) => bench.open(s)", drag_map)
            labels = page.evaluate(f"bench.path({hexes}, 0.6)")
            assert len(labels) >= hexes * 0.8, labels
            one = page.evaluate("([l, k]) => bench.drag(l, 'vineyard', 0, k)", [labels, "touch"])
            two = page.evaluate("([l, k]) => bench.drag(l, 'village', 2, k)", [labels, "touch"])
            assert one["changes"] == 1 and two["changes"] == 1, (one, two)
            big = page.evaluate("(s) => bench.open(s)", big_map)
            load = page.evaluate("bench.redraw('load')")
            change = page.evaluate("bench.redraw('change')")
            if warm:
                continue
            add("open 60x40: mount", opened["mount"])
            add("open 60x40: shown", opened["shown"])
            add("open 50x50: shown", big["shown"])
            add("drag 1 hex: handler", one["handler"])
            add("drag 1 hex: event to drawn", one["total"])
            add("drag 1 hex: lift to change drawn", one["commitShown"])
            add("drag r2: handler", two["handler"])
            add("drag r2: event to drawn", two["total"])
            add("drag r2: lift to change drawn", two["commitShown"])
            add("update 2,500 all layers: update()", load["update"])
            add("update 2,500 all layers: shown", load["shown"])
            add("update 2,500 one hex: update()", change["update"])
            add("update 2,500 one hex: shown", change["shown"])
        browser.close()
    server.shutdown()
    return out


def main() -> int:
    """Run and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hexes", type=int, default=40, help="hexes a drag passes")
    parser.add_argument(
        "--cpu-throttle", type=float, default=1, help="Chromium CPU slowdown (4: a slow tablet)"
    )
    args = parser.parse_args()
    times = run(args.rounds, args.hexes, args.cpu_throttle)
    slow = f", CPU throttled {args.cpu_throttle:g}x" if args.cpu_throttle > 1 else ""
    print(
        f"Hex editor, 820x1180 @2x touch{slow}: {args.rounds} rounds, drags of {args.hexes} hexes"
        " on 60x40, redraws on 50x50 (ms)"
    )
    print(f"{'':36}{'median':>9}{'p90':>9}{'worst':>9}{'n':>6}")
    for name, values in times.items():
        p90 = (
            statistics.quantiles(values, n=10, method="inclusive")[-1]
            if len(values) > 1
            else values[0]
        )
        print(
            f"{name:36}{statistics.median(values):>9.2f}{p90:>9.2f}{max(values):>9.2f}"
            f"{len(values):>6}"
        )
    frames = times["drag 1 hex: event to drawn"] + times["drag r2: event to drawn"]
    over = sum(1 for t in frames if t > BUDGET_MS)
    print(f"painting frames over {BUDGET_MS:g} ms: {over} of {len(frames)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
