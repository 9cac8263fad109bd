"""A hex-hexside close combat played in the browser through its 12 steps, with the CRT in use
named on screen, and the same combat again with an owner's CRT imported from a file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from apppage import click_hex, open_app, open_scenario

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "py" / "muster" / "scenarios" / "demo-hohenbrueck.json"
SHOTS = None  # a folder path to keep screenshots of each step while working on the UI

# Kür. 5 (cavalry, shock 2) and IR 15 with Arnstedt face IR 4 across open ground at 1007.
PLACES = {
    "pr-ir15": "0907",
    "pr-ldr": "0907",
    "pr-cr5": "0908",
    "au-ir4": "1007",
    "au-gren": "1108",
    "au-ir52": "1302",
    "au-ldr2": "1302",
}


def contact_scenario() -> dict:
    """The demo with the units of PLACES moved into contact."""
    data = json.loads(DEMO.read_text(encoding="utf-8"))
    data["id"] = "hohenbrueck-contact"
    for unit in data["units"]:
        unit["hex"] = PLACES.get(unit["id"], unit["hex"])
    return data


def text_of(page, selector: str) -> str:
    return page.locator(selector).inner_text()


def wait_text(page, selector: str, text: str) -> None:
    page.wait_for_function(
        "([s, t]) => (document.querySelector(s) || {textContent: ''}).textContent.includes(t)",
        arg=[selector, text],
    )


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png")


def to_combat_phase(page) -> None:
    while "combat phase" not in text_of(page, "#play-panel .prompt"):
        page.click("[data-action='end_phase']")
        page.wait_for_timeout(50)


def play_until_the_die(page) -> None:
    """Steps 1 to 5: designate by a tap, attack, choose the lead unit and the terrain pair."""
    to_combat_phase(page)
    click_hex(page, "1007")  # step 1: the tap designates the attack on 1007
    wait_text(page, "#play-panel .combat-step", "Step 1 of 12")
    assert "IR 15 Garde" in text_of(page, "#play-panel .combat-who")
    shot(page, "1-designate")
    page.click("[data-action='confirm']")  # a preview first, then commit
    page.wait_for_selector("#confirm")
    page.click("#confirm")
    wait_text(page, "#play-panel .prompt", "Step 4, attacker")
    # 3 odds: 7 + 5 against 6 -> 2:1
    assert "Strength 12 : 6, column 2:1" in text_of(page, "#play-panel .combat-odds")
    page.click("[data-action='lead']:has-text('Kür. 5 Markgraf')")
    wait_text(page, "#play-panel .prompt", "Step 5")
    page.click("[data-action='terrain']:has-text('From 0908 into 1007')")
    page.wait_for_selector("#confirm")
    shot(page, "5-terrain-preview")


def test_a_full_close_combat_in_twelve_steps(browser, site_url):
    app = open_app(browser, site_url + "?scenario=demo-hohenbrueck")
    page = app.page
    open_scenario(page, contact_scenario())
    page.click("#new-game")
    page.wait_for_selector("#play-panel .crt-label")
    label = page.locator("#play-panel .crt-label").first
    assert label.get_attribute("data-stand-in") == "true"
    assert "a stand-in of ours, not the game's own" in label.inner_text()
    play_until_the_die(page)
    preview = text_of(page, "#play-panel")
    assert "+2" in preview and "cavalry shock of Kür. 5 Markgraf" in preview
    assert "a stand-in of ours" in preview  # the preview says which table it reads
    odds = page.locator("#play-panel .outcome .odds").all_inner_texts()
    assert round(sum(float(o.rstrip(" %")) for o in odds)) == 100
    page.click("#confirm")
    # 6: the die, typed in from the table: 4 + 2 = 6 on 2:1 reads D1 + Dr (stand-in).
    wait_text(page, "#play-panel .prompt", "Step 6")
    shot(page, "6-die")
    page.click("#play-panel button.face[data-value='4']")
    # 8: IR 4 loses a step, is disordered (morale 4) and retreats: its owner taps the hex.
    wait_text(page, "#play-panel .handover", "Austria")
    wait_text(page, "#play-panel .prompt", "Choose where IR 4 Deutschmeister retreats")
    shot(page, "8-retreat")
    target = page.locator(".hm-hl.reach").first.get_attribute("data-hl")
    click_hex(page, target)
    # 9: advance into the emptied hex.
    wait_text(page, "#play-panel .prompt", "Step 9")
    page.click("[data-action='advance']:has-text('Kür. 5 Markgraf')")
    wait_text(page, "#play-panel .prompt", "Step 9")
    page.click("[data-action='no_advance']")
    # 10: no extended attack; 11 the marker; 12 the cavalry is Engaged, may charge deep.
    wait_text(page, "#play-panel .prompt", "Step 10")
    page.click("[data-action='no_extended']")
    wait_text(page, "#play-panel .prompt", "Step 12")
    shot(page, "12-cavalry")
    marks = page.locator("[data-unit='pr-cr5'] .hm-marks").get_attribute("data-marks")
    assert marks.split(",") == ["E", "W"]
    page.click("[data-action='end_combat']")
    wait_text(page, "#play-panel .prompt", "combat phase")
    log = text_of(page, "#log-panel")
    for line in (
        "Odds 12 : 6, column 2:1",
        "Kür. 5 Markgraf leads the attacker",
        "Die 4, modified 6, column 2:1: D1 + Dr (stand-in table)",
        "IR 4 Deutschmeister loses a step",
        "Kür. 5 Markgraf gains a Winning Combat marker",
        "Kür. 5 Markgraf is Engaged",
    ):
        assert line in log, line
    assert page.locator("[data-unit='pr-cr5']").get_attribute("data-at") == "1007"
    app.assert_no_errors()
    app.context.close()


def test_an_owner_crt_imported_from_a_file_changes_the_result(browser, site_url, tmp_path):
    app = open_app(browser, site_url + "?scenario=demo-hohenbrueck")
    page = app.page
    open_scenario(page, contact_scenario())
    crt = json.loads((ROOT / "py/muster/systems/hex_hexside/combat.json").read_text())["crt"]
    crt.update(stand_in=False, name="Club table")
    for row in crt["rows"]:
        row["cells"] = {k: ["D2"] for k in row["cells"]}
    path = tmp_path / "club-crt.json"
    path.write_text(json.dumps(crt))
    page.set_input_files("#crt-file", str(path))
    wait_text(page, "#play-panel .crt-next", "owner's table Club table")
    page.click("#new-game")
    wait_text(page, "#play-panel .crt-label", "Club table (the owner's table)")
    assert page.locator("#play-panel .crt-label").get_attribute("data-stand-in") == "false"
    play_until_the_die(page)
    page.click("#confirm")
    wait_text(page, "#play-panel .prompt", "Step 6")
    page.click("#play-panel button.face[data-value='4']")
    # The same die on the owner's table: D2 eliminates IR 4 (2 steps).
    wait_text(page, "#play-panel .prompt", "Step 9")
    log = text_of(page, "#log-panel")
    assert "Die 4, modified 6, column 2:1: D2 (owner's table)" in log
    assert "IR 4 Deutschmeister is eliminated" in log
    # A malformed table is refused, and the one in use stays.
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"columns": []}))
    page.set_input_files("#crt-file", str(bad))
    wait_text(page, "#message", "This combat results table cannot be used")
    assert "owner's table Club table" in text_of(page, "#play-panel .crt-next")
    page.click("#crt-forget")
    wait_text(page, "#play-panel .crt-next", "stand-in table")
    app.context.close()
