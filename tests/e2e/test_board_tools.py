"""Movement and line of sight in the demo battle: reachable hexes, paths, the LOS tool."""

from __future__ import annotations

import pytest
from apppage import click_hex, hex_center, open_app

pytestmark = pytest.mark.e2e


def click_unit(page, unit_id: str) -> None:
    box = page.locator(f"[data-unit='{unit_id}']").first.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_tapping_a_unit_shades_its_reachable_hexes_with_costs(app):
    page = app.page
    click_unit(page, "pr-gren")
    page.wait_for_selector("#hex-panel .reach-count")
    answer = page.evaluate("window.muster.state.reach")
    shaded = page.locator(".hm-hl.reach").count()
    assert shaded == len(answer["hexes"]) - 1 > 10
    # 0506 -> 0507 is one clear hex: 1 MP, written in the hex.
    assert page.locator(".hm-hl-text", has_text="1").count() >= 1
    assert answer["hexes"]["0507"]["cost"] == 1
    # 0806 is next to the Austrian grenadiers in 0906: the move must stop there.
    assert answer["hexes"]["0806"]["stop"] == "zoc"
    assert page.locator(".hm-hl.reach.stop[data-hl='0806']").count() == 1
    assert "Movement allowance: 4 MP" in page.locator("#hex-panel").inner_text()


def test_tapping_a_reachable_hex_shows_the_path_and_its_breakdown(app):
    page = app.page
    click_hex(page, "0806")
    page.wait_for_selector("#hex-panel .path-title[data-hex='0806']")
    text = page.locator("#hex-panel").inner_text()
    assert "Path to 0806: 4 MP" in text
    assert "Hexside: Stream" in text
    assert "ends its move: enemy zone of control" in text
    assert page.locator(".hm-line.path").count() == 1
    steps = page.locator("#hex-panel .step")
    assert steps.count() == 3


def test_tapping_the_unit_again_puts_it_down(app):
    page = app.page
    click_unit(page, "pr-gren")
    page.wait_for_selector("#hex-panel .hex-number[data-hex='0506']")
    assert page.locator(".hm-hl.reach").count() == 0


def test_road_movement_is_flagged_as_an_engine_default(app):
    page = app.page
    click_unit(page, "pr-ir15")
    page.wait_for_selector("#hex-panel .reach-count")
    click_hex(page, "0705")
    page.wait_for_selector("#hex-panel .path-title[data-hex='0705']")
    assert page.locator("#hex-panel .rule.default").count() == 2
    assert "assumed by the app: the aid does not say" in page.locator("#hex-panel").inner_text()
    click_unit(page, "pr-ir15")


def test_line_of_sight_clear_and_blocked(app):
    page = app.page
    page.click("#los-tool")
    assert page.get_attribute("#los-tool", "aria-pressed") == "true"
    click_hex(page, "0404")
    click_hex(page, "0905")
    page.wait_for_selector("#los-result .los-verdict")
    assert page.locator("#los-result .los-verdict").get_attribute("data-clear") == "1"
    assert page.locator(".hm-line.los-clear").count() == 1
    assert page.locator(".hm-line.los-blocked").count() == 0
    # 0205 to 0402 runs along the side between 0303 and 0403, both woods: blocked.
    click_hex(page, "0205")
    click_hex(page, "0402")
    page.wait_for_function(
        "document.querySelector('#los-result .los-title').textContent.includes('0402')"
    )
    assert page.locator("#los-result .los-verdict").get_attribute("data-clear") == "0"
    assert "blocked by Woods in 0403" in page.locator("#los-result").inner_text()
    assert page.locator(".hm-line.los-blocked").count() == 1
    assert page.locator(".hm-line-mark").count() == 1
    page.click("#los-tool")
    assert page.locator(".hm-line").count() == 0


def test_no_console_errors(app):
    app.assert_no_errors()


def test_reach_and_los_by_touch_on_a_tablet(browser, site_url):
    tablet = open_app(
        browser,
        site_url,
        viewport={"width": 820, "height": 1180},
        has_touch=True,
        is_mobile=True,
    )
    page = tablet.page
    box = page.locator("[data-unit='pr-cr5']").first.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_selector("#hex-panel .reach-count")
    assert page.locator(".hm-hl.reach").count() > 20
    x, y = hex_center(page, "0507")
    page.touchscreen.tap(x, y)
    page.wait_for_selector("#hex-panel .path-title[data-hex='0507']")
    page.tap("#los-tool")
    for label in ("0307", "0507"):
        x, y = hex_center(page, label)
        page.touchscreen.tap(x, y)
    page.wait_for_selector("#los-result .los-verdict")
    tablet.assert_no_errors()
    tablet.context.close()
