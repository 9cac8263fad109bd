"""Saved games: every game kept in its own slot, asked before a game leaves the screen, resumed
to the same position (by itself after a reload, or from the list), hidden blocks kept behind the
privacy screen, refused saves changing nothing, and a full storage said plainly while play goes
on."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

import apppage
import pytest
from apppage import NO_BRIEFING, READY_TIMEOUT_MS, AppPage, open_app, press, settle

pytestmark = pytest.mark.e2e

SHOTS = Path("/tmp/shots")
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
TABLET = {
    "viewport": {"width": 820, "height": 1180},
    "device_scale_factor": 2,
    "has_touch": True,
    "is_mobile": True,
}
VALMONT = "Valmont, 1809 (demo)"
HOHENBRUECK = "Hohenbrück, 1758 (demo)"
FONTANELLA = "Fontanella, 1800 (demo)"


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def text(page, selector: str) -> str:
    return page.locator(selector).inner_text()


def wait_text(page, selector: str, words: str) -> None:
    page.wait_for_function(
        "([s, t]) => (document.querySelector(s) || {textContent: ''}).textContent.includes(t)",
        arg=[selector, words],
    )


def answer(page, go: bool, tap: bool = False) -> None:
    """The modal question is up: go ahead, or cancel."""
    page.wait_for_selector("#ask[open]")
    button = "#ask-ok" if go else "#ask-cancel"
    page.tap(button) if tap else page.click(button)
    page.wait_for_selector("#ask:not([open])", state="attached")


def reload(page) -> None:
    """Reload the page: the game that was on screen comes back by itself."""
    page.reload()
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=READY_TIMEOUT_MS)
    settle(page)


def pick_scenario(page, scenario_id: str, go: bool | None = None) -> None:
    """Choose a scenario in the header's select (answering the question if one is asked)."""
    page.select_option("#scenario-select", scenario_id)
    if go is not None:
        answer(page, go)
    page.wait_for_function(
        "id => window.muster.state.scenario.id === id && !!document.querySelector('#new-game')",
        arg=scenario_id,
    )


def position(page) -> dict:
    """What a player sees of the game: the turn line, the prompt, the log, the pieces."""
    return {
        "turn": text(page, "#play-panel .turn"),
        "prompt": text(page, "#prompt"),
        "log": page.locator("#log-panel li").all_inner_texts(),
        "units": page.eval_on_selector_all(
            "#map:not([hidden]) [data-unit]",
            "els => els.map(e => e.dataset.unit + '@' + e.dataset.at).sort()",
        ),
        "pieces": page.eval_on_selector_all(
            "#area-map:not([hidden]) [data-piece]",
            "els => els.map(e => e.dataset.piece + e.dataset.side + e.getAttribute('transform'))"
            ".sort()",
        ),
    }


def tap_center(page, selector: str, touch: bool = False) -> None:
    settle(page)
    box = page.locator(selector).first.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y) if touch else page.mouse.click(x, y)


def play_valmont(page) -> None:
    """A new Valmont game: 1/8e Ligne moves to 0604 (apppage.play_valmont), and stands there."""
    apppage.play_valmont(page)
    assert page.locator("[data-unit='fr-1-1']").first.get_attribute("data-at") == "0604"


def play_hohenbrueck(page) -> None:
    """A new Hohenbrück game, past its first phase."""
    press(page, "#new-game")
    wait_text(page, "#prompt", "Prussia")
    before = text(page, "#prompt")
    press(page, "#dock [data-action='end_phase']")
    page.wait_for_function("p => document.querySelector('#prompt').textContent !== p", arg=before)


def hand_over(page, side: str, touch: bool = False) -> None:
    """The privacy screen is up for `side`, with nothing of any side's view behind it."""
    page.wait_for_selector(f"#curtain:not([hidden]) #curtain-go[data-side='{side}']")
    assert page.locator("[data-piece]").count() == 0
    assert text(page, "#play-panel") == ""
    assert text(page, "#log-panel") == ""
    settle(page)
    page.tap("#curtain-go") if touch else page.click("#curtain-go")
    page.wait_for_selector("#curtain", state="hidden")


def play_fontanella(page) -> None:
    """A new Fontanella game: Austria takes the tablet and moves a block to Ponte Gallo."""
    press(page, "#new-game")
    hand_over(page, "austria")
    wait_text(page, "#prompt", "Austria")
    tap_center(page, "[data-piece='a01']")
    settle(page)
    if page.locator("#picker").count():  # a01 stands with others: pick it from the list
        press(page, "#picker button.pick-row[data-unit='a01']")
    page.wait_for_selector("#area-map [data-lit='pontegallo']", state="attached")
    tap_center(page, "#area-map [data-locale='pontegallo']")
    wait_text(page, "#log-panel", "to Ponte Gallo")
    assert page.locator("#curtain:not([hidden])").count() == 0  # Austria still acts


def saved_entry(page, words: str, root: str = "#play-panel"):
    return page.locator(f"{root} .saved-game", has_text=words)


def test_new_game_asks_first_and_the_old_game_stays_in_saved_games(browser, site_url, tmp_path):
    app = open_app(browser, site_url + "?scenario=demo-valmont", **DESKTOP)
    page = app.page
    play_valmont(page)
    before = position(page)
    # New game asks; Cancel (or Escape) keeps the game exactly as it was.
    press(page, "#new-game")
    page.wait_for_selector("#ask[open]")
    assert text(page, "#ask-title") == f"Start a new game of {VALMONT}?"
    assert "The game in progress stays in Saved games" in text(page, "#ask-body")
    shot(page, "confirm-new-game-desktop")
    answer(page, go=False)
    assert position(page) == before
    press(page, "#new-game")
    page.wait_for_selector("#ask[open]")
    page.keyboard.press("Escape")
    page.wait_for_selector("#ask:not([open])", state="attached")
    assert position(page) == before
    # Confirm: a new game; the first one is still in Saved games.
    press(page, "#new-game")
    answer(page, go=True)
    page.wait_for_selector("#roll")
    assert page.locator("[data-unit='fr-1-1']").first.get_attribute("data-at") == "0404"
    press(page, "#saved-games")
    page.wait_for_selector("#saved-dialog[open] .saved-game")
    games = page.locator("#saved-list .saved-game")
    assert games.count() == 2
    assert "On screen now" in games.nth(0).inner_text()
    old = games.nth(1)
    assert VALMONT in old.inner_text() and "Turn 1 of" in old.inner_text()
    assert "France to act" in old.inner_text() and "Last played" in old.inner_text()
    shot(page, "saved-games-dialog-desktop")
    # Rename it, export it to a file: the same JSON as Save.
    old.locator(".saved-rename").click()
    page.wait_for_selector("#rename-dialog[open]")
    page.fill("#rename-input", "Club night")
    shot(page, "rename-desktop")
    page.keyboard.press("Enter")
    wait_text(page, "#saved-list", "Club night")
    old = saved_entry(page, "Club night", "#saved-list")
    assert VALMONT in old.inner_text()
    with page.expect_download() as download:
        old.locator(".saved-export").click()
    path = tmp_path / "export.json"
    download.value.save_as(path)
    exported = json.loads(path.read_text())
    assert exported["format"] == "muster-save/1" and len(exported["actions"]) == 3
    assert download.value.suggested_filename == "demo-valmont.save.json"
    # Resume it: asked first (a game is in progress), then the same position as before.
    old.locator(".saved-resume").click()
    assert text(page, "#ask-title") == "Load the saved game Club night?"
    answer(page, go=True)
    page.wait_for_selector("#saved-dialog:not([open])", state="attached")
    wait_text(page, "#message", "Saved game loaded")
    assert position(page) == before
    # Delete the other game (asked first); the one on screen cannot be deleted.
    press(page, "#saved-games")
    page.wait_for_selector("#saved-dialog[open] .saved-game")
    games = page.locator("#saved-list .saved-game")
    assert games.count() == 2
    assert saved_entry(page, "Club night", "#saved-list").locator(".saved-delete").count() == 0
    other = games.filter(has_not_text="Club night")
    other.locator(".saved-delete").click()
    page.wait_for_selector("#ask[open]")
    assert "Delete the saved game" in text(page, "#ask-title")
    answer(page, go=False)
    assert page.locator("#saved-list .saved-game").count() == 2
    other.locator(".saved-delete").click()
    answer(page, go=True)
    page.wait_for_function("document.querySelectorAll('#saved-list .saved-game').length === 1")
    page.click("#saved-close")
    assert page.evaluate("window.muster.games.records.length") == 1
    assert page.evaluate("localStorage.getItem('muster.autosave')") is None
    app.assert_no_errors()
    app.context.close()


def test_each_demo_resumes_after_a_reload_at_the_same_position(browser, site_url):
    app = open_app(browser, site_url + "?scenario=demo-valmont", **DESKTOP)
    page = app.page
    seen = {}
    play_valmont(page)
    seen[VALMONT] = position(page)
    # Another scenario while a game is in progress: asked; Cancel keeps the select as it was.
    page.select_option("#scenario-select", "demo-hohenbrueck")
    page.wait_for_selector("#ask[open]")
    assert text(page, "#ask-title") == f"Open the scenario {HOHENBRUECK}?"
    answer(page, go=False)
    assert page.locator("#scenario-select").input_value() == "demo-valmont"
    assert position(page) == seen[VALMONT]
    pick_scenario(page, "demo-hohenbrueck", go=True)
    assert page.locator("#scenario-title").inner_text() == HOHENBRUECK
    play_hohenbrueck(page)
    seen[HOHENBRUECK] = position(page)
    pick_scenario(page, "demo-fontanella", go=True)
    play_fontanella(page)
    seen[FONTANELLA] = position(page)
    assert len(seen[FONTANELLA]["pieces"]) > 0

    # A reload: Fontanella, the game on screen, comes back behind the privacy screen.
    reload(page)
    hand_over(page, "austria")
    assert page.locator("#scenario-select").input_value() == "demo-fontanella"
    assert position(page) == seen[FONTANELLA]
    press(page, "#saved-games")
    page.wait_for_selector("#saved-dialog[open] .saved-game")
    entries = page.locator("#saved-list .saved-game")
    assert entries.count() == 3  # newest first
    assert FONTANELLA in entries.nth(0).inner_text()
    assert "On screen now" in entries.nth(0).inner_text()
    assert HOHENBRUECK in entries.nth(1).inner_text()
    # Valmont, from the dialog during play: asked first, naming both scenarios.
    saved_entry(page, VALMONT, "#saved-list").locator(".saved-resume").click()
    page.wait_for_selector("#ask[open]")
    assert f"This saved game is of {VALMONT}, not of {FONTANELLA}" in text(page, "#ask-body")
    answer(page, go=True)
    wait_text(page, "#message", f"Saved game loaded: {VALMONT}")
    assert page.locator("#scenario-select").input_value() == "demo-valmont"
    assert position(page) == seen[VALMONT]
    # Hohenbrück, from the dialog again.
    press(page, "#saved-games")
    saved_entry(page, HOHENBRUECK, "#saved-list").locator(".saved-resume").click()
    page.wait_for_selector("#ask[open]")
    body = text(page, "#ask-body")
    assert f"This saved game is of {HOHENBRUECK}, not of {VALMONT}" in body
    answer(page, go=True)
    wait_text(page, "#message", f"Saved game loaded: {HOHENBRUECK}")
    assert page.locator("#scenario-select").input_value() == "demo-hohenbrueck"
    assert position(page) == seen[HOHENBRUECK]
    # A reload brings back the game now on screen, Hohenbrück.
    reload(page)
    assert page.locator("#scenario-select").input_value() == "demo-hohenbrueck"
    assert position(page) == seen[HOHENBRUECK]
    app.assert_no_errors()
    app.context.close()


def test_a_reload_mid_hand_over_opens_on_the_privacy_screen(browser, site_url):
    app = open_app(browser, site_url + "?scenario=demo-fontanella", **TABLET)
    page = app.page
    settle(page)
    page.tap("#new-game")
    hand_over(page, "austria", touch=True)
    wait_text(page, "#prompt", "Austria")
    settle(page)
    page.tap("#dock [data-action='end_phase']")
    settle(page)
    page.tap("#ask-unused-end")  # 3 commands unused: asked first, and ended anyway
    # The screen now asks to hand the tablet to France; the French player reloads.
    page.wait_for_selector("#curtain:not([hidden]) #curtain-go[data-side='france']")
    assert "Hand the tablet to France" in text(page, "#curtain")
    reload(page)
    # The game comes back by itself, on the privacy screen for the side to act; no block of
    # any side's view behind it.
    page.wait_for_selector("#curtain:not([hidden]) #curtain-go[data-side='france']")
    assert page.locator("#curtain").is_visible()
    assert page.locator("[data-piece]").count() == 0
    assert text(page, "#play-panel") == "" and text(page, "#log-panel") == ""
    hand_over(page, "france", touch=True)
    wait_text(page, "#prompt", "France")
    assert page.locator("[data-side='france'][data-hidden='false']").count() > 0
    assert page.locator("[data-side='austria'][data-hidden='false']").count() == 0
    # The list and the question at tablet size, tapped with a finger.
    page.tap("#saved-games")
    page.wait_for_selector("#saved-dialog[open] .saved-game")
    entry = page.locator("#saved-list .saved-game").first
    assert FONTANELLA in entry.inner_text() and "France to act" in entry.inner_text()
    assert "Turn 1 of 16" in entry.inner_text()
    for button in page.locator("#saved-list .saved-game button").all():
        assert button.bounding_box()["height"] >= 44
    shot(page, "saved-games-dialog-tablet")
    page.tap("#saved-close")
    settle(page)
    page.tap("#new-game")
    page.wait_for_selector("#ask[open]")
    for button in ("#ask-ok", "#ask-cancel"):
        assert page.locator(button).bounding_box()["height"] >= 44
    shot(page, "confirm-new-game-tablet")
    answer(page, go=False, tap=True)
    assert page.locator("[data-side='france'][data-hidden='false']").count() > 0
    app.assert_no_errors()
    app.context.close()


def test_refused_saves_change_nothing_and_another_scenario_asks_first(browser, site_url, tmp_path):
    app = open_app(browser, site_url + "?scenario=demo-valmont", **DESKTOP)
    page = app.page
    press(page, "#new-game")
    press(page, "#play-panel button.face[data-value='fr-bde1']")
    wait_text(page, "#prompt", "movement")  # Morand has no gun: its fire step passed
    with page.expect_download() as download:
        press(page, "#save-game")
    valmont = tmp_path / "valmont.json"
    download.value.save_as(valmont)
    pick_scenario(page, "demo-hohenbrueck", go=True)
    play_hohenbrueck(page)
    before = position(page)
    with page.expect_download() as download:
        press(page, "#save-game")
    save = json.loads(Path(download.value.path()).read_text())
    # A Hohenbrück save claiming another rule system: refused, the game on screen kept.
    save["system"] = "area-locale"
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(save))
    page.set_input_files("#save-file", str(wrong))
    page.wait_for_selector("#ask[open]")  # the file is read first, then the question asked
    assert text(page, "#ask-title") == f"Load the saved game {HOHENBRUECK}?"
    answer(page, go=True)
    wait_text(page, "#message", "This save cannot be used")
    assert text(page, "#message") == (
        "This save cannot be used: its rule system is missing or not its scenario's."
        " The game in progress is unchanged."
    )
    assert position(page) == before
    assert page.locator("#scenario-select").input_value() == "demo-hohenbrueck"
    assert page.locator("#curtain:not([hidden])").count() == 0
    # A save of another scenario: asked first, naming both; Cancel keeps everything.
    page.set_input_files("#save-file", str(valmont))
    page.wait_for_selector("#ask[open]")
    assert text(page, "#ask-title") == f"Load the saved game {VALMONT}?"
    assert (
        f"This saved game is of {VALMONT}, not of {HOHENBRUECK}, the scenario on screen."
        in text(page, "#ask-body")
    )
    shot(page, "confirm-other-scenario-desktop")
    answer(page, go=False)
    assert position(page) == before
    assert page.locator("#scenario-select").input_value() == "demo-hohenbrueck"
    page.set_input_files("#save-file", str(valmont))
    answer(page, go=True)
    wait_text(page, "#message", f"Saved game loaded: {VALMONT}")
    assert page.locator("#scenario-select").input_value() == "demo-valmont"
    assert "movement" in text(page, "#prompt")
    # The Hohenbrück game stays in Saved games.
    press(page, "#saved-games")
    assert saved_entry(page, HOHENBRUECK, "#saved-list").count() == 1
    page.click("#saved-close")
    app.assert_no_errors()
    app.context.close()


def test_a_full_storage_is_said_and_play_goes_on(browser, site_url):
    # A tablet whose storage is full: this origin's quota shrunk to one byte before the app
    # opens its store (Chromium reads the quota when the store opens).
    context = browser.new_context(**DESKTOP)
    context.add_init_script(NO_BRIEFING)
    page = context.new_page()
    app = AppPage(context, page)
    page.on("console", lambda m: app.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: app.errors.append(str(exc)))
    cdp = context.new_cdp_session(page)
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(site_url))
    cdp.send("Storage.overrideQuotaForOrigin", {"origin": origin, "quotaSize": 1})
    page.goto(site_url + "?scenario=demo-valmont")
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=READY_TIMEOUT_MS)
    press(page, "#new-game")
    page.wait_for_selector("#roll")
    wait_text(page, "#message", "could not be kept in this browser's storage")
    assert text(page, "#message") == (
        "The game could not be kept in this browser's storage (the storage is full); "
        "save it to a file."
    )
    # Play goes on: the draw happens, the next step can be taken, the game can be saved.
    press(page, "#play-panel button.face[data-value='fr-bde1']")
    wait_text(page, "#prompt", "movement")  # Morand has no gun: its fire step passed
    press(page, "#dock [data-action='next_step']")  # its units not moved: confirmed
    page.wait_for_function("!document.querySelector('#prompt').textContent.includes('movement')")
    with page.expect_download() as download:
        press(page, "#save-game")
    assert len(json.loads(Path(download.value.path()).read_text())["actions"]) == 2
    assert page.evaluate("window.muster.games.records.length") == 0
    # Room again: the game is kept again, at its latest position.
    cdp.send("Storage.overrideQuotaForOrigin", {"origin": origin})
    press(page, "#undo")
    wait_text(page, "#prompt", "movement")
    page.wait_for_function(
        "window.muster.games.records.length === 1 "
        "&& window.muster.games.records[0].summary.moves === 1"
    )
    app.assert_no_errors()
    context.close()


def test_the_old_single_autosave_is_moved_into_the_list(browser, site_url):
    app = open_app(browser, site_url + "?scenario=demo-hohenbrueck", **DESKTOP)
    page = app.page
    play_hohenbrueck(page)
    before = position(page)
    page.wait_for_function("window.muster.games.records[0].summary.moves === 1")
    # As an earlier version left it: one game in localStorage, no list.
    page.evaluate(
        """async () => {
            const save = await window.muster.engine.call('save', {});
            for (const r of window.muster.games.records.slice()) {
                await window.muster.games.remove(r.id);
            }
            localStorage.setItem('muster.autosave', JSON.stringify(save));
        }"""
    )
    reload(page)
    assert page.evaluate("localStorage.getItem('muster.autosave')") is None
    assert page.evaluate("window.muster.games.records.length") == 1
    # The game it kept is the scenario's game in progress: it comes back by itself.
    wait_text(page, "#message", f"{HOHENBRUECK} goes on where you left it.")
    assert position(page) == before
    # Once resumed, its summary is the core's: turn and side to act.
    page.wait_for_function("window.muster.games.records[0].summary.turn === 1")
    # Beyond 50 games the oldest go: 51 more games leave the 50 newest.
    kept = page.evaluate(
        """async () => {
            const games = window.muster.games;
            const first = games.records[0];
            for (let i = 0; i < 51; i++) {
                await games.keep('game-' + i, first.save, Object.assign({}, first.summary));
            }
            const ids = (await games.load()).map(r => r.id);
            return [ids.length, ids.includes(first.id), ids.includes('game-0'),
                    ids.includes('game-50')];
        }"""
    )
    assert kept == [50, False, False, True]
    app.assert_no_errors()
    app.context.close()
