"""Everyone can play: axe-core scans every screen (start, each demo in play, a chance point,
a preview, the privacy screen, every dialog, an error) in the light and the dark theme and
finds no violation; every dialog takes the focus, keeps it and gives it back; the theme,
forced colours, print and layout shift are checked as a player would see them.

axe-core comes from node_modules (a test tool, never shipped in the app)."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from apppage import draw_a_formation_that_fires, open_app, open_file, press, settle, tablet

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
TABLET = tablet()
DESKTOP = {"viewport": {"width": 1366, "height": 900}}
# The rule sets scanned: WCAG 2.0-2.2 A and AA and axe's best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def axe(page, screen: str) -> list[str]:
    """Every violation axe finds on the page as it is, as readable lines (empty when clean)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async (tags) => {
          const r = await axe.run(document, {runOnly: {type: 'tag', values: tags},
                                             resultTypes: ['violations']});
          return r.violations.map(v => v.impact + ' ' + v.id + ': ' +
            v.nodes.slice(0, 4).map(n => n.target.join(' ')).join(' | '));
        }""",
        TAGS,
    )
    return [f"{screen}: {line}" for line in found]


def open_demo(browser, site_url, demo: str, scheme: str, size=TABLET):
    return open_app(browser, f"{site_url}?scenario={demo}", color_scheme=scheme, **size)


def start_game(page) -> None:
    press(page, "#new-game")
    page.wait_for_selector("#dock, #curtain[open]")
    settle(page)


def reveal(page) -> None:
    page.wait_for_selector("#curtain[open] #curtain-go")
    press(page, "#curtain-go")
    page.wait_for_selector("#curtain", state="hidden")
    settle(page)


def open_dialog(page, opener: str, dialog: str) -> None:
    press(page, opener)
    page.wait_for_selector(f"{dialog}[open]")


def close_dialog(page, dialog: str) -> None:
    page.keyboard.press("Escape")
    page.wait_for_selector(f"{dialog}:not([open])", state="attached")


def scan_dialogs(page, where: str) -> list[str]:
    """Open each of the app's own dialogs from its button, scan it, close it."""
    found = []
    for opener, dialog in (
        ("#legend", "#legend-dialog"),
        ("#saved-games", "#saved-dialog"),
        ("#settings-button", "#settings-dialog"),
        ("#help-button", "#keys-dialog"),
        ("#rules", "#rules-dialog"),
        ("#scenario-tab", "#briefing-dialog"),
    ):
        open_dialog(page, opener, dialog)
        found += axe(page, f"{where} {dialog}")
        close_dialog(page, dialog)
    return found


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_screen_of_a_hex_game_passes_axe(browser, site_url, scheme):
    app = open_demo(browser, site_url, "demo-valmont", scheme)
    page = app.page
    try:
        found = axe(page, "start")
        start_game(page)
        page.wait_for_selector("#dock button.face")
        found += axe(page, "cup draw (a chance point)")
        draw_a_formation_that_fires(page)
        found += axe(page, "formation activated")
        press(page, "#dock button.fight")
        page.wait_for_selector("#preview")
        found += axe(page, "fire preview")
        press(page, "#confirm")
        page.wait_for_selector("#roll")
        found += axe(page, "fire die")
        found += scan_dialogs(page, "in play")
        # A new game asks first: the question is a dialog too.
        press(page, "#new-game")
        page.wait_for_selector("#ask[open]")
        found += axe(page, "ask")
        page.click("#ask-cancel")
        # The saved games' rename.
        open_dialog(page, "#saved-games", "#saved-dialog")
        page.locator("#saved-dialog .saved-rename").first.click()
        page.wait_for_selector("#rename-dialog[open]")
        found += axe(page, "rename")
        page.click("#rename-cancel")
        close_dialog(page, "#saved-dialog")
        # An error: a file that is no scenario.
        open_file(page, "broken.json", "{ not json")
        page.wait_for_selector("#message:not([hidden])")
        found += axe(page, "error")
        assert found == [], "\n".join(found)
        app.assert_no_errors()
    finally:
        app.context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_other_demos_and_the_privacy_screen_pass_axe(browser, site_url, scheme):
    found = []
    for demo, size in (("demo-hohenbrueck", DESKTOP), ("demo-fontanella", TABLET)):
        app = open_demo(browser, site_url, demo, scheme, size)
        page = app.page
        try:
            found += axe(page, f"{demo} start")
            start_game(page)
            if demo == "demo-fontanella":
                found += axe(page, f"{demo} privacy screen")
                reveal(page)
            found += axe(page, f"{demo} in play")
            found += scan_dialogs(page, demo)
            app.assert_no_errors()
        finally:
            app.context.close()
    assert found == [], "\n".join(found)


def focus_is_in(page, selector: str) -> bool:
    return page.evaluate(
        "(s) => { const d = document.querySelector(s); return !!d && d.contains("
        "document.activeElement) && document.activeElement !== document.body; }",
        selector,
    )


def test_every_dialog_takes_keeps_and_gives_back_the_focus(browser, site_url):
    app = open_demo(browser, site_url, "demo-hohenbrueck", "light", DESKTOP)
    page = app.page
    try:
        start_game(page)
        for opener, dialog in (
            ("#legend", "#legend-dialog"),
            ("#saved-games", "#saved-dialog"),
            ("#settings-button", "#settings-dialog"),
            ("#help-button", "#keys-dialog"),
            ("#rules", "#rules-dialog"),
            ("#scenario-tab", "#briefing-dialog"),
        ):
            settle(page)
            page.focus(opener)
            page.keyboard.press("Enter")
            page.wait_for_selector(f"{dialog}[open]")
            assert focus_is_in(page, dialog), f"{dialog}: the focus did not move in"
            for _ in range(12):
                page.keyboard.press("Tab")
                assert focus_is_in(page, dialog), f"{dialog}: Tab left the dialog"
            page.keyboard.press("Shift+Tab")
            assert focus_is_in(page, dialog), f"{dialog}: Shift+Tab left the dialog"
            page.keyboard.press("Escape")
            page.wait_for_selector(f"{dialog}:not([open])", state="attached")
            assert page.evaluate("document.activeElement.id") == opener[1:], (
                f"{dialog}: the focus did not return to {opener}"
            )
        app.assert_no_errors()
    finally:
        app.context.close()


def test_the_privacy_screen_is_a_dialog_that_holds_the_focus(browser, site_url):
    app = open_demo(browser, site_url, "demo-fontanella", "light")
    page = app.page
    try:
        start_game(page)
        page.wait_for_selector("#curtain[open]")
        curtain = page.locator("#curtain")
        assert curtain.get_attribute("aria-labelledby") == "curtain-title"
        assert "Hand the tablet to" in page.locator("#curtain-title").inner_text()
        assert page.evaluate("document.activeElement.id") == "curtain-go"
        for _ in range(6):
            page.keyboard.press("Tab")
            assert focus_is_in(page, "#curtain"), "Tab reached the game behind the screen"
        # Escape never lifts it: only the side whose screen it is, by its button.
        page.keyboard.press("Escape")
        assert page.locator("#curtain[open]").count() == 1
        # Nothing behind it takes the focus while it stands.
        assert (
            page.evaluate("document.getElementById('los-tool').focus(), document.activeElement.id")
            != "los-tool"
        )
        page.focus("#curtain-go")
        page.keyboard.press("Enter")
        page.wait_for_selector("#curtain", state="hidden")
        page.wait_for_selector("#dock")
        app.assert_no_errors()
    finally:
        app.context.close()


def colours(page, selector: str) -> tuple[str, str]:
    return tuple(
        page.evaluate(
            "(s) => { const c = getComputedStyle(document.querySelector(s));"
            " return [c.color, c.backgroundColor]; }",
            selector,
        )
    )


def test_dark_theme_follows_the_system_and_the_switch(browser, site_url):
    app = open_demo(browser, site_url, "demo-hohenbrueck", "dark", DESKTOP)
    page = app.page
    try:
        panel_dark = colours(page, "#panel")
        app2 = open_demo(browser, site_url, "demo-hohenbrueck", "light", DESKTOP)
        try:
            panel_light = colours(app2.page, "#panel")
        finally:
            app2.context.close()
        assert panel_dark != panel_light
        # The switch overrides the system: light on a dark system, and back to automatic.
        page.click("#settings-button")
        page.select_option("#theme", "light")
        page.wait_for_function("document.documentElement.dataset.theme === 'light'")
        assert colours(page, "#panel") == panel_light
        page.reload()
        page.wait_for_selector("html[data-ready='1']", state="attached")
        assert colours(page, "#panel") == panel_light, "the theme chosen is not remembered"
        page.click("#settings-button")
        page.select_option("#theme", "auto")
        page.wait_for_function("!document.documentElement.dataset.theme")
        assert colours(page, "#panel") == panel_dark
        app.assert_no_errors()
    finally:
        app.context.close()


def test_forced_colours_keep_the_map_painted(browser, site_url):
    """Windows high contrast takes the page's colours, never the printed map's: the map looks
    the same as without it, pixel for pixel."""
    shots = []
    for forced in ("none", "active"):
        app = open_app(
            browser, f"{site_url}?scenario=demo-valmont", forced_colors=forced, **DESKTOP
        )
        try:
            settle(app.page)
            shots.append(app.page.locator("#map").screenshot())
            if forced == "active":
                # The page itself does take the system's colours (the test can tell).
                assert app.page.evaluate("matchMedia('(forced-colors: active)').matches"), (
                    "forced colours not in effect"
                )
            app.assert_no_errors()
        finally:
            app.context.close()
    assert differing_pixels(browser, *shots) < 0.005


def differing_pixels(browser, a: bytes, b: bytes) -> float:
    """The share of pixels of two same-sized PNG pictures that differ visibly (by more than
    24 in a channel: antialiasing may differ by a little)."""
    context = browser.new_context()
    try:
        page = context.new_page()
        return page.evaluate(
            """async ([a, b]) => {
              const load = (data) => new Promise((ok, fail) => {
                const img = new Image(); img.onload = () => ok(img); img.onerror = fail;
                img.src = 'data:image/png;base64,' + data; });
              const [x, y] = [await load(a), await load(b)];
              if (x.width !== y.width || x.height !== y.height) return 1;
              const pixels = (img) => { const c = document.createElement('canvas');
                c.width = img.width; c.height = img.height; const g = c.getContext('2d');
                g.drawImage(img, 0, 0); return g.getImageData(0, 0, c.width, c.height).data; };
              const [p, q] = [pixels(x), pixels(y)];
              let n = 0;
              for (let i = 0; i < p.length; i += 4) {
                if (Math.abs(p[i] - q[i]) > 24 || Math.abs(p[i + 1] - q[i + 1]) > 24 ||
                    Math.abs(p[i + 2] - q[i + 2]) > 24) n++;
              }
              return n / (p.length / 4);
            }""",
            [base64.b64encode(a).decode(), base64.b64encode(b).decode()],
        )
    finally:
        context.close()


def test_print_shows_the_map_and_the_log_without_the_controls(browser, site_url):
    app = open_demo(browser, site_url, "demo-hohenbrueck", "dark", DESKTOP)
    page = app.page
    try:
        start_game(page)
        page.emulate_media(media="print")
        shown = page.evaluate(
            """() => Object.fromEntries(['#map', '#log-panel', '#new-game', '#los-tool',
                '#goto-form', '#settings-button', '.end-choice button'].map(s => {
                  const e = document.querySelector(s);
                  return [s, !!e && e.getClientRects().length > 0];
                }))"""
        )
        assert shown["#map"] and shown["#log-panel"], shown
        assert not any(
            shown[s]
            for s in (
                "#new-game",
                "#los-tool",
                "#goto-form",
                "#settings-button",
                ".end-choice button",
            )
        ), shown
        # Printed in the light colours even on a dark screen.
        assert colours(page, "body")[1] == "rgb(255, 255, 255)"
        app.assert_no_errors()
    finally:
        app.context.close()


LAYOUT_SHIFT = """window.__cls = 0; new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value;
}).observe({type: 'layout-shift', buffered: true});"""


@pytest.mark.parametrize("size", [(412, 823), (820, 1180), (1366, 900)])
def test_the_page_does_not_shift_while_it_starts(browser, site_url, size):
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]},
        has_touch=size[0] < 900,
        is_mobile=size[0] < 900,
    )
    context.add_init_script(LAYOUT_SHIFT)
    try:
        page = context.new_page()
        page.goto(site_url)
        page.wait_for_selector("html[data-ready='1']", state="attached", timeout=60_000)
        settle(page)
        assert page.evaluate("window.__cls") < 0.1
    finally:
        context.close()
