"""hex-facing: every setting of its data files that the rules read changes what happens in
play (sequence.json, movement.json, combat.json), the rally's cohesion test at its boundary,
and the numbers that used to sit in code."""

from __future__ import annotations

import random

import pytest
from movement_maps import make_board, step
from test_countercharge_hex_facing import COUNTER, cavalry, charged, roll, with_tables
from test_fight_hex_facing import GUN, at_step, scenario
from test_play_hex_facing import tiny

from muster.game import Game
from muster.hexgrid import hex_distance
from muster.movement import reachable, reachable_hexes
from muster.play import sequence_data
from muster.scenario import load_builtin, parse_scenario
from muster.systems import game_rules
from muster.systems.hex_facing import combat, rules
from muster.systems.hex_facing import tables as hf_tables
from muster.systems.hex_facing.combat import Combatant, MeleeSituation
from muster.systems.hex_facing.movement import RULES as MOVEMENT

RULES = game_rules("hex-facing")


def overridden(sc, **tables):
    """The scenario again, with ``overrides`` (table -> settings) added to its own."""
    own = sc.data.get("overrides", {})
    merged = {**own, **{k: {**own.get(k, {}), **v} for k, v in tables.items()}}
    return parse_scenario({**sc.data, "overrides": merged})


def to_rally(g):
    """Every formation of tiny() ends its activation: the rally phase."""
    for fid in ("bde", "aus"):
        g.apply({"type": "roll", "value": fid})
        for _ in range(3):
            g.apply({"type": "next_step"})
    assert g.state["phase"] == "rally"
    return g


def leader(label, side="fr", formation="bde"):
    return {
        "id": "ldr",
        "side": side,
        "type": "leader",
        "name": "L",
        "hex": label,
        "formation": formation,
        "ratings": {"movement": 6},
    }


def with_units(sc, *extra, **unit_state):
    data = {**sc.data, "units": [*sc.data["units"], *extra]}
    for unit in data["units"]:
        if unit["id"] in unit_state:
            unit["state"] = unit_state[unit["id"]]
    return parse_scenario(data)


# -- the rally: the combat table's pass_if, at its boundary ---------------------------------


@pytest.mark.parametrize(
    "leader_at, roll_, passed",
    [
        (None, 6, True),  # 6 <= cohesion 6: at most passes
        (None, 7, False),
        ("0202", 7, True),  # a leader next to it: 7 - 1 = 6
        ("0202", 8, False),
    ],
)
def test_rally_passes_at_most_cohesion_and_fails_one_above(leader_at, roll_, passed):
    sc = with_units(tiny(), *([leader(leader_at)] if leader_at else []), f1={"routed": True})
    g = to_rally(Game.start(sc, RULES, 1))
    item = next(
        i
        for c in RULES.choices(sc, g.state, g.legal_actions())
        for i in c["items"]
        if i["action"] == {"type": "rally", "unit": "f1"}
    )
    assert item["params"]["needed"] == (7 if leader_at else 6)  # the highest face that passes
    g.apply({"type": "rally", "unit": "f1"})
    faces = RULES.chance_results(sc, g.state)
    assert faces[roll_]["key"] == ("chance.hf_rally_pass" if passed else "chance.hf_rally_fail")
    g.apply({"type": "roll", "value": roll_})
    assert g.state["units"]["f1"]["status"] == ("disordered" if passed else "routed")
    assert g.log[-1]["key"] == ("log.rally_passed" if passed else "log.rally_failed")


@pytest.mark.parametrize("roll_, passed", [(5, True), (6, False)])
def test_rally_reads_the_tables_pass_if_below(roll_, passed):
    sc = with_tables(
        with_units(tiny(), f1={"disordered": True}), **{"cohesion_test.pass_if": "below"}
    )
    g = to_rally(Game.start(sc, RULES, 1))
    g.apply({"type": "rally", "unit": "f1"})
    assert RULES.prompt(sc, g.state)["params"]["needed"] == 5  # below 6
    g.apply({"type": "roll", "value": roll_})
    assert g.state["units"]["f1"]["status"] == ("good" if passed else "disordered")


def test_a_result_test_reads_the_tables_pass_if_too():
    sc = with_tables(
        scenario([GUN, {"id": "t", "side": "au", "hex": "0303", "ratings": {"cohesion": 6}}]),
        **{"cohesion_test.pass_if": "below"},
    )
    g = at_step(sc, "fire")
    g.apply({"type": "fire", "unit": "gun", "target": "0303"})
    g.apply({"type": "roll", "value": 5})  # 5 + 4 = 9: PZw
    g.apply({"type": "roll", "value": 6})  # 6 is not below 6: failed
    assert g.state["units"]["t"]["status"] == "disordered"


# -- sequence.json: each key changes play ---------------------------------------------------


def test_the_turn_follows_its_phases_without_rally():
    sc = overridden(tiny(), sequence={"turn": [{"phase": "activation"}, {"phase": "end"}]})
    g = Game.start(sc, RULES, 1)
    for fid in ("bde", "aus"):
        g.apply({"type": "roll", "value": fid})
        for _ in range(3):
            g.apply({"type": "next_step"})
    assert g.state["turn"] == 2 and g.state["phase"] == "activation"
    assert "log.rally_phase" not in [e["key"] for e in g.log]


def test_the_turn_may_open_with_the_rally():
    turn = [{"phase": p} for p in ("rally", "activation", "end")]
    sc = overridden(tiny(), sequence={"turn": turn})
    g = Game.start(sc, RULES, 1)
    assert g.state["phase"] == "rally" and g.state["chance"] is None
    g.apply({"type": "end_rally"})
    g.apply({"type": "end_rally"})
    assert g.state["chance"]["purpose"] == "activation" and g.state["turn"] == 1
    for fid in ("bde", "aus"):
        g.apply({"type": "roll", "value": fid})
        for _ in range(3):
            g.apply({"type": "next_step"})
    assert g.state["turn"] == 2 and g.state["phase"] == "rally"


def test_square_who():
    sc = scenario(
        [
            {"id": "i1", "hex": "0303", "facing": 2, "ratings": {"movement": 4}},
            cavalry("c1", "0304", 2, movement=6),
        ]
    )
    g = at_step(overridden(sc, sequence={"square": {"who": "cavalry"}}), "move")
    squares = [a["unit"] for a in g.legal_actions() if a["type"] == "square"]
    assert squares == ["c1"]
    g = at_step(sc, "move")
    assert [a["unit"] for a in g.legal_actions() if a["type"] == "square"] == ["i1"]


@pytest.mark.parametrize("count, points", [(True, {"fr": 0, "au": 2}), (False, {"fr": 0, "au": 0})])
def test_victory_objective_points(count, points):
    sc = overridden(tiny(turns=1), sequence={"victory": {"objective_points": count}})
    g = to_rally(Game.start(sc, RULES, 1))
    g.apply({"type": "end_rally"})
    g.apply({"type": "end_rally"})
    assert g.state["result"]["points"] == points


def test_victory_routed_unit_points():
    sc = overridden(tiny(turns=1), sequence={"victory": {"routed_unit_points": 3}})
    sc = with_units(sc, a1={"routed": True})
    g = to_rally(Game.start(sc, RULES, 1))
    g.apply({"type": "end_rally"})
    g.apply({"type": "end_rally"})
    assert g.state["result"]["points"] == {"fr": 3, "au": 2}


@pytest.mark.parametrize("not_near", [True, False])
def test_rally_next_to_an_enemy(not_near):
    # f1 (routed) stands next to the Austrian a1.
    sc = with_units(tiny(), f1={"routed": True})
    data = {**sc.data, "units": [dict(u) for u in sc.data["units"]]}
    data["units"][0]["hex"] = "0402"
    sc = overridden(parse_scenario(data), sequence={"rally": {"not_adjacent_to_enemy": not_near}})
    g = to_rally(Game.start(sc, RULES, 1))
    assert ({"type": "rally", "unit": "f1"} in g.legal_actions()) is not not_near


@pytest.mark.parametrize("reach, drm", [(1, 0), (2, -1)])
def test_rally_leader_range(reach, drm):
    sc = with_units(tiny(), leader("0302"), f1={"routed": True})  # two hexes from 0102
    sc = overridden(sc, sequence={"rally": {"leader_range": reach}})
    g = to_rally(Game.start(sc, RULES, 1))
    g.apply({"type": "rally", "unit": "f1"})
    assert g.state["chance"]["modifier"] == drm


@pytest.mark.parametrize("factor, farthest", [(0.5, 2), (0.25, 1)])
def test_no_orders_movement_factor(factor, farthest):
    # The Austrians have no orders: a1's 4 MP times the factor, 1 MP a clear hex.
    sc = overridden(tiny(), sequence={"no_orders": {"movement_factor": factor}})
    g = Game.start(sc, RULES, 1)
    g.apply({"type": "roll", "value": "aus"})
    g.apply({"type": "next_step"})
    here = sc.hex_at("0502")
    reach = {
        hex_distance(here, sc.hex_at(a["to"])) for a in g.legal_actions() if a["type"] == "move"
    }
    assert max(reach) == farthest


@pytest.mark.parametrize("may", [False, True])
def test_no_orders_may_melee(may):
    sc = scenario(
        [
            {"id": "a1", "hex": "0303", "facing": 2, "ratings": {"strength": 6, "cohesion": 7}},
            {"id": "d1", "side": "au", "hex": "0403", "facing": 8, "ratings": {"strength": 6}},
        ]
    )
    data = {**sc.data, "formations": [{**f, "orders": False} for f in sc.data["formations"]]}
    # Without melee the combat step is empty: ended by hand here, to see it.
    sequence = {"no_orders": {"may_melee": may}, "empty_steps": {"passed": False}}
    sc = overridden(parse_scenario(data), sequence=sequence)
    g = at_step(sc, "combat")
    assert any(a["type"] == "melee" for a in g.legal_actions()) is may
    assert ("why" in RULES.prompt(sc, g.state)) is not may


def test_a_scenarios_unit_state_is_where_play_starts():
    sc = with_units(tiny(), f1={"routed": True}, f2={"disordered": True})
    state = Game.start(sc, RULES, 1).state
    assert [state["units"][u]["status"] for u in ("f1", "f2", "a1")] == [
        "routed",
        "disordered",
        "good",
    ]


def test_every_setting_of_sequence_json_is_a_setting_or_a_note():
    """Each leaf is read by the rules (the tests above) or documents them; the closed sets
    list the values the rules read."""
    data = sequence_data("hex_facing")
    notes = {"why", "source", "system", "default", "aid", "closed"}

    def leaves(x, path=()):
        if isinstance(x, dict):
            for k, v in x.items():
                if k not in notes:
                    yield from leaves(v, (*path, k))
        elif isinstance(x, list) and x and isinstance(x[0], dict):
            for row in x:
                yield from leaves(row, (*path, "*"))
        else:
            yield ".".join(path)

    assert sorted(set(leaves(data))) == [
        "empty_steps.passed",
        "formation_steps",
        "no_orders.may_melee",
        "no_orders.movement_factor",
        "rally.leader_range",
        "rally.modifier_adjacent_leader",
        "rally.not_adjacent_to_enemy",
        "square.who",
        "turn.*.phase",
        "turns",
        "victory.objective_points",
        "victory.routed_unit_points",
    ]
    assert data["closed"] == {
        "turn.phase": list(rules.PHASES),
        "formation_steps": ["fire", "move", "combat"],
        "square.who": ["infantry", "cavalry", "artillery"],
    }


# -- numbers that were in code, now data ---------------------------------------------------


@pytest.mark.parametrize("extra", [1, 3])
def test_disordered_entry_into_an_enemy_zone_costs_movement_json(extra):
    units = [
        {"id": "d", "hex": "0202", "state": {"disordered": True}},
        {"id": "e", "hex": "0402", "side": "b"},
    ]
    b = make_board("hex-facing", units, movement={"disordered_zoc_entry": {"extra": extra}})
    s = step(b, "d", "0202", "0303")
    assert s.cost == 1 + extra and s.parts[-1].key == "move.enter_zoc_disordered"


@pytest.mark.parametrize("limit, offered", [(2, {"0303", "0503"}), (0, {"0303"})])
def test_fire_reaches_the_long_range_limit_beyond_the_effective_range(limit, offered):
    # GUN: effective range 2; 0503 is 4 hexes away (2 beyond), 0603 is 5 (3 beyond).
    targets = [
        {"id": t, "side": "au", "hex": h, "ratings": {"cohesion": 6}}
        for t, h in (("near", "0303"), ("far", "0503"), ("farther", "0603"))
    ]
    sc = with_tables(scenario([GUN, *targets]), **{"fire_modifiers.long_range_limit": limit})
    g = at_step(sc, "fire")
    assert {a["target"] for a in g.legal_actions() if a["type"] == "fire"} == offered


@pytest.mark.parametrize("most, retreats", [(2, False), (3, True)])
def test_a_retreat_respects_the_stacking_limit_of_movement_json(most, retreats):
    # d1 in 0102, attacked from 0202, can only get away into the corner 0101 (0103 and 0201
    # are next to the attacker), where two Austrians stand.
    sc = scenario(
        [
            {"id": "a1", "hex": "0202", "facing": 8, "ratings": {"strength": 8, "cohesion": 7}},
            {"id": "d1", "side": "au", "hex": "0102", "facing": 2, "ratings": {"strength": 2}},
            {"id": "d2", "side": "au", "hex": "0101", "ratings": {"strength": 2}},
            {"id": "d3", "side": "au", "hex": "0101", "ratings": {"strength": 2}},
        ]
    )
    sc = overridden(sc, movement={"stacking": {"max_units": most}})
    g = at_step(sc, "combat")
    g.apply({"type": "melee", "target": "0102", "attackers": ["a1"]})
    g.apply({"type": "roll", "value": 9})  # 10 or more: 1 + Z
    assert (g.state["units"]["d1"]["hex"] == "0101") is retreats
    assert g.state["units"]["d1"]["status"] == ("disordered" if retreats else "routed")


def test_as_many_cavalry_pursue_as_the_procedure_says():
    even = {"strength": 2, "cohesion": 7}
    units = [
        cavalry("c1", "0303", 2, **even),
        cavalry("c2", "0303", 2, **even),
        cavalry("k1", "0403", 8, "au", strength=4, cohesion=7),
    ]
    for count, pursuers in ((1, ["c1"]), (2, ["c1", "c2"])):
        sc = with_tables(scenario(units), **{"procedures.pursuit.units": count})
        g = charged(
            sc, {"type": "melee", "target": "0403", "attackers": ["c1", "c2"], "charge": True}
        )
        g.apply(COUNTER)
        roll(g, 9)
        while g.state["retreat"]:
            g.apply(g.legal_actions()[0])
        assert [u for u in ("c1", "c2") if g.state["units"][u]["hex"] == "0403"] == pursuers
        tested = []
        while g.state["chance"]:
            tested.append(g.state["chance"]["unit"])
            roll(g, 0)
        assert tested == pursuers


def test_the_chance_die_is_the_tables_die():
    sc = tiny()
    assert rules.die_name(sc) == "d10"
    assert (
        rules.die_name(
            with_tables(tiny(), **{"die": {"sides": 6, "first": 1, "default": True, "why": "x"}})
        )
        == "d6"
    )
    with pytest.raises(hf_tables.CombatDataError, match="die"):
        rules.die_name(
            with_tables(tiny(), **{"die": {"sides": 10, "first": 1, "default": True, "why": "x"}})
        )


def test_the_melee_rows_params_are_read():
    a = (Combatant("infantry", 4, 5), Combatant("infantry", 4, 5))
    d = (Combatant("infantry", 4, 5),)
    apart = MeleeSituation(a, d, position="front_and_rear", attackers_adjacent=False)
    with pytest.raises(combat.IllegalCombatError):
        combat.melee_modifiers(apart)
    raw = hf_tables.raw_tables()
    row = next(r for r in raw["melee_modifiers"]["rows"] if r["id"] == "front_and_rear")
    row["attackers_adjacent"] = False
    keys = [p.key for p in combat.melee_modifiers(apart, hf_tables.parse_tables(raw))]
    assert "melee.front_and_rear" in keys


def test_the_watching_enemy_types_of_the_rear_modifier_are_read():
    # a1 attacks d1 (0403) while its rear hex 0203 is the front hex of an Austrian c9.
    units = [
        {"id": "a1", "hex": "0303", "facing": 2, "ratings": {"strength": 4, "cohesion": 5}},
        {"id": "d1", "side": "au", "hex": "0403", "facing": 8, "ratings": {"strength": 4}},
        cavalry("c9", "0103", 2, "au", strength=4),
    ]
    attack = {"type": "melee", "target": "0403", "attackers": ["a1"]}
    sc = scenario(units)
    g = at_step(sc, "combat")
    keys = [m["key"] for m in RULES.preview(sc, g.state, attack)["modifiers"]]
    assert "melee.rear_in_enemy_front" not in keys  # cavalry is not infantry or artillery
    raw = hf_tables.raw_tables()
    row = next(r for r in raw["melee_modifiers"]["rows"] if r["id"] == "rear_in_enemy_front")
    row["enemy_types"] = ["cavalry"]
    sc = scenario(units)
    sc.memo["hf combat tables"] = hf_tables.parse_tables(raw)
    g = at_step(sc, "combat")
    keys = [m["key"] for m in RULES.preview(sc, g.state, attack)["modifiers"]]
    assert "melee.rear_in_enemy_front" in keys


@pytest.mark.parametrize(
    "path, value, problem",
    [
        ("procedures.countercharge.facing", "flank", "expected one of"),
        ("procedures.countercharge.states", ["shaken"], "expected some of"),
        ("procedures.countercharge.by", ["hussar"], "expected some of"),
        ("procedures.countercharge.against", ["fire"], "expected some of"),
        ("procedures.countercharge.reaction", "yes", "expected one of"),
        ("procedures.pursuit.units", 0, "at least 1"),
        ("procedures.pursuit.advance", "should", "expected one of"),
        (
            "fire_modifiers.long_range_limit",
            {"value": -1, "default": True, "why": "x"},
            "at least 0",
        ),
    ],
)
def test_combat_json_refuses_a_setting_the_rules_cannot_read(path, value, problem):
    raw = hf_tables.raw_tables()
    *parents, last = path.split(".")
    here = raw
    for key in parents:
        here = here[key]
    here[last] = value
    with pytest.raises(hf_tables.CombatDataError, match=problem):
        hf_tables.parse_tables(raw)


# -- the listing's own search finds what muster.movement.reachable finds --------------------


def test_the_listing_search_finds_the_hexes_reachable_finds():
    """Over random games of the demo, for every unit on the map at many positions: the
    costs-only search of the legal moves gives exactly the hexes of ``reachable``, and a
    step from the scenario's cache equals a step worked out afresh."""
    sc = load_builtin("demo-valmont")
    checked = 0
    for seed in range(2):
        rng = random.Random(seed)
        g = Game.start(sc, RULES, seed)
        while not g.state["result"]:
            if not g.state["chance"] and rng.random() < 0.15:
                board = rules.board_for(sc, g.state)
                for uid in board.units:
                    fast = reachable_hexes(board, uid, MOVEMENT)
                    assert sorted(fast) == sorted(reachable(board, uid, MOVEMENT))
                    checked += 1
            g.apply(rng.choice(g.legal_actions()))
    assert checked > 500
    # A cached step is the step: the same parts, cost, stop and flags as a fresh scenario's.
    fresh = load_builtin("demo-valmont")
    board, again = rules.board_for(sc, g.state), rules.board_for(fresh, g.state)
    for uid in list(board.units)[:6]:
        cached, cold = (
            MOVEMENT.stepper(board, board.unit(uid)),
            MOVEMENT.stepper(again, again.unit(uid)),
        )
        for h in list(sc.hexes)[::7]:
            for n in sc.neighbors[h]:
                assert cached(h, n) == cold(h, n)


@pytest.mark.parametrize("again, status", [("rout", "routed"), ("disordered", "disordered")])
def test_a_disordered_unit_disordered_again(again, status):
    sc = with_tables(
        scenario([GUN, {"id": "t", "side": "au", "hex": "0303", "ratings": {"cohesion": 6}}]),
        disorder_again={"value": again, "default": True, "why": "x"},
    )
    g = at_step(sc, "fire")
    g.state["units"]["t"]["status"] = "disordered"
    g.apply({"type": "fire", "unit": "gun", "target": "0303"})
    g.apply({"type": "roll", "value": 9})  # 9 + 4 = 13: Z
    assert g.state["units"]["t"]["status"] == status
