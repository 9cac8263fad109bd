"""Scenario files: the shipped demo loads, and every kind of bad input is named, not crashed on."""

import copy
import json

import pytest

from muster.errors import ScenarioError
from muster.hexgrid import Hexside
from muster.scenario import SCENARIO_DIR as SCENARIOS
from muster.scenario import builtin_scenarios, load_builtin, parse_scenario


def tiny(**changes):
    """A 4x3 flat map with one woods hex, a stream with a bridge, a road and two units."""
    data = {
        "format": "muster-scenario/1",
        "id": "tiny",
        "system": "hex-hexside",
        "title": "Tiny",
        "map": {
            "orientation": "flat",
            "stagger": "even",
            "columns": 4,
            "rows": 3,
            "hexes": {"0202": {"terrain": ["woods"], "level": 1}},
            "hexsides": [
                {"between": ["0101", "0201"], "features": ["stream", "bridge"], "name": "Bach"},
                {"between": ["0202", "0302"], "features": ["slope"], "up": "0202"},
            ],
            "roads": [{"kind": "road", "hexes": ["0101", "0201", "0301"]}],
        },
        "sides": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
        "units": [
            {"id": "a1", "side": "a", "type": "infantry", "name": "A1", "hex": "0101"},
            {"id": "b1", "side": "b", "type": "cavalry", "name": "B1", "hex": "0403"},
        ],
    }
    for path, value in changes.items():
        node = data
        keys = path.split("__")
        for key in keys[:-1]:
            node = node[int(key)] if isinstance(node, list) else node[key]
        last = keys[-1]
        if isinstance(node, list):
            node[int(last)] = value
        elif value is DELETE:
            del node[last]
        else:
            node[last] = value
    return data


DELETE = object()


def test_tiny_scenario_indexes_its_board():
    sc = parse_scenario(tiny())
    assert len(sc.hexes) == 12
    woods = sc.hexes[sc.hex_at("0202")]
    assert woods.terrain == ("woods",) and woods.level == 1
    assert sc.hexes[sc.hex_at("0403")].terrain == ("clear",)
    bridge = sc.hexsides[Hexside.between(sc.hex_at("0201"), sc.hex_at("0101"))]
    assert bridge.features == ("stream", "bridge") and bridge.name == "Bach"
    slope = sc.hexsides[Hexside.between(sc.hex_at("0302"), sc.hex_at("0202"))]
    assert slope.up == sc.hex_at("0202")
    assert sc.roads[Hexside.between(sc.hex_at("0201"), sc.hex_at("0301"))] == ("road",)
    assert set(sc.units) == {"a1", "b1"}


def test_parse_does_not_change_its_input():
    data = tiny()
    before = copy.deepcopy(data)
    parse_scenario(data)
    assert data == before


def test_shipped_demo_loads_and_is_listed():
    listed = {entry["id"]: entry for entry in builtin_scenarios()}
    assert "demo-hohenbrueck" in listed
    sc = load_builtin("demo-hohenbrueck")
    assert sc.system == "hex-hexside"
    assert len(sc.hexes) == 14 * 10
    assert any("bridge" in side.features for side in sc.hexsides.values())
    assert any(side.name == "Weissbach" for side in sc.hexsides.values())
    assert sc.roads and len(sc.units) >= 8
    assert json.loads(json.dumps(sc.data)) == sc.data


def test_unknown_builtin():
    with pytest.raises(ScenarioError, match='no scenario "nope"'):
        load_builtin("nope")


BAD = [
    ({"format": "other/1"}, "format: expected"),
    ({"system": "chess"}, 'system: unknown rule system "chess"'),
    ({"id": ""}, "id: expected a non-empty text"),
    ({"map__orientation": "round"}, "map.orientation"),
    ({"map__stagger": "left"}, "map.stagger"),
    ({"map__columns": 0}, "map.columns: expected a whole number"),
    ({"map__rows": "3"}, 'map.rows: expected a whole number from 1 to 99, got "3"'),
    ({"map__hexes": {"0412": {"terrain": ["wods"]}}}, "hex 0412: hex 0412 is not on the map"),
    ({"map__hexes": {"0202": {"terrain": ["wods"]}}}, 'hex 0202: unknown terrain "wods"'),
    ({"map__hexes": {"0202": {"terrain": []}}}, "hex 0202: expected a list of terrains"),
    ({"map__hexes": {"0202": {"level": 1.5}}}, "hex 0202 level: expected a whole number"),
    ({"map__hexes": {"0202": {"colour": "red"}}}, 'hex 0202: unknown key "colour"'),
    ({"map__hexes": {"22": {}}}, "hex 22: a hex number has 4 digits"),
    ({"map__default_terrain": "lava"}, 'map.default_terrain: unknown terrain "lava"'),
    (
        {"map__hexsides__0": {"between": ["0101", "0301"], "features": ["stream"]}},
        "hexes 0101 and 0301 are not adjacent",
    ),
    (
        {"map__hexsides__0": {"between": ["0101", "0201"], "features": ["moat"]}},
        'hexside 0101/0201: unknown hexside feature "moat"',
    ),
    (
        {"map__hexsides__1": {"between": ["0202", "0302"], "features": ["slope"]}},
        'hexside 0202/0302: a slope or crest needs "up"',
    ),
    (
        {"map__hexsides__1": {"between": ["0202", "0302"], "features": ["slope"], "up": "0101"}},
        "up hex 0101 is not one of the two hexes",
    ),
    (
        {"map__hexsides__1": {"between": ["0201", "0101"], "features": ["stream"]}},
        "hexside 0201/0101: listed twice",
    ),
    ({"map__roads__0": {"kind": "railway", "hexes": ["0101", "0201"]}}, "unknown kind of road"),
    ({"map__roads__0": {"hexes": ["0101", "0301"]}}, "map.roads[0]: hexes 0101 and 0301"),
    ({"map__labels": [{"hex": "0909", "text": "X"}]}, "map.labels[0]: hex 0909 is not on the map"),
    ({"map__labels": [{"hex": "0101"}]}, "map.labels[0] text: expected a non-empty text"),
    ({"sides": [{"id": "a", "name": "A"}]}, "sides: expected two or more sides"),
    (
        {"units__1": {"id": "a1", "side": "b", "type": "cavalry", "name": "x", "hex": "0403"}},
        "unit a1: id used twice",
    ),
    ({"units__0__side": "c"}, 'unit a1: unknown side "c"'),
    ({"units__0__type": "dragoon"}, 'unit a1: unknown unit type "dragoon"'),
    ({"units__0__hex": "0909"}, "unit a1: hex 0909 is not on the map"),
    ({"units__0__ratings": {"morale": "high"}}, 'the rating "morale" is not a number'),
    ({"turns": 0}, "turns: expected a whole number from 1 to 99"),
    ({"formations": [{"id": "f", "side": "z", "name": "F"}]}, 'formation f: unknown side "z"'),
    (
        {"formations": [{"id": "f", "side": "a", "name": "F"}] * 2},
        "formation f: id used twice",
    ),
    ({"units__0__formation": "nope"}, 'unit a1: unknown formation "nope"'),
    (
        {"formations": [{"id": "f", "side": "b", "name": "F"}], "units__0__formation": "f"},
        "unit a1: formation f is of side b",
    ),
    ({"objectives": [{"hex": "0909", "points": 1}]}, "objectives[0]: hex 0909 is not on the map"),
    ({"objectives": [{"hex": "0101", "points": -1}]}, "objectives[0] points: expected"),
    ({"overrides": {"crt": {}}}, "overrides.crt.codes: missing"),
    ({"overrides": {"terrain": {"wood": {"cav": 1}}}}, "overrides.terrain.wood: unknown terrain"),
    (
        {"overrides": {"terrain": {"woods": {"speed": 1}}}},
        'overrides.terrain.woods.speed: unknown column "speed"',
    ),
    ({"overrides": {"terrain": {"woods": {"mp_cav": "fast"}}}}, "overrides.terrain.woods.mp_cav:"),
    ({"overrides": {"los": {"vertex": "sometimes"}}}, "overrides.los.vertex: expected one of"),
    ({"overrides": {"movement": {"speed": 2}}}, "overrides.movement.speed: no such movement"),
    (
        {"overrides": {"movement": {"stacking": {"max_unit": 3}}}},
        'overrides.movement.stacking: unknown key "max_unit"',
    ),
    ({"overrides": {"movement": {"stacking": 3}}}, "not the type of the setting"),
    ({"overrides": {"sequence": {"speed": 2}}}, "overrides.sequence.speed: no such setting"),
    (
        {"overrides": {"sequence": {"drm": {"shock": 2}}}},
        "overrides.sequence.drm.shock: not the type of the setting",
    ),
    ({"overrides": {"sequence": {"turns": "many"}}}, "overrides.sequence.turns: not the type"),
    (
        {"sides__1__army_morale": {"points": 5, "demoralized": 5, "broken": 1}},
        "side b army_morale: expected whole numbers points > demoralized > broken",
    ),
    ({"sides__1__army_morale": {"points": 5}}, "side b army_morale demoralized: expected"),
]


@pytest.mark.parametrize("changes,message", BAD)
def test_bad_scenarios_are_rejected_with_the_place(changes, message):
    with pytest.raises(ScenarioError) as info:
        parse_scenario(tiny(**changes))
    assert message in str(info.value)
    assert info.value.key == "error.scenario"
    assert set(info.value.params) == {"place", "problem"}


@pytest.mark.parametrize("data", [None, [], "scenario", 3, {"format": "muster-scenario/1"}])
def test_not_a_scenario_at_all(data):
    with pytest.raises(ScenarioError):
        parse_scenario(data)


def test_map_missing():
    with pytest.raises(ScenarioError, match="map: expected a JSON object"):
        parse_scenario(tiny(map=DELETE))


# -- overrides of the sequence of play: notes refused, closed sets held ------------------------

# A sequence.json of our own (the systems' files are their owners'), put in place of
# hex-facing's while a test runs: notes, a scalar and lists from closed sets, a field of rows.
SEQUENCE = {
    "system": "hex-facing",
    "source": "a fixture",
    "default": True,
    "turn": [{"phase": "a", "why": "first"}, {"phase": "b", "why": "then"}],
    "steps": ["fire", "move"],
    "pursuit": {"by": "attacker", "why": "the aid is silent"},
    "eliminated": ["artillery"],
    "flag": True,
    "turns": 8,
    "closed": {
        "turn.phase": ["a", "b"],
        "steps": ["fire", "move"],
        "pursuit.by": ["attacker", "defender"],
        "eliminated": ["infantry", "cavalry", "artillery"],
        "flag": [True],
    },
}


@pytest.fixture
def own_sequence(monkeypatch):
    from muster import editor, play

    monkeypatch.setattr(play, "sequence_data", lambda folder: SEQUENCE)
    monkeypatch.setattr(editor, "sequence_data", lambda folder: SEQUENCE)
    return SEQUENCE


def with_sequence(sequence):
    data = json.loads((SCENARIOS / "demo-valmont.json").read_text(encoding="utf-8"))
    data["overrides"] = {"sequence": sequence}
    return data


@pytest.mark.parametrize(
    ("sequence", "place"),
    [
        ({"source": "mine"}, "overrides.sequence.source"),
        ({"system": "hex-hexside"}, "overrides.sequence.system"),
        ({"default": False}, "overrides.sequence.default"),
        ({"closed": {}}, "overrides.sequence.closed"),
        ({"pursuit": {"why": "because"}}, "overrides.sequence.pursuit.why"),
        ({"turn": [{"phase": "a", "why": "mine"}]}, "overrides.sequence.turn[0].why"),
    ],
)
def test_an_override_of_a_note_is_refused_naming_the_place(own_sequence, sequence, place):
    with pytest.raises(ScenarioError, match="a note of the rules, not a setting") as refused:
        parse_scenario(with_sequence(sequence))
    assert refused.value.params["place"] == place


@pytest.mark.parametrize(
    ("sequence", "refusal"),
    [
        ({"pursuit": {"by": "defender"}}, None),
        ({"pursuit": {"by": "both"}}, "pursuit.by: expected one of attacker, defender"),
        ({"steps": ["move"]}, None),
        ({"steps": ["move", "fire"]}, None),
        ({"steps": []}, "steps: expected some of fire, move, each once"),  # an ordering
        ({"steps": ["move", "move"]}, "steps: expected some of fire, move, each once"),
        ({"steps": ["rally"]}, "steps: expected some of fire, move, each once"),
        ({"eliminated": []}, None),  # the default leaves some out: none is a choice
        ({"eliminated": ["infantry", "cavalry"]}, None),
        (
            {"eliminated": ["guard"]},
            "eliminated: expected some of infantry, cavalry, artillery, each once",
        ),
        ({"turn": [{"phase": "b"}, {"phase": "a"}]}, None),
        ({"turn": [{"phase": "c"}]}, "turn: expected some of a, b, each once"),
        ({"turn": [{"phase": "a"}, {"phase": "a"}]}, "turn: expected some of a, b, each once"),
        ({"turn": []}, "turn: expected some of a, b, each once"),
        ({"flag": False}, "flag: expected one of true"),
        ({"pursuit": {"by": 3}}, "pursuit.by: not the type of the setting"),
    ],
)
def test_an_override_of_a_closed_setting_takes_only_its_values(own_sequence, sequence, refusal):
    if refusal is None:
        assert parse_scenario(with_sequence(sequence))
        return
    with pytest.raises(ScenarioError) as refused:
        parse_scenario(with_sequence(sequence))
    assert str(refused.value) == f"overrides.sequence.{refusal}"


@pytest.mark.parametrize("folder", ["hex_facing", "hex_hexside", "area_locale"])
def test_each_closed_set_names_a_setting_and_holds_its_default(folder):
    """The systems' own "closed" objects: each path names a setting of the file, whose
    default is one of the set (or, for a list or a field of rows, some of it)."""
    from muster import play

    data = play.sequence_data(folder)
    for path, allowed in play.closed_sets(folder).items():
        assert isinstance(allowed, list) and allowed, path
        values, many = play._at(data, path.split("."), "")
        assert values, f"{folder}: closed {path} names no setting"
        items = play._items(values) if many else [values[0][1]]
        assert all(play._one_of(v, allowed) for v in items), (folder, path, items)


def test_the_issue_s_ignored_override_is_refused():
    """area-locale's pursuit.by = "both" loaded and changed nothing; now it is refused."""
    data = json.loads((SCENARIOS / "demo-fontanella.json").read_text(encoding="utf-8"))
    data["overrides"] = {"sequence": {"pursuit": {"by": "both"}}}
    from muster import play

    assert "both" not in play.closed_sets("area_locale")["pursuit.by"]
    with pytest.raises(ScenarioError, match=r"overrides\.sequence\.pursuit\.by: expected one"):
        parse_scenario(data)


def test_hexes_off_a_board_that_is_no_rectangle_are_not_on_the_map():
    sc = parse_scenario(tiny(map__off_map=["0401", "0103"]))
    assert len(sc.hexes) == 10
    assert "0401" not in sc.at_label and "0103" not in sc.at_label
    with pytest.raises(ScenarioError, match="hex 0401 is not on the map"):
        sc.hex_at("0401")
    # No move or line of sight passes through them: they are no neighbour of any hex.
    off = sc.numbering.to_hex("0401")
    assert all(off not in near for near in sc.neighbors.values())
    assert sc.hex_at("0302") in sc.neighbors[sc.hex_at("0402")]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"map__off_map": "0401"}, "map.off_map: expected a list"),
        ({"map__off_map": [401]}, r"map.off_map\[0\]: "),
        ({"map__off_map": ["0401", "0401"]}, r"map.off_map\[1\]: listed twice"),
        ({"map__off_map": ["0501"]}, r"map.off_map\[0\]: hex 0501 is not on the map"),
        # What stands on a hex off the map is refused where it is named.
        ({"map__off_map": ["0403"]}, "unit b1: hex 0403 is not on the map"),
        ({"map__off_map": ["0202"]}, "hex 0202 is not on the map"),
        ({"map__off_map": ["0301"]}, "hex 0301 is not on the map"),
        (
            {"map__off_map": [f"0{c}0{r}" for c in range(1, 5) for r in range(1, 4)]},
            "map.off_map: every hex of the map is off it",
        ),
    ],
)
def test_off_map_hexes_are_checked(changes, message):
    with pytest.raises(ScenarioError, match=message):
        parse_scenario(tiny(**changes))
