"""The architecture page (``docs/architecture.md``) and the README's layout table match the tree.

Every path the layout table and the page name exists; every file of the rules core (``*.py``,
``*.json`` under ``py/muster/``), of the app (``*.js``, ``*.css`` under ``static/``) and at the
top of the repository has its row in the layout table (a glob row, ``static/editor/*.js``,
stands for its files when the page names each of them; the words, ``static/i18n/*.json``, are
one row); and no file under ``py/`` or ``static/`` is over ``LINE_LIMIT`` lines unless the
page's section "Files over 800 lines" names it with its reason.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGE = ROOT / "docs" / "architecture.md"
LINE_LIMIT = 800
LONG_FILES = "Files over 800 lines"
# The one glob row that needs no line on the page: a file of words per language.
WORDS = "static/i18n/*.json"
# What the build writes (dist/ and the paths inside it) and what setup downloads: named in
# prose, never in the repository.
BUILT = ("dist/", "core/", "pyodide/", "scenarios/", ".cache/", "node_modules/")
CACHES = {"__pycache__", ".pytest_cache", ".ruff_cache", ".mypy_cache"}
ROW = re.compile(r"^\| `([^`]+)` \|")
SPAN = re.compile(r"`([^`\s]+)`")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
ENTRY = re.compile(r"^- `([^`]+)`: (\S.*)$")


def section(text: str, heading: str) -> str:
    """The text under ``heading`` (a level-2 heading) up to the next one."""
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def layout_rows() -> list[str]:
    """The paths of the README's layout table, one a row."""
    lines = section(README.read_text(encoding="utf-8"), "Layout").splitlines()
    return [m.group(1) for m in map(ROW.match, lines) if m]


def page_paths() -> set[str]:
    """The paths the architecture page names: every span in backticks with a ``/`` in it, but
    placeholders (``<folder>``), what the build writes and what lies outside the repository."""
    text = FENCE.sub("", PAGE.read_text(encoding="utf-8"))
    return {
        span
        for span in SPAN.findall(text)
        if "/" in span
        and "<" not in span
        and "://" not in span
        and not span.startswith(("../", *BUILT))
    }


def is_glob(path: str) -> bool:
    return any(c in path for c in "*?[")


def matches(path: str) -> list[Path]:
    """The files or folder ``path`` names (a glob names every file it matches)."""
    if is_glob(path):
        return sorted(p for p in ROOT.glob(path) if p.is_file())
    found = ROOT / path
    if path.endswith("/"):
        return [found] if found.is_dir() else []
    return [found] if found.is_file() else []


def files_under(folder: str) -> list[Path]:
    """Every file under ``folder``, Python's and the tools' caches left out."""
    return sorted(
        p
        for p in (ROOT / folder).rglob("*")
        if p.is_file() and not CACHES & set(p.relative_to(ROOT).parts)
    )


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def listed_files() -> list[str]:
    """The files the layout table must name: the core's, the app's and the top-level ones."""
    core = [p for p in files_under("py/muster") if p.suffix in (".py", ".json")]
    app = [p for p in files_under("static") if p.suffix in (".js", ".css")]
    top = [p for p in ROOT.iterdir() if p.is_file() and p.name != ".git"]  # .git: a worktree's
    return sorted(rel(p) for p in core + app + top)


def line_count(path: Path) -> int:
    data = path.read_bytes()
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def long_file_entries() -> dict[str, str]:
    """The page's section on long files: each path (or glob) named, with its reason."""
    lines = section(PAGE.read_text(encoding="utf-8"), LONG_FILES).splitlines()
    return {m.group(1): m.group(2) for m in map(ENTRY.match, lines) if m}


def test_every_path_the_layout_table_names_exists():
    rows = layout_rows()
    assert len(rows) > 100, "the README's layout table was not found, or lost its rows"
    missing = [path for path in rows if not matches(path)]
    assert not missing, f"the README's layout table names paths not in the tree: {missing}"
    twice = sorted({path for path in rows if rows.count(path) > 1})
    assert not twice, f"the README's layout table names these twice: {twice}"


def test_every_path_the_architecture_page_names_exists():
    named = page_paths()
    assert len(named) > 50, "the architecture page names too few paths: was it emptied?"
    missing = sorted(path for path in named if not matches(path))
    assert not missing, f"docs/architecture.md names paths not in the tree: {missing}"


def test_every_file_of_the_core_the_app_and_the_top_has_its_row():
    rows = layout_rows()
    covered = set(rows) | {rel(p) for row in rows if is_glob(row) for p in matches(row)}
    unlisted = [path for path in listed_files() if path not in covered]
    assert not unlisted, (
        "files not in the README's layout table (add a row each, or a glob row with each file "
        f"described in docs/architecture.md): {unlisted}"
    )


def test_a_glob_row_stands_for_files_the_architecture_page_describes():
    named = page_paths()
    undescribed = [
        rel(p)
        for row in layout_rows()
        if is_glob(row) and row != WORDS
        for p in matches(row)
        if rel(p) not in named
    ]
    assert not undescribed, (
        "a glob row of the README's layout table stands for files docs/architecture.md does not "
        f"name: {undescribed}"
    )


def test_no_file_over_the_line_limit_without_its_reason():
    entries = long_file_entries()
    explained = {rel(p) for path in entries for p in matches(path)}
    long = {
        rel(p): line_count(p)
        for folder in ("py", "static")
        for p in files_under(folder)
        if line_count(p) > LINE_LIMIT
    }
    unexplained = {path: n for path, n in long.items() if path not in explained}
    assert not unexplained, (
        f"files over {LINE_LIMIT} lines with no reason in docs/architecture.md, section "
        f'"{LONG_FILES}" (split them, or add "- `path`: the reason"): {unexplained}'
    )


def test_the_long_files_named_are_long_and_each_has_a_reason():
    entries = long_file_entries()
    assert entries, f'docs/architecture.md has no entries under "{LONG_FILES}"'
    short = {
        rel(p): line_count(p)
        for path in entries
        for p in matches(path)
        if line_count(p) <= LINE_LIMIT
    }
    assert not short, (
        f'docs/architecture.md, "{LONG_FILES}", names files no longer over {LINE_LIMIT} lines '
        f"(take their entries out): {short}"
    )
    gone = [path for path in entries if not matches(path)]
    assert not gone, f'docs/architecture.md, "{LONG_FILES}", names files not in the tree: {gone}'
    bare = [path for path, why in entries.items() if len(why.split()) < 4]
    assert not bare, f'docs/architecture.md, "{LONG_FILES}": say why for {bare}'
