"""A hex-hexside close combat played in the browser through its 12 steps, with the CRT in use
named on screen, and the same combat again with an owner's CRT imported from a file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from apppage import open_app, open_scenario, press, settle, tap_hex

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


def press_text(page, selector: str, text: str) -> None:
    """Click the dock's button matching ``selector`` that says ``text``."""
    settle(page)
    page.locator(f"#dock {selector}", has_text=text).first.click()


def to_combat_phase(page) -> None:
    while "combat phase" not in text_of(page, "#prompt"):
        before = text_of(page, "#prompt")
        press(page, "#dock [data-action='end_phase']")
        page.wait_for_function(
            "p => document.querySelector('#prompt').textContent !== p", arg=before
        )


def play_until_the_die(page) -> bool:
    """Steps 1 to 5: designate by a tap, attack, choose the lead unit and the terrain pair.
    True if the odds were on screen while the lead unit was chosen (step 4)."""
    to_combat_phase(page)
    tap_hex(page, "1007")  # step 1: the tap designates the attack on 1007
    wait_text(page, "#prompt", "step 1 of 12 (designate the attack)")
    attack = page.locator("#dock button.fight[data-action='confirm']")
    assert attack.inner_text() == "Attack 1007 with IR 15 Garde, Kür. 5 Markgraf"
    shot(page, "1-designate")
    press(page, "#dock button.fight[data-action='confirm']")  # a preview first, then commit
    page.wait_for_selector("#preview #confirm")
    press(page, "#confirm")
    wait_text(page, "#prompt", "step 4 of 12")
    assert "Odds 12 : 6, column 2:1" in text_of(page, "#log-panel")
    # 3 odds: 7 + 5 against 6 -> 2:1, on screen while the lead unit is chosen.
    odds_shown = "Strength 12 : 6, column 2:1" in text_of(page, "#play-panel")
    press_text(page, "[data-action='lead']", "Kür. 5 Markgraf")
    wait_text(page, "#prompt", "step 5 of 12")
    press_text(page, "button.fight[data-action='terrain']", "from 0908 into 1007")
    page.wait_for_selector("#preview #confirm")
    assert "Strength 12 : 6, column 2:1" in text_of(page, "#preview .combat-odds")
    shot(page, "5-terrain-preview")
    return odds_shown


def test_a_full_close_combat_in_twelve_steps(browser, site_url):
    app = open_app(browser, site_url + "?scenario=demo-hohenbrueck")
    page = app.page
    open_scenario(page, contact_scenario())
    page.click("#new-game")
    page.wait_for_selector("#play-panel .crt-label")
    label = page.locator("#play-panel .crt-label").first
    assert label.get_attribute("data-stand-in") == "true"
    assert "the app's own, not the game's" in label.inner_text()
    odds_shown = play_until_the_die(page)
    preview = text_of(page, "#preview")
    assert "+2" in preview and "cavalry shock of Kür. 5 Markgraf" in preview
    assert "the app's own, not the game's" in preview  # the preview says which table it reads
    odds = page.locator("#preview .outcome .odds").all_inner_texts()
    assert round(sum(float(o.rstrip(" %")) for o in odds)) == 100
    press(page, "#confirm")
    # 6: the die, typed in from the table: 4 + 2 = 6 on 2:1 reads D1 + Dr (the app's table).
    wait_text(page, "#prompt", "step 6 of 12")
    four = page.locator("#dock button.face[data-value='4']")
    assert four.locator(".face-result").inner_text().startswith("modified 6: D1")
    assert four.locator(".face-p").inner_text() == "16.7%"
    shot(page, "6-die")
    press(page, "#dock button.face[data-value='4']")
    # 8: IR 4 loses a step, is disordered (morale 4) and retreats: its owner taps the hex.
    wait_text(page, "#dock .handover", "Austria")
    wait_text(page, "#prompt", "choose the hex IR 4 Deutschmeister retreats into")
    assert page.locator("#dock .side-chip").get_attribute("data-side") == "austria"
    shot(page, "8-retreat")
    target = page.locator("#map .hm-lit[data-lit]").first.get_attribute("data-lit")
    tap_hex(page, target)
    # 9: advance into the emptied hex.
    wait_text(page, "#prompt", "step 9 of 12")
    press_text(page, "[data-action='advance']", "Kür. 5 Markgraf")
    wait_text(page, "#log-panel", "Kür. 5 Markgraf advances 0908 → 1007")
    wait_text(page, "#prompt", "step 9 of 12")
    press(page, "#dock [data-action='no_advance']")
    # 10: no extended attack; 11 the marker; 12 the cavalry is Engaged, may charge deep.
    wait_text(page, "#prompt", "step 10 of 12")
    press(page, "#dock [data-action='no_extended']")
    wait_text(page, "#prompt", "step 12 of 12")
    shot(page, "12-cavalry")
    marks = page.locator("#map [data-unit='pr-cr5'] .hm-marks").get_attribute("data-marks")
    assert {"hh_engaged", "hh_wcm"} <= set(marks.split(","))
    press(page, "#dock [data-action='end_combat']")
    wait_text(page, "#prompt", "combat phase")
    marks = page.locator("#map [data-unit='pr-cr5'] .hm-marks").get_attribute("data-marks")
    assert marks.split(",") == ["hh_engaged", "hh_wcm"]
    log = text_of(page, "#log-panel")
    for line in (
        "Odds 12 : 6, column 2:1",
        "Kür. 5 Markgraf leads the attacker",
        "Die 4, modified 6, column 2:1: D1 (the defender loses one step), Dr",
        "(the app's table (not the game's))",
        "IR 4 Deutschmeister loses a step",
        "Kür. 5 Markgraf gains a Winning Combat marker",
        "Kür. 5 Markgraf is Engaged",
    ):
        assert line in log, line
    assert page.locator("#map [data-unit='pr-cr5']").get_attribute("data-at") == "1007"
    assert odds_shown, "step 4: the fight in progress (odds 12 : 6, 2:1) is not on screen"
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
    assert "Club table (the owner's table)" in text_of(page, "#preview")
    press(page, "#confirm")
    wait_text(page, "#prompt", "step 6 of 12")
    press(page, "#dock button.face[data-value='4']")
    # The same die on the owner's table: D2 eliminates IR 4 (2 steps).
    wait_text(page, "#prompt", "step 9 of 12")
    log = text_of(page, "#log-panel")
    assert "Die 4, modified 6, column 2:1: D2" in log and "(owner's table)" in log
    assert "IR 4 Deutschmeister is eliminated" in log
    # The result card says the same under the prompt until put away.
    assert "IR 4 Deutschmeister is eliminated" in text_of(page, "#result-card")
    press(page, "#card-continue")
    page.wait_for_selector("#result-card", state="detached")
    # A malformed table is refused, and the one in use stays.
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"columns": []}))
    page.set_input_files("#crt-file", str(bad))
    wait_text(page, "#message", "This combat results table cannot be used")
    assert "owner's table Club table" in text_of(page, "#play-panel .crt-next")
    press(page, "#crt-forget")
    wait_text(page, "#play-panel .crt-next", "New games use the app's table")
    app.context.close()
