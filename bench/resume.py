"""How long a kept game takes to come back after a reload, by its length: games of 50, 500 and 5,000
actions (a demo played at random, built in CPython, each played on to the next position where a unit
may move, so that all end at the same kind of position) kept in the browser's store as the app keeps
them, the page reloaded and timed from the rules' answer to the game on screen
(``musterTiming.rulesUp`` to ``musterTiming.resumed``), in headless Chromium at the tablet size, in
two parts: up to the core's answer (``musterTiming.loaded``: the request, the core's resume, the
answer read) and the drawing of the game after it. Each game is timed twice: from its checkpoint
(how the app keeps games now) and kept without one (a game kept by an earlier version, replayed
whole), interleaved in every round.

    python bench/resume.py [--runs 5] [--sizes 50,500,5000] [--no-replay]
"""

from __future__ import annotations

import argparse
import http.server
import json
import statistics
import sys
import tempfile
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [
    str(ROOT),
    str(ROOT / "py"),
    str(ROOT / "tests" / "core"),
    str(ROOT / "tests" / "e2e"),
]

from long_games import long_game  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from test_resume_long import KEEP  # noqa: E402

import build  # noqa: E402
from tests.conftest import chromium_launch_args  # noqa: E402

TIMEOUT_MS = 300_000
SLOT = "bench-game"
TABLET = {"viewport": {"width": 820, "height": 1180}, "has_touch": True, "is_mobile": True}
TARGET_MS = 1000  # every size back within this after the rules are up
TARGET_RATIO = 1.5  # and within this of the shortest


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


def ready(page) -> None:
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=TIMEOUT_MS)


def visit(page, save: dict, summary: dict) -> tuple[float, float]:
    """Keep ``save`` as the game on screen, reload, and time its return (ms): in all, and up
    to the core's answer."""
    page.wait_for_timeout(500)  # the last autosave written
    page.evaluate(KEEP, [SLOT, save, summary])
    page.reload()
    ready(page)
    timing = page.evaluate("window.musterTiming")
    if timing.get("resumed") is None:
        raise SystemExit("the kept game was not resumed: " + json.dumps(timing))
    return (
        float(timing["resumed"] - timing["rulesUp"]),
        float(timing["loaded"] - timing["rulesUp"]),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", default="50,500,5000")
    parser.add_argument("--no-replay", action="store_true", help="skip the whole replays")
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    ways = ["checkpoint"] if args.no_replay else ["checkpoint", "replayed whole"]
    games = {}
    for size in sizes:
        game = long_game(size, until="move")
        kept = json.loads(json.dumps(game.save(checkpoint=True)))
        old = {k: v for k, v in kept.items() if k != "checkpoint"}
        games[size] = ({"checkpoint": kept, "replayed whole": old}, game.summary())
    dist = Path(tempfile.mkdtemp()) / "dist"
    build.build(dist)
    handler = partial(Quiet, directory=str(dist))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    build.serve_in_thread(server)
    host, port = server.server_address[:2]
    url = f"http://{host}:{port}/?scenario=demo-valmont&lang=en"
    times: dict[tuple[int, str], list[float]] = {(s, w): [] for s in sizes for w in ways}
    answers: dict[int, list[float]] = {s: [] for s in sizes}  # from the checkpoint
    with sync_playwright() as pw:
        browser = pw.chromium.launch(**chromium_launch_args())
        pages = {}
        for size in sizes:
            for way in ways:
                context = browser.new_context(**TABLET)
                page = context.new_page()
                page.set_default_timeout(TIMEOUT_MS)
                page.goto(url)
                ready(page)
                pages[size, way] = page
        for _ in range(args.runs + 1):  # the first round warms the caches, not counted
            for key, page in pages.items():
                saves, summary = games[key[0]]
                whole, answered = visit(page, saves[key[1]], summary)
                times[key].append(whole)
                if key[1] == "checkpoint":
                    answers[key[0]].append(answered)
        browser.close()
    server.shutdown()
    print(f"ms from rules up to the kept game on screen, medians of {args.runs} [min-max]:")
    print()
    print("| actions | " + " | ".join(ways) + " |")
    print("| ------- | " + " | ".join("-" * len(w) for w in ways) + " |")
    medians = {}
    for size in sizes:
        cells = []
        for way in ways:
            counted = times[size, way][1:]
            medians[size, way] = statistics.median(counted)
            cells.append(f"{medians[size, way]:.0f} [{min(counted):.0f}-{max(counted):.0f}]")
        print(f"| {size:,} | " + " | ".join(cells) + " |")
    print()
    print("from the checkpoint, up to the core's answer | the game drawn after it:")
    for size in sizes:
        parts = [(w, a) for w, a in zip(times[size, "checkpoint"], answers[size], strict=True)]
        core = statistics.median(a for _, a in parts[1:])
        drawn = statistics.median(w - a for w, a in parts[1:])
        print(f"| {size:,} | {core:.0f} | {drawn:.0f} |")
    fast = [medians[s, "checkpoint"] for s in sizes]
    worst, ratio = max(fast), max(fast) / min(fast)
    print()
    print(
        f"from the checkpoint: longest {worst:.0f} ms (target {TARGET_MS}: "
        + ("met" if worst <= TARGET_MS else f"missed by {worst - TARGET_MS:.0f} ms")
        + f"), longest over shortest {ratio:.2f} (target {TARGET_RATIO}: "
        + ("met" if ratio <= TARGET_RATIO else f"missed by {ratio - TARGET_RATIO:.2f}")
        + ")"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
