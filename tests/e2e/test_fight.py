"""A fire and a charge played in the browser: preview with modifiers and odds, then dice."""

from __future__ import annotations

import json

import pytest
from apppage import open_app, open_scenario, press, settle, tap_hex, wait_text

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
    wait_text(page, "#prompt", text)


def log_text(page) -> str:
    return page.locator("#log-panel").inner_text()


def settle_rolls(page) -> None:
    """Roll (digitally) every die the result calls for: cohesion tests."""
    for _ in range(6):
        settle(page)
        if page.locator("#roll").count() == 0 or "marker" in page.locator("#prompt").inner_text():
            return
        press(page, "#roll")


def odds_on_screen(page) -> list[float]:
    """The chance of each result in the preview, as percentages."""
    texts = page.locator("#preview .outcomes li.outcome .odds").all_inner_texts()
    return [float(x.rstrip("% ")) for x in texts]


def test_artillery_fire_with_preview_and_a_roll(battle):
    page = battle.page
    press(page, "#play-panel button.face[data-value='fr-art']")
    prompt_has(page, "artillery fire")
    press(page, "#dock button.fight[data-action='fire'][data-unit='fr-a-1'][data-at='0704']")
    page.wait_for_selector("#preview .outcomes")
    # Every modifier with its value and where it comes from, the total, and the odds.
    modifiers = page.locator("#preview table.modifiers")
    assert "Fire strength" in modifiers.inner_text()
    rows = modifiers.locator("tr.modifier")
    assert rows.count() >= 2
    assert all(r.strip() for r in rows.locator("td.rule").all_inner_texts())
    assert modifiers.locator("tr.total .part-value").inner_text() == "+4"
    odds = odds_on_screen(page)
    assert len(odds) >= 2 and abs(sum(odds) - 100) < 0.5
    press(page, "#confirm")
    prompt_has(page, "Fire of Batt. Lemoine (de 12) at 0704")
    # Each face of the die says what it does before it is rolled.
    nine = page.locator("#dock button.face[data-value='9']")
    assert nine.locator(".face-result").inner_text() == "total 13: disordered"
    assert nine.locator(".face-p").inner_text() == "10%"
    press(page, "#dock button.face[data-value='9']")  # a real die showing 9
    wait_text(page, "#log-panel", "Fire: ")
    settle_rolls(page)
    log = log_text(page)
    assert "Fire: total 13 → disordered" in log
    assert "Batt. Lemoine (de 12) fire" in log and "at 0704 (modifiers 4)" in log
    assert "Grenz IR 1 is now disordered" in log


def test_a_heavy_cavalry_charge(battle):
    page = battle.page
    for _ in range(3):  # finish the artillery's activation: fire, move, combat
        settle(page)
        if page.locator("#dock [data-action='next_step']").count():
            press(page, "#dock [data-action='next_step']")
    prompt_has(page, "Draw a formation marker")
    press(page, "#play-panel button.face[data-value='fr-cav']")
    prompt_has(page, "movement")  # cavalry has no artillery fire: the step passed by itself
    press(page, "#dock [data-action='next_step']")
    prompt_has(page, "melee and charges")
    charge = page.locator("#dock button.fight", has_text="charge").first
    assert charge.inner_text() == "5e Cuirassiers charge 0704"
    settle(page)
    charge.click()
    page.wait_for_selector("#preview .outcomes")
    assert "Charge with heavy cavalry" in page.locator("#preview table.modifiers").inner_text()
    odds = odds_on_screen(page)
    assert abs(sum(odds) - 100) < 0.5
    press(page, "#confirm")
    prompt_has(page, "Charge of 5e Cuirassiers against 0704")
    press(page, "#dock button.face[data-value='9']")  # 9 + the modifiers: 10 or more
    wait_text(page, "#log-panel", "Melee: ")
    log = log_text(page)
    assert "5e Cuirassiers charge 0704 (modifiers 4)" in log
    assert "Melee: total 13 → defender retreat 1 hex, disordered" in log
    # The Grenzer's owner picks where they retreat: tap a lit hex.
    prompt_has(page, "Choose the hex Grenz IR 1 retreats into")
    assert page.locator("#dock .side-chip").get_attribute("data-side") == "austria"
    choice = page.locator("#map .hm-lit[data-lit]").first.get_attribute("data-lit")
    tap_hex(page, choice)
    wait_text(page, "#log-panel", f"Grenz IR 1 retreats 0704 → {choice}")
    assert page.locator("#map [data-unit='au-1-4']").first.get_attribute("data-at") == choice
    settle_rolls(page)
    assert "5e Cuirassiers advances 0604 → 0704" in log_text(page)
    battle.assert_no_errors()
