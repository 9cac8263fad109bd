"""A reload resumes the game on screen, on the tablet (820×1180, touch): each demo comes back
at the same scenario, turn and position (the game's state hash, the log, the pieces); a game
with hidden blocks comes back behind the privacy screen; a game of a scenario opened from a
file comes back too; a link naming a scenario opens that scenario's game in progress, or its
start; the message saying a game was loaded goes at the next action; a long game comes back
from its head, plays on at once and undoes to its start once the rest behind it is read."""

from __future__ import annotations

import json

import pytest
from apppage import READY_TIMEOUT_MS, settle
from test_play_panel import (
    DEMOS,
    open_demo,
    open_own,
    play_a_turn,
    reveal_if_covered,
    scenario,
    tap,
)

pytestmark = pytest.mark.e2e

# What a player sees of a game, and the game itself: the core's hash of its state.
POSITION = """async () => {
  const save = await window.muster.engine.call('save', {});
  const texts = (s) => [...document.querySelectorAll(s)].map((e) => e.innerText);
  return {
    scenario: window.muster.state.scenario.id,
    title: document.querySelector('#scenario-select').selectedOptions[0].text,
    hash: save.hash,
    moves: save.actions.length,
    turn: document.querySelector('#play-panel .turn').innerText,
    prompt: document.querySelector('#prompt').innerText,
    log: texts('#log-panel li'),
    units: [...document.querySelectorAll('#map:not([hidden]) [data-unit]')]
      .map((e) => e.dataset.unit + '@' + e.dataset.at).sort(),
    pieces: [...document.querySelectorAll('#area-map:not([hidden]) [data-piece]')]
      .map((e) => e.dataset.piece + e.dataset.side + e.getAttribute('transform')).sort(),
  };
}"""


def position(page) -> dict:
    settle(page)
    return page.evaluate(POSITION)


def ready(page) -> None:
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=READY_TIMEOUT_MS)
    settle(page)


def reload(page) -> None:
    page.reload()
    ready(page)


def go(page, url: str) -> None:
    page.goto(url)
    ready(page)


def nothing_behind_the_curtain(page, side: str) -> None:
    """The privacy screen waits for ``side``; no block, prompt or log line is on the page."""
    page.wait_for_selector(f"#curtain:not([hidden]) #curtain-go[data-side='{side}']")
    assert page.locator("#curtain").is_visible()
    assert page.locator("[data-piece]").count() == 0
    assert page.locator("#play-panel").inner_text() == ""
    assert page.locator("#log-panel").inner_text() == ""


def next_action(page) -> None:
    """One action, whatever is asked: a roll, the way on, or the first choice."""
    for selector in ("#roll", "#dock button.end", "#dock button.action"):
        if page.locator(selector).count():
            tap(page, page.locator(selector).first)
            if page.locator("#ask-unused-end").count():  # units left unmoved: asked first
                tap(page, page.locator("#ask-unused-end"))
            return
    raise AssertionError(page.locator("#dock").inner_text())


def banner_goes_at_the_next_action(page, words: str) -> None:
    message = page.locator("#message")
    assert message.is_visible() and words in message.inner_text(), message.inner_text()
    next_action(page)
    assert message.is_hidden()


@pytest.mark.parametrize("demo", DEMOS)
def test_a_reload_resumes_the_game_on_screen(browser, site_url, demo):
    app = open_demo(browser, site_url, demo)
    page = app.page
    try:
        area = demo == "demo-fontanella"
        title = scenario(demo)["title"]["en"]
        tap(page, page.locator("#new-game"))
        reveal_if_covered(page)
        play_a_turn(page, area=area)
        covered = page.locator("#curtain:not([hidden]) #curtain-go")
        side = covered.get_attribute("data-side") if covered.count() else None
        assert area == (side is not None)  # the hidden-block game hands the tablet over
        reveal_if_covered(page)
        before = position(page)
        assert before["moves"] >= 2 and before["scenario"] == demo
        assert f"scenario={demo}" in page.url
        reload(page)
        if area:
            # Behind the privacy screen, for the side to act: nothing shown before its tap.
            nothing_behind_the_curtain(page, side)
            reveal_if_covered(page)
        assert position(page) == before
        banner_goes_at_the_next_action(page, f"{title} goes on where you left it.")
        app.assert_no_errors()
    finally:
        app.context.close()


def test_a_reload_resumes_a_game_of_a_scenario_opened_from_a_file(browser, site_url):
    own = scenario("demo-hohenbrueck")
    own["id"], own["title"] = "club-hohenbrueck", "Hohenbrück, club night"
    app = open_demo(browser, site_url, "demo-valmont")
    page = app.page
    try:
        open_own(page, own)
        tap(page, page.locator("#new-game"))
        next_action(page)
        next_action(page)
        before = position(page)
        assert before["scenario"] == own["id"] and before["title"] == own["title"]
        reload(page)
        assert position(page) == before
        assert page.locator("#scenario-select").input_value() == own["id"]
        app.assert_no_errors()
    finally:
        app.context.close()


def test_a_link_names_the_scenario_and_its_game_in_progress_resumes(browser, site_url):
    app = open_demo(browser, site_url, "demo-valmont")
    page = app.page
    try:
        tap(page, page.locator("#new-game"))
        next_action(page)  # the cup's draw
        next_action(page)
        valmont = position(page)
        # A link to another scenario, with no game of it kept: its start, the Valmont game
        # among the saved games; a reload keeps it.
        go(page, site_url + "?scenario=demo-hohenbrueck&lang=en")
        for reloaded in (False, True):
            if reloaded:
                reload(page)
            assert page.evaluate("window.muster.state.scenario.id") == "demo-hohenbrueck"
            assert page.locator("#prompt").count() == 0
            assert page.locator("#new-game").is_visible()
            entry = page.locator("#play-panel .saved-game").first
            assert "Valmont" in entry.inner_text()
        # Resumed from the start panel: the game as it was; "Saved game loaded" goes at the
        # next action.
        tap(page, page.locator("#resume"))
        assert position(page) == valmont
        assert "scenario=demo-valmont" in page.url
        banner_goes_at_the_next_action(page, "Saved game loaded")
        valmont = position(page)
        # A link to Hohenbrück again, then one to Valmont: its game in progress, where it was.
        go(page, site_url + "?scenario=demo-hohenbrueck&lang=en")
        assert page.locator("#prompt").count() == 0
        go(page, site_url + "?scenario=demo-valmont&lang=en")
        assert position(page) == valmont
        # The app opened with no scenario named (an installed app, a bookmark of the site):
        # the game last on screen.
        go(page, site_url + "?lang=en")
        assert position(page) == valmont
        assert "scenario=demo-valmont" in page.url
        app.assert_no_errors()
    finally:
        app.context.close()


# The game kept in the store in `slot`: its save's actions.
KEPT_ACTIONS = """async (slot) => {
  const db = await new Promise((ok, no) => {
    const r = indexedDB.open('muster', 1);
    r.onsuccess = () => ok(r.result);
    r.onerror = () => no(r.error);
  });
  const record = await new Promise((ok, no) => {
    const r = db.transaction('games').objectStore('games').get(slot);
    r.onsuccess = () => ok(r.result);
    r.onerror = () => no(r.error);
  });
  db.close();
  return record.save.actions;
}"""

# Undo in the core until nothing is left: how many, and the hash of the state it ends in.
UNDO_ALL = """async () => {
  const engine = window.muster.engine;
  let count = 0;
  let hash = null;
  for (;;) {
    try {
      hash = (await engine.call('undo', {})).hash;
      count += 1;
    } catch (error) {
      return {count, hash, key: error.key};
    }
  }
}"""


def test_a_long_game_plays_on_at_once_and_undoes_to_its_start(browser, site_url):
    """A kept game of 300 actions is sent in two parts (its head, then the rest); an action
    taken as soon as it is on screen loses nothing: the game kept after it holds every
    action, the log every line, and undo goes back to the start."""
    from test_resume_long import KEEP, long_game  # here: that module imports this one

    from muster.game import state_hash

    game = long_game(300, seed=3)
    save = json.loads(json.dumps(game.save(checkpoint=True)))
    assert len(save["checkpoint"]["states"]) == 2  # it goes in two parts
    app = open_demo(browser, site_url, "demo-valmont")
    page = app.page
    try:
        page.evaluate(KEEP, ["long-game", save, game.summary()])
        page.reload()
        page.wait_for_selector("html[data-ready='1']", state="attached", timeout=READY_TIMEOUT_MS)
        action = page.evaluate(
            """async () => {
              const play = window.muster.play;
              const action = play.view.legal[0];
              await play.act(action);
              return action;
            }"""
        )
        game.apply(action)
        kept = json.loads(json.dumps(game.actions))
        for _ in range(100):  # the autosave after the action
            if len(page.evaluate(KEPT_ACTIONS, "long-game")) == len(kept):
                break
            page.wait_for_timeout(100)
        assert page.evaluate(KEPT_ACTIONS, "long-game") == kept
        shown = position(page)
        assert shown["hash"] == state_hash(game.state) and shown["moves"] == 301
        log = page.evaluate("window.muster.engine.call('game_view', {log: 100000})")["log"]
        assert log == json.loads(json.dumps(game.view(None, 100_000)["log"]))
        undone = page.evaluate(UNDO_ALL)
        assert undone["count"] == 301 and undone["key"] == "error.cannot_undo"
        assert undone["hash"] == state_hash(game.states[0])
        app.assert_no_errors()
    finally:
        app.context.close()
