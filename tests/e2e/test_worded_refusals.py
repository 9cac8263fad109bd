"""A refused scenario says its problem in the player's language: in Polish, French and
Japanese the message holds the language's words of the problem, and none of the English ones
(the core's problem is a key with parameters, ``muster.problems``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from apppage import open_app, open_file
from editorpage import open_editor, status

from muster.problems import PROBLEMS

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.e2e

WORDS = {
    lang: json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    for lang in ("pl", "fr", "ja")
}
# The English of every problem: the runs of two words or more between its parameters.
ENGLISH = sorted(
    {
        part.strip(" :,()")
        for template in PROBLEMS.values()
        for part in re.split(r"\{\w+\}", template)
        if len(part.strip(" :,()").split()) >= 2
    }
)


def filled(text: str, **params: str) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: params.get(m.group(1), m.group(0)), text)


def english_in(text: str) -> list[str]:
    return [part for part in ENGLISH if part in text]


def test_the_english_runs_are_found_in_english():
    """The check below could fail: each problem's English is caught by it."""
    for key, template in PROBLEMS.items():
        if len(template.split()) > 2:
            assert english_in(filled(template, got='"x"', id="0101", other="0102")), key


@pytest.mark.parametrize("lang", ["pl", "fr", "ja"])
def test_a_refused_scenario_is_said_in_the_players_language(browser, site_url, lang):
    app = open_app(browser, f"{site_url}?lang={lang}")
    page = app.page
    words = WORDS[lang]
    good = json.loads(page.evaluate("JSON.stringify(window.muster.state.scenario)"))
    cases = []
    typo = json.loads(json.dumps(good))
    typo["map"]["hexes"]["0302"] = {"terrain": ["wods"]}
    cases.append((typo, "hex 0302", filled(words["problem.unknown_terrain"], got='"wods"')))
    rows = json.loads(json.dumps(good))
    rows["map"]["rows"] = 0
    got = filled(words["problem.whole_number"], lo="1", hi="99", got="0")
    cases.append((rows, "map.rows", got))
    for i, (bad, place, problem) in enumerate(cases):
        page.evaluate("document.querySelector('#message').textContent = ''")
        open_file(page, f"bad{i}.json", json.dumps(bad))
        page.wait_for_function("document.querySelector('#message').textContent !== ''")
        shown = page.locator("#message").inner_text()
        assert shown == filled(words["error.scenario"], place=place, problem=problem)
        assert english_in(shown) == []
    # A file that is not JSON: where it stops being JSON, in words (not the browser's English).
    page.evaluate("document.querySelector('#message').textContent = ''")
    open_file(page, "broken.json", '{\n  "id": "x",\n  "map": {,\n}')
    page.wait_for_function("document.querySelector('#message').textContent !== ''")
    shown = page.locator("#message").inner_text()
    where = filled(words["problem.json_at"], line="3", column="11")
    assert shown == filled(words["error.bad_file"], detail=where)
    assert "JSON.parse" not in shown and "Unexpected" not in shown and "Expected" not in shown
    # The game in progress is kept.
    assert page.evaluate("window.muster.state.scenario.id") == good["id"]
    app.assert_no_errors()
    app.context.close()


def test_the_editor_says_a_drafts_problem_in_polish(browser, site_url):
    app = open_app(browser, f"{site_url}?lang=pl", viewport={"width": 1280, "height": 800})
    page = app.page
    open_editor(page)
    page.evaluate(
        "window.musterEditor.draft.change(s => { s.map.hexes['2929'] = {terrain: ['woods']}; })"
    )
    page.wait_for_function("document.querySelector('#editor-status').dataset.kind === 'error'")
    words = WORDS["pl"]
    problem = filled(words["problem.off_map"], id="2929")
    expected = filled(words["editor.problem"], place="hex 2929", problem=problem)
    assert status(page) == filled(words["editor.status_problem"], problem=expected)
    assert english_in(status(page)) == []
    app.assert_no_errors()
    app.context.close()
