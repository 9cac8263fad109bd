"""Area maps (areamap.py): a valid map indexes its locales, approaches and roads; every kind
of error in an area scenario is refused with the place named."""

from __future__ import annotations

import copy

import pytest

from muster.api import Session
from muster.areamap import EXAMPLE, parse_area_scenario
from muster.errors import ScenarioError
from muster.scenario import load_builtin, parse_scenario
from muster.systems.area_locale import pieces as P


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

BAD = [
    ({"map__kind": "hexes"}, 'map.kind: expected "areas"'),
    ({"map__width": 0}, "map.width: expected a positive number"),
    ({"map__locales": []}, "map.locales: expected a non-empty list"),
    ({"map__locales__1__id": "a"}, "locale a: id used twice"),
    ({"map__locales__0__polygon": [[0, 0], [1, 1]]}, "locale a polygon: expected three"),
    ({"map__locales__0__capacity": 0}, "locale a capacity: expected a whole number from 1"),
    ({"map__locales__0__terrain": "swamp"}, "locale a terrain: expected one of open"),
    ({"map__approaches__0__facing": "z"}, "map.approaches[0]: from and facing: two locales"),
    ({"map__approaches__0__width": "broad"}, 'approach a/b width: expected "narrow" or "wide"'),
    ({"map__approaches__0__flags": ["muddy"]}, "approach a/b flags: expected some of"),
    ({"map__approaches__0__effect": 12}, "approach a/b effect: expected a whole number from 0"),
    ({"map__approaches": [EXAMPLE["map"]["approaches"][0]]}, "the other side, b/a, is missing"),
    ({"map__roads__0__kind": "track"}, 'map.roads[0] kind: expected "primary" or "secondary"'),
    ({"map__roads__0__locales": ["a", "q"]}, "map.roads[0] locales: expected two or more"),
    ({"sides": [{"id": "x", "name": "X"}]}, "sides: expected two sides"),
    ({"sides__1__army_morale": -1}, "side y army_morale: expected a whole number"),
    ({"units": [{**UNIT, "type": "leader"}]}, "unit u: expected type infantry"),
    ({"units": [{**UNIT, "steps": 4}]}, "unit u steps: expected a whole number from 1 to 3"),
    ({"units": [{**UNIT, "locale": "z"}]}, 'unit u: unknown locale "z"'),
    ({"units": [{**UNIT, "approach": "c"}]}, "unit u: no approach a/c"),
    ({"units": [UNIT, {**UNIT, "id": "v", "side": "y"}]}, "unit v: locale a holds both sides"),
    (
        {"units": [UNIT, {**UNIT, "id": "v"}, {**UNIT, "id": "w"}, {**UNIT, "id": "t"}]},
        "unit t: locale a is over its capacity 3",
    ),
    ({"turns": 0}, "turns: expected a whole number from 1 to 99"),
]


@pytest.mark.parametrize("changes,message", BAD)
def test_bad_area_scenarios_are_refused_with_the_place(changes, message):
    with pytest.raises(ScenarioError) as info:
        parse_area_scenario(changed(**changes))
    assert message in str(info.value)


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
