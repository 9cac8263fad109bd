"""The hex-facing terrain table (seed 002, "TABELA TERENU"), one test per cell and footnote."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from muster.terrain import (
    Cell,
    TerrainDataError,
    UnknownTerrainError,
    load_chart,
    parse_chart,
)

SYSTEM = "hex-facing"
COLUMNS = ("gen", "inf", "cav", "art", "fire", "melee")

# rules/hex-facing.md "Terrain table", checked against seeds/002 (BE = NE, Z = P, UIT = OT,
# +1Z = "+1 and disorder", +3D = "+3 and automatic disorder"). The seed prints (b) in the
# bridge row; the translation reads it as (h).
#    row id              Gen    Inf    Cav    Art    Fire    Melee
TABLE = [
    ("clear",             "1",   "1",   "1",   "2",   "NE",   "+1"),
    ("rough",             "1",   "1",   "2",   "2",   "NE",   "NE (e)"),
    ("garden",            "1",   "1",   "3",   "3",   "NE",   "-1 (e)"),
    ("woods",             "2",   "2",   "3",   "3",   "-1",   "-1 (e)"),
    ("marsh",             "2",   "2",   "3",   "P",   "NE",   "-2 (e)"),
    ("river",             "P",   "P",   "P",   "P",   "NE",   "P"),
    ("town",              "1",   "2",   "3",   "3",   "-2",   "-1 (e)"),
    ("castle",            "2",   "2",   "2",   "2",   "-2",   "-3 (e)"),
    ("road",              "1/2", "1",   "1",   "1",   "OT",   "OT"),
    ("trail",             "1/2", "1",   "1",   "2",   "OT",   "OT"),
    ("bridge",            "0",   "0",   "0",   "0",   "NE",   "-3 (e)(h)"),
    ("stream",            "0",   "+1",  "+1",  "+2",  "NE",   "-1"),
    ("level_up_1",        "+1",  "+1",  "+1",  "+1",  "-1 (f)", "-1"),
    ("level_up_2_plus",   "+1",  "+1",  "+2",  "P",   "-1 (f)", "-2"),
    ("level_down_1",      "0",   "0",   "0",   "+1",  "NE",   "+1"),
    ("level_down_2_plus", "0",   "0",   "+1",  "P",   "-1 (f)", "+1"),
    ("crest",             "0",   "0",   "0",   "0",   "P (f)", "NE (e)"),
    ("slope",             "0",   "0",   "+1",  "P (c)", "NE", "-1 (e)"),
    ("steep_slope",       "+1",  "+1 and disorder", "P (c)", "P (c)", "P (f)", "-2 (e)"),
    ("redoubt",           "+1",  "+1",  "+2",  "+3 and automatic disorder", "-1 / NE (g)",
     "-2 / -1 (e)(g)"),
    ("fortification",     "+2",  "+2",  "P",   "P",   "-2 / NE (g)", "-3 / -1 (e)(g)"),
    ("friendly_unit",     "0",   "+1",  "+1",  "+1",  "NE",   "NE"),
    ("leaving_enemy_zoc", "0",   "+1",  "+1",  "+1",  "NE",   "NE"),
]  # fmt: skip

# row id, every name of the row, kind, row footnotes
ROWS = [
    ("clear", ("clear",), "hex", ()),
    ("rough", ("rough", "rugged", "dry_lake", "vineyard"), "hex", ()),
    ("garden", ("garden", "palm_grove"), "hex", ()),
    ("woods", ("woods",), "hex", ()),
    ("marsh", ("marsh", "frozen_pond"), "hex", ("*",)),
    ("river", ("river", "lake", "sea"), "hex", ()),
    ("town", ("town", "village", "ruins"), "hex", ("b",)),
    ("castle", ("castle",), "hex", ("b",)),
    ("road", ("road",), "connection", ("c",)),
    ("trail", ("trail",), "connection", ("c",)),
    ("bridge", ("bridge", "pontoon_bridge"), "connection", ()),
    ("stream", ("stream", "canal", "ford"), "hexside", ()),
    ("level_up_1", ("level_up_1",), "level", ()),
    ("level_up_2_plus", ("level_up_2_plus",), "level", ()),
    ("level_down_1", ("level_down_1",), "level", ()),
    ("level_down_2_plus", ("level_down_2_plus",), "level", ()),
    ("crest", ("crest",), "hexside", ()),
    ("slope", ("slope",), "hexside", ()),
    ("steep_slope", ("steep_slope",), "hexside", ("i",)),
    ("redoubt", ("redoubt", "wall"), "hexside", ()),
    ("fortification", ("fortification",), "hexside", ()),
    ("friendly_unit", ("friendly_unit",), "condition", ()),
    ("leaving_enemy_zoc", ("leaving_enemy_zoc",), "condition", ("d",)),
]

FOOTNOTES = {
    "a": "target_terrain",
    "b": "six_front_hexes",
    "c": "road_trail",
    "d": "disordered_zoc_entry",
    "e": "no_charge",
    "f": "close_range_fire",
    "g": "into_from",
    "h": "river_bridge_only",
    "i": "three_levels_impassable",
    "*": "special_rules",
    "D": "disorder",
}

# Every place each footnote flag is found: "column <key>", "row <id>" or "<row id>.<column>".
PLACES = {
    "target_terrain": {"column fire", "column melee"},
    "six_front_hexes": {"row town", "row castle"},
    "road_trail": {"row road", "row trail", "slope.art", "steep_slope.cav", "steep_slope.art"},
    "disordered_zoc_entry": {"row leaving_enemy_zoc"},
    "no_charge": {
        "rough.melee", "garden.melee", "woods.melee", "marsh.melee", "town.melee",
        "castle.melee", "bridge.melee", "crest.melee", "slope.melee", "steep_slope.melee",
        "redoubt.melee", "fortification.melee",
    },
    "close_range_fire": {
        "level_up_1.fire", "level_up_2_plus.fire", "level_down_2_plus.fire", "crest.fire",
        "steep_slope.fire",
    },
    "into_from": {"redoubt.fire", "redoubt.melee", "fortification.fire", "fortification.melee"},
    "river_bridge_only": {"bridge.melee"},
    "three_levels_impassable": {"row steep_slope"},
    "special_rules": {"row marsh"},
    "disorder": {"steep_slope.inf", "redoubt.art"},
}  # fmt: skip

CODES = {"P": {"prohibited": True}, "NE": {"no_effect": True}, "OT": {"other_terrain": True}}


def single(text: str) -> dict[str, Any]:
    """The fields of one printed value: a code, 1/2 or a signed number."""
    if text in CODES:
        return CODES[text]
    return {"value": 0.5 if text == "1/2" else float(text)}


def expected(text: str) -> Cell:
    """The cell a printed entry of the table stands for."""
    flags = {FOOTNOTES[m] for m in re.findall(r"\((\w)\)", text)}
    text = re.sub(r"\s*\(\w\)", "", text)
    for suffix in (" and disorder", " and automatic disorder"):
        if text.endswith(suffix):
            text = text.removesuffix(suffix)
            flags.add("disorder")
    if " / " in text:
        into, from_ = text.split(" / ")
        return Cell(**single(into), flags=frozenset(flags), attacking_from=Cell(**single(from_)))
    return Cell(**single(text), flags=frozenset(flags))


CELLS = [(row[0], col, text) for row in TABLE for col, text in zip(COLUMNS, row[1:], strict=True)]


@pytest.mark.parametrize(("row", "column", "printed"), CELLS, ids=[f"{r}.{c}" for r, c, _ in CELLS])
def test_cell(row: str, column: str, printed: str) -> None:
    assert load_chart(SYSTEM).row(row)[column] == expected(printed)


def test_shape_is_the_seed_table() -> None:
    chart = load_chart(SYSTEM)
    assert [r.id for r in chart.rows] == [t[0] for t in TABLE] == [r[0] for r in ROWS]
    assert [c.key for c in chart.columns] == list(COLUMNS)
    assert [c.group for c in chart.columns] == ["movement"] * 4 + ["combat"] * 2
    assert all(tuple(r.cells) == COLUMNS for r in chart.rows)
    assert len(CELLS) == 23 * 6


@pytest.mark.parametrize(("row", "names", "kind", "marks"), ROWS, ids=[r[0] for r in ROWS])
def test_row(row: str, names: tuple[str, ...], kind: str, marks: tuple[str, ...]) -> None:
    chart = load_chart(SYSTEM)
    r = chart.row(row)
    assert (r.id, r.names, r.kind) == (row, names, kind)
    assert r.flags == {FOOTNOTES[m] for m in marks}
    assert all(chart.row(n) is r for n in names)


def test_names_by_kind() -> None:
    chart = load_chart(SYSTEM)
    for kind in ("hex", "hexside", "connection", "level", "condition"):
        assert chart.names(kind) == {n for _, names, k, _ in ROWS if k == kind for n in names}
    assert chart.names("connection") == {"road", "trail", "bridge", "pontoon_bridge"}
    assert "frozen_pond" in chart.names("hex")
    with pytest.raises(ValueError, match="'forest'"):
        chart.names("forest")


def test_unknown_terrain() -> None:
    with pytest.raises(UnknownTerrainError, match="'forest'") as info:
        load_chart(SYSTEM).row("forest")
    assert isinstance(info.value, KeyError)


@pytest.mark.parametrize("flag", sorted(PLACES))
def test_footnote_flag(flag: str) -> None:
    chart = load_chart(SYSTEM)
    found = {f"column {c.key}" for c in chart.columns if flag in c.flags}
    found |= {f"row {r.id}" for r in chart.rows if flag in r.flags}
    found |= {f"{r.id}.{k}" for r in chart.rows for k, c in r.cells.items() if flag in c.flags}
    assert found == PLACES[flag]
    mark = chart.flags[flag]
    assert FOOTNOTES[mark] == flag
    assert chart.notes[mark]


def test_every_footnote_is_a_flag() -> None:
    chart = load_chart(SYSTEM)
    assert dict(chart.flags) == {flag: mark for mark, flag in FOOTNOTES.items()}
    assert set("abcdefghi") <= set(chart.notes)


def test_two_valued_cells() -> None:
    r = load_chart(SYSTEM).row("wall")
    assert (r["melee"].value, r["melee"].attacking_from) == (-2, Cell(value=-1))
    assert (r["fire"].value, r["fire"].attacking_from) == (-1, Cell(no_effect=True))
    assert load_chart(SYSTEM).row("clear")["melee"].attacking_from is None


def test_half_point_and_codes() -> None:
    chart = load_chart(SYSTEM)
    assert chart.row("trail")["gen"].value == 0.5
    assert chart.row("road")["fire"].other_terrain and chart.row("road")["fire"].value is None
    assert chart.row("sea")["melee"].prohibited
    assert chart.row("clear")["fire"].no_effect


def test_cached() -> None:
    assert load_chart(SYSTEM) is load_chart(SYSTEM)


def test_unknown_system() -> None:
    with pytest.raises(ValueError, match="'hex-nowhere'"):
        load_chart("hex-nowhere")


MINI: dict[str, Any] = {
    "system": SYSTEM,
    "columns": [
        {"key": "gen", "seed": "General", "group": "movement"},
        {"key": "melee", "seed": "Starcie", "group": "combat"},
    ],
    "rows": [
        {"id": "clear", "names": ["clear"], "kind": "hex", "seed": "Czysty",
         "cells": {"gen": 1, "melee": {"value": -1, "flags": ["no_charge"]}}},
        {"id": "redoubt", "names": ["redoubt", "wall"], "kind": "hexside", "seed": "Reduta/Mur",
         "cells": {"gen": 1, "melee": {"into": -2, "from": -1}}},
    ],
    "flags": {"no_charge": "e"},
    "notes": {"e": "No charge."},
}  # fmt: skip


def mini(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """A copy of MINI with the item at ``path`` replaced (or deleted when ``value`` is DEL)."""
    data = copy.deepcopy(MINI)
    *head, last = path
    target = data
    for key in head:
        target = target[key]
    if value is DEL:
        del target[last]
    else:
        target[last] = value
    return data


DEL = object()
ROW0 = ("rows", 0)
BAD = [
    (ROW0 + ("cells", "gen"), "X", r"row 'clear' column 'gen'.*'X'"),
    (ROW0 + ("cells", "gen"), True, r"row 'clear' column 'gen'.*True"),
    (ROW0 + ("cells", "gen"), None, r"row 'clear' column 'gen'"),
    (ROW0 + ("cells", "melee", "flags"), ["charge"], r"row 'clear' column 'melee'.*'charge'"),
    (ROW0 + ("cells", "melee", "colour"), 1, r"row 'clear' column 'melee'.*colour"),
    (ROW0 + ("cells", "melee"), {"flags": []}, r"row 'clear' column 'melee'"),
    (ROW0 + ("cells", "melee", "applies"), "into", r"row 'clear' column 'melee'.*applies"),
    (ROW0 + ("cells", "gen", ), DEL, r"row 'clear' column 'gen'.*missing"),
    (ROW0 + ("cells", "fire"), 1, r"row 'clear' column 'fire'.*unknown column"),
    (("rows", 1, "cells", "melee", "from"), DEL, r"row 'redoubt' column 'melee'.*from"),
    (("rows", 1, "cells", "melee", "from"), {"value": 1}, r"row 'redoubt' column 'melee'"),
    (ROW0 + ("kind",), "area", r"row 'clear'.*kind"),
    (ROW0 + ("names",), ["open"], r"row 'clear'.*id"),
    (ROW0 + ("names",), ["clear", "wall"], r"row 'redoubt'.*'wall' listed twice"),
    (ROW0 + ("names",), ["clear", "Dry lake"], r"row 'clear'.*snake_case"),
    (ROW0 + ("flags",), ["muddy"], r"row 'clear'.*'muddy'"),
    (ROW0 + ("seed",), DEL, r"row 'clear'.*seed"),
    (ROW0 + ("cells",), [1, 1], r"row 'clear'.*cells"),
    (("columns", 1, "group"), "fire", r"column 'melee'.*group"),
    (("columns", 1, "key"), "gen", r"columns.*twice"),
    (("flags", "no_charge"), "z", r"flag 'no_charge'.*note 'z'"),
    (("system",), "hex-hexside", r"system"),
    (("colour",), "red", r"unknown keys"),
    (("rows",), [], r"rows"),
]  # fmt: skip


def test_mini_chart_is_valid() -> None:
    chart = parse_chart(SYSTEM, copy.deepcopy(MINI))
    assert chart.row("wall")["melee"] == Cell(value=-2, attacking_from=Cell(value=-1))
    assert chart.row("clear")["melee"] == Cell(value=-1, flags=frozenset({"no_charge"}))


@pytest.mark.parametrize(("path", "value", "message"), BAD, ids=[b[2] for b in BAD])
def test_malformed(path: tuple[Any, ...], value: Any, message: str) -> None:
    with pytest.raises(TerrainDataError, match=message) as info:
        parse_chart(SYSTEM, mini(path, value))
    assert isinstance(info.value, ValueError)
    assert str(info.value).startswith(SYSTEM + ": ")


def test_malformed_not_an_object() -> None:
    with pytest.raises(ValueError, match="chart"):
        parse_chart(SYSTEM, [MINI])
