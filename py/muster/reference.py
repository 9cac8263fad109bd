"""The rules reference: a system's charts as the screen shows them (docs/rules-reference.md).

Each system builds its charts (``systems/<system>/reference.py``) from the very tables its
rules read, with the scenario's overrides applied, so the reference never holds a second copy
of a number. This module holds what they share: the shape of a section, its rows and cells,
the terrain chart (movement, combat, line of sight), and the marks of a row:

- ``default``: a documented default, where the aid is silent (the data file marks it);
- ``standin``: a stand-in table, not the game's own (the data file marks it);
- ``override``: changed by this scenario.

A cell is a number, a label ``{key, params}`` or None (empty). A row's ``id`` is an anchor: the
preview's modifier lines name the row they come from (``ref``), so the screen opens it there.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from . import systems
from .los import LosConfig, los_config
from .movement import movement_data
from .systems import data_path
from .terrain import Cell, TerrainChart, TerrainRow, chart_with_overrides, load_chart

Label = dict[str, Any]
Row = dict[str, Any]
Section = dict[str, Any]
MARKS = ("default", "standin", "override")
COLUMN_KINDS = ("head", "number", "signed", "text")
CODES = ("P", "NE", "OT")  # terrain chart codes, worded as cells (ref.cell.*), not as notes
# Footnote marks of the charts whose keys are not the mark itself (ref.<prefix>_note.<name>).
MARK_NAMES = {
    "*": "star",
    "**": "stars",
    "()": "round",
    "[]": "square",
    "#": "plain",
    "+0/+1": "plus0_plus1",
    "D": "disorder",
}
# The row names of a chart's "condition" rows, worded by the movement breakdown's keys.
CONDITION_KEYS = {"friendly_unit": "move.friendly_unit", "leaving_enemy_zoc": "move.leave_zoc"}
ROADS = ("road", "trail")


def label(key: str, **params: Any) -> Label:
    """A message key with its parameters."""
    return {"key": key, "params": params}


def anchor(*parts: Any) -> str:
    """An id a page may use as an anchor: the parts joined by "-", other characters encoded.

    >>> anchor("force-ratio", "1.5:1"), anchor("terrain", "woods")
    ('force-ratio-1x2e5x3a1', 'terrain-woods')
    """
    text = "-".join(str(p) for p in parts)
    ok = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
    return "".join(c if c in ok else f"x{ord(c):x}" for c in text)


def mark_name(mark: str) -> str:
    """The name of a chart's footnote mark in keys and anchors ("*" -> "star", "b" -> "b")."""
    return MARK_NAMES.get(mark) or anchor(mark)


def column(cid: str, head: Label, kind: str = "text") -> dict[str, Any]:
    """A column: its id, its heading, how its numbers read (``signed``: +1, −1), and the
    footnote marks of its heading (``marks``)."""
    assert kind in COLUMN_KINDS, kind
    return {"id": cid, "label": head, "kind": kind, "marks": []}


def row(
    rid: str,
    cells: Mapping[str, Any],
    flags: Iterable[str] = (),
    cell_flags: Mapping[str, Iterable[str]] | None = None,
    marks: Mapping[str, Iterable[str]] | None = None,
) -> Row:
    """A row: its anchor, its cells by column id, its marks, and those of single cells
    (``cell_flags``) and the footnote marks of its cells (``marks``)."""
    flags = _marks(flags)
    out: Row = {"id": rid, "cells": dict(cells), "flags": flags}
    kept = {c: _marks(f) for c, f in (cell_flags or {}).items()}
    out["cell_flags"] = {c: f for c, f in kept.items() if f}
    out["marks"] = {c: list(m) for c, m in (marks or {}).items() if m}
    return out


def _marks(flags: Iterable[str]) -> list[str]:
    found = list(dict.fromkeys(flags))
    assert set(found) <= set(MARKS), found
    return [m for m in MARKS if m in found]


def section(
    sid: str,
    title: Label,
    columns: Sequence[dict[str, Any]],
    rows: Sequence[Row],
    *,
    rule: str | None = None,
    flags: Iterable[str] = (),
    intro: Sequence[Label] = (),
    notes: Sequence[dict[str, Any]] = (),
) -> Section:
    """A chart: its anchor, title, the rule it is (a rule reference), columns, rows, the lines
    said before it (``intro``) and its footnotes (``notes``: mark, text, anchor)."""
    return {
        "id": sid,
        "title": title,
        "rule": rule,
        "flags": _marks(flags),
        "intro": list(intro),
        "columns": list(columns),
        "rows": list(rows),
        "notes": list(notes),
    }


def note(nid: str, mark: str, text: Label, flags: Iterable[str] = ()) -> dict[str, Any]:
    """A footnote of a chart: its anchor, the mark the cells carry, and its words."""
    return {"id": nid, "mark": mark, "text": text, "flags": _marks(flags)}


def setting_note(nid: str, text: Label, entry: Mapping[str, Any]) -> dict[str, Any]:
    """A remark on how a table is read, marked default when its data entry says so."""
    return note(nid, "", text, ["default"] if entry.get("default") else [])


def setting_row(
    rid: str, head: Label, value: Any, flags: Iterable[str] = (), rule: str | None = None
) -> Row:
    """A row of a settings chart: what it is, its value (number or label), its rule."""
    cells: dict[str, Any] = {"what": head, "value": value}
    if rule is not None:
        cells["rule"] = label("ref.rule", rule=rule)
    return row(rid, cells, flags)


def setting_columns(with_rule: bool = False) -> list[dict[str, Any]]:
    """The columns of a settings chart: what, value, and the rule if any."""
    cols = [
        column("what", label("ref.col.what"), "head"),
        column("value", label("ref.col.value"), "text"),
    ]
    if with_rule:
        cols.append(column("rule", label("ref.col.rule"), "text"))
    return cols


def number(x: float | int) -> float | int:
    """A number as the reference shows it: whole numbers as ints."""
    return int(x) if float(x).is_integer() else x


def signed(value: float | int) -> Label:
    """A modifier said with its sign (+1, −1) wherever it stands (``ref.signed``)."""
    return label("ref.signed", value=number(value))


def yes_no(value: bool) -> Label:
    """A yes or a no."""
    return label("ref.yes" if value else "ref.no")


# -- overrides ----------------------------------------------------------------------------------


def overrides(scenario: Any) -> Mapping[str, Any]:
    """The scenario's table overrides (empty when it has none)."""
    found = scenario.data.get("overrides", {})
    return found if isinstance(found, Mapping) else {}


def overridden(scenario: Any, table: str, *path: str) -> bool:
    """True if the scenario overrides ``table`` at ``path`` (or anything under it)."""
    here: Any = overrides(scenario).get(table)
    for key in path:
        if not isinstance(here, Mapping) or key not in here:
            return False
        here = here[key]
    return here is not None


def sequence_flags(scenario: Any, data: Mapping[str, Any], *path: str) -> list[str]:
    """The marks of a sequence setting: default when the sequence file is marked default (but
    for the entries it names in ``aid``, the aid's own), override when the scenario changes it
    (its own turn count included)."""
    own = path[:1] and path[0] in data.get("aid", ())  # the aid's own, not a default
    flags = ["default"] if data.get("default") is True and not own else []
    own_turns = scenario.data.get("turns", data.get("turns"))
    if overridden(scenario, "sequence", *path) or (
        path == ("turns",) and own_turns != data.get("turns")
    ):
        flags.append("override")
    return flags


def movement_flags(
    scenario: Any, key: str, sub: str | None = None, marker: str = "default"
) -> list[str]:
    """The marks of a movement setting (``key``, or ``key.sub``): default where movement.json
    marks it (``marker`` names the mark in its entry), override where the scenario changes it."""
    entry = movement_data(scenario.system).get(key)
    flags = ["default"] if isinstance(entry, Mapping) and entry.get(marker) is True else []
    if overridden(scenario, "movement", key, *([sub] if sub else [])):
        flags.append("override")
    return flags


def zoc_and_stacking_rows(scenario: Any, m: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The rows both hex systems' movement sections share: the zone of control's extent,
    whether entering one stops, and the stacking limit (``m``: the movement settings in force)."""
    f = movement_flags
    return [
        setting_row(
            "movement-zoc",
            label("ref.move.zoc"),
            label(f"ref.setting.zoc_{m['zoc']['extent']}"),
            f(scenario, "zoc", "extent"),
        ),
        setting_row(
            "movement-zoc-stops",
            label("ref.move.zoc_stops"),
            yes_no(m["zoc"]["entering_stops"]),
            f(scenario, "zoc", "entering_stops"),
        ),
        setting_row(
            "movement-stacking",
            label("ref.move.stacking"),
            m["stacking"]["max_units"],
            f(scenario, "stacking", "max_units"),
        ),
    ]


# -- the terrain chart --------------------------------------------------------------------------


def chart_in_force(scenario: Any) -> TerrainChart:
    """The system's terrain chart with the scenario's cell overrides (what the rules read)."""
    terrain = overrides(scenario).get("terrain")
    if not terrain:
        return load_chart(scenario.system)
    return chart_with_overrides(scenario.system, terrain)


def terrain_cell_overridden(scenario: Any, r: TerrainRow, column: str) -> bool:
    """True if the scenario overrides this row's cell in ``column`` (by any of its names)."""
    terrain = overrides(scenario).get("terrain", {})
    return any(column in terrain.get(name, {}) for name in r.names)


def name_label(kind: str, name: str) -> Label:
    """A terrain name in words, by the kind of its chart row."""
    if kind == "hex":
        return label(f"terrain.{name}")
    if kind == "condition":
        return label(CONDITION_KEYS[name])
    if kind == "connection" and name in ROADS:
        return label(f"connection.{name}")
    return label(f"feature.{name}")


def names_label(r: TerrainRow) -> Label:
    """The names of a chart row in words: one, or all of them."""
    names = [name_label(r.kind, n) for n in r.names]
    return names[0] if len(names) == 1 else label("ref.names", names=names)


def cell_value(c: Cell) -> Any:
    """What a terrain cell shows: a number, a code in words, "into / from", by unit type."""
    if c.prohibited:
        base: Any = label("ref.cell.prohibited")
    elif c.no_effect:
        base = label("ref.cell.no_effect")
    elif c.other_terrain:
        base = label("ref.cell.other_terrain")
    elif c.value is not None:
        base = number(c.value)
    elif c.by_unit:
        base = None
    else:
        base = label("ref.cell.see_note")
    if c.by_unit:
        items = [label("ref.cell.unit_value", unit_type=u, value=number(v)) for u, v in c.by_unit]
        base = label("ref.cell.by_unit", items=items)
    if c.attacking_from is not None:
        second = cell_value(c.attacking_from)
        base = label("ref.cell.into_from", first=as_label(base), second=as_label(second))
    return base


def as_label(value: Any) -> Any:
    """A cell as a label (a number becomes ``ref.number``), to stand in another's words."""
    return value if isinstance(value, dict) else label("ref.number", value=value)


def cell_marks(chart: TerrainChart, c: Cell) -> list[str]:
    """The footnote marks of a cell: its flags' notes and its "applies" marking (not plain)."""
    found = [chart.flags[f] for f in sorted(c.flags) if f in chart.flags]
    if c.applies is not None and c.applies != "into" and c.applies in chart.applies:
        found.append(chart.applies[c.applies])
    return list(dict.fromkeys(found))


def terrain_section(
    scenario: Any,
    prefix: str,
    headings: Mapping[str, Label],
    extra_notes: Mapping[str, Iterable[str]] | None = None,
    note_params: Mapping[str, Mapping[str, Any]] | None = None,
) -> Section:
    """The terrain chart in force: one row per chart row (every name of it), one column per
    chart column (headings by column key; combat columns signed), and line of sight.

    ``prefix`` names the system in the keys of its notes (``ref.<prefix>_note.<mark>``);
    ``extra_notes`` adds marks to the head of rows (row id -> marks); ``note_params`` gives
    the numbers a note's words name (mark -> params), read from the tables the rules read.
    """
    chart = chart_in_force(scenario)
    los = los_config(scenario.system, overrides(scenario).get("los"))
    cols = [column("terrain", label("ref.col.terrain"), "head")]
    used: list[str] = []
    for c in chart.columns:
        col = column(c.key, headings[c.key], "signed" if c.group == "combat" else "number")
        col["marks"] = [chart.flags[f] for f in sorted(c.flags) if f in chart.flags]
        used += col["marks"]
        cols.append(col)
    cols.append(column("los", label("ref.col.los"), "text"))
    rows = []
    for r in chart.rows:
        cells: dict[str, Any] = {"terrain": names_label(r)}
        cell_flags: dict[str, list[str]] = {}
        marks: dict[str, list[str]] = {}
        head = [chart.flags[f] for f in sorted(r.flags) if f in chart.flags]
        head += list((extra_notes or {}).get(r.id, ()))
        if head:
            marks["terrain"] = list(dict.fromkeys(head))
        for c in chart.columns:
            cell = r[c.key]
            cells[c.key] = cell_value(cell)
            found = cell_marks(chart, cell)
            if found:
                marks[c.key] = found
            flags = ["default"] if cell.default else []
            if terrain_cell_overridden(scenario, r, c.key):
                flags.append("override")
            cell_flags[c.key] = flags
        cells["los"], los_flags = los_cell(scenario, r, los)
        cell_flags["los"] = los_flags
        for found in marks.values():
            used += found
        rows.append(row(anchor("terrain", r.id), cells, (), cell_flags, marks))
    notes = [
        note(
            anchor("terrain-note", mark_name(m)),
            m,
            label(f"ref.{prefix}_note.{mark_name(m)}", **(note_params or {}).get(m, {})),
        )
        for m in chart.notes
        if m not in CODES and m in used
    ]
    return section(
        "terrain",
        label("ref.section.terrain"),
        cols,
        rows,
        rule=chart_rule(scenario.system),
        notes=notes,
    )


def chart_rule(system: str) -> str:
    """The rule reference of a system's terrain chart, as its combat lines name it."""
    return systems.get(system).terrain_chart


@cache
def los_file(system: str) -> Mapping[str, Any]:
    """A system's los.json as written, with its marks (``los.los_values`` keeps the values)."""
    data: dict[str, Any] = json.loads(data_path(system, "los.json").read_text(encoding="utf-8"))
    return data


def _marked(node: Any) -> bool:
    return isinstance(node, Mapping) and node.get("default") is True


def los_cell(scenario: Any, r: TerrainRow, los: LosConfig) -> tuple[Any, list[str]]:
    """What a chart row does to a line of sight (los.json, with the scenario's overrides)."""
    flags: list[str] = []
    los_over = overrides(scenario).get("los", {})
    raw = los_file(scenario.system)
    if r.kind == "hex":
        heights = [los.hex_obstacles[n] for n in r.names if los.hex_obstacles.get(n)]
        if any(_marked(raw["hex_obstacles"].get(n)) for n in r.names):
            flags.append("default")
        if any(n in los_over.get("hex_obstacles", {}) for n in r.names):
            flags.append("override")
        if not heights:
            return label("ref.los.clear"), flags
        return label("ref.los.height", height=max(heights)), flags
    if r.kind not in ("hexside", "connection"):
        return None, flags
    parts = []
    features = los_over.get("hexside_features", {})
    for n in r.names:
        if n in los.adjacent_blocking:
            parts.append(label("ref.los.blocks_adjacent"))
        if n in los.hexside_heights:
            parts.append(label("ref.los.brow", height=los.hexside_heights[n]))
            if _marked(raw["hexside_features"].get(n, {}).get("height")):
                flags.append("default")
        if n in features:
            flags.append("override")
    if not parts:
        return None, flags
    return (parts[0] if len(parts) == 1 else label("ref.joined", items=parts)), flags


def los_section(scenario: Any) -> Section:
    """How a line of sight is read where the chart does not say (los.json's settings)."""
    los = los_config(scenario.system, overrides(scenario).get("los"))

    raw = los_file(scenario.system)

    def flags(key: str) -> list[str]:
        found = ["default"] if _marked(raw.get(key)) else []
        return found + (["override"] if overridden(scenario, "los", key) else [])

    rows = [
        setting_row(
            "los-vertex",
            label("ref.los.vertex"),
            label(f"ref.los.vertex_{los.vertex}"),
            flags("vertex"),
        ),
        setting_row("los-eye", label("ref.los.eye"), los.eye_height, flags("eye_height")),
    ]
    return section("los", label("ref.section.los"), setting_columns(), rows)


def sequence_rows(
    scenario: Any,
    data: Mapping[str, Any],
    phases: Sequence[str],
    key: str,
    phase_word: str,
    what_prefix: str,
    steps: Mapping[str, tuple[str, Sequence[str]]] | None = None,
) -> list[Row]:
    """The phases of a turn in order, each with what happens in it (and, under a phase, its
    steps: phase -> (settings key of the steps, their ids))."""
    rows = []
    flags = sequence_flags(scenario, data, key)
    for i, phase in enumerate(phases, 1):
        head = label("ref.numbered", n=i, item=label(f"{phase_word}{phase}"))
        cells = {"phase": head, "what": label(f"{what_prefix}{phase}")}
        rows.append(row(anchor("sequence", phase), cells, flags))
        if steps and phase in steps:
            setting, ids = steps[phase]
            sub = sequence_flags(scenario, data, setting)
            for j, step in enumerate(ids, 1):
                head = label("ref.numbered_sub", n=i, m=j, item=label(f"step.{step}"))
                cells = {"phase": head, "what": label(f"{what_prefix}step_{step}")}
                rows.append(row(anchor("sequence-step", step), cells, sub))
    return rows


def player_turn_section(
    scenario: Any,
    data: Mapping[str, Any],
    settings: Mapping[str, Any],
    phase_prefix: str,
    what_prefix: str,
) -> Section:
    """The sequence of a system played in player turns: each phase in order (``settings``,
    the sequence in force; ``data``, the system's file), then the number of turns."""
    phases = [p["phase"] for p in settings["player_turn"]]
    rows = sequence_rows(scenario, data, phases, "player_turn", phase_prefix, what_prefix)
    rows.append(
        row(
            "sequence-turns",
            {"phase": label("ref.turns"), "what": settings["turns"]},
            sequence_flags(scenario, data, "turns"),
        )
    )
    return section("sequence", label("ref.section.sequence"), sequence_columns(), rows)


def sequence_columns() -> list[dict[str, Any]]:
    """The columns of a sequence of play: the phase, and what happens in it."""
    return [
        column("phase", label("ref.col.phase"), "head"),
        column("what", label("ref.col.happens"), "text"),
    ]


def reference(system: str, sections: Sequence[Section]) -> dict[str, Any]:
    """The answer of ``rules_reference``: the system and its charts, in order."""
    return {"system": system, "sections": list(sections)}


def row_ids(answer: Mapping[str, Any]) -> set[str]:
    """Every anchor of a reference: its sections, rows and notes."""
    found = set()
    for s in answer["sections"]:
        found.add(s["id"])
        found |= {r["id"] for r in s["rows"]}
        found |= {n["id"] for n in s["notes"]}
    return found


def with_refs(parts: Iterable[Any], ref_of: Any) -> list[dict[str, Any]]:
    """Modifier lines as JSON, each with the reference row it comes from (``ref``)."""
    out = []
    for p in parts:
        line = p.to_json()
        ref = ref_of(line)
        if ref:
            line["ref"] = ref
        out.append(line)
    return out
