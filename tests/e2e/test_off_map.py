"""Hexes a scenario takes off the map (``map.off_map``: a board that is not a rectangle) in play
on the tablet: covered in the colour around the map, and a tap there answers nothing, while a
tap on a hex of the map still shows what the rules know of it."""

from __future__ import annotations

import pytest
from apppage import open_app, open_scenario, settle, tablet
from test_big_map import big_scenario
from test_play_panel import in_view

pytestmark = pytest.mark.e2e


def small_with_corner_off() -> dict:
    data = big_scenario()
    data["id"], data["title"] = "corner-off", "Corner off"
    data["map"].update(columns=12, rows=10, column_digits=2, row_digits=2)
    data["map"]["hexes"] = {"0202": {"terrain": ["woods"]}}
    units = data["units"][:2]
    units[0]["hex"], units[1]["hex"] = "0203", "0303"
    data["units"] = units
    data["map"]["off_map"] = ["0101", "0102", "0201"]
    return data


def test_hexes_off_the_map_are_covered_and_answer_no_tap(browser, site_url):
    app = open_app(browser, site_url, **tablet())
    page = app.page
    try:
        open_scenario(page, small_with_corner_off())
        page.wait_for_selector("#map svg [data-hex='0203']", state="attached")
        settle(page)
        off = page.locator("#map .hm-off")
        assert off.count() == 3
        assert {off.nth(i).get_attribute("data-off") for i in range(3)} == {"0101", "0102", "0201"}
        # A tap on a hex of the map answers with it ...
        on = in_view(page, page.locator("#map .hm-terrain [data-hex='0202']"))
        page.touchscreen.tap(on["x"] + on["width"] / 2, on["y"] + on["height"] / 2)
        page.wait_for_selector("#hex-panel .hex-number[data-hex='0202']")
        # ... and one on a hex off the map answers nothing: the panel still shows 0202.
        gone = in_view(page, page.locator("#map .hm-off[data-off='0102']"))
        page.touchscreen.tap(gone["x"] + gone["width"] / 2, gone["y"] + gone["height"] / 2)
        page.wait_for_timeout(400)
        assert page.locator("#hex-panel .hex-number[data-hex='0102']").count() == 0
        assert page.locator("#hex-panel .hex-number[data-hex='0202']").count() == 1
        app.assert_no_errors()
    finally:
        app.context.close()
