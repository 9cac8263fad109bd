"""A tablet: portrait viewport with touch; tap, one-finger pan and two-finger pinch."""

from __future__ import annotations

import pytest
from apppage import hex_center, open_app

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def tablet(browser, site_url):
    app = open_app(
        browser,
        site_url,
        viewport={"width": 820, "height": 1180},
        device_scale_factor=2,
        has_touch=True,
        is_mobile=True,
    )
    yield app
    app.context.close()


def _view_box(page) -> list[float]:
    return [float(v) for v in page.locator("#map svg").get_attribute("viewBox").split()]


def _touch(cdp, kind: str, points: list[tuple[float, float]]) -> None:
    cdp.send(
        "Input.dispatchTouchEvent",
        {
            "type": kind,
            "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)],
        },
    )


def test_tap_a_hex_by_touch(tablet):
    page = tablet.page
    x, y = hex_center(page, "1103")
    page.touchscreen.tap(x, y)
    page.wait_for_selector("#hex-panel .hex-number[data-hex='1103']")
    assert page.locator("#hex-panel .level").inner_text() == "1"
    # The panel sits below the map in portrait.
    map_box = page.locator("#map").bounding_box()
    panel_box = page.locator("#panel").bounding_box()
    assert panel_box["y"] >= map_box["y"] + map_box["height"] - 1


def test_one_finger_pan_moves_the_map_without_tapping(tablet):
    page = tablet.page
    cdp = tablet.context.new_cdp_session(page)
    before = _view_box(page)
    x, y = hex_center(page, "0505")
    _touch(cdp, "touchStart", [(x, y)])
    for step in range(1, 11):
        _touch(cdp, "touchMove", [(x + 12 * step, y + 6 * step)])
    _touch(cdp, "touchEnd", [])
    after = _view_box(page)
    assert after[0] < before[0] and after[1] < before[1]  # content followed the finger
    assert after[2] == pytest.approx(before[2])  # no zoom
    # The pan was not a tap: the panel still shows the hex tapped before.
    assert page.locator("#hex-panel .hex-number").get_attribute("data-hex") == "1103"


def test_two_finger_pinch_zooms(tablet):
    page = tablet.page
    cdp = tablet.context.new_cdp_session(page)
    before = _view_box(page)
    x, y = hex_center(page, "0705")
    _touch(cdp, "touchStart", [(x - 30, y), (x + 30, y)])
    for step in range(1, 11):
        _touch(cdp, "touchMove", [(x - 30 - 10 * step, y), (x + 30 + 10 * step, y)])
    _touch(cdp, "touchEnd", [])
    after = _view_box(page)
    assert after[2] < before[2] * 0.6  # zoomed in: the view box is narrower
    tablet.assert_no_errors()
