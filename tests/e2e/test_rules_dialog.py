"""The rules reference in the app, on a tablet (820×1180, touch), for every demo: the Rules
button of the game bar opens the charts as tables in words (no raw key, id or code), with the
aid's defaults and stand-ins marked and explained; a preview's modifier line opens the
reference at its row, highlighted; Escape closes and focus returns; Polish has Polish
headings; a screenshot of the dialog is kept to look at."""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

import pytest
from apppage import draw_a_formation_that_fires
from test_play_panel import TABLET, W, open_demo, raw_codes, reveal_if_covered, scenario, tap

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
WORDS = {
    lang: json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    for lang in ("en", "pl")
}
SHOTS = Path(os.environ.get("MUSTER_SHOTS", tempfile.gettempdir())) / "muster-shots"
# What each demo's reference must show: a terrain (or approach) row, a results row and the
# words it holds, and the rows the aid's defaults and stand-ins mark (data-flags).
CASES = {
    "demo-valmont": {
        "terrain": "terrain-woods",
        "terrain_words": WORDS["en"]["terrain.woods"],
        "results": "fire-table-15-max",
        "results_words": WORDS["en"]["hf_code.U"],
        "marked": {"procedure-breakthrough": "default", "sequence-activation": "default"},
        "unmarked": ["melee-rear", "force-ratio-4x3a1"],
        "no_mark": "standin",
    },
    "demo-hohenbrueck": {
        "terrain": "terrain-woods",
        "terrain_words": WORDS["en"]["terrain.woods"],
        "results": "crt-code-EX",
        "results_words": WORDS["en"]["ref.side_role.both"],
        "marked": {"crt-roll-1": "standin", "drm-leader_with_lead": "default"},
        "unmarked": ["rally-adjacent_enemy", "zoc-exit-support"],
        "no_mark": None,
    },
    "demo-fontanella": {
        "terrain": None,  # area maps: the approaches and their terrain effects
        "results": "assault-result-attacker",
        "results_words": WORDS["en"]["ui.attacker"],
        "marked": {"command-per-turn": "default", "retreat-cannot": "default"},
        "unmarked": ["command-road-primary", "sequence-assault"],
        "no_mark": "standin",
    },
}


def start(page) -> None:
    tap(page, page.locator("#new-game"))
    reveal_if_covered(page)


def open_rules(page, opener: str = "#rules") -> None:
    tap(page, page.locator(opener).first, wait=False)
    page.wait_for_selector("#rules-dialog[open] #rules-body table")


def no_raw(text: str, demo: str) -> list[str]:
    bad = []
    for pattern in raw_codes(demo):
        for m in pattern.finditer(text):
            bad.append(text[max(0, m.start() - 30) : m.end() + 30].replace("\n", " "))
    return bad


@pytest.mark.parametrize("demo", list(CASES))
def test_the_rules_open_from_the_game_bar_in_words_with_their_marks(browser, site_url, demo):
    case = CASES[demo]
    app = open_demo(browser, site_url, demo)
    page = app.page
    try:
        start(page)
        open_rules(page)
        dialog = page.locator("#rules-dialog")
        # Focus moved into the dialog.
        assert page.evaluate(
            "document.getElementById('rules-dialog').contains(document.activeElement)"
        )
        body = page.locator("#rules-body")
        text = body.inner_text()
        assert no_raw(text, demo) == [], no_raw(text, demo)[:10]
        assert "[object Object]" not in text and "ref." not in text
        # Real tables: headed columns, a head cell per row.
        assert body.locator("table th[scope='col']").count() > 10
        assert body.locator("table tbody th[scope='row']").count() > 10
        if case["terrain"]:
            row = page.locator(f"#ref-{case['terrain']}")
            assert case["terrain_words"] in row.locator("th").first.inner_text()
        else:
            sc = scenario(demo)
            names = {loc["id"]: loc["name"] for loc in sc["map"]["locales"]}
            a = sc["map"]["approaches"][0]
            head = page.locator(f"#ref-approach-{a['from']}-{a['facing']} th").first.inner_text()
            assert names[a["from"]] in head and names[a["facing"]] in head
        assert case["results_words"] in page.locator(f"#ref-{case['results']}").inner_text()
        # The marks where the aid says, in words, and the legend that explains them.
        for rid, mark in case["marked"].items():
            badge = page.locator(f"#ref-{rid} .rules-badge-{mark}")
            assert badge.count() >= 1, rid
            assert badge.first.inner_text() == WORDS["en"][f"ui.rules_badge_{mark}"]
            legend = page.locator(".rules-legend").inner_text()
            assert WORDS["en"][f"ui.rules_mark_{mark}"] in legend
        for rid in case["unmarked"]:
            assert page.locator(f"#ref-{rid} .rules-badge").count() == 0, rid
        if case["no_mark"]:
            assert body.locator(f".rules-badge-{case['no_mark']}").count() == 0
        # Escape closes; focus returns to the Rules button.
        page.keyboard.press("Escape")
        page.wait_for_selector("#rules-dialog", state="hidden")
        assert not dialog.evaluate("d => d.open")
        assert page.evaluate("document.activeElement && document.activeElement.id") == "rules"
        app.assert_no_errors()
    finally:
        app.context.close()


def test_a_modifier_line_opens_the_rules_at_its_row(browser, site_url):
    # Valmont: draw the artillery reserve's marker from the cup and preview its fire.
    app = open_demo(browser, site_url, "demo-valmont")
    page = app.page
    try:
        start(page)
        draw_a_formation_that_fires(page, lambda locator: tap(page, locator))
        page.locator("#dock button.fight").first.click()
        page.wait_for_selector("#preview")
        # On the tablet the modifiers are folded under their total: a tap opens them.
        tap(page, page.locator("#preview .modifiers-fold > summary"), wait=False)
        page.wait_for_selector("#preview .modifiers-fold[open]")
        links = page.locator("#preview table.modifiers .rules-link[data-ref]")
        assert links.count() == page.locator("#preview table.modifiers tr.modifier").count()
        for i in range(links.count()):
            box = links.nth(i).bounding_box()
            assert box["height"] >= 44 and box["width"] >= 44
        link = links.nth(links.count() - 1)
        ref = link.get_attribute("data-ref")
        link.click()
        page.wait_for_selector(f"#rules-dialog[open] #ref-{ref}.rules-hit")
        row = page.locator(f"#ref-{ref}")
        # The row is scrolled into the dialog's view and has focus.
        body = page.locator("#rules-body").bounding_box()
        box = row.bounding_box()
        assert (
            box["y"] >= body["y"] - 1
            and box["y"] + min(box["height"], 40) <= body["y"] + body["height"] + 1
        )
        assert page.evaluate("document.activeElement.id") == f"ref-{ref}"
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "rules-from-a-modifier-line.png"))
        page.keyboard.press("Escape")
        page.wait_for_selector("#rules-dialog", state="hidden")
        assert page.evaluate("document.activeElement.dataset.ref") == ref
        # The results' link opens the table the odds come from.
        table = page.locator("#preview .rules-link.table-link")
        assert table.count() == 1
        table.click()
        target = table.get_attribute("data-ref")
        page.wait_for_selector(f"#rules-dialog[open] #ref-{target}.rules-hit")
        page.keyboard.press("Escape")
        app.assert_no_errors()
    finally:
        app.context.close()


def test_the_rules_are_in_polish_when_the_game_is(browser, site_url):
    app = open_demo(browser, site_url, "demo-valmont", "pl")
    page = app.page
    pl = WORDS["pl"]
    try:
        start(page)
        assert page.locator("#rules").inner_text() == pl["ui.rules"]
        open_rules(page)
        assert page.locator("#rules-title").inner_text() == pl["ui.rules_title"]
        assert page.locator("#ref-terrain-title").inner_text() == pl["ref.section.terrain"]
        fire = page.locator("#ref-fire-table-title").inner_text()
        assert fire == pl["ref.section.hf_fire_table"]
        heads = page.locator("#ref-terrain thead th").all_inner_texts()
        assert pl["ref.col.terrain"] in heads
        text = page.locator("#rules-body").inner_text()
        assert no_raw(text, "demo-valmont") == []
        page.keyboard.press("Escape")
        app.assert_no_errors()
    finally:
        app.context.close()


def test_the_dialog_reads_well_on_a_tablet(browser, site_url):
    SHOTS.mkdir(parents=True, exist_ok=True)
    shots = {
        "demo-valmont": ("#ref-terrain-woods", "#ref-melee-modifiers"),
        "demo-hohenbrueck": ("#ref-terrain-woods", "#ref-crt"),
        "demo-fontanella": ("#ref-approaches", "#ref-assault-results"),
    }
    for demo, (first, second) in shots.items():
        app = open_demo(browser, site_url, demo)
        page = app.page
        try:
            start(page)
            open_rules(page)
            box = page.locator("#rules-dialog").bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= W + 0.5
            # Wide charts scroll inside the dialog, never the page.
            assert page.evaluate("document.scrollingElement.scrollWidth") <= W
            sizes = page.evaluate(
                """() => [...document.querySelectorAll(
                    '#rules-body td, #rules-body th, #rules-body p, #rules-body dd')]
                  .filter((e) => e.getBoundingClientRect().width > 0)
                  .map((e) => parseFloat(getComputedStyle(e).fontSize))"""
            )
            assert min(sizes) >= 14, min(sizes)
            page.screenshot(path=str(SHOTS / f"rules-{demo}.png"))
            page.locator(first).scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"rules-{demo}-terrain.png"))
            page.locator(second).scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"rules-{demo}-2.png"))
            assert re.search(r"\S", page.locator("#rules-body").inner_text())
            app.assert_no_errors()
        finally:
            app.context.close()
    assert TABLET["viewport"]["width"] == W
