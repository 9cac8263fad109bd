"""JavaScript that older iPad Safari cannot parse kills the whole module on a tablet.

A token scan of static/ for syntax newer than ES2020 (and a few later features Safari
took long to ship). Strings and comments are stripped first so prose cannot trip it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted((ROOT / "static").rglob("*.js")) + [
    ROOT / "tests" / "e2e" / "pyodide_harness.html"
]

FORBIDDEN = {
    "explicit resource management (using)": re.compile(
        r"\b(?:await\s+)?using\s+[A-Za-z_$][\w$]*\s*="
    ),
    "class static block": re.compile(r"\bstatic\s*\{"),
    "logical assignment": re.compile(r"(\?\?=|\|\|=|&&=)"),
    "private class member": re.compile(r"(?<![\w$\"'])#[A-Za-z_$][\w$]*"),
    "import attributes": re.compile(r"\bwith\s*\{\s*type\s*:"),
    "array findLast": re.compile(r"\.findLast(Index)?\("),
    "Object.groupBy": re.compile(r"\b(Object|Map)\.groupBy\("),
    "Array.prototype.at": re.compile(r"\]\.at\(|\)\.at\("),
    "structuredClone": re.compile(r"\bstructuredClone\("),
}


def strip_strings_and_comments(code: str) -> str:
    """Blank out comments, string and template literals (keeping line structure)."""
    pattern = re.compile(
        r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`",
        re.S,
    )
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), code)


def test_sources_found():
    names = {p.name for p in SOURCES}
    assert {"app.js", "engine.js", "worker.js", "pyboot.js", "hex.js"} <= names


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_syntax_newer_than_ipad_safari_accepts(path):
    code = strip_strings_and_comments(path.read_text(encoding="utf-8"))
    found = [
        f"{name} at line {code[: m.start()].count(chr(10)) + 1}"
        for name, rx in FORBIDDEN.items()
        for m in rx.finditer(code)
    ]
    assert found == []


def test_the_scan_catches_what_it_looks_for():
    bad = "class A { #x = 1; static { } }\nusing res = f();\na ??= b;\nlist.findLast(f);"
    code = strip_strings_and_comments(bad)
    hits = {name for name, rx in FORBIDDEN.items() if rx.search(code)}
    assert hits == {
        "private class member",
        "class static block",
        "explicit resource management (using)",
        "logical assignment",
        "array findLast",
    }
    assert not any(
        rx.search(strip_strings_and_comments('"a ??= b" // using x = 1'))
        for rx in FORBIDDEN.values()
    )
