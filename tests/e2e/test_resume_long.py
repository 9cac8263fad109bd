"""A long game kept in the browser comes back after a reload, on the tablet (820×1180, touch):
a game of 5,000 actions, built here in CPython and kept where the app keeps its games
(IndexedDB, with the checkpoint the app keeps), resumes from its checkpoint at the same
position (the core's hash, the turn, every unit on its hex), and undo takes back its last
action as a full replay does."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from test_play_panel import open_demo
from test_resume import position, reload, settle

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
from long_games import long_game  # noqa: E402

from muster.game import state_hash  # noqa: E402

pytestmark = pytest.mark.e2e

SLOT = "long-game"

# Put a kept game in the app's store and note it as the game on screen, as the app does.
KEEP = """async ([slot, save, summary]) => {
  const db = await new Promise((ok, no) => {
    const r = indexedDB.open('muster', 1);
    r.onsuccess = () => ok(r.result);
    r.onerror = () => no(r.error);
  });
  await new Promise((ok, no) => {
    const tx = db.transaction('games', 'readwrite');
    tx.objectStore('games').put({id: slot, save: save, summary: summary, updated: Date.now()});
    tx.oncomplete = ok;
    tx.onabort = () => no(tx.error);
  });
  db.close();
  localStorage.setItem('muster.on-screen', JSON.stringify({scenario: save.scenario.id, slot}));
}"""


def test_a_game_of_five_thousand_actions_resumes_after_a_reload(browser, site_url):
    game = long_game(5000)
    save = json.loads(json.dumps(game.save(checkpoint=True)))
    assert save["checkpoint"]["at"] == 5000
    app = open_demo(browser, site_url, "demo-valmont")
    page = app.page
    try:
        page.evaluate(KEEP, [SLOT, save, game.summary()])
        reload(page)
        seen = position(page)
        assert seen["hash"] == save["hash"] and seen["moves"] == 5000
        assert str(game.state["turn"]) in seen["turn"]
        units = {
            f"{uid}@{unit['hex']}"
            for uid, unit in game.state["units"].items()
            if not unit.get("out") and unit.get("hex")
        }
        assert units <= set(seen["units"]), units - set(seen["units"])
        assert "goes on where you left it" in page.locator("#message").inner_text()
        # Undo reaches behind the checkpoint's newest state: rebuilt from the one before it.
        game.undo()
        undone = page.evaluate("window.muster.engine.call('undo', {})")
        assert undone["hash"] == state_hash(game.state)
        app.assert_no_errors()
    finally:
        app.context.close()


# Every text the message line shows from now on, in order.
WATCH_MESSAGES = """() => {
  const line = document.querySelector('#message');
  window.__messages = [];
  new MutationObserver(() => window.__messages.push(line.textContent)).observe(
    line, {childList: true, characterData: true, subtree: true});
}"""


def test_a_long_save_file_opens_with_its_progress_on_screen(browser, site_url, tmp_path):
    """A file from elsewhere has no checkpoint: it is replayed whole, in parts, the message
    line saying how far, and the game ends at the file's position."""
    game = long_game(1500, seed=2)
    save = game.save()
    path = tmp_path / "long.save.json"
    path.write_text(json.dumps(save))
    app = open_demo(browser, site_url, "demo-valmont")
    page = app.page
    try:
        settle(page)
        page.evaluate(WATCH_MESSAGES)
        page.set_input_files("#save-file", str(path))
        page.wait_for_selector("#ask[open], #message:not([hidden])")
        if page.locator("#ask[open]").count():
            page.click("#ask-ok")
        page.wait_for_function(
            "document.querySelector('#message').textContent.includes('loaded')", timeout=300_000
        )
        seen = page.evaluate("window.__messages")
        progress = [t for t in seen if t.startswith("Checking the save file")]
        assert progress, seen
        assert "50 of 1,500 actions replayed" in progress[0], progress
        assert any("1,450 of 1,500" in t for t in progress), progress
        where = position(page)
        assert where["hash"] == save["hash"] and where["moves"] == 1500
        assert str(game.state["turn"]) in where["turn"]
        app.assert_no_errors()
    finally:
        app.context.close()
