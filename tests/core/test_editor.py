"""The scenario editor's answers from the core (issue 14): the catalog of what a scenario of a
system may hold, a new scenario to start from, and the check that says where a draft is wrong."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from test_bad_input import mutate
from test_trust import position, snapshot

from muster import areamap, editor, systems
from muster.api import Session
from muster.errors import RulesError, ScenarioError
from muster.scenario import (
    SCENARIO_DIR,
    connection_kinds,
    hex_terrains,
    hexside_features,
    parse_scenario,
)

SYSTEMS = ("hex-facing", "hex-hexside", "area-locale")
I18N = Path(__file__).resolve().parents[2] / "static" / "i18n"
WORDS = {lang: json.loads((I18N / f"{lang}.json").read_text()) for lang in ("en", "pl", "fr", "ja")}
DEMOS = {
    p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(SCENARIO_DIR.glob("*.json"))
}
# The ratings each system's rules read, by unit type (grep "ratings" in muster/systems).
READ = {
    "hex-facing": {
        "infantry": {"strength", "cohesion", "movement"},
        "cavalry": {"strength", "cohesion", "movement", "heavy"},
        "artillery": {"strength", "cohesion", "movement", "fire", "range"},
        "leader": {"movement"},
    },
    "hex-hexside": {
        "infantry": {"strength", "morale", "movement"},
        "cavalry": {"strength", "morale", "movement", "shock"},
        "artillery": {"strength", "morale", "movement", "range"},
        "leader": {"morale_modifier", "movement"},
    },
    "area-locale": {"infantry": set(), "cavalry": set(), "artillery": set()},
}
# Ratings the rules give a default when a unit has none (the demos may leave them out).
DEFAULTED = {("hex-facing", "cavalry", "heavy"), ("hex-hexside", "artillery", "range")}


def call(session: Session, method: str, params: dict) -> dict:
    answer = session.call(method, params)
    assert answer["ok"], answer
    return answer["result"]


def template(system: str) -> dict:
    return call(Session(), "scenario_template", {"system": system})


def check(data: dict) -> dict:
    return call(Session(), "scenario_check", {"scenario": data})


# -- the catalog -------------------------------------------------------------------------------


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_catalog_is_plain_json_and_the_same_every_time(system):
    first = call(Session(), "editor_catalog", {"system": system})
    assert json.loads(json.dumps(first)) == first
    assert call(Session(), "editor_catalog", {"system": system}) == first
    first["units"]["types"].append("dragoon")  # a caller's copy: the next answer is whole
    assert "dragoon" not in call(Session(), "editor_catalog", {"system": system})["units"]["types"]
    keys = {"system", "map_kind", "hex", "areas", "units", "tables", "turns", "sides", "words"}
    assert set(first) == keys
    assert first["turns"]["min"] == 1 and first["turns"]["max"] == 99
    # The labels' parameters are worded as a game of the system words them.
    loaded = call(Session(), "load_scenario", {"scenario": editor.template(system)})
    assert first["words"] == loaded["words"]


@pytest.mark.parametrize("system", ["hex-facing", "hex-hexside"])
def test_a_hex_catalog_lists_what_the_loader_accepts(system):
    found = editor.catalog(system)
    assert found["map_kind"] == "hex" and found["areas"] is None
    hexes = found["hex"]
    assert set(hexes["terrains"]) == hex_terrains(system)
    assert hexes["terrains"][0] == "clear"
    assert set(hexes["hexside_features"]) == hexside_features(system)
    assert set(hexes["road_kinds"]) == connection_kinds(system)
    assert "slope" in hexes["directional"]
    assert set(hexes["directional"]) <= set(hexes["hexside_features"])
    assert found["units"]["facing"] == ({"min": 0, "max": 11} if system == "hex-facing" else None)
    assert found["units"]["formations"] is (system == "hex-facing")
    assert found["units"]["approach"] is False


def test_an_area_catalog_lists_what_the_loader_accepts():
    found = editor.catalog("area-locale")
    assert found["map_kind"] == "areas" and found["hex"] is None
    areas = found["areas"]
    assert areas["widths"] == ["narrow", "wide"]
    assert areas["flags"] == ["cavalry_obstructed", "impassable"]
    assert areas["road_kinds"] == ["primary", "secondary"]
    assert set(areas["terrains"]) == set(areamap.TERRAINS)
    assert areas["effect"] == {"min": 0, "max": 9} and areas["capacity"]["min"] == 1
    units = found["units"]
    assert units["approach"] is True and units["facing"] is None
    assert units["types"] == ["infantry", "cavalry", "artillery"]
    for kind, most in systems.get("area-locale").pieces.items():
        assert units["steps"][kind]["min"] == 1 and units["steps"][kind]["max"] == most
    assert found["turns"]["default"] == 16


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_ratings_are_those_the_rules_read_and_the_demos_carry_them(system):
    units = editor.catalog(system)["units"]
    assert {t: {r["name"] for r in units["ratings"][t]} for t in units["types"]} == READ[system]
    for ratings in units["ratings"].values():
        for r in ratings:
            assert r["min"] <= r["default"] <= r["max"]
            assert all(f"rating.{r['name']}" in words for words in WORDS.values())
    for demo in DEMOS.values():
        if demo["system"] != system:
            continue
        for unit in demo["units"]:
            for r in units["ratings"][unit["type"]]:
                if (system, unit["type"], r["name"]) not in DEFAULTED:
                    assert r["name"] in unit["ratings"], (unit["id"], r["name"])


def other_value(entry: dict):
    """A valid value of an entry's kind that is not its default."""
    default, kind = entry["default"], entry["kind"]
    if kind == "bool":
        return not default
    if kind == "int":
        return 1 if default is None else default + 1
    if kind == "number":
        return default + 0.25
    if kind == "text":
        others = [c for c in entry.get("choices", []) if c != default]
        return others[0] if others else default
    if kind == "list":
        if "choices" in entry:
            return entry["choices"][:1]
        return default[:1] if len(default) > 1 else []
    if kind == "crt":  # the stand-in's shape, said to be the owner's, one cell changed
        own = {k: v for k, v in copy.deepcopy(default).items() if k != "why"}
        own["stand_in"] = False
        own["rows"][0]["cells"][own["columns"][0]["label"]] = ["D1"]
        return own
    assert kind == "cell", entry
    if not isinstance(default, dict):
        return default + 1 if isinstance(default, int | float) else 1
    cell = copy.deepcopy(default)
    for key in ("value", "into"):
        if key in cell:
            cell[key] = cell[key] + 1 if isinstance(cell[key], int | float) else "NE"
            return cell
    cell["value"] = 1
    return cell


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_table_value_may_be_overridden_with_its_default_or_another(system):
    entries = editor.catalog(system)["tables"]
    assert len({json.dumps(e["path"]) for e in entries}) == len(entries)
    kinds = {"int", "number", "text", "bool", "cell", "list", "crt"}
    base = template(system)
    for entry in entries:
        assert entry["kind"] in kinds and entry["path"][0] == entry["table"]
        for value in (entry["default"], other_value(entry)):
            data = {**base, "overrides": editor.override_at(entry["path"], value)}
            assert check(data)["ok"], (entry["path"], value, check(data))


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_table_value_is_named_in_every_language(system):
    def keys(label):
        yield label["key"]
        for value in label["params"].values():
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, dict):
                    yield from keys(item)

    for entry in editor.catalog(system)["tables"]:
        for key in keys(entry["label"]):
            for lang, words in WORDS.items():
                assert key in words, (lang, key, entry["path"])


def test_the_tables_hold_the_settings_the_reference_shows_with_its_own_words():
    found = {json.dumps(e["path"]): e for e in editor.catalog("hex-facing")["tables"]}
    stacking = found['["movement", "stacking", "max_units"]']
    assert stacking["default"] == 2 and stacking["label"]["key"] == "ref.move.stacking"
    cell = found['["terrain", "woods", "cav"]']
    assert cell["default"] == 3 and cell["label"]["params"]["terrain"]["key"] == "terrain.woods"
    assert found['["los", "vertex"]']["choices"] == ["both", "either"]
    assert not any("why" in e["path"] or "default" in e["path"] for e in found.values())
    hh = {json.dumps(e["path"]): e for e in editor.catalog("hex-hexside")["tables"]}
    assert hh['["sequence", "results", "r"]']["label"]["key"] == "ref.hh_setting.r"
    assert hh['["movement", "road", "cost"]']["kind"] == "number"
    al = [e["table"] for e in editor.catalog("area-locale")["tables"]]
    assert set(al) == {"sequence"}


# -- a new scenario ----------------------------------------------------------------------------


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_new_scenario_loads_with_two_sides_and_no_units(system):
    data = template(system)
    session = Session()
    summary = call(session, "load_scenario", {"scenario": data})
    assert summary["system"] == system and summary["units"] == 0
    assert [s["id"] for s in data["sides"]] == ["blue", "red"]
    assert all(s["name"] and s["color"] for s in data["sides"])
    if system == "area-locale":
        assert summary["locales"] == 4
        sc = session.scenario
        assert all(len(sc.neighbors[k]) == 2 for k in sc.locales)  # a 2 x 2 square
        assert len(sc.approaches) == 8
    else:
        assert summary["hexes"] == 120
        assert data["map"]["orientation"] == "flat" and data["map"]["first_column"] == 1
        assert session.scenario.hex_at("1210") and session.scenario.hex_at("0101")
    assert template(system) == data  # the same every time, and a fresh copy
    data["sides"][0]["name"] = "changed"
    assert template(system)["sides"][0]["name"] == "Blue"


# -- the check ---------------------------------------------------------------------------------


@pytest.mark.parametrize("demo", sorted(DEMOS))
def test_a_good_scenario_checks_with_the_summary_load_scenario_gives(demo):
    answer = check(DEMOS[demo])
    assert answer["ok"] is True
    assert answer["summary"] == call(Session(), "load_scenario", {"scenario": DEMOS[demo]})


def problem(data: dict) -> dict:
    answer = check(data)
    assert answer["ok"] is False, answer
    found = answer["problem"]
    assert set(found) == {"key", "params", "message", "place"}
    return found


def with_unit(system: str, **unit) -> dict:
    data = template(system)
    spec = {"id": "a1", "side": "blue", "type": "infantry", "name": "IR 1", "hex": "0303"}
    data["units"] = [{**spec, **unit}]
    return data


def hex_map(system: str = "hex-hexside", **parts) -> dict:
    data = template(system)
    data["map"].update(parts)
    return data


PLACES = [
    (hex_map(hexes={"0303": {"terrain": ["wods"]}}), {"kind": "hex", "id": "0303"}),
    (hex_map(hexes={"0303": {"level": 200}}), {"kind": "hex", "id": "0303"}),
    (
        hex_map(hexsides=[{"between": ["0101", "0102"], "features": ["slope"]}]),
        {"kind": "hexside", "id": ["0101", "0102"]},
    ),
    (
        hex_map(hexsides=[{"between": ["0101", "0105"], "features": ["stream"]}]),
        {"kind": "hexside", "id": ["0101", "0105"]},
    ),
    (hex_map(roads=[{"kind": "road", "hexes": ["0101", "0301"]}]), {"kind": "road", "index": 0}),
    (
        hex_map(labels=[{"hex": "0101", "text": "A"}, {"hex": "1515"}]),
        {"kind": "label", "index": 1},
    ),
    (with_unit("hex-hexside", side="green"), {"kind": "unit", "id": "a1"}),
    (with_unit("hex-facing", id="my unit", facing=12), {"kind": "unit", "id": "my unit"}),
    (with_unit("hex-hexside", ratings={"morale": 12}), {"kind": "unit", "id": "a1"}),
]


@pytest.mark.parametrize("data, place", PLACES)
def test_a_refusal_names_its_place_on_the_map(data, place):
    found = problem(data)
    assert found["key"] == "error.scenario"
    assert found["place"] == place, found


def test_a_refusal_names_sides_formations_overrides_and_the_scenario():
    data = template("hex-hexside")
    data["sides"][1]["army_morale"] = {"points": 3, "demoralized": 5, "broken": 1}
    assert problem(data)["place"] == {"kind": "side", "id": "red"}
    data = template("hex-hexside")
    data["sides"][1]["name"] = ""
    assert problem(data)["place"] == {"kind": "side", "id": "red"}
    data = template("hex-facing")
    data["formations"] = [{"id": "1st", "side": "green", "name": "1st Division"}]
    assert problem(data)["place"] == {"kind": "formation", "id": "1st"}
    data = template("hex-hexside")
    data["overrides"] = {"movement": {"zoc": {"extent": 3}}}
    assert problem(data)["place"] == {"kind": "overrides", "path": ["movement", "zoc", "extent"]}
    data["overrides"] = {"terrain": {"woods": {"cavalry": 2}}}
    assert problem(data)["place"] == {"kind": "overrides", "path": ["terrain", "woods", "cavalry"]}
    data["overrides"] = {"los": {"hex_obstacles": {"woods": -1}}}
    assert problem(data)["place"] == {
        "kind": "overrides",
        "path": ["los", "hex_obstacles", "woods"],
    }
    data["overrides"] = {"sequence": {"drm": {"routed_lead": "x"}}}
    assert problem(data)["place"] == {
        "kind": "overrides",
        "path": ["sequence", "drm", "routed_lead"],
    }
    data = template("hex-hexside")
    data["turns"] = 0
    assert problem(data)["place"] == {"kind": "scenario", "path": "turns"}
    data["turns"] = 5
    data["objectives"] = [{"hex": "0202", "points": -1}]
    assert problem(data)["place"] == {"kind": "hex", "id": "0202"}


def test_a_refusal_names_locales_and_approaches():
    data = template("area-locale")
    data["map"]["locales"][1]["capacity"] = 0
    assert problem(data)["place"] == {"kind": "locale", "id": "ne"}
    data = template("area-locale")
    data["map"]["approaches"].pop(1)  # ne/nw
    assert problem(data)["place"] == {"kind": "approach", "id": "nw/ne"}
    data = template("area-locale")
    data["map"]["approaches"][2]["width"] = "huge"
    assert problem(data)["place"] == {"kind": "approach", "id": "sw/se"}
    data = template("area-locale")
    data["units"] = [
        {"id": "b1", "side": "blue", "type": "cavalry", "name": "B", "steps": 3, "locale": "nw"}
    ]
    assert problem(data)["place"] == {"kind": "unit", "id": "b1"}


def test_a_limit_names_the_unit_its_path_points_into():
    data = with_unit("hex-hexside", ratings={"strength": 10**20})
    with pytest.raises(RulesError) as caught:  # the core called directly (the bridge refuses
        parse_scenario(data)  # such a number in any request: error.bad_json)
    found = editor.problem(caught.value, data)
    assert found["key"] == "error.bad_number"
    assert found["params"]["place"] == "scenario.units[0].ratings.strength"
    assert found["place"] == {"kind": "unit", "id": "a1"}
    data = template("hex-hexside")
    data["map"].update(column_digits=3, row_digits=3, columns=200, rows=200)
    found = problem(data)
    assert found["key"] == "error.too_large"
    assert found["place"] == {"kind": "scenario", "path": "map"}
    data = template("hex-hexside")
    data["map"]["labels"] = [{"hex": "0101", "text": "x" * 90_000}] * 50  # over 4 MiB
    found = problem(data)
    assert found["key"] == "error.too_large"
    assert found["place"] == {"kind": "scenario", "path": "scenario"}


def test_anything_in_place_of_a_scenario_is_a_problem_at_the_scenario():
    for bad in (None, 3, "x", [], {}, {"format": "muster-scenario/1"}):
        found = problem(bad)
        assert found["place"]["kind"] == "scenario", (bad, found)


def test_the_check_gives_the_refusal_load_scenario_gives():
    for name, base in DEMOS.items():
        rng = random.Random(name)
        for _ in range(40):
            mutated = mutate(base, rng)
            loaded = Session().call("load_scenario", {"scenario": mutated})
            answer = Session().call("scenario_check", {"scenario": mutated})
            if not answer["ok"]:  # not plain JSON within the limits: both refuse the call
                assert answer == loaded and answer["error"]["params"]["place"].startswith("params")
                continue
            checked = answer["result"]
            assert checked["ok"] is loaded["ok"]
            if not loaded["ok"]:
                found = dict(checked["problem"])
                place = found.pop("place")
                assert found == loaded["error"]
                assert place is None or place["kind"] in {
                    "hex", "hexside", "road", "label", "unit", "side", "formation",
                    "locale", "approach", "overrides", "scenario",
                }  # fmt: skip


def test_a_check_leaves_the_game_in_progress_as_it_was():
    for demo in ("demo-valmont", "demo-fontanella"):
        session = position(demo, 8)
        before = snapshot(session)
        scenario = session.scenario
        bad = copy.deepcopy(DEMOS[demo])
        bad["turns"] = 0
        assert session.call("scenario_check", {"scenario": bad})["result"]["ok"] is False
        good = DEMOS["demo-hohenbrueck"]
        assert session.call("scenario_check", {"scenario": good})["result"]["ok"] is True
        assert session.call("scenario_template", {"system": "hex-facing"})["ok"]
        assert session.call("editor_catalog", {"system": "area-locale"})["ok"]
        assert snapshot(session) == before and session.scenario is scenario
        assert session.call("act", {"action": session.game.legal_actions()[0]})["ok"]


def test_bad_parameters_are_refused_by_name():
    session = Session()
    for method in ("editor_catalog", "scenario_template"):
        for bad in (None, 3, "hex", ["hex-facing"], {"a": 1}, "x" * 5000):
            error = session.call(method, {"system": bad})["error"]
            assert error["key"] == "error.unknown_system", (method, bad)
            assert len(error["message"]) < 300
        error = session.call(method, {"system": "hex-facing", "scenario": {}})["error"]
        assert error["key"] == "error.unknown_param"
        assert session.call(method, [])["error"]["key"] == "error.bad_params"
    assert session.call("scenario_check", {})["error"]["key"] == "error.missing_param"
    answer = session.call("scenario_check", {"scenario": {}, "system": "hex-facing"})
    assert answer["error"]["key"] == "error.unknown_param"
    deep: list = [0]
    for _ in range(100):
        deep = [deep]
    for method in ("editor_catalog", "scenario_template", "scenario_check"):
        answer = session.call(method, {"system": deep, "scenario": deep})
        assert answer["error"]["key"] == "error.too_deep"
    text = json.dumps({"method": "scenario_check", "params": {"scenario": {"a": float("inf")}}})
    assert json.loads(session.call_json(text))["error"]["key"] == "error.bad_json"


# -- ratings as typed --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "system, unit_type, ratings, message",
    [
        (
            "hex-hexside",
            "infantry",
            {"morale": 10},
            'rating "morale" must be a whole number from 0',
        ),
        ("hex-hexside", "cavalry", {"shock": 1.5}, 'rating "shock" must be a whole number'),
        ("hex-hexside", "leader", {"morale_modifier": -10}, "from -9 to 9, got -10"),
        ("hex-facing", "infantry", {"cohesion": 11}, 'rating "cohesion" must be a whole number'),
        (
            "hex-facing",
            "cavalry",
            {"heavy": 2},
            'rating "heavy" must be a whole number from 0 to 1',
        ),
        ("hex-facing", "artillery", {"range": -1}, 'rating "range"'),
    ],
)
def test_a_rating_out_of_its_bounds_is_refused_naming_unit_and_rating(
    system, unit_type, ratings, message
):
    data = with_unit(system, type=unit_type, ratings=ratings)
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(data)
    assert str(caught.value).startswith("unit a1: ")
    assert message in str(caught.value)


def test_ratings_within_bounds_and_ratings_no_rule_reads_are_accepted():
    data = with_unit("hex-hexside", ratings={"strength": 99, "morale": 3.0, "weight": 2.5})
    assert parse_scenario(data).units["a1"]["ratings"]["strength"] == 99
    data = with_unit("hex-facing", type="artillery", ratings={"fire": 0, "range": 99})
    assert parse_scenario(data)


def test_a_required_rating_that_is_missing_is_refused(monkeypatch):
    from muster import hexmap

    types = copy.deepcopy(hexmap.unit_types("hex-hexside"))
    types["infantry"]["ratings"][0]["required"] = True
    monkeypatch.setattr(hexmap, "unit_types", lambda system: types)
    with pytest.raises(ScenarioError, match='unit a1: the rating "strength" is missing'):
        parse_scenario(with_unit("hex-hexside", ratings={"morale": 4}))
    assert parse_scenario(with_unit("hex-hexside", ratings={"strength": 4}))


def test_units_json_and_the_area_loader_agree_on_steps():
    from muster.scenario import unit_types

    for kind, most in systems.get("area-locale").pieces.items():
        assert unit_types("area-locale")[kind]["steps"] == {"min": 1, "max": most, "default": most}
    for system in ("hex-facing", "hex-hexside"):
        assert set(unit_types(system)) == {"infantry", "cavalry", "artillery", "leader"}


def test_the_core_names_the_systems_and_how_each_writes_army_morale():
    """The UI never branches on a system's name: the core lists the systems with their kind of
    map, and says per system how a side's army morale is written."""
    systems = call(Session(), "version", {})["systems"]
    assert systems == [
        {"id": "hex-facing", "map_kind": "hex"},
        {"id": "hex-hexside", "map_kind": "hex"},
        {"id": "area-locale", "map_kind": "areas"},
    ]
    for entry in systems:
        found = editor.catalog(entry["id"])
        assert found["map_kind"] == entry["map_kind"]
        assert found["system"] == entry["id"]
    army = {s: editor.catalog(s)["sides"]["army_morale"] for s in SYSTEMS}
    assert army == {"hex-facing": None, "hex-hexside": "levels", "area-locale": "number"}
    # Each form is one the loader takes for that system.
    levels = template("hex-hexside")
    levels["sides"][0]["army_morale"] = {"points": 9, "demoralized": 5, "broken": 2}
    assert call(Session(), "scenario_check", {"scenario": levels})["ok"] is True
    number = template("area-locale")
    number["sides"][0]["army_morale"] = 7
    assert call(Session(), "scenario_check", {"scenario": number})["ok"] is True


def test_the_catalog_offers_each_closed_set_as_choices_and_never_a_note(monkeypatch):
    """The "closed" object of sequence.json, the one the loader holds overrides to, gives the
    editor's choices; the notes (the same set the loader refuses) are never offered."""
    from test_scenario import SEQUENCE

    from muster import play

    monkeypatch.setattr(play, "sequence_data", lambda folder: SEQUENCE)
    monkeypatch.setattr(editor, "sequence_data", lambda folder: SEQUENCE)
    found = {tuple(e["path"]): e for e in editor.tables("hex-facing") if e["table"] == "sequence"}
    assert found[("sequence", "pursuit", "by")]["choices"] == ["attacker", "defender"]
    assert found[("sequence", "steps")]["choices"] == ["fire", "move"]
    assert found[("sequence", "eliminated")]["choices"] == ["infantry", "cavalry", "artillery"]
    assert found[("sequence", "flag")]["choices"] == [True]
    assert not any(set(path) & play.NOTES for path in found), sorted(found)
    assert editor.NOTES is play.NOTES


def test_the_catalog_choices_of_the_shipped_files_are_their_closed_sets():
    from muster import play
    from muster.systems import FOLDERS

    for system, folder in FOLDERS.items():
        closed = play.closed_sets(folder)
        for entry in editor.tables(system):
            path = ".".join(entry["path"][1:])
            if entry["table"] == "sequence" and path in closed:
                assert entry["choices"] == closed[path], (system, path)
