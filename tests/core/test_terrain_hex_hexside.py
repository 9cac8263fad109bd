"""The hex-hexside terrain effects chart (seed 003), one test per cell, marking and note."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from muster.terrain import Cell, TerrainDataError, ZocExitCost, load_chart, parse_chart

SYSTEM = "hex-hexside"
COLUMNS = ("mp_inf_art_leader", "mp_cav", "inf", "cav", "bomb")
COMBAT = {"inf", "cav", "bomb"}

# rules/hex-hexside.md "Terrain effects chart", checked against seeds/003 ("TABLE D'EFFET DU
# TERRAIN"; "tous**" = "all **"). Plain = into, ( ) = from or into, [ ] = from.
# row id            MP inf/art/leader  MP cav     Inf     Cav       Bomb
TABLE = [
    ("clear",          "1",      "1",      "0",    "0",     "0"),
    ("woods",          "2",      "3",      "-1",   "(-4)*", "-1"),
    ("town",           "1",      "1",      "-1",   "(-4)*", "-2"),
    ("walled_town",    "1",      "1",      "-3",   "(-4)*", "-2"),
    ("marsh",          "2",      "3",      "-1",   "(-4)*", "[-1]"),
    ("pond_river_hex", "2",      "2",      "(-1)", "(-1)",  "[-1]"),
    ("deep_water",     "P",      "P",      "P",    "P",     "P"),
    ("slope_top",      "+1",     "+1",     "-2",   "-2",    "-2"),
    ("slope_bottom",   "+0/+1",  "+1",     "0",    "0",     "0"),
    ("stream",         "+1",     "+1",     "-1",   "-1",    "0"),
    ("bridge",         "+0",     "+0",     "-1",   "-1*",   "0"),
    ("entrenchment",   "+1",     "+2",     "-2",   "-2*",   "-2"),
    ("pond",           "P",      "P",      "P",    "P",     "P"),
    ("mietzel_river",  "all **", "all **", "P",    "P",     "0"),
    ("elbe_river",     "P",      "P",      "P",    "P",     "P"),
]  # fmt: skip

# Note 3 ("S'il n'y a pas de pont ou de passage": if there is no bridge or ford) names a ford
# the chart prints no row for: its row follows the printed ones, every cell 0 and marked a
# default (what the note gives is that a ford, like a bridge, cancels the stream; crossings in
# sequence.json, tested in test_bombard_ford_hex_hexside.py).
FORD = ("ford", "+0", "+0", "0", "0", "0")
ROWS = [*TABLE, FORD]
KINDS = {row[0]: ("hex" if i < 7 else "hexside") for i, row in enumerate(ROWS)}

# The one ambiguous cell, stored with the documented default (rules/hex-hexside.md).
SLOPE_BOTTOM = Cell(
    by_unit=(("artillery", 1.0), ("infantry", 0.0), ("leader", 0.0)),
    printed=(0.0, 1.0),
    default=True,
)


def expected(text: str, column: str) -> Cell:
    """The cell a printed entry of the chart stands for."""
    if text == "+0/+1":
        return SLOPE_BOTTOM
    if text == "all **":
        return Cell(flags=frozenset({"all_mp_column_only"}))
    flags = frozenset({"no_shock"}) if text.endswith("*") else frozenset()
    text = text.rstrip("*")
    applies = "into" if column in COMBAT else None
    if text[0] in "([":
        applies = "from_or_into" if text[0] == "(" else "from"
        text = text[1:-1]
    if text == "P":
        return Cell(prohibited=True, flags=flags, applies=applies)
    return Cell(value=float(text), flags=flags, applies=applies)


CELLS = [(row[0], col, text) for row in ROWS for col, text in zip(COLUMNS, row[1:], strict=True)]


@pytest.mark.parametrize(("row", "column", "printed"), CELLS, ids=[f"{r}.{c}" for r, c, _ in CELLS])
def test_cell(row: str, column: str, printed: str) -> None:
    cell = expected(printed, column)
    if row == FORD[0]:  # not printed: the engine's default
        cell = Cell(value=cell.value, applies=cell.applies, default=True)
    assert load_chart(SYSTEM).row(row)[column] == cell


def test_shape_is_the_seed_chart() -> None:
    chart = load_chart(SYSTEM)
    assert [r.id for r in chart.rows] == [t[0] for t in ROWS]
    assert [c.key for c in chart.columns] == list(COLUMNS)
    assert [c.group for c in chart.columns] == ["movement"] * 2 + ["combat"] * 3
    assert all(tuple(r.cells) == COLUMNS for r in chart.rows)
    assert all(r.names == (r.id,) and not r.flags for r in chart.rows)
    assert len(CELLS) == (15 + 1) * 5
    assert load_chart(SYSTEM).row("ford").seed == "passage (note 3)"


@pytest.mark.parametrize(("row", "kind"), sorted(KINDS.items()))
def test_kind(row: str, kind: str) -> None:
    assert load_chart(SYSTEM).row(row).kind == kind


def test_names_by_kind() -> None:
    chart = load_chart(SYSTEM)
    assert chart.names("hex") == {
        "clear", "woods", "town", "walled_town", "marsh", "pond_river_hex", "deep_water",
    }  # fmt: skip
    assert chart.names("hexside") == {
        "slope_top", "slope_bottom", "stream", "bridge", "entrenchment", "pond",
        "mietzel_river", "elbe_river", "ford",
    }  # fmt: skip
    assert chart.names("connection") == frozenset()


def test_bottom_of_slope_default() -> None:
    cell = load_chart(SYSTEM).row("slope_bottom")["mp_inf_art_leader"]
    assert cell.default and cell.printed == (0, 1) and cell.value is None
    assert [cell.for_unit(u) for u in ("infantry", "leader", "artillery")] == [0, 0, 1]
    assert not any(c.default for r in load_chart(SYSTEM).rows for c in r.cells.values()
                   if c is not cell and r.id != "ford")  # fmt: skip
    assert all(c.default for c in load_chart(SYSTEM).row("ford").cells.values())


@pytest.mark.parametrize(
    ("applies", "mark", "cells"),
    [
        ("from_or_into", "()", {"woods.cav", "town.cav", "walled_town.cav", "marsh.cav",
                                "pond_river_hex.inf", "pond_river_hex.cav"}),
        ("from", "[]", {"marsh.bomb", "pond_river_hex.bomb"}),
    ],
)  # fmt: skip
def test_marking(applies: str, mark: str, cells: set[str]) -> None:
    chart = load_chart(SYSTEM)
    found = {f"{r.id}.{k}" for r in chart.rows for k, c in r.cells.items() if c.applies == applies}
    assert found == cells
    assert chart.applies[applies] == mark and chart.notes[mark]


def test_plain_marking() -> None:
    chart = load_chart(SYSTEM)
    for r in chart.rows:
        for k, c in r.cells.items():
            assert (c.applies is None) == (k not in COMBAT)
    assert chart.applies["into"] == "#" and chart.notes["#"]


@pytest.mark.parametrize(
    ("flag", "mark", "cells"),
    [
        ("no_shock", "*", {"woods.cav", "town.cav", "walled_town.cav", "marsh.cav",
                           "bridge.cav", "entrenchment.cav"}),
        ("all_mp_column_only", "**", {"mietzel_river.mp_inf_art_leader", "mietzel_river.mp_cav"}),
    ],
)  # fmt: skip
def test_flag(flag: str, mark: str, cells: set[str]) -> None:
    chart = load_chart(SYSTEM)
    found = {f"{r.id}.{k}" for r in chart.rows for k, c in r.cells.items() if flag in c.flags}
    assert found == cells
    assert chart.flags[flag] == mark and chart.notes[mark]
    assert set(chart.flags) == {"no_shock", "all_mp_column_only"}


@pytest.mark.parametrize(
    ("number", "words"),
    [("1", "3110"), ("2", "deep water"), ("3", "bridge or ford"), ("4", "covers it completely")],
)
def test_note(number: str, words: str) -> None:
    assert words in load_chart(SYSTEM).notes[number]


@pytest.mark.parametrize(
    "cost",
    [
        ZocExitCost("support", 1),
        ZocExitCost("prussian_cavalry_engaged", 1, "not_engaged_by_formed_cavalry"),
        ZocExitCost("other_fast_engaged", 2, "not_engaged_by_formed_cavalry"),
    ],
    ids=lambda c: c.id,
)
def test_leaving_enemy_zoc(cost: ZocExitCost) -> None:
    costs = load_chart(SYSTEM).leaving_enemy_zoc
    assert len(costs) == 3
    assert cost in costs


@pytest.mark.parametrize(
    ("what", "rule"),
    [
        ("movement", "highest_hex_plus_hexsides"),
        ("combat", "least_favourable_hex_plus_hexside"),
        ("multi_hex_combat", "attacker_chooses_hex_pair"),
    ],
)
def test_combining(what: str, rule: str) -> None:
    assert load_chart(SYSTEM).combining[what] == rule


def test_facing_chart_has_no_zoc_table_or_markings() -> None:
    chart = load_chart("hex-facing")
    assert chart.leaving_enemy_zoc == () and not chart.applies and not chart.combining


MINI: dict[str, Any] = {
    "system": SYSTEM,
    "columns": [
        {"key": "mp_cav", "seed": "Cav", "group": "movement"},
        {"key": "cav", "seed": "Cav", "group": "combat"},
    ],
    "rows": [
        {"id": "woods", "names": ["woods"], "kind": "hex", "seed": "Bois",
         "cells": {"mp_cav": 3, "cav": {"value": -4, "applies": "from_or_into",
                                        "flags": ["no_shock"]}}},
        {"id": "slope_bottom", "names": ["slope_bottom"], "kind": "hexside", "seed": "Bas",
         "cells": {"mp_cav": {"by_unit": {"cavalry": 1}, "printed": [1], "default": True},
                   "cav": {"value": 0, "applies": "into"}}},
    ],
    "applies": {"into": "#", "from_or_into": "()", "from": "[]"},
    "flags": {"no_shock": "*"},
    "notes": {"#": "Into.", "()": "From or into.", "[]": "From.", "*": "No shock."},
    "leaving_enemy_zoc": [{"id": "support", "mp": 1}],
    "combining": {"movement": "highest_hex_plus_hexsides"},
}  # fmt: skip


def test_mini_chart_is_valid() -> None:
    chart = parse_chart(SYSTEM, copy.deepcopy(MINI))
    assert chart.row("slope_bottom")["mp_cav"].for_unit("cavalry") == 1
    assert chart.row("woods")["cav"].applies == "from_or_into"


def patched(edit: Any) -> dict[str, Any]:
    """A copy of MINI changed by ``edit``."""
    data = copy.deepcopy(MINI)
    edit(data)
    return data


def cav(data: dict[str, Any]) -> dict[str, Any]:
    """The cav cell of the woods row of ``data``."""
    return data["rows"][0]["cells"]["cav"]


BAD = [
    (lambda d: cav(d).pop("applies"), r"row 'woods' column 'cav'.*applies missing"),
    (lambda d: d["rows"][0]["cells"].update(cav=-4), r"row 'woods' column 'cav'.*applies"),
    (lambda d: cav(d).update(applies="across"), r"row 'woods' column 'cav'.*applies must"),
    (lambda d: d["rows"][0]["cells"].update(mp_cav={"value": 3, "applies": "into"}),
     r"row 'woods' column 'mp_cav'.*combat columns"),
    (lambda d: cav(d).update(flags=["shock"]), r"row 'woods' column 'cav'.*'shock'"),
    (lambda d: d["rows"][1]["cells"]["mp_cav"].update(by_unit={}),
     r"row 'slope_bottom' column 'mp_cav'.*by_unit"),
    (lambda d: d["rows"][1]["cells"]["mp_cav"].update(by_unit={"cavalry": "+1"}),
     r"row 'slope_bottom' column 'mp_cav'.*'\+1'"),
    (lambda d: d["rows"][1]["cells"]["mp_cav"].update(default="yes"),
     r"row 'slope_bottom' column 'mp_cav'.*default"),
    (lambda d: d["rows"][1]["cells"]["mp_cav"].update(printed=["0/1"]),
     r"row 'slope_bottom' column 'mp_cav'"),
    (lambda d: d["rows"][1]["cells"]["mp_cav"].update(printed=1),
     r"row 'slope_bottom' column 'mp_cav'.*printed"),
    (lambda d: d.update(leaving_enemy_zoc={"support": 1}), r"leaving_enemy_zoc: expected a list"),
    (lambda d: d["applies"].update(across="#"), r"applies 'across'"),
    (lambda d: d["applies"].update(into="plain"), r"applies 'into'"),
    (lambda d: d["leaving_enemy_zoc"][0].update(mp="one"), r"leaving_enemy_zoc 'support'"),
    (lambda d: d["leaving_enemy_zoc"][0].update(when="always"), r"leaving_enemy_zoc\[0\]"),
    (lambda d: d["combining"].update(combat=1), r"combining"),
    (lambda d: d["notes"].update({"*": 3}), r"notes"),
]  # fmt: skip


@pytest.mark.parametrize(("edit", "message"), BAD, ids=[b[1] for b in BAD])
def test_malformed(edit: Any, message: str) -> None:
    with pytest.raises(TerrainDataError, match=message):
        parse_chart(SYSTEM, patched(edit))
