"""A fire and a charge played in the browser: preview with modifiers and odds, then dice."""

from __future__ import annotations

import json

import pytest
from apppage import hex_center, open_app, open_scenario

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def battle(browser, site_url):
    app = open_app(browser, site_url + "?scenario=demo-valmont")
    page = app.page
    # The cuirassiers start next to the Grenzer in 0704, facing them across the Aubach.
    scenario = json.loads(page.evaluate("JSON.stringify(window.muster.state.scenario)"))
    for unit in scenario["units"]:
        if unit["id"] == "fr-c-1":
            unit["hex"], unit["facing"] = "0604", 2
    open_scenario(page, scenario)
    page.click("#new-game")
    page.wait_for_selector("#roll")
    yield app
    app.context.close()


def prompt_has(page, text: str) -> None:
    page.wait_for_function(
        "(t) => document.querySelector('#play-panel .prompt').textContent.includes(t)", arg=text
    )


def settle_rolls(page) -> None:
    """Roll (digitally) every die the result calls for: cohesion tests."""
    for _ in range(6):
        page.wait_for_timeout(100)
        if (
            page.locator("#roll").count() == 0
            or "marker" in page.locator("#play-panel .prompt").inner_text()
        ):
            return
        page.click("#roll")


def test_artillery_fire_with_preview_and_a_roll(battle):
    page = battle.page
    page.click("#play-panel button.face[data-value='fr-art']")
    prompt_has(page, "artillery fire")
    page.click("button.fight[data-target='0704']")
    page.wait_for_selector("#play-panel .outcomes")
    text = page.locator("#play-panel").inner_text()
    assert "Fire strength" in text and "rule:" in text
    odds = [float(x.replace(" %", "")) for x in page.locator("#play-panel .odds").all_inner_texts()]
    assert abs(sum(odds) - 100) < 0.5
    page.click("#confirm")
    prompt_has(page, "Fire at 0704")
    page.click("#play-panel button.face[data-value='9']")  # a real die showing 9
    page.wait_for_function("document.querySelector('#log-panel').textContent.includes('Fire: ')")
    settle_rolls(page)
    assert "fires at 0704" in page.locator("#log-panel").inner_text()


def test_a_heavy_cavalry_charge(battle):
    page = battle.page
    for _ in range(3):  # finish the artillery's activation: fire, move, combat
        if page.locator("[data-action='next_step']").count():
            page.click("[data-action='next_step']")
            page.wait_for_timeout(100)
    prompt_has(page, "Draw a formation marker")
    page.click("#play-panel button.face[data-value='fr-cav']")
    prompt_has(page, "artillery fire")
    page.click("[data-action='next_step']")
    prompt_has(page, "movement")
    page.click("[data-action='next_step']")
    prompt_has(page, "melee and charges")
    charge = page.locator("button.fight", has_text="charge").first
    assert "5e Cuirassiers" in charge.inner_text()
    charge.click()
    page.wait_for_selector("#play-panel .outcomes")
    assert "Charge with heavy cavalry" in page.locator("#play-panel .modifiers").inner_text()
    page.click("#confirm")
    prompt_has(page, "Melee against 0704")
    page.click("#play-panel button.face[data-value='9']")  # 9 + the modifiers: 10 or more
    page.wait_for_function("document.querySelector('#log-panel').textContent.includes('Melee: ')")
    log = page.locator("#log-panel").inner_text()
    assert "5e Cuirassiers charges 0704" in log
    assert "defender 1 + Z" in log
    # The Grenzer's owner picks where they retreat: tap a shaded hex.
    prompt_has(page, "Choose where Grenz IR 1 retreats")
    choice = page.locator(".hm-hl.reach").first.get_attribute("data-hl")
    x, y = hex_center(page, choice)
    page.mouse.click(x, y)
    page.wait_for_function(
        "(to) => document.querySelector('#log-panel').textContent.includes('→ ' + to)",
        arg=choice,
    )
    assert page.locator("[data-unit='au-1-4']").first.get_attribute("data-at") == choice
    settle_rolls(page)
    battle.assert_no_errors()
