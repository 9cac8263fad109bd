"""Readings of the aid shown where they apply: a melee preview with a disordered attacker says
it rests on a reading, and why, under the odds, in the player's language."""

from __future__ import annotations

import json

import pytest
from apppage import open_app, open_scenario, press, settle, tablet, wait_text

pytestmark = pytest.mark.e2e


def test_a_disordered_charge_says_it_is_a_reading(browser, site_url):
    app = open_app(browser, site_url + "?scenario=demo-valmont", **tablet())
    page = app.page
    # The cuirassiers, disordered, next to the Grenzer in 0704, facing them across the Aubach.
    scenario = json.loads(page.evaluate("JSON.stringify(window.muster.state.scenario)"))
    for unit in scenario["units"]:
        if unit["id"] == "fr-c-1":
            unit["hex"], unit["facing"] = "0604", 2
            unit["state"] = {"disordered": True}
    open_scenario(page, scenario)
    page.click("#new-game")
    page.wait_for_selector("#roll")
    press(page, "#play-panel button.face[data-value='fr-cav']")
    while "melee and charges" not in page.locator("#prompt").inner_text():
        press(page, "#dock [data-action='next_step']")
        settle(page)
    charge = page.locator("#dock button.fight", has_text="charge").first
    charge.click()
    page.wait_for_selector("#preview .outcomes")
    notes = page.locator("#preview .preview-note").all_inner_texts()
    assert notes[0].startswith("A reading: 5e Cuirassiers is disordered and attacks all the same.")
    assert "gives disorder no melee modifier" in notes[0]
    # It sits under the odds, and Confirm is still there to commit the charge.
    box = page.locator("#preview .preview-note").first.bounding_box()
    odds = page.locator("#preview .outcomes").bounding_box()
    assert box is not None and odds is not None and box["y"] >= odds["y"] + odds["height"] - 1
    assert page.locator("#confirm").count() == 1
    # The note is worded like the rest of the panel: in Polish after a switch.
    page.click("#settings-button")
    page.select_option("#lang", "pl")
    page.wait_for_function("document.querySelector('#status').textContent === 'zasady gotowe'")
    page.keyboard.press("Escape")
    wait_text(page, "#preview .preview-note", "Interpretacja: 5e Cuirassiers jest w zmieszaniu")
    app.assert_no_errors()
    app.context.close()
