"""Pieces at real numbers, on the tablet with touch: a VASSAL module of 1,500 piece names taken
by its palettes, each group for a side, the markers left out; many units deleted or moved to
another side at once; a side of more than 150 units folded in groups, a unit shown opening its
group; rows pasted with a hex column placed at once; and the next unit asked for
after each one placed on the map."""

from __future__ import annotations

import io
import re
import zipfile
from typing import Any
from xml.sax.saxutils import quoteattr

import pytest
from apppage import open_app, tablet
from editorpage import draft, open_editor
from test_editor_units import assert_worded, catalog, empty, start
from test_editor_units import draft as oob_draft
from touch import Fingers
from vmod import Grid, build_file, hexes, png, vmod

pytestmark = pytest.mark.e2e

# The module's palettes: a piece window of tabs, the units of each army in a list of their own,
# with a few markers among them, and a palette of markers.
GERMAN = [f"{n}. Grenadier-Regiment {n % 7 + 1}" for n in range(1, 701)]
ALLIED = [f"{n}th Infantry Battalion" for n in range(1, 601)]
MIXED_MARKERS = [f"INTERDICT {n}" for n in range(1, 26)] + [f"+{n} MP" for n in range(1, 26)]
MARKERS = [str(n) for n in range(1, 51)] + [f"Out of Supply {n}" for n in range(1, 101)]


def slot(name: str, n: int) -> str:
    return (
        f"<VASSAL.build.widget.PieceSlot entryName={quoteattr(name)} gpid='{n}' height='60' "
        f"width='60'>+/null/piece;;;p{n}.png;{name}/null;0;0;{n}</VASSAL.build.widget.PieceSlot>"
    )


def palette_module() -> bytes:
    """A module of 1,500 piece names in palettes (Counters › Forces › German, Allied; Counters ›
    Markers), on a small board."""
    g = Grid()
    lists = [
        ("German", GERMAN[:350] + MIXED_MARKERS + GERMAN[350:]),
        ("Allied", ALLIED),
        ("Markers", MARKERS),
    ]
    n = 0
    widgets = []
    for name, names in lists:
        slots = []
        for piece in names:
            n += 1
            slots.append(slot(piece, n))
        widgets.append(
            f"<VASSAL.build.widget.ListWidget entryName='{name}' height='0' width='0'>"
            + "".join(slots)
            + "</VASSAL.build.widget.ListWidget>"
        )
    window = (
        "<VASSAL.build.module.PieceWindow allowHidingPieces='false' name='Counters'>"
        "<VASSAL.build.widget.TabWidget entryName='Forces'>"
        + "".join(widgets[:2])
        + "</VASSAL.build.widget.TabWidget>"
        + widgets[2]
        + "</VASSAL.build.module.PieceWindow>"
    )
    xml = re.sub(
        r"<VASSAL\.build\.module\.PieceWindow .*?</VASSAL\.build\.module\.PieceWindow>",
        lambda _m: window,
        build_file(g),
        flags=re.S,
    )
    assert xml.count("PieceSlot entryName") == 1500
    found = hexes(g)
    picture = png(g.width, g.height, [(h["x"], h["y"]) for h in found.values() if h["inside"]])
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("buildFile.xml", xml, compress_type=zipfile.ZIP_DEFLATED)
        z.writestr(f"images/{g.image}", picture, compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


def folded_counts(page: Any, side: str) -> list[int]:
    """The counts on the headers of a folded side's groups, in their order."""
    return page.evaluate(
        """(side) => Array.from(
          document.querySelectorAll(`.oob-side-units[data-side='${side}'] .oob-fold-head`),
          (h) => Number(h.dataset.count))""",
        side,
    )


def test_a_module_of_1500_piece_names_is_taken_by_side_without_its_markers(browser, site_url):
    app = open_app(browser, site_url, **tablet())
    page = app.page
    open_editor(page)
    page.set_input_files(
        "#editor-vassal-file",
        files=[{"name": "big.vmod", "mimeType": "application/zip", "buffer": palette_module()}],
    )
    page.wait_for_selector("#editor-crop-dialog[open]")
    page.locator("#editor-crop-ok").tap()
    page.wait_for_selector("#ask[open]")
    page.locator("#ask-ok").tap()
    page.wait_for_function("window.musterEditor.picture.current")
    sides = [s["id"] for s in draft(page)["sides"]]
    assert len(sides) >= 2
    before = page.evaluate("window.musterEditor.draft.past.length")
    page.locator("#editor-tab-units").tap()
    chooser = page.locator(".oob-module-pieces")
    chooser.wait_for()
    # One row per palette, the markers apart and not ticked.
    groups = chooser.locator(".oob-group")
    shown = page.evaluate(
        """() => Array.from(document.querySelectorAll('.oob-module-pieces .oob-group'), (li) => [
          li.querySelector('.oob-group-name span').textContent,
          li.dataset.marker === '1',
          li.querySelector('.oob-group-count').textContent,
          li.querySelector('.oob-group-take').checked,
        ])"""
    )
    assert shown == [
        ["Counters › Forces › German", False, "700 pieces", True],
        ["Counters › Forces › German", True, "50 pieces", False],
        ["Counters › Forces › Allied", False, "600 pieces", True],
        ["Counters › Markers", True, "150 pieces", False],
    ]
    allied = 2
    add = chooser.locator(".oob-pieces-add")
    assert add.inner_text() == "Add 1,300 units"
    # The Allied palette to the second side: one choice, then one tap adds them all.
    groups.nth(allied).locator(".oob-group-side").select_option(sides[1])
    add.tap()
    page.wait_for_function("window.musterEditor.draft.scenario.units.length >= 1300")
    units = draft(page)["units"]
    assert page.evaluate("window.musterEditor.draft.past.length") == before + 1
    assert [u["name"] for u in units if u["side"] == sides[0]] == GERMAN
    assert [u["name"] for u in units if u["side"] == sides[1]] == ALLIED
    assert len(units) == 1300
    # Every unit is counted in its side's groups, each side of more than 150 folded.
    page.wait_for_function("document.querySelectorAll('.oob-fold-head').length === 13")
    assert folded_counts(page, sides[0]) == [100] * 7
    assert folded_counts(page, sides[1]) == [100] * 6
    app.assert_no_errors()
    app.context.close()


# ---- many units at once, in the order of battle alone ---------------------------------------


def steady_tap(page: Any, selector: str) -> None:
    """Tap ``selector`` once it stands still in view: a control below a thousand rows is
    scrolled to first, and a tap at a place taken before the page settled would land on a
    row."""
    page.wait_for_function(
        """(s) => new Promise((done) => {
          const el = document.querySelector(s);
          el.scrollIntoView({block: "center"});
          const top = el.getBoundingClientRect().top;
          requestAnimationFrame(() => requestAnimationFrame(() =>
            done(Math.abs(el.getBoundingClientRect().top - top) < 1)));
        })""",
        arg=selector,
    )
    page.locator(selector).tap()


def many_units(count: int) -> dict[str, Any]:
    scenario = empty("hex-hexside")
    unit = {"type": "infantry", "ratings": {"strength": 4, "morale": 4, "movement": 4}}
    scenario["units"] = [
        dict(unit, id=f"u{n}", side="prussia" if n % 2 else "austria", name=f"IR {n}")
        for n in range(1, count + 1)
    ]
    return scenario


def test_two_thousand_units_selected_by_side_and_name_moved_and_deleted_at_once(tab):
    page = start(tab, many_units(2000), catalog("hex-hexside"))
    # Each side of 1,000 folded in groups of 100 (no formations in hex-hexside), no row yet.
    assert folded_counts(page, "austria") == [100] * 10
    assert folded_counts(page, "prussia") == [100] * 10
    assert page.locator(".oob-unit").count() == 0
    changes = page.evaluate("window.harness.changes")
    # A side's units in one tap, folded or not: all of Austria's, then moved to Prussia in one
    # change.
    steady_tap(page, ".oob-select-side[data-side='austria']")
    assert page.locator(".oob-bulk-count").inner_text() == "1,000 selected"
    said = page.locator(".oob-side-units[data-side='austria'] .oob-fold-selected")
    assert said.all_inner_texts() == ["100 selected"] * 10
    page.select_option(".oob-bulk-side", "prussia")
    page.locator(".oob-bulk-move").tap()
    units = oob_draft(page)["units"]
    assert len(units) == 2000 and {u["side"] for u in units} == {"prussia"}
    assert page.evaluate("window.harness.changes") == changes + 1
    assert folded_counts(page, "austria") == []
    assert sum(folded_counts(page, "prussia")) == 2000
    # By name: the units whose name holds "IR 1" (IR 1, IR 10-19, IR 100-199, IR 1000-1999).
    page.locator(".oob-bulk-clear").tap()
    page.locator(".oob-bulk-find").fill("IR 1")
    page.locator(".oob-bulk-named").tap()
    assert page.locator(".oob-bulk-count").inner_text() == "1,111 selected"
    page.locator(".oob-bulk-delete").tap()
    names = [u["name"] for u in oob_draft(page)["units"]]
    assert len(names) == 889 and not any(n.startswith("IR 1") for n in names)
    assert folded_counts(page, "prussia") == [100] * 8 + [89]
    assert page.locator(".oob-bulk-count").inner_text() == "0 selected"
    assert page.locator(".oob-bulk-delete").is_disabled()
    # A group opened: its rows; one unit's own box, then all: every box shown follows.
    steady_tap(page, ".oob-fold-head[data-group='prussia//0'] .oob-fold-toggle")
    assert page.locator(".oob-unit").count() == 100
    page.locator(".oob-unit").first.locator(".oob-select").tap()
    assert page.locator(".oob-bulk-count").inner_text() == "1 selected"
    page.locator(".oob-bulk-all").tap()
    assert page.locator(".oob-bulk-count").inner_text() == "889 selected"
    assert page.locator(".oob-select:checked").count() == 100
    page.locator(".oob-bulk-delete").tap()
    assert oob_draft(page)["units"] == []
    assert page.locator(".oob-unit, .oob-fold-head").count() == 0


def test_a_side_of_150_units_is_one_list_and_of_151_folded(tab):
    page = start(tab, many_units(301), catalog("hex-hexside"))  # Prussia 151, Austria 150
    assert page.locator(".oob-side-units[data-side='austria'] .oob-unit").count() == 150
    assert folded_counts(page, "austria") == []
    assert page.locator(".oob-side-units[data-side='austria'] .oob-fold-hint").is_hidden()
    assert folded_counts(page, "prussia") == [100, 51]
    assert page.locator(".oob-side-units[data-side='prussia'] .oob-unit").count() == 0
    # One unit added to the folded side: its group opens to show it.
    page.locator(".oob-add[data-side='prussia']").tap()
    assert folded_counts(page, "prussia") == [100, 52]
    assert page.locator(".oob-side-units[data-side='prussia'] .oob-unit").count() == 52
    tab.assert_no_errors()


def facing_army() -> dict[str, Any]:
    """2,000 units of hex-facing, 1,000 a side: on the first side 60 in a brigade, 300 in a
    division and the others in none; the second side's in none."""
    scenario = empty("hex-facing")
    a, b = (s["id"] for s in scenario["sides"][:2])
    scenario["formations"] = [
        {"id": "fa1", "side": a, "name": "Avant-garde", "orders": True},
        {"id": "fa2", "side": a, "name": "Division Lannes", "orders": True},
        {"id": "fb1", "side": b, "name": "Korps Hohenzollern", "orders": True},
    ]
    unit = {"type": "infantry", "ratings": {"strength": 4, "cohesion": 6, "movement": 5}}
    units = []
    for n in range(1, 1001):
        u = dict(unit, id=f"u{n}", side=a, name=f"Bataillon {n}", facing=0)
        if n <= 60:
            u["formation"] = "fa1"
        elif n <= 360:
            u["formation"] = "fa2"
        units.append(u)
    units += [
        dict(unit, id=f"u{n}", side=b, name=f"Regiment {n}", facing=6) for n in range(1001, 2001)
    ]
    scenario["units"] = units
    return scenario


def in_view(page: Any, selector: str) -> bool:
    return page.evaluate(
        """(s) => { const r = document.querySelector(s).getBoundingClientRect();
                   return r.bottom > 0 && r.top < innerHeight; }""",
        selector,
    )


def test_two_thousand_units_are_folded_by_formation_and_a_unit_shown_opens_its_group(tab):
    scenario = facing_army()
    a, b = (s["id"] for s in scenario["sides"][:2])
    page = start(tab, scenario, catalog("hex-facing"))
    heads = page.locator(f".oob-side-units[data-side='{a}'] .oob-fold-head")
    names = [n.strip() for n in heads.locator(".oob-fold-name").all_inner_texts()]
    assert names == [
        "Avant-garde",
        "Division Lannes, 1–100",
        "Division Lannes, 101–200",
        "Division Lannes, 201–300",
    ] + [f"No formation, {k * 100 + 1}–{min(k * 100 + 100, 640)}" for k in range(7)]
    assert folded_counts(page, a) == [60, 100, 100, 100] + [100] * 6 + [40]
    assert page.locator(".oob-unit").count() == 0
    hint = page.locator(f".oob-side-units[data-side='{a}'] .oob-fold-hint")
    assert hint.inner_text() == "1,000 units, in groups: open a group to edit its units."
    # The brigade opened: its 60 rows, a rename in one of them.
    toggle = heads.nth(0).locator(".oob-fold-toggle")
    assert toggle.inner_text() == "Show" and toggle.get_attribute("aria-expanded") == "false"
    assert toggle.get_attribute("aria-label") == "Show the units of Avant-garde"
    box = toggle.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    steady_tap(page, f".oob-fold-head[data-group='{a}/fa1/0'] .oob-fold-toggle")
    assert toggle.get_attribute("aria-expanded") == "true" and toggle.inner_text() == "Hide"
    assert page.locator(".oob-unit").count() == 60
    name = page.locator(".oob-unit[data-unit='u7'] input[data-field='name']")
    name.fill("Bataillon de la Garde")
    name.press("Enter")
    page.wait_for_function(
        "window.harness.draft.scenario.units[6].name === 'Bataillon de la Garde'"
    )
    assert page.locator(".oob-unit[data-unit='u7'] input[data-field='name']").input_value() == (
        "Bataillon de la Garde"
    )
    # A unit moved to the division: its row follows it into the division's group, opened.
    page.select_option(".oob-unit[data-unit='u8'] select[data-field='formation']", "fa2")
    assert oob_draft(page)["units"][7]["formation"] == "fa2"
    assert in_view(page, ".oob-unit[data-unit='u8']")
    assert folded_counts(page, a)[:2] == [59, 100]
    # A side's units selected in one tap, every one counted, folded or not.
    steady_tap(page, f".oob-select-side[data-side='{a}']")
    assert page.locator(".oob-bulk-count").inner_text() == "1,000 selected"
    assert heads.nth(0).locator(".oob-fold-selected").inner_text() == "59 selected"
    assert page.locator(".oob-unit .oob-select:not(:checked)").count() == 0
    steady_tap(page, f".oob-select-side[data-side='{b}']")
    assert page.locator(".oob-bulk-count").inner_text() == "2,000 selected"
    page.locator(".oob-bulk-clear").tap()
    # A unit the map or the core's check points at: its group opens and it is scrolled to.
    page.evaluate("window.harness.oob.highlight({kind: 'unit', id: 'u1500'})")
    row = ".oob-unit[data-unit='u1500']"
    assert page.locator(f"{row}.is-marked").count() == 1
    assert in_view(page, row)
    assert page.locator(".oob-fold-toggle[aria-expanded='true']").count() >= 2
    # Found by name: the one unit selected, its group opened.
    page.locator(".oob-bulk-find").fill("Bataillon 999")
    page.locator(".oob-bulk-named").tap()
    assert page.locator(".oob-bulk-count").inner_text() == "1 selected"
    assert page.locator(".oob-unit[data-unit='u999'] .oob-select").is_checked()
    # Folded again: its rows leave the page.
    steady_tap(page, f".oob-fold-head[data-group='{a}/fa1/0'] .oob-fold-toggle")
    assert page.locator(".oob-unit[data-unit='u7']").count() == 0
    assert_worded(page)


def test_a_scenario_put_in_the_drafts_place_leaves_none_of_its_units_selected(tab):
    # Another file opened holds units of the same ids: none of them is taken as selected.
    page = start(tab, many_units(6), catalog("hex-hexside"))
    page.locator(".oob-select-side[data-side='austria']").tap()
    assert page.locator(".oob-bulk-count").inner_text() == "3 selected"
    page.evaluate("window.harness.draft.replace(window.harness.draft.scenario, 'x')")
    assert page.locator(".oob-bulk-count").inner_text() == "0 selected"
    assert page.locator(".oob-select:checked").count() == 0
    assert page.locator(".oob-bulk-delete").is_disabled()
    # An undo of a change keeps the selection.
    page.locator(".oob-select-side[data-side='austria']").tap()
    page.locator(".oob-add[data-side='prussia']").tap()
    page.evaluate("window.harness.draft.undo()")
    assert page.locator(".oob-bulk-count").inner_text() == "3 selected"
    tab.assert_no_errors()


def test_pasted_rows_with_a_hex_column_are_placed_and_bad_hexes_named_by_row(tab):
    page = start(tab, empty("hex-hexside"), catalog("hex-hexside"))
    page.locator(".oob-paste summary").tap()
    assert "Hex" in page.locator(".oob-paste-hex").inner_text()
    rows = [
        "Name\tSide\tType\tHex",
        "IR 13\tPrussia\tInfantry\t0412",
        "IR 14\tPrussia\tInfantry\t4,7",
        "IR 15\tAustria\tInfantry\t305",
        "IR 16\tAustria\tInfantry\t1511",
        "IR 17\tAustria\tInfantry\tB4",
        "IR 18\tAustria\tInfantry\t",
    ]
    page.locator(".oob-paste-box").fill("\n".join(rows))
    page.locator(".oob-paste-add").tap()
    units = {u["name"]: u for u in oob_draft(page)["units"]}
    assert sorted(units) == ["IR 14", "IR 15", "IR 18"]
    assert units["IR 14"]["hex"] == "0407"
    assert units["IR 15"]["hex"] == "0305" and units["IR 15"]["side"] == "austria"
    assert "hex" not in units["IR 18"]
    assert page.locator(".oob-paste-bad").all_inner_texts() == [
        "Row 2: no hex “0412” on this map",
        "Row 5: no hex “1511” on this map",
        "Row 6: no hex “B4” on this map",
    ]
    # The rows say where each stands.
    assert page.locator(".oob-unit").count() == 3
    assert "Hex 0407" in page.locator(".oob-units").inner_text()
    tab.assert_no_errors()


# ---- the next unit asked for after each one placed --------------------------------------------


def test_after_each_unit_placed_the_next_unplaced_one_is_asked_for(browser, site_url):
    app = open_app(
        browser, site_url + "__tests__/e2e/hexedit_harness.html", wait_ready=False, **tablet()
    )
    page = app.page
    page.wait_for_selector("html[data-ready='1']", state="attached")
    fingers = Fingers(page)
    # Six units, the second already placed.
    page.evaluate(
        """() => {
          const s = JSON.parse(JSON.stringify(harness.draft.scenario));
          s.units = [1, 2, 3, 4, 5, 6].map((n) => ({
            id: "u" + n, side: n % 2 ? "a" : "b", type: "infantry", name: "Unit " + n,
            hex: n === 2 ? "0202" : null, ratings: {},
          }));
          harness.draft.replace(s, null);
        }"""
    )
    page.evaluate("harness.editor.placeUnit('u3')")
    assert "Placing Unit 3; 4 more units to place after it." in page.locator("#tools").inner_text()
    where = {"u3": "0404", "u4": "0505", "u5": "0606", "u6": "0707", "u1": "0808"}
    for label in where.values():
        p = page.evaluate("(l) => harness.editor.map.hexToClient(l)", label)
        fingers.tap(p["x"], p["y"])
    units = {u["id"]: u.get("hex") for u in page.evaluate("harness.draft.scenario.units")}
    assert units == dict(where, u2="0202")
    # Five taps, five units: each one change; nothing is awaited after the last.
    assert page.evaluate("harness.changes.slice(1)") == ["editor.hex.step_unit"] * 5
    assert "Placing" not in page.locator("#tools").inner_text()
    app.assert_no_errors()
    app.context.close()


def test_pieces_of_one_palette_are_grouped_by_their_prototypes(browser, site_url):
    pieces = [
        (f"Grenadier {n}", f"+/null/prototype;German infantry\tpiece;;;g{n}.png;Grenadier {n}/")
        for n in range(1, 31)
    ]
    pieces += [
        (f"Sherman {n}", f"+/null/prototype;Allied armour\tpiece;;;s{n}.png;Sherman {n}/")
        for n in range(1, 21)
    ]
    pieces += [
        (f"Spent {n}", "+/null/prototype;Game markers\tpiece;;;m.png;Spent/") for n in (1, 2)
    ]
    data, _found = vmod(Grid(pieces=pieces))
    app = open_app(
        browser,
        f"{site_url}__tests__/e2e/vassal_harness.html",
        viewport={"width": 1280, "height": 800},
    )
    page = app.page
    page.set_input_files(
        "#vmod", files=[{"name": "p.vmod", "mimeType": "application/zip", "buffer": data}]
    )
    groups = page.evaluate(
        """async () => {
          const file = document.querySelector("#vmod").files[0];
          const module = await window.harness.readModule(file);
          return module.pieceGroups.map((g) => [g.name, g.marker, g.pieces.length]);
        }"""
    )
    assert groups == [
        ["German infantry", False, 30],
        ["Allied armour", False, 20],
        ["Game markers", True, 2],
    ]
    app.assert_no_errors()
    app.context.close()
