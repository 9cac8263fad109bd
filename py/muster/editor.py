"""The scenario editor's answers (issue 14): what a scenario of a system may hold, a new
scenario to start from, and a check that says where a draft is wrong.

Everything here is read from the data the rules and the loader read (the terrain charts, the
movement, line-of-sight and sequence files, ``units.json``, the area map's bounds), so the
editor never holds a second copy of a rule. The editor's checks are the loader's own
(``scenario.parse_scenario``); this module only says *where* a refusal points on the map.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from . import areamap, systems
from .errors import InvalidActionError, RulesError
from .movement import MOVEMENT_NOTES, movement_closed, movement_columns, movement_data
from .parsing import brief
from .play import NOTES, closed_sets, sequence_data
from .reference import Label, label, names_label
from .ruleset import COMMON_WORDS, words_of
from .savefile import echo
from .scenario import (
    DIRECTIONAL_FEATURES,
    FORMAT,
    connection_kinds,
    hex_terrains,
    hexside_features,
    override_tables,
    unit_types,
)
from .systems import data_path, folder, game_rules, playable
from .terrain import load_chart

# Hex elevation and the scenario's turn count, as the loader bounds them.
LEVELS = {"min": -9, "max": 99}
TURNS = {"min": 1, "max": 99}
# Settings a scenario may write but that only document a rule (texts the rules never read),
# or that the scenario says elsewhere (its own "turns").
NOT_TABLES = frozenset(
    {("movement", *p.split(".")) for p in MOVEMENT_NOTES} | {("sequence", "turns")}
)
# Keys of a terrain chart's cell that a scenario may not write (refused as overrides): the
# mark of a default, and what the aid prints where the rules read another value.
CELL_NOTES = ("default", "printed")
# Settings the rules reference words in every system: (table, *path) -> key. A system's own
# are its descriptor's (``System.editor.words``).
WORDED: dict[tuple[str, ...], str] = {
    ("los", "vertex"): "ref.los.vertex",
    ("los", "eye_height"): "ref.los.eye",
    ("movement", "zoc", "extent"): "ref.move.zoc",
    ("movement", "zoc", "entering_stops"): "ref.move.zoc_stops",
    ("movement", "stacking", "max_units"): "ref.move.stacking",
}
LOS_FEATURE_WORDS = {
    "blocks_adjacent": "editor.table.los_blocks_adjacent",
    "height": "editor.table.los_brow",
}


def _sequence_data(system: str) -> dict[str, Any]:
    """The sequence defaults of ``system`` (its sequence.json)."""
    return sequence_data(folder(system))


# -- the catalog -------------------------------------------------------------------------------


def check_system(system: Any) -> str:
    """``system`` if it is one the core plays.

    Raises:
        InvalidActionError: ``error.unknown_system``.
    """
    if not (isinstance(system, str) and system in systems.ids()):
        raise InvalidActionError(
            "error.unknown_system", "no rule system {system}", system=echo(system)
        )
    return system


@cache
def _catalog_text(system: str) -> str:
    return json.dumps(_build_catalog(system))


def catalog(system: str) -> dict[str, Any]:
    """What a scenario of ``system`` may hold (docs/scenario-format.md), for the editor's
    controls: the map's ids and bounds, the unit types with their ratings and steps, every
    table value a scenario may override (with its default and its words), the turns, and how the
    screen words the labels' parameters."""
    found: dict[str, Any] = json.loads(_catalog_text(check_system(system)))
    return found


def _build_catalog(system: str) -> dict[str, Any]:
    described = systems.get(system)
    areas = described.map_kind == "areas"
    return {
        "system": system,
        "map_kind": described.map_kind,
        "hex": None if areas else _hex_catalog(system),
        "areas": _areas_catalog() if areas else None,
        "units": _units_catalog(system),
        "tables": tables(system),
        "turns": {**TURNS, "default": _sequence_data(system)["turns"]},
        # A side's army morale: "levels" (points, demoralized, broken), "number", or None.
        "sides": {"army_morale": described.army_morale},
        # How the screen words the parameters of the labels above (load_scenario's `words`).
        "words": words_of(game_rules(system)) if playable(system) else dict(COMMON_WORDS),
    }


def _hex_catalog(system: str) -> dict[str, Any]:
    chart = load_chart(system)
    terrains = hex_terrains(system)
    features = hexside_features(system)
    ordered = [n for r in chart.rows for n in r.names]  # the chart's order
    if "slope_top" in ordered:  # one directional id for the chart's top and bottom rows
        ordered.insert(ordered.index("slope_top"), "slope")
    return {
        "terrains": [n for n in ordered if n in terrains],
        "hexside_features": list(dict.fromkeys(n for n in ordered if n in features)),
        "directional": [n for n in ordered if n in features and n in DIRECTIONAL_FEATURES],
        "road_kinds": sorted(connection_kinds(system)),
        "levels": dict(LEVELS),
    }


def _areas_catalog() -> dict[str, Any]:
    return {
        "terrains": list(areamap.TERRAINS),
        "widths": list(areamap.WIDTHS),
        "effect": {"min": 0, "max": 9},
        "flags": sorted(areamap.APPROACH_FLAGS),
        "road_kinds": list(areamap.ROAD_KINDS),
        "capacity": {"min": 1, "max": 99},
        "objective": {"min": 0, "max": 99},
    }


def _units_catalog(system: str) -> dict[str, Any]:
    types = unit_types(system)
    offers = systems.get(system).editor
    order = list(offers.unit_types)
    facing = offers.facing
    return {
        "types": [t for t in order if t in types],
        "ratings": {t: [dict(r) for r in types[t]["ratings"]] for t in order if t in types},
        "steps": {t: dict(types[t]["steps"]) for t in order if t in types},
        "facing": {"min": facing[0], "max": facing[1]} if facing is not None else None,
        "formations": offers.formations,
        "approach": offers.approach,
    }


# -- the tables a scenario may override ---------------------------------------------------------


def tables(system: str) -> list[dict[str, Any]]:
    """Every value a scenario of ``system`` may override, flattened to its path under
    ``overrides``: ``{table, path, default, kind, label}`` and, where the loader holds the
    value to a closed set, ``choices``. Kinds: ``int``, ``number``, ``text``, ``bool``,
    ``list`` (of ``item`` kind), ``cell`` (a terrain chart cell as terrain.json writes it),
    ``crt`` (an owner's combat results table, whole: its default is the stand-in);
    ``nullable`` where the default is none."""
    out: list[dict[str, Any]] = []
    described = systems.get(system)
    for table in override_tables(system):
        if table == "terrain":
            out += _terrain_cells(system)
        elif table == "los":
            out += _los_entries(system)
        elif table in described.tables:
            out += _own_entries(table, described.tables[table])
        else:
            data = movement_data(system) if table == "movement" else _sequence_data(system)
            out += _settings(system, table, data, ())
    if described.owner_table is not None:
        out.append(_crt_entry(described.owner_table))
    return out


def _own_entries(table: str, own: systems.Table) -> list[dict[str, Any]]:
    """The values of a system's own table a scenario may change (hex-facing's combat defaults,
    ``overrides.combat``), in its words, each with its closed set (``choices``)."""
    out = []
    for setting in own.settings():
        kind = _kind(setting.default)
        more: dict[str, Any] = {"item": "text"} if kind == "list" else {}
        if setting.choices is not None and kind != "bool":
            more["choices"] = list(setting.choices)
        out.append(_entry(table, setting.path, setting.default, kind, setting.words, **more))
    return out


def _crt_entry(owner: systems.OwnerTable) -> dict[str, Any]:
    """The owner's combat results table (``overrides.crt``, the table ``check_crt`` takes),
    entered whole; its default is the stand-in the system ships (flagged ``stand_in``)."""
    return _entry("crt", (), owner.stand_in(), "crt", label("editor.table.crt"))


def _entry(
    table: str, path: tuple[str, ...], default: Any, kind: str, words: Label, **more: Any
) -> dict[str, Any]:
    return {
        "table": table,
        "path": [table, *path],
        "default": default,
        "kind": kind,
        "label": words,
        **more,
    }


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "text"
    return "list" if isinstance(value, list) else "object"


def _settings(
    system: str, table: str, data: Mapping[str, Any], path: tuple[str, ...]
) -> list[dict[str, Any]]:
    out = []
    for key, value in data.items():
        here = (*path, key)
        if key in NOTES or key.endswith("_default") or (table, *here) in NOT_TABLES:
            continue
        if isinstance(value, dict):
            out += _settings(system, table, value, here)
            continue
        if isinstance(value, list) and any(isinstance(v, dict | list) for v in value):
            continue  # the phases of a turn: the order of play, not a value
        kind = _kind(value)
        more: dict[str, Any] = {}
        if kind == "list":
            more["item"] = _kind(value[0]) if value else "text"
        closed = None
        if table == "sequence":
            closed = closed_sets(folder(system)).get(".".join(here))
        elif table == "movement":
            closed = movement_closed(system).get(".".join(here))
        if closed is not None:
            more["choices"] = list(closed)
        if table == "movement" and here[0] == "unit_columns":
            more["choices"] = movement_columns(system)
        out.append(_entry(table, here, value, kind, _words(system, table, here), **more))
    return out


def _words(system: str, table: str, path: tuple[str, ...]) -> Label:
    """A setting's words: the rules reference's where it has them (the system's own words, then
    every system's), else the editor's own."""
    own = systems.get(system).editor.words.get((table, *path))
    if own is not None:
        return dict(own)
    key = WORDED.get((table, *path))
    if key:
        return label(key)
    if table == "movement" and path[0] == "unit_columns":
        return label("editor.table.unit_column", unit_type=label(f"unit_type.{path[1]}"))
    return label(f"editor.table.{table}.{'_'.join(path)}")


def _terrain_cells(system: str) -> list[dict[str, Any]]:
    raw = json.loads(data_path(system, "terrain.json").read_text(encoding="utf-8"))
    headings = _headings(system)
    chart = load_chart(system)
    out = []
    for r, spec in zip(chart.rows, raw["rows"], strict=True):
        for c in chart.columns:
            words = label("editor.table.cell", terrain=names_label(r), column=headings[c.key])
            cell = spec["cells"][c.key]
            if isinstance(cell, dict):  # a default's mark and the aid's print: not settings
                cell = {k: v for k, v in cell.items() if k not in CELL_NOTES}
            out.append(_entry("terrain", (r.id, c.key), cell, "cell", words))
    return out


def _headings(system: str) -> dict[str, Label]:
    """The headings of the columns of ``system``'s terrain chart (its descriptor's).

    Raises:
        KeyError: the system gives none (a system with a terrain chart must).
    """
    headings = systems.get(system).editor.headings
    if headings is None:
        raise KeyError(f"{system}: no headings of its terrain chart")
    return dict(headings())


def _los_entries(system: str) -> list[dict[str, Any]]:
    from .los import VERTEX_RULES, los_values

    values = los_values(system)
    out = [
        _entry(
            "los",
            ("vertex",),
            values["vertex"],
            "text",
            label("ref.los.vertex"),
            choices=list(VERTEX_RULES),
        ),
        _entry("los", ("eye_height",), values["eye_height"], "int", label("ref.los.eye")),
    ]
    chart = load_chart(system)
    for name in (n for r in chart.rows if r.kind == "hex" for n in r.names):
        height = values["hex_obstacles"].get(name) or 0
        words = label("editor.table.los_height", terrain=label(f"terrain.{name}"))
        out.append(_entry("los", ("hex_obstacles", name), height, "int", words))
    for name, spec in values["hexside_features"].items():
        feature = label(f"feature.{name}")
        for key, value in spec.items():
            words = label(LOS_FEATURE_WORDS[key], feature=feature)
            more = {"nullable": True} if key == "height" else {}
            kind = "bool" if key == "blocks_adjacent" else "int"
            out.append(_entry("los", ("hexside_features", name, key), value, kind, words, **more))
    return out


def override_at(path: list[Any], value: Any) -> dict[str, Any]:
    """The ``overrides`` object that sets ``value`` at a catalog ``path``.

    >>> override_at(["movement", "zoc", "extent"], "adjacent")
    {'movement': {'zoc': {'extent': 'adjacent'}}}
    """
    out: dict[str, Any] = {}
    here = out
    for key in path[:-1]:
        here = here.setdefault(key, {})
    here[path[-1]] = value
    return out


# -- a new scenario -----------------------------------------------------------------------------

SIDES = [
    {"id": "blue", "name": "Blue", "color": "#2b4a8b", "text": "#ffffff"},
    {"id": "red", "name": "Red", "color": "#9b2d2a", "text": "#ffffff"},
]
AREA_SIZE = 400  # the side of one of the template's square locales


def template(system: str) -> dict[str, Any]:
    """A new scenario of ``system`` that loads: two sides, a small map, no units.

    Hex maps: 12 x 10 flat hexes numbered CCRR from 0101, all clear. Area maps: four square
    locales two by two, each border with its two approaches (narrow, no effect)."""
    check_system(system)
    described = systems.get(system)
    areas = described.map_kind == "areas"
    out: dict[str, Any] = {
        "format": FORMAT,
        "id": "new-scenario",
        "system": system,
        "title": "New scenario",
        "turns": _sequence_data(system)["turns"],
    }
    if areas:
        out["map"] = _area_template()
    else:
        out["map"] = {
            "orientation": "flat",
            "stagger": "even",
            "first_column": 1,
            "columns": 12,
            "first_row": 1,
            "rows": 10,
            "column_digits": 2,
            "row_digits": 2,
            "default_terrain": "clear",
            "hexes": {},
            "hexsides": [],
            "roads": [],
            "labels": [],
        }
    out["sides"] = copy.deepcopy(SIDES)
    if described.editor.formations:
        out["formations"] = []
    if not areas:  # an area map's objectives are its locales'
        out["objectives"] = []
    out["units"] = []
    out["overrides"] = {}
    return out


def _area_template() -> dict[str, Any]:
    s = AREA_SIZE
    cells = {"nw": (0, 0), "ne": (1, 0), "sw": (0, 1), "se": (1, 1)}
    names = {"nw": "North-west", "ne": "North-east", "sw": "South-west", "se": "South-east"}
    locales = [
        {
            "id": lid,
            "name": names[lid],
            "polygon": [
                [x * s, y * s],
                [x * s + s, y * s],
                [x * s + s, y * s + s],
                [x * s, y * s + s],
            ],
            "capacity": 4,
            "objective": 0,
            "terrain": "open",
        }
        for lid, (x, y) in cells.items()
    ]
    borders = [("nw", "ne"), ("sw", "se"), ("nw", "sw"), ("ne", "se")]
    approaches = [
        {"from": a, "facing": b, "width": "narrow", "effect": 0, "flags": []}
        for pair in borders
        for a, b in (pair, pair[::-1])
    ]
    return {
        "kind": "areas",
        "width": 2 * s,
        "height": 2 * s,
        "locales": locales,
        "approaches": approaches,
        "roads": [],
    }


# -- where a refusal points -------------------------------------------------------------------

_TOKEN = re.compile(r"\.?([^.\[\]]+)|\[(\d+)\]")


def problem(error: RulesError, data: Any) -> dict[str, Any]:
    """A refusal of the loader as the editor shows it: its key, params and message, and the
    place on the map it names (``place_of``)."""
    found = error.to_json()
    where = error.params.get("place")
    found["place"] = place_of(where, data) if isinstance(where, str) else None
    return found


def place_of(where: str, data: Any) -> dict[str, Any] | None:
    """The place a refusal names, for the map: ``hex 0304`` -> ``{kind: "hex", id}``, and
    likewise hexsides, roads, labels, units, sides, formations, locales, approaches,
    overrides (``{kind: "overrides", path}``); any other place ``{kind: "scenario", path}``.
    Limits name a path into the file (``scenario.units[3].ratings.strength``): the unit it
    points into when the index finds one."""
    data = data if isinstance(data, dict) else {}
    m = data.get("map") if isinstance(data.get("map"), dict) else {}
    if where.startswith("scenario."):
        return _path_place(where[len("scenario.") :], data, m) or _scenario(where)
    head, _, rest = where.partition(" ")
    if head in ("hex", "hexside") and rest:
        label_text = rest.split(" ")[0]
        if head == "hex":
            return {"kind": "hex", "id": label_text}
        a, _, b = label_text.partition("/")
        return {"kind": "hexside", "id": [a, b]}
    named = {
        "unit": ("unit", _ids(data.get("units"))),
        "side": ("side", _ids(data.get("sides"))),
        "formation": ("formation", _ids(data.get("formations"))),
        "locale": ("locale", _ids(m.get("locales"))),
        "approach": ("approach", _approach_ids(m.get("approaches"))),
    }
    if head in named and rest:
        kind, ids = named[head]
        found = _named(rest, ids)
        return {"kind": kind, "id": found} if found is not None else _scenario(where)
    return _path_place(where.split(" ")[0], data, m) or _scenario(where)


def _scenario(where: str) -> dict[str, Any]:
    return {"kind": "scenario", "path": where}


def _ids(items: Any) -> list[str]:
    if not isinstance(items, list):
        return []
    return [s["id"] for s in items if isinstance(s, dict) and isinstance(s.get("id"), str)]


def _approach_ids(items: Any) -> list[str]:
    out = []
    for s in items if isinstance(items, list) else []:
        if (
            isinstance(s, dict)
            and isinstance(s.get("from"), str)
            and isinstance(s.get("facing"), str)
        ):
            out.append(f"{s['from']}/{s['facing']}")
    return out


def _named(rest: str, ids: list[str]) -> str | None:
    """The id a place names (``a1`` in ``a1 facing``): the longest id whose shortened form
    starts the rest of the place text."""
    best = None
    for i in ids:
        shown = brief(i) if "/" not in i else "/".join(brief(p) for p in i.split("/", 1))
        if (rest == shown or rest.startswith(shown + " ")) and (best is None or len(i) > len(best)):
            best = i
    return best


def _path_place(path: str, data: dict[str, Any], m: dict[str, Any]) -> dict[str, Any] | None:
    """The place of a path into the file (``units[3].ratings``, ``map.hexes.0304``)."""
    tokens: list[Any] = []
    for name, index in _TOKEN.findall(path):
        tokens.append(int(index) if index else name)
    if not tokens:
        return None
    if tokens[0] == "overrides":
        return {"kind": "overrides", "path": tokens[1:]}
    if tokens[0] == "map":
        tokens = tokens[1:]
        source = m
    else:
        source = data
    if not tokens:
        return None
    first = tokens[0]
    index = tokens[1] if len(tokens) > 1 and isinstance(tokens[1], int) else None
    items = source.get(first) if isinstance(first, str) else None
    if source is m and first == "hexes" and len(tokens) > 1 and isinstance(tokens[1], str):
        return {"kind": "hex", "id": tokens[1]}
    if index is None or not isinstance(items, list) or index >= len(items):
        return None
    item = items[index] if isinstance(items[index], dict) else {}
    if source is m and first in ("roads", "labels"):
        if first == "roads" and "locales" in item:
            return None  # an area map's road: no place of its own on the map
        return {"kind": first[:-1], "index": index}
    if source is m and first == "hexsides":
        pair = item.get("between")
        if isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair):
            return {"kind": "hexside", "id": list(pair)}
        return None
    if source is m and first == "approaches":
        ids = _approach_ids([item])
        return {"kind": "approach", "id": ids[0]} if ids else None
    kinds = {"units": "unit", "sides": "side", "formations": "formation", "locales": "locale"}
    if first in kinds and isinstance(item.get("id"), str):
        return {"kind": kinds[first], "id": item["id"]}
    if source is data and first == "objectives" and isinstance(item.get("hex"), str):
        return {"kind": "hex", "id": item["hex"]}
    return None
