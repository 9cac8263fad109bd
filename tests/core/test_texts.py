"""A scenario's own words in several languages: every name and the title and description of a
scenario may be a text or texts by language code; anything else is refused naming its place,
and the core's English is the English text, else the first given (muster.texts)."""

from __future__ import annotations

import copy
import json

import pytest
from test_scenario import tiny

from muster.areamap import EXAMPLE
from muster.errors import ScenarioError
from muster.ruleset import unit_words
from muster.scenario import SCENARIO_DIR, load_builtin, parse_scenario
from muster.texts import LANGUAGES, english

FOUR = {"en": "Blue", "pl": "Niebiescy", "fr": "Bleus", "ja": "青軍"}


def area_scenario():
    """The area map's example, with one block."""
    data = copy.deepcopy(EXAMPLE)
    where = data["map"]["locales"][0]["id"]
    side = data["sides"][0]["id"]
    block = {"id": "x1", "side": side, "type": "infantry", "name": "X", "steps": 1}
    data["units"] = [dict(block, locale=where, approach=None)]
    return data


def refusal(data):
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(data)
    return str(caught.value)


@pytest.mark.parametrize(
    "path",
    ["title", "description", "sides__0__name", "units__0__name", "map__hexsides__0__name"],
)
def test_any_name_of_a_hex_scenario_may_be_given_in_each_language(path):
    sc = parse_scenario(tiny(**{path: dict(FOUR)}))
    node = sc.data
    for key in path.split("__"):
        node = node[int(key)] if isinstance(node, list) else node[key]
    assert node == FOUR  # kept as the file gives it: the screen picks the player's language


def test_names_of_an_area_scenario_may_be_given_in_each_language():
    data = area_scenario()
    data["title"] = dict(FOUR)
    data["sides"][0]["name"] = {"en": "Austria", "ja": "オーストリア"}
    data["units"][0]["name"] = {"fr": "Dragons"}
    data["map"]["locales"][0]["name"] = {"pl": "Wieś", "en": "Village"}
    sc = parse_scenario(data)
    assert sc.data["sides"][0]["name"] == {"en": "Austria", "ja": "オーストリア"}
    # The core's own English of a locale: the English, else the first given.
    assert sc.locales[data["map"]["locales"][0]["id"]].name == "Village"


@pytest.mark.parametrize(
    ("path", "value", "place", "problem"),
    [
        ("sides__0__name", {"de": "Blau"}, "sides[0] name.de", 'unknown language "de"'),
        ("sides__0__name", {"en": "Blue", "pl": 3}, "sides[0] name.pl", "non-empty text"),
        ("sides__0__name", {"en": ""}, "sides[0] name.en", "non-empty text"),
        ("sides__0__name", {}, "sides[0] name", "texts by language code"),
        ("sides__0__name", ["Blue"], "sides[0] name", "non-empty text"),
        ("title", {"EN": "Tiny"}, "title.EN", 'unknown language "EN"'),
        ("units__1__name", {"fr": None}, "unit b1 name.fr", "non-empty text"),
        ("description", {"ja": 1}, "scenario description.ja", "expected a text"),
        ("map__hexsides__0__name", {"xx": "Bach"}, "hexside 0101/0201 name.xx", "unknown"),
    ],
)
def test_a_bad_name_is_refused_naming_its_place(path, value, place, problem):
    text = refusal(tiny(**{path: value}))
    assert text.startswith(place + ":"), text
    assert problem in text, text


def test_an_empty_description_is_still_a_description():
    assert parse_scenario(tiny(description={"en": "", "pl": ""})).data["description"]["pl"] == ""


def test_a_bad_locale_name_names_the_locale():
    data = area_scenario()
    lid = data["map"]["locales"][0]["id"]
    data["map"]["locales"][0]["name"] = {"it": "Borgo"}
    assert refusal(data).startswith(f"locale {lid} name.it: unknown language")


def test_english_is_the_fallback_of_the_core():
    assert english("France") == "France"
    assert english({"ja": "フランス", "en": "France"}) == "France"
    assert english({"ja": "フランス", "pl": "Francja"}) == "フランス"  # the first given


@pytest.mark.parametrize("path", sorted(SCENARIO_DIR.glob("demo-*.json")), ids=lambda p: p.stem)
def test_the_demos_name_their_sides_and_formations_in_every_language(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    named = [data["title"], data["description"]]
    named += [s["name"] for s in data["sides"]] + [f["name"] for f in data.get("formations", [])]
    for value in named:
        assert isinstance(value, dict) and set(value) == set(LANGUAGES), value
        assert all(value[lang].strip() for lang in LANGUAGES), value
    # A side's name differs from English in some language (not left untranslated everywhere).
    for side in data["sides"]:
        assert any(side["name"][lang] != side["name"]["en"] for lang in ("pl", "fr", "ja"))
    sc = load_builtin(data["id"])
    assert sc.data["sides"][0]["name"] == data["sides"][0]["name"]


def test_a_refusal_names_a_unit_by_its_english():
    data = tiny()
    data["units"][0]["name"] = {"pl": "Pułk", "en": "Regiment"}
    assert unit_words(parse_scenario(data), "a1") == "Regiment"
