"""The area map editor on the tablet, by touch: four locales drawn in a 2×2 layout by tapping
their corners (snapping makes the shared corners one), the approach pairs of exactly the shared
borders, an approach edited, a shared corner dragged, a locale drawn onto its neighbours'
borders and deleted, a road, blocks placed by tap; and the scenario drawn loads in the core.

The editor runs alone on a harness page (tests/e2e/areaedit_harness.html) with a Draft-like
document; the geometry module (static/editor/areageom.js) is tested through the same page."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from apppage import AppPage, open_app, tablet
from touch import Fingers

from muster.scenario import parse_scenario

pytestmark = pytest.mark.e2e

HARNESS = "__tests__/e2e/areaedit_harness.html"


@pytest.fixture(scope="module")
def editor(browser, site_url) -> Iterator[AppPage]:
    """The harness page at the tablet's size, with touch; shared by the tests in order."""
    opened = open_app(browser, site_url + HARNESS, **tablet())
    yield opened
    opened.context.close()


def scenario(page: Any) -> dict[str, Any]:
    return page.evaluate("harness.copy(harness.draft.scenario)")


def locales(page: Any) -> dict[str, dict[str, Any]]:
    return {loc["id"]: loc for loc in scenario(page)["map"]["locales"]}


def pairs(page: Any) -> set[tuple[str, str]]:
    return {(a["from"], a["facing"]) for a in scenario(page)["map"]["approaches"]}


def screen(page: Any, x: float, y: float) -> tuple[float, float]:
    sx, sy = page.evaluate("([x, y]) => harness.toScreen(x, y)", [x, y])
    return sx, sy


def tap_map(page: Any, x: float, y: float) -> None:
    """A finger's tap at map point (x, y), which must be in view."""
    sx, sy = screen(page, x, y)
    box = page.locator("#map svg").bounding_box()
    assert box is not None
    inside = (
        box["x"] <= sx <= box["x"] + box["width"] and box["y"] <= sy <= box["y"] + box["height"]
    )
    assert inside, f"map point {x}, {y} is out of view"
    page.touchscreen.tap(sx, sy)


def tap_button(page: Any, selector: str) -> None:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    assert box["height"] >= 44, f"{selector} is smaller than a finger"
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def approach_screen(page: Any, ap: str) -> tuple[float, float]:
    box = page.locator(f"#map [data-approach='{ap}'] .am-bar").first.bounding_box()
    assert box is not None, f"approach {ap} is not drawn"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def draw(page: Any, corners: list[tuple[float, float]], close: str) -> None:
    """Tap the corners, then close by tapping the first corner again or with Done."""
    for x, y in corners:
        tap_map(page, x, y)
    if close == "first":
        tap_map(page, *corners[0])
    else:
        tap_button(page, "[data-act='done']")


def test_geometry(editor) -> None:
    """areageom.js: snapping, shared borders (a corner is not one), welding, ids, reconcile."""
    got = editor.page.evaluate(
        """() => {
        const g = harness.geo;
        const sq = (id, x, y) =>
          ({id, polygon: [[x, y], [x + 10, y], [x + 10, y + 10], [x, y + 10]]});
        const four = [sq("a", 0, 0), sq("b", 10, 0), sq("c", 0, 10), sq("d", 10, 10)];
        const tee = [{id: "n", polygon: [[0, 0], [20, 0], [20, 5], [0, 5]]}, sq("s", 5, 5)];
        const welded = g.weld(tee);
        const sc = {map: {locales: four.map((l) => Object.assign({}, l)),
                          approaches: [
                            {from: "a", facing: "b", width: "wide", effect: 3, flags: []}],
                          roads: [{kind: "primary", locales: ["a", "b", "d", "c"]}]},
                    units: [{id: "u", locale: "a", approach: "c"}]};
        const added = g.reconcile(sc, new Set());
        const kept = sc.map.approaches.find((x) => x.from === "a" && x.facing === "b");
        // Cut the border of a and c: its pair goes, the road and the block on it follow.
        const before = g.borders(sc.map.locales);
        sc.map.locales[2].polygon = [[0, 11], [10, 11], [10, 20], [0, 20]];
        const removed = g.reconcile(sc, before);
        return {
          corner: g.snap(four, [10.5, 9.5], 2),
          edge: g.snap(four, [5, 10.6], 2),
          free: g.snap(four, [5.04, 5.04], 2),
          borders: Array.from(g.borders(four)).sort(),
          welded, tee: tee[0].polygon, teeBorder: Array.from(g.borders(tee)),
          added, kept, removed,
          left: sc.map.approaches.map((x) => x.from + "/" + x.facing).sort(),
          roads: sc.map.roads, unit: sc.units[0],
          ids: [g.localeId("Sant'Egidio", new Set()),
                g.localeId("Castel Ceriolo", new Set(["castel_ceriolo"])),
                g.localeId("a/b", new Set()), g.localeId("  ", new Set())],
        };
    }"""
    )
    assert got["corner"] == {"x": 10, "y": 10, "kind": "corner"}
    assert got["edge"] == {"x": 5, "y": 10, "kind": "edge"}
    assert got["free"] == {"x": 5, "y": 5, "kind": "free"}
    # The 2×2 squares: four borders; a and d, b and c touch at one corner only.
    assert got["borders"] == ["a/b", "a/c", "b/d", "c/d"]
    # The square under the long one: its top corners go into the long one's bottom edge.
    assert got["welded"] == 2
    assert got["tee"] == [[0, 0], [20, 0], [20, 5], [15, 5], [5, 5], [0, 5]]
    assert got["teeBorder"] == ["n/s"]
    # Reconcile: the pair a/b keeps its settings, the seven missing directions come.
    assert got["added"] == {"added": 7, "removed": 0}
    assert got["kept"] == {"from": "a", "facing": "b", "width": "wide", "effect": 3, "flags": []}
    assert got["removed"] == {"added": 0, "removed": 2}
    assert got["left"] == ["a/b", "b/a", "b/d", "c/d", "d/b", "d/c"]
    assert got["roads"] == [{"kind": "primary", "locales": ["a", "b", "d", "c"]}]
    assert got["unit"] == {"id": "u", "locale": "a", "approach": None}
    assert got["ids"] == ["sant_egidio", "castel_ceriolo_2", "a_b", "locale"]


def test_draw_four_locales_by_touch(editor) -> None:
    """Four squares by tapping corners near, not on, the shared ones: snapping makes them one
    corner, and the four shared borders (not the diagonals) become eight approaches."""
    page = editor.page
    tap_button(page, "[data-act='mode'][data-mode='draw']")
    draw(page, [(100, 100), (400, 100), (400, 300), (100, 300)], "first")
    assert page.locator("[data-panel='locale'] input[data-field='name']").input_value() == (
        "Locale 1"
    )
    draw(page, [(410, 94), (700, 100), (700, 300), (406, 306)], "done")
    draw(page, [(95, 306), (394, 296), (400, 500), (100, 500)], "first")
    draw(page, [(405, 305), (707, 297), (700, 500), (396, 506)], "done")
    locs = locales(page)
    assert sorted(locs) == ["locale_1", "locale_2", "locale_3", "locale_4"]
    for loc in locs.values():
        assert [400, 300] in loc["polygon"], loc
    assert locs["locale_2"]["polygon"][0] == [400, 100]
    assert locs["locale_4"]["polygon"][1] == [700, 300]
    expected = {
        ("locale_1", "locale_2"),
        ("locale_1", "locale_3"),
        ("locale_2", "locale_4"),
        ("locale_3", "locale_4"),
    }
    assert pairs(page) == expected | {(b, a) for a, b in expected}
    for ap in scenario(page)["map"]["approaches"]:
        assert (ap["width"], ap["effect"], ap["flags"]) == ("narrow", 0, [])
    # Shown the way play shows them: a marker per direction.
    assert page.locator("#map .am-approach").count() == 8
    editor.assert_no_errors()


def test_name_and_fields(editor) -> None:
    """A locale's name, capacity, objective and terrain; its id follows its name."""
    page = editor.page
    tap_button(page, "[data-act='mode'][data-mode='select']")
    tap_map(page, 150, 150)
    panel = page.locator("[data-panel='locale']")
    assert panel.get_attribute("data-locale") == "locale_1"
    panel.locator("[data-field='name']").fill("Sant'Egidio")
    panel.locator("[data-field='name']").press("Enter")
    page.wait_for_function("harness.draft.scenario.map.locales[0].id === 'sant_egidio'")
    panel = page.locator("[data-panel='locale']")
    panel.locator("[data-field='capacity']").fill("3")
    panel.locator("[data-field='capacity']").press("Enter")
    panel.locator("[data-field='objective']").fill("2")
    panel.locator("[data-field='objective']").press("Enter")
    page.locator("[data-panel='locale'] [data-field='terrain']").select_option("town")
    loc = locales(page)["sant_egidio"]
    assert (loc["name"], loc["capacity"], loc["objective"], loc["terrain"]) == (
        "Sant'Egidio",
        3,
        2,
        "town",
    )
    assert ("sant_egidio", "locale_2") in pairs(page)
    assert ("locale_3", "sant_egidio") in pairs(page)
    assert page.locator("#map .am-name", has_text="Sant'Egidio").count() == 1
    editor.assert_no_errors()


def test_edit_an_approach(editor) -> None:
    """Tap an approach: both directions in the palette; width, effect and a flag of one."""
    page = editor.page
    page.touchscreen.tap(*approach_screen(page, "sant_egidio/locale_2"))
    panel = page.locator("[data-panel='approach']")
    assert panel.get_attribute("data-approach") == "sant_egidio/locale_2"
    legends = panel.locator("legend").all_inner_texts()
    assert legends == ["Sant'Egidio facing Locale 2", "Locale 2 facing Sant'Egidio"]
    ap = "[data-ap='sant_egidio/locale_2']"
    panel.locator(f"select{ap}[data-field='width']").select_option("wide")
    page.locator(f"[data-panel='approach'] input{ap}[data-field='effect']").fill("2")
    page.locator(f"[data-panel='approach'] input{ap}[data-field='effect']").press("Enter")
    box = page.locator(f"[data-panel='approach'] {ap}[data-flag='cavalry_obstructed']")
    box.tap()
    got = {(a["from"], a["facing"]): a for a in scenario(page)["map"]["approaches"]}
    assert got[("sant_egidio", "locale_2")] == {
        "from": "sant_egidio",
        "facing": "locale_2",
        "width": "wide",
        "effect": 2,
        "flags": ["cavalry_obstructed"],
    }
    assert got[("locale_2", "sant_egidio")]["width"] == "narrow"
    # The map shows it as play does: a wide bar, the effect, the cavalry mark.
    marker = page.locator("#map [data-approach='sant_egidio/locale_2']")
    assert "am-wide" in (marker.get_attribute("class") or "")
    assert marker.locator(".am-effect").text_content() == "2"
    assert marker.locator(".am-cav-obstructed").count() == 1
    editor.assert_no_errors()


def test_drag_a_shared_corner(editor) -> None:
    """One finger drags the corner the four share: every polygon follows, the approaches
    (and the edited one's settings) stay."""
    page = editor.page
    tap_map(page, 150, 150)  # select Sant'Egidio
    x0, y0 = screen(page, 400, 300)
    x1, y1 = screen(page, 430, 330)
    fingers = Fingers(page)
    fingers.drag([(x0, y0), (x1, y1)])
    page.wait_for_function(
        "!harness.draft.scenario.map.locales.some("
        "l => l.polygon.some(p => p[0] === 400 && p[1] === 300))"
    )
    locs = locales(page)
    moved = [p for p in locs["sant_egidio"]["polygon"] if p not in ([100, 100], [400, 100])]
    corner = next(p for p in moved if abs(p[0] - 430) < 3 and abs(p[1] - 330) < 3)
    for loc in locs.values():
        assert corner in loc["polygon"], loc
    assert len(pairs(page)) == 8
    ap = next(
        a
        for a in scenario(page)["map"]["approaches"]
        if (a["from"], a["facing"]) == ("sant_egidio", "locale_2")
    )
    assert (ap["width"], ap["effect"]) == ("wide", 2)
    # Two fingers pan and pinch: the map moves, nothing changes.
    before = scenario(page)
    view = page.evaluate("document.querySelector('#map svg').getAttribute('viewBox')")
    a, b = screen(page, 200, 200), screen(page, 600, 400)
    fingers.send("touchStart", [a, b])
    for d in (10, 20, 40, 60):
        fingers.send("touchMove", [(a[0] - d, a[1]), (b[0] + d, b[1])])
    fingers.send("touchEnd", [])
    fingers.detach()
    page.wait_for_function(
        "v => document.querySelector('#map svg').getAttribute('viewBox') !== v", arg=view
    )
    assert scenario(page) == before
    editor.assert_no_errors()


def test_locale_on_borders_then_deleted(editor) -> None:
    """A fifth locale under the bottom two, its top corners tapped onto their borders: the
    points go into both neighbours, two new borders get their pairs; deleting it takes them."""
    page = editor.page
    page.evaluate("harness.editor.map.fitAll()")
    tap_button(page, "[data-act='mode'][data-mode='draw']")
    draw(page, [(250, 506), (550, 494), (550, 580), (250, 580)], "done")
    locs = locales(page)
    poly = locs["locale_5"]["polygon"]
    # On the border (y 500), not where the finger was (y 506 and 494).
    west = next(p for p in poly if p[1] == 500 and abs(p[0] - 250) < 2)
    east = next(p for p in poly if p[1] == 500 and abs(p[0] - 550) < 2)
    assert west in locs["locale_3"]["polygon"]
    assert east in locs["locale_4"]["polygon"]
    assert [400, 500] in locs["locale_5"]["polygon"]  # the neighbours' corner on its border
    got = pairs(page)
    assert {("locale_5", "locale_3"), ("locale_3", "locale_5")} <= got
    assert {("locale_5", "locale_4"), ("locale_4", "locale_5")} <= got
    assert len(got) == 12
    tap_button(page, "[data-act='mode'][data-mode='select']")
    tap_map(page, 300, 560)
    assert page.locator("[data-panel='locale']").get_attribute("data-locale") == "locale_5"
    tap_button(page, "[data-act='delete-locale']")
    assert sorted(locales(page)) == ["locale_2", "locale_3", "locale_4", "sant_egidio"]
    assert len(pairs(page)) == 8
    assert all("locale_5" not in p for p in pairs(page))
    editor.assert_no_errors()


def test_road(editor) -> None:
    """A primary road: tap the kind, then the locales in order; a non-neighbour is refused."""
    page = editor.page
    tap_button(page, "[data-act='mode'][data-mode='road']")
    tap_button(page, "[data-act='road-kind'][data-kind='primary']")
    tap_map(page, 150, 150)
    tap_map(page, 600, 150)
    tap_map(page, 150, 450)  # Locale 3 is not next to Locale 2
    assert page.evaluate("harness.messages.length") == 1
    tap_map(page, 600, 450)
    tap_button(page, "[data-act='road-done']")
    roads = scenario(page)["map"]["roads"]
    assert roads == [{"kind": "primary", "locales": ["sant_egidio", "locale_2", "locale_4"]}]
    assert page.locator("#map .am-road-primary").count() == 1
    assert page.locator("[data-panel='roads'] li").inner_text().startswith("Primary road")
    editor.assert_no_errors()


def test_place_blocks_and_load_in_core(editor, tmp_path) -> None:
    """Blocks put by tap (a reserve, an approach), highlighted; the scenario loads in the core."""
    page = editor.page
    page.evaluate(
        """() => harness.draft.change((sc) => {
        sc.sides = [{id: "austria", name: "Austria", color: "#f3f0e2", text: "#20242c"},
                    {id: "france", name: "France", color: "#2b4a8b", text: "#ffffff"}];
        const u = (id, side, type, steps) => ({id, side, type, name: id.toUpperCase(), steps,
                                               locale: null, approach: null});
        sc.units = [u("a1", "austria", "infantry", 3), u("a2", "austria", "cavalry", 2),
                    u("f1", "france", "infantry", 2), u("f2", "france", "artillery", 1)];
    })"""
    )
    tap_button(page, "[data-act='mode'][data-mode='select']")
    placed = [
        ("a1", (150, 150)),
        ("a2", (150, 250)),
        ("f1", approach_screen(page, "locale_4/locale_2")),
        ("f2", (600, 450)),
    ]
    for uid, at in placed:
        page.evaluate("id => harness.editor.placeUnit(id)", uid)
        assert page.locator("[data-pending='place']").count() == 1
        if uid == "f1":
            page.touchscreen.tap(*at)
        else:
            tap_map(page, *at)
    units = {u["id"]: u for u in scenario(page)["units"]}
    assert (units["a1"]["locale"], units["a1"]["approach"]) == ("sant_egidio", None)
    assert (units["f1"]["locale"], units["f1"]["approach"]) == ("locale_4", "locale_2")
    assert (units["f2"]["locale"], units["f2"]["approach"]) == ("locale_4", None)
    assert page.locator("#map [data-piece]").count() == 4
    page.evaluate("harness.editor.highlight({kind: 'unit', id: 'f1'})")
    assert page.locator("#map [data-piece='f1'].am-selected").count() == 1
    page.evaluate("harness.editor.highlight({kind: 'approach', id: 'locale_2/locale_4'})")
    assert page.locator("#map [data-lit='locale_2/locale_4']").count() == 1
    info = page.evaluate("harness.editor.mapInfo()")
    assert info == {"kind": "areas", "width": 800, "height": 600}
    # Written as a file and read back by the core, in CPython.
    path = tmp_path / "drawn.json"
    path.write_text(json.dumps(scenario(page)))
    sc = parse_scenario(json.loads(path.read_text()))
    assert sorted(sc.locales) == ["locale_2", "locale_3", "locale_4", "sant_egidio"]
    assert sc.approach("sant_egidio", "locale_2").width == "wide"
    assert sc.approach("sant_egidio", "locale_2").flags == frozenset({"cavalry_obstructed"})
    assert sc.road_kind("locale_2", "locale_4") == "primary"
    assert sc.neighbors["sant_egidio"] == ("locale_2", "locale_3")
    editor.assert_no_errors()


def test_pick_point_and_picture(editor) -> None:
    """pickPoint answers the next tap in map units (or null when cancelled); a picture goes
    under the polygons, which turn translucent."""
    page = editor.page
    page.evaluate("harness.editor.map.fitAll()")
    page.evaluate("() => { window.picked = harness.editor.pickPoint('editor.area.select_hint'); }")
    assert page.locator("[data-pending='pick']").count() == 1
    tap_map(page, 120, 80)
    got = page.evaluate("window.picked")
    assert abs(got["x"] - 120) < 2 and abs(got["y"] - 80) < 2
    page.evaluate("() => { window.picked = harness.editor.pickPoint('editor.area.select_hint'); }")
    tap_button(page, "[data-act='cancel-pending']")
    assert page.evaluate("window.picked") is None
    pixel = (
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQ"
        "DwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
    )
    page.evaluate(
        "url => harness.editor.setPicture({url, width: 1, height: 1, opacity: 0.5,"
        " transform: [800, 0, 0, 600, 0, 0]})",
        pixel,
    )
    assert page.locator("#map svg image").count() == 1
    opacity = page.evaluate(
        "getComputedStyle(document.querySelector('#map .am-locale')).fillOpacity"
    )
    assert float(opacity) < 1
    page.evaluate("harness.editor.setPicture(null)")
    assert page.locator("#map svg image").count() == 0
    editor.assert_no_errors()


def test_mouse_on_a_desktop(browser, site_url) -> None:
    """By mouse at 1280×800: clicks draw a locale, the left button drags a corner, the right
    button pans (nothing changes), the wheel zooms."""
    opened = open_app(browser, site_url + HARNESS, viewport={"width": 1280, "height": 800})
    page = opened.page
    try:
        page.locator("[data-act='mode'][data-mode='draw']").click()
        for x, y in [(100, 100), (300, 100), (200, 250), (100, 100)]:
            page.mouse.click(*screen(page, x, y))
        assert [loc["polygon"] for loc in locales(page).values()] == [
            [[100, 100], [300, 100], [200, 250]]
        ]
        page.locator("[data-act='mode'][data-mode='select']").click()
        page.mouse.click(*screen(page, 200, 150))
        page.mouse.move(*screen(page, 300, 100))
        page.mouse.down()
        x1, y1 = screen(page, 360, 120)
        page.mouse.move(x1, y1, steps=5)
        page.mouse.up()
        poly = next(iter(locales(page).values()))["polygon"]
        assert abs(poly[1][0] - 360) < 2 and abs(poly[1][1] - 120) < 2, poly
        before = scenario(page)
        view = page.evaluate("document.querySelector('#map svg').getAttribute('viewBox')")
        page.mouse.move(*screen(page, 150, 300))
        page.mouse.down(button="right")
        page.mouse.move(*screen(page, 100, 250), steps=5)
        page.mouse.up(button="right")
        page.mouse.wheel(0, -200)
        page.wait_for_function(
            "v => document.querySelector('#map svg').getAttribute('viewBox') !== v", arg=view
        )
        assert scenario(page) == before
        opened.assert_no_errors()
    finally:
        opened.context.close()
