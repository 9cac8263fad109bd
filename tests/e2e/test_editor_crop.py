"""A VASSAL board bigger than a Muster map holds, taken in part at import in the editor on the
tablet: the part typed, or a frame dragged on its picture; the map keeps the numbers VASSAL
prints there and the picture stays aligned with them (every hex's centre on the module's own,
computed by ``vmod.py`` from VASSAL's documented geometry)."""

from __future__ import annotations

import io
import math
import zipfile
from typing import Any

import pytest
from apppage import open_app, tablet
from editorpage import draft, new_scenario, open_editor
from test_editor_vassal import BIG
from vmod import Grid, build_file, vmod

pytestmark = pytest.mark.e2e

# Where the picture's pixel under each hex centre of the editor's map is (the inverse of the
# picture's transform), by printed number.
CENTRES = """async () => {
  const { HexGrid } = await import(new URL("static/render/hexgrid.js", document.baseURI).href);
  const ed = window.musterEditor;
  const grid = new HexGrid(ed.draft.scenario.map);
  const [a, b, c, d, e, f] = ed.picture.current.transform;
  const det = a * d - b * c;
  const out = {};
  for (const cell of grid.cells()) {
    const [mx, my] = grid.center(cell.label);
    const x = mx - e;
    const y = my - f;
    out[cell.label] = [(d * x - c * y) / det, (-b * x + a * y) / det];
  }
  return out;
}"""


def take_module(page: Any, data: bytes) -> None:
    files = [{"name": "big.vmod", "mimeType": "application/zip", "buffer": data}]
    page.set_input_files("#editor-vassal-file", files=files)
    page.wait_for_selector("#editor-crop-dialog[open]")


def crop_fields(page: Any) -> dict[str, int]:
    return {
        name: int(page.locator(f"#editor-crop-{name.replace('_', '-')}").input_value())
        for name in ("first_column", "last_column", "first_row", "last_row")
    }


def check_map(page: Any, found: dict[str, dict], crop: dict[str, int]) -> None:
    m = draft(page)["map"]
    assert (m["first_column"], m["columns"]) == (
        crop["first_column"],
        crop["last_column"] - crop["first_column"] + 1,
    )
    assert (m["first_row"], m["rows"]) == (
        crop["first_row"],
        crop["last_row"] - crop["first_row"] + 1,
    )
    centres = page.evaluate(CENTRES)
    assert len(centres) == m["columns"] * m["rows"]
    for label, (x, y) in centres.items():
        assert label in found, f"{label} is not a hex of the module"
        want = found[label]
        assert math.hypot(x - want["x"], y - want["y"]) <= 1.0, (label, x, y, want)


def crop_and_take(page, crop=None) -> None:
    """Type the part of the board to take (``crop``: first/last column/row; the whole board
    if None), tap OK, confirm, and wait for the picture under the map."""
    for name, value in (crop or {}).items():
        page.fill(f"#editor-crop-{name.replace('_', '-')}", str(value))
    page.locator("#editor-crop-ok").tap()
    page.wait_for_selector("#ask[open]")
    page.locator("#ask-ok").tap()
    page.wait_for_function("window.musterEditor.picture.current")


def test_a_big_board_is_cropped_by_typing_its_first_and_last_numbers(browser, site_url):
    data, found = vmod(BIG)
    app = open_app(browser, site_url, **tablet())
    page = app.page
    open_editor(page)
    take_module(page, data)
    # The whole board is offered, and said to be too big for one map.
    whole = crop_fields(page)
    assert whole["first_column"] == 1 and whole["last_column"] > 150
    assert "a map holds at most 20000" in page.locator("#editor-crop-error").inner_text()
    page.locator("#editor-crop-ok").tap()
    page.wait_for_selector("#editor-crop-error:not([hidden])")
    assert page.locator("#editor-crop-dialog[open]").count() == 1  # still asked
    # A part outside the board is refused naming the board's numbers.
    page.fill("#editor-crop-first-column", "400")
    page.fill("#editor-crop-last-column", "450")
    page.locator("#editor-crop-ok").tap()
    page.wait_for_function(
        "document.querySelector('#editor-crop-error').textContent.includes('outside')"
    )
    crop = {"first_column": 40, "last_column": 90, "first_row": 25, "last_row": 70}
    crop_and_take(page, crop)
    check_map(page, found, crop)
    assert page.evaluate("window.musterEditor.draft.past.length") == 1
    app.assert_no_errors()
    app.context.close()


def test_a_frame_dragged_on_the_picture_gives_the_part(browser, site_url):
    data, found = vmod(BIG)
    app = open_app(browser, site_url, **tablet())
    page = app.page
    open_editor(page)
    take_module(page, data)
    page.wait_for_function("document.querySelector('#editor-crop-image').naturalWidth > 0")
    box = page.locator("#editor-crop-image").bounding_box()
    assert box
    scale = box["width"] / BIG.width
    # A frame whose edges lie between hex centres (half a column and a quarter hex clear).
    fx0, fx1 = BIG.x0 + 30.5 * BIG.dx, BIG.x0 + 80.5 * BIG.dx
    fy0, fy1 = BIG.y0 + 20.25 * BIG.dy, BIG.y0 + 60.25 * BIG.dy
    inside = [label for label, h in found.items() if fx0 <= h["x"] <= fx1 and fy0 <= h["y"] <= fy1]
    want = {
        "first_column": min(int(label[:3]) for label in inside),
        "last_column": max(int(label[:3]) for label in inside),
        "first_row": min(int(label[3:]) for label in inside),
        "last_row": max(int(label[3:]) for label in inside),
    }
    page.mouse.move(box["x"] + fx0 * scale, box["y"] + fy0 * scale)
    page.mouse.down()
    page.mouse.move(box["x"] + (fx0 + fx1) / 2 * scale, box["y"] + (fy0 + fy1) / 2 * scale)
    page.mouse.move(box["x"] + fx1 * scale, box["y"] + fy1 * scale)
    page.mouse.up()
    page.wait_for_function(
        "(v) => document.querySelector('#editor-crop-first-column').value === v",
        arg=str(want["first_column"]),
    )
    assert crop_fields(page) == want
    assert page.locator("#editor-crop-frame").is_visible()
    crop_and_take(page)
    check_map(page, found, want)
    app.assert_no_errors()
    app.context.close()


def test_a_new_map_of_the_same_numbering_keeps_the_aligned_picture(browser, site_url):
    data, found = vmod(BIG)
    app = open_app(browser, site_url, **tablet())
    page = app.page
    open_editor(page)
    take_module(page, data)
    crop = {"first_column": 40, "last_column": 90, "first_row": 25, "last_row": 70}
    crop_and_take(page, crop)
    before = page.evaluate("window.musterEditor.picture.state()")
    # A new map of other columns and rows, numbered as the board is (the New dialog offers the
    # orientation and stagger of the map on screen): the picture stays, aligned.
    new_scenario(
        page,
        {
            "#editor-new-columns": "20",
            "#editor-new-rows": "15",
            "#editor-new-first-column": "60",
            "#editor-new-first-row": "30",
            "#editor-new-column-digits": "3",
            "#editor-new-row-digits": "3",
        },
        {},
    )
    page.wait_for_selector("#ask[open]")
    page.locator("#ask-ok").tap()
    page.wait_for_function("window.musterEditor.draft.scenario.map.first_column === 60")
    assert "the picture stays under the map" in page.locator("#editor-say").inner_text()
    assert page.evaluate("window.musterEditor.picture.state()") == before
    check_map(page, found, {"first_column": 60, "last_column": 79, "first_row": 30, "last_row": 44})
    # The new draft keeps it too.
    page.evaluate("window.musterEditor.saved()")
    record = page.evaluate(
        "window.musterEditor.store.drafts()"
        ".then((all) => all.find((d) => d.id === window.musterEditor.recordId))"
    )
    assert record["picture"] == before
    # Another orientation puts the numbers elsewhere: the picture is taken away.
    new_scenario(page, {}, {"#editor-new-orientation": "pointy"})
    page.wait_for_selector("#ask[open]")
    page.locator("#ask-ok").tap()
    page.wait_for_function("window.musterEditor.draft.scenario.map.orientation === 'pointy'")
    assert page.evaluate("window.musterEditor.picture.current") is None
    app.assert_no_errors()
    app.context.close()


def test_only_boards_with_a_hex_grid_are_offered_the_others_said_why(browser, site_url):
    grid = Grid()
    build = build_file(grid).replace(
        "</VASSAL.build.module.map.BoardPicker>",
        "<VASSAL.build.module.map.boardPicker.Board image='board.png' name='Turn track'/>"
        "</VASSAL.build.module.map.BoardPicker>",
    )
    data, _found = vmod(grid)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as z:
        for info in src.infolist():
            body = build.encode() if info.filename == "buildFile.xml" else src.read(info)
            z.writestr(info, body)
    app = open_app(browser, site_url, **tablet())
    page = app.page
    open_editor(page)
    files = [{"name": "two.vmod", "mimeType": "application/zip", "buffer": out.getvalue()}]
    page.set_input_files("#editor-vassal-file", files=files)
    page.wait_for_selector("#editor-board-dialog[open]")
    offered = page.locator("#editor-board-list button.editor-board")
    assert offered.all_inner_texts() == ["Main board"]
    assert page.locator("#editor-board-refused li").all_inner_texts() == [
        "Board Turn track has no hex grid."
    ]
    offered.first.tap()
    page.wait_for_selector("#editor-crop-dialog[open]")
    crop_and_take(page)
    app.assert_no_errors()
    app.context.close()


def test_the_map_size_and_origin_change_later_keeping_what_fits(browser, site_url):
    data, found = vmod(BIG)
    app = open_app(browser, site_url, **tablet())
    page = app.page
    open_editor(page)
    take_module(page, data)
    crop = {"first_column": 40, "last_column": 90, "first_row": 25, "last_row": 70}
    crop_and_take(page, crop)
    transform = page.evaluate("window.musterEditor.picture.current.transform")
    page.evaluate(
        """() => window.musterEditor.draft.change((s) => {
          s.units = [{ id: "u1", side: s.sides[0].id, type: "infantry", name: "IR 15",
                       hex: "045030", ratings: {} }];
          s.map.hexes = { "085060": { terrain: ["woods"] } };
        })"""
    )
    page.locator("#editor-tab-scenario").tap()
    assert page.locator("#editor-extent-first-column").input_value() == "40"
    assert page.locator("#editor-extent-columns").input_value() == "51"
    # Columns from 50 would leave the unit in column 45 off the map: refused, naming it.
    steps = page.evaluate("window.musterEditor.draft.past.length")
    page.fill("#editor-extent-first-column", "50")
    page.locator("#editor-extent-apply").tap()
    error = page.locator("#editor-extent-error")
    assert error.is_visible()
    assert "the unit IR 15 in 045030" in error.inner_text()
    assert page.evaluate("window.musterEditor.draft.past.length") == steps
    assert draft(page)["map"]["first_column"] == 40
    # Columns 42-87 and rows 28-62 hold both: changed, one step of undo, the picture as it was.
    for selector, value in {
        "#editor-extent-first-column": "42",
        "#editor-extent-columns": "46",
        "#editor-extent-first-row": "28",
        "#editor-extent-rows": "35",
    }.items():
        page.fill(selector, value)
    page.locator("#editor-extent-apply").tap()
    page.wait_for_function("window.musterEditor.draft.scenario.map.first_column === 42")
    assert not error.is_visible()
    assert page.evaluate("window.musterEditor.draft.past.length") == steps + 1
    s = draft(page)
    assert (s["map"]["columns"], s["map"]["first_row"], s["map"]["rows"]) == (46, 28, 35)
    assert s["units"][0]["hex"] == "045030" and "085060" in s["map"]["hexes"]
    assert page.evaluate("window.musterEditor.picture.current.transform") == transform
    check_map(page, found, {"first_column": 42, "last_column": 87, "first_row": 28, "last_row": 62})
    app.assert_no_errors()
    app.context.close()
