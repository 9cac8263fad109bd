"""The movement settings a scenario may override (``overrides.movement``, movement.json).

Each setting the rules read takes its values from a closed set (movement.json's ``"closed"``
object; its numbers within bounds); what is not a setting (a rule's number, how facings are
numbered, a default's mark) is refused. Two settings once loaded whatever they held and no rule
read them: how two terrains of a hex combine (hex-facing) and how far a zone of control
reaches (both hex systems). Here they are refused outside their set, with words naming the
place, and each value of their sets plays as it says on a small map.
"""

from __future__ import annotations

import pytest
from movement_maps import make_board, parts, reach, step
from test_editor import WORDS, check, template
from test_fight_hex_facing import at_step, scenario
from test_reference import reference, rows, session

from muster import editor
from muster.errors import ScenarioError
from muster.movement import MOVEMENT_NOTES, movement_closed, movement_data
from muster.problems import PROBLEMS
from muster.scenario import load_builtin, parse_scenario
from muster.systems import movement_rules
from muster.systems.hex_facing import movement as hf_movement
from muster.systems.hex_hexside import movement as hh_movement
from muster.terrain import load_chart

HF, HH = "hex-facing", "hex-hexside"
HEX_SYSTEMS = (HF, HH)


def refused(system: str, movement: dict) -> dict:
    """The refusal of a scenario of ``system`` with ``overrides.movement``, as the screen gets
    it (``scenario_check``), after checking that the loader refuses it too."""
    data = {**template(system), "overrides": {"movement": movement}}
    with pytest.raises(ScenarioError):
        parse_scenario(data)
    answer = check(data)
    assert not answer["ok"], answer
    return answer["problem"]


def place_of(problem: dict) -> str:
    """The dotted place a refusal names (``overrides.`` and its path)."""
    assert problem["place"] == {"kind": "overrides", "path": problem["place"]["path"]}
    return str(problem["params"]["place"])


# -- refused outside the set, naming the place -------------------------------------------------


@pytest.mark.parametrize("system", HEX_SYSTEMS)
def test_a_terrain_combination_no_rule_plays_is_refused_naming_its_place(system):
    problem = refused(system, {"hex_terrain_combination": {"rule": "banana"}})
    assert problem["key"] == "error.scenario"
    if system == HF:
        assert place_of(problem) == "overrides.movement.hex_terrain_combination.rule"
        assert "expected one of highest, sum" in problem["message"]
    else:  # hex-hexside's chart says how terrains combine: no such setting
        assert place_of(problem) == "overrides.movement.hex_terrain_combination"
        assert "no such movement setting" in problem["message"]


@pytest.mark.parametrize(
    "system, allowed", [(HF, "front_hexes, adjacent"), (HH, "adjacent")], ids=HEX_SYSTEMS
)
def test_a_zone_of_control_extent_no_rule_plays_is_refused_naming_its_place(system, allowed):
    problem = refused(system, {"zoc": {"extent": "two_hexes"}})
    assert problem["key"] == "error.scenario"
    assert place_of(problem) == "overrides.movement.zoc.extent"
    assert f"expected one of {allowed}" in problem["message"]


@pytest.mark.parametrize(
    "system, movement, place, words",
    [
        (HF, {"zoc": {"not_by_states": ["asleep"]}}, "zoc.not_by_states", "some of routed"),
        (HF, {"zoc": {"exerted_by": ["infantry", "infantry"]}}, "zoc.exerted_by", "each once"),
        (HF, {"facing": {"six_front_terrains": ["moon"]}}, "facing.six_front_terrains", "some"),
        (HF, {"stacking": {"free_types": ["dragoon"]}}, "stacking.free_types", "some of"),
        (HF, {"stacking": {"max_units": 0}}, "stacking.max_units", "from 1 to 99"),
        (HF, {"road": {"prohibited_crossing_extra": -3}}, "road.prohibited_crossing_extra", "0"),
        (HF, {"disordered_zoc_entry": {"extra": -1}}, "disordered_zoc_entry.extra", "0 to 99"),
        (HF, {"steep_slope_impassable_levels": 0}, "steep_slope_impassable_levels", "1 to"),
        (HH, {"road": {"cost": -0.5}}, "road.cost", "from 0 to 99"),
        (HH, {"road": {"cancels_hexsides": ["moat"]}}, "road.cancels_hexsides", "some of"),
        (HH, {"zoc_exit": {"unlisted": "maybe"}}, "zoc_exit.unlisted", "prohibited, free"),
        (HH, {"zoc_exit": {"fast_types": ["hussar"]}}, "zoc_exit.fast_types", "some of"),
        (HH, {"zoc": {"not_by_states": ["square"]}}, "zoc.not_by_states", "some of"),
        (HH, {"zoc_exit": {"prussian_sides": ["saxony"]}}, "zoc_exit.prussian_sides", "blue"),
    ],
)
def test_a_value_outside_a_settings_set_is_refused_naming_its_place(system, movement, place, words):
    problem = refused(system, movement)
    assert place_of(problem) == f"overrides.movement.{place}"
    assert words in problem["message"]


@pytest.mark.parametrize("note", sorted(MOVEMENT_NOTES))
def test_a_note_of_movement_json_is_refused_as_no_setting(note):
    key, sub = note.split(".")
    default = movement_data(HF)[key][sub]
    problem = refused(HF, {key: {sub: default}})
    assert place_of(problem) == f"overrides.movement.{note}"
    assert PROBLEMS["problem.note"] in problem["message"]


def test_the_sides_a_scenario_names_prussian_are_its_own_or_the_defaults():
    data = {**template(HH), "overrides": {"movement": {"zoc_exit": {"prussian_sides": []}}}}
    for sides in ([], ["red"], ["blue", "red"], ["prussia"]):
        data["overrides"]["movement"]["zoc_exit"]["prussian_sides"] = sides
        assert check(data)["ok"], sides


# -- each value of a set, in play ---------------------------------------------------------------


def test_the_closed_sets_are_what_the_rules_play():
    assert movement_closed(HF)["hex_terrain_combination.rule"] == list(hf_movement.COMBINATIONS)
    assert movement_closed(HF)["zoc.extent"] == list(hf_movement.EXTENTS)
    assert movement_closed(HH)["zoc.extent"] == list(hh_movement.EXTENTS)
    for system in HEX_SYSTEMS:
        chart = load_chart(system)
        closed = movement_closed(system)
        assert set(closed.get("facing.six_front_terrains", [])) <= chart.names("hex")
        assert set(closed.get("road.cancels_hexsides", [])) <= chart.names("hexside")
        for path, values in closed.items():  # the default is in its own set
            here = movement_data(system)
            for key in path.split("."):
                here = here[key]
            assert all(v in values for v in (here if isinstance(here, list) else [here])), path


@pytest.mark.parametrize(
    "rule, infantry, cavalry",
    [("highest", 2, 3), ("sum", 3, 5)],
)
def test_two_terrains_of_a_hex_cost_the_costliest_or_their_sum(rule, infantry, cavalry):
    # Woods: Inf 2, Cav 3; vineyard: Inf 1, Cav 2. Highest: 2 and 3; sum: 3 and 5.
    move = {"hex_terrain_combination": {"rule": rule}}
    units = [{"id": "i", "hex": "0102"}, {"id": "c", "hex": "0101", "type": "cavalry"}]
    b = make_board(HF, units, hexes={"0202": ["woods", "vineyard"]}, movement=move)
    assert step(b, "i", "0102", "0202").cost == infantry
    assert step(b, "c", "0101", "0202").cost == cavalry
    terrains = [p[2]["terrain"] for p in parts(b, "i", "0102", "0202") if p[1] == "move.terrain"]
    assert terrains == (["woods"] if rule == "highest" else ["woods", "vineyard"])
    # A prohibited terrain still prohibits (marsh: Art P).
    b = make_board(
        HF, [{"id": "a", "hex": "0102", "type": "artillery"}], hexes={"0202": ["clear", "marsh"]}
    )
    assert step(b, "a", "0102", "0202").prohibited.key == "move.prohibited.terrain"


@pytest.mark.parametrize("rule, offered", [("highest", True), ("sum", False)])
def test_a_unit_of_2_mp_enters_woods_and_vineyard_as_the_combination_says(rule, offered):
    sc = scenario(
        [{"id": "i", "hex": "0303", "facing": 2, "ratings": {"movement": 2}}],
        hexes={"0403": {"terrain": ["woods", "vineyard"]}},
    )
    sc = parse_scenario(
        {**sc.data, "overrides": {"movement": {"hex_terrain_combination": {"rule": rule}}}}
    )
    g = at_step(sc, "move")
    move = {"type": "move", "unit": "i", "to": "0403"}
    assert (move in g.legal_actions()) is offered  # 2 MP: woods 2 alone, or 2 + 1


@pytest.mark.parametrize("extent, zone", [("front_hexes", 3), ("adjacent", 6)])
def test_a_zone_of_control_covers_the_front_hexes_or_all_six(extent, zone):
    # Enemy at 0402 facing 6: front hexes 0302, 0303, 0403; behind it 0401, 0501, 0502.
    units = [{"id": "i", "hex": "0102"}, {"id": "e", "hex": "0402", "side": "b", "facing": 6}]
    b = make_board(HF, units, movement={"zoc": {"extent": extent}})
    covered = {b.label(h) for h in b.enemy_zoc("a", movement_rules(HF))}
    assert len(covered) == zone and {"0302", "0303", "0403"} <= covered
    # A unit walking round behind the enemy stops there only when the zone covers it.
    assert step(b, "i", "0301", "0401").stop == (None if extent == "front_hexes" else "zoc")
    far = reach(b, "i")
    assert ("0501" in far) is (extent == "front_hexes")  # beyond 0401, round the back


def test_a_zone_of_control_of_hex_hexside_covers_the_six_adjacent_hexes():
    units = [{"id": "i", "hex": "0102"}, {"id": "e", "hex": "0402", "side": "b"}]
    b = make_board(HH, units, movement={"zoc": {"extent": "adjacent"}})
    covered = {b.label(h) for h in b.enemy_zoc("a", movement_rules(HH))}
    assert covered == {b.label(h) for h in b.scenario.neighbors[b.scenario.hex_at("0402")]}
    assert len(covered) == 6


@pytest.mark.parametrize("unlisted, leaves", [("prohibited", False), ("free", True)])
def test_a_unit_the_zoc_table_does_not_list_leaves_as_the_scenario_says(unlisted, leaves):
    units = [{"id": "i", "hex": "0302"}, {"id": "e", "hex": "0402", "side": "b"}]
    b = make_board(HH, units, movement={"zoc_exit": {"unlisted": unlisted}})
    s = step(b, "i", "0302", "0202")
    assert (s.prohibited is None) is leaves


@pytest.mark.parametrize("cancelled, cost", [(["stream"], 0.5), ([], 1.5)])
def test_a_road_cancels_the_hexsides_the_scenario_lists(cancelled, cost):
    # Road 0102-0202 across a stream: 1/2 MP, + the stream's 1 where the road does not cancel it.
    b = make_board(
        HH,
        [{"id": "i", "hex": "0102"}],
        hexsides=[{"between": ["0102", "0202"], "features": ["stream"]}],
        roads=[["0102", "0202"]],
        movement={"road": {"cancels_hexsides": cancelled}},
    )
    assert step(b, "i", "0102", "0202").cost == cost


def test_the_editor_offers_each_closed_set_as_choices():
    for system in HEX_SYSTEMS:
        entries = {".".join(e["path"][1:]): e for e in editor.tables(system)}
        for path, values in movement_closed(system).items():
            assert entries[path]["choices"] == values, (system, path)
        assert not [p for p in entries if p in MOVEMENT_NOTES]


@pytest.mark.parametrize(
    "system, movement, row, words",
    [
        (HF, {"hex_terrain_combination": {"rule": "sum"}}, "movement-combination", "sum"),
        (HF, {"zoc": {"extent": "adjacent"}}, "movement-zoc", "zoc_adjacent"),
        (HH, {"zoc": {"extent": "adjacent"}}, "movement-zoc", "zoc_adjacent"),
    ],
)
def test_the_rules_reference_words_the_scenarios_value_as_changed(system, movement, row, words):
    demo = {HF: "demo-valmont", HH: "demo-hohenbrueck"}[system]
    data = {**load_builtin(demo).data, "overrides": {"movement": movement}}
    ref = reference(session("", data))
    shown = rows(ref, "movement")[row]
    assert shown["cells"]["value"]["key"] == f"ref.setting.{words}"
    assert "override" in shown["flags"]
    assert all(f"ref.setting.{words}" in w for w in WORDS.values())
