"""The worker boots from the build's memory snapshot, and falls back to a normal start, silently
and with the same game, whatever is wrong with the snapshot: no file, a broken download, the
wrong size, not a snapshot, another Pyodide build's, one that fails to restore, one that holds
another core. A snapshot refused for what it is is dropped from the offline cache and not
fetched again."""

from __future__ import annotations

import gzip
import json
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from apppage import open_app

import build
from muster.api import Session

pytestmark = pytest.mark.e2e

HEADER = 48  # a Pyodide snapshot's header: magic, heap start, JSON length, 0, build id
SEED = 4242
ACTIONS = 12


def _words(raw: bytes) -> tuple[int, int, int]:
    magic, heap_start, json_length = (int.from_bytes(raw[i : i + 4], "little") for i in (0, 4, 8))
    return magic, heap_start, json_length


def _with_fingerprint_changed(raw: bytes, fingerprint: str) -> bytes:
    assert fingerprint.encode() in raw, "the snapshot holds the core's fingerprint"
    other = fingerprint[::-1] if fingerprint[::-1] != fingerprint else "0" * len(fingerprint)
    # Every copy: the source line that set it, its compiled constant, the name's value.
    return raw.replace(fingerprint.encode(), other.encode())


def _bad_json(raw: bytes) -> bytes:
    assert raw[HEADER : HEADER + 1] == b"{"
    return raw[:HEADER] + b"#" + raw[HEADER + 1 :]


# What is wrong with the snapshot -> the bytes served instead of core/snapshot.gz (None: no
# file); REASONS below names the reason the worker gives for each.
def _variants(gz: bytes, size: int, fingerprint: str) -> dict[str, bytes | None]:
    raw = build.unpack_snapshot(gz, size)
    magic, heap_start, _ = _words(raw)
    assert magic == 1886286592 and heap_start % 16 == 0
    build_id = bytes(b ^ 0xFF for b in raw[16:HEADER])
    pack = build.pack_snapshot
    body = gzip.decompress(gz)

    return {
        "missing": None,
        "cut-short": gz[: len(gz) // 2],
        "not-gzip": raw[:65536],
        "too-small": pack(raw[: len(raw) - 65536]),
        "too-big": pack(raw + b"\1" * 65536),
        "page-short": gzip.compress(body[:-100], 1, mtime=0),
        "page-over": gzip.compress(body + b"\1" * 100, 1, mtime=0),
        "not-a-snapshot": pack(b"\0\0\0\0" + raw[4:]),
        "other-build": pack(raw[:16] + build_id + raw[HEADER:]),
        "fails-to-restore": pack(_bad_json(raw)),
        "other-core": pack(_with_fingerprint_changed(raw, fingerprint)),
    }


def _site_with(dist: Path, target: Path, snapshot: bytes | None) -> Path:
    """A copy of the built site (files linked, not copied) with another snapshot file, its
    service worker listing the new file's hash as a build would."""
    shutil.copytree(dist, target, copy_function=os.link)
    (target / "core" / "snapshot.gz").unlink()
    (target / "sw.js").unlink()
    (target / "build.json").unlink()
    if snapshot is not None:
        (target / "core" / "snapshot.gz").write_bytes(snapshot)
    build.finish(target)
    return target


def _expected_hashes() -> list[str]:
    """The state hash after each action of the seeded game below, played in CPython."""
    session = Session()
    session.call("load_scenario", {"id": "demo-valmont"})
    view = session.call("new_game", {"seed": SEED})["result"]
    hashes = []
    for _ in range(ACTIONS):
        view = session.call("act", {"action": view["legal"][0]})["result"]
        hashes.append(view["hash"])
    return hashes


PLAY = """async ([seed, count]) => {
  const engine = window.muster.engine;
  await engine.call("load_scenario", { id: "demo-valmont" });
  let view = await engine.call("new_game", { seed: seed });
  const hashes = [];
  for (let i = 0; i < count; i++) {
    view = await engine.call("act", { action: view.legal[0] });
    hashes.push(view.hash);
  }
  return hashes;
}"""


@pytest.fixture(scope="module")
def sites(dist, tmp_path_factory) -> Iterator[tuple[Callable[[str], str], list[str]]]:
    """Serve each variant of the site under a path of its own: (name -> URL, the paths the
    browser asked for)."""
    core = json.loads((dist / "core" / "core.json").read_text())
    gz = (dist / "core" / "snapshot.gz").read_bytes()
    info = json.loads((dist / "core" / "snapshot.json").read_text())
    variants = _variants(gz, info["bytes"], core["fingerprint"])
    root = tmp_path_factory.mktemp("variants")
    extra = {}
    for name, data in variants.items():
        extra[f"/{name}/"] = _site_with(dist, root / name, data)
    asked: list[str] = []
    server = build.make_server(dist, 0, "/muster/", extra, on_request=asked.append)
    build.serve_in_thread(server)
    host, port = server.server_address[:2]
    yield (lambda name: f"http://{host}:{port}/{name}/"), asked
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def expected() -> list[str]:
    return _expected_hashes()


def test_the_snapshot_boot_is_the_default_and_plays_the_same_game(browser, site_url, expected):
    for query, boot in (("", "snapshot"), ("?boot=normal", "normal")):
        app = open_app(browser, site_url + query + ("&" if query else "?") + "nosw")
        page = app.page
        info = page.evaluate("window.musterTiming.boot")
        assert info["boot"] == boot and "refused" not in info, info
        assert page.evaluate(PLAY, [SEED, ACTIONS]) == expected
        app.assert_no_errors()
        app.context.close()


# What is wrong with the snapshot -> the reason the worker gives for refusing it.
REASONS = {
    "missing": "fetch",
    "cut-short": "unpack",
    "not-gzip": "unpack",
    "too-small": "size",
    "too-big": "size",
    "page-short": "size",
    "page-over": "size",
    "not-a-snapshot": "header",
    "other-build": "build",
    "fails-to-restore": "restore",
    "other-core": "check",
}


@pytest.mark.parametrize("variant", list(REASONS))
def test_a_bad_snapshot_falls_back_to_a_normal_start(browser, sites, dist, expected, variant):
    reason = REASONS[variant]
    app = open_app(browser, sites[0](variant) + "?nosw")
    page = app.page
    info = page.evaluate("window.musterTiming.boot")
    assert info["boot"] == "normal" and info["refused"] == reason, info
    # The map and the status are those of any start: nothing is said of the snapshot.
    assert page.locator("#status").inner_text().strip() != ""
    assert page.evaluate(PLAY, [SEED, ACTIONS]) == expected
    # A refusal for what the file is is remembered; a failed download or a broken stream not.
    refused = page.evaluate("JSON.parse(localStorage.getItem('muster.snapshots-refused') || '[]')")
    info = json.loads((dist / "core" / "snapshot.json").read_text())
    assert (info["id"] in refused) == (reason not in ("fetch", "unpack")), refused
    app.assert_no_errors()
    app.context.close()


CACHED_SNAPSHOTS = """async () => {
  const found = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      if (request.url.includes("/core/snapshot.gz")) found.push(request.url);
    }
  }
  return found;
}"""


def test_a_refused_snapshot_is_dropped_and_not_fetched_again(browser, sites, expected):
    """A snapshot that fails its check is not read again: the page remembers it, the next visit
    removes it from the offline cache (which kept it, as every file of the build) and does not
    fetch it again."""
    url, asked = sites[0]("other-core"), sites[1]
    app = open_app(browser, url)
    page = app.page
    assert page.evaluate("window.musterTiming.boot")["refused"] == "check"
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
    for _ in range(120):  # the service worker keeps every file of the build, the snapshot too
        if page.evaluate(CACHED_SNAPSHOTS):
            break
        page.wait_for_timeout(500)
    assert len(page.evaluate(CACHED_SNAPSHOTS)) == 1
    page.reload()
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=60_000)
    info = page.evaluate("window.musterTiming.boot")
    assert info["boot"] == "normal" and info["refused"] == "skipped", info
    assert page.evaluate(CACHED_SNAPSHOTS) == []
    asked.clear()
    page.reload()
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=60_000)
    assert page.evaluate("window.musterTiming.boot")["refused"] == "skipped"
    assert not [path for path in asked if "snapshot.gz" in path], asked
    assert page.evaluate(PLAY, [SEED, ACTIONS]) == expected
    app.assert_no_errors()
    app.context.close()
