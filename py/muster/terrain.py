"""Terrain charts: each system's terrain table, loaded from its ``terrain.json`` and checked.

>>> load_chart("hex-facing").row("vineyard")["cav"].value
2.0
>>> load_chart("hex-hexside").row("marsh")["bomb"].applies
'from'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Any

from .parsing import brief, show
from .systems import data_path, ids

KINDS = ("hex", "hexside", "connection", "level", "condition")
GROUPS = ("movement", "combat")
APPLIES = ("into", "from_or_into", "from")
CODES = ("P", "NE", "OT")
_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_TOP_KEYS = {"system", "source", "table", "columns", "rows", "flags", "notes", "applies"}
_TOP_KEYS |= {"leaving_enemy_zoc", "combining"}
_CELL_KEYS = {"value", "into", "from", "flags", "applies", "by_unit", "printed", "default"}


class TerrainDataError(ValueError):
    """A terrain chart whose data is malformed; the message names the row and column. For a
    scenario's override: ``at``, the path below ``overrides.terrain`` (``.woods.cav``), and
    ``problem``, the key of its words (``muster.problems``) with ``params``; a malformed chart
    of the system is ``problem.terrain_chart``."""

    def __init__(
        self, message: str, at: str = "", problem: str = "problem.terrain_chart", **params: Any
    ) -> None:
        self.at, self.problem, self.params = at, problem, params
        super().__init__(message)


class UnknownTerrainError(KeyError):
    """A terrain name that no row of the chart lists."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell of a terrain table: a number or a code, with its footnote flags."""

    value: float | None = None
    prohibited: bool = False
    no_effect: bool = False
    other_terrain: bool = False
    flags: frozenset[str] = frozenset()
    applies: str | None = None
    attacking_from: Cell | None = None
    by_unit: tuple[tuple[str, float], ...] = ()
    printed: tuple[float, ...] = ()
    default: bool = False

    def for_unit(self, unit: str) -> float | None:
        """The value for one unit type: its ``by_unit`` reading, else ``value``."""
        return dict(self.by_unit).get(unit, self.value)


@dataclass(frozen=True, slots=True)
class Column:
    """A column of a terrain table: its key, the seed's header, its group and flags."""

    key: str
    seed: str
    group: str
    flags: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class TerrainRow:
    """A row of a terrain table: one or more terrain names sharing the same cells."""

    id: str
    names: tuple[str, ...]
    kind: str
    seed: str
    flags: frozenset[str]
    cells: Mapping[str, Cell] = field(hash=False)

    def __getitem__(self, column: str) -> Cell:
        """The cell of this row in ``column``."""
        return self.cells[column]


@dataclass(frozen=True, slots=True)
class ZocExitCost:
    """A row of a "leaving an enemy ZOC" table: extra MP, who pays it, and when."""

    id: str
    mp: float
    condition: str | None = None


@dataclass(frozen=True, slots=True)
class TerrainChart:
    """A system's terrain table, with its flags, notes and combining rules."""

    system: str
    rows: tuple[TerrainRow, ...]
    columns: tuple[Column, ...] = ()
    flags: Mapping[str, str] = field(default_factory=dict, hash=False)
    notes: Mapping[str, str] = field(default_factory=dict, hash=False)
    applies: Mapping[str, str] = field(default_factory=dict, hash=False)
    leaving_enemy_zoc: tuple[ZocExitCost, ...] = ()
    combining: Mapping[str, str] = field(default_factory=dict, hash=False)

    def row(self, name: str) -> TerrainRow:
        """The row listing ``name``.

        Raises:
            UnknownTerrainError: no row lists ``name``.
        """
        for r in self.rows:
            if name in r.names:
                return r
        raise UnknownTerrainError(f"{self.system}: unknown terrain {name!r}")

    def names(self, kind: str) -> frozenset[str]:
        """Every terrain name of the rows of ``kind``.

        Raises:
            ValueError: ``kind`` is not one of ``KINDS``.
        """
        if kind not in KINDS:
            raise ValueError(f"{self.system}: unknown terrain kind {kind!r}")
        return frozenset(n for r in self.rows if r.kind == kind for n in r.names)


def charted(system: str) -> bool:
    """True if ``system`` is one the core plays and ships a terrain chart (a hex system).

    >>> charted("hex-facing"), charted("area-locale"), charted("chess")
    (True, False, False)
    """
    return system in ids() and data_path(system, "terrain.json").exists()


@cache
def _raw_chart(system: str) -> str:
    if not charted(system):
        raise ValueError(f"unknown system {system!r}")
    path = data_path(system, "terrain.json")
    return path.read_text(encoding="utf-8")


@cache
def load_chart(system: str) -> TerrainChart:
    """The terrain chart of ``system``, read once from its package data.

    Raises:
        ValueError: ``system`` is unknown, or its data is malformed.
    """
    return parse_chart(system, json.loads(_raw_chart(system)))


def chart_with_overrides(system: str, overrides: Any) -> TerrainChart:
    """The chart with a scenario's cell overrides: ``{row name: {column: cell}}``.

    Each overriding cell is written as in terrain.json (a number, "P", "NE", or an object).

    >>> chart_with_overrides("hex-facing", {"woods": {"cav": 2}}).row("woods")["cav"].value
    2.0

    Raises:
        TerrainDataError: an unknown row or column, or a malformed cell.
    """
    if not isinstance(overrides, Mapping):
        raise TerrainDataError(
            f"{system}: terrain overrides must be an object", "", "problem.object"
        )
    data = json.loads(_raw_chart(system))
    rows = {name: row for row in data["rows"] for name in row["names"]}
    columns = {c["key"] for c in data["columns"]}
    for name, cells in overrides.items():
        at = f".{brief(name)}"
        if name not in rows:
            message = f"{system}: unknown terrain {name!r}"
            raise TerrainDataError(message, at, "problem.unknown_terrain", got=show(name))
        if not isinstance(cells, Mapping) or not cells:
            message = f"{system}: row {name!r}: expected {{column: value}}"
            raise TerrainDataError(message, at, "problem.cells_object")
        for column, value in cells.items():
            if column not in columns:
                message = f"{system}: row {name!r}: unknown column {column!r}"
                where = f"{at}.{brief(column)}"
                raise TerrainDataError(message, where, "problem.unknown_column", got=show(column))
            rows[name]["cells"][column] = value
    return parse_chart(system, data)


def _short(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut short for a message (an override may hold anything)."""
    text = repr(value[:limit] if isinstance(value, str) else value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def parse_chart(system: str, data: Any) -> TerrainChart:
    """Check ``data`` (a parsed terrain.json) and build its chart.

    Raises:
        TerrainDataError: the data is malformed; the message names the place.
    """
    read = _ChartReader(system, data)
    columns = read.columns()
    return TerrainChart(
        system=system,
        rows=read.rows(columns),
        columns=columns,
        flags=MappingProxyType(read.flags),
        notes=MappingProxyType(read.notes),
        applies=MappingProxyType(read.applies),
        leaving_enemy_zoc=read.zoc_exits(),
        combining=MappingProxyType(read.text_map(data.get("combining", {}), "combining")),
    )


class _ChartReader:
    """The checks of a terrain.json, part by part (``parse_chart``): its notes, flags and
    markings first, then the columns, the rows and their cells, the costs of leaving a zone."""

    def __init__(self, system: str, data: Any) -> None:
        """Check the top level, the notes, the flags and the markings (``applies``)."""
        self.system, self.data = system, data
        need = self.need
        need(isinstance(data, dict), "chart", "expected a JSON object")
        need(not set(data) - _TOP_KEYS, "chart", f"unknown keys {sorted(set(data) - _TOP_KEYS)}")
        need(data.get("system") == system, "system", f"expected {system!r}")
        self.notes = self.text_map(data.get("notes"), "notes")
        self.flags = self.text_map(data.get("flags"), "flags")
        for name, note in self.flags.items():
            need(bool(_ID.match(name)), f"flag {name!r}", "expected a snake_case name")
            need(note in self.notes, f"flag {name!r}", f"unknown note {note!r}")
        self.applies = self.text_map(data.get("applies", {}), "applies")
        for a, note in self.applies.items():
            need(a in APPLIES and note in self.notes, f"applies {a!r}", "unknown marking or note")

    def need(self, ok: bool, place: str, problem: str) -> None:
        """A ``TerrainDataError`` naming ``place`` unless ``ok``."""
        if not ok:
            raise TerrainDataError(f"{self.system}: {place}: {problem}")

    def strings(self, x: Any, place: str) -> list[str]:
        """``x`` if it is a list of texts."""
        ok = isinstance(x, list) and all(isinstance(s, str) for s in x)
        self.need(ok, place, "expected strings")
        return list(x)

    def text_map(self, x: Any, place: str) -> dict[str, str]:
        """``x`` if it is an object of texts."""
        ok = isinstance(x, dict) and all(isinstance(v, str) for v in x.values())
        self.need(ok, place, "expected an object of strings")
        return dict(x)

    def flag_set(self, x: Any, place: str) -> frozenset[str]:
        """``x`` if it is a list of the chart's flags."""
        out = self.strings(x, place)
        for f in out:
            self.need(f in self.flags, place, f"unknown flag {f!r}")
        return frozenset(out)

    def number(self, x: Any, place: str) -> float:
        """``x`` if it is a number."""
        ok = isinstance(x, int | float) and not isinstance(x, bool)
        self.need(ok, place, f"expected a number, got {_short(x)}")
        return float(x)

    def columns(self) -> tuple[Column, ...]:
        """The chart's columns, each key once."""
        need, data = self.need, self.data
        columns: list[Column] = []
        ok = isinstance(data.get("columns"), list) and data["columns"]
        need(ok, "columns", "expected a list")
        for i, c in enumerate(data["columns"]):
            ok = isinstance(c, dict) and not set(c) - {"key", "seed", "group", "flags"}
            need(ok and isinstance(c.get("key"), str), f"columns[{i}]", "expected key, seed, group")
            need(isinstance(c.get("seed"), str), f"column {c['key']!r}", "seed must be a string")
            ok = c.get("group") in GROUPS
            need(ok, f"column {c['key']!r}", f"group must be one of {GROUPS}")
            cflags = self.flag_set(c.get("flags", []), f"column {c['key']!r}")
            columns.append(Column(c["key"], c["seed"], c["group"], cflags))
        keys = [c.key for c in columns]
        need(len(set(keys)) == len(keys), "columns", "column key listed twice")
        return tuple(columns)

    def simple(self, x: Any, place: str) -> Cell:
        """A cell written as a number or a code (P, NE, OT)."""
        if isinstance(x, str):
            self.need(x in CODES, place, f"expected a number or one of {CODES}, got {_short(x)}")
            return Cell(prohibited=x == "P", no_effect=x == "NE", other_terrain=x == "OT")
        return Cell(value=self.number(x, place))

    def cell(self, x: Any, column: Column, place: str) -> Cell:
        """A cell: simple, or an object with its flags, marking, values by unit and the
        attacker's-hex value (``into`` / ``from``)."""
        need, applies = self.need, self.applies
        marked = bool(applies) and column.group == "combat"
        need(not marked or isinstance(x, dict) and "applies" in x, place, "applies missing")
        if not isinstance(x, dict):
            return self.simple(x, place)
        need(not set(x) - _CELL_KEYS, place, f"unknown keys {sorted(set(x) - _CELL_KEYS)}")
        need(not ({"value", "by_unit"} & set(x) and "into" in x), place, "value and into given")
        need(("into" in x) == ("from" in x), place, "into and from go together")
        given = "value" in x or "into" in x
        base = self.simple(x.get("value", x.get("into")), place) if given else None
        if base is None:
            need("by_unit" in x or bool(x.get("flags")), place, "expected a value")
            base = Cell()
        by_unit: tuple[tuple[str, float], ...] = ()
        if "by_unit" in x:
            ok = isinstance(x["by_unit"], dict) and bool(x["by_unit"])
            need(ok, place, "by_unit: expected object")
            by_unit = tuple(sorted((u, self.number(v, place)) for u, v in x["by_unit"].items()))
        need(isinstance(x.get("printed", []), list), place, "printed: expected a list")
        printed = tuple(self.number(v, place) for v in x.get("printed", []))
        need(isinstance(x.get("default", False), bool), place, "default must be true or false")
        a = x.get("applies")
        need(a is None or column.group == "combat", place, "applies only to combat columns")
        ok = a is None or (isinstance(a, str) and a in applies)
        need(ok, place, f"applies must be one of {sorted(applies)}")
        return Cell(
            value=base.value,
            prohibited=base.prohibited,
            no_effect=base.no_effect,
            other_terrain=base.other_terrain,
            flags=self.flag_set(x.get("flags", []), place),
            applies=a,
            attacking_from=self.simple(x["from"], place) if "from" in x else None,
            by_unit=by_unit,
            printed=printed,
            default=x.get("default", False),
        )

    def rows(self, columns: tuple[Column, ...]) -> tuple[TerrainRow, ...]:
        """The chart's rows, each name once, each with a cell in every column."""
        need, data = self.need, self.data
        rows: list[TerrainRow] = []
        seen: set[str] = set()
        need(isinstance(data.get("rows"), list) and data["rows"], "rows", "expected a list")
        for i, r in enumerate(data["rows"]):
            ok = isinstance(r, dict) and isinstance(r.get("id"), str)
            need(ok, f"rows[{i}]", "expected an id")
            place = f"row {r['id']!r}"
            extra = set(r) - {"id", "names", "kind", "seed", "flags", "cells"}
            need(not extra, place, f"unknown keys {sorted(extra)}")
            names = self.strings(r.get("names"), place + " names")
            need(names[:1] == [r["id"]], place, "the first name must be the id")
            for n in names:
                need(bool(_ID.match(n)), place, f"name {n!r} is not snake_case")
                need(n not in seen, place, f"name {n!r} listed twice")
                seen.add(n)
            need(r.get("kind") in KINDS, place, f"kind must be one of {KINDS}")
            need(isinstance(r.get("seed"), str), place, "seed must be a string")
            cells = self.row_cells(r, columns, place)
            rflags = self.flag_set(r.get("flags", []), place + " flags")
            rows.append(TerrainRow(r["id"], tuple(names), r["kind"], r["seed"], rflags, cells))
        return tuple(rows)

    def row_cells(
        self, r: dict[str, Any], columns: tuple[Column, ...], place: str
    ) -> Mapping[str, Cell]:
        """A row's cells, one per column; a bad cell is named as a scenario's override would
        write it (``problem.terrain_cell``)."""
        need, keys = self.need, [c.key for c in columns]
        cells: Any = r.get("cells")
        need(isinstance(cells, dict), place, "cells: expected an object")
        for k in keys:
            need(k in cells, f"{place} column {k!r}", "missing cell")
        for k in cells:
            need(k in keys, f"{place} column {k!r}", "unknown column")
        parsed = {}
        for c in columns:
            try:
                parsed[c.key] = self.cell(cells[c.key], c, f"{place} column {c.key!r}")
            except TerrainDataError as exc:  # a cell a scenario's override may have written
                at, got = f".{r['id']}.{c.key}", show(cells[c.key])
                raise TerrainDataError(str(exc), at, "problem.terrain_cell", got=got) from None
        return MappingProxyType(parsed)

    def zoc_exits(self) -> tuple[ZocExitCost, ...]:
        """The costs of leaving an enemy zone of control."""
        need = self.need
        zoc: list[ZocExitCost] = []
        zoc_rows = self.data.get("leaving_enemy_zoc", [])
        need(isinstance(zoc_rows, list), "leaving_enemy_zoc", "expected a list")
        for i, z in enumerate(zoc_rows):
            ok = isinstance(z, dict) and not set(z) - {"id", "mp", "condition"}
            need(ok and isinstance(z.get("id"), str), f"leaving_enemy_zoc[{i}]", "expected id, mp")
            place, cond = f"leaving_enemy_zoc {z['id']!r}", z.get("condition")
            need(cond is None or isinstance(cond, str), place, "condition must be a string")
            zoc.append(ZocExitCost(z["id"], self.number(z.get("mp"), place), cond))
        return tuple(zoc)
