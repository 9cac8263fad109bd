"""A 160x125 hex map (the biggest the core allows) on the tablet, in play and in the editor:
drawn by what is in view (far fewer hexes in the document than on the map), panned and pinched
by touch, the hexes that come into view drawn, and a tap answered on the hex tapped."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from apppage import open_app, open_scenario
from editorpage import open_editor, wait_checked
from touch import Fingers

pytestmark = pytest.mark.e2e

COLUMNS, ROWS = 160, 125


def big_scenario() -> dict[str, Any]:
    rng = random.Random(3)
    hexes = {}
    for c in range(1, COLUMNS + 1):
        for r in range(1, ROWS + 1):
            roll = rng.random()
            if roll < 0.15:
                hexes[f"{c:03d}{r:03d}"] = {"terrain": [rng.choice(["woods", "marsh", "town"])]}
    units = [
        {"id": f"u{i}", "side": "a" if i % 2 else "b", "type": "infantry", "name": f"Unit {i}",
         "hex": f"{78 + i % 4:03d}{60 + i // 4:03d}", "facing": 0}
        for i in range(8)
    ]  # fmt: skip
    return {
        "format": "muster-scenario/1",
        "id": "big-map",
        "system": "hex-facing",
        "title": "Big map",
        "map": {
            "orientation": "flat",
            "stagger": "even",
            "columns": COLUMNS,
            "rows": ROWS,
            "column_digits": 3,
            "row_digits": 3,
            "hexes": hexes,
        },
        "sides": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
        "units": units,
    }


# The hex drawn nearest the middle of the view (its terrain polygon), and how many are drawn.
IN_VIEW = """(sel) => {
  const svg = document.querySelector(sel + ' svg');
  const [x, y, w, h] = svg.getAttribute('viewBox').split(' ').map(Number);
  const cx = x + w / 2, cy = y + h / 2;
  let best = null, dist = Infinity;
  const polys = svg.querySelectorAll('.hm-terrain [data-hex]');
  for (const p of polys) {
    const m = /translate\\(([-\\d.]+) ([-\\d.]+)\\)/.exec(p.getAttribute('transform'));
    const d = Math.hypot(+m[1] - cx, +m[2] - cy);
    if (d < dist) { dist = d; best = p.getAttribute('data-hex'); }
  }
  return {centre: best, dist, drawn: polys.length, box: [x, y, w, h]};
}"""


def view_box(page, sel: str) -> list[float]:
    return [float(v) for v in page.locator(sel + " svg").get_attribute("viewBox").split()]


def pan_and_pinch(page, sel: str, fingers: Fingers, fingers_to_pan: int) -> str:
    """Pan far to the lower right with one finger (two in the editor, where one paints),
    pinch in, and check the view: drawn in its middle, few hexes in the document. Returns the
    hex in the middle of the view."""
    box = page.locator(sel).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    before = page.evaluate(IN_VIEW, sel)
    assert 0 < before["drawn"] < COLUMNS * ROWS / 4, before
    for _ in range(3):
        start = [(x + 150 + 60 * i, y + 150) for i in range(fingers_to_pan)]
        fingers.send("touchStart", start)
        for step in range(1, 21):
            fingers.send("touchMove", [(px - 15 * step, py - 15 * step) for px, py in start])
        fingers.send("touchEnd", [])
    page.wait_for_function(
        "([s, b]) => document.querySelector(s + ' svg').getAttribute('viewBox') !== b",
        arg=[sel, " ".join(f"{v:g}" for v in before["box"])],
    )
    moved = view_box(page, sel)
    assert moved[0] > before["box"][0] + 100 and moved[1] > before["box"][1] + 100
    # Two fingers apart: closer in.
    fingers.send("touchStart", [(x - 60, y), (x + 60, y)])
    for step in range(1, 21):
        fingers.send("touchMove", [(x - 60 - 8 * step, y), (x + 60 + 8 * step, y)])
    fingers.send("touchEnd", [])
    page.wait_for_function(
        "([s, w]) => +document.querySelector(s + ' svg').getAttribute('viewBox').split(' ')[2] < w",
        arg=[sel, moved[2] * 0.8],
    )
    # The hexes now in view are drawn (a chunk a few frames after the view moved there).
    page.wait_for_function(f"s => ({IN_VIEW})(s).dist < 60", arg=sel)
    after = page.evaluate(IN_VIEW, sel)
    assert 0 < after["drawn"] < COLUMNS * ROWS / 4, after
    assert after["centre"] != before["centre"]
    return after["centre"]


def test_a_big_map_panned_pinched_and_tapped_by_touch_in_play(browser, site_url):
    app = open_app(
        browser,
        site_url,
        viewport={"width": 820, "height": 1180},
        device_scale_factor=2,
        has_touch=True,
        is_mobile=True,
    )
    page = app.page
    try:
        open_scenario(page, big_scenario())
        page.wait_for_selector("#map svg [data-hex='079060']", state="attached")
        fingers = Fingers(page)
        centre = pan_and_pinch(page, "#map", fingers, 1)
        # A tap in the middle of the view answers with that hex.
        poly = page.locator(f"#map .hm-terrain [data-hex='{centre}']").bounding_box()
        fingers.tap(poly["x"] + poly["width"] / 2, poly["y"] + poly["height"] / 2)
        page.wait_for_selector(f"#hex-panel .hex-number[data-hex='{centre}']")
        fingers.detach()
        app.assert_no_errors()
    finally:
        app.context.close()


def test_a_big_map_panned_and_pinched_by_touch_in_the_editor(browser, site_url):
    app = open_app(
        browser,
        site_url,
        viewport={"width": 820, "height": 1180},
        device_scale_factor=2,
        has_touch=True,
        is_mobile=True,
    )
    page = app.page
    try:
        open_editor(page)
        body = json.dumps(big_scenario()).encode()
        files = [{"name": "big-map.json", "mimeType": "application/json", "buffer": body}]
        page.set_input_files("#editor-open-file", files=files)
        if page.locator("#ask[open]").count():
            page.locator("#ask-ok").tap()
        page.wait_for_function(
            "document.querySelector('#editor-say').textContent.includes('big-map')"
        )
        wait_checked(page)
        page.wait_for_selector("#editor-map svg .hm-terrain [data-hex]", state="attached")
        fingers = Fingers(page)
        pan_and_pinch(page, "#editor-map", fingers, 2)
        fingers.detach()
        app.assert_no_errors()
    finally:
        app.context.close()
