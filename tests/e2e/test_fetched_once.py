"""A first visit fetches each file once: the rules worker uses the wasm the page compiled, and the
service worker keeps what the page fetched by revalidating it, not by downloading it again.

Measured in a browser profile on disk, as a player's browser has (Playwright's default
contexts keep their HTTP cache in memory, which holds no file as large as Pyodide's wasm)."""

from __future__ import annotations

import gzip
import http.server
import json
import threading
from functools import partial
from pathlib import Path

import pytest

import build

pytestmark = pytest.mark.e2e

# The first visit's bytes as a compressing host would send them, before the snapshot boot: the
# page and the worker each fetched pyodide.asm.wasm, and the service worker everything again.
BEFORE_COMPRESSED = 16_600_000
# What the site gained after that measure, counted apart: the scenario editor (issue 14), kept
# offline with the rest, so a first visit downloads it once too: its modules, its words in each
# language, and its files in the core.
EDITOR_FILES = "static/editor/"
EDITOR_WORDS = "editor."
EDITOR_CORE = ("muster/editor.py", "/units.json")
ALREADY_COMPRESSED = (".gz", ".zip", ".png")
# The rules core of issue 15 (every number of the aids as data, the countercharge, the Bomb
# column, typed shapes, refusals that say why) made every boot bigger, snapshot or not: measured
# between the two builds, 366,839 compressed bytes (the memory snapshot, which holds the core
# as Python holds it, +313,508; the core's files +38,377; the words +14,954). Counted apart as
# the editor is; anything more fails.
CORE_OF_ISSUE_15 = 367_000
# Issue 23 (every refusal worded in four languages, every file's fields and every setting
# checked, files read within limits): measured between the two builds, 39,125 compressed bytes
# (the memory snapshot +23,413; the core's files +6,706; the words +8,544; the app's scripts
# outside the editor +462). Counted apart too; anything more fails.
CORE_OF_ISSUE_23 = 40_000
# Issue 24 (the result card, objectives and the briefing, the way on, the legend from the marks,
# the map's framing, names in four languages): measured between the two builds, 131,224
# compressed bytes (the memory snapshot +81,777; the core's files +13,820; the app's scripts and
# styles outside the editor +23,383; the words +9,573; the page and the demos' files, their names
# now in four languages, +3,065). Counted apart too; anything more fails.
CORE_OF_ISSUE_24 = 132_000
# Issues 25 to 28 (one registry of systems and the same names in each; Muster, the computer
# player, and play against it in a worker of its own; kept games resumed from a checkpoint;
# big maps drawn by what is in view; two tablets paired by a QR code): measured between the
# two builds, 355,311 compressed bytes (the memory snapshot +227,453, of which +139,016 came
# with the undo over Muster's reply and has not been explained further; the QR code's
# encoder and decoder, lean-qr and jsqr, +60,954; the app's scripts and styles outside the
# editor +32,994; the core's files +26,247; the words +8,729; the page +571). Counted apart
# too; anything more fails.
CORE_OF_ISSUES_25_TO_28 = 356_000


class CountingHandler(build.Handler):
    """The site's handler, noting each response: path, status and body bytes."""

    sent: list[list] = []
    lock = threading.Lock()

    def send_response(self, code, message=None):
        with self.lock:
            self.sent.append([self.path.split("?")[0], int(code), 0])
        super().send_response(code, message)

    def copyfile(self, source, outputfile):
        data = source.read()
        with self.lock:
            for entry in reversed(self.sent):
                if entry[0] == self.path.split("?")[0]:
                    entry[2] += len(data)
                    break
        outputfile.write(data)


def _compressed(dist: Path, prefix: str, path: str, size: int) -> int:
    if path.endswith(ALREADY_COMPRESSED) or not size:
        return size
    name = path[len(prefix) :] or "index.html"
    return len(gzip.compress((dist / name).read_bytes(), 6))


def _gz(data: bytes) -> int:
    return len(gzip.compress(data, 6))


def _editor_share(dist: Path, prefix: str, sizes: dict[str, int]) -> int:
    """The compressed bytes of a first visit that are the editor's."""
    share = sum(n for path, n in sizes.items() if path.startswith(prefix + EDITOR_FILES))
    for lang in (dist / "static" / "i18n").glob("*.json"):
        words = json.loads(lang.read_text())
        rest = {k: v for k, v in words.items() if not k.startswith(EDITOR_WORDS)}
        share += _gz(lang.read_bytes()) - _gz(json.dumps(rest, ensure_ascii=False).encode())
    core = json.loads((dist / "core" / "core.json").read_text())
    files = core["files"]
    rest = {k: v for k, v in files.items() if not k.endswith(EDITOR_CORE)}
    whole = _gz(json.dumps(core).encode())
    share += whole - _gz(json.dumps(dict(core, files=rest)).encode())
    return share


def test_a_first_visit_fetches_each_file_once(playwright, browser_type_launch_args, dist, tmp_path):
    prefix = "/muster/"
    CountingHandler.sent = []
    handler = partial(CountingHandler, root=dist, prefix=prefix, extra={})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    build.serve_in_thread(server)
    host, port = server.server_address[:2]
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path / "profile"), **browser_type_launch_args
    )
    try:
        page = context.new_page()
        page.goto(f"http://{host}:{port}{prefix}")
        page.wait_for_selector("html[data-ready='1']", state="attached", timeout=60_000)
        assert page.evaluate("window.musterTiming.boot.boot") == "snapshot"
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
        # The service worker has kept every file once it controls the page.
        page.wait_for_timeout(500)
    finally:
        context.close()
        server.shutdown()
        server.server_close()
    bodies: dict[str, list[int]] = {}
    for path, status, size in CountingHandler.sent:
        if status == 200:
            bodies.setdefault(path, []).append(size)
    twice = {path: sizes for path, sizes in bodies.items() if len(sizes) > 1}
    assert twice == {}, twice
    for name in ("pyodide/pyodide.asm.wasm", "core/snapshot.gz", "core/core.json"):
        assert bodies[prefix + name] == [(dist / name).stat().st_size]
    # Whatever the service worker asked for that the page had fetched came back "not modified".
    assert any(status == 304 for _, status, _ in CountingHandler.sent)
    raw = sum(size for sizes in bodies.values() for size in sizes)
    sizes = {path: _compressed(dist, prefix, path, size) for path, (size,) in bodies.items()}
    compressed = sum(sizes.values())
    later = _editor_share(dist, prefix, sizes)
    assert sizes[prefix + EDITOR_FILES + "editor.js"] > 0, "the editor is kept offline"
    wasm = dist / "pyodide" / "pyodide.asm.wasm"
    duplicate_wasm = len(gzip.compress(wasm.read_bytes(), 6))
    print(
        f"first visit: {raw:,} bytes, {compressed:,} compressed ({later:,} of them the editor's);"
        f" wasm {duplicate_wasm:,}"
    )
    grown = CORE_OF_ISSUE_15 + CORE_OF_ISSUE_23 + CORE_OF_ISSUE_24 + CORE_OF_ISSUES_25_TO_28
    assert compressed - later - grown <= BEFORE_COMPRESSED - duplicate_wasm
