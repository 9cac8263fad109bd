"""Play in the browser: a cup draw, a move with facing, dice typed in, undo, save and load."""

from __future__ import annotations

import json

import pytest
from apppage import open_app, press, settle, tap_center, tap_hex, wait_text

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def game(browser, site_url):
    app = open_app(browser, site_url + "?scenario=demo-valmont")
    yield app
    app.context.close()


def answer(page) -> None:
    """Go ahead at the question asked before a game leaves the screen."""
    page.wait_for_selector("#ask[open]")
    page.click("#ask-ok")
    page.wait_for_selector("#ask:not([open])", state="attached")


def prompt(page) -> str:
    return page.locator("#prompt").inner_text()


def at(page, unit: str) -> str | None:
    """The hex a unit's counter stands in on the map."""
    return page.locator(f"#map [data-unit='{unit}']").first.get_attribute("data-at")


def test_a_new_game_opens_with_a_cup_draw_and_its_odds(game):
    page = game.page
    assert page.locator("#scenario-select").input_value() == "demo-valmont"
    page.click("#new-game")
    page.wait_for_selector("#roll")
    assert prompt(page) == "Draw a formation marker from the cup (8 left)"
    faces = page.locator("#play-panel button.face")
    assert faces.count() == 8  # one marker per formation
    # Each face says what it draws and its odds, on screen: 1 in 8.
    first = faces.first
    assert first.locator(".face-value").inner_text() == "Brigade Morand"
    assert first.locator(".face-result").inner_text() == "Brigade Morand (France) is activated"
    assert first.locator(".face-p").inner_text() == "12.5%"
    assert first.locator(".face-p").is_visible()


def test_a_marker_drawn_at_the_table_activates_its_formation(game):
    page = game.page
    press(page, "#play-panel button.face[data-value='fr-bde1']")
    # Morand's brigade has no gun: its artillery fire passes by itself, said in the log.
    wait_text(page, "#prompt", "movement")
    assert prompt(page) == "Brigade Morand (France): movement"
    log = page.locator("#log-panel").inner_text()
    assert "Brigade Morand drawn (at the table)" in log
    assert "Brigade Morand has nothing to do in its fire step: step passed" in log


def test_moving_a_unit_by_taps_then_choosing_its_facing(game):
    page = game.page
    tap_center(page, "#map [data-unit='fr-1-1']")
    page.wait_for_selector("#map .hm-lit[data-lit='0604']", state="attached")
    tap_hex(page, "0604")
    wait_text(page, "#prompt", "choose its facing")
    assert prompt(page) == "1/8e Ligne (Brigade Morand): choose its facing"
    assert page.locator("#dock .why").inner_text() == (
        "1/8e Ligne has moved: it must choose its facing now"
    )
    press(page, "#dock button.facing[data-facing='2']")
    wait_text(page, "#log-panel", "1/8e Ligne faces east (hexside)")
    log = page.locator("#log-panel").inner_text()
    assert "1/8e Ligne moves 0404 → 0604 (2 MP)" in log
    assert at(page, "fr-1-1") == "0604"


def test_undo_takes_back_the_facing_then_the_move(game):
    page = game.page
    press(page, "#undo")
    wait_text(page, "#prompt", "choose its facing")
    press(page, "#undo")
    page.wait_for_function(
        "document.querySelector(\"#map [data-unit='fr-1-1']\").getAttribute('data-at') === '0404'"
    )
    assert page.locator("#redo").is_enabled()
    press(page, "#redo")
    wait_text(page, "#prompt", "choose its facing")
    assert at(page, "fr-1-1") == "0604"
    # The facing the move asks for is offered again, as arrows in the dock.
    settle(page)
    arrows = page.locator("#dock button.facing").count()
    if not arrows:  # (a panel bug, asserted below) a player can still tap the unit instead
        tap_center(page, "#map [data-unit='fr-1-1']")
        page.wait_for_selector("#picker")
        press(page, "#picker button.pick-row:has-text('faces east (hexside)')")
    else:
        press(page, "#dock button.facing[data-facing='2']")
    wait_text(page, "#prompt", "movement")
    assert arrows == 12, "after redo the forced facing shows no arrows, only a hint"


def test_save_and_load_a_game(game, tmp_path):
    page = game.page
    with page.expect_download() as download:
        press(page, "#save-game")
    path = tmp_path / "game.json"
    download.value.save_as(path)
    save = json.loads(path.read_text())
    assert save["format"] == "muster-save/1" and len(save["actions"]) == 3
    # Play on, then load the save: the position returns to it.
    press(page, "#dock [data-action='next_step']")
    wait_text(page, "#prompt", "melee")
    page.set_input_files("#save-file", str(path))
    answer(page)  # a game is in progress: asked first (it stays in Saved games)
    wait_text(page, "#prompt", "movement")
    assert at(page, "fr-1-1") == "0604"
    # A tampered save is refused and the game stays as it is.
    save["actions"][1]["to"] = "1212"
    path.write_text(json.dumps(save))
    page.set_input_files("#save-file", str(path))
    answer(page)
    wait_text(page, "#message", "action 2")
    message = page.locator("#message").inner_text()
    # The refusal says why, by the unit's name and the hex: out of its reach this move.
    assert message.startswith("The save cannot be replayed: action 2: ")
    assert "cannot reach 1212 this move" in message and "fr-1" not in message
    assert message.endswith("The game in progress is unchanged.")
    assert at(page, "fr-1-1") == "0604"
    assert "movement" in prompt(page)


def test_a_digital_roll(game):
    page = game.page
    press(page, "#dock [data-action='next_step']")  # movement → melee
    wait_text(page, "#prompt", "melee")
    press(page, "#dock [data-action='next_step']")  # the activation ends: the next draw
    page.wait_for_selector("#roll")
    press(page, "#roll")
    wait_text(page, "#log-panel", "(digital)")
    game.assert_no_errors()


def test_a_reload_at_the_table_resumes_the_game(game):
    page = game.page
    where = at(page, "fr-1-1")
    log = page.locator("#log-panel li").count()
    page.reload()
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=60_000)
    # The game on screen comes back by itself, as it was.
    page.wait_for_selector("#prompt")
    wait_text(page, "#message", "Valmont, 1809 (demo) goes on where you left it.")
    assert at(page, "fr-1-1") == where
    assert page.locator("#log-panel li").count() == log
