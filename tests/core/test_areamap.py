"""Area maps (areamap.py): a valid map indexes its locales, approaches and roads; every kind
of error in an area scenario is refused with the place named."""

from __future__ import annotations

import copy

import pytest

from muster.api import Session
from muster.areamap import EXAMPLE, parse_area_scenario
from muster.errors import ScenarioError
from muster.scenario import load_builtin, parse_scenario
from muster.systems.area_locale import position as P


def changed(**changes):
    """EXAMPLE with ``path=value`` changes; a path's parts split by "__" (list index: a number)."""
    data = copy.deepcopy(EXAMPLE)
    for path, value in changes.items():
        *parts, last = path.split("__")
        here = data
        for part in parts:
            here = here[int(part)] if part.isdigit() else here[part]
        here[int(last) if last.isdigit() else last] = value
    return data


def test_the_example_map_is_indexed():
    sc = parse_scenario(EXAMPLE)
    assert sc.system == "area-locale" and sc.neighbors == {"a": ("b",), "b": ("a",)}
    assert sc.approach("a", "b").effect == 1 and sc.approach("b", "a").width == "wide"
    assert P.leaders(sc, sc.approach("b", "a")) == 2 and sc.passable("a", "b")
    assert sc.road_kind("b", "a") == "primary"


def test_the_demo_loads():
    sc = load_builtin("demo-fontanella")
    assert 15 <= len(sc.locales) <= 25
    assert all(sc.approach(b, a) for a, b in (k.split("/") for k in sc.approaches))


UNIT = {"id": "u", "side": "x", "type": "infantry", "name": "U", "steps": 2, "locale": "a"}

# Each bad change: the place refused, the problem's key and parameters (muster.problems).
BAD = [
    ({"map__kind": "hexes"}, "map.kind", "problem.one_of", {"options": '"areas"'}),
    ({"map__width": 0}, "map.width", "problem.positive_number", {}),
    ({"map__locales": []}, "map.locales", "problem.non_empty_list", {}),
    ({"map__locales__1__id": "a"}, "locale a", "problem.locale_id", {}),
    ({"map__locales__0__polygon": [[0, 0], [1, 1]]}, "locale a polygon", "problem.polygon", {}),
    (
        {"map__locales__0__capacity": 0},
        "locale a capacity",
        "problem.whole_number",
        {"lo": 1, "hi": 99, "got": "0"},
    ),
    (
        {"map__locales__0__terrain": "swamp"},
        "locale a terrain",
        "problem.one_of",
        {"options": '"open", "town", "woods", "farm", "river_bank", "hills"'},
    ),
    ({"map__approaches__0__facing": "z"}, "map.approaches[0]", "problem.approach_ends", {}),
    (
        {"map__approaches__0__width": "broad"},
        "approach a/b width",
        "problem.one_of",
        {"options": '"narrow", "wide"'},
    ),
    ({"map__approaches__0__flags": ["muddy"]}, "approach a/b flags", "problem.some_of", None),
    ({"map__approaches__0__effect": 12}, "approach a/b effect", "problem.whole_number", None),
    (
        {"map__approaches": [EXAMPLE["map"]["approaches"][0]]},
        "approach a/b",
        "problem.other_side_missing",
        {"other": "b/a"},
    ),
    (
        {"map__roads__0__kind": "track"},
        "map.roads[0] kind",
        "problem.one_of",
        {"options": '"primary", "secondary"'},
    ),
    ({"map__roads__0__locales": ["a", "q"]}, "map.roads[0] locales", "problem.road_locales", {}),
    ({"sides": [{"id": "x", "name": "X"}]}, "sides", "problem.two_sides", {}),
    ({"sides__1__army_morale": -1}, "side y army_morale", "problem.whole_number", None),
    ({"units": [{**UNIT, "type": "leader"}]}, "unit u", "problem.piece_type", None),
    (
        {"units": [{**UNIT, "steps": 4}]},
        "unit u steps",
        "problem.whole_number",
        {"lo": 1, "hi": 3, "got": "4"},
    ),
    ({"units": [{**UNIT, "locale": "z"}]}, "unit u", "problem.unknown_locale", {"got": '"z"'}),
    ({"units": [{**UNIT, "approach": "c"}]}, "unit u", "problem.no_approach", {"id": "a/c"}),
    (
        {"units": [UNIT, {**UNIT, "id": "v", "side": "y"}]},
        "unit v",
        "problem.both_sides",
        {"id": "a"},
    ),
    (
        {"units": [UNIT, {**UNIT, "id": "v"}, {**UNIT, "id": "w"}, {**UNIT, "id": "t"}]},
        "unit t",
        "problem.over_capacity",
        {"id": "a", "cap": 3},
    ),
    ({"turns": 0}, "turns", "problem.whole_number", {"lo": 1, "hi": 99, "got": "0"}),
]


@pytest.mark.parametrize("changes,place,problem,params", BAD)
def test_bad_area_scenarios_are_refused_with_the_place(changes, place, problem, params):
    with pytest.raises(ScenarioError) as info:
        parse_area_scenario(changed(**changes))
    assert info.value.params["place"] == place
    assert info.value.problem == problem
    if params is not None:
        assert info.value.problem_params == params


def test_the_api_keeps_hex_queries_off_area_maps_and_checks_the_viewer():
    s = Session()
    summary = s.call("load_scenario", {"scenario": EXAMPLE})["result"]
    assert (summary["system"], summary["locales"], summary["hexes"]) == ("area-locale", 2, 0)
    assert s.call("hex_info", {"hex": "0101"})["error"]["key"] == "error.not_hex_map"
    s.call("load_scenario", {"id": "demo-fontanella"})
    s.call("new_game", {"seed": 2})
    assert s.call("game_view", {"viewer": "prussia"})["error"]["key"] == "error.bad_viewer"
    view = s.call("game_view", {})["result"]
    assert view["viewer"] == view["state"]["decider"] == "austria"
