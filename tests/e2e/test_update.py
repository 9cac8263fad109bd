"""An update of the app: a new build with one file changed downloads that file alone, is
offered with a bar and never forced, leaves the game on screen as it is until the player
presses Update, then reloads into the new build and the same game."""

from __future__ import annotations

import json
import time

import pytest
from apppage import READY_TIMEOUT_MS, open_app, play_valmont, wait_text

import build

pytestmark = pytest.mark.e2e

PREFIX = "/muster/"
CHANGED = "static/i18n/en.json"
NEW_STATUS = "rules ready (new build)"


def position(page) -> dict:
    """What a player sees of the game: the turn, the prompt, the log, the units."""
    return {
        "turn": page.locator("#play-panel .turn").inner_text(),
        "prompt": page.locator("#prompt").inner_text(),
        "log": page.locator("#log-panel li").all_inner_texts(),
        "units": page.eval_on_selector_all(
            "#map [data-unit]", "els => els.map(e => e.dataset.unit + '@' + e.dataset.at).sort()"
        ),
    }


@pytest.fixture
def site(tmp_path):
    """A build of our own in a temporary folder, served under PREFIX, with every path the
    server is asked for recorded in order."""
    out = tmp_path / "dist"
    build.build(out, base_path=PREFIX)
    asked: list[str] = []
    server = build.make_server(out, 0, PREFIX, on_request=asked.append)
    build.serve_in_thread(server)
    host, port = server.server_address[:2]
    try:
        yield out, f"http://{host}:{port}{PREFIX}", asked
    finally:
        server.shutdown()
        server.server_close()


def test_an_update_fetches_what_changed_and_waits_for_the_player(browser, site):
    out, url, asked = site
    app = open_app(browser, url + "?scenario=demo-valmont", viewport={"width": 1280, "height": 800})
    page = app.page
    play_valmont(page)
    page.wait_for_function(
        "navigator.serviceWorker.controller !== null", timeout=60_000, polling=200
    )
    # The game is kept after its last action.
    page.wait_for_function(
        "window.muster.games.records.length === 1 "
        "&& window.muster.games.records[0].summary.moves >= 3"
    )
    slot = page.evaluate("window.muster.play.slot")
    before = position(page)
    assert page.locator("#status").inner_text() == "rules ready"
    page.evaluate("window.__sameDocument = true")

    # A new build in the same folder, one word of one file changed.
    words = json.loads((out / CHANGED).read_text(encoding="utf-8"))
    words["ui.status_ready"] = NEW_STATUS
    changed = json.dumps(words, ensure_ascii=False, indent=2).encode()
    build.rebuild_with(out, {CHANGED: changed})

    asked.clear()
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    page.wait_for_selector("#update-bar", timeout=60_000)
    page.wait_for_function(
        "navigator.serviceWorker.getRegistration().then(r => !!r.waiting)", polling=200
    )
    # The new worker fetched its own script and the changed file, nothing else: every other
    # file is reused from the cache under its unchanged hash.
    assert sorted(asked) == sorted([PREFIX + "sw.js", PREFIX + CHANGED])

    bar = page.locator("#update-bar")
    assert bar.inner_text().startswith("An update is ready")
    button = page.locator("#update-button")
    assert button.inner_text() == "Update"
    box = button.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44

    # Offered, never forced: a while later the same page shows the same game, the old words.
    time.sleep(1.5)
    assert page.evaluate("window.__sameDocument === true")
    assert position(page) == before
    assert page.locator("#status").inner_text() == "rules ready"
    assert page.evaluate("window.muster.play.slot") == slot

    asked.clear()
    with page.expect_navigation(timeout=60_000):
        button.click()
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=READY_TIMEOUT_MS)
    # The new build: its words, its worker in control, the bar gone.
    wait_text(page, "#status", NEW_STATUS)
    assert page.evaluate("window.__sameDocument === undefined")
    assert page.locator("#update-bar").count() == 0
    # And the same game, where the player left it, in its own slot.
    page.wait_for_function("s => window.muster.play.slot === s", arg=slot)
    page.wait_for_selector("#play-panel .turn")
    assert position(page) == before
    wait_text(page, "#message", "Muster was updated")
    # Everything came from the cache: the reload asked the server for nothing but the
    # worker's script (the browser's check for a newer one, at every start).
    assert set(asked) <= {PREFIX + "sw.js"}
    # The cache holds the new build's files alone, each once.
    cached = page.evaluate(
        """async () => (await (await caches.open('muster-precache')).keys())
            .map(r => new URL(r.url).pathname + new URL(r.url).search)"""
    )
    wanted = {PREFIX + e["url"][2:] + "?__rev=" + e["rev"] for e in build.precache_list(out)}
    assert sorted(cached) == sorted(wanted)
    assert page.evaluate("caches.keys()") == ["muster-precache"]
    app.assert_no_errors()
    app.context.close()
