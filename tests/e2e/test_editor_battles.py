"""A battle entered from scratch in the editor on the tablet, by touch, then played: a small hex
map (terrain, a river, a slope, a road, two units a side) and a small area map (four locales,
their approaches, two blocks a side); each exported, loaded by the core in CPython with the same
content, imported again, and a move played."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from apppage import hex_center, open_app, settle, tablet, tap_center, wait_text
from editorpage import (
    area_point,
    chain,
    draft,
    hex_point,
    set_approach,
    side_points,
    wait_checked,
    wait_editor,
)
from touch import Fingers

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "py"))

from muster.scenario import parse_scenario  # noqa: E402

pytestmark = pytest.mark.e2e

# The hexsides of the river, in order down the map, and the slope's two hexes (up first).
RIVER = [("0202", "0302"), ("0202", "0303"), ("0203", "0303"), ("0203", "0304")]
SLOPE = ("0505", "0504")
ROAD = ["0402", "0403", "0404", "0405"]


@pytest.fixture()
def pad(browser, site_url):
    app = open_app(browser, site_url, **tablet(), accept_downloads=True)
    app.fingers = Fingers(app.page)
    yield app
    app.assert_no_errors()
    app.context.close()


def tap(page: Any, selector: str) -> None:
    """A finger on a control."""
    page.locator(selector).first.tap()


def export(page: Any, tmp_path: Path) -> dict[str, Any]:
    """Export the draft as a player does; the file's scenario."""
    with page.expect_download() as info:
        tap(page, "#editor-export")
    path = tmp_path / info.value.suggested_filename
    info.value.save_as(path)
    return json.loads(path.read_text())


def export_and_load(page: Any, tmp_path: Path, made: dict[str, Any]) -> tuple[dict, Any]:
    """Export the draft; the file is the draft, and the core in CPython loads it as it is."""
    saved = export(page, tmp_path)
    assert saved == made
    loaded = parse_scenario(saved)
    assert loaded.data == made
    return saved, loaded


def import_again(page: Any, scenario: dict[str, Any], name: str) -> None:
    """Open the exported file in the editor again (asked first: it replaces the draft)."""
    body = json.dumps(scenario).encode()
    files = [{"name": name, "mimeType": "application/json", "buffer": body}]
    page.set_input_files("#editor-open-file", files=files)
    page.wait_for_selector("#ask[open]")
    page.locator("#ask-ok").tap()
    page.wait_for_function(f"document.querySelector('#editor-say').textContent.includes('{name}')")
    wait_checked(page)


def loads(page: Any) -> None:
    wait_checked(page)
    status = page.locator("#editor-status").inner_text()
    assert page.locator("#editor").get_attribute("data-loads") == "yes", status


def new_map(page: Any, system: str, fields: dict[str, str], asked: bool = False) -> None:
    """A new map from the New dialog; ``asked``: the draft has changes, so the editor asks first."""
    tap(page, "#editor-new")
    page.wait_for_selector("#editor-new-dialog[open]")
    page.select_option("#editor-new-system", system)
    for selector, value in fields.items():
        page.fill(selector, value)
    tap(page, "#editor-new-ok")
    if asked:
        page.wait_for_selector("#ask[open]")
        assert "stays in the drafts on this device" in page.locator("#ask").inner_text()
        page.locator("#ask-ok").tap()
    title = fields["#editor-new-title"]
    page.wait_for_function(
        "([s, t]) => window.musterEditor.draft.scenario.system === s"
        " && window.musterEditor.draft.scenario.title === t",
        arg=[system, title],
    )
    wait_checked(page)


def test_a_hex_battle_entered_by_touch_exported_imported_and_played(pad, tmp_path):
    page, fingers = pad.page, pad.fingers
    tap(page, "#open-editor")
    wait_editor(page)
    new_map(
        page,
        "hex-hexside",
        {"#editor-new-title": "Kesselsdorf", "#editor-new-columns": "7", "#editor-new-rows": "6"},
    )
    s = draft(page)
    assert (s["map"]["columns"], s["map"]["rows"], s["title"]) == (7, 6, "Kesselsdorf")
    # Terrain: woods by a tap, a marsh by a drag down a column.
    tap(page, "#editor-tools [data-tool='terrain-woods']")
    fingers.tap(*hex_point(page, "0603"))
    tap(page, "#editor-tools [data-tool='terrain-marsh']")
    fingers.drag([hex_point(page, "0702"), hex_point(page, "0704")])
    # A river: a stream dragged along four hexsides; then a slope tapped from its up side.
    tap(page, "#editor-tools [data-tool='tool-hexside']")
    tap(page, "#editor-tools [data-tool='feature-stream']")
    fingers.drag(chain(side_points(page, RIVER)))
    tap(page, "#editor-tools [data-tool='feature-slope']")
    fingers.tap(*side_points(page, [SLOPE])[0]["a"])
    # A road dragged through four hexes.
    tap(page, "#editor-tools [data-tool='tool-road']")
    tap(page, "#editor-tools [data-tool='road-road']")
    fingers.drag([hex_point(page, h) for h in ROAD])
    s = draft(page)
    hexes = s["map"]["hexes"]
    assert hexes["0603"]["terrain"] == ["woods"]
    assert [hexes[h]["terrain"] for h in ("0702", "0703", "0704")] == [["marsh"]] * 3
    sides = {tuple(sorted(h["between"])): h for h in s["map"]["hexsides"]}
    for a, b in RIVER:
        assert sides[tuple(sorted((a, b)))]["features"] == ["stream"]
    slope = sides[tuple(sorted(SLOPE))]
    assert slope["features"] == ["slope"] and slope["up"] == SLOPE[0]
    assert s["map"]["roads"] == [{"kind": "road", "hexes": ROAD}]
    # Two units a side, each placed by a tap on the map.
    tap(page, "#editor-tab-units")
    side_ids = [side["id"] for side in s["sides"]]
    for side in side_ids:
        for _ in range(2):
            tap(page, f".oob-add[data-side='{side}']")
    units = draft(page)["units"]
    assert [u["side"] for u in units] == [side_ids[0]] * 2 + [side_ids[1]] * 2
    where = dict(zip([u["id"] for u in units], ["0202", "0402", "0605", "0503"], strict=True))
    for uid, label in where.items():
        tap(page, f".oob-unit[data-unit='{uid}'] .oob-place")
        fingers.tap(*hex_point(page, label))
        page.wait_for_function(
            "([u, h]) => window.musterEditor.draft.scenario.units.find(x => x.id === u).hex === h",
            arg=[uid, label],
        )
    loads(page)
    made = draft(page)

    # Exported: the file is the draft, and the core in CPython loads it with the same content.
    saved, loaded = export_and_load(page, tmp_path, made)
    assert {uid: spec["hex"] for uid, spec in loaded.units.items()} == where
    at = loaded.hex_at
    assert loaded.hexes[at("0603")].terrain == ("woods",)
    assert loaded.hexes[at("0703")].terrain == ("marsh",)
    assert loaded.hexes[at("0101")].terrain == ("clear",)
    for a, b in RIVER:
        assert loaded.side_features[(at(a), at(b))] == ("stream",)
    assert "slope" in loaded.side_features[(at(SLOPE[0]), at(SLOPE[1]))]
    for a, b in zip(ROAD, ROAD[1:], strict=False):
        assert loaded.side_roads[(at(a), at(b))] == ("road",)

    # Imported again after starting over: the same scenario comes back.
    new_map(page, "hex-facing", {"#editor-new-title": "Other"}, asked=True)
    import_again(page, saved, "kesselsdorf.json")
    assert draft(page) == made

    # Play this: a game of it starts; the first side moves a unit by taps.
    tap(page, "#editor-play")
    page.wait_for_selector("#editor", state="hidden")
    page.wait_for_selector("#prompt")
    first = units[0]["id"]
    tap_center(page, f"#map [data-unit='{first}']", touch=True)
    page.wait_for_selector("#map .hm-lit[data-lit='0203']", state="attached")
    settle(page)
    fingers.tap(*hex_center(page, "0203"))
    wait_text(page, "#log-panel", "0202 → 0203")
    assert page.locator(f"#map [data-unit='{first}']").first.get_attribute("data-at") == "0203"


# Four squares in a 2×2 layout (map units), drawn corner by corner: each tap near, not on, a
# corner already drawn (a finger is never exact), closed by tapping the first corner again.
SQUARES = [
    [(100, 100), (400, 100), (400, 300), (100, 300)],
    [(408, 96), (700, 100), (700, 300), (405, 305)],
    [(96, 305), (394, 296), (400, 500), (100, 500)],
    [(404, 306), (706, 298), (700, 500), (397, 505)],
]
BORDERS = {("l1", "l2"), ("l1", "l3"), ("l2", "l4"), ("l3", "l4")}


def test_an_area_battle_entered_by_touch_exported_imported_and_played(pad, tmp_path):
    page, fingers = pad.page, pad.fingers
    tap(page, "#open-editor")
    wait_editor(page)
    new_map(
        page,
        "area-locale",
        {"#editor-new-title": "Spinetta", "#editor-new-width": "800", "#editor-new-height": "600"},
    )
    assert draft(page)["map"]["locales"] == []
    # Four locales by tapping their corners; each named as it is drawn.
    tap(page, "#editor-tools [data-act='mode'][data-mode='draw']")
    names = ["Spinetta", "Cascina Bianca", "Li Poggi", "Stortigliona"]
    for corners, name in zip(SQUARES, names, strict=True):
        for x, y in corners:
            fingers.tap(*area_point(page, x, y))
        fingers.tap(*area_point(page, *corners[0]))
        field = page.locator("#editor-tools [data-panel='locale'] input[data-field='name']")
        field.fill(name)
        field.press("Enter")
        tap(page, "#editor-tools [data-act='mode'][data-mode='draw']")
    s = draft(page)
    ids = {loc["name"]: loc["id"] for loc in s["map"]["locales"]}
    assert sorted(ids) == sorted(names)
    short = dict(zip(["l1", "l2", "l3", "l4"], [ids[n] for n in names], strict=True))
    for loc in s["map"]["locales"]:
        assert [400, 300] in loc["polygon"], loc  # the shared corner, snapped from four taps
    # Exactly the shared borders became approaches, both ways, with their defaults.
    pairs = {(a["from"], a["facing"]) for a in s["map"]["approaches"]}
    want = {(short[a], short[b]) for a, b in BORDERS}
    assert pairs == want | {(b, a) for a, b in want}
    # One approach made wide with a terrain effect of 1.
    tap(page, "#editor-tools [data-act='mode'][data-mode='select']")
    set_approach(page, fingers, f"{short['l2']}/{short['l1']}", "wide", 1)
    page.wait_for_function(
        "([f, t]) => window.musterEditor.draft.scenario.map.approaches.some("
        "a => a.from === f && a.facing === t && a.width === 'wide' && a.effect === 1)",
        arg=[short["l2"], short["l1"]],
    )
    # Two blocks a side, each placed by a tap in its locale.
    tap(page, "#editor-tab-units")
    side_ids = [side["id"] for side in s["sides"]]
    for side in side_ids:
        for _ in range(2):
            tap(page, f".oob-add[data-side='{side}']")
    units = draft(page)["units"]
    where = dict(zip([u["id"] for u in units], ["l1", "l1", "l4", "l4"], strict=True))
    inside = {"l1": (250, 200), "l4": (550, 400)}
    for uid, loc in where.items():
        tap(page, f".oob-unit[data-unit='{uid}'] .oob-place")
        fingers.tap(*area_point(page, *inside[loc]))
        page.wait_for_function(
            "([u, l]) => window.musterEditor.draft.scenario.units.find(x => x.id === u).locale"
            " === l",
            arg=[uid, short[loc]],
        )
    loads(page)
    made = draft(page)

    saved, loaded = export_and_load(page, tmp_path, made)
    assert sorted(loaded.locales) == sorted(short.values())
    assert loaded.approach(short["l2"], short["l1"]).width == "wide"
    assert loaded.approach(short["l1"], short["l2"]).width == "narrow"

    new_map(page, "hex-hexside", {"#editor-new-title": "Other"}, asked=True)
    import_again(page, saved, "spinetta.json")
    assert draft(page) == made

    # Play this: the first side takes the tablet, then moves a block into an empty locale.
    tap(page, "#editor-play")
    page.wait_for_selector("#editor", state="hidden")
    page.wait_for_selector("#curtain:not([hidden]) #curtain-go, #prompt")
    if page.locator("#curtain:not([hidden])").count():
        settle(page)
        page.locator("#curtain-go").tap()
        page.wait_for_selector("#curtain", state="hidden")
    wait_text(page, "#prompt", "movement")
    mover = units[0]["id"]
    tap_center(page, f"#area-map [data-piece='{mover}']", touch=True)
    # Two blocks stand side by side in the locale: the tap takes the one tapped, no list.
    assert page.locator("#picker").count() == 0
    page.wait_for_selector(f"#area-map [data-lit='{short['l2']}']", state="attached")
    tap_center(page, f"#area-map [data-locale='{short['l2']}']", touch=True)
    wait_text(page, "#log-panel", "Cascina Bianca")
    assert "2 commands left" in page.locator("#prompt").inner_text()
