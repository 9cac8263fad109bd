"""Play in the browser: a cup draw, a move with facing, dice typed in, undo, save and load."""

from __future__ import annotations

import json

import pytest
from apppage import hex_center, open_app

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
    return page.locator("#play-panel .prompt").inner_text()


def test_a_new_game_opens_with_a_cup_draw_and_its_odds(game):
    page = game.page
    assert page.locator("#scenario-select").input_value() == "demo-valmont"
    page.click("#new-game")
    page.wait_for_selector("#roll")
    assert prompt(page) == "Draw a formation marker from the cup"
    faces = page.locator("#play-panel button.face")
    assert faces.count() == 8  # one marker per formation
    assert faces.first.get_attribute("title") == "12.5 %"  # 1 in 8


def test_a_marker_drawn_at_the_table_activates_its_formation(game):
    page = game.page
    page.click("#play-panel button.face[data-value='fr-bde1']")
    page.wait_for_function(
        "document.querySelector('#play-panel .prompt').textContent.includes('artillery fire')"
    )
    assert prompt(page) == "Brigade Morand: artillery fire"
    page.click("[data-action='next_step']")
    page.wait_for_function(
        "document.querySelector('#play-panel .prompt').textContent.includes('movement')"
    )


def test_moving_a_unit_by_taps_then_choosing_its_facing(game):
    page = game.page
    box = page.locator("[data-unit='fr-1-1']").first.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_selector(".hm-hl.reach[data-hl='0604']")
    x, y = hex_center(page, "0604")
    page.mouse.click(x, y)
    page.wait_for_function(
        "document.querySelector('#play-panel .prompt').textContent.includes('choose its facing')"
    )
    assert prompt(page) == "1/8e Ligne: choose its facing"
    page.click("button.facing[data-facing='2']")
    page.wait_for_function("document.querySelector('#log-panel').textContent.includes('faces 2')")
    log = page.locator("#log-panel").inner_text()
    assert "1/8e Ligne moves 0404 → 0604 (2 MP)" in log
    assert page.locator("[data-unit='fr-1-1']").first.get_attribute("data-at") == "0604"


def test_undo_takes_back_the_facing_then_the_move(game):
    page = game.page
    page.click("#undo")
    page.wait_for_function(
        "document.querySelector('#play-panel .prompt').textContent.includes('choose its facing')"
    )
    page.click("#undo")
    page.wait_for_function(
        "document.querySelector(\"[data-unit='fr-1-1']\").getAttribute('data-at') === '0404'"
    )
    assert page.locator("#redo").is_enabled()
    page.click("#redo")
    page.wait_for_function(
        "document.querySelector('#play-panel .prompt').textContent.includes('choose its facing')"
    )
    page.click("button.facing[data-facing='2']")
    page.wait_for_function(
        "document.querySelector('#play-panel .prompt').textContent.includes('movement')"
    )


def test_save_and_load_a_game(game, tmp_path):
    page = game.page
    with page.expect_download() as download:
        page.click("#save-game")
    path = tmp_path / "game.json"
    download.value.save_as(path)
    save = json.loads(path.read_text())
    assert save["format"] == "muster-save/1" and len(save["actions"]) == 4
    # Play on, then load the save: the position returns to it.
    page.click("[data-action='next_step']")
    page.wait_for_function(
        "document.querySelector('#play-panel .prompt').textContent.includes('melee')"
    )
    page.set_input_files("#save-file", str(path))
    answer(page)  # a game is in progress: asked first (it stays in Saved games)
    page.wait_for_function(
        "document.querySelector('#play-panel .prompt').textContent.includes('movement')"
    )
    assert page.locator("[data-unit='fr-1-1']").first.get_attribute("data-at") == "0604"
    # A tampered save is refused and the game stays as it is.
    save["actions"][2]["to"] = "1212"
    path.write_text(json.dumps(save))
    page.set_input_files("#save-file", str(path))
    answer(page)
    page.wait_for_function("document.querySelector('#message').textContent.includes('action 3')")
    message = page.locator("#message").inner_text()
    assert message.startswith("The save cannot be replayed: action 3: Not allowed now: ")
    assert message.endswith("The game in progress is unchanged.")
    assert page.locator("[data-unit='fr-1-1']").first.get_attribute("data-at") == "0604"


def test_a_digital_roll(game):
    page = game.page
    page.click("[data-action='next_step']")
    page.click("[data-action='next_step']")
    page.wait_for_selector("#roll")
    page.click("#roll")
    page.wait_for_function("document.querySelector('#log-panel').textContent.includes('(digital)')")
    game.assert_no_errors()


def test_a_reload_at_the_table_resumes_the_game(game):
    page = game.page
    where = page.locator("[data-unit='fr-1-1']").first.get_attribute("data-at")
    log = page.locator("#log-panel li").count()
    page.reload()
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=60_000)
    newest = page.locator("#play-panel .saved-game").first
    assert "Valmont, 1809 (demo)" in newest.inner_text()
    resume = newest.locator("#resume")
    assert resume.inner_text() == "Resume"
    resume.click()
    page.wait_for_selector("#play-panel .prompt")
    assert page.locator("[data-unit='fr-1-1']").first.get_attribute("data-at") == where
    assert page.locator("#log-panel li").count() == log
