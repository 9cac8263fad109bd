"""What a refused file has wrong, in English: the template of each ``problem.*`` key.

A refusal of a scenario (``errors.ScenarioError``), of an owner's combat results table and of
the overrides names its place and its problem: a key of this table with parameters. The
screen words the key in the player's language (``static/i18n/<lang>.json``, where the English
is this very text: ``tests/core/test_problems.py``); this English is for ``str()`` and logs.

A parameter is a number, or a text shown as it is: a value of the file as JSON (``got``,
``"wods"``), an id of the file (``id``, ``other``), or the values a field takes (``options``,
``"flat", "pointy"``). No parameter is an English word: what differs is a key of its own.

>>> english("problem.whole_number", {"lo": 1, "hi": 99, "got": '"x"'})
'expected a whole number from 1 to 99, got "x"'
>>> english("problem.of_another_version", {})
'problem.of_another_version'
"""

from __future__ import annotations

from typing import Any

PROBLEMS: dict[str, str] = {
    # Kinds of value.
    "problem.object": "expected a JSON object",
    "problem.list": "expected a list",
    "problem.text": "expected a text",
    "problem.bool": "expected true or false",
    "problem.non_empty_text": "expected a non-empty text",
    "problem.non_empty_list": "expected a non-empty list",
    "problem.words_object": "expected a text, or texts by language code",
    "problem.unknown_language": "unknown language {got}, expected one of {options}",
    "problem.positive_number": "expected a number above 0",
    "problem.whole": "expected a whole number, got {got}",
    "problem.whole_number": "expected a whole number from {lo} to {hi}, got {got}",
    "problem.number_range": "expected a number from {lo} to {hi}, got {got}",
    "problem.at_least": "expected a whole number of at least {least}",
    "problem.one_of": "expected one of {options}",
    "problem.some_of": "expected some of {options}",
    "problem.some_of_once": "expected some of {options}, each once",
    "problem.one_or_more_of_once": "expected at least one of {options}, each once",
    "problem.keys_of": "expected only the keys {options}",
    "problem.missing": "missing",
    "problem.unknown_key": "unknown key {got}",
    "problem.item_twice": "an item is listed twice",
    "problem.listed_twice": "listed twice",
    "problem.id_twice": "id used twice",
    # JSON text.
    "problem.json": "the text is not JSON",
    "problem.json_at": "the text stops being JSON at line {line}, column {column}",
    "problem.json_brackets": "its brackets do not match",
    "problem.json_value": "it holds a value JSON does not have",
    "problem.json_key": "it holds a key that is not text",
    # The file.
    "problem.format": "expected the format {expected}",
    "problem.unknown_system": "unknown rule system {got}",
    "problem.no_scenario": "no scenario {got}",
    # Hex maps.
    "problem.hex_number": "expected a hex number, got {got}",
    "problem.hex_digits": "a hex number has {n} digits, got {got}",
    "problem.off_map": "hex {id} is not on the map",
    "problem.all_off_map": "every hex of the map is off it",
    "problem.hexes_object": "expected a JSON object keyed by hex number",
    "problem.unknown_terrain": "unknown terrain {got}",
    "problem.terrain_list": "expected a list of terrains",
    "problem.terrain_twice": "a terrain is listed twice",
    "problem.between": 'expected "between": two hex numbers',
    "problem.not_adjacent": "hexes {id} and {other} are not adjacent",
    "problem.feature_list": "expected a list of features",
    "problem.unknown_feature": "unknown hexside feature {got}",
    "problem.up_needed": 'a slope or crest needs "up": the higher hex',
    "problem.up_not_here": "the up hex {id} is not one of the two hexes",
    "problem.unknown_road_kind": "unknown kind of road {got}",
    "problem.road_hexes": "expected two or more hexes",
    # Area maps.
    "problem.locale_id": "an id used twice or holding a /",
    "problem.polygon": "expected three or more [x, y] points",
    "problem.approach_ends": "expected two locales: from and facing",
    "problem.other_side_missing": "the approach the other way, {other}, is missing",
    "problem.road_locales": "expected two or more known locales",
    "problem.not_neighbours": "locales {id} and {other} are not neighbours",
    "problem.no_such_approach": "no such approach",
    "problem.no_approach": "no approach {id}",
    "problem.unknown_locale": "unknown locale {got}",
    "problem.both_sides": "locale {id} holds both sides",
    "problem.over_capacity": "locale {id} holds more than its capacity, {cap}",
    "problem.piece_type": "expected a type of piece: {options}",
    # Sides, units, formations.
    "problem.two_sides": "expected two sides",
    "problem.two_or_more_sides": "expected two or more sides",
    "problem.side_twice": "side {got} listed twice",
    "problem.army_levels": "expected whole numbers points > demoralized > broken ≥ 0",
    "problem.unknown_side": "unknown side {got}",
    "problem.unknown_unit_type": "unknown unit type {got}",
    "problem.ratings_object": "expected the ratings as a JSON object",
    "problem.rating_number": "the rating {id} is not a number",
    "problem.rating_missing": "the rating {id} is missing",
    "problem.rating_range": "the rating {id} must be a whole number from {lo} to {hi}, got {got}",
    "problem.formation_id": "expected the id of a formation",
    "problem.unknown_formation": "unknown formation {got}",
    "problem.unknown_flag": "unknown state {got}",
    "problem.orders_bool": "expected orders: true or false",
    "problem.formation_side": "formation {id} is of side {other}",
    # Overrides of the tables.
    "problem.unknown_table": "unknown table {got}",
    "problem.crt_only": "only a hex-hexside scenario may hold its own combat results table",
    "problem.combat_only": "only a hex-facing scenario may change its combat defaults",
    "problem.no_such_setting": "no such setting",
    "problem.no_such_movement_setting": "no such movement setting",
    "problem.no_such_combat_setting": "no such combat setting",
    "problem.setting_kind": "not the type of the setting",
    "problem.note": "a note of the rules, not a setting",
    "problem.combat_fact": "a fact of the aid's chart, not a setting",
    "problem.combat_fixed": "a default the rules hold fixed, not a setting",
    "problem.combat_table": "these combat settings do not fit together",
    "problem.unknown_column": "unknown column {got}",
    "problem.cells_object": "expected a JSON object of columns and their values",
    "problem.terrain_cell": (
        'expected a number, "P", "NE", "OT" or a cell written as in the terrain chart, got {got}'
    ),
    "problem.terrain_chart": "the system's terrain chart is malformed",
    "problem.los_data": "the system's line of sight table is malformed",
    "problem.phase_twice": "a phase is listed twice",
    "problem.phases_of": "expected phases of {options}",
    "problem.phase_before_end": "expected a phase before the end",
    # A combat results table.
    "problem.crt_ratio": "expected odds above those of the column before",
    "problem.crt_columns": "expected one or more columns, each with a label of its own",
    "problem.crt_roll": "the roll {got} is listed twice or is not a face of the die",
    "problem.crt_cells": "expected a cell for each column, and no other",
    "problem.crt_code": "a result code the table does not list: {got}",
    "problem.crt_faces": "expected one row for each face of the die ({faces})",
    "problem.crt_stand_in": "expected true or false, with a why when true",
    "problem.unknown_crt": "no such combat results table in this game: {got}",
}


def english(problem: str, params: dict[str, Any]) -> str:
    """The English of ``problem`` with ``params`` filled in (the key itself if it has none)."""
    template = PROBLEMS.get(problem)
    if template is None:
        return problem
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template
