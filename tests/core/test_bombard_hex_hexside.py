"""hex-hexside bombardment and the terrain effects chart's Bomb column, cell by cell, as a player
checks it: whether the bombardment is offered, the DRM the preview shows with its rule, and the
log lines of the bombardment.

The Bomb column (rules/hex-hexside.md, "Terrain effects chart"): hexes Clear 0, Woods -1,
Town -2, Walled town -2, Marsh [-1], Pond/River [-1], Deep water P; hexsides Top of slope -2,
Bottom of slope 0, Stream 0, Bridge 0, Entrenchment -2, Pond P, Mietzel 0, Elbe P; the ford of
note 3 (no row printed) 0. A hexside counts for the hexside the line of fire enters the target
hex by (``bombardment.hexside`` "into_target", a reading: the aid adds "the hexside between the
two hexes", which at range is not one hexside).

Map: flat hexes, even columns half a hex lower. The gun stands at 0301 and its target at 0304,
three hexes down the same column: the line of fire runs 0301 0302 0303 0304 and enters the
target across the hexside 0303|0304.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_play_hex_hexside import U, scenario

from muster.api import Session
from muster.game import Game
from muster.reference import anchor
from muster.scenario import parse_scenario
from muster.systems.hex_hexside.rules import RULES

TEC = "terrain effects chart"
BOMBARD = {"type": "bombard", "unit": "g", "target": "0304"}


def gun_and_target(hexsides=(), hexes=None, sequence=None, los=None, at=("0301", "0304")):
    """The bombardment phase of a game: a gun (strength 4, range 3) and an infantry target."""
    overrides: dict[str, Any] = {}
    if sequence:
        overrides["sequence"] = sequence
    if los:
        overrides["los"] = los
    units = [
        U("g", at[0], kind="artillery", strength=4, morale=3, movement=2, range=3, steps=1),
        U("d", at[1], side="austria", strength=4, steps=3),
    ]
    extra = {"overrides": overrides} if overrides else {}
    g = Game.start(scenario(units, hexsides, hexes, **extra), RULES, 7)
    assert g.state["phase"] == "movement"  # nothing to rally
    g.apply({"type": "end_phase"})  # a bombardment phase with nothing to do passes by itself
    return g


def offered(g: Game, action: dict[str, Any] = BOMBARD) -> bool:
    """True if ``action`` is legal; False if not (the phase passed when nothing was)."""
    if g.state["phase"] != "bombardment":
        assert g.state["phase"] == "combat"
        return False
    return action in g.legal_actions()


def preview(g: Game, action: dict[str, Any] = BOMBARD) -> dict[str, Any]:
    s = Session()
    s.game, s.scenario = g, g.scenario
    answer = s.call("preview", {"action": action})
    assert answer["ok"], answer
    return answer["result"]


def side(*features: str, up: str | None = None, between=("0303", "0304")) -> dict[str, Any]:
    found: dict[str, Any] = {"between": list(between), "features": list(features)}
    if up:
        found["up"] = up
    return found


def modifiers(p: dict[str, Any]) -> list[tuple[str, int, dict[str, Any], str]]:
    return [(m["key"], m["value"], m["params"], m["rule"]) for m in p["modifiers"]]


def logged_modifiers(g: Game) -> list[tuple[int, dict[str, Any], str]]:
    start = max(i for i, e in enumerate(g.log) if e["key"] == "log.hh_bombard")
    return [
        (e["params"]["value"], e["params"]["reason"], e["params"]["rule"])
        for e in g.log[start:]
        if e["key"] == "log.hh_modifier"
    ]


# -- the hexside rows of the Bomb column -------------------------------------------------------

# (hexside features on 0303|0304, up side, printed Bomb cell, the chart row that gives it)
HEXSIDES = [
    (("slope",), "0304", -2, "slope_top"),  # the target uphill: top of slope -2
    (("slope",), "0303", 0, "slope_bottom"),  # the target downhill: bottom of slope 0
    (("stream",), None, 0, "stream"),
    (("stream", "bridge"), None, 0, "bridge"),
    (("entrenchment",), None, -2, "entrenchment"),
    (("pond",), None, "P", "pond"),
    (("mietzel_river",), None, 0, "mietzel_river"),
    (("elbe_river",), None, "P", "elbe_river"),
    (("stream", "ford"), None, 0, "ford"),
]


@pytest.mark.parametrize(
    ("features", "up", "printed", "row"), HEXSIDES, ids=[h[3] for h in HEXSIDES]
)
def test_the_hexside_into_the_target_reads_the_bomb_column(features, up, printed, row):
    g = gun_and_target([side(*features, up=up)])
    if printed == "P":
        # Prohibited: not offered; with nothing else to bombard the phase passes by itself.
        assert not offered(g) and g.state["phase"] == "combat"
        return
    assert offered(g)
    p = preview(g)
    assert p["total"] == printed and p["bombard"] is True
    expected = [] if printed == 0 else [("drm.hexside", printed, {"feature": row}, TEC)]
    assert modifiers(p) == expected
    if printed:
        assert p["modifiers"][0]["ref"] == anchor("terrain", row)
    g.apply(BOMBARD)
    assert g.state["chance"]["drm"] == printed
    logged = [(printed, {"key": "drm.hexside", "params": {"feature": row}}, TEC)]
    assert logged_modifiers(g) == ([] if printed == 0 else logged)


def test_a_prohibited_target_is_left_out_and_the_others_stay():
    # Two targets in range: the one behind the Elbe is not offered, the other is.
    units = [
        U("g", "0301", kind="artillery", strength=4, morale=3, movement=2, range=3, steps=1),
        U("d", "0304", side="austria", strength=4, steps=3),
        U("e", "0503", side="austria", strength=4, steps=3),
    ]
    g = Game.start(scenario(units, [side("elbe_river")]), RULES, 7)
    g.apply({"type": "end_phase"})
    bombards = [a for a in g.legal_actions() if a["type"] == "bombard"]
    assert bombards == [{"type": "bombard", "unit": "g", "target": "0503"}]


def test_slope_and_entrenchment_on_one_hexside_add_up():
    g = gun_and_target([side("slope", "entrenchment", up="0304")])
    p = preview(g)
    assert p["total"] == -4
    assert [m[2]["feature"] for m in modifiers(p)] == ["slope_top", "entrenchment"]


def test_hex_and_hexside_add_up():
    # Town -2 (into) + top of slope -2.
    g = gun_and_target([side("slope", up="0304")], hexes={"0304": ["town"]})
    assert modifiers(preview(g)) == [
        ("drm.terrain", -2, {"terrain": "town"}, TEC),
        ("drm.hexside", -2, {"feature": "slope_top"}, TEC),
    ]


def test_only_the_hexside_into_the_target_counts():
    # An entrenchment and a pond the line crosses on its way (0302|0303) change nothing.
    g = gun_and_target([side("entrenchment", between=("0302", "0303"))])
    assert preview(g)["total"] == 0
    g = gun_and_target([side("pond", between=("0302", "0303"))])
    assert offered(g)
    # Nor a hexside of the target's that the line does not enter by.
    g = gun_and_target([side("entrenchment", between=("0304", "0305"))])
    assert preview(g)["total"] == 0


def test_the_reading_none_leaves_hexsides_out_at_range():
    sequence = {"bombardment": {"hexside": "none"}}
    g = gun_and_target([side("entrenchment")], sequence=sequence)
    assert preview(g)["total"] == 0
    g = gun_and_target([side("elbe_river")], sequence=sequence)
    assert offered(g)


# -- a line of fire along a hexside: two hexsides into the target ------------------------------

# From 0202 to 0402 the line runs along the side 0302|0303 and enters 0402 at the corner of
# its hexsides 0302|0402 and 0303|0402. The line of sight's vertex rule picks one: "both" (the
# default) the better for the gun, "either" the worse.
ALONG = {"at": ("0202", "0402")}
ALONG_BOMBARD = {"type": "bombard", "unit": "g", "target": "0402"}


@pytest.mark.parametrize(
    ("vertex", "features", "expected", "total"),
    [
        ("both", "entrenchment", True, 0),
        ("either", "entrenchment", True, -2),
        ("both", "elbe_river", True, 0),
        ("either", "elbe_river", False, None),
    ],
)
def test_along_a_hexside_the_vertex_rule_picks_one_of_the_two(vertex, features, expected, total):
    los = {"vertex": vertex} if vertex != "both" else None
    g = gun_and_target([side(features, between=("0302", "0402"))], los=los, **ALONG)
    assert offered(g, ALONG_BOMBARD) is expected
    if expected:
        assert preview(g, ALONG_BOMBARD)["total"] == total


def test_along_a_hexside_both_prohibited_is_prohibited():
    sides = [side("pond", between=("0302", "0402")), side("pond", between=("0303", "0402"))]
    g = gun_and_target(sides, **ALONG)
    assert not offered(g, ALONG_BOMBARD)


# -- the hex rows of the Bomb column -----------------------------------------------------------

# (terrain, the Bomb cell into it (the target's hex), from it (the gun's hex))
HEXES = [
    ("clear", 0, 0),
    ("woods", -1, 0),  # plain: into only
    ("town", -2, 0),
    ("walled_town", -2, 0),
    ("marsh", 0, -1),  # [ ]: from only
    ("pond_river_hex", 0, -1),
    ("deep_water", "P", 0),
]


@pytest.mark.parametrize(("terrain", "into", "from_"), HEXES, ids=[h[0] for h in HEXES])
def test_the_hex_rows_of_the_bomb_column(terrain, into, from_):
    g = gun_and_target(hexes={"0304": [terrain]})
    if into == "P":
        assert not offered(g)
    else:
        assert preview(g)["total"] == into
    g = gun_and_target(hexes={"0301": [terrain]} if terrain != "deep_water" else None)
    assert preview(g)["total"] == from_


def test_in_a_crowded_battle_the_bombardments_are_those_of_every_enemy_hex():
    """In a crowded battle a gun's bombardments are looked for among the hexes within its
    reach (``combat.targets_within``), not over every enemy hex: the same list, in the same
    order, as the chart asked of every enemy hex. 40 Prussian guns and 500 Austrian units on a
    map of 40x30 hexes with woods and towns (more enemy hexes than any gun's reach holds)."""
    import random

    from muster.hexgrid import hex_distance
    from muster.systems.hex_hexside import combat
    from muster.systems.hex_hexside.position import board_for

    rng = random.Random(5)
    labels = [f"{c:02d}{r:02d}" for c in range(1, 41) for r in range(1, 31)]
    rng.shuffle(labels)
    units = [
        U(f"g{i}", labels[i], kind="artillery", morale=3, movement=2, range=rng.choice([2, 3, 4]))
        for i in range(40)
    ]
    data = {
        "format": "muster-scenario/1",
        "id": "crowded",
        "system": "hex-hexside",
        "title": "crowded",
        "map": {
            "orientation": "flat",
            "stagger": "even",
            "columns": 40,
            "rows": 30,
            "hexes": {h: {"terrain": [rng.choice(["woods", "town"])]} for h in labels[:300]},
            "hexsides": [],
        },
        "sides": [{"id": "prussia", "name": "P"}, {"id": "austria", "name": "A"}],
        "units": units,
    }
    # the Austrians nowhere next to a gun (a gun next to an enemy may not bombard)
    guns_only = parse_scenario(data)
    at = [guns_only.hex_at(u["hex"]) for u in units]
    free = [h for h in labels[40:] if min(hex_distance(guns_only.hex_at(h), g) for g in at) > 1]
    data["units"] = units + [U(f"a{i}", h, side="austria") for i, h in enumerate(free[:500])]
    sc = parse_scenario(data)
    state = Game.start(sc, RULES, 7).state
    listed = RULES._bombard_actions(sc, state)
    board = board_for(sc, state)
    enemy = sorted(
        {
            u["hex"]
            for uid, u in state["units"].items()
            if not u["out"]
            and sc.units[uid]["side"] != state["side"]
            and sc.units[uid]["type"] != "leader"
        }
    )
    guns = [a["unit"] for a in listed]
    assert len(enemy) > 300 and len(set(guns)) > 10
    plain = [
        {"type": "bombard", "unit": uid, "target": label}
        for uid in dict.fromkeys(guns)
        for label in enemy
        if combat.bombard_shot(
            board,
            sc.hex_at(state["units"][uid]["hex"]),
            sc.hex_at(label),
            combat.bombard_reach(sc, uid),
        )
        is not None
    ]
    assert listed == plain
