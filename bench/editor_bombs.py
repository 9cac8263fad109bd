#!/usr/bin/env python3
"""The editor's bombs: time and memory of each refusal, in the app as a player picks the file.

In headless Chromium at the tablet's size, each file below is given to the editor's Picture…
or VASSAL… input in a fresh context (a renderer process of its own), the rules ready and the
editor open. For each it prints:

- ms: from the input's change event to the status line's last word (the refusal, or the
  picture taken), by the page's clock;
- stall: the longest gap between two animation frames meanwhile (the page frozen);
- RSS: the renderer processes' resident memory at its peak meanwhile (read from /proc every
  20 ms), above what it was just before;
- heap: the page's JavaScript heap (CDP Performance.getMetrics, JSHeapUsedSize) after the
  refusal, above what it was before, and its total (JSHeapTotalSize) at the end.

Modules are read twice: with the browser's DecompressionStream, and without it (the reader's
own inflate.js, as on an iPad before Safari 16.4). The bombs are tests/e2e/bombs.py's: a few
MB each, that unpack to up to 2 GiB or declare up to 40000 x 40000 pixels. The largest picture
allowed (20 million pixels) is there too, taken: what a tablet must afford.

    python bench/editor_bombs.py [--rounds 1] [--only NAME]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "py"), str(ROOT / "tests" / "e2e")]

from apppage import open_app, tablet  # noqa: E402
from bombs import (  # noqa: E402
    DEFLATED,
    MIB,
    huge_directory,
    jpeg_declaring,
    module,
    png_declaring,
    png_head,
    zeros_deflate,
)
from playwright.sync_api import sync_playwright  # noqa: E402
from pngfile import encode_png  # noqa: E402
from vassalpages import NO_DECOMPRESSION  # noqa: E402

import build  # noqa: E402
from tests.conftest import chromium_launch_args  # noqa: E402

TIMEOUT_MS = 120_000

# Before the file is given: the time of the input's change event, the longest gap between
# frames from then on, and the time the status line last changed.
WATCH = """() => {
  const w = { start: null, end: null, stall: 0, last: performance.now() };
  window.__bomb = w;
  document.addEventListener("change", () => {
    w.start = performance.now();
    w.last = w.start;
  }, true);
  const frame = (t) => {
    const now = performance.now();
    // A gap that began before the status line's last word counts (up to the frame after it).
    if (w.start !== null && (w.end === null || w.last <= w.end)) {
      w.stall = Math.max(w.stall, now - w.last);
    }
    w.last = now;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  new MutationObserver(() => {
    if (w.start !== null) w.end = performance.now();
  }).observe(document.querySelector("#editor-say"), { childList: true, characterData: true,
                                                     subtree: true });
}"""


def largest_picture() -> bytes:
    """A 4472 x 4472 PNG (20.0 million pixels, just within the limit), plain but for a few
    stripes."""
    side = 4472
    plain = b"\xe8\xe0\xc8" * side
    stripe = b"\x30\x30\x30" * side
    return encode_png(side, side, [stripe if y % 200 == 0 else plain for y in range(side)])


def bombs() -> list[tuple[str, str, Callable[[], bytes], str]]:
    """(name, input: picture or module, the file's bytes, what the status line ends with)."""
    return [
        (
            "picture: PNG declaring 40000 x 40000",
            "picture",
            lambda: png_declaring(40000, 40000),
            "pixels",
        ),
        (
            "picture: PNG declaring 20000 x 20000",
            "picture",
            lambda: png_declaring(20000, 20000),
            "pixels",
        ),
        (
            "picture: JPEG declaring 20000 x 20000",
            "picture",
            lambda: jpeg_declaring(20000, 20000),
            "pixels",
        ),
        ("picture: 4472 x 4472 PNG (the most allowed), taken", "picture", largest_picture, "under"),
        (
            "module: build file declaring 1.6 GB",
            "module",
            lambda: module(build=(zeros_deflate(1526 * MIB), 1_600_000_000)),
            "unpacks",
        ),
        (
            "module: build file of 2 GiB of zeros declaring 4 MiB",
            "module",
            lambda: module(build=(zeros_deflate(2048 * MIB), 4 * MIB)),
            "stopped",
        ),
        (
            "module: picture declaring 1.6 GB",
            "module",
            lambda: module(
                image=(DEFLATED, zeros_deflate(1526 * MIB, png_head(600, 480)), 1_600_000_000)
            ),
            "unpacks",
        ),
        (
            "module: picture of 2 GiB of zeros declaring 60 MiB",
            "module",
            lambda: module(
                image=(DEFLATED, zeros_deflate(2048 * MIB, png_head(600, 480)), 60 * MIB)
            ),
            "stopped",
        ),
        (
            "module: board picture declaring 40000 x 40000",
            "module",
            lambda: module(picture=png_declaring(40000, 40000)),
            "pixels",
        ),
        ("module: central directory of 17 MiB", "module", lambda: huge_directory(17 * MIB), "list"),
    ]


def renderer_pids(cdp: Any) -> set[int]:
    info = cdp.send("SystemInfo.getProcessInfo")
    return {p["id"] for p in info["processInfo"] if p["type"] == "renderer"}


def rss_kib(pids: set[int]) -> int:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


class Sampler(threading.Thread):
    """The peak of the renderers' RSS, sampled every 20 ms until stopped."""

    def __init__(self, pids: set[int]) -> None:
        super().__init__(daemon=True)
        self.pids = pids
        self.peak = rss_kib(pids)
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            self.peak = max(self.peak, rss_kib(self.pids))
            time.sleep(0.02)


def heap(page_cdp: Any) -> tuple[float, float]:
    metrics = {m["name"]: m["value"] for m in page_cdp.send("Performance.getMetrics")["metrics"]}
    return metrics["JSHeapUsedSize"], metrics["JSHeapTotalSize"]


def one(browser: Any, cdp: Any, base: str, kind: str, data: bytes, end: str, init: str | None):
    """One file given to a fresh editor: its figures."""
    before_pids = renderer_pids(cdp)
    app = open_app(browser, base + "?editor=1", init_script=init, **tablet())
    context, page, errors = app.context, app.page, app.errors
    page.wait_for_function("window.musterEditor && window.musterEditor.draft", timeout=TIMEOUT_MS)
    page.evaluate("window.musterEditor.ready")
    page.evaluate("window.musterEditor.checked()")
    page.evaluate(WATCH)
    page_cdp = context.new_cdp_session(page)
    page_cdp.send("Performance.enable")
    page_cdp.send("HeapProfiler.collectGarbage")
    used0, _total0 = heap(page_cdp)
    pids = renderer_pids(cdp) - before_pids
    base_rss = rss_kib(pids)
    sampler = Sampler(pids)
    sampler.start()
    # Given by its path, as a player picks a file (a buffer would be copied into the page).
    path = Path(tempfile.mkdtemp()) / ("bomb.png" if kind == "picture" else "bomb.vmod")
    path.write_bytes(data)
    field = "#editor-picture-file" if kind == "picture" else "#editor-vassal-file"
    page.set_input_files(field, files=[str(path)])
    page.wait_for_function(
        "(end) => window.__bomb.end !== null && "
        "document.querySelector('#editor-say').textContent.includes(end)",
        arg=end,
        timeout=TIMEOUT_MS,
    )
    page.wait_for_timeout(300)  # memory the last step allocates, seen by the sampler
    sampler.done.set()
    sampler.join()
    watch = page.evaluate("window.__bomb")
    used1, total1 = heap(page_cdp)
    said = page.locator("#editor-say").inner_text()
    context.close()
    path.unlink()
    return {
        "ms": watch["end"] - watch["start"],
        "stall": watch["stall"],
        "rss": (sampler.peak - base_rss) / 1024,
        "heap": (used1 - used0) / MIB,
        "heap_total": total1 / MIB,
        "said": said,
        "errors": errors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--only", default="", help="only the bombs whose name holds this")
    args = parser.parse_args()
    dist = Path(tempfile.mkdtemp()) / "dist"
    build.build(dist)
    server = build.make_server(dist, 0, "/", None)
    build.serve_in_thread(server)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    chosen = [b for b in bombs() if args.only in b[0]]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(**chromium_launch_args())
        cdp = browser.new_browser_cdp_session()
        print(
            f"Chromium {browser.version}, 820x1180 touch, {args.rounds} round(s), medians; "
            "RSS: the page's renderer processes' peak above their level before the file"
        )
        print(
            f"{'file':<58} {'unpacking':<10} {'ms':>7} {'stall':>6} {'RSS MB':>7} "
            f"{'heap MB':>8} {'of MB':>6}"
        )
        for name, kind, make, end in chosen:
            data = make()
            ways = (
                [("native", None), ("inflate.js", NO_DECOMPRESSION)]
                if kind == "module"
                else [("", None)]
            )
            for way, init in ways:
                runs = [one(browser, cdp, base, kind, data, end, init) for _ in range(args.rounds)]
                med = {
                    k: statistics.median(r[k] for r in runs)
                    for k in ("ms", "stall", "rss", "heap", "heap_total")
                }
                print(
                    f"{name:<58} {way:<10} {med['ms']:>7.0f} {med['stall']:>6.0f} "
                    f"{med['rss']:>7.0f} {med['heap']:>8.1f} {med['heap_total']:>6.0f}"
                )
                print(f"    said: {runs[-1]['said']}")
                if any(r["errors"] for r in runs):
                    print(f"    console errors: {[r['errors'] for r in runs]}")
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
