"""The screen speaks the player's language on a tablet (820×1180, touch): a whole turn of each
demo in Polish, French and Japanese shows no English word (the scenario's side and formation
names, the unit types and the app's words included), a change of language words the map
again, the header is one row in every language with Line of sight on, and Undo and Cancel
differ in every language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_play_panel import (
    DEMOS,
    LANGS,
    move_by_map,
    open_demo,
    play_a_turn,
    reveal_if_covered,
    tap,
)

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
WORDS = {
    lang: json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    for lang in LANGS
}
# A word: three letters or more (shorter ones are signs and codes: "IR", "M", "r").
WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ]{3,}")
# Every text on screen and on the map: the page's text, and the map's labels and tooltips.
SCREEN_TEXT = """() => document.body.innerText + "\\n" +
  Array.from(document.querySelectorAll("svg text, svg title"), (t) => t.textContent).join("\\n")"""


def texts(value) -> list[str]:
    """Every text of a word's value (one text, or plural forms)."""
    if isinstance(value, dict):
        return [t for v in value.values() for t in texts(v)]
    return [value] if isinstance(value, str) else []


def by_language(value) -> bool:
    """A text of the scenario given in several languages ({"en": ..., "pl": ...})."""
    return (
        isinstance(value, dict)
        and value != {}
        and set(value) <= set(LANGS)
        and all(isinstance(v, str) for v in value.values())
    )


def english_words(demo: str, lang: str) -> set[str]:
    """The words a screen in ``lang`` must not show: the English of every app word that is
    worded otherwise in ``lang``, and of the scenario's texts given in several languages; less
    every word that ``lang`` uses itself (a proper name the same in both: "Austria", "France"
    in French) and the scenario's texts given once (regiment and place names)."""
    english: set[str] = set()
    own: set[str] = set()
    for key, value in WORDS["en"].items():
        if WORDS[lang].get(key) != value:
            for text in texts(value):
                english.update(WORD.findall(re.sub(r"\{\w+\}", " ", text)))
    for value in WORDS[lang].values():
        for text in texts(value):
            own.update(WORD.findall(text))

    def walk(node) -> None:
        if by_language(node):
            english.update(WORD.findall(node.get("en", "")))
            own.update(WORD.findall(node.get(lang, "")))
        elif isinstance(node, dict):
            for item in node.values():
                walk(item)
        elif isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, str):
            own.update(WORD.findall(node))

    walk(json.loads((ROOT / "py" / "muster" / "scenarios" / f"{demo}.json").read_text()))
    return english - own


def english_on_screen(page, english: set[str]) -> list[str]:
    """The English words on screen, each with the text around it."""
    text = page.evaluate(SCREEN_TEXT)
    found = []
    for m in WORD.finditer(text):
        if m.group() in english:
            found.append(text[max(0, m.start() - 40) : m.end() + 40].replace("\n", " | "))
    return found


def test_the_english_words_include_the_scenarios_names():
    """The list a screen is checked against holds the names the demos gave in English alone
    before (sides, formations, unit types), and none of a language's own words."""
    assert {"Prussia", "Cavalry", "Brigade", "Artillery"} <= english_words(
        "demo-valmont", "pl"
    ) | english_words("demo-hohenbrueck", "pl")
    assert "Austria" in english_words("demo-valmont", "fr")  # Autriche
    assert "France" not in english_words("demo-valmont", "fr")  # the same word in French
    assert "Infantry" in english_words("demo-valmont", "ja")


@pytest.mark.parametrize("lang", ["pl", "fr", "ja"])
@pytest.mark.parametrize("demo", DEMOS)
def test_a_whole_turn_shows_no_english_word(browser, site_url, demo, lang):
    english = english_words(demo, lang)
    app = open_demo(browser, site_url, demo, lang)
    page = app.page
    try:
        seen = english_on_screen(page, english)
        tap(page, page.locator("#new-game"))
        reveal_if_covered(page)
        seen += english_on_screen(page, english)
        play_a_turn(page, area=demo == "demo-fontanella")
        reveal_if_covered(page)
        seen += english_on_screen(page, english)
        assert seen == [], (demo, lang, seen[:10])
        app.assert_no_errors()
    finally:
        app.context.close()


HEADER_CONTROLS = "header.bar > :not(.brand):not(.spacer):not(#status):not([hidden])"


def header_rows(page) -> dict:
    """The header's height and the box of each control shown in it."""
    return page.evaluate(
        """(selector) => ({
          height: document.querySelector("header.bar").getBoundingClientRect().height,
          padding: parseFloat(getComputedStyle(document.querySelector("header.bar")).paddingTop)
            + parseFloat(getComputedStyle(document.querySelector("header.bar")).paddingBottom),
          boxes: Array.from(document.querySelectorAll(selector))
            .filter((n) => n.getClientRects().length)
            .map((n) => {
              const r = n.getBoundingClientRect();
              return {id: n.id || n.className, top: r.top, height: r.height, width: r.width};
            }),
        })""",
        HEADER_CONTROLS,
    )


@pytest.mark.parametrize("lang", LANGS)
def test_the_header_is_one_row(browser, site_url, lang):
    app = open_demo(browser, site_url, "demo-valmont", lang)
    page = app.page
    try:
        for los in (False, True):
            if los:
                page.locator("#los-tool").tap()
                assert page.get_attribute("#los-tool", "aria-pressed") == "true"
            got = header_rows(page)
            boxes = got["boxes"]
            ids = [b["id"] for b in boxes]
            assert {"scenario-select", "goto-form", "los-tool", "open-scenario"} <= set(ids), ids
            assert {"open-editor", "help-button", "settings-button"} <= set(ids), ids
            tops = [b["top"] for b in boxes]
            assert max(tops) - min(tops) <= 1, (lang, los, boxes)
            tallest = max(b["height"] for b in boxes)
            assert got["height"] <= tallest + got["padding"] + 1, (lang, los, got)
            for box in boxes:
                assert box["height"] >= 44 and box["width"] >= 44, (lang, box)
            # A control shown as a sign is named for a screen reader, in this language.
            for button in ("#open-scenario", "#open-editor"):
                label = page.get_attribute(button, "aria-label")
                key = "ui.open_scenario" if button == "#open-scenario" else "editor.open_editor"
                assert label == WORDS[lang][key]
        app.assert_no_errors()
    finally:
        app.context.close()


def switch_language(page, lang: str) -> None:
    """Choose a language in the settings, as a player does."""
    page.locator("#settings-button").tap()
    page.select_option("#lang", lang)
    page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
    page.keyboard.press("Escape")


def test_a_change_of_language_words_the_hex_map_again(browser, site_url):
    app = open_demo(browser, site_url, "demo-valmont", "en")
    page = app.page
    try:
        tap(page, page.locator("#new-game"))
        play_a_turn(page)
        switch_language(page, "ja")
        # Every counter drawn again with its side's name in Japanese (its tooltip).
        titles = page.evaluate(
            "Array.from(document.querySelectorAll('#map [data-unit] > title'), t => t.textContent)"
        )
        assert titles and all("フランス" in t or "オーストリア" in t for t in titles), titles[:3]
        assert not any("France" in t or "Austria" in t for t in titles)
        # The header's title and the scenario list in the new language.
        assert (
            page.locator("#scenario-select option:checked").text_content().startswith("ヴァルモン")
        )
        assert "Brigade" not in page.locator("#play-panel").inner_text()
        # The helper every screen words the scenario's texts with: this language, else
        # English, else the first given; one text as it is.
        pick = "(v) => window.muster.i18n.pick(v)"
        assert page.evaluate(pick, {"en": "France", "ja": "フランス"}) == "フランス"
        assert page.evaluate(pick, {"pl": "Francja", "en": "France"}) == "France"
        assert page.evaluate(pick, {"pl": "Francja", "fr": "France"}) == "Francja"
        assert page.evaluate(pick, "IR 15 Garde") == "IR 15 Garde"
        app.assert_no_errors()
    finally:
        app.context.close()


def test_a_change_of_language_words_the_area_map_again(browser, site_url):
    app = open_demo(browser, site_url, "demo-fontanella", "en")
    page = app.page
    try:
        caps = page.locator("#area-map .am-cap")
        assert caps.first.text_content().startswith("holds ")
        tap(page, page.locator("#new-game"))
        reveal_if_covered(page)
        assert move_by_map(page, area=True)  # a block moved: it bears the mark "M"
        marks = page.locator("#area-map [data-marker]")
        assert marks.count() > 0
        switch_language(page, "pl")
        assert all(t.startswith("mieści ") for t in caps.all_text_contents())
        for i in range(marks.count()):
            mark = marks.nth(i)
            sign = WORDS["pl"]["marker_sign." + mark.get_attribute("data-marker")]
            assert mark.locator("text").text_content() == sign
            assert (
                mark.locator("title")
                .text_content()
                .startswith(WORDS["pl"]["marker." + mark.get_attribute("data-marker")])
            )
        titles = page.locator("#area-map [data-piece] > title").all_text_contents()
        assert any("Francja" in t for t in titles), titles[:3]  # the other side's bare blocks
        assert not any("France" in t for t in titles)
        app.assert_no_errors()
    finally:
        app.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_undo_and_cancel_differ(browser, site_url, lang):
    words = WORDS[lang]
    undo = {words["ui.undo"], words["keys.undo"]}
    assert undo.isdisjoint({words["ui.cancel"], words["ui.cancel_selection"]}), lang
    app = open_demo(browser, site_url, "demo-hohenbrueck", lang)
    page = app.page
    try:
        tap(page, page.locator("#new-game"))
        # A unit picked on the map, as move_by_map does: Cancel (the selection) and Undo shown.
        for i in range(page.locator("#dock button.unit-pick").count()):
            unit = page.locator("#dock button.unit-pick").nth(i).get_attribute("data-unit")
            box = page.locator(f"#map [data-unit='{unit}']").first.bounding_box()
            if box and box["y"] >= 0 and box["y"] + box["height"] <= 1180:
                page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + 8)
                break
        page.wait_for_selector("#dock .selected-bar, #picker")
        if page.locator("#picker").count():
            page.locator("#picker .pick-row").first.click()
        cancel = page.locator("#unselect")
        cancel.wait_for()
        shown_undo = page.locator("#undo").inner_text()
        assert shown_undo == words["ui.undo"]
        assert cancel.inner_text() != shown_undo, (lang, shown_undo)
        app.assert_no_errors()
    finally:
        app.context.close()


def test_french_elides_de_and_que_before_a_name_that_begins_with_a_vowel(browser, site_url):
    """A French text puts "d'" and "qu'" before a name beginning with a vowel, as French is
    written ("Tir d'artillerie d'Artillerie"), and "de" before any other; no other language's
    text is touched, and nothing the texts write themselves."""
    app = open_demo(browser, site_url, "demo-valmont", "fr")
    page = app.page
    try:
        t = "([k, p]) => window.muster.i18n.t(k, p)"
        assert page.evaluate(t, ["choice.hf_fire", {"formation": "au-art"}]) == (
            "Tir d'artillerie d'Artillerie"
        )
        assert page.evaluate(t, ["choice.hf_fire", {"formation": "fr-bde1"}]) == (
            "Tir d'artillerie de Brigade Morand"
        )
        assert page.evaluate(t, ["editor.ask_edit_play", {"title": "Ulm"}]).startswith(
            "Modifier une copie d'Ulm,"
        )
        assert page.evaluate(t, ["editor.ask_edit_play", {"title": "Hohenbrück"}]).startswith(
            "Modifier une copie de Hohenbrück,"
        )
        assert "\u0001" not in page.evaluate(t, ["choice.hf_fire", {"formation": "au-art"}])
        app.assert_no_errors()
    finally:
        app.context.close()
