"""The scenario editor's shell in the app (static/editor/editor.js): opened from the header on
the tablet with touch and on a desktop; New, undo and redo, the core's check of every change,
the draft kept on the device across a reload, Open and Export, the picture underneath and its
alignment, and Play this starting a game of the draft."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from apppage import open_app, tablet
from editorpage import draft, new_scenario, open_editor, png, status, wait_checked, wait_editor

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "py" / "muster" / "scenarios"
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


def demo(name: str) -> dict[str, Any]:
    return json.loads((SCENARIOS / f"{name}.json").read_text())


def test_the_editor_opens_on_the_tablet_with_its_panel_below_the_map(browser, site_url):
    app = open_app(browser, site_url, **tablet())
    page = app.page
    # On a tablet the header shows the Editor's sign, named for a screen reader.
    assert page.get_by_role("button", name="Editor", exact=True).is_visible()
    open_editor(page)
    assert page.locator("main.layout").is_hidden()
    assert page.locator("#goto-form").is_hidden() and page.locator("#open-scenario").is_hidden()
    for name in ["editor-back", "editor-new", "editor-open", "editor-export", "editor-play"]:
        assert page.locator(f"#{name}").is_visible(), name
    # Nothing to undo or redo yet.
    assert page.locator("#editor-undo").is_disabled()
    assert page.locator("#editor-redo").is_disabled()
    # Portrait: the side panel below a large map, the status line always in sight.
    map_box = page.locator("#editor-map").bounding_box()
    side_box = page.locator(".editor-side").bounding_box()
    assert side_box["y"] >= map_box["y"] + map_box["height"] - 1
    assert map_box["width"] >= 800 and map_box["height"] >= 400
    assert page.locator("#editor-status").is_visible()
    assert "loads" in status(page)
    # Every control of the bar and the tabs takes a finger.
    buttons = page.locator(".editor-bar button:visible, .editor-tabs button")
    for i in range(buttons.count()):
        box = buttons.nth(i).bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, buttons.nth(i).inner_text()
    # The tabs: Scenario shows the draft's title and system in words.
    page.locator("#editor-tab-scenario").tap()
    assert page.locator("#editor-panel-scenario").is_visible()
    assert page.locator("#editor-panel-map").is_hidden()
    assert page.locator("#editor-title").input_value() == draft(page)["title"]
    assert "hex-hexside" in page.locator("#editor-system").inner_text()
    # Back to play: the play screen as it was, the editor hidden.
    page.locator("#editor-back").tap()
    assert page.locator("#editor").is_hidden()
    assert page.locator("main.layout").is_visible()
    assert page.locator("#new-game").is_visible()
    app.assert_no_errors()
    app.context.close()


def test_new_hex_map_of_the_asked_size_with_undo_and_redo(browser, site_url):
    app = open_app(browser, site_url, **DESKTOP)
    page = app.page
    open_editor(page)
    # Desktop: the side panel beside the map.
    map_box = page.locator("#editor-map").bounding_box()
    side_box = page.locator(".editor-side").bounding_box()
    assert side_box["x"] >= map_box["x"] + map_box["width"] - 1
    new_scenario(
        page,
        {
            "#editor-new-title": "Kolin",
            "#editor-new-columns": "7",
            "#editor-new-rows": "5",
            "#editor-new-first-column": "0",
            "#editor-new-first-row": "3",
        },
        {
            "#editor-new-system": "hex-facing",
            "#editor-new-orientation": "pointy",
            "#editor-new-stagger": "odd",
        },
    )
    page.wait_for_function("window.musterEditor.draft.scenario.title === 'Kolin'")
    wait_checked(page)
    m = draft(page)["map"]
    assert draft(page)["system"] == "hex-facing"
    assert (m["columns"], m["rows"], m["first_column"], m["first_row"]) == (7, 5, 0, 3)
    assert (m["orientation"], m["stagger"]) == ("pointy", "odd")
    assert page.locator("#editor").get_attribute("data-loads") == "yes"
    assert status(page).startswith("New scenario: paint the map")

    # A change through the draft, undone and redone by the buttons and the keys.
    page.evaluate(
        "window.musterEditor.draft.change(s => { s.title = 'Kolin 1757'; }, 'editor.step_title')"
    )
    assert page.locator("#editor-undo").is_enabled()
    assert page.locator("#editor-redo").is_disabled()
    assert page.locator("#editor-undo").get_attribute("title") == "Undo: the title"
    page.locator("#editor-undo").click()
    assert draft(page)["title"] == "Kolin"
    assert page.locator("#editor-redo").is_enabled()
    page.locator("#editor-redo").click()
    assert draft(page)["title"] == "Kolin 1757"
    page.locator("#editor-say").click()  # the focus off the bar, on the page
    page.keyboard.press("Control+z")
    assert draft(page)["title"] == "Kolin"
    page.keyboard.press("Control+Shift+z")
    assert draft(page)["title"] == "Kolin 1757"
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+y")
    assert draft(page)["title"] == "Kolin 1757"
    # Undo back past the New: the draft before it.
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+z")
    assert draft(page)["system"] == "hex-hexside"
    page.keyboard.press("Control+y")
    page.keyboard.press("Control+y")
    assert draft(page)["title"] == "Kolin 1757"
    # Typing in a field is typing: Ctrl+Z there is the field's own.
    page.locator("#editor-tab-scenario").click()
    page.locator("#editor-title").fill("Kolin, June 1757")
    page.keyboard.press("Control+z")
    assert draft(page)["title"] == "Kolin 1757"
    page.locator("#editor-title").fill("Kolin, June 1757")
    page.locator("#editor-title").press("Tab")  # the change is one step
    assert draft(page)["title"] == "Kolin, June 1757"
    assert page.locator("#editor-undo").get_attribute("title") == "Undo: the title"
    # At most 200 steps are kept.
    page.evaluate(
        "for (let i = 0; i < 230; i++)"
        " window.musterEditor.draft.change(s => { s.turns = 1 + (i % 20); }, 'editor.step_turns')"
    )
    assert page.evaluate("window.musterEditor.draft.past.length") == 200
    app.assert_no_errors()
    app.context.close()


def test_every_change_is_checked_and_its_place_shown(browser, site_url):
    app = open_app(browser, site_url, **DESKTOP)
    page = app.page
    open_editor(page)
    page.evaluate(
        """() => {
        window.__places = [];
        const parts = window.musterEditor.parts;
        const spy = parts.map || (parts.map = {});
        const own = spy.highlight ? spy.highlight.bind(spy) : () => {};
        spy.highlight = (p) => { window.__places.push(p); own(p); };
    }"""
    )
    page.evaluate(
        "window.musterEditor.draft.change(s => { s.map.hexes['2929'] = {terrain: ['woods']}; })"
    )
    page.wait_for_function("document.querySelector('#editor-status').dataset.kind === 'error'")
    text = status(page)
    assert text.startswith("Does not load yet: hex 2929:"), text
    assert "not on the map" in text
    assert page.evaluate("window.__places") == [{"kind": "hex", "id": "2929"}]
    # A quick second change: the answer to the first is not shown over the second's.
    page.evaluate(
        """() => {
        const d = window.musterEditor.draft;
        d.change(s => { s.map.hexes['2929'] = {terrain: ['wods']}; });
        d.undo();
        d.undo();
    }"""
    )
    page.wait_for_function("document.querySelector('#editor-status').dataset.kind === 'ok'")
    page.evaluate("window.musterEditor.checked()")
    assert page.locator("#editor-status").get_attribute("data-kind") == "ok"
    assert page.evaluate("window.__places")[-1] is None
    app.assert_no_errors()
    app.context.close()


def test_the_draft_and_its_picture_survive_a_reload(browser, site_url):
    app = open_app(browser, site_url, **tablet())
    page = app.page
    open_editor(page)
    page.evaluate(
        "window.musterEditor.draft.change(s => { s.title = 'Kept'; s.map.hexes['0203'] ="
        " {terrain: ['woods']}; }, 'editor.step_title')"
    )
    picture = {"name": "map.png", "mimeType": "image/png", "buffer": png(64, 48)}
    page.set_input_files("#editor-picture-file", files=[picture])
    page.wait_for_function("document.querySelector('#editor-say').textContent.includes('map.png')")
    assert status(page).startswith("Picture map.png is under the map.")
    page.evaluate("window.musterEditor.saved()")
    image = page.locator("#editor-map image")
    assert image.count() == 1
    assert image.get_attribute("href").startswith("blob:")
    pic = page.evaluate("window.musterEditor.picture.current")
    assert (pic["width"], pic["height"], pic["name"]) == (64, 48, "map.png")
    page.locator("#editor-tab-scenario").tap()
    page.locator("#editor-opacity").fill("30")
    page.evaluate("window.musterEditor.saved()")
    assert page.evaluate("window.musterEditor.picture.current.opacity") == 0.3
    # The address says the editor is open: a reload comes back into it, with the draft.
    assert "editor=1" in page.url
    page.reload()
    wait_editor(page)
    assert draft(page)["title"] == "Kept"
    assert draft(page)["map"]["hexes"]["0203"] == {"terrain": ["woods"]}
    page.wait_for_function("window.musterEditor.picture.current")
    pic = page.evaluate("window.musterEditor.picture.current")
    assert (pic["width"], pic["height"], pic["opacity"]) == (64, 48, 0.3)
    assert page.locator("#editor-map image").count() == 1
    # Nothing to undo after a reload: the draft is where it was left.
    assert page.locator("#editor-undo").is_disabled()
    # The header's button, after Back to play, opens the same draft.
    page.locator("#editor-back").tap()
    assert "editor" not in page.url
    page.locator("#open-editor").tap()
    page.wait_for_selector("#editor:not([hidden])")
    assert draft(page)["title"] == "Kept"
    # A picture taken away leaves the store once no draft names it.
    page.locator("#editor-tab-scenario").tap()
    page.locator("#editor-picture-remove").tap()
    page.evaluate("window.musterEditor.saved()")
    ids = page.evaluate("window.musterEditor.store.pictureIds()")
    assert ids == []
    app.assert_no_errors()
    app.context.close()


def test_open_refuses_a_bad_file_and_takes_a_good_one(browser, site_url):
    app = open_app(browser, site_url, **DESKTOP)
    page = app.page
    open_editor(page)
    page.evaluate("window.musterEditor.draft.change(s => { s.title = 'Mine'; })")
    before = draft(page)
    bad = demo("demo-valmont")
    bad["units"][2]["side"] = "zz"
    name = bad["units"][2]["name"]
    files = [
        {"name": "bad.json", "mimeType": "application/json", "buffer": json.dumps(bad).encode()}
    ]
    page.set_input_files("#editor-open-file", files=files)
    page.wait_for_function("document.querySelector('#editor-say').textContent.includes('bad.json')")
    text = status(page)
    # The unit is named as the file names it, not by its id.
    assert text.startswith(f"bad.json cannot be opened: unit “{name}”: "), text
    assert '"zz"' in text and text.endswith("The draft is unchanged.")
    assert draft(page) == before
    assert page.evaluate("window.musterEditor.draft.past.length") == 1
    not_json = [{"name": "notes.json", "mimeType": "application/json", "buffer": b"{oops"}]
    page.set_input_files("#editor-open-file", files=not_json)
    page.wait_for_function("document.querySelector('#editor-say').textContent.includes('notes')")
    assert "notes.json cannot be opened: it is not a JSON scenario" in status(page)
    assert draft(page) == before
    # A good file: asked first (the draft has changes), then one step of undo.
    good = demo("demo-valmont")
    files = [
        {
            "name": "valmont.json",
            "mimeType": "application/json",
            "buffer": json.dumps(good).encode(),
        }
    ]
    page.set_input_files("#editor-open-file", files=files)
    page.wait_for_selector("#ask[open]")
    assert "Mine" in page.locator("#ask").inner_text()
    page.locator("#ask-ok").click()
    page.wait_for_function("window.musterEditor.draft.scenario.id === 'demo-valmont'")
    assert draft(page) == good
    wait_checked(page)
    assert page.locator("#editor-status").get_attribute("data-kind") == "info"
    assert "Opened valmont.json" in status(page)
    page.locator("#editor-undo").click()
    assert draft(page) == before
    app.assert_no_errors()
    app.context.close()


def test_export_downloads_the_draft_even_when_it_does_not_load_yet(browser, site_url):
    app = open_app(browser, site_url, **DESKTOP, accept_downloads=True)
    page = app.page
    open_editor(page)
    page.evaluate("window.musterEditor.draft.change(s => { s.title = 'Leuthen: 1757'; })")
    wait_checked(page)
    with page.expect_download() as info:
        page.locator("#editor-export").click()
    download = info.value
    assert download.suggested_filename == "Leuthen 1757.json"
    text = Path(download.path()).read_text()
    assert json.loads(text) == draft(page)
    assert text.startswith('{\n  "format"')  # pretty-printed
    page.wait_for_function("document.querySelector('#editor-say').textContent.includes('Exported')")
    assert status(page) == "Exported to the file Leuthen 1757.json."
    # A draft that does not load is exported all the same, with a word saying so.
    page.evaluate("window.musterEditor.draft.change(s => { s.units = [{id: 'x'}]; })")
    wait_checked(page)
    with page.expect_download() as info:
        page.locator("#editor-export").click()
    assert json.loads(Path(info.value.path()).read_text())["units"] == [{"id": "x"}]
    page.wait_for_function("document.querySelector('#editor-say').textContent.includes('Exported')")
    assert "but it does not load yet" in status(page)
    assert page.locator("#editor-status").get_attribute("data-kind") == "error"
    app.assert_no_errors()
    app.context.close()


ALIGN = """([a, b, c, d]) => {
    const m = window.musterEditor.similarity(a, b, c, d);
    const at = (p) => ({x: m[0] * p.x + m[2] * p.y + m[4], y: m[1] * p.x + m[3] * p.y + m[5]});
    return {m, p1: at(a), p2: at(b)};
}"""


def test_alignment_takes_two_picture_points_exactly_to_their_map_points(browser, site_url):
    app = open_app(browser, site_url, **tablet())
    page = app.page
    open_editor(page)
    # The math: two points of the picture, two of the map; turned, scaled, shifted.
    for a, b, c, d in [
        ((10, 20), (110, 20), (0, 0), (200, 0)),  # scale 2
        ((0, 0), (100, 0), (50, 50), (50, 150)),  # a quarter turn
        ((123.5, 40.25), (870, 611), (-75, 86.6), (1425, 952.6)),
    ]:
        pts = [{"x": p[0], "y": p[1]} for p in (a, b, c, d)]
        got = page.evaluate(ALIGN, pts)
        for key, want in (("p1", c), ("p2", d)):
            assert got[key]["x"] == pytest.approx(want[0], abs=1e-9)
            assert got[key]["y"] == pytest.approx(want[1], abs=1e-9)
        m = got["m"]
        assert m[0] == pytest.approx(m[3]) and m[1] == pytest.approx(-m[2])  # no shear, no mirror
    assert (
        page.evaluate(
            ALIGN.replace("return {m, p1: at(a), p2: at(b)};", "return m;"),
            [{"x": 5, "y": 5}, {"x": 5, "y": 5}, {"x": 0, "y": 0}, {"x": 1, "y": 1}],
        )
        is None
    )
    # By touch: a picture under the map, two taps on it, each hex's number typed in.
    page.set_input_files(
        "#editor-picture-file",
        files=[{"name": "map.png", "mimeType": "image/png", "buffer": png(400, 300)}],
    )
    page.wait_for_function("window.musterEditor.picture.current")
    before = page.evaluate("window.musterEditor.picture.current.transform")
    page.locator("#editor-tab-scenario").tap()
    page.locator("#editor-align").tap()
    assert "1 of 2" in status(page)
    taps = [("0202", "0101"), ("0404", "0303")]
    tapped = []
    for at, number in taps:
        point = page.evaluate("(l) => window.musterEditor.parts.map.mapInfo().center(l)", at)
        client = page.evaluate("(p) => window.musterEditor.parts.map.map._mapToClient(p)", point)
        page.touchscreen.tap(client["x"], client["y"])
        page.wait_for_selector("#editor-hex-dialog[open]")
        page.fill("#editor-hex-input", number)
        page.locator("#editor-hex-dialog button.primary").tap()
        tapped.append(point)
    page.wait_for_function("document.querySelector('#editor-say').textContent.includes('aligned')")
    after = page.evaluate("window.musterEditor.picture.current.transform")
    assert after != before
    # Where each tap fell on the picture now lies on the centre of the hex typed in (within
    # the rounding of a tap to a screen pixel).
    for (_at, number), point in zip(taps, tapped, strict=True):
        want = page.evaluate("(l) => window.musterEditor.parts.map.mapInfo().center(l)", number)
        inv = page.evaluate(
            """([m, p]) => { const det = m[0] * m[3] - m[1] * m[2];
              const x = p.x - m[4], y = p.y - m[5];
              return {x: (m[3] * x - m[2] * y) / det, y: (m[0] * y - m[1] * x) / det}; }""",
            [before, point],
        )
        got = {
            "x": after[0] * inv["x"] + after[2] * inv["y"] + after[4],
            "y": after[1] * inv["x"] + after[3] * inv["y"] + after[5],
        }
        assert got["x"] == pytest.approx(want["x"], abs=3) and got["y"] == pytest.approx(
            want["y"], abs=3
        )
    app.assert_no_errors()
    app.context.close()


def test_play_this_starts_a_game_of_the_draft(browser, site_url):
    app = open_app(browser, site_url, **tablet())
    page = app.page
    open_editor(page)
    # New, then "Edit a copy of" the scenario in play (nothing to put aside: not asked).
    page.locator("#editor-new").tap()
    page.locator("#editor-new-from-play").tap()
    page.wait_for_function("window.musterEditor.draft.scenario.id === 'demo-hohenbrueck'")
    assert draft(page) == demo("demo-hohenbrueck")
    page.evaluate(
        "window.musterEditor.draft.change(s => {"
        " s.id = 'edited'; s.title = 'Hohenbrück, edited'; })"
    )
    wait_checked(page)
    # A draft that does not load is not played: its problem is said.
    page.evaluate("window.musterEditor.draft.change(s => { s.turns = 0; })")
    wait_checked(page)
    page.locator("#editor-play").tap()
    page.wait_for_function(
        "document.querySelector('#editor-say').textContent.includes('Cannot play')"
    )
    assert page.locator("#editor").is_visible()
    page.locator("#editor-undo").tap()
    wait_checked(page)
    page.locator("#editor-play").tap()
    page.wait_for_selector("#editor", state="hidden")
    assert page.locator("main.layout").is_visible()
    assert page.locator("#scenario-title").inner_text() == "Hohenbrück, edited"
    page.wait_for_selector("#play-panel #dock")
    page.wait_for_selector("#map [data-unit]")
    assert "editor" not in page.url
    # Back to the editor: the draft as it was; and playing again asks first (a game is on).
    page.locator("#open-editor").tap()
    page.wait_for_selector("#editor:not([hidden])")
    assert draft(page)["title"] == "Hohenbrück, edited"
    page.locator("#editor-play").tap()
    page.wait_for_selector("#ask[open]")
    assert "Saved games" in page.locator("#ask").inner_text()
    page.locator("#ask-cancel").tap()
    assert page.locator("#editor").is_visible()
    app.assert_no_errors()
    app.context.close()


def test_without_storage_the_editor_says_so_and_goes_on(browser, site_url):
    context = browser.new_context(**DESKTOP)
    context.add_init_script("Object.defineProperty(window, 'indexedDB', {value: undefined});")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(site_url + "?editor=1")
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=60_000)
    wait_editor(page)
    page.evaluate("window.musterEditor.draft.change(s => { s.title = 'Unkept'; })")
    page.evaluate("window.musterEditor.saved()")
    storage = page.locator("#editor-storage")
    storage.wait_for(state="visible")
    assert storage.inner_text() == (
        "The draft cannot be kept on this device (this browser keeps no data for this site):"
        " export it to keep your work."
    )
    assert draft(page)["title"] == "Unkept"
    assert errors == []
    context.close()


AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
# The shell's own parts of the page (the map editor and the panels are scanned by their tests).
SHELL = [
    ["header.bar"],
    [".editor-bar"],
    ["#editor-status"],
    [".editor-tabs"],
    ["#editor-panel-scenario"],
    ["#editor-new-dialog"],
]


def axe(page: Any, screen: str) -> list[str]:
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async ([tags, include]) => {
          const r = await axe.run({include}, {runOnly: {type: 'tag', values: tags},
                                             resultTypes: ['violations']});
          return r.violations.map(v => v.impact + ' ' + v.id + ': ' +
            v.nodes.slice(0, 4).map(n => n.target.join(' ')).join(' | '));
        }""",
        [AXE_TAGS, SHELL],
    )
    return [f"{screen}: {line}" for line in found]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_shell_passes_axe(browser, site_url, scheme):
    app = open_app(browser, site_url, color_scheme=scheme, **tablet())
    page = app.page
    open_editor(page)
    found = axe(page, "map tab")
    page.locator("#editor-tab-scenario").tap()
    page.evaluate("window.musterEditor.draft.change(s => { s.turns = 0; })")
    wait_checked(page)
    found += axe(page, "scenario tab, a problem")
    page.locator("#editor-new").tap()
    page.wait_for_selector("#editor-new-dialog[open]")
    found += axe(page, "new dialog")
    assert found == []
    app.assert_no_errors()
    app.context.close()


def test_the_drafts_on_the_device_are_listed_to_open_or_delete(browser, site_url):
    app = open_app(browser, site_url, **DESKTOP)
    page = app.page
    open_editor(page)
    page.evaluate("window.musterEditor.draft.change(s => { s.title = 'First'; })")
    first = page.evaluate("window.musterEditor.recordId")
    new_scenario(page, {"#editor-new-title": "Second"}, {"#editor-new-system": "area-locale"})
    # The draft on screen has changes: asked first, and told it stays in the list.
    page.wait_for_selector("#ask[open]")
    assert "First stays in the drafts" in page.locator("#ask").inner_text()
    page.locator("#ask-ok").click()
    page.wait_for_function("window.musterEditor.draft.scenario.title === 'Second'")
    assert draft(page)["map"]["kind"] == "areas"
    page.evaluate("window.musterEditor.saved()")
    page.locator("#editor-tab-scenario").click()
    rows = page.locator("#editor-drafts .editor-draft")
    page.wait_for_function("document.querySelectorAll('#editor-drafts .editor-draft').length === 2")
    assert rows.nth(0).locator(".editor-draft-title").inner_text() == "Second"
    assert "On screen now" in rows.nth(0).inner_text()
    rows.nth(1).locator(".editor-draft-open").click()
    page.wait_for_function("window.musterEditor.draft.scenario.title === 'First'")
    assert page.evaluate("window.musterEditor.recordId") == first
    assert draft(page)["system"] == "hex-hexside"
    page.wait_for_function("document.querySelector('#editor-drafts .editor-draft-delete') !== null")
    page.locator("#editor-drafts .editor-draft-delete").click()
    page.wait_for_selector("#ask[open]")
    page.locator("#ask-ok").click()
    page.wait_for_function("document.querySelectorAll('#editor-drafts .editor-draft').length === 1")
    assert page.evaluate("window.musterEditor.store.drafts()")[0]["scenario"]["title"] == "First"
    app.assert_no_errors()
    app.context.close()


def test_a_vassal_board_becomes_the_map_and_the_picture(browser, site_url):
    from vmod import Grid, vmod

    data, _hexes = vmod(Grid())
    app = open_app(browser, site_url, **tablet())
    page = app.page
    open_editor(page)
    files = [{"name": "battle.vmod", "mimeType": "application/zip", "buffer": data}]
    page.set_input_files("#editor-vassal-file", files=files)
    # The whole board, as the part to take (the crop dialog opens with it).
    page.wait_for_selector("#editor-crop-dialog[open]")
    page.locator("#editor-crop-ok").tap()
    page.wait_for_selector("#ask[open]")
    page.locator("#ask-ok").tap()
    page.wait_for_function("window.musterEditor.picture.current")
    page.wait_for_function("document.querySelector('#editor-say').textContent.includes('piece')")
    assert "is under the map, its grid aligned" in status(page)
    pic = page.evaluate("window.musterEditor.picture.current")
    assert (pic["width"], pic["height"]) == (Grid().width, Grid().height)
    assert page.evaluate("window.musterEditor.ctx.pieceNames")
    # The map's size and numbering are the board's: one step of undo.
    assert page.evaluate("window.musterEditor.draft.past.length") == 1
    assert draft(page)["map"] != page.evaluate("window.musterEditor.draft.past[0].scenario.map")
    app.assert_no_errors()
    app.context.close()


def test_a_title_and_description_in_several_languages_are_edited_in_one(browser, site_url):
    app = open_app(browser, f"{site_url}?lang=fr", **tablet())
    page = app.page
    open_editor(page)
    valmont = demo("demo-valmont")
    files = [
        {"name": "v.json", "mimeType": "application/json", "buffer": json.dumps(valmont).encode()}
    ]
    page.set_input_files("#editor-open-file", files=files)
    if page.locator("#ask[open]").count():
        page.locator("#ask-ok").click()
    page.wait_for_function("window.musterEditor.draft.scenario.id === 'demo-valmont'")
    page.locator("#editor-tab-scenario").tap()
    # The fields show the French; the file keeps every language.
    assert page.locator("#editor-title").input_value() == "Valmont, 1809 (démo)"
    assert page.locator("#editor-description").input_value() == valmont["description"]["fr"]
    page.locator("#editor-title").fill("Valmont, 1809")
    page.locator("#editor-title").press("Enter")
    page.wait_for_function("window.musterEditor.draft.scenario.title.fr === 'Valmont, 1809'")
    assert draft(page)["title"] == dict(valmont["title"], fr="Valmont, 1809")
    assert draft(page)["sides"] == valmont["sides"]  # untouched: every language kept
    wait_checked(page)
    assert page.locator("#editor-status").get_attribute("data-kind") == "ok"  # the core takes it
    app.assert_no_errors()
    app.context.close()
