"""In WebKit and Firefox, at the tablet's size: the scenario editor makes a new hex map from its
New dialog (typed in), paints terrain by a tap and by a drag, and undoes and redoes a stroke."""

from __future__ import annotations

import pytest
from xbapp import App

pytestmark = pytest.mark.xbrowser


def wait_checked(app: App) -> None:
    """Until the core's check of the draft on screen has answered."""
    d = app.d
    d.call("() => window.musterEditor.checked().then(() => true)")
    d.wait_for(
        "() => !!document.querySelector('#editor').dataset.checks"
        " && document.querySelector('#editor-status').dataset.kind !== undefined"
        " && !document.querySelector('#editor-say').textContent.includes('Checking')",
        what="the draft checked",
    )


def type_into(app: App, selector: str, text: str) -> None:
    """Tap a field, select what it holds and type ``text`` over it."""
    app.d.tap_element(selector)
    app.d.call("(s) => document.querySelector(s).select()", selector)
    app.d.keys(text)


def hex_point(app: App, label: str) -> tuple[float, float]:
    p = app.d.call("(l) => window.musterEditor.parts.map.map.hexToClient(l)", label)
    return p["x"], p["y"]


def terrain(app: App) -> dict[str, list[str]]:
    return app.d.call(
        "() => Object.fromEntries(Object.entries(window.musterEditor.draft.scenario.map.hexes)"
        ".filter(([k, v]) => v.terrain).map(([k, v]) => [k, v.terrain]))"
    )


def test_the_editor_paints_hexes_by_tap_and_drag_with_undo_and_redo(app: App):
    d = app.d
    app.open("?lang=en")
    d.press("#open-editor")
    d.wait_selector("#editor:not([hidden])")
    d.wait_for("() => !!(window.musterEditor && window.musterEditor.draft)", what="the editor")
    d.call("() => Promise.resolve(window.musterEditor.ready).then(() => true)")
    wait_checked(app)
    # A new hex-hexside map of 7 × 6 hexes, its title and size typed in.
    d.press("#editor-new")
    d.wait_selector("#editor-new-dialog[open]")
    assert d.call("() => document.querySelector('#editor-new-system').value") == "hex-hexside"
    type_into(app, "#editor-new-title", "Kesselsdorf")
    type_into(app, "#editor-new-columns", "7")
    type_into(app, "#editor-new-rows", "6")
    d.tap_element("#editor-new-ok")
    d.wait_for(
        "() => window.musterEditor.draft.scenario.title === 'Kesselsdorf'", what="the new map"
    )
    wait_checked(app)
    m = d.call("() => window.musterEditor.draft.scenario.map")
    assert (m["columns"], m["rows"]) == (7, 6)
    assert terrain(app) == {}
    # Woods by a tap; a marsh by a drag down a column.
    d.press("#editor-tools [data-tool='terrain-woods']")
    d.tap(*hex_point(app, "0603"))
    d.wait_for("() => !!window.musterEditor.draft.scenario.map.hexes['0603']", what="0603")
    assert terrain(app) == {"0603": ["woods"]}
    d.press("#editor-tools [data-tool='terrain-marsh']")
    d.drag([hex_point(app, "0702"), hex_point(app, "0704")])
    d.wait_for("() => !!window.musterEditor.draft.scenario.map.hexes['0704']", what="0704")
    painted = terrain(app)
    assert painted == {"0603": ["woods"], **{h: ["marsh"] for h in ("0702", "0703", "0704")}}
    # The drag was one change: one undo takes it back, redo puts it again.
    d.press("#editor-undo")
    d.wait_for("() => !window.musterEditor.draft.scenario.map.hexes['0704']", what="undone")
    assert terrain(app) == {"0603": ["woods"]}
    d.press("#editor-redo")
    d.wait_for("() => !!window.musterEditor.draft.scenario.map.hexes['0704']", what="redone")
    assert terrain(app) == painted
    wait_checked(app)
    assert d.attr("#editor", "data-loads") == "yes", d.text("#editor-status")
    d.assert_no_errors()
