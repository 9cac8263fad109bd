"""Every refusal of a file says its problem in words of every language: a ``problem.*`` key
with parameters (``muster.problems``), never English text.

The source is read with ``ast``: each place that raises a refusal of a file (``ScenarioError``,
``expect``, ``known_name``, and the errors of the tables an override or an owner's table goes
through) names its problem by a key of ``muster.problems`` with exactly the parameters of its
words, and each key has the same parameters in en, pl, fr and ja (en the very English of the
core's messages).
"""

from __future__ import annotations

import ast
import json
import re
import string
from pathlib import Path
from typing import Any

import pytest

import muster
from muster.api import Session
from muster.errors import ScenarioError
from muster.problems import PROBLEMS, english

ROOT = Path(__file__).resolve().parents[2]
CORE = Path(muster.__file__).resolve().parent  # the sources, or the wheel's under Pyodide
LANGS = ("en", "pl", "fr", "ja")
WORDS = {
    lang: json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    for lang in LANGS
}
# Calls that raise a refusal of a file, and the position of their problem key.
RAISERS = {
    "ScenarioError": 1,
    "expect": 2,
    "known_name": 3,
    "TableError": 1,
    "TerrainDataError": 2,
    "LosDataError": 2,
    "bad_crt": 1,
}
# Parameters a raiser fills itself (``known_name`` gives the value as ``got``).
FILLED = {"known_name": {"got"}}
# Raisers that pass on a key they were given (a helper's parameter, not a key of their own).
PASSED_ON = {"problem", "how", "exc.problem", "found[1]"}
PASSED_ON |= {"_KIND_PROBLEMS.get(kind, 'problem.setting_kind')"}  # the table's kinds, below
KEY = re.compile(r"^problem\.[a-z_]+$")


def names(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def calls() -> list[tuple[str, str, int, str, Any, set[str] | None]]:
    """(file, raiser, line, key or source text, the key node, keyword names or None for **)."""
    found = []
    for path in sorted(CORE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name not in RAISERS:
                continue
            at = RAISERS[name]
            if len(node.args) <= at:
                key = next((k.value for k in node.keywords if k.arg == "problem"), None)
                if key is None:  # a data error of the system's own file: no key of its own
                    assert name in ("TerrainDataError", "LosDataError"), (path, node.lineno)
                    continue
            else:
                key = node.args[at]
            text = key.value if isinstance(key, ast.Constant) else ast.unparse(key)
            kw = {k.arg for k in node.keywords if k.arg and k.arg != "problem"}
            if any(k.arg is None for k in node.keywords):
                kw = None
            rel = str(path.relative_to(CORE.parent))
            found.append((rel, name, node.lineno, text, key, kw))
    return found


CALLS = calls()


def test_the_scan_finds_the_refusals():
    keys = {c[3] for c in CALLS}
    assert len(CALLS) > 120
    assert {"problem.object", "problem.whole_number", "problem.unknown_terrain"} <= keys


def test_every_refusal_names_a_problem_key_with_its_parameters():
    bad = []
    for rel, name, line, text, node, kw in CALLS:
        if isinstance(node, ast.Constant):
            if not (isinstance(text, str) and KEY.match(text) and text in PROBLEMS):
                bad.append(f"{rel}:{line} {name}: {text!r} is not a problem key")
                continue
            if kw is not None:
                wanted = names(PROBLEMS[text]) - FILLED.get(name, set())
                if kw != wanted:
                    bad.append(f"{rel}:{line} {text}: parameters {sorted(kw)} not {sorted(wanted)}")
        elif isinstance(node, ast.IfExp):
            for branch in (node.body, node.orelse):
                ok = isinstance(branch, ast.Constant) and branch.value in PROBLEMS
                if not ok:
                    bad.append(f"{rel}:{line} {name}: {ast.unparse(branch)} is not a problem key")
        elif text not in PASSED_ON:
            bad.append(f"{rel}:{line} {name}: the problem {text} is not a key")
    assert bad == []


def test_every_problem_key_in_the_source_has_english():
    found = set()
    for path in CORE.rglob("*.py"):
        found |= set(re.findall(r"[\"'](problem\.[a-z_]+)[\"']", path.read_text(encoding="utf-8")))
    assert sorted(found - set(PROBLEMS) - {"problem.of_another_version"}) == []  # a doctest's


def test_every_problem_key_is_raised_somewhere():
    # In the core, or by the app's file reader (a file that is not JSON: static/files.js).
    files = [*CORE.rglob("*.py"), ROOT / "static" / "files.js"]
    source = "\n".join(p.read_text(encoding="utf-8") for p in files)
    unused = sorted(k for k in PROBLEMS if source.count(f'"{k}"') < 2)  # its words and a use
    assert unused == []


@pytest.mark.parametrize("lang", LANGS)
def test_every_problem_has_words_with_the_same_parameters(lang):
    words = WORDS[lang]
    missing = sorted(k for k in PROBLEMS if k not in words)
    assert missing == []
    differ = sorted(k for k in PROBLEMS if names(words[k]) != names(PROBLEMS[k]))
    assert differ == []
    if lang == "en":  # the English on screen is the core's own
        assert {k: words[k] for k in PROBLEMS} == PROBLEMS
    else:  # and the words are the language's, not the English left in
        same = sorted(k for k in PROBLEMS if words[k] == PROBLEMS[k] and names(words[k]) != {})
        assert same == []
        assert all(words[k] != PROBLEMS[k] for k in PROBLEMS if len(PROBLEMS[k]) > 12)


def test_no_problem_word_outside_the_table():
    """The i18n files hold no ``problem.*`` key the core cannot raise."""
    extra = sorted(k for k in WORDS["en"] if k.startswith("problem.") and k not in PROBLEMS)
    assert extra == []


def test_a_refusal_sends_its_problem_as_a_label():
    session = Session()
    answer = session.call("load_scenario", {"scenario": {"format": "muster-scenario/1"}})
    assert answer["ok"] is False
    error = answer["error"]
    assert error["key"] == "error.scenario"
    assert error["params"]["place"] == "id"
    assert error["params"]["problem"] == {"key": "problem.non_empty_text", "params": {}}
    assert error["message"] == "id: expected a non-empty text"


def test_english_fills_its_parameters_or_falls_back():
    assert english("problem.off_map", {"id": "0912"}) == "hex 0912 is not on the map"
    assert english("problem.off_map", {}) == PROBLEMS["problem.off_map"]  # never a KeyError
    error = ScenarioError("map.rows", "problem.whole_number", lo=1, hi=99, got="0")
    assert str(error) == "map.rows: expected a whole number from 1 to 99, got 0"
    assert error.to_json()["params"]["problem"]["params"] == {"lo": 1, "hi": 99, "got": "0"}
