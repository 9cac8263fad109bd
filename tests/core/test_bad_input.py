"""Bad input: any JSON value in any place of a scenario or an owner's CRT is accepted as the
format says or refused by name (never ``error.internal``), within the documented limits."""

import json
import random
import sys
from typing import Any

import pytest

from muster.api import Session
from muster.errors import RulesError
from muster.limits import MAX_HEXES, MAX_LOCALES, MAX_UNITS
from muster.scenario import SCENARIO_DIR, parse_scenario
from muster.systems.hex_hexside.tables import raw_tables

DEMOS = {path.stem: json.loads(path.read_text("utf-8")) for path in SCENARIO_DIR.glob("*.json")}
RULES_CRT = raw_tables()["crt"]  # the shipped stand-in, read through the package

# Valid overrides of every table each system ships, so that the fuzz reaches inside them.
OVERRIDES = {
    "hex-hexside": {
        "terrain": {
            "woods": {
                "mp_cav": 2,
                "cav": {"value": -3, "applies": "from_or_into", "flags": ["no_shock"]},
            }
        },
        "movement": {"stacking": {"max_units": 3}, "zoc": {"exerted_by": ["infantry"]}},
        "los": {"vertex": "either", "hex_obstacles": {"woods": 1}},
        "sequence": {"drm": {"leader_with_lead": 2}, "turns": 5},
    },
    "hex-facing": {
        "terrain": {"woods": {"cav": 2, "melee": {"value": -2, "flags": ["no_charge"]}}},
        "movement": {"stacking": {"max_units": 3}},
        "los": {"vertex": "either", "hex_obstacles": {"vineyard": 1}},
        "sequence": {"formation_steps": ["move", "fire", "combat"]},
    },
    "area-locale": {"sequence": {"commands": {"per_turn": 2}, "turns": 10}},
}


def nest(levels: int) -> Any:
    """A list inside a list ``levels`` deep (built without recursion)."""
    value: Any = []
    for _ in range(levels):
        value = [value]
    return value


# One of each JSON type, and the values at and beyond the limits.
ODD_VALUES = [
    [],
    ["x"],
    [[1, 2]],
    {},
    {"a": 1},
    "",
    "x",
    "0101",
    0,
    -1,
    1,
    2.5,
    10**400,  # beyond MAX_INT: check_plain refuses it
    True,
    False,
    None,
    nest(1000),
    "x" * 200_000,
]
# Optional keys a file may add anywhere: the fuzz also adds one of them with an odd value.
OPTIONAL_KEYS = [
    "description",
    "color",
    "text",
    "army_morale",
    "ratings",
    "steps",
    "facing",
    "state",
    "formation",
    "turns",
    "objectives",
    "formations",
    "overrides",
    "labels",
    "roads",
    "hexsides",
    "hexes",
    "up",
    "name",
    "flags",
    "effect",
    "objective",
    "terrain",
    "level",
    "approach",
    "default_terrain",
    "first_column",
    "first_row",
    "column_digits",
    "row_digits",
    "stand_in",
    "why",
    "result",
]


def paths(tree: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in ``tree``: the root, each key of an object, each item of a list."""
    out = [prefix]
    if isinstance(tree, dict):
        for key, value in tree.items():
            out += paths(value, (*prefix, key))
    elif isinstance(tree, list):
        for i, value in enumerate(tree):
            out += paths(value, (*prefix, i))
    return out


def mutate(tree: Any, rng: random.Random) -> Any:
    """A copy of ``tree`` with one value somewhere replaced by an odd one, or an optional key
    added to one object with an odd value."""
    copy = json.loads(json.dumps(tree))
    value = rng.choice(ODD_VALUES)
    objects = [p for p in paths(copy) if isinstance(get(copy, p), dict)]
    if rng.random() < 0.2:
        get(copy, rng.choice(objects))[rng.choice(OPTIONAL_KEYS)] = value
        return copy
    path = rng.choice(paths(copy))
    if not path:
        return value
    get(copy, path[:-1])[path[-1]] = value
    return copy


def get(tree: Any, path: tuple) -> Any:
    """The value at ``path``."""
    for key in path:
        tree = tree[key]
    return tree


def refused_by_name(answer: dict[str, Any]) -> bool:
    """True for a clean refusal that names its place (or an owner's table's place)."""
    error = answer["error"]
    assert error["key"] != "error.internal", error
    params = error["params"]
    if error["key"] == "error.crt_refused":
        return params["place"].startswith("crt")
    return bool(params.get("place"))


def with_overrides(data: dict[str, Any]) -> dict[str, Any]:
    """The scenario with a valid override of every table its system ships."""
    return {**data, "overrides": OVERRIDES[data["system"]]}


# -- (a) fuzz: the demo scenarios, one odd value at a time -------------------------------------


@pytest.mark.parametrize("name", sorted(DEMOS))
@pytest.mark.parametrize("overrides", [False, True], ids=["plain", "overrides"])
def test_an_odd_value_anywhere_in_a_scenario_is_accepted_or_refused_by_name(name, overrides):
    base = with_overrides(DEMOS[name]) if overrides else DEMOS[name]
    session = Session()
    assert session.call("load_scenario", {"scenario": base})["ok"]
    rng = random.Random(f"{name} {overrides}")
    refused = 0
    for _ in range(80):
        before = session.scenario
        mutated = mutate(base, rng)
        answer = session.call("load_scenario", {"scenario": mutated})
        if not answer["ok"]:
            assert refused_by_name(answer), answer["error"]
            assert session.scenario is before  # a refused load leaves the scenario in play
            refused += 1
    assert refused > 20  # most odd values are refused


@pytest.mark.parametrize("name", sorted(DEMOS))
def test_the_demo_scenarios_load_with_overrides_of_every_table(name):
    answer = Session().call("load_scenario", {"scenario": with_overrides(DEMOS[name])})
    assert answer["ok"], answer


# -- (b) the cases the first fuzzing found ------------------------------------------------------


def changed(name: str, path: tuple, value: Any) -> dict[str, Any]:
    """A demo scenario with the value at ``path`` replaced."""
    data = json.loads(json.dumps(DEMOS[name]))
    get(data, path[:-1])[path[-1]] = value
    return data


def refusal(data: Any) -> dict[str, Any]:
    """The error of loading ``data``, which must be refused."""
    answer = Session().call("load_scenario", {"scenario": data})
    assert not answer["ok"], answer
    assert answer["error"]["key"] != "error.internal", answer["error"]
    return answer["error"]


@pytest.mark.parametrize(
    ("name", "path", "value", "message"),
    [
        ("demo-hohenbrueck", ("units", 0, "side"), ["prussia"], 'unit pr-ir13: unknown side ["p'),
        ("demo-valmont", ("units", 0, "formation"), {"id": 1}, "unit fr-1-1: expected the id"),
        ("demo-valmont", ("sides", 0, "id"), ["france"], "sides[0] id: expected a non-empty"),
        ("demo-valmont", ("formations", 0, "side"), ["france"], "formation fr-bde1: unknown side"),
        ("demo-valmont", ("map", "roads", 0, "kind"), ["road"], "map.roads[0]: unknown kind of"),
        ("demo-valmont", ("map", "default_terrain"), {}, "map.default_terrain: unknown terrain"),
        ("demo-valmont", ("map", "hexes", "0203", "terrain"), [{}], "hex 0203: unknown terrain {}"),
        ("demo-valmont", ("map", "hexes", "0203"), {"terrain": [["woods"]]}, "hex 0203: unknown"),
        ("demo-valmont", ("map", "hexsides", 0, "features"), [[1]], ": unknown hexside feature"),
        ("demo-valmont", ("units", 0, "steps"), "two", "unit fr-1-1 steps: expected a whole"),
        ("demo-valmont", ("units", 0, "state"), [], "unit fr-1-1 state: expected a JSON object"),
        ("demo-valmont", ("description",), ["x"], "scenario description: expected a text"),
        ("demo-fontanella", ("map", "approaches", 0, "from"), ["bosco"], "map.approaches[0]:"),
        ("demo-fontanella", ("map", "approaches", 0, "flags"), [[]], "flags: expected some of"),
        ("demo-fontanella", ("map", "locales", 0, "terrain"), {}, "terrain: expected one of"),
        ("demo-fontanella", ("map", "roads", 0, "kind"), ["primary"], "map.roads[0] kind:"),
        ("demo-fontanella", ("map", "roads", 0, "locales"), [[], {}], "map.roads[0] locales:"),
        ("demo-fontanella", ("units", 0, "side"), {"id": "austria"}, "unit a01: unknown side {"),
        ("demo-fontanella", ("units", 0, "locale"), ["bosco"], 'unit a01: unknown locale ["'),
        ("demo-fontanella", ("units", 0, "approach"), ["x"], 'unit a01: no approach bosco/["x"]'),
        ("demo-fontanella", ("units", 0, "type"), ["infantry"], "unit a01: expected a type of"),
        ("demo-fontanella", ("overrides",), [], "overrides: expected a JSON object"),
    ],
)
def test_a_list_or_object_where_a_name_belongs_is_refused_by_place(name, path, value, message):
    error = refusal(changed(name, path, value))
    assert error["key"] == "error.scenario"
    assert message in error["message"]


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"los": [1]}, "overrides.los: expected a JSON object"),
        ({"los": 0}, "overrides.los: expected a JSON object"),
        ({"los": {"hex_obstacles": [["woods"]]}}, "overrides.los.hex_obstacles: expected a JSON"),
        ({"los": {"hexside_features": 5}}, "overrides.los.hexside_features: expected a JSON"),
        (
            {"terrain": {"woods": {"inf": {"value": 1, "applies": ["into"]}}}},
            'overrides.terrain.woods.inf: expected a number, "P"',
        ),
        ({"terrain": {"woods": {"mp_cav": [2]}}}, "overrides.terrain.woods.mp_cav: expected"),
        ({"terrain": [1]}, "overrides.terrain: expected a JSON object"),
        ({"movement": {"stacking": {"max_units": [3]}}}, "stacking.max_units: not the type"),
        ({"movement": {"zoc": {"exerted_by": [["infantry"]]}}}, "exerted_by[0]: not the type"),
        ({"sequence": {"turns": 2.5}}, "overrides.sequence.turns: not the type"),
        ({"sequence": {"leader_loss": {"lost_on": ["6"]}}}, "lost_on[0]: not the type"),
        ({"sequence": [{}]}, "overrides.sequence: expected a JSON object"),
        (
            {"movement": {"unit_columns": {"leader": "inf"}}},
            'unit_columns.leader: unknown column "inf"',
        ),
    ],
)
def test_odd_overrides_are_refused_with_the_place(overrides, message):
    data = {**DEMOS["demo-hohenbrueck"], "overrides": overrides}
    error = refusal(data)
    assert message in error["message"], error["message"]


@pytest.mark.parametrize(
    ("steps", "ok"),
    [(["move", "fire"], True), ([], False), (["fire", "fire"], False), (["rally"], False)],
)
def test_an_ordering_of_steps_is_some_of_the_default_steps_once_each(steps, ok):
    data = {**DEMOS["demo-valmont"], "overrides": {"sequence": {"formation_steps": steps}}}
    answer = Session().call("load_scenario", {"scenario": data})
    assert answer["ok"] == ok
    if not ok:
        assert "overrides.sequence.formation_steps: expected some of" in answer["error"]["message"]


def test_an_area_scenario_may_override_only_its_sequence():
    data = {**DEMOS["demo-fontanella"], "overrides": {"terrain": {"town": {"x": 1}}}}
    assert 'overrides: unknown table "terrain"' in refusal(data)["message"]


@pytest.mark.parametrize(
    ("value", "key"),
    [
        (10**400, "error.bad_number"),
        (float("nan"), "error.bad_number"),
        (nest(1000), "error.too_deep"),
        ("x" * 200_000, "error.too_large"),
        ({1: 2}, "error.not_json"),
        ({1, 2}, "error.not_json"),
    ],
    ids=["10**400", "nan", "1000 levels", "200,000 characters", "int key", "set"],
)
def test_values_beyond_plain_json_are_refused_before_anything_else(value, key):
    data = changed("demo-hohenbrueck", ("units", 0, "ratings", "strength"), value)
    error = refusal(data)
    assert error["key"] == key
    assert "scenario.units[0].ratings.strength" in error["params"]["place"]


@pytest.mark.parametrize(
    ("value", "key"),
    [
        (10**400, "error.bad_number"),
        (nest(100), "error.too_deep"),
        ([1.5, {2: 3}], "error.not_json"),
    ],
    ids=["10**400", "100 levels", "int key"],
)
def test_the_parser_itself_checks_plain_json(value, key):
    data = changed("demo-valmont", ("units", 0, "ratings", "strength"), value)
    with pytest.raises(RulesError) as caught:
        parse_scenario(data)
    assert caught.value.key == key
    assert caught.value.params["place"].startswith("scenario.units[0].ratings.strength")


# -- (c) limits: refused at once ----------------------------------------------------------------


def tiny_hex_map(**map_changes: Any) -> dict[str, Any]:
    """A 2x2 hex-hexside map with no units."""
    return {
        "format": "muster-scenario/1",
        "id": "t",
        "system": "hex-hexside",
        "title": "t",
        "map": {"orientation": "flat", "stagger": "even", "columns": 2, "rows": 2, **map_changes},
        "sides": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
        "units": [],
    }


def json_nodes(value: Any) -> int:
    """How many values ``value`` holds, itself included (every object, list, key and leaf)."""
    if isinstance(value, dict):
        return 1 + sum(1 + json_nodes(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(json_nodes(v) for v in value)
    return 1


def quick_refusal(data: Any) -> dict[str, Any]:
    """The refusal of ``data``, which must come before any work on it: the core makes at most a
    few function calls per value of the file (counted, not timed: a count is the same on any
    machine), where building the map or the army would make many more."""
    calls = 0

    def count(frame: Any, event: str, arg: Any) -> None:
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    sys.setprofile(count)
    try:
        error = refusal(data)
    finally:
        sys.setprofile(None)
    allowed = CALLS_PER_VALUE * json_nodes(data) + CALLS_AT_MOST
    assert calls <= allowed, f"{calls} calls to refuse a file of {json_nodes(data)} values"
    return error


# What a refusal before the work may cost: a few calls per value of the file (its check that
# every value is plain JSON of a bounded size) and a fixed number more (parsing the request,
# the refusal's words). A map at the limit of hexes is built in over 500,000 calls.
CALLS_PER_VALUE = 4
CALLS_AT_MOST = 2_000


def test_a_map_of_a_million_hexes_is_refused_before_it_is_built():
    data = tiny_hex_map(columns=1000, rows=1000, first_column=0, first_row=0)
    data["map"].update(column_digits=3, row_digits=3)
    error = quick_refusal(data)
    assert error["key"] == "error.too_large"
    assert error["params"] == {"place": "map", "what": "hexes", "count": 10**6, "limit": MAX_HEXES}


def test_a_map_just_over_the_limit_is_refused_and_one_at_it_loads():
    data = tiny_hex_map(columns=160, rows=126, column_digits=3, row_digits=3)
    assert quick_refusal(data)["params"]["count"] == 160 * 126
    data["map"]["rows"] = 125
    assert Session().call("load_scenario", {"scenario": data})["ok"]


def test_too_many_units_are_refused():
    data = tiny_hex_map()
    unit = {"side": "a", "type": "infantry", "name": "U", "hex": "0101"}
    data["units"] = [{**unit, "id": f"u{i}"} for i in range(MAX_UNITS + 1)]
    error = quick_refusal(data)
    assert error["params"] == {
        "place": "units",
        "what": "units",
        "count": MAX_UNITS + 1,
        "limit": MAX_UNITS,
    }


def test_too_many_locales_are_refused():
    data = json.loads(json.dumps(DEMOS["demo-fontanella"]))
    first = data["map"]["locales"][0]
    data["map"]["locales"] = [{**first, "id": f"l{i}"} for i in range(MAX_LOCALES + 1)]
    error = quick_refusal(data)
    assert (error["key"], error["params"]["place"]) == ("error.too_large", "map.locales")


def test_too_many_hexsides_on_a_road_are_refused():
    data = tiny_hex_map()
    data["map"]["roads"] = [{"kind": "road", "hexes": ["0101", "0201"] * 30_001}]
    error = quick_refusal(data)
    assert (error["key"], error["params"]["what"]) == ("error.too_large", "road_hexsides")


def test_a_polygon_of_too_many_points_is_refused():
    data = json.loads(json.dumps(DEMOS["demo-fontanella"]))
    data["map"]["locales"][0]["polygon"] = [[i, i % 7] for i in range(1001)]
    error = quick_refusal(data)
    assert error["params"]["place"].endswith("polygon")


# -- (d) the owner's combat results table -------------------------------------------------------


def test_an_odd_value_anywhere_in_an_owner_crt_is_accepted_or_refused_by_name():
    session = Session()
    assert session.call("check_crt", {"crt": RULES_CRT})["ok"]
    rng = random.Random("crt")
    refused = 0
    for _ in range(300):
        answer = session.call("check_crt", {"crt": mutate(RULES_CRT, rng)})
        if not answer["ok"]:
            assert refused_by_name(answer), answer["error"]
            refused += 1
    assert refused > 100


@pytest.mark.parametrize(
    ("change", "place"),
    [
        (lambda t: t["rows"][0]["cells"].update({"1:3": [["A2"]]}), "crt.rows[0].cells.1:3"),
        (lambda t: t["rows"][0]["cells"].update({"1:3": [{"A2": 1}]}), "crt.rows[0].cells.1:3"),
        (lambda t: t["rows"][0]["cells"].update({"1:3": None}), "crt.rows[0].cells.1:3"),
        (lambda t: t["rows"][0]["cells"].update({"1:3": {"A2": 1}}), "crt.rows[0].cells.1:3"),
        (lambda t: t["rows"][2].update(roll=[3]), "crt.rows[2].roll"),
        (lambda t: t["columns"][0].update(label=["1:3"]), "crt.columns[0].label"),
        (lambda t: t["codes"]["A1"].update(steps=-1), "crt.codes.A1.steps"),
        (lambda t: t["codes"]["A1"].update(result=["r"]), "crt.codes.A1.result"),
        (lambda t: t.update(roll_limits=[]), "crt.roll_limits.value"),
    ],
)
def test_odd_cells_of_an_owner_crt_are_refused_with_the_place(change, place):
    table = json.loads(json.dumps(RULES_CRT))
    change(table)
    answer = Session().call("check_crt", {"crt": table})
    assert answer["error"]["key"] == "error.crt_refused", answer
    assert answer["error"]["params"]["place"] == place


@pytest.mark.parametrize(
    ("crt", "key"),
    [
        ([RULES_CRT], "error.crt_refused"),
        ("table", "error.crt_refused"),
        ({**RULES_CRT, "why": "x" * 200_000}, "error.too_large"),
        ({**RULES_CRT, "rows": nest(100)}, "error.too_deep"),
        (
            {**RULES_CRT, "codes": {f"c{i}": {"side": "both", "steps": 1} for i in range(101)}},
            "error.too_large",
        ),
    ],
    ids=["a list", "a text", "a long text", "too deep", "too many codes"],
)
def test_an_owner_crt_beyond_plain_json_or_the_limits_is_refused(crt, key):
    answer = Session().call("check_crt", {"crt": crt})
    assert answer["error"]["key"] == key, answer
