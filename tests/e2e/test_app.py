"""The demo battle in Chromium: map drawn, rules ready, taps answered by Python, errors shown."""

from __future__ import annotations

import json

import pytest
from apppage import click_hex, open_file

pytestmark = pytest.mark.e2e


def test_map_is_drawn_with_the_demo_battle(app):
    page = app.page
    assert page.locator("svg[data-map-drawn='1']").count() == 1
    assert page.locator("[data-hex]").count() >= 140
    assert page.locator("[data-unit]").count() == 24
    assert page.locator("#scenario-title").inner_text() == "Hohenbrück, 1758 (demo)"


def test_status_turns_to_rules_ready(app):
    status = app.page.locator("#status")
    assert status.get_attribute("data-state") == "ready"
    assert status.inner_text() == "rules ready"
    info = app.page.evaluate("window.muster.engine.info")
    assert info["python"].startswith("3.14")


def test_the_demo_offers_a_game_and_says_its_crt_is_a_stand_in(app):
    panel = app.page.locator("#play-panel")
    assert app.page.locator("#new-game").count() == 1
    assert "New games use the app's table" in panel.inner_text()
    assert app.page.locator("#crt-import").count() == 1
    # With no saved game yet, the start panel says nothing of one (no stray "null").
    assert panel.inner_text().split()[:2] == ["New", "game"]
    assert "null" not in panel.inner_text() and "undefined" not in panel.inner_text()


def test_tapping_a_hex_answers_from_python(app):
    page = app.page
    click_hex(page, "0302")
    page.wait_for_selector("#hex-panel .hex-number[data-hex='0302']")
    assert page.locator("#hex-panel .terrain").inner_text() == "Woods"
    assert page.locator("#hex-panel .level").inner_text() == "0"
    assert page.locator("#hex-panel .source").inner_text() == "answered by the rules core"


def test_hex_with_bridge_road_and_unit(app):
    page = app.page
    click_hex(page, "0705")
    page.wait_for_selector("#hex-panel .hex-number[data-hex='0705']")
    text = page.locator("#hex-panel").inner_text()
    assert "Stream + Bridge (Weissbach), towards 0805" in text
    assert "Road, towards 0605" in text


def test_error_from_python_reaches_the_ui(app):
    page = app.page
    page.fill("#goto-input", "9999")
    page.click("#goto-form button")
    message = page.locator("#message")
    message.wait_for(state="visible")
    assert message.inner_text() == "There is no hex 9999 on this map."


def test_goto_a_printed_hex_number(app):
    page = app.page
    page.fill("#goto-input", "1203")
    page.click("#goto-form button")
    page.wait_for_selector("#hex-panel .hex-number[data-hex='1203']")
    assert page.locator("#message").is_hidden()
    assert "Batterie Feuerstein (Artillery)" in page.locator("#hex-panel").inner_text()


def test_malformed_scenario_files_are_refused_and_the_game_kept(app):
    page = app.page
    open_file(page, "broken.json", "{not json")
    page.wait_for_function("document.querySelector('#message').textContent.includes('JSON')")
    assert "The game in progress is unchanged." in page.locator("#message").inner_text()

    bad = json.loads(app.page.evaluate("JSON.stringify(window.muster.state.scenario)"))
    bad["map"]["hexes"]["0302"] = {"terrain": ["wods"]}
    open_file(page, "typo.json", json.dumps(bad))
    page.wait_for_function("document.querySelector('#message').textContent.includes('wods')")
    assert page.locator("#message").inner_text() == (
        'Scenario rejected, hex 0302: unknown terrain "wods". The game in progress is unchanged.'
    )
    # The demo is still in play, in the map and in the core.
    click_hex(page, "0905")
    page.wait_for_selector("#hex-panel .hex-number[data-hex='0905']")
    assert page.locator("#hex-panel .terrain").inner_text() == "Town"


def test_deep_huge_and_strange_files_are_refused_plainly(app):
    """Files no printed game needs: too deep for the browser, too large, numbers JavaScript
    cannot hold; each is refused in words and the game stays."""
    page = app.page
    deep = '{"format": "muster-scenario/1", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
    open_file(page, "deep.json", deep)
    page.wait_for_function("document.querySelector('#message').textContent.includes('nested')")
    assert "more than 64 levels deep" in page.locator("#message").inner_text()

    good = json.loads(app.page.evaluate("JSON.stringify(window.muster.state.scenario)"))
    huge = dict(good, notes=["x" * 90_000] * 60)  # over 5 million characters
    open_file(page, "huge.json", json.dumps(huge))
    page.wait_for_function("document.querySelector('#message').textContent.includes('too large')")
    assert "The file huge.json is too large" in page.locator("#message").inner_text()

    odd = dict(good, id="odd", title="Odd")
    odd["units"] = [dict(odd["units"][0], ratings={"morale": 1e400})]
    open_file(page, "odd.json", json.dumps(odd).replace("Infinity", "1e400"))
    page.wait_for_function("document.querySelector('#message').textContent.includes('morale')")
    assert "Scenario rejected" in page.locator("#message").inner_text()
    # The demo is still in play, in the map and in the core.
    assert page.locator("#scenario-title").inner_text() != "Odd"
    click_hex(page, "0905")
    page.wait_for_selector("#hex-panel .hex-number[data-hex='0905']")
    app.assert_no_errors()


def test_a_valid_scenario_file_replaces_the_battle(app):
    page = app.page
    good = json.loads(app.page.evaluate("JSON.stringify(window.muster.state.scenario)"))
    good["id"] = "variant"
    good["title"] = "Variant"
    good["map"]["hexes"]["0101"] = {"terrain": ["marsh"]}
    open_file(page, "variant.json", json.dumps(good))
    page.wait_for_function("document.querySelector('#scenario-title').textContent === 'Variant'")
    click_hex(page, "0101")
    page.wait_for_selector("#hex-panel .hex-number[data-hex='0101']")
    assert page.locator("#hex-panel .terrain").inner_text() == "Marsh"


def test_language_switch(app):
    page = app.page
    page.click("#settings-button")
    page.select_option("#lang", "pl")
    page.wait_for_function("document.querySelector('#status').textContent === 'zasady gotowe'")
    assert page.locator("#settings-title").inner_text() == "Ustawienia"
    page.select_option("#lang", "en")
    page.wait_for_function("document.querySelector('#status').textContent === 'rules ready'")
    page.keyboard.press("Escape")
    assert not page.locator("#settings-dialog").is_visible()


def test_no_console_errors(app):
    app.assert_no_errors()


def test_a_pointy_map_draws_and_answers(app):
    page = app.page
    pointy = json.loads(app.page.evaluate("JSON.stringify(window.muster.state.scenario)"))
    pointy["id"] = "pointy"
    pointy["title"] = "Pointy"
    pointy["map"]["orientation"] = "pointy"
    pointy["map"]["stagger"] = "odd"
    pointy["map"]["hexsides"] = []
    pointy["map"]["roads"] = []
    open_file(page, "pointy.json", json.dumps(pointy))
    page.wait_for_function("document.querySelector('#scenario-title').textContent === 'Pointy'")
    assert page.get_attribute("#map svg", "data-orientation") == "pointy"
    click_hex(page, "0302")
    page.wait_for_selector("#hex-panel .hex-number[data-hex='0302']")
    assert page.locator("#hex-panel .terrain").inner_text() == "Woods"
    # Neighbours on a pointy, odd-stagger map: row 02 is not shifted, rows 01 and 03 are.
    box = page.locator("svg [data-hex='0302']").first.bounding_box()
    right = page.locator("svg [data-hex='0402']").first.bounding_box()
    assert abs(box["y"] - right["y"]) < 1 and right["x"] > box["x"]
