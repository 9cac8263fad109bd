"""hex-hexside close combat: the chart's terrain DRM worked out by hand, the multi-hex choice of
the pair of hexes, the morale table's effects of results, and strength after step losses.

Map: flat hexes, even columns half a hex lower, so row 02 runs straight east (0202 - 0302).
Neighbours used below: 0202: 0102 0103 0201 0203 0302 0303; 0302: 0201 0202 0301 0303 0401
0402; 0203: 0103 0104 0202 0204 0303 0304; 0303: 0202 0203 0302 0304 0402 0403.
"Chart" is the terrain effects chart of rules/hex-hexside.md (terrain.json).
"""

from __future__ import annotations

import copy

import pytest

from muster.game import Game
from muster.movement import Board
from muster.scenario import parse_scenario
from muster.systems.hex_hexside import combat
from muster.systems.hex_hexside.rules import RULES
from muster.systems.hex_hexside.tables import raw_tables

HH = "hex-hexside"
ARMY = {"points": 30, "demoralized": 10, "broken": 5}  # far from any level in these tests


def unit_spec(uid, label, side, strength, morale, steps, utype="infantry", shock=0):
    ratings = {"strength": strength, "morale": morale, "movement": 4, "shock": shock}
    return {
        "id": uid,
        "name": uid,
        "side": side,
        "type": utype,
        "hex": label,
        "steps": steps,
        "ratings": ratings,
    }


def scenario(units=(), hexes=None, hexsides=None):
    """A 6x5 map; units are (id, hex, side, strength, morale, steps[, type, shock])."""
    return parse_scenario(
        {
            "format": "muster-scenario/1",
            "id": "c",
            "system": HH,
            "title": "c",
            "map": {
                "orientation": "flat",
                "stagger": "even",
                "columns": 6,
                "rows": 5,
                "hexes": {k: {"terrain": v} for k, v in (hexes or {}).items()},
                "hexsides": hexsides or [],
            },
            "sides": [
                {"id": "prussia", "name": "P", "army_morale": ARMY},
                {"id": "austria", "name": "A", "army_morale": ARMY},
            ],
            "units": [unit_spec(*u) for u in units],
        }
    )


def drm(column, a_terrain=None, d_terrain=None, features=None, up=None, a="0202", d="0302"):
    """terrain_drm of an attack from ``a`` into ``d`` with the given terrain and hexside."""
    hexes = {k: v for k, v in ((a, a_terrain), (d, d_terrain)) if v}
    side = {"between": [a, d], "features": features or []}
    if up:
        side["up"] = up
    sc = scenario(hexes=hexes, hexsides=[side] if features else [])
    return combat.terrain_drm(Board(sc), column, sc.hex_at(a), sc.hex_at(d))


def summary(t):
    return [(p.value, p.key, dict(p.params)) for p in t.parts]


def hexpart(value, name, how):
    """A hex terrain part; ``how`` (the chart's marking) is for the reader only."""
    return (value, "drm.terrain", {"terrain": name})


def sidepart(value, name):
    return (value, "drm.hexside", {"feature": name})


# -- 1. terrain combining ------------------------------------------------------------------------

HEX_CASES = [
    # Clear into clear: the clear row is 0 everywhere, so no part and 0.
    ("inf", None, None, 0, None, []),
    ("cav", None, None, 0, True, []),
    # Woods Inf -1 (plain: into).
    ("inf", None, ["woods"], -1, None, [hexpart(-1, "woods", "into")]),
    # Shock is asserted for cavalry only (the * is in the Cav column).
    # Woods Cav (-4)*: into it -4, and * forbids shock.
    ("cav", None, ["woods"], -4, False, [hexpart(-4, "woods", "from_or_into")]),
    # ( ) applies from too: cavalry attacking out of woods into clear is also -4, no shock.
    ("cav", ["woods"], None, -4, False, [hexpart(-4, "woods", "from_or_into")]),
    # Woods Inf -1 is a plain number: not from it, so infantry out of woods into clear is 0.
    ("inf", ["woods"], None, 0, None, []),
    # Marsh Bomb [-1]: from the marsh -1 ...
    ("bomb", ["marsh"], None, -1, None, [hexpart(-1, "marsh", "from")]),
    # ... and into the marsh 0, since [ ] does not apply into it (clear attacker hex: into only).
    ("bomb", None, ["marsh"], 0, None, []),
    # Pond/River hex Inf (-1): from it and into it.
    ("inf", ["pond_river_hex"], None, -1, None, [hexpart(-1, "pond_river_hex", "from_or_into")]),
    ("inf", None, ["pond_river_hex"], -1, None, [hexpart(-1, "pond_river_hex", "from_or_into")]),
    # Pond/River hex Cav (-1) has no *: shock stays allowed.
    ("cav", ["pond_river_hex"], None, -1, True, [hexpart(-1, "pond_river_hex", "from_or_into")]),
    # Town Cav (-4)* from the town, into clear: -4, no shock.
    ("cav", ["town"], None, -4, False, [hexpart(-4, "town", "from_or_into")]),
]


@pytest.mark.parametrize("column,a_terrain,d_terrain,value,shock,parts", HEX_CASES)
def test_hex_terrain_by_its_marking(column, a_terrain, d_terrain, value, shock, parts):
    t = drm(column, a_terrain, d_terrain)
    assert t.prohibited is None
    assert t.value == value
    assert summary(t) == parts
    if shock is not None:
        assert t.shock_allowed is shock


def test_least_favourable_hex_wins_as_one_part():
    # Attacker in pond/river (-1, from) into woods (-1, into): min(-1, -1) = -1, not -2.
    t = drm("inf", ["pond_river_hex"], ["woods"])
    assert t.value == -1 and len(t.parts) == 1
    # Attacker in pond/river (-1) into walled town (Inf -3): min(-1, -3) = -3.
    t = drm("inf", ["pond_river_hex"], ["walled_town"])
    assert summary(t) == [hexpart(-3, "walled_town", "into")]
    # The other way, walled town's -3 is plain (into only): from it into pond/river is -1.
    assert drm("inf", ["walled_town"], ["pond_river_hex"]).value == -1


HEXSIDE_CASES = [
    # Stream Inf -1, Cav -1 (no *), Bomb 0.
    ("inf", ["stream"], None, -1, None, [sidepart(-1, "stream")]),
    ("cav", ["stream"], None, -1, True, [sidepart(-1, "stream")]),
    ("bomb", ["stream"], None, 0, None, []),
    # Note 3: with a bridge the stream does not count; Bridge Inf -1 only.
    ("inf", ["stream", "bridge"], None, -1, None, [sidepart(-1, "bridge")]),
    # Bridge Cav -1*: -1 and no shock.
    ("cav", ["stream", "bridge"], None, -1, False, [sidepart(-1, "bridge")]),
    # Slope with the defender (0302) on the up side: top of slope -2 (attacking uphill).
    ("inf", ["slope"], "0302", -2, None, [sidepart(-2, "slope_top")]),
    ("bomb", ["slope"], "0302", -2, None, [sidepart(-2, "slope_top")]),
    # Attacker (0202) on the up side: bottom of slope, 0 (downhill), no part.
    ("inf", ["slope"], "0202", 0, None, []),
    # Entrenchment Inf -2, Cav -2* (no shock), Bomb -2.
    ("inf", ["entrenchment"], None, -2, None, [sidepart(-2, "entrenchment")]),
    ("cav", ["entrenchment"], None, -2, False, [sidepart(-2, "entrenchment")]),
    ("bomb", ["entrenchment"], None, -2, None, [sidepart(-2, "entrenchment")]),
    # Mietzel Bomb 0: a bombardment across it is not prohibited.
    ("bomb", ["mietzel_river"], None, 0, None, []),
]


@pytest.mark.parametrize("column,features,up,value,shock,parts", HEXSIDE_CASES)
def test_hexside_between_the_two_hexes(column, features, up, value, shock, parts):
    t = drm(column, features=features, up=up)
    assert t.prohibited is None
    assert t.value == value and summary(t) == parts
    if shock is not None:
        assert t.shock_allowed is shock


def test_hex_and_hexside_add_up():
    # Woods Inf -1 + stream -1 = -2.
    t = drm("inf", None, ["woods"], ["stream"])
    assert summary(t) == [hexpart(-1, "woods", "into"), sidepart(-1, "stream")]
    # Walled town -3 + entrenchment -2 + top of slope -2 = -7 (two hexside rows on one side).
    t = drm("inf", None, ["walled_town"], ["slope", "entrenchment"], up="0302")
    assert t.value == -7 and len(t.parts) == 3


def test_hexside_names_slope_side_and_bridge():
    sides = [
        {"between": ["0202", "0302"], "features": ["slope"], "up": "0302"},
        {"between": ["0202", "0203"], "features": ["stream", "bridge"]},
    ]
    sc = scenario(hexsides=sides)
    at = sc.hex_at
    assert combat.hexside_names(sc, at("0202"), at("0302")) == ["slope_top"]
    assert combat.hexside_names(sc, at("0302"), at("0202")) == ["slope_bottom"]
    assert combat.hexside_names(sc, at("0202"), at("0203")) == ["bridge"]


@pytest.mark.parametrize(
    "column,feature",
    [(c, f) for c in ("inf", "cav") for f in ("pond", "elbe_river", "mietzel_river")]
    + [("bomb", "pond"), ("bomb", "elbe_river")],
)
def test_prohibited_hexsides(column, feature):
    # Pond and Elbe are P in every column; Mietzel is P for Inf and Cav.
    t = drm(column, features=[feature])
    assert t.prohibited is not None
    assert t.prohibited.key == "drm.prohibited"
    assert dict(t.prohibited.params) == {"feature": feature}
    assert t.parts == () and t.shock_allowed is False


@pytest.mark.parametrize("column", ["inf", "cav", "bomb"])
def test_deep_water_hex_is_prohibited(column):
    t = drm(column, None, ["deep_water"])
    assert t.prohibited is not None
    assert dict(t.prohibited.params) == {"terrain": "deep_water"}


@pytest.mark.parametrize(
    "terrain,features,status,expected",
    [
        # Clear: morale 4 - 3 = +1, Formed cavalry's shock +2: 3.
        (None, None, "formed", [("drm.morale", 1), ("drm.shock", 2)]),
        # Woods Cav (-4)*: -4, +1, and the * takes the shock away (a 0 part says why): -3.
        (["woods"], None, "formed", [("drm.terrain", -4), ("drm.morale", 1), ("drm.no_shock", 0)]),
        # Bridge Cav -1*: -1 + 1 = 0, no shock.
        (None, ["bridge"], "formed", [("drm.hexside", -1), ("drm.morale", 1), ("drm.no_shock", 0)]),
        # Clear, but a disordered lead: +1, -1 (disordered_lead), no shock (needs formed): 0.
        (
            None,
            None,
            "disordered",
            [("drm.morale", 1), ("drm.lead_status", -1), ("drm.no_shock", 0)],
        ),
    ],
)
def test_cavalry_lead_drm_parts(terrain, features, status, expected):
    side = [{"between": ["0202", "0302"], "features": features}] if features else []
    sc = scenario(
        [("c", "0202", "prussia", 4, 4, 3, "cavalry", 2), ("d", "0302", "austria", 4, 3, 3)],
        hexes={"0302": terrain} if terrain else None,
        hexsides=side,
    )
    state = RULES.initial_state(sc, {})
    state["units"]["c"]["status"] = status
    pair = (sc.hex_at("0202"), sc.hex_at("0302"))
    parts, _ = combat.drm_parts(sc, state, RULES.board(sc, state), "c", "d", pair)
    assert [(p.key, p.value) for p in parts] == expected


# -- game helpers --------------------------------------------------------------------------------


def at_combat(sc, options=None):
    """A new game in prussia's combat phase: end the phases before it (at most rally, movement
    and bombardment; one with nothing to do may pass by itself)."""
    g = Game.start(sc, RULES, 1, options)
    for _ in range(3):
        if g.state["phase"] == "combat":
            break
        g.apply({"type": "end_phase"})
    assert g.state["phase"] == "combat" and g.state["side"] == "prussia"
    return g


def attack(g, target):
    """Designate an attack on ``target`` with every unit able, confirm, stand if asked."""
    g.apply({"type": "attack", "target": target})
    g.apply({"type": "confirm"})
    if g.state["combat"]["step"] == "retreat_before":
        g.apply({"type": "stand"})


def logged(g, key):
    return [e["params"] for e in g.log if e["key"] == key]


def own_crt(codes):
    """An owner's CRT of combat.json's shape where every cell reads ``codes``."""
    crt = copy.deepcopy(raw_tables()["crt"])
    crt.update(stand_in=False, name="owner test table")
    for row in crt["rows"]:
        row["cells"] = {c["label"]: list(codes) for c in crt["columns"]}
    return crt


# -- 2. multi-hex attack: the attacker chooses the pair ------------------------------------------

# A1 (0202) and A2 (0304) are each next to both D1 (0203) and D2 (0303); 0202|0203 is a
# stream, 0202|0303 a pond hexside (P), 0303 a walled town. All morale 4, strength 4.
MULTI = scenario(
    [
        ("A1", "0202", "prussia", 4, 4, 3),
        ("A2", "0304", "prussia", 4, 4, 3),
        ("D1", "0203", "austria", 4, 4, 3),
        ("D2", "0303", "austria", 4, 4, 3),
    ],
    hexes={"0303": ["walled_town"]},
    hexsides=[
        {"between": ["0202", "0203"], "features": ["stream"]},
        {"between": ["0202", "0303"], "features": ["pond"]},
    ],
)


def multi_at_terrain_step():
    g = at_combat(MULTI)
    g.apply({"type": "attack", "target": "0203"})
    assert g.state["combat"]["attackers"] == ["A1", "A2"]
    g.apply({"type": "toggle_target", "hex": "0303"})
    g.apply({"type": "confirm"})
    # 4 + 4 against 4 + 4: 1:1.
    assert g.state["combat"]["odds"] == {"attack": 8, "defence": 8, "column": "1:1"}
    g.apply({"type": "lead", "unit": "A1"})
    g.apply({"type": "lead", "unit": "D1"})
    assert g.state["combat"]["step"] == "terrain"
    return g


def test_a_pond_hexside_keeps_a_unit_out_of_an_attack_on_that_hex():
    g = at_combat(MULTI)
    g.apply({"type": "attack", "target": "0303"})
    # A1 is next to 0303 only across the pond: only A2 attacks.
    assert g.state["combat"]["attackers"] == ["A2"]


def test_multi_hex_attack_offers_each_valid_pair_not_the_prohibited_one():
    g = multi_at_terrain_step()
    offered = {(a["from"], a["into"]) for a in g.legal_actions()}
    assert all(a["type"] == "terrain" for a in g.legal_actions())
    # 2 attacking hexes x 2 defending hexes, less 0202 -> 0303 across the pond.
    assert offered == {("0202", "0203"), ("0304", "0203"), ("0304", "0303")}


@pytest.mark.parametrize(
    "pair,expected",
    [
        (("0202", "0203"), -1),  # clear 0 + stream -1; morale 4 - 4 = 0
        (("0304", "0203"), 0),  # clear into clear, no hexside feature
        (("0304", "0303"), -3),  # walled town Inf -3 (into); clear attacker hex (into only)
    ],
)
def test_the_chosen_pair_gives_the_drm(pair, expected):
    g = multi_at_terrain_step()
    g.apply({"type": "terrain", "from": pair[0], "into": pair[1]})
    chance = g.state["chance"]
    assert chance["purpose"] == "close_combat" and chance["column"] == "1:1"
    assert chance["drm"] == expected
    assert g.state["combat"]["pair"] == list(pair)


# -- 3. morale effects of results ----------------------------------------------------------------


def duel(morale, a_strength=8, d_strength=2, steps=3, options=None):
    """Attacker 'a' in 0202 and defender 'd' in 0302 (row 02), same morale: morale DRM 0;
    no terrain: DRM 0. Strengths 8:2 read the 4:1 column (8 >= 4 x 2)."""
    sc = scenario(
        [
            ("a", "0202", "prussia", a_strength, morale, steps),
            ("d", "0302", "austria", d_strength, morale, steps),
        ]
    )
    g = at_combat(sc, options)
    attack(g, "0302")
    assert g.state["chance"]["drm"] == 0
    return g


@pytest.mark.parametrize("morale,status", [(5, "formed"), (4, "disordered"), (3, "routed")])
def test_loss_with_a_step_loss_already(morale, status):
    g = duel(morale)
    assert g.state["chance"]["column"] == "4:1"
    # Stand-in 4:1, roll 5 (DRM 0): D2. The first step has no effect; the second, taken with
    # a step loss already, disorders morale 4 and routs morale 3; morale 5 has no such row.
    g.apply({"type": "roll", "value": 5})
    d = g.state["units"]["d"]
    assert d["lost"] == 2 and not d["out"]  # 3 steps: it survives
    assert d["status"] == status


@pytest.mark.parametrize("morale", [5, 4, 3])
def test_first_step_loss_alone_leaves_the_unit_formed(morale):
    g = duel(morale)
    g.apply({"type": "roll", "value": 3})  # stand-in 4:1, roll 3: D1
    d = g.state["units"]["d"]
    assert d["lost"] == 1 and d["status"] == "formed"


def test_morale_5_is_not_affected_by_r():
    g = duel(5)
    g.apply({"type": "roll", "value": 1})  # stand-in 4:1, roll 1: Dr
    assert logged(g, "log.hh_r_ignored") == [{"unit": "d"}]
    d = g.state["units"]["d"]
    assert d["hex"] == "0302" and d["status"] == "formed" and d["lost"] == 0
    assert g.state["combat"] is None  # nothing left to decide


@pytest.mark.parametrize("morale", [4, 3])
def test_r_disorders_morale_4_and_3_and_they_retreat(morale):
    g = duel(morale)
    g.apply({"type": "roll", "value": 1})  # stand-in 4:1, roll 1: Dr
    assert not logged(g, "log.hh_r_ignored")
    assert g.state["units"]["d"]["status"] == "disordered"
    # From 0302, away from 0202: not 0202 (the enemy), not 0201 or 0303 (its zone of
    # control, no friend there); 0301, 0401, 0402 are 2 hexes from 0202.
    assert g.legal_actions() == [
        {"type": "retreat", "unit": "d", "to": to} for to in ("0301", "0401", "0402")
    ]
    g.apply({"type": "retreat", "unit": "d", "to": "0402"})
    d = g.state["units"]["d"]
    assert d["hex"] == "0402" and d["status"] == "disordered" and d["lost"] == 0


@pytest.mark.parametrize("morale,lost", [(5, 0), (4, 0), (3, 1)])
def test_S_is_one_loss_point_for_morale_3_only(morale, lost):
    g = duel(morale, options={"crt": own_crt(["DS"])})
    g.apply({"type": "roll", "value": 4})  # the owner's table: DS in every cell
    d = g.state["units"]["d"]
    assert d["lost"] == lost and d["status"] == "formed"  # a first loss: no morale effect
    assert [p["cause"] for p in logged(g, "log.hh_step_lost")] == ["S"] * lost


def test_D1_and_S_rout_morale_3_and_only_cost_morale_4_one_step():
    # Stand-in 4:1, roll 6: D1 + DS. Morale 3: D1 (first step), then S is a second loss point
    # taken with a step loss already: rout. Morale 4: D1 only, still formed.
    for morale, lost, status in ((3, 2, "routed"), (4, 1, "formed")):
        g = duel(morale)
        g.apply({"type": "roll", "value": 6})
        d = g.state["units"]["d"]
        assert (d["lost"], d["status"]) == (lost, status)


def test_a_replaced_crt_changes_the_result():
    # Strength 4 against 4, morale 4 both: 1:1, DRM 0. Stand-in 1:1, roll 3: no result.
    stand_in = duel(4, a_strength=4, d_strength=4)
    assert stand_in.state["crt"]["stand_in"] is True
    assert stand_in.state["chance"]["column"] == "1:1"
    stand_in.apply({"type": "roll", "value": 3})
    assert logged(stand_in, "log.hh_result_none")[0]["table"] == "stand_in"
    assert stand_in.state["units"]["d"]["lost"] == 0
    # The owner's table reads D1 in every cell: the same roll costs the defender a step.
    own = duel(4, a_strength=4, d_strength=4, options={"crt": own_crt(["D1"])})
    assert own.state["crt"]["stand_in"] is False
    assert own.state["crt"]["name"] == "owner test table"
    own.apply({"type": "roll", "value": 3})
    assert logged(own, "log.hh_result_own")[0]["own_codes"] == "D1"
    assert logged(own, "log.hh_result_own")[0]["table"] == "own"
    assert own.state["units"]["d"]["lost"] == 1


# -- 4. strength after step losses ---------------------------------------------------------------


@pytest.mark.parametrize(
    "full,steps,lost,expected",
    [
        (7, 3, 0, 7),
        (7, 3, 1, 5),  # ceil(7 x 2 / 3) = ceil(4.67) = 5
        (7, 3, 2, 3),  # ceil(7 x 1 / 3) = ceil(2.33) = 3
        (6, 4, 1, 5),  # ceil(6 x 3 / 4) = ceil(4.5) = 5
        (4, 2, 1, 2),  # 4 x 1 / 2 = 2 exactly
        (5, 1, 0, 5),
    ],
)
def test_strength_is_proportional_rounded_up(full, steps, lost, expected):
    sc = scenario([("u", "0202", "prussia", full, 4, steps)])
    state = RULES.initial_state(sc, {})
    state["units"]["u"]["lost"] = lost
    assert combat.strength(sc, state, "u") == expected


def test_odds_use_the_reduced_strength():
    sc = scenario([("a", "0202", "prussia", 7, 4, 3), ("d", "0302", "austria", 3, 4, 3)])
    state = RULES.initial_state(sc, {})
    # Full: 7 against 3 is 2:1 (7 >= 2 x 3, 7 < 3 x 3).
    assert combat.odds(sc, state, ["a"], ["d"])["column"] == "2:1"
    # One step lost: ceil(7 x 2 / 3) = 5 against 3 is 1:1 (5 < 2 x 3).
    state["units"]["a"]["lost"] = 1
    assert combat.odds(sc, state, ["a"], ["d"]) == {"attack": 5, "defence": 3, "column": "1:1"}
