"""Everything by keyboard alone: in each demo a unit moved and a fight fought to its result
with the map's cursor (arrows, Enter), the panel's buttons (Tab, Enter) and the shortcuts, the
focus always where a keyboard player looks next; `?` lists the keys, `u` undoes, Escape
cancels a selection; the file pickers are buttons Tab reaches. No click or tap after the page
opened."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from apppage import open_app, settle
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
DESKTOP = {"viewport": {"width": 1366, "height": 900}}


def scenario(demo: str) -> dict:
    return json.loads((ROOT / "py" / "muster" / "scenarios" / f"{demo}.json").read_text())


def open_demo(browser, site_url, demo: str):
    return open_app(browser, f"{site_url}?scenario={demo}&lang=en", **DESKTOP)


# ---- what a keyboard player does and sees ------------------------------------------------


def key(page, name: str) -> None:
    """Press a key once the panel has settled (it ignores a second press this soon)."""
    settle(page)
    page.keyboard.press(name)


def focused(page) -> str:
    """The element that has the focus, as a short description (for messages)."""
    return page.evaluate(
        """() => { const a = document.activeElement;
          if (!a || a === document.body) return 'body';
          const cls = typeof a.className === 'string' ? a.className.trim() : '';
          return a.tagName.toLowerCase() + (a.id ? '#' + a.id : '') +
            (cls ? '.' + cls.split(/ +/).join('.') : '') + ' "' + a.textContent.trim() + '"'; }"""
    )


def focus_on(page, selector: str) -> None:
    """The focus is on the element matching ``selector`` (waited for: the panel redraws)."""
    settle(page)
    try:
        page.wait_for_function(
            "(s) => document.activeElement && document.activeElement.matches(s)",
            arg=selector,
            timeout=5000,
        )
    except PlaywrightTimeout:
        pytest.fail(f"the focus is on {focused(page)}, not on {selector}")


def tab_to(page, selector: str, limit: int = 40) -> None:
    """Tab until the focus is on ``selector``."""
    for _ in range(limit):
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    pytest.fail(f"Tab never reached {selector}; the focus is on {focused(page)}")


def said(page, root: str) -> str:
    """What the map's live region says of the place under the cursor."""
    return page.locator(f"{root} .pz-live").inner_text()


def cursor(page, root: str = "#map") -> str | None:
    node = page.locator(f"{root} [data-cursor]")
    return node.get_attribute("data-cursor") if node.count() else None


def centre(page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not drawn"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def walk_to(page, target: str, root: str = "#map", where: str | None = None) -> None:
    """Arrow keys, one at a time, until the cursor stands on ``target``: a hex number, or (on
    the area map) a stop drawn at ``where`` (a selector)."""
    goal = where or f"{root} [data-hex='{target}']"
    for _ in range(80):
        if cursor(page, root) == target:
            return
        x, y = centre(page, f"{root} [data-cursor]")
        tx, ty = centre(page, goal)
        dx, dy = tx - x, ty - y
        if abs(dx) >= abs(dy):
            arrow = "ArrowRight" if dx > 0 else "ArrowLeft"
        else:
            arrow = "ArrowDown" if dy > 0 else "ArrowUp"
        before = cursor(page, root)
        page.keyboard.press(arrow)
        if cursor(page, root) == before:  # that way is off the map: the other axis first
            if arrow in ("ArrowRight", "ArrowLeft"):
                page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")
            else:
                page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
    pytest.fail(f"the cursor never reached {target}: it is on {cursor(page, root)}")


def jump_to(page, target: str, root: str) -> None:
    """Page Down, one at a time, until the cursor stands on ``target`` (a lit block or place)."""
    for _ in range(40):
        if cursor(page, root) == target:
            return
        page.keyboard.press("PageDown")
    pytest.fail(f"Page Down never reached {target}: the cursor is on {cursor(page, root)}")


def arrows_go_their_way(page, root: str) -> None:
    """Each arrow moves the cursor that way on the screen (or leaves it at the edge), and the
    live region says where it is."""
    steps = {"ArrowRight": (1, 0), "ArrowLeft": (-1, 0), "ArrowDown": (0, 1), "ArrowUp": (0, -1)}
    moved = 0
    for arrow, (ux, uy) in list(steps.items()) * 2:
        x, y = centre(page, f"{root} [data-cursor]")
        before = cursor(page, root)
        page.keyboard.press(arrow)
        if cursor(page, root) == before:
            continue
        moved += 1
        nx, ny = centre(page, f"{root} [data-cursor]")
        assert (nx - x) * ux + (ny - y) * uy > 0, (arrow, before, cursor(page, root))
        assert said(page, root)
    assert moved >= 4


def roll_out(page) -> None:
    """Whatever dice the result still asks for (a test of the unit hit, say): each time the
    focus is on Roll, and Enter rolls; then no die waits."""
    for _ in range(6):
        settle(page)
        if not page.locator("#roll").count():
            return
        focus_on(page, "#roll")
        page.keyboard.press("Enter")
    pytest.fail("the dice never ended")


def log_text(page) -> str:
    return page.locator("#log-panel").inner_text()


def start_by_keyboard(page) -> None:
    """Tab to New game and press it, as a keyboard player starts."""
    tab_to(page, "#new-game")
    page.keyboard.press("Enter")
    page.wait_for_selector("#dock, #curtain:not([hidden]) #curtain-go")


def pass_the_screen(page, side: str) -> None:
    """The privacy screen: its button has the focus; Enter shows that side's screen."""
    page.wait_for_selector(f"#curtain:not([hidden]) #curtain-go[data-side='{side}']")
    focus_on(page, "#curtain-go")
    key(page, "Enter")
    page.wait_for_selector("#curtain", state="hidden")
    page.wait_for_selector(f"#dock .side-chip[data-side='{side}']")


def nearest_lit(page, hex_: str) -> str:
    """The lit hex nearest ``hex_`` on the screen (where the selected unit may go)."""
    page.wait_for_selector("#map .hm-lit[data-lit]", state="attached")
    x, y = centre(page, f"#map [data-hex='{hex_}']")
    lit = page.locator("#map .hm-lit[data-lit]")
    spots = []
    for i in range(lit.count()):
        box = lit.nth(i).bounding_box()
        d = (box["x"] + box["width"] / 2 - x) ** 2 + (box["y"] + box["height"] / 2 - y) ** 2
        spots.append((d, lit.nth(i).get_attribute("data-lit")))
    return min(spots)[1]


def unit_at(page, unit: str) -> str | None:
    return page.locator(f"#map [data-unit='{unit}']").first.get_attribute("data-at")


# ---- hex-facing: Valmont -----------------------------------------------------------------


def test_valmont_fire_and_a_move_by_keyboard(browser, site_url):
    app = open_demo(browser, site_url, "demo-valmont")
    page = app.page
    try:
        units = {u["id"]: u for u in scenario("demo-valmont")["units"]}
        start_by_keyboard(page)
        # A chance point: the focus is on its Roll; the face of the marker drawn at the table
        # is a Tab away.
        focus_on(page, "#roll")
        tab_to(page, "button.face[data-value='fr-art']")
        key(page, "Enter")
        page.wait_for_selector("#dock button.fight")
        assert page.locator("#dock .side-chip").get_attribute("data-side") == "france"
        # The map by its key; the cursor to the battery Lemoine, Enter selects it.
        key(page, "m")
        focus_on(page, "#map")
        gun = units["fr-a-1"]
        walk_to(page, gun["hex"])
        assert gun["name"] in said(page, "#map")
        key(page, "Enter")
        page.wait_for_selector("#dock .selected-bar[data-unit='fr-a-1']")
        focus_on(page, "#map")
        assert "selected" in said(page, "#map")
        # Its target: the lit hex 0805; Enter there previews the fire, the focus on Confirm.
        walk_to(page, "0805")
        assert "a tap here acts" in said(page, "#map")
        key(page, "Enter")
        page.wait_for_selector("#preview")
        focus_on(page, "#preview #confirm")
        key(page, "Enter")
        # The fire's die: Roll has the focus; rolled, the result is logged and the focus goes
        # back to the map, where the fire began.
        focus_on(page, "#roll")
        key(page, "Enter")
        page.wait_for_function(
            "document.getElementById('log-panel').innerText.includes('Fire: total')"
        )
        assert "fire at 0805" in log_text(page)
        roll_out(page)
        focus_on(page, "#map")
        # `e` ends the fire step; the battery Daru moves by the cursor and Enter.
        key(page, "e")
        page.wait_for_selector("#dock button.unit-pick[data-unit='fr-a-2']")
        focus_on(page, "#map")
        daru = units["fr-a-2"]
        walk_to(page, daru["hex"])
        key(page, "Enter")
        page.wait_for_selector("#dock .selected-bar[data-unit='fr-a-2']")
        to = nearest_lit(page, daru["hex"])
        walk_to(page, to)
        key(page, "Enter")
        # The facing it must take after the move: Enter on the unit lists the facings, the
        # focus on the first; Enter takes it.
        page.wait_for_function("document.getElementById('prompt').innerText.includes('facing')")
        assert unit_at(page, "fr-a-2") == to
        focus_on(page, "#map")
        key(page, "Enter")
        page.wait_for_selector("#picker")
        focus_on(page, "#picker .pick-row")
        key(page, "Enter")
        page.wait_for_selector("#picker", state="detached")
        page.wait_for_function("!document.getElementById('prompt').innerText.includes('facing')")
        focus_on(page, "#map")
        assert unit_at(page, "fr-a-2") == to
        assert page.locator("#dock .side-chip").get_attribute("data-side") == "france"
        # `u` undoes the facing: it is asked again; `r` takes it again; Ctrl+Z undoes it again.
        facing = "document.getElementById('prompt').innerText.includes('facing')"
        key(page, "u")
        page.wait_for_function(facing)
        focus_on(page, "#map")
        key(page, "r")
        page.wait_for_function("!" + facing)
        key(page, "Control+z")
        page.wait_for_function(facing)
        assert unit_at(page, "fr-a-2") == to
        focus_on(page, "#map")
        app.assert_no_errors()
    finally:
        app.context.close()


# ---- hex-hexside: Hohenbrück ---------------------------------------------------------------


def test_hohenbrueck_a_move_and_a_bombardment_by_keyboard(browser, site_url):
    app = open_demo(browser, site_url, "demo-hohenbrueck")
    page = app.page
    try:
        units = {u["id"]: u for u in scenario("demo-hohenbrueck")["units"]}
        start_by_keyboard(page)
        # The movement phase: the focus lands on the dock's first choice, the way on.
        focus_on(page, "#dock button.end")
        assert page.locator("#dock .side-chip").get_attribute("data-side") == "prussia"
        key(page, "m")
        focus_on(page, "#map")
        # A unit selected by Enter, then Escape: the selection is cancelled, the map keeps
        # the focus.
        ir13 = units["pr-ir13"]
        walk_to(page, ir13["hex"])
        key(page, "Enter")
        page.wait_for_selector("#dock .selected-bar[data-unit='pr-ir13']")
        key(page, "Escape")
        page.wait_for_selector("#dock .selected-bar", state="detached")
        focus_on(page, "#map")
        # IR 21 moves: Enter on it, the cursor to a lit hex, Enter.
        ir21 = units["pr-ir21"]
        walk_to(page, ir21["hex"])
        key(page, "Enter")
        page.wait_for_selector("#dock .selected-bar[data-unit='pr-ir21']")
        to = nearest_lit(page, ir21["hex"])
        walk_to(page, to)
        key(page, "Enter")
        page.wait_for_function(
            "([u, h]) => { const c = document.querySelector(`#map [data-unit='${u}']`);"
            " return c && c.dataset.at === h; }",
            arg=["pr-ir21", to],
        )
        focus_on(page, "#map")
        # `e`: the bombardment phase (asked first: units have not moved; `e` again ends it).
        # The gun by the cursor, its target lit; Enter previews.
        key(page, "e")
        page.wait_for_selector("#ask-unused")
        key(page, "e")
        page.wait_for_function(
            "document.getElementById('prompt').innerText.includes('bombardment phase')"
        )
        gun = units["pr-art2"]
        walk_to(page, gun["hex"])
        key(page, "Enter")
        page.wait_for_selector("#dock .selected-bar[data-unit='pr-art2']")
        walk_to(page, "0903")
        key(page, "Enter")
        page.wait_for_selector("#preview")
        focus_on(page, "#preview #confirm")
        # Escape drops the preview and gives the map the focus back; Enter previews again.
        key(page, "Escape")
        page.wait_for_selector("#preview", state="detached")
        focus_on(page, "#map")
        key(page, "Enter")
        page.wait_for_selector("#preview")
        focus_on(page, "#preview #confirm")
        key(page, "Enter")
        focus_on(page, "#roll")
        key(page, "Enter")
        page.wait_for_function(
            "document.getElementById('log-panel').innerText.includes('bombards 0903')"
        )
        assert gun["name"] + " bombards 0903" in log_text(page)
        roll_out(page)
        focus_on(page, "#map")
        # `?` lists the keys, Undo among them; Escape closes the list, the map has the focus.
        key(page, "?")
        page.wait_for_selector("#keys-dialog[open]")
        keys = page.locator("#keys-body").inner_text()
        assert "Undo" in keys and "Redo" in keys and "Go to a hex" in keys
        key(page, "Escape")
        page.wait_for_selector("#keys-dialog:not([open])", state="attached")
        focus_on(page, "#map")
        # `g` goes to the hex number; typed and entered, the cursor stands on that hex.
        key(page, "g")
        focus_on(page, "#goto-input")
        page.keyboard.type("0705")
        page.keyboard.press("Enter")
        focus_on(page, "#map")
        assert cursor(page) == "0705"
        assert said(page, "#map").startswith("Hex 0705")
        app.assert_no_errors()
    finally:
        app.context.close()


# ---- area-locale: Fontanella -----------------------------------------------------------------


def test_fontanella_a_move_and_an_assault_by_keyboard(browser, site_url):
    app = open_demo(browser, site_url, "demo-fontanella")
    page = app.page
    try:
        start_by_keyboard(page)
        pass_the_screen(page, "austria")
        focus_on(page, "#dock button.end")
        # IR Thurn (Cascina Rovere): the cursor to it, Enter selects it; the cursor to the
        # lit approach facing Torre Bianca, Enter moves it there.
        key(page, "m")
        focus_on(page, "#area-map")
        arrows_go_their_way(page, "#area-map")
        jump_to(page, "a09", "#area-map")
        assert "IR Thurn (Austria)" in said(page, "#area-map")
        # Enter is a tap: on a block no other block is drawn over (it stands beside the
        # others of its locale), it selects that block at once; the map keeps the focus.
        key(page, "Enter")
        page.wait_for_selector("#area-map [data-lit='rovere/torrebianca']", state="attached")
        assert page.locator("#picker").count() == 0
        focus_on(page, "#area-map")
        jump_to(page, "rovere/torrebianca", "#area-map")
        assert "Cascina Rovere → Torre Bianca" in said(page, "#area-map")
        key(page, "Enter")
        page.wait_for_function(
            "document.getElementById('log-panel').innerText.includes('Moved: IR Thurn')"
        )
        focus_on(page, "#area-map")
        walk_to(page, "a09", "#area-map", "#area-map [data-piece='a09']")
        assert "on the approach Cascina Rovere → Torre Bianca" in said(page, "#area-map")
        # `e` ends the movement (asked first: commands unused; `e` again ends it); the tablet
        # goes to France behind the privacy screen.
        key(page, "e")
        page.wait_for_selector("#ask-unused")
        key(page, "e")
        pass_the_screen(page, "france")
        assert "France: assaults" in page.locator("#prompt").inner_text()
        # France assaults from its approach facing Cascina Rovere: PageDown jumps the cursor
        # to what a tap acts on, Enter takes it.
        key(page, "m")
        focus_on(page, "#area-map")
        jump_to(page, "torrebianca/rovere", "#area-map")
        key(page, "Enter")
        page.wait_for_function(
            "document.getElementById('prompt').innerText.includes('choose the leading blocks')"
        )
        # Its leading block from the dock: `c` goes to the choices, Enter takes the first.
        key(page, "c")
        focus_on(page, "#dock button[data-action='lead']")
        key(page, "Enter")
        # Austria defends: the screen passes, the focus is on the first choice; Tab to IR Thurn.
        pass_the_screen(page, "austria")
        focus_on(page, "#dock button")
        tab_to(page, "#dock button[data-action='lead'][data-unit='a09']")
        key(page, "Enter")
        # The assault is settled: the log says who won, on this screen or (when the loser's
        # losses are the other side's to take) behind the next privacy screen.
        page.wait_for_function(
            "document.getElementById('log-panel').innerText.includes('Assault:')"
            " || document.querySelector('#curtain:not([hidden]) #curtain-go')"
        )
        go = page.locator("#curtain:not([hidden]) #curtain-go")
        if go.count():
            pass_the_screen(page, go.get_attribute("data-side"))
        page.wait_for_function(
            "document.getElementById('log-panel').innerText.includes('Assault:')"
        )
        assert " wins" in log_text(page)
        focus_on(page, "#dock button")
        app.assert_no_errors()
    finally:
        app.context.close()


# ---- the file pickers ---------------------------------------------------------------------------


def test_the_file_pickers_are_buttons_tab_reaches(browser, site_url):
    app = open_demo(browser, site_url, "demo-valmont")
    page = app.page
    try:
        # Which file field a press opened (its picker is the browser's: kept shut here).
        page.evaluate(
            """() => { window.opened = [];
              document.querySelectorAll('input[type=file]').forEach((f) =>
                f.addEventListener('click', (e) => { window.opened.push(f.id);
                                                     e.preventDefault(); })); }"""
        )
        for button, field in (("#open-scenario", "scenario-file"), ("#load-game", "save-file")):
            page.evaluate("document.activeElement && document.activeElement.blur()")
            tab_to(page, button)
            assert page.locator(button).is_visible()
            page.keyboard.press("Enter")
            page.wait_for_function("(f) => window.opened.includes(f)", arg=field)
        assert page.evaluate("window.opened") == ["scenario-file", "save-file"]
        # The header's help button opens the list of keys too; Escape gives the focus back.
        tab_to(page, "#help-button")
        page.keyboard.press("Enter")
        page.wait_for_selector("#keys-dialog[open]")
        assert "Undo" in page.locator("#keys-body").inner_text()
        page.keyboard.press("Escape")
        page.wait_for_selector("#keys-dialog:not([open])", state="attached")
        focus_on(page, "#help-button")
        # Their words are the buttons' own, in the language chosen.
        assert page.locator("#open-scenario").inner_text() == "Open scenario…"
        assert page.locator("#load-game").inner_text() == "Load a saved game…"
        app.assert_no_errors()
    finally:
        app.context.close()
