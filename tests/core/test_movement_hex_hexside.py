"""hex-hexside movement on hand-made maps; every expected cost is worked out in the comments.

Map: flat hexes, even columns half a hex lower, so row 02 runs straight east:
0102 - 0202 - 0302 - 0402 - 0502 - 0602 (each adjacent to the next).
"""

import pytest
from movement_maps import make_board, parts, path, reach, step

HH = "hex-hexside"


def test_clear_terrain_costs_one_per_hex():
    b = make_board(HH, [{"id": "i", "hex": "0102", "mp": 3}])
    r = reach(b, "i")
    # 3 MP over clear: 1 per hex, so hexes up to 3 steps away.
    assert r["0202"] == 1 and r["0302"] == 2 and r["0402"] == 3
    assert "0502" not in r


@pytest.mark.parametrize(
    "terrain,unit,cost",
    [
        (["woods"], "infantry", 2),
        (["woods"], "cavalry", 3),
        (["woods"], "artillery", 2),
        (["woods"], "leader", 2),
        (["town"], "cavalry", 1),
        (["walled_town"], "infantry", 1),
        (["marsh"], "cavalry", 3),
        (["pond_river_hex"], "cavalry", 2),
        # Several terrains: the highest of them (inf: town 1, marsh 2 -> 2; cav: 1, 3 -> 3).
        (["town", "marsh"], "infantry", 2),
        (["town", "marsh"], "cavalry", 3),
    ],
)
def test_hex_terrain_costs_the_highest_terrain(terrain, unit, cost):
    b = make_board(HH, [{"id": "u", "hex": "0102", "type": unit}], hexes={"0202": terrain})
    s = step(b, "u", "0102", "0202")
    assert s.cost == cost
    assert s.parts[0].key == "move.terrain"


def test_deep_water_is_prohibited():
    b = make_board(HH, [{"id": "u", "hex": "0102"}], hexes={"0202": ["deep_water"]})
    s = step(b, "u", "0102", "0202")
    assert s.prohibited is not None and s.prohibited.key == "move.prohibited.terrain"
    assert "0202" not in reach(b, "u")


SLOPE = [{"between": ["0102", "0202"], "features": ["slope"], "up": "0202"}]


@pytest.mark.parametrize(
    "unit,up_cost,down_cost",
    [
        # Top of slope +1 for all; bottom of slope +0 infantry and leaders, +1 artillery
        # (the documented reading of "+0/+1"), +1 cavalry. Plus 1 for the clear hex entered.
        ("infantry", 2, 1),
        ("leader", 2, 1),
        ("artillery", 2, 2),
        ("cavalry", 2, 2),
    ],
)
def test_slope_up_and_down(unit, up_cost, down_cost):
    b = make_board(HH, [{"id": "u", "hex": "0102", "type": unit}], hexsides=SLOPE)
    assert step(b, "u", "0102", "0202").cost == up_cost
    assert step(b, "u", "0202", "0102").cost == down_cost
    assert [p[1:] for p in parts(b, "u", "0102", "0202")][1] == (
        "move.hexside",
        {"feature": "slope_top"},
    )


@pytest.mark.parametrize(
    "features,unit,cost",
    [
        (["stream"], "infantry", 2),  # 1 + stream 1
        (["stream"], "cavalry", 2),
        (["stream", "bridge"], "infantry", 1),  # note 3: the stream counts only without bridge
        (["entrenchment"], "infantry", 2),  # 1 + 1
        (["entrenchment"], "cavalry", 3),  # 1 + 2
    ],
)
def test_hexside_costs_add_to_the_hex(features, unit, cost):
    sides = [{"between": ["0102", "0202"], "features": features}]
    b = make_board(HH, [{"id": "u", "hex": "0102", "type": unit}], hexsides=sides)
    assert step(b, "u", "0102", "0202").cost == cost


@pytest.mark.parametrize("feature", ["pond", "elbe_river"])
def test_prohibited_hexsides(feature):
    sides = [{"between": ["0102", "0202"], "features": [feature]}]
    b = make_board(HH, [{"id": "u", "hex": "0102"}], hexsides=sides)
    s = step(b, "u", "0102", "0202")
    assert s.prohibited.key == "move.prohibited.hexside"
    assert dict(s.prohibited.params) == {"feature": feature}


MIETZEL_LINE = [
    {"between": [a, b], "features": ["mietzel_river"]}
    for a, b in [
        ("0101", "0201"),
        ("0102", "0201"),
        ("0102", "0202"),
        ("0103", "0202"),
        ("0103", "0203"),
        ("0104", "0203"),
        ("0104", "0204"),
    ]
]  # the whole boundary between columns 01 and 02


def test_mietzel_infantry_in_column_only_and_all_its_mp():
    units = [
        {"id": "col", "hex": "0102", "state": {"formation": "column"}, "mp": 4},
        {"id": "line", "hex": "0103", "mp": 4},
        {"id": "cav", "hex": "0101", "type": "cavalry", "mp": 8},
    ]
    b = make_board(HH, units, hexsides=MIETZEL_LINE)
    r = reach(b, "col")
    # Crossing costs all 4 MP and ends the move: 0201 and 0202 at 4, nothing further east.
    assert r["0201"] == 4 and r["0202"] == 4
    assert not [h for h in r if h[:2] > "02"]
    assert step(b, "col", "0102", "0202").stop == "all_mp"
    assert step(b, "line", "0103", "0202").prohibited.key == "move.prohibited.column_only"
    assert step(b, "cav", "0101", "0201").prohibited.key == "move.prohibited.column_only"
    assert not [h for h in reach(b, "line") if h[:2] > "01"]


def test_mietzel_only_as_the_first_step():
    sides = [{"between": ["0202", "0302"], "features": ["mietzel_river"]}]
    b = make_board(
        HH, [{"id": "col", "hex": "0102", "state": {"formation": "column"}}], hexsides=sides
    )
    r = reach(b, "col")
    # Reaching 0202 costs 1; the river can then not be crossed (it needs all the MP).
    assert r["0202"] == 1
    assert "0302" in r and r["0302"] == 2  # round by 0201/0301 to the north: 1 + 1
    assert path(b, "col", "0302") != ["0102", "0202", "0302"]


def test_road_half_mp_and_cancels_stream():
    sides = [{"between": ["0202", "0302"], "features": ["stream"]}]
    b = make_board(
        HH,
        [{"id": "i", "hex": "0102", "mp": 2}],
        hexes={"0202": ["woods"]},
        hexsides=sides,
        roads=[["0102", "0202", "0302", "0402", "0502"]],
    )
    r = reach(b, "i")
    # Along the road 1/2 MP a hex, woods and stream replaced: 0502 is 4 steps = 2 MP.
    assert r["0202"] == 0.5 and r["0302"] == 1 and r["0502"] == 2
    assert parts(b, "i", "0202", "0302") == [
        (0.5, "move.road", {"kind": "road"}),
        (0, "move.cancelled", {"feature": "stream", "by": "road"}),
    ]


def test_entering_an_enemy_zoc_stops_and_enemy_hexes_are_closed():
    units = [{"id": "i", "hex": "0102", "mp": 6}, {"id": "e", "hex": "0402", "side": "b"}]
    b = make_board(HH, units)
    r = reach(b, "i")
    assert r["0302"] == 2  # adjacent to the enemy: in its zone, the move ends there
    assert "0402" not in r  # the enemy's own hex
    assert step(b, "i", "0202", "0302").stop == "zoc"
    # Round the south, clear of the zone (0402's zone: 0302 0303 0401 0403 0502 0503):
    # 0102-0103-0203-0304-0404 costs 4, 0504 5, then 0503 (in the zone, stop) 6.
    assert r["0404"] == 4 and r["0504"] == 5 and r["0503"] == 6
    # 0502 touches only zone hexes and 0601/0602, which are 7 MP away: out of reach.
    assert "0502" not in r


@pytest.mark.parametrize(
    "unit,expected",
    [
        # Leaving costs: support +1; Engaged Prussian cavalry +1; other Engaged fast +2;
        # an Engaged infantry unit (not listed) may not leave.
        ({"type": "infantry", "state": {"support": True}}, 1 + 1),
        ({"type": "cavalry", "side": "prussia", "state": {"engaged": True}}, 1 + 1),
        ({"type": "cavalry", "side": "a", "state": {"engaged": True}}, 1 + 2),
        ({"type": "infantry", "state": {"engaged": True}}, None),
    ],
)
def test_leaving_an_enemy_zoc(unit, expected):
    units = [{"id": "u", "hex": "0202", **unit}, {"id": "e", "hex": "0302", "side": "b"}]
    b = make_board(HH, units)
    s = step(b, "u", "0202", "0102")  # 0102 is not adjacent to 0302
    if expected is None:
        assert s.prohibited.key == "move.prohibited.leave_zoc"
    else:
        assert s.prohibited is None and s.cost == expected


def test_engaged_by_formed_cavalry_cannot_leave():
    units = [
        {
            "id": "u",
            "hex": "0202",
            "type": "cavalry",
            "side": "prussia",
            "state": {"engaged": True},
        },
        {"id": "e", "hex": "0302", "side": "b", "type": "cavalry"},
    ]
    b = make_board(HH, units)
    assert step(b, "u", "0202", "0102").prohibited.key == "move.prohibited.leave_zoc"
    units[1]["state"] = {"engaged": True}
    b = make_board(HH, units)
    assert step(b, "u", "0202", "0102").cost == 2


def test_routed_units_and_leaders_exert_no_zoc_and_leaders_ignore_it():
    units = [
        {"id": "i", "hex": "0102"},
        {"id": "r", "hex": "0302", "side": "b", "state": {"routed": True}},
        {"id": "l", "hex": "0103", "type": "leader"},
        {"id": "e", "hex": "0203", "side": "b"},
    ]
    b = make_board(HH, units)
    assert step(b, "i", "0102", "0202").stop == "zoc"  # 0202 touches e at 0203
    assert step(b, "l", "0103", "0104").stop is None  # leaders ignore zones
    r = reach(b, "i")
    assert "0202" in r


def test_stacking_limit_at_the_end_of_a_move_not_in_passing():
    units = [
        {"id": "i", "hex": "0102", "mp": 3},
        {"id": "f1", "hex": "0202"},
        {"id": "f2", "hex": "0202"},
        {"id": "ldr", "hex": "0302", "type": "leader"},
    ]
    b = make_board(HH, units)
    r = reach(b, "i")
    assert "0202" not in r  # two units there already
    assert r["0302"] == 2  # passing through 0202 is allowed; a leader does not count
    assert path(b, "i", "0302") in (["0102", "0202", "0302"], ["0102", "0201", "0302"])


def test_a_scenario_may_override_the_stacking_default():
    units = [
        {"id": "i", "hex": "0102", "mp": 3},
        {"id": "f1", "hex": "0202"},
        {"id": "f2", "hex": "0202"},
    ]
    b = make_board(HH, units, movement={"stacking": {"max_units": 3}})
    assert b.data["stacking"] == {**b.data["stacking"], "max_units": 3, "free_types": ["leader"]}
    assert reach(b, "i")["0202"] == 1
