"""The scenario editor's hex map (static/editor/hexedit.js) on its own harness page: painting
terrain, elevation, hexside features, roads and names by touch on the tablet and by mouse on
a desktop, each stroke one change of the draft, checked in the scenario the draft holds."""

from __future__ import annotations

from typing import Any

import pytest
from apppage import AppPage, open_app, tablet
from touch import Fingers, along

pytestmark = pytest.mark.e2e

HARNESS = "__tests__/e2e/hexedit_harness.html"


def _open(browser, site_url: str, **context) -> AppPage:
    app = open_app(browser, site_url + HARNESS, wait_ready=False, **context)
    app.page.wait_for_selector("html[data-ready='1']", state="attached")
    return app


@pytest.fixture()
def pad(browser, site_url):
    """The harness on the tablet: 820×1180 with touch."""
    app = _open(browser, site_url, **tablet())
    app.fingers = Fingers(app.page)
    yield app
    app.assert_no_errors()
    app.context.close()


@pytest.fixture()
def desk(browser, site_url):
    """The harness on a desktop: 1280×800, mouse and keyboard."""
    app = _open(browser, site_url, viewport={"width": 1280, "height": 800})
    yield app
    app.assert_no_errors()
    app.context.close()


# ---- helpers ----------------------------------------------------------------------------


def scenario(page) -> dict[str, Any]:
    return page.evaluate("harness.draft.scenario")


def changes(page) -> list[str | None]:
    return page.evaluate("harness.changes.slice()")


def centre(page, label: str) -> tuple[float, float]:
    p = page.evaluate("(l) => harness.editor.map.hexToClient(l)", label)
    return p["x"], p["y"]


def edges(page, pairs: list[tuple[str, str]]) -> list[dict[str, tuple[float, float]]]:
    """Client points of each hexside's two ends and middle, and of the middles of its hexes."""
    return page.evaluate(
        """async (pairs) => {
          const { edgeBetween } = await import("/muster/static/render/hexgrid.js");
          const m = harness.editor.map;
          const c = (x, y) => { const p = m._mapToClient({ x, y }); return [p.x, p.y]; };
          return pairs.map(([a, b]) => {
            const e = edgeBetween(m.grid, a, b);
            return { p1: c(e.x1, e.y1), p2: c(e.x2, e.y2), mid: c(e.mx, e.my),
                     a: c(e.mx - e.nx * 12, e.my - e.ny * 12),
                     b: c(e.mx + e.nx * 12, e.my + e.ny * 12) };
          });
        }""",
        [list(p) for p in pairs],
    )


def tool(page, name: str) -> None:
    """Press a palette button, as a finger or the mouse does (by its data-tool id)."""
    page.locator(f"#tools [data-tool='{name}']").click()


def view_box(page) -> list[float]:
    return [float(v) for v in page.locator("#map svg").get_attribute("viewBox").split()]


def finger_drag(app, points: list[tuple[float, float]]) -> None:
    app.fingers.drag(points)


def tap(app, x: float, y: float) -> None:
    app.fingers.tap(x, y)


def mouse_drag(page, points, button: str = "left") -> None:
    path = along(points)
    page.mouse.move(*path[0])
    page.mouse.down(button=button)
    for p in path[1:]:
        page.mouse.move(*p)
    page.mouse.up(button=button)


def terrain(s: dict[str, Any]) -> dict[str, list[str]]:
    return {k: v["terrain"] for k, v in s["map"]["hexes"].items() if "terrain" in v}


# ---- terrain --------------------------------------------------------------------------


def test_terrain_by_tap_and_by_drag_each_stroke_one_change(pad):
    page = pad.page
    tool(page, "terrain-woods")
    tap(pad, *centre(page, "0305"))
    assert terrain(scenario(page)) == {"0305": ["woods"]}
    assert changes(page) == ["editor.hex.step_terrain"]
    # A drag down a column paints each hex it passes, written as one change at its end.
    tool(page, "terrain-marsh")
    finger_drag(pad, [centre(page, "0702"), centre(page, "0705")])
    assert terrain(scenario(page)) == {
        "0305": ["woods"],
        "0702": ["marsh"],
        "0703": ["marsh"],
        "0704": ["marsh"],
        "0705": ["marsh"],
    }
    assert len(changes(page)) == 2
    # Drawn: the terrain layer has the marsh texture on the painted hexes; the overlay of the
    # stroke is gone once the change is drawn.
    assert page.locator(".hm-terrain .hm-t-b-marsh").count() == 1
    assert page.locator(".he-paint *").count() == 0
    # A town added on top of the woods: the woods stay the base.
    tool(page, "added")
    tool(page, "terrain-town")
    tap(pad, *centre(page, "0305"))
    assert terrain(scenario(page))["0305"] == ["woods", "town"]
    # Base terrain again: painting clear over it takes the base, keeps what was added.
    tool(page, "base")
    tool(page, "terrain-rough")
    tap(pad, *centre(page, "0305"))
    assert terrain(scenario(page))["0305"] == ["rough", "town"]


def test_brush_radius_and_fill(pad):
    page = pad.page
    tool(page, "brush-1")
    tool(page, "terrain-town")
    tap(pad, *centre(page, "0505"))
    towns = {k for k, v in terrain(scenario(page)).items() if v == ["town"]}
    # The hex and its six neighbours (column 5 is odd: it sits higher than 04 and 06).
    assert towns == {"0505", "0504", "0506", "0404", "0405", "0604", "0605"}
    tool(page, "brush-2")
    tool(page, "terrain-village")
    tap(pad, *centre(page, "0505"))
    villages = {k for k, v in terrain(scenario(page)).items() if v == ["village"]}
    assert len(villages) == 19
    # Fill: every clear hex joined to the one tapped turns rough; the villages stay.
    tool(page, "brush-fill")
    tool(page, "terrain-rough")
    tap(pad, *centre(page, "0302"))
    s = scenario(page)
    cells = s["map"]["columns"] * s["map"]["rows"]
    got = terrain(s)
    assert len(got) == cells
    assert sum(1 for v in got.values() if v == ["rough"]) == cells - 19
    assert len(changes(page)) == 3


def test_elevation_by_tap_and_drag_shown_in_the_hexes(pad):
    page = pad.page
    tool(page, "tool-level")
    tool(page, "level-2")
    tap(pad, *centre(page, "0404"))
    finger_drag(pad, [centre(page, "0603"), centre(page, "0605")])
    s = scenario(page)
    levels = {k: v.get("level", 0) for k, v in s["map"]["hexes"].items()}
    assert levels == {"0404": 2, "0603": 2, "0604": 2, "0605": 2}
    assert "terrain" not in s["map"]["hexes"]["0404"]  # the level only, not a terrain
    assert page.locator(".he-levels [data-level-of='0604']").text_content() == "2"
    # Levels beyond the usual ones by steps: 2 up four times is 6.
    for _ in range(4):
        tool(page, "level-up")
    assert page.locator("#tools [data-tool='level-6']").get_attribute("aria-pressed") == "true"
    tap(pad, *centre(page, "0304"))
    assert scenario(page)["map"]["hexes"]["0304"] == {"level": 6}
    # The eraser takes the level back to 0 and the hex out of the list.
    tool(page, "erase")
    tap(pad, *centre(page, "0404"))
    assert "0404" not in scenario(page)["map"]["hexes"]
    assert page.locator(".he-levels [data-level-of='0404']").count() == 0


# ---- hexsides -------------------------------------------------------------------------

RIVER = [("0404", "0504"), ("0404", "0505"), ("0405", "0505"), ("0405", "0506")]


def test_a_stream_by_dragging_along_hexsides(pad):
    page = pad.page
    tool(page, "tool-hexside")
    tool(page, "feature-stream")
    es = edges(page, RIVER)

    # The vertices along the chain: the end of the first hexside not shared with the second,
    # then each shared one, then the far end of the last.
    def same(p, q):
        return abs(p[0] - q[0]) < 0.5 and abs(p[1] - q[1]) < 0.5

    first = es[0]
    nxt = es[1]
    start = (
        first["p1"]
        if not (same(first["p1"], nxt["p1"]) or same(first["p1"], nxt["p2"]))
        else first["p2"]
    )
    path = [start]
    for e in es:
        path.append(e["p2"] if same(e["p1"], path[-1]) else e["p1"])
    finger_drag(pad, path)
    sides = scenario(page)["map"]["hexsides"]
    got = {tuple(sorted(h["between"])) for h in sides}
    assert got == {tuple(sorted(p)) for p in RIVER}
    assert all(h["features"] == ["stream"] for h in sides)
    assert len(changes(page)) == 1
    assert page.locator(".hm-hexsides .hm-hs-stream").count() == 4
    # A tap near a hexside with the same feature takes it off that one hexside.
    tap(pad, *es[0]["a"])
    assert len(scenario(page)["map"]["hexsides"]) == 3
    # The eraser, dragged along the rest, clears them.
    tool(page, "erase")
    finger_drag(pad, path)
    assert scenario(page)["map"]["hexsides"] == []


def test_a_slope_with_its_up_side(pad):
    page = pad.page
    tool(page, "tool-hexside")
    tool(page, "feature-slope")
    e = edges(page, [("0606", "0607"), ("0506", "0606")])
    # Tapped on 0606's side of the hexside: 0606 is up.
    tap(pad, *e[0]["a"])
    assert scenario(page)["map"]["hexsides"] == [
        {"between": ["0606", "0607"], "features": ["slope"], "up": "0606"}
    ]
    assert page.locator(".hm-hexsides .hm-hs-slope").count() == 1
    # Tapped again from the other side: the slope turns, 0607 up.
    tap(pad, *e[0]["b"])
    assert scenario(page)["map"]["hexsides"][0]["up"] == "0607"
    # Tapped from its up side: taken off.
    tap(pad, *e[0]["b"])
    assert scenario(page)["map"]["hexsides"] == []
    # The flip control: tapped on 0606's side, the other hex is up.
    tool(page, "flip")
    tap(pad, *e[1]["b"])
    assert scenario(page)["map"]["hexsides"] == [
        {"between": ["0606", "0506"], "features": ["slope"], "up": "0506"}
    ]
    # A tap in the middle of a hex names no hexside: a message, no change.
    n = len(changes(page))
    tap(pad, *centre(page, "0404"))
    assert len(changes(page)) == n
    assert page.evaluate("harness.messages.length") == 1


# ---- roads and names --------------------------------------------------------------------


def test_a_road_by_dragging_through_hexes_and_erased_by_a_tap(pad):
    page = pad.page
    tool(page, "tool-road")
    chain = ["0202", "0302", "0402", "0502", "0602"]
    finger_drag(pad, [centre(page, h) for h in chain])
    assert scenario(page)["map"]["roads"] == [{"kind": "road", "hexes": chain}]
    assert len(changes(page)) == 1
    assert page.locator(".hm-roads .hm-road").count() == 1
    # A drag from its end goes on with the same road.
    finger_drag(pad, [centre(page, "0602"), centre(page, "0702")])
    assert scenario(page)["map"]["roads"] == [{"kind": "road", "hexes": chain + ["0702"]}]
    # A trail is its own road.
    tool(page, "road-trail")
    finger_drag(pad, [centre(page, "0305"), centre(page, "0306")])
    assert scenario(page)["map"]["roads"][1] == {"kind": "trail", "hexes": ["0305", "0306"]}
    # The eraser's tap on a road hex takes it out: the road is cut in two there.
    tool(page, "erase")
    tap(pad, *centre(page, "0402"))
    assert scenario(page)["map"]["roads"] == [
        {"kind": "road", "hexes": ["0202", "0302"]},
        {"kind": "road", "hexes": ["0502", "0602", "0702"]},
        {"kind": "trail", "hexes": ["0305", "0306"]},
    ]


def test_a_name_on_the_map_typed_changed_and_removed(pad):
    page = pad.page
    tool(page, "tool-label")
    tap(pad, *centre(page, "0303"))
    box = page.locator(".he-label-form input")
    box.fill("Kirchberg")
    box.press("Enter")
    assert scenario(page)["map"]["labels"] == [{"hex": "0303", "text": "Kirchberg"}]
    assert page.locator(".hm-place text").text_content() == "Kirchberg"
    tap(pad, *centre(page, "0303"))
    assert page.locator(".he-label-form input").input_value() == "Kirchberg"
    page.locator(".he-label-form input").fill("Kirchdorf")
    page.locator(".he-label-form button[type='submit']").click()
    assert scenario(page)["map"]["labels"] == [{"hex": "0303", "text": "Kirchdorf"}]
    tap(pad, *centre(page, "0303"))
    page.locator(".he-label-form [data-tool='label-remove']").click()
    assert "labels" not in scenario(page)["map"]
    assert page.locator(".hm-place text").count() == 0


def test_terrain_eraser(pad):
    page = pad.page
    tool(page, "terrain-woods")
    finger_drag(pad, [centre(page, "0503"), centre(page, "0505")])
    tool(page, "erase")
    tap(pad, *centre(page, "0504"))
    assert set(terrain(scenario(page))) == {"0503", "0505"}


# ---- gestures ---------------------------------------------------------------------------


def test_two_fingers_pan_and_pinch_without_painting(pad):
    page = pad.page
    tool(page, "terrain-woods")
    before = view_box(page)
    x, y = centre(page, "0505")
    pad.fingers.send("touchStart", [(x - 40, y), (x + 40, y)])
    for i in range(1, 12):
        pad.fingers.send("touchMove", [(x - 40 + 8 * i, y + 6 * i), (x + 40 + 8 * i, y + 6 * i)])
    pad.fingers.send("touchEnd", [])
    after = view_box(page)
    assert after[0] < before[0] and after[1] < before[1]  # the map followed the fingers
    assert changes(page) == []
    assert page.locator(".he-paint *").count() == 0
    # Spread apart: zoomed in, still nothing painted.
    pad.fingers.send("touchStart", [(x - 30, y), (x + 30, y)])
    for i in range(1, 11):
        pad.fingers.send("touchMove", [(x - 30 - 10 * i, y), (x + 30 + 10 * i, y)])
    pad.fingers.send("touchEnd", [])
    assert view_box(page)[2] < after[2] * 0.7
    assert changes(page) == []


def test_a_second_finger_during_a_stroke_cancels_it(pad):
    page = pad.page
    tool(page, "terrain-woods")
    a = centre(page, "0503")
    b = centre(page, "0505")
    pad.fingers.send("touchStart", [a])
    for p in along([a, b])[1:]:
        pad.fingers.send("touchMove", [p])
    assert page.locator(".he-paint [data-painted]").count() >= 2  # drawn as it goes
    pad.fingers.send("touchStart", [b, (b[0] + 80, b[1])])
    pad.fingers.send("touchMove", [(b[0] + 10, b[1]), (b[0] + 90, b[1])])
    pad.fingers.send("touchEnd", [])
    assert changes(page) == []
    assert page.locator(".he-paint *").count() == 0


# ---- units, places, pictures ------------------------------------------------------------


COUNTERS = """() => [...document.querySelectorAll('.hm-units [data-unit]')].map((el) =>
    [el.getAttribute('data-unit'), el.getAttribute('data-at'), !!el.__kept, el.textContent])"""


def test_a_unit_renamed_redraws_its_counter_alone_in_its_place(pad):
    """A change of a unit's looks alone (its name) redraws that counter's stack where it
    stands, the other counters left as they are (on a map of two thousand, redrawing every
    counter took a third of a second a keystroke); a unit moved redraws them all, each where
    it now stands."""
    page = pad.page
    page.evaluate(
        """() => harness.draft.change((s) => {
            s.units[0].hex = '0404';
            s.units[1].hex = '0606';
            s.units.push({id: 'a2', side: 'a', type: 'infantry', name: 'Third', hex: '0404',
                          ratings: {}});
        })"""
    )
    before = page.evaluate(COUNTERS)
    assert sorted(c[0] for c in before) == ["a1", "a2", "b1"]
    page.evaluate(
        "() => document.querySelectorAll('.hm-units [data-unit]')"
        ".forEach((el) => { el.__kept = true; })"
    )
    page.evaluate("() => harness.draft.change((s) => { s.units[0].name = 'Grenadiers'; })")
    after = page.evaluate(COUNTERS)
    assert [c[:2] for c in after] == [c[:2] for c in before]  # the same order, the same hexes
    kept = {c[0]: c[2] for c in after}
    assert kept == {"a1": False, "a2": False, "b1": True}  # its stack drawn again, no other
    assert "Gren" in next(c[3] for c in after if c[0] == "a1")
    # Moved: every counter drawn again, each at its hex.
    page.evaluate("() => harness.draft.change((s) => { s.units[1].hex = '0303'; })")
    moved = {c[0]: (c[1], c[2]) for c in page.evaluate(COUNTERS)}
    assert moved == {"a1": ("0404", False), "a2": ("0404", False), "b1": ("0303", False)}


def test_place_a_unit_and_turn_it(pad):
    page = pad.page
    page.evaluate("harness.editor.placeUnit('a1')")
    # While a tap is awaited, a drag pans instead of painting.
    finger_drag(pad, [centre(page, "0505"), centre(page, "0605")])
    assert changes(page) == []
    tap(pad, *centre(page, "0404"))
    unit = scenario(page)["units"][0]
    assert unit["hex"] == "0404" and "facing" not in unit
    assert page.locator(".hm-units [data-unit='a1']").count() == 1
    page.evaluate("harness.editor.placeUnit('a1')")
    tap(pad, *centre(page, "0404"))
    assert scenario(page)["units"][0]["facing"] == 1
    assert changes(page) == ["editor.hex.step_unit", "editor.hex.step_facing"]
    # The next tap paints again.
    tap(pad, *centre(page, "0606"))
    assert "0606" in terrain(scenario(page))


def test_highlight_pick_point_map_info_and_picture(pad):
    page = pad.page
    page.evaluate(
        "harness.editor.highlight({kind: 'hexside', id: ['0707', '0708']})",
    )
    mark = page.locator(".he-mark[data-mark='hexside']").bounding_box()
    svg = page.locator("#map svg").bounding_box()
    # Centred: the hexside's middle in the middle of the view (or as near as the map's edge
    # lets it be).
    assert abs(mark["x"] + mark["width"] / 2 - (svg["x"] + svg["width"] / 2)) < 60
    page.evaluate("harness.editor.highlight(null)")
    assert page.locator(".he-mark").count() == 0
    # pickPoint: the next tap's map point, which mapInfo names.
    page.evaluate("() => { window.picked = harness.editor.pickPoint('editor.hex.hint_point'); }")
    tap(pad, *centre(page, "0505"))
    got = page.evaluate(
        """async () => { const p = await window.picked; const info = harness.editor.mapInfo();
           const c = info.center('0505');
           return {kind: info.kind, label: info.labelAt(p.x, p.y),
                   dx: p.x - c.x, dy: p.y - c.y}; }"""
    )
    assert got["kind"] == "hex" and got["label"] == "0505"
    assert abs(got["dx"]) < 1 and abs(got["dy"]) < 1
    assert changes(page) == []  # the tap was the pick's, not the brush's
    # A picture underneath: an image below every layer, the terrain fills see-through.
    page.evaluate(
        """harness.editor.setPicture({url: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=',
           width: 100, height: 80, opacity: 0.5, transform: [2, 0, 0, 2, -50, -40]})"""
    )
    image = page.locator("#map svg .pz-picture image")
    assert image.get_attribute("transform") == "matrix(2 0 0 2 -50 -40)"
    assert image.get_attribute("opacity") == "0.5"
    first_layer = page.evaluate(
        "[...document.querySelector('#map svg').children].find(e => e.tagName !== 'defs')"
        ".getAttribute('class')"
    )
    assert first_layer == "pz-picture"
    opacity = page.evaluate(
        "getComputedStyle(document.querySelector('#map .hm-terrain .hm-base')).opacity"
    )
    assert float(opacity) < 0.5
    page.evaluate("harness.editor.setPicture(null)")
    assert page.locator("#map svg .pz-picture image").count() == 0


# ---- desktop: mouse and keyboard --------------------------------------------------------


def test_mouse_paints_with_the_left_button_and_pans_with_right_or_space(desk):
    page = desk.page
    tool(page, "terrain-woods")
    page.mouse.click(*centre(page, "0404"))
    assert terrain(scenario(page)) == {"0404": ["woods"]}
    mouse_drag(page, [centre(page, "0604"), centre(page, "0606")])
    assert set(terrain(scenario(page))) == {"0404", "0604", "0605", "0606"}
    assert len(changes(page)) == 2
    # The wheel zooms (the editor opens on the whole map: nothing to pan to before).
    x, y = centre(page, "0505")
    width = view_box(page)[2]
    page.mouse.move(x, y)
    page.mouse.wheel(0, -400)
    page.wait_for_function(
        f"parseFloat(document.querySelector('#map svg').getAttribute('viewBox').split(' ')[2])"
        f" < {width * 0.9}"
    )
    # The right button pans.
    before = view_box(page)
    x, y = centre(page, "0505")
    mouse_drag(page, [(x, y), (x + 120, y + 60)], button="right")
    moved = view_box(page)
    assert moved[0] < before[0]
    # The left button with Space held pans too.
    page.locator("#map").focus()
    page.keyboard.down(" ")
    mouse_drag(page, [(x, y), (x - 100, y - 50)])
    page.keyboard.up(" ")
    assert view_box(page)[0] > moved[0]
    assert len(changes(page)) == 2


def test_the_palette_by_keyboard(desk):
    page = desk.page
    first = page.locator("#tools [data-tool='tool-terrain']")
    first.focus()
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # the elevation tool
    assert page.locator("#tools [data-tool='tool-level']").get_attribute("aria-pressed") == "true"
    # The focus stays on the button pressed, though the palette was drawn again.
    assert page.evaluate("document.activeElement.dataset.tool") == "tool-level"
    page.locator("#tools [data-tool='level-3']").focus()
    page.keyboard.press(" ")
    assert page.locator("#tools [data-tool='level-3']").get_attribute("aria-pressed") == "true"
    # Enter on the map taps the keyboard's cursor hex.
    page.locator("#map").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    s = scenario(page)
    assert [v.get("level") for v in s["map"]["hexes"].values()] == [3]
    # Every button is at least 44 px tall.
    heights = page.evaluate(
        "[...document.querySelectorAll('#tools button')].map(b => b.getBoundingClientRect().height)"
    )
    assert min(heights) >= 44


# ---- hexes off the map ------------------------------------------------------------------


def test_hexes_dragged_off_the_map_leave_it_with_what_was_on_them(pad):
    page = pad.page
    # Woods, a stream and a road over the corner first.
    tool(page, "terrain-woods")
    tap(pad, *centre(page, "0102"))
    tool(page, "tool-road")
    finger_drag(pad, [centre(page, "0101"), centre(page, "0301")])
    roads = scenario(page)["map"]["roads"]
    assert roads and roads[0]["hexes"][0] == "0101"
    before = len(changes(page))
    # The corner is not on the board: dragged off the map, one change.
    tool(page, "tool-offmap")
    tool(page, "brush-0")
    finger_drag(pad, [centre(page, "0101"), centre(page, "0103")])
    s = scenario(page)
    assert s["map"]["off_map"] == ["0101", "0102", "0103"]
    assert changes(page)[before:] == ["editor.hex.step_offmap"]
    assert "0102" not in s["map"]["hexes"]  # its woods went with it
    assert all("0101" not in road["hexes"] for road in s["map"]["roads"])
    # Drawn shaded over the terrain; the stroke's overlay gone.
    assert page.locator(".he-offmap .he-off").count() == 3
    assert page.locator(".he-paint *").count() == 0
    # The eraser puts a hex back.
    tool(page, "erase")
    tap(pad, *centre(page, "0102"))
    assert scenario(page)["map"]["off_map"] == ["0101", "0103"]
    assert changes(page)[-1] == "editor.hex.step_onmap"
    assert page.locator(".he-offmap .he-off").count() == 2
    # Every hex back: the key goes from the file.
    finger_drag(pad, [centre(page, "0101"), centre(page, "0103")])
    assert "off_map" not in scenario(page)["map"]
    assert page.locator(".he-offmap .he-off").count() == 0
