"""An owner's combat results table entered in the scenario editor (hex-hexside) on the tablet
with touch: the stand-in shown as the default and worded as one, the printed table typed into
the Tables tab's grid (a cell with an unknown code refused at once and by the core's check,
with the cell marked), the table in the draft and accepted by the core in CPython, then Play
this: the play panel names the scenario's own table, and the fight's die reads its cells as
CPython reads them. A table file loaded instead (a malformed one refused), and Back to the
stand-in taking it out in one change."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from apppage import open_app, press, tablet, wait_text
from editorpage import draft, status, wait_checked, wait_editor
from test_close_combat import contact_scenario, play_until_the_die

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "py"))

from muster.scenario import parse_scenario  # noqa: E402
from muster.systems.hex_hexside import combat  # noqa: E402
from muster.systems.hex_hexside import tables as T  # noqa: E402

pytestmark = pytest.mark.e2e

# The fight of test_close_combat: odds 2:1, DRM +2 (cavalry shock). The printed cells of the
# 2:1 column typed in, by die face; every other column left empty (no effect).
TYPED = {1: "A1", 2: "Ar", 3: "EX", 4: "D1", 5: "D1 Dr", 6: "D2"}
DRM = 2
SHOTS = os.environ.get("MUSTER_SHOTS")  # a folder to keep screenshots in while working on the UI


def shot(page, name: str) -> None:
    if SHOTS:
        page.locator(".crt-section").evaluate("n => n.scrollIntoView({block: 'start'})")
        page.screenshot(path=f"{SHOTS}/crt-{name}.png")


def cell(page, roll: int, column: str):
    return page.locator(f".crt-cell[data-roll='{roll}'][data-column='{column}']")


def commit(locator, value: str) -> None:
    """Type a value and finish it with Enter, as a player ends an entry."""
    locator.fill(value)
    locator.press("Enter")


def test_an_owner_crt_entered_in_the_editor_is_the_scenarios_table_in_play(browser, site_url):
    app = open_app(browser, site_url + "?editor=1", **tablet())
    page = app.page
    wait_editor(page)
    scenario = contact_scenario()
    scenario["id"], scenario["title"] = "crt-duel", "Hohenbrück, printed table"
    page.evaluate("(s) => window.musterEditor.draft.replace(s)", scenario)
    wait_checked(page)
    page.locator("#editor-tab-tables").tap()
    section = page.locator(".crt-section")
    section.wait_for()
    # The default: the stand-in, said to be one, its cells shown read only.
    assert section.get_attribute("data-crt") == "stand-in"
    assert "the app's own table, not the game's" in section.locator(".crt-status").inner_text()
    assert "not the game's" in section.locator(".crt-status").inner_text()
    summary = section.locator(".crt-default summary")
    assert summary.inner_text() == "Default: the app's own table (not the game's)"
    assert section.locator(".crt-stand-in tbody td").count() == 36
    shot(page, "stand-in")
    # Enter the printed table: the stand-in's columns and codes, every cell empty.
    section.locator(".crt-enter").tap()
    cell(page, 1, "2:1").wait_for()
    wait_checked(page)
    own = draft(page)["overrides"]["crt"]
    assert own["stand_in"] is False and "why" not in own
    assert [c["label"] for c in own["columns"]] == ["1:3", "1:2", "1:1", "2:1", "3:1", "4:1"]
    assert all(c == [] for row in own["rows"] for c in row["cells"].values())
    assert section.get_attribute("data-crt") == "scenario"
    commit(section.locator(".crt-name"), "Printed CRT")
    for roll, codes in TYPED.items():
        commit(cell(page, roll, "2:1"), codes)
    wait_checked(page)
    # A code the table does not have: refused beside the cell as it is typed (check_crt)...
    bad = cell(page, 6, "1:1")
    bad.fill("ZZ")
    page.wait_for_function(
        "() => document.querySelector(\".crt-cell[data-roll='6'][data-column='1:1']\")"
        ".getAttribute('aria-invalid') === 'true'"
    )
    assert "a result code the table does not list" in section.locator(".crt-problem").inner_text()
    # ... and, once entered, by the core's check of the draft, which marks the cell.
    bad.press("Enter")
    wait_checked(page)
    assert "Cannot load" in status(page) or "rows[5].cells.1:1" in status(page)
    page.wait_for_selector(".crt-section td.is-marked .crt-cell[data-column='1:1']")
    shot(page, "refused")
    commit(bad, "")
    wait_checked(page)
    assert "loads" in status(page)
    # In the draft as typed, and the core in CPython loads it.
    own = draft(page)["overrides"]["crt"]
    assert own["name"] == "Printed CRT"
    assert {r["roll"]: " ".join(r["cells"]["2:1"]) for r in own["rows"]} == TYPED
    assert own["rows"][5]["cells"]["1:1"] == []
    parse_scenario(draft(page))
    cpython = combat.parse_own_crt(own)  # CPython's reading of the same cells
    said = section.locator(".crt-status").inner_text()
    assert said.startswith("This scenario has its own combat results table: Printed CRT.")
    shot(page, "entered")
    # Play this: the play panel names the scenario's own table.
    page.locator("#editor-play").tap()
    page.wait_for_selector("#editor", state="hidden")
    page.wait_for_selector("#play-panel .crt-label")
    label = page.locator("#play-panel .crt-label").first
    assert label.get_attribute("data-source") == "scenario"
    assert label.get_attribute("data-stand-in") == "false"
    assert label.inner_text() == "Combat results table: Printed CRT (the scenario's own table)"
    assert "scenario's own combat results table" in page.locator(".crt-next").inner_text()
    # The fight: the preview reads the scenario's table, and each face of the die what CPython
    # reads on the same cells at 2:1 with the DRM.
    play_until_the_die(page)
    assert "Printed CRT (the scenario's own table)" in page.locator("#preview").inner_text()
    assert "the app's table" not in page.locator("#preview").inner_text()
    press(page, "#confirm")
    wait_text(page, "#prompt", "step 6 of 12")
    for face in range(1, 7):
        modified = face + DRM
        codes = T.crt_result("2:1", modified, cpython)
        shown = page.locator(f"#dock button.face[data-value='{face}'] .face-result").inner_text()
        assert shown.startswith(f"modified {modified}: {' + '.join(codes)} — "), (face, shown)
    press(page, "#dock button.face[data-value='4']")
    wait_text(page, "#log-panel", "(scenario's table)")
    log = page.locator("#log-panel").inner_text()
    assert "Die 4, modified 6, column 2:1: D2" in log
    assert "IR 4 Deutschmeister is eliminated" in log
    app.assert_no_errors()
    app.context.close()


def test_a_table_file_is_loaded_into_the_scenario_and_back_to_the_stand_in(
    browser, site_url, tmp_path
):
    app = open_app(browser, site_url + "?editor=1", **tablet())
    page = app.page
    wait_editor(page)
    page.evaluate("(s) => window.musterEditor.draft.replace(s)", contact_scenario())
    wait_checked(page)
    page.locator("#editor-tab-tables").tap()
    section = page.locator(".crt-section")
    section.wait_for()
    # The file the play panel's chooser takes: a malformed one is refused, nothing changes.
    crt = T.raw_tables()["crt"]
    bad = tmp_path / "bad.json"
    bad.write_text('{"columns": []}')
    section.locator("input[type=file]").set_input_files(str(bad))
    wait_text(page, "#editor-say", "bad.json cannot be used")
    assert "crt" not in draft(page)["overrides"]
    crt.update(stand_in=False, name="Club table")
    del crt["why"]
    good = tmp_path / "club.json"
    good.write_text(json.dumps(crt))
    section.locator("input[type=file]").set_input_files(str(good))
    page.wait_for_function("window.musterEditor.draft.scenario.overrides.crt")
    wait_checked(page)
    assert draft(page)["overrides"]["crt"] == crt
    assert page.locator("#editor").get_attribute("data-loads") == "yes"
    assert "club.json loaded: it is this scenario's table" in status(page)
    assert section.locator(".crt-name").input_value() == "Club table"
    assert section.locator(".crt-cell").count() == 36
    # Back to the stand-in: the table taken out in one change, which Undo puts back.
    section.locator(".crt-back").tap()
    page.wait_for_function("!('crt' in window.musterEditor.draft.scenario.overrides)")
    assert section.get_attribute("data-crt") == "stand-in"
    assert section.locator(".crt-cell").count() == 0
    page.locator("#editor-undo").tap()
    page.wait_for_function("window.musterEditor.draft.scenario.overrides.crt")
    assert draft(page)["overrides"]["crt"] == crt
    app.assert_no_errors()
    app.context.close()
