"""Line of sight and range: hand-worked lines on tiny maps, exact geometry, symmetry.

Maps are flat-topped with even columns half a hex lower ("flat", "even") unless a test says
otherwise. In such a map a printed column is a straight line of hexes (0301, 0302, ...), and
the centres of 0102, 0302 and 0502 lie on one line that runs along the hexsides 0201/0202
and 0401/0402.
"""

import itertools
import json
import random
from fractions import Fraction

import pytest

from muster.errors import ScenarioError
from muster.hexgrid import Hex, Numbering, hex_distance
from muster.los import (
    LosConfig,
    LosDataError,
    hex_range,
    line_of_sight,
    los_config,
    los_values,
    parse_los_data,
    trace,
)
from muster.scenario import parse_scenario


def board(hexes=None, hexsides=(), system="hex-facing", orientation="flat", size=(7, 7)):
    """A size[0] x size[1] map of clear level-0 hexes with the given hexes and hexsides."""
    return parse_scenario(
        {
            "format": "muster-scenario/1",
            "id": "los",
            "system": system,
            "title": "LOS",
            "map": {
                "orientation": orientation,
                "stagger": "even",
                "columns": size[0],
                "rows": size[1],
                "hexes": hexes or {},
                "hexsides": list(hexsides),
            },
            "sides": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
            "units": [],
        }
    )


WOODS = {"terrain": ["woods"]}


def los(sc, a, b, **config):
    return line_of_sight(sc, a, b, config or None)


# --- range ---------------------------------------------------------------------------------


def test_range_counts_hex_steps():
    sc = board()
    # 0101 is cube (1, 0, -1) and 0305 is (3, 3, -6): the largest difference is 5.
    assert hex_range(sc.hex_at("0101"), sc.hex_at("0305")) == 5
    assert los(sc, "0101", "0305").range == 5
    assert los(sc, "0301", "0305").range == 4  # down one printed column
    assert los(sc, "0102", "0302").range == 2  # 0102 - 0201 - 0302
    assert los(sc, "0404", "0404").range == 0


def test_a_hex_sees_itself_and_its_neighbours():
    sc = board({"0404": WOODS, "0403": WOODS})
    same = los(sc, "0404", "0404")
    assert same.clear and same.path == ("0404",) and same.blocked_by is None
    assert los(sc, "0404", "0403").clear  # both endpoints in woods: nothing in between


# --- straight lines through hex interiors ---------------------------------------------------


def test_line_down_a_column_passes_every_hex_of_it():
    # 0301 -> 0305 is four steps along one column: the sides are met halfway between
    # centres, at t = 1/8, 3/8, 5/8, 7/8.
    sc = board()
    r = los(sc, "0301", "0305")
    assert r.clear and r.path == ("0301", "0302", "0303", "0304", "0305")
    assert [c.t for c in trace(sc.hex_at("0301"), sc.hex_at("0305"))] == [
        0,
        1 / 8,
        3 / 8,
        5 / 8,
        7 / 8,
    ]


def test_woods_in_the_way_blocks_where_the_line_enters_it():
    # Woods (1 level high) at 0303 on level-0 ground; the line is at level 0 all along.
    # It enters 0303 across the side 0302/0303, 1.5 of 4 hexes along: t = 3/8.
    r = los(board({"0303": WOODS}), "0301", "0305")
    assert not r.clear
    assert r.blocked_by == {
        "kind": "hex",
        "hex": "0303",
        "t": 0.375,
        "line": 0.0,
        "terrain": "woods",
        "top": 1,
        "reason": "los.blocked.terrain",
    }
    assert r.path == ("0301", "0302", "0303", "0304", "0305")


def test_the_first_obstacle_from_the_firer_is_named():
    # Woods at 0302 and a town at 0304. From 0301 the woods come first (entered at t = 1/8,
    # the town at 5/8); from 0305 the town does, entered at 1/8 of the way back.
    sc = board({"0302": WOODS, "0304": {"terrain": ["town"]}})
    assert los(sc, "0301", "0305").blocked_by["hex"] == "0302"
    back = los(sc, "0305", "0301").blocked_by
    assert (back["hex"], back["terrain"], back["t"]) == ("0304", "town", 0.125)


def test_woods_at_either_endpoint_does_not_block():
    sc = board({"0301": WOODS, "0305": WOODS})
    assert los(sc, "0301", "0305").clear
    assert los(sc, "0305", "0301").clear


def test_terrain_that_is_not_an_obstacle_does_not_block():
    # Vineyard shares the rough row of the chart: low vines, not an obstacle by default.
    sc = board({"0303": {"terrain": ["vineyard"]}, "0302": {"terrain": ["marsh"]}})
    assert los(sc, "0301", "0305").clear


def test_the_highest_obstacle_of_a_hex_with_several_terrains_counts():
    sc = board({"0303": {"terrain": ["clear", "village"]}})
    assert los(sc, "0301", "0305").blocked_by["terrain"] == "village"


def test_hex_hexside_woods_and_towns_block_but_slopes_do_not():
    slope = {"between": ["0302", "0303"], "features": ["slope"], "up": "0302"}
    sc = board({"0303": {"terrain": ["walled_town"]}}, [slope], system="hex-hexside")
    assert los(sc, "0301", "0305").blocked_by["terrain"] == "walled_town"
    assert los(board(hexsides=[slope], system="hex-hexside"), "0301", "0305").clear


# --- along a hexside and through a vertex ---------------------------------------------------


def test_trace_of_a_line_along_a_hexside():
    # 0102 (1, 1, -2) -> 0302 (3, 0, -3): from the centre of 0102 to its corner shared with
    # 0201 and 0202 (t = 1/3), along the side 0201/0202 to the corner shared with 0302
    # (t = 2/3), then into 0302.
    sc = board()
    steps = trace(sc.hex_at("0102"), sc.hex_at("0302"))
    assert [sc.label(c.hex) for c in steps] == ["0102", "0201", "0302"]
    assert [c.t for c in steps] == [0, 1 / 3, 2 / 3]
    assert [c.ambiguous for c in steps] == [False, True, True]
    assert {sc.label(h) for h in steps[1].alternatives} == {"0201", "0202"}


def test_along_a_hexside_with_woods_on_one_side():
    # Woods at 0202 only. "both": the other side (0201) is open, so the line is clear;
    # "either": blocked by 0202, where the line reaches it at the corner (t = 1/3).
    sc = board({"0202": WOODS})
    assert los(sc, "0102", "0302").clear
    assert los(sc, "0302", "0102").clear
    r = los(sc, "0102", "0302", vertex="either")
    assert not r.clear
    assert (r.blocked_by["hex"], r.blocked_by["t"]) == ("0202", pytest.approx(1 / 3))
    assert r.blocked_by["vertex"] is True
    assert not los(sc, "0302", "0102", vertex="either").clear


def test_along_a_hexside_with_woods_on_both_sides():
    # Woods at 0201 and 0202: both alternatives block, under either rule.
    sc = board({"0201": WOODS, "0202": WOODS})
    r = los(sc, "0102", "0302")
    assert not r.clear and r.blocked_by["vertex"] is True
    assert {r.blocked_by["hex"], r.blocked_by["other"]["hex"]} == {"0201", "0202"}
    assert not los(sc, "0102", "0302", vertex="either").clear


def test_the_vertex_rule_is_applied_to_each_stretch_on_its_own():
    # 0102 -> 0502 runs along 0201/0202, through the centre of 0302, then along 0401/0402.
    # Woods at 0202 (one side of the first stretch) and 0401 (one side of the second):
    # each stretch has an open side, so "both" sees; "either" is blocked by 0202 first.
    sc = board({"0202": WOODS, "0401": WOODS})
    r = los(sc, "0102", "0502")
    assert r.clear and r.path == ("0102", "0201", "0302", "0401", "0502")
    assert los(sc, "0102", "0502", vertex="either").blocked_by["hex"] == "0202"
    assert los(sc, "0502", "0102", vertex="either").blocked_by["hex"] == "0401"


def test_a_line_through_a_vertex_touches_one_hex_at_its_corner():
    # 0104 (1, 3, -4) -> 0507 (5, 4, -9): the direction (4, 1, -5) meets hex corners at
    # t = 1/3 and 2/3. At t = 1/3 the point (7/3, 10/3, -17/3) is the corner of 0204,
    # 0305 and 0205: the line goes from 0204 straight into 0305 and only touches 0205.
    sc = board()
    steps = trace(sc.hex_at("0104"), sc.hex_at("0507"))
    assert [sc.label(c.hex) for c in steps] == ["0104", "0204", "0305", "0306", "0406", "0507"]
    vertex = steps[2]
    assert vertex.ambiguous and vertex.t == pytest.approx(1 / 3)
    assert [sc.label(h) for h in vertex.alternatives] == ["0205"]


def test_woods_touched_at_a_corner_blocks_only_under_either():
    # Woods at 0205, the hex the line 0104 -> 0507 touches at one corner (t = 1/3). The
    # other alternative, crossing straight from 0204 into 0305, meets nothing.
    sc = board({"0205": WOODS})
    assert los(sc, "0104", "0507").clear
    assert los(sc, "0507", "0104").clear
    r = los(sc, "0104", "0507", vertex="either")
    assert (r.blocked_by["hex"], r.blocked_by["t"]) == ("0205", pytest.approx(1 / 3))
    assert not los(sc, "0507", "0104", vertex="either").clear


def test_woods_in_a_hex_the_line_passes_through_after_a_vertex_blocks():
    # 0305 is entered through the vertex at t = 1/3 but the line crosses its interior.
    assert not los(board({"0305": WOODS}), "0104", "0507").clear


# --- elevation -------------------------------------------------------------------------------


def test_higher_ground_between_blocks():
    # 0301 and 0305 at level 0, 0303 at level 1: the line is at level 0 over 0303's centre.
    r = los(board({"0303": {"level": 1}}), "0301", "0305")
    assert r.blocked_by == {
        "kind": "elevation",
        "hex": "0303",
        "t": 0.375,
        "line": 0.0,
        "level": 1,
        "reason": "los.blocked.higher_ground",
    }


def test_lower_or_equal_ground_between_does_not_block():
    assert los(board({"0303": {"level": -1}}), "0301", "0305").clear
    flat_top = {"0301": {"level": 1}, "0303": {"level": 1}, "0305": {"level": 1}}
    assert los(board(flat_top), "0301", "0305").clear


def test_a_hill_hides_what_is_behind_it_but_not_a_higher_firer():
    # 0301 level 2 -> 0305 level 0 over 0303 level 1: the line is at 2 - 2 * 1/2 = 1 over
    # 0303's centre, not below its ground: clear. With 0304 at level 1 instead, the line
    # is at 2 - 2 * 3/4 = 0.5 there: blocked.
    assert los(board({"0301": {"level": 2}, "0303": {"level": 1}}), "0301", "0305").clear
    r = los(board({"0301": {"level": 2}, "0304": {"level": 1}}), "0301", "0305")
    assert (r.blocked_by["kind"], r.blocked_by["hex"], r.blocked_by["line"]) == (
        "elevation",
        "0304",
        0.5,
    )


def test_looking_down_from_a_hill_over_woods():
    # Firer 0301 at level 2, target 0305 at level 0. Woods at 0303 (ground 0, top 1): the
    # line is at level 1 over its centre (t = 1/2), not below the treetops: clear. Woods at
    # 0304 instead (t = 3/4): the line is at 0.5 < 1: blocked, entering at t = 5/8.
    hill = {"0301": {"level": 2}}
    assert los(board({**hill, "0303": WOODS}), "0301", "0305").clear
    assert los(board({**hill, "0303": WOODS}), "0305", "0301").clear
    r = los(board({**hill, "0304": WOODS}), "0301", "0305")
    assert (r.blocked_by["hex"], r.blocked_by["t"], r.blocked_by["line"]) == ("0304", 0.625, 0.5)


def test_woods_on_a_hill_count_from_the_hill_top():
    # 0301 level 2 -> 0305 level 0; 0303 is woods on level 1 (top 2), line at 1: blocked.
    sc = board({"0301": {"level": 2}, "0303": {"terrain": ["woods"], "level": 1}})
    assert los(sc, "0301", "0305").blocked_by["top"] == 2


# --- hexsides: crest and steep slope (hex-facing note (f)) -----------------------------------


def side(feature, up="0302"):
    return {"between": ["0302", "0303"], "features": [feature], "up": up}


def test_a_crest_blocks_fire_between_adjacent_hexes():
    # Note (f): a crest between firer and target blocks adjacent fire, whichever is above.
    sc = board(hexsides=[side("crest")])
    r = los(sc, "0302", "0303")
    assert r.blocked_by == {
        "kind": "hexside",
        "hexside": "0302/0303",
        "t": 0.5,
        "feature": "crest",
        "reason": "los.blocked.crest_adjacent",
    }
    assert los(sc, "0303", "0302").blocked_by["hexside"] == "0303/0302"


def test_a_steep_slope_blocks_adjacent_fire_and_a_stream_or_slope_does_not():
    r = los(board(hexsides=[side("steep_slope")]), "0302", "0303")
    assert r.blocked_by["reason"] == "los.blocked.steep_slope_adjacent"
    stream = {"between": ["0302", "0303"], "features": ["stream"]}
    assert los(board(hexsides=[stream]), "0302", "0303").clear
    assert los(board(hexsides=[side("slope")]), "0302", "0303").clear


def test_a_crest_on_level_ground_blocks_only_adjacent_fire():
    # All hexes at level 0: the crest's top is level 0 + 0, never above a level-0 line.
    assert los(board(hexsides=[side("crest")]), "0301", "0305").clear
    assert los(board(hexsides=[side("crest")]), "0302", "0304").clear


def test_a_crest_hides_the_slope_below_it():
    # 0302 level 1 (the crest's up side) -> 0304 level 0. The line crosses 0302/0303 at
    # t = 1/4, at level 1 - 1/4 = 0.75, below the crest (level 1): blocked. With a plain
    # slope the levels alone decide: 0303 (ground 0) is under the line (0.5): clear.
    r = los(board({"0302": {"level": 1}}, [side("crest")]), "0302", "0304")
    assert r.blocked_by == {
        "kind": "hexside",
        "hexside": "0302/0303",
        "t": 0.25,
        "feature": "crest",
        "top": 1,
        "line": 0.75,
        "reason": "los.blocked.crest",
    }
    assert not los(board({"0302": {"level": 1}}, [side("crest")]), "0304", "0302").clear
    assert los(board({"0302": {"level": 1}}, [side("slope")]), "0302", "0304").clear


def test_a_higher_firer_sees_over_a_crest():
    # 0301 level 2, 0302 level 1 with the crest 0302/0303 below it, 0303 and 0304 level 0.
    # The line 0301 -> 0304 crosses the crest at t = 1/2, at level 2 - 1 = 1: not below it.
    sc = board({"0301": {"level": 2}, "0302": {"level": 1}}, [side("crest")])
    assert los(sc, "0301", "0304").clear
    assert los(sc, "0304", "0301").clear


def test_a_steep_slope_beyond_adjacency_leaves_it_to_the_levels():
    sc = board({"0302": {"level": 1}}, [side("steep_slope")])
    assert los(sc, "0302", "0304").clear


# --- configuration -------------------------------------------------------------------------


@pytest.mark.parametrize("system", ["hex-facing", "hex-hexside"])
def test_every_shipped_value_names_its_source_or_why_it_is_a_default(system):
    values = los_values(system)  # raises on a value with neither
    config = los_config(system)
    assert config.vertex == "both" and config.eye_height == 0
    assert config.hex_obstacles["woods"] == 1
    assert set(values["hex_obstacles"]) >= {"woods", "town"}


def test_hex_facing_defaults():
    config = los_config("hex-facing")
    assert config.adjacent_blocking == {"crest", "steep_slope"}
    assert dict(config.hexside_heights) == {"crest": 0}
    assert set(config.hex_obstacles) == {
        "woods",
        "town",
        "village",
        "ruins",
        "castle",
        "garden",
        "palm_grove",
    }


def test_overrides_change_the_rules_for_one_question():
    sc = board({"0303": WOODS, "0302": {"terrain": ["vineyard"]}})
    assert los(sc, "0301", "0305", hex_obstacles={"woods": 0}).clear
    assert los(sc, "0301", "0305", hex_obstacles={"woods": None}).clear
    r = los(sc, "0301", "0305", hex_obstacles={"vineyard": 1})
    assert r.blocked_by["terrain"] == "vineyard"
    high = los_config("hex-facing", {"hexside_features": {"crest": {"height": 1}}})
    assert high.hexside_heights["crest"] == 1 and "crest" in high.adjacent_blocking
    assert isinstance(high, LosConfig)
    assert not line_of_sight(board(hexsides=[side("crest")]), "0301", "0305", high).clear


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"vertex": "some"}, "vertex"),
        ({"hex_obstacles": {"wods": 1}}, "unknown terrain"),
        ({"hex_obstacles": {"woods": -1}}, "below 0"),
        ({"hex_obstacles": {"woods": 1.5}}, "whole number"),
        ({"hexside_features": {"kerb": {"height": 1}}}, "unknown hexside feature"),
        ({"hexside_features": {"crest": {"blocks_adjacent": 1}}}, "true or false"),
        ({"hexside_features": {"crest": {"tall": 1}}}, "expected the keys"),
        ({"sight": 3}, "unknown key"),
    ],
)
def test_bad_overrides_are_refused_by_name(overrides, message):
    with pytest.raises(LosDataError, match=message):
        los_config("hex-facing", overrides)


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ({"value": "both"}, "source"),
        ({"value": "both", "default": True}, "why"),
        ({"value": "both", "source": "x", "note": "y"}, "unknown key"),
        ("both", "value"),
    ],
)
def test_a_shipped_value_must_name_its_source_or_why(setting, message):
    data = {"vertex": setting, "eye_height": {"value": 0, "source": "rule 7.4"}}
    with pytest.raises(LosDataError, match=message):
        parse_los_data(data)


def test_a_config_of_another_system_or_an_off_map_hex_is_refused():
    sc = board()
    with pytest.raises(LosDataError, match="hex-hexside"):
        line_of_sight(sc, "0101", "0202", los_config("hex-hexside"))
    with pytest.raises(ScenarioError, match="0909"):
        line_of_sight(sc, "0101", "0909")
    with pytest.raises(ScenarioError, match="not on the map"):
        line_of_sight(sc, Hex(40, 0, -40), "0101")


def test_hexes_are_accepted_as_well_as_labels():
    sc = board({"0303": WOODS})
    assert line_of_sight(sc, sc.hex_at("0301"), sc.hex_at("0305")) == los(sc, "0301", "0305")


# --- JSON ----------------------------------------------------------------------------------


def test_to_json_is_plain_json():
    r = los(board({"0201": WOODS, "0202": WOODS}), "0102", "0302")
    out = r.to_json()
    assert json.loads(json.dumps(out)) == out
    assert set(out) == {"clear", "range", "blocked_by", "path"}
    assert out["clear"] is False and out["range"] == 2 and out["path"] == ["0102", "0201", "0302"]
    assert set(out["blocked_by"]) == {
        "kind",
        "hex",
        "t",
        "line",
        "terrain",
        "top",
        "reason",
        "vertex",
        "other",
    }
    clear = los(board(), "0101", "0404").to_json()
    assert clear["blocked_by"] is None and clear["clear"] is True


# --- exact geometry and symmetry -------------------------------------------------------------


def meets(a, b, h):
    """Whether the segment a-b meets the interior / the closed hexagon of h (brute force)."""
    d = (b.q - a.q, b.r - a.r, b.s - a.s)
    o = (a.q - h.q, a.r - h.r, a.s - h.s)
    pairs = ((0, 1), (0, 2), (1, 2))  # the hexagon is |x_i - x_j| <= 1 about its centre
    lo, hi, inside, touching = Fraction(0), Fraction(1), True, True
    for i, j in pairs:
        c, dk = o[i] - o[j], d[i] - d[j]
        if dk == 0:
            inside &= abs(c) < 1
            touching &= abs(c) <= 1
            continue
        x, y = sorted((Fraction(-1 - c, dk), Fraction(1 - c, dk)))
        lo, hi = max(lo, x), min(hi, y)
    return inside and lo < hi, touching and lo <= hi


def test_trace_matches_brute_force_geometry():
    # Every target within 6 of the origin: the hexes whose interior the segment crosses are
    # the trace's hexes (less the stand-in for a stretch along a hexside), and the hexes it
    # only touches are the alternatives.
    origin = Hex(0, 0, 0)
    grid = [Hex(q, r, -q - r) for q in range(-8, 9) for r in range(-8, 9) if abs(q + r) <= 8]
    along = touched = 0
    for b in grid:
        if not 0 < hex_distance(origin, b) <= 6:
            continue
        steps = trace(origin, b)
        crossed = {
            c.hex for c in steps if not (len(c.alternatives) == 2 and c.hex in c.alternatives)
        }
        grazed = {h for c in steps for h in c.alternatives}
        inside = {h for h in grid if meets(origin, b, h)[0]}
        edge = {h for h in grid if meets(origin, b, h)[1]} - inside
        assert (crossed, grazed) == (inside, edge), b
        along += any(len(c.alternatives) == 2 for c in steps)
        touched += any(len(c.alternatives) == 1 for c in steps)
    assert along and touched  # both kinds of tie were tried


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_trace_invariants_over_every_pair(orientation):
    sc = board(orientation=orientation, size=(6, 5))
    for a, b in itertools.product(sc.hexes, repeat=2):
        steps = trace(a, b)
        assert steps[0].hex == a and steps[0].hexside is None and steps[0].t == 0
        assert steps[-1].hex == b
        assert len(steps) >= hex_distance(a, b) + 1
        for before, step in zip(steps, steps[1:], strict=False):
            assert hex_distance(before.hex, step.hex) == 1
            assert {step.hexside.a, step.hexside.b} == {before.hex, step.hex}
            assert before.t < step.t <= 1
            assert step.ambiguous == bool(step.alternatives)


def random_board(seed, system, orientation):
    """A 7x6 map with random woods, towns, levels and (hex-facing) crests and steep slopes."""
    rng = random.Random(seed)
    numbering = Numbering(orientation, "even")
    hexes, hexsides = {}, []
    blockers = ["woods", "town"] if system == "hex-hexside" else ["woods", "village", "garden"]
    labels = [f"{c:02d}{r:02d}" for c, r in itertools.product(range(1, 8), range(1, 7))]
    for label in labels:
        spec = {"level": rng.choice([0, 0, 0, 1, 1, 2])}
        if rng.random() < 0.3:
            spec["terrain"] = [rng.choice(blockers)]
        hexes[label] = spec
        h = numbering.to_hex(label)
        there = numbering.label(Hex(h.q + 1, h.r, h.s - 1))
        if system == "hex-facing" and there in labels and rng.random() < 0.25:
            feature = rng.choice(["crest", "steep_slope"])
            hexsides.append({"between": [label, there], "features": [feature], "up": label})
    return board(hexes, hexsides, system, orientation, size=(7, 6))


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(
    ("system", "orientation"),
    [("hex-facing", "flat"), ("hex-facing", "pointy"), ("hex-hexside", "flat")],
)
def test_line_of_sight_is_the_same_from_both_ends(seed, system, orientation):
    sc = random_board(seed, system, orientation)
    labels = [sc.label(h) for h in sc.hexes]
    blocked = 0
    for vertex in ("both", "either"):
        config = los_config(sc.system, {"vertex": vertex})
        for a, b in itertools.combinations(labels, 2):
            there, back = line_of_sight(sc, a, b, config), line_of_sight(sc, b, a, config)
            assert there.clear == back.clear, (a, b, vertex)
            assert there.range == back.range
            assert there.path == back.path[::-1]
            blocked += not there.clear
    assert blocked  # the random terrain did block some lines
