"""The words: every language has every key, and every message key the core emits has words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("en", "pl", "fr", "ja")
WORDS = {
    lang: json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text()) for lang in LANGS
}
KEY = re.compile(r"""["']((?:log|move|los|error|prompt|action|ui|step)\.[a-z_.]+)["']""")


# The forms a key's words may take by number (Intl.PluralRules): an object of them, "other"
# always among them, stands for the words of a key with a count.
PLURAL_FORMS = {"zero", "one", "two", "few", "many", "other"}
NAME = re.compile(r"\{(\w+)\}")


def forms(text):
    """The texts of a key's words: one, or each plural form."""
    return list(text.values()) if isinstance(text, dict) else [text]


def parameters(text):
    """The {names} a key's words fill in (all its plural forms')."""
    return {name for form in forms(text) for name in NAME.findall(form)}


@pytest.mark.parametrize("lang", LANGS[1:])
def test_every_language_has_every_key(lang):
    assert sorted(set(WORDS["en"]) - set(WORDS[lang])) == []
    assert sorted(set(WORDS[lang]) - set(WORDS["en"])) == []


@pytest.mark.parametrize("lang", LANGS)
def test_parameters_match_english(lang):
    for key, text in WORDS[lang].items():
        assert parameters(text) == parameters(WORDS["en"][key]), (lang, key)


@pytest.mark.parametrize("lang", LANGS)
def test_words_are_text_or_plural_forms_with_other(lang):
    for key, text in WORDS[lang].items():
        if isinstance(text, dict):
            assert "other" in text, (lang, key)
            assert set(text) <= PLURAL_FORMS, (lang, key, sorted(set(text) - PLURAL_FORMS))
            assert all(isinstance(form, str) and form for form in text.values()), (lang, key)
        else:
            assert isinstance(text, str), (lang, key)


def test_message_keys_in_the_core_have_words():
    found = set()
    for path in (ROOT / "py" / "muster").rglob("*.py"):
        found |= set(KEY.findall(path.read_text()))
    found = {k for k in found if not k.endswith((".", ".json"))}
    missing = sorted(k for k in found if k not in WORDS["en"])
    assert missing == []


def test_combat_and_terrain_keys_have_words():
    combat = json.loads((ROOT / "py/muster/systems/hex_facing/combat.json").read_text())
    for table, prefix in (("melee_modifiers", "melee."), ("fire_modifiers", "fire.")):
        rows = combat[table]["rows"] if isinstance(combat[table], dict) else combat[table]
        for row in rows:
            if row["id"] == "reaction_or_counter_battery":
                continue  # worded as fire.reaction and fire.counter_battery
            assert prefix + row["id"] in WORDS["en"], row["id"]
    for system in ("hex_facing", "hex_hexside"):
        chart = json.loads((ROOT / "py/muster/systems" / system / "terrain.json").read_text())
        for row in chart["rows"]:
            for name in row["names"]:
                group = {"hex": "terrain.", "connection": "connection."}.get(
                    row["kind"], "feature."
                )
                if row["kind"] in ("condition",) or name in ("road", "trail"):
                    continue
                if row["kind"] == "connection" and name not in ("road", "trail"):
                    group = "feature."
                assert group + name in WORDS["en"], (system, name)


def test_every_part_of_a_save_the_core_refuses_has_words():
    core = ROOT / "py" / "muster"
    game = (core / "game.py").read_text() + (core / "savefile.py").read_text()
    # Named in calls, and the three of the loop over kinds ("actions", "options", "hash").
    parts = set(re.findall(r'\bbad_save\("(\w+)"\)', game)) | {"actions", "options", "hash"}
    assert len(parts) == 8
    for part in parts:
        assert "save_part." + part in WORDS["en"], part


def test_every_count_a_limit_names_has_words():
    """``error.too_large`` names what it counted ("units"): the UI words it as ``what.units``."""
    found = set()
    for path in (ROOT / "py" / "muster").rglob("*.py"):
        text = path.read_text()
        found |= set(re.findall(r'too_large\([^,]+, "(\w+)"', text))
        found |= set(re.findall(r'check_count\([^,]+, [^,]+, "(\w+)"', text))
    assert {"characters", "units", "hexes", "locales", "actions"} <= found
    missing = sorted(w for w in found if "what." + w not in WORDS["en"])
    assert missing == []


def test_the_keys_the_i18n_module_names_have_words():
    """static/i18n.js words a side of none, a rule number and the engine's default itself."""
    module = (ROOT / "static" / "i18n.js").read_text()
    named = set(re.findall(r"""["'](ui\.[a-z_]+)["']""", module))
    assert {"ui.nobody", "ui.rule", "ui.default_rule"} <= named
    for lang in LANGS:
        assert sorted(k for k in named if k not in WORDS[lang]) == [], lang
