"""hex-facing movement on hand-made maps; every expected cost is worked out in the comments.

Map: flat hexes, even columns half a hex lower, so row 02 runs straight east:
0102 - 0202 - 0302 - 0402 - 0502 - 0602. Unit types map to the table's columns:
leader Gen, infantry Inf, cavalry Cav, artillery Art.
"""

import pytest
from movement_maps import make_board, parts, reach, step

from muster.hexgrid import hex_neighbor
from muster.systems import movement_rules

HF = "hex-facing"
TYPES = ["leader", "infantry", "cavalry", "artillery"]


def one_step(unit_type, hexes=None, hexsides=None, roads=None, trails=None, units=()):
    b = make_board(
        HF,
        [{"id": "u", "hex": "0102", "type": unit_type}, *units],
        hexes=hexes,
        hexsides=hexsides,
        roads=roads,
        trails=trails,
    )
    return step(b, "u", "0102", "0202")


@pytest.mark.parametrize(
    "terrain,costs",
    [
        # Gen / Inf / Cav / Art from the terrain table; None = prohibited.
        ("clear", (1, 1, 1, 2)),
        ("vineyard", (1, 1, 2, 2)),
        ("palm_grove", (1, 1, 3, 3)),
        ("woods", (2, 2, 3, 3)),
        ("frozen_pond", (2, 2, 3, None)),
        ("lake", (None, None, None, None)),
        ("ruins", (1, 2, 3, 3)),
        ("castle", (2, 2, 2, 2)),
    ],
)
def test_hex_terrain_cost_per_unit_type(terrain, costs):
    for unit_type, cost in zip(TYPES, costs, strict=True):
        s = one_step(unit_type, hexes={"0202": [terrain]})
        if cost is None:
            assert s.prohibited.key == "move.prohibited.terrain"
        else:
            assert s.prohibited is None and s.cost == cost, (terrain, unit_type)


def test_several_hex_terrains_cost_the_highest():
    # village (Inf 2, Cav 3) with woods (Inf 2, Cav 3) and vineyard (Cav 2): Cav pays 3.
    assert one_step("cavalry", hexes={"0202": ["vineyard", "village"]}).cost == 3
    assert one_step("artillery", hexes={"0202": ["clear", "marsh"]}).prohibited is not None


def test_road_and_trail_replace_the_hex_terrain():
    road = [["0102", "0202", "0302"]]
    # Road (c): Gen 1/2, Inf 1, Cav 1, Art 1 whatever the hex (woods here).
    for unit_type, cost in zip(TYPES, (0.5, 1, 1, 1), strict=True):
        assert one_step(unit_type, hexes={"0202": ["woods"]}, roads=road).cost == cost
    # Trail: Art 2.
    assert one_step("artillery", hexes={"0202": ["woods"]}, trails=road).cost == 2
    b = make_board(HF, [{"id": "g", "hex": "0102", "type": "leader", "mp": 1}], roads=road)
    assert reach(b, "g")["0302"] == 1  # two road hexes at 1/2 MP each


def test_no_road_movement_into_a_hex_adjacent_to_an_enemy_4_3_1():
    enemy = [{"id": "e", "hex": "0302", "side": "b"}]  # 0302 is next to 0202
    s = one_step("infantry", hexes={"0202": ["woods"]}, roads=[["0102", "0202"]], units=enemy)
    # No road rate: woods 2 for infantry.
    assert s.road is None and s.cost == 2
    assert (0, "move.road_denied_adjacent_enemy", {"rule": "4.3.1"}) in [
        (p.value, p.key, dict(p.params)) for p in s.parts
    ]


@pytest.mark.parametrize(
    "features,costs",
    [
        # clear hex (1 1 1 2) + stream (0 +1 +1 +2)
        (["stream"], (1, 2, 2, 4)),
        (["canal"], (1, 2, 2, 4)),
        # a bridge: 0, and the stream is not paid
        (["stream", "bridge"], (1, 1, 1, 2)),
        # redoubt +1 +1 +2 +3 (Art also disordered)
        (["redoubt"], (2, 2, 3, 5)),
        (["wall"], (2, 2, 3, 5)),
        # fortification +2 +2 P P
        (["fortification"], (3, 3, None, None)),
        # crest 0
        (["crest"], (1, 1, 1, 2)),
    ],
)
def test_hexside_features(features, costs):
    sides = [{"between": ["0102", "0202"], "features": features}]
    if "crest" in features:
        sides[0]["up"] = "0202"
    for unit_type, cost in zip(TYPES, costs, strict=True):
        s = one_step(unit_type, hexsides=sides)
        if cost is None:
            assert s.prohibited.key == "move.prohibited.hexside"
        else:
            assert s.cost == cost, (features, unit_type)
    assert ("disorder" in one_step("artillery", hexsides=sides).flags) == (
        "redoubt" in features or "wall" in features
    )


def test_road_cancels_stream_and_redoubt_costs():
    for feature in ("stream", "redoubt"):
        sides = [{"between": ["0102", "0202"], "features": [feature]}]
        s = one_step("artillery", hexsides=sides, roads=[["0102", "0202"]])
        assert s.cost == 1  # road 1 for artillery, the hexside cancelled
        assert (0, "move.cancelled", {"feature": feature, "by": "road"}) in [
            (p.value, p.key, dict(p.params)) for p in s.parts
        ]
        assert "disorder" not in s.flags or feature != "stream"


@pytest.mark.parametrize(
    "level_to,costs",
    [
        # clear (1 1 1 2) + level change: +1 level (+1 +1 +1 +1); +2 (+1 +1 +2 P);
        # -1 (0 0 0 +1); -2 (0 0 +1 P).
        (1, (2, 2, 2, 3)),
        (2, (2, 2, 3, None)),
        (-1, (1, 1, 1, 3)),
        (-2, (1, 1, 2, None)),
    ],
)
def test_level_changes(level_to, costs):
    hexes = {"0202": {"terrain": ["clear"], "level": level_to}}
    for unit_type, cost in zip(TYPES, costs, strict=True):
        s = one_step(unit_type, hexes=hexes)
        if cost is None:
            assert s.prohibited.key == "move.prohibited.level"
        else:
            assert s.cost == cost, (level_to, unit_type)


def test_road_cancels_the_level_cost_but_not_its_prohibition():
    hexes = {"0202": {"terrain": ["clear"], "level": 1}}
    assert one_step("infantry", hexes=hexes, roads=[["0102", "0202"]]).cost == 1
    hexes = {"0202": {"terrain": ["clear"], "level": 2}}
    assert one_step("artillery", hexes=hexes, roads=[["0102", "0202"]]).prohibited is not None


def test_slope_and_steep_slope():
    slope = [{"between": ["0102", "0202"], "features": ["slope"], "up": "0202"}]
    steep = [{"between": ["0102", "0202"], "features": ["steep_slope"], "up": "0202"}]
    # slope: 0 0 +1 P on clear (1 1 1 2)
    assert [one_step(t, hexsides=slope).cost for t in TYPES[:3]] == [1, 1, 2]
    assert one_step("artillery", hexsides=slope).prohibited.key == "move.prohibited.hexside"
    # steep slope: +1, +1 and disorder, P, P
    s = one_step("infantry", hexsides=steep)
    assert s.cost == 2 and "disorder" in s.flags
    assert one_step("leader", hexsides=steep).cost == 2
    assert one_step("cavalry", hexsides=steep).prohibited is not None


def test_road_over_slopes_note_c():
    road = [["0102", "0202"]]
    slope = [{"between": ["0102", "0202"], "features": ["slope"], "up": "0202"}]
    steep = [{"between": ["0102", "0202"], "features": ["steep_slope"], "up": "0202"}]
    # Artillery along a road over a slope: road 1 + 2 (prohibition lifted, +2).
    s = one_step("artillery", hexsides=slope, roads=road)
    assert s.prohibited is None and s.cost == 3
    # Cavalry over a steep slope by road: road 1 + 2.
    assert one_step("cavalry", hexsides=steep, roads=road).cost == 3
    # Infantry over a steep slope by road: road 1 + 1 (slope cost kept), no disorder.
    s = one_step("infantry", hexsides=steep, roads=road)
    assert s.cost == 2 and "disorder" not in s.flags


def test_steep_slope_between_hexes_three_levels_apart_is_impassable_note_i():
    steep = [{"between": ["0102", "0202"], "features": ["steep_slope"], "up": "0202"}]
    hexes = {"0202": {"terrain": ["clear"], "level": 3}}
    s = one_step("infantry", hexsides=steep, hexes=hexes)
    assert s.prohibited.key == "move.prohibited.steep_slope_levels"


def test_friendly_unit_in_the_hex_entered():
    friend = [{"id": "f", "hex": "0202"}]
    # +1 for Inf, Cav, Art; 0 for Gen.
    assert [one_step(t, units=friend).cost for t in TYPES] == [1, 2, 2, 3]


def test_zone_of_control_front_hexes_by_facing():
    # Enemy at 0402 facing 6 = the hexside towards direction 3 (lower left): front hexes
    # in directions 2, 3, 4 (down, lower left, upper left).
    units = [{"id": "i", "hex": "0102"}, {"id": "e", "hex": "0402", "side": "b", "facing": 6}]
    b = make_board(HF, units)
    e = b.scenario.hex_at("0402")
    front = {b.label(hex_neighbor(e, d)) for d in (2, 3, 4)}
    zoc = {
        b.label(h)
        for h in b.enemy_zoc("a", __import__("muster.systems", fromlist=["x"]).movement_rules(HF))
    }
    assert zoc == front
    # Around 0402: 0302 upper left, 0303 lower left, 0403 straight down.
    assert front == {"0302", "0303", "0403"}
    # Entering 0302 stops the move; 0401 (behind the enemy's front) does not.
    assert step(b, "i", "0202", "0302").stop == "zoc"
    assert step(b, "i", "0301", "0401").stop is None


def test_zoc_vertex_facing_and_six_fronts_in_town():
    units = [{"id": "e", "hex": "0402", "side": "b", "facing": 7}, {"id": "i", "hex": "0102"}]
    b = make_board(HF, units)
    rules = movement_rules(HF)
    # facing 7 = the vertex between directions 3 and 4: front hexes 0303 (dir 3, lower
    # left) and 0302 (dir 4, upper left).
    assert {b.label(h) for h in b.enemy_zoc("a", rules)} == {"0303", "0302"}
    b = make_board(HF, units, hexes={"0402": ["town"]})
    assert len(b.enemy_zoc("a", rules)) == 6


def test_leaving_a_zoc_and_disordered_entry_note_d():
    units = [
        {"id": "i", "hex": "0302"},
        {"id": "d", "hex": "0202", "state": {"disordered": True}},
        {"id": "e", "hex": "0402", "side": "b"},
    ]
    b = make_board(HF, units)
    # Leaving: clear 1 + leaving ZOC +1.
    assert step(b, "i", "0302", "0301").cost == 2
    assert parts(b, "i", "0302", "0301")[-1] == (1, "move.leave_zoc", {})
    # A disordered unit entering a zone: clear 1 + 1 (d), and it stops.
    s = step(b, "d", "0202", "0303")
    assert s.cost == 2 and s.stop == "zoc"


def test_a_scenario_override_of_a_table_cell_is_used_and_named():
    b = make_board(
        HF,
        [{"id": "c", "hex": "0102", "type": "cavalry"}],
        hexes={"0202": ["woods"], "0201": ["village"]},
        terrain_overrides={"woods": {"cav": 2}},
    )
    s = step(b, "c", "0102", "0202")
    assert s.cost == 2  # the table says 3
    assert (s.parts[0].rule, s.parts[0].key) == ("scenario", "move.terrain")
    # Other cells keep the table's value and reference.
    s = step(b, "c", "0102", "0201")
    assert s.cost == 3 and s.parts[0].rule == "terrain table"
