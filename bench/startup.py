#!/usr/bin/env python3
"""Startup benchmark: time to first map paint and to rules ready, cold and warm, in Chromium.

Cold is a fresh browser context (empty HTTP cache, no service worker); warm is a second
visit in the same context, once the service worker has precached the site. Bare Pyodide
(no packages, main thread) is measured the same way as the baseline. Prints medians.

    python bench/startup.py [--runs 7]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "py")]

from playwright.sync_api import sync_playwright  # noqa: E402

import build  # noqa: E402
from tests.conftest import chromium_launch_args  # noqa: E402

TIMEOUT_MS = 120_000


def app_visit(page, url: str) -> tuple[float, float]:
    """Load the app and return (map painted, rules ready) in ms since navigation start."""
    page.goto(url)
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=TIMEOUT_MS)
    timing = page.evaluate("window.musterTiming")
    return timing["mapPainted"], timing["rulesReady"]


def bare_visit(page, url: str) -> float:
    """Load bare Pyodide and return its ready time in ms since navigation start."""
    page.goto(url)
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=TIMEOUT_MS)
    return page.evaluate("window.bareReady")


def main() -> int:
    """Run the benchmark and print medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    dist = Path(tempfile.mkdtemp()) / "dist"
    build.build(dist)
    server = build.make_server(dist, 0, "/", {"/__bench__/": ROOT / "bench"})
    build.serve_in_thread(server)
    host, port = server.server_address[:2]
    base = f"http://{host}:{port}/"
    results: dict[str, list[float]] = {
        k: []
        for k in ("paint_cold", "ready_cold", "paint_warm", "ready_warm", "bare_cold", "bare_warm")
    }
    with sync_playwright() as pw:
        browser = pw.chromium.launch(**chromium_launch_args())
        for _ in range(args.runs):
            context = browser.new_context()
            page = context.new_page()
            paint, ready = app_visit(page, base)
            results["paint_cold"].append(paint)
            results["ready_cold"].append(ready)
            page.wait_for_function(
                "navigator.serviceWorker.controller !== null", timeout=TIMEOUT_MS
            )
            paint, ready = app_visit(page, base)
            results["paint_warm"].append(paint)
            results["ready_warm"].append(ready)
            context.close()

            context = browser.new_context()
            page = context.new_page()
            results["bare_cold"].append(bare_visit(page, base + "__bench__/bare.html"))
            results["bare_warm"].append(bare_visit(page, base + "__bench__/bare.html"))
            context.close()
        version = browser.version
        browser.close()
    server.shutdown()
    med = {k: statistics.median(v) for k, v in results.items()}
    print(f"Chromium {version}, {args.runs} runs each, medians in ms since navigation start")
    print(f"{'':22}{'cold':>10}{'warm':>10}")
    print(f"{'first map paint':22}{med['paint_cold']:>10.0f}{med['paint_warm']:>10.0f}")
    print(f"{'rules ready':22}{med['ready_cold']:>10.0f}{med['ready_warm']:>10.0f}")
    print(f"{'bare Pyodide ready':22}{med['bare_cold']:>10.0f}{med['bare_warm']:>10.0f}")
    print(
        f"rules ready / bare Pyodide: cold {med['ready_cold'] / med['bare_cold']:.2f}, "
        f"warm {med['ready_warm'] / med['bare_warm']:.2f}"
    )
    spread = {k: (min(v), max(v)) for k, v in results.items()}
    print("min-max:", ", ".join(f"{k} {lo:.0f}-{hi:.0f}" for k, (lo, hi) in spread.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
