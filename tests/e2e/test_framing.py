"""The map's framing on a tablet (820×1180, touch) and a desktop: each demo opens with every
unit in view, New game and Open scenario frame the units, the Fit control brings them back
after a pan (and shows the whole map on a second tap), pinching and the wheel stop at the
whole map and at the closest zoom, a unit picked from the panel's list is brought into view,
cost badges lie inside their hex clear of the counters and the hex number, and the line of
sight's answer shows where the player looks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from apppage import (
    hex_center,
    open_app,
    open_file,
    press,
    settle,
    tablet,
    tap_center,
    valmont_to_movement,
)
from touch import Fingers

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
DEMOS = ("demo-valmont", "demo-hohenbrueck", "demo-fontanella")
DESKTOP = {"viewport": {"width": 1440, "height": 900}}
SCREENS = {"tablet": tablet(), "desktop": DESKTOP}
PIECES = "#map:not([hidden]) [data-unit], #area-map:not([hidden]) [data-piece]"
MAP = "#map:not([hidden]) svg.pz-svg, #area-map:not([hidden]) svg.pz-svg"
DRAWN = "#map:not([hidden]) .hm-terrain, #area-map:not([hidden]) .am-layer-locales"
FIT = ".map:not([hidden]) .map-fit"
PAD = 12  # CSS px round the whole map at the farthest zoom (panzoom.js _fitZoom)
MAX_ZOOM = 6  # CSS px per map unit at the closest zoom (panzoom.js)
COUNTER = 64  # a hex map counter's side in map units (counters.js)


def scenario(demo: str) -> dict:
    return json.loads((ROOT / "py" / "muster" / "scenarios" / f"{demo}.json").read_text())


def box_of(page, selector: str) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not drawn"
    return box


def outside(page) -> list[str]:
    """The pieces on the map whose box is not wholly inside the map's visible box."""
    return page.evaluate(
        """([pieces, map]) => {
          const v = document.querySelector(map).getBoundingClientRect();
          return [...document.querySelectorAll(pieces)]
            .filter((e) => {
              const r = e.querySelector('.hm-unit-body, .am-block-body').getBoundingClientRect();
              return r.left < v.left - 0.5 || r.right > v.right + 0.5
                || r.top < v.top - 0.5 || r.bottom > v.bottom + 0.5;
            })
            .map((e) => e.getAttribute('data-unit') || e.getAttribute('data-piece'));
        }""",
        [PIECES, MAP],
    )


def framed(page) -> list[str]:
    """The pieces out of view that a frame should have shown: none when every piece is in
    view; where the pieces are too spread for the readable zoom, none either if their box
    fills the map's box across each axis they run past (no empty margin while a unit is
    clipped)."""
    out = outside(page)
    if not out:
        return []
    return page.evaluate(
        """([pieces, map, out]) => {
          const v = document.querySelector(map).getBoundingClientRect();
          const boxes = [...document.querySelectorAll(pieces)].map((e) =>
            e.querySelector('.hm-unit-body, .am-block-body').getBoundingClientRect());
          const u = {
            left: Math.min(...boxes.map((b) => b.left)),
            right: Math.max(...boxes.map((b) => b.right)),
            top: Math.min(...boxes.map((b) => b.top)),
            bottom: Math.max(...boxes.map((b) => b.bottom)),
          };
          const across = u.left < v.left - 0.5 || u.right > v.right + 0.5;
          const down = u.top < v.top - 0.5 || u.bottom > v.bottom + 0.5;
          const fillsAcross = u.left <= v.left + 1 && u.right >= v.right - 1;
          const fillsDown = u.top <= v.top + 1 && u.bottom >= v.bottom - 1;
          return (across && !fillsAcross) || (down && !fillsDown) ? out : [];
        }""",
        [PIECES, MAP, out],
    )


def new_game(page) -> None:
    """New game, and wait until its first view is drawn (each side's screen where sides
    hide their pieces: the first side's)."""
    before = page.evaluate("Number(document.documentElement.dataset.shown || 0)")
    press(page, "#new-game")
    page.wait_for_function(f"Number(document.documentElement.dataset.shown || 0) > {before}")
    settle(page)
    if page.locator("#curtain-go").is_visible():
        press(page, "#curtain-go")
        page.wait_for_selector("#curtain-go", state="hidden")
    settle(page)


def pieces_shown(page) -> int:
    return page.locator(PIECES).count()


def drag_map_away(page) -> None:
    """One finger drags the map far to the left and up (the units go off to the left)."""
    v = box_of(page, MAP)
    x, y = v["x"] + v["width"] * 0.8, v["y"] + v["height"] * 0.8
    Fingers(page).drag([(x, y), (v["x"] + 10, v["y"] + 10)], step=20)
    Fingers(page).drag([(x, y), (v["x"] + 10, v["y"] + 10)], step=20)


def wheel_out(page) -> None:
    v = box_of(page, MAP)
    page.mouse.move(v["x"] + v["width"] / 2, v["y"] + v["height"] / 2)
    for _ in range(12):
        page.mouse.wheel(0, 300)
    page.wait_for_timeout(100)  # the view is applied in the next frame


@pytest.mark.parametrize("screen", sorted(SCREENS))
@pytest.mark.parametrize("demo", DEMOS)
def test_each_demo_opens_with_every_unit_in_view(browser, site_url, demo, screen):
    app = open_app(browser, f"{site_url}?scenario={demo}", **SCREENS[screen])
    page = app.page
    try:
        settle(page)
        assert pieces_shown(page) == len(scenario(demo)["units"])
        assert framed(page) == []
        # New game frames the game's units too.
        new_game(page)
        assert pieces_shown(page) > 0
        # The side on screen sees its own units framed; where the other side's blocks are
        # hidden, those may lie past the edge (the acting side's units are brought in).
        hidden = page.locator("[data-piece^='hidden-']").count()
        out = framed(page)
        assert out == [] or (hidden and all(p.startswith("hidden-") for p in out)), out
        app.assert_no_errors()
    finally:
        app.context.close()


def test_new_game_open_scenario_and_the_list_frame_the_units(browser, site_url):
    app = open_app(browser, f"{site_url}?scenario=demo-valmont", **tablet())
    page = app.page
    try:
        settle(page)
        drag_map_away(page)
        assert outside(page) != []
        new_game(page)
        assert framed(page) == []
        # Open scenario… (the game in progress is kept; the question says so).
        drag_map_away(page)
        assert outside(page) != []
        hohenbrueck = scenario("demo-hohenbrueck")
        open_file(page, "hohenbrueck.json", json.dumps(hohenbrueck))
        page.locator("#ask-ok").click()
        page.wait_for_function("document.querySelector('#message').textContent.includes('loaded')")
        page.wait_for_selector("#map [data-unit='pr-ir13']")
        settle(page)
        assert framed(page) == []
        # Another scenario from the list.
        drag_map_away(page)
        assert outside(page) != []
        page.select_option("#scenario-select", "demo-fontanella")
        page.wait_for_selector("#area-map:not([hidden]) [data-piece]")
        settle(page)
        assert framed(page) == []
        app.assert_no_errors()
    finally:
        app.context.close()


@pytest.mark.parametrize("demo", ("demo-hohenbrueck", "demo-fontanella"))
def test_fit_brings_every_unit_back_then_shows_the_whole_map(browser, site_url, demo):
    app = open_app(browser, f"{site_url}?scenario={demo}", **tablet())
    page = app.page
    try:
        settle(page)
        fit = page.locator(FIT)
        box = fit.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44
        assert fit.get_attribute("aria-label") == "Show the whole map"
        drag_map_away(page)
        assert outside(page) != []
        assert fit.get_attribute("aria-label") == "Show every unit"
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        settle(page)
        assert framed(page) == []
        # Again: the whole map, with its margin, in the map's box.
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        settle(page)
        v = box_of(page, MAP)
        d = box_of(page, DRAWN)
        assert d["x"] >= v["x"] - 0.5 and d["x"] + d["width"] <= v["x"] + v["width"] + 0.5
        assert d["y"] >= v["y"] - 0.5 and d["y"] + d["height"] <= v["y"] + v["height"] + 0.5
        assert fit.get_attribute("aria-label") == "Show every unit"
        app.assert_no_errors()
    finally:
        app.context.close()


WHOLE_MAP = (("pl", "Pokaż całą mapę"), ("fr", "Montrer toute la carte"), ("ja", "地図全体を表示"))


@pytest.mark.parametrize("lang, words", WHOLE_MAP)
def test_the_fit_control_is_worded_in_every_language(browser, site_url, lang, words):
    app = open_app(browser, f"{site_url}?scenario=demo-valmont&lang={lang}", **tablet())
    page = app.page
    try:
        settle(page)
        assert page.locator(FIT).get_attribute("aria-label") == words
        assert page.locator(FIT).get_attribute("title") == words
    finally:
        app.context.close()


def drawn_ratio(page) -> float:
    """The map's drawn size over the map's box, on the axis where it is the larger."""
    v = box_of(page, MAP)
    d = box_of(page, DRAWN)
    return max(d["width"] / (v["width"] - 2 * PAD), d["height"] / (v["height"] - 2 * PAD))


@pytest.mark.parametrize("demo", ("demo-valmont", "demo-fontanella"))
def test_pinching_out_stops_at_the_whole_map(browser, site_url, demo):
    app = open_app(browser, f"{site_url}?scenario={demo}", **tablet())
    page = app.page
    try:
        settle(page)
        fingers = Fingers(page)
        v = box_of(page, MAP)
        cx, cy = v["x"] + v["width"] / 2, v["y"] + v["height"] / 2
        for _ in range(3):
            fingers.send("touchStart", [(cx - 200, cy), (cx + 200, cy)])
            for step in range(1, 19):
                fingers.send("touchMove", [(cx - 200 + 10 * step, cy), (cx + 200 - 10 * step, cy)])
            fingers.send("touchEnd", [])
        page.wait_for_timeout(100)  # the view is applied in the next frame
        # At the limit: the whole map (its drawing within a margin of its box) fits the view.
        assert 0.95 <= drawn_ratio(page) <= 1 + 0.01
        app.assert_no_errors()
    finally:
        app.context.close()


def test_the_wheel_stops_at_the_whole_map_and_at_the_closest_zoom(browser, site_url):
    app = open_app(browser, f"{site_url}?scenario=demo-hohenbrueck", **DESKTOP)
    page = app.page
    try:
        settle(page)
        wheel_out(page)
        assert 0.95 <= drawn_ratio(page) <= 1 + 0.01
        v = box_of(page, MAP)
        page.mouse.move(v["x"] + v["width"] / 2, v["y"] + v["height"] / 2)
        for _ in range(40):
            page.mouse.wheel(0, -300)
        page.wait_for_timeout(100)
        counter = page.locator("#map .hm-unit-body").first.bounding_box()
        # At the limit (the counter's outline adds a little).
        assert COUNTER * MAX_ZOOM * 0.97 <= counter["width"] <= COUNTER * MAX_ZOOM * 1.03
        app.assert_no_errors()
    finally:
        app.context.close()


def test_a_unit_picked_from_the_list_is_brought_into_view(browser, site_url):
    app = open_app(browser, f"{site_url}?scenario=demo-valmont", **tablet())
    page = app.page
    try:
        valmont_to_movement(page)
        settle(page)
        drag_map_away(page)
        assert "fr-1-1" in outside(page)
        settle(page)
        pick = page.locator("#play-panel button.unit-pick[data-unit='fr-1-1']")
        box = pick.bounding_box()
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_selector("#map .hm-unit-selected[data-unit='fr-1-1']")
        settle(page)
        assert "fr-1-1" not in outside(page)
        app.assert_no_errors()
    finally:
        app.context.close()


BADGES = """() => {
  const r = (e) => e.getBoundingClientRect();
  const overlap = (a, b) =>
    a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5
    && b.top < a.bottom - 0.5;
  const inside = (a, b) =>
    a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5
    && a.bottom <= b.bottom + 0.5;
  const counters = [...document.querySelectorAll('#map [data-unit]')];
  const nums = [...document.querySelectorAll('#map .hm-nums text')];
  return [...document.querySelectorAll('#map .hm-cost')].map((g) => {
    const label = g.getAttribute('data-cost');
    const plate = r(g.querySelector('rect'));
    const hex = r(document.querySelector(`#map .hm-terrain [data-hex="${label}"]`));
    const num = nums.find((t) => t.textContent === label);
    const here = counters.filter((c) => c.getAttribute('data-at') === label);
    // The words a player can read: a text under another counter of its stack is hidden.
    const texts = counters.flatMap((c) =>
      [...c.querySelectorAll('.hm-unit-name, .hm-unit-ratings')].filter((t) => {
        const b = r(t);
        const top = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
        return top && top.closest('[data-unit]') === c;
      }));
    return {
      label,
      inHex: inside(plate, hex),
      onNumber: num ? overlap(plate, r(num)) : null,
      onText: texts.some((t) => overlap(plate, r(t))),
      onCounter: here.length === 0
        && counters.some((c) => overlap(plate, r(c.querySelector('.hm-unit-body')))),
    };
  });
}"""


@pytest.mark.parametrize("demo", ("demo-valmont", "demo-hohenbrueck"))
def test_cost_badges_lie_in_their_hex_clear_of_counters_and_the_number(browser, site_url, demo):
    app = open_app(browser, f"{site_url}?scenario={demo}", **tablet())
    page = app.page
    try:
        if demo == "demo-valmont":
            valmont_to_movement(page)
            unit = "fr-1-1"
        else:
            new_game(page)
            unit = "pr-ir13"
        tap_center(page, f"#map [data-unit='{unit}']", touch=True)
        page.wait_for_selector("#map .hm-cost", state="attached")
        settle(page)
        page.wait_for_function("document.querySelectorAll('#map .hm-nums text').length > 50")
        badges = page.evaluate(BADGES)
        assert len(badges) > 5
        for b in badges:
            assert b["inHex"], b
            assert b["onNumber"] is False, b
            assert not b["onText"], b
            assert not b["onCounter"], b
        if demo == "demo-valmont":
            # Lit hexes where other units stand: their badges too clear the counters' words.
            assert any(
                page.locator(f"#map [data-unit][data-at='{b['label']}']").count() for b in badges
            )
        app.assert_no_errors()
    finally:
        app.context.close()


def test_the_line_of_sight_answer_is_in_view_after_two_taps(browser, site_url):
    app = open_app(browser, f"{site_url}?scenario=demo-hohenbrueck", **tablet())
    page = app.page
    try:
        new_game(page)
        press(page, "#los-tool")
        for label in ("0504", "0906"):
            x, y = hex_center(page, label)
            page.touchscreen.tap(x, y)
            settle(page)
        verdict = page.locator("#los-result .los-verdict")
        verdict.wait_for()
        box = verdict.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 1180
        assert box["x"] >= 0 and box["x"] + box["width"] <= 820
        # Leaving the tool takes the answer away.
        press(page, "#los-tool")
        assert page.locator("#los-result").is_hidden()
        app.assert_no_errors()
    finally:
        app.context.close()
