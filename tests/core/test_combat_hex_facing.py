"""hex-facing combat (seed 002): the aid's melee and fire tables, one test per cell and note.

Every number below is transcribed from seeds/002_0cf10788e67a2ac2.txt ("MODYFIKATORY RZUTU
KOSTKĄ ZA STARCIE I SZARŻĘ", "TABELA STOSUNKÓW SIŁ", "MODYFIKATORY DO RZUTU KOSTKĄ DLA
OGNIARZY", "TABELA OGNIARZY", "MODYFIKATORY RZUTU KOSTKĄ DO STARCIA LUB SZARŻY") and the
terrain table; the distributions are checked against brute force over every die face.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from muster.errors import RulesError
from muster.modifier import total
from muster.systems.hex_facing.combat import (
    Combatant,
    FireSituation,
    IllegalCombatError,
    MeleeSituation,
    cohesion_test_passes,
    fire_distribution,
    fire_modifiers,
    fire_result,
    force_ratio_drm,
    melee_distribution,
    melee_modifiers,
    melee_result,
)
from muster.systems.hex_facing.tables import CombatDataError, load_tables, parse_tables, raw_tables
from muster.terrain import UnknownTerrainError


def inf(**kw: Any) -> Combatant:
    return Combatant("infantry", **{"strength": 4, "cohesion": 5, **kw})


def cav(**kw: Any) -> Combatant:
    return Combatant("cavalry", **{"strength": 4, "cohesion": 5, **kw})


def art(**kw: Any) -> Combatant:
    spec = {"strength": 2, "cohesion": 5, "fire_strength": 6, "effective_range": 4}
    return Combatant("artillery", **{**spec, **kw})


def lines(parts) -> list[tuple[str, float, str]]:
    return [(p.key, p.value, p.rule) for p in parts]


def melee(attackers, defenders, **kw: Any) -> list[tuple[str, float, str]]:
    return lines(melee_modifiers(MeleeSituation(tuple(attackers), tuple(defenders), **kw)))


def extra(attackers, defenders, **kw: Any) -> list[tuple[str, float, str]]:
    """The melee lines after force ratio, cohesion and the target hex terrain."""
    return melee(attackers, defenders, **kw)[3:]


def fire(firers, targets, **kw: Any) -> list[tuple[str, float, str]]:
    return lines(fire_modifiers(FireSituation(tuple(firers), tuple(targets), **kw)))


MELEE = "melee DRM table"
FIRE = "fire DRM table"
TT = "terrain table"
BASE = [("melee.force_ratio", 0, "8.6"), ("melee.cohesion", 0, "8.6"), ("melee.terrain", 1, TT)]


# --- The tables as data ------------------------------------------------------------------

# id, kind, printed modifier (None: computed), rule reference, the seed cell's modifier text
MELEE_ROWS = [
    ("force_ratio", "strength", None, "8.6", "Patrz Tabela Stosunków Sił"),
    ("cohesion", "cohesion", None, "8.6", "zwartość najlepszego obrońcy"),
    ("terrain", "terrain", None, "terrain table", "Patrz TT i (b)"),
    ("routed", "rout", 2, MELEE, "+2"),
    ("rear", "position", 2, MELEE, "+2"),
    ("front_and_rear", "position", 3, MELEE, "+3*"),
    ("rear_in_enemy_front", "position", -1, MELEE, "-1"),
    ("cavalry_melee", "cavalry", -2, MELEE, "-2"),
    ("heavy_charge", "cavalry", 3, MELEE, "+3"),
    ("charge", "cavalry", 1, MELEE, "+1"),
    ("charge_vs_square", "cavalry", -2, MELEE, "-2"),
    ("infantry_vs_square", "cavalry", 1, MELEE, "+1"),
]

FIRE_ROWS = [
    ("fire_strength", "firer", None, FIRE, "+ siła ognia jednostki"),
    ("combined_fire", "firer", 2, FIRE, "+2"),
    ("six_front_firer", "firer", -1, FIRE, "-1"),
    ("reaction_or_counter_battery", "firer", -1, "8.3 / 7.6", "-1"),
    ("terrain", "target", None, "terrain table", "Patrz Tabela Terenu"),
    ("concentrated", "target", 1, FIRE, "+1"),
    ("square", "target", 1, FIRE, "+1"),
    ("adjacent", "range", 1, FIRE, "+1"),
    ("effective_range", "range", 0, FIRE, "0"),
    ("long_range", "range", -2, FIRE, "-2"),
]

#          ratio    attacker defender DRM   seed
RATIOS = [
    ("4:1",   4,   1,   4,  "4 / 1 lub więcej"),
    ("3:1",   3,   1,   3,  "3 / 1"),
    ("2:1",   2,   1,   2,  "2 / 1"),
    ("1.5:1", 1.5, 1,   1,  "1,5 / 1"),
    ("1:1",   1,   1,   0,  "1 / 1"),
    ("1:1.5", 1,   1.5, -1, "1 / 1,5"),
    ("1:2",   1,   2,   -2, "1 / 2"),
    ("1:3",   1,   3,   -3, "1 / 3"),
    ("1:4",   1,   4,   -4, "1 / 4 lub gorszy"),
]  # fmt: skip


def test_tables_load_once_and_validate():
    assert load_tables() is load_tables()
    assert load_tables().die.faces == tuple(range(10))


@pytest.mark.parametrize("row_id, kind, value, rule, printed", MELEE_ROWS)
def test_melee_drm_table_row(row_id, kind, value, rule, printed):
    row = load_tables().melee[row_id]
    assert row.params["kind"] == kind
    assert row.rule == rule
    assert row.params["seed"].endswith(printed)
    if value is not None:
        assert row.value == value


def test_melee_drm_table_order_and_exclusions():
    rows = load_tables().melee
    assert [r[0] for r in MELEE_ROWS] == list(rows)
    assert rows["routed"].params["not_with"] == ["rear", "front_and_rear"]
    assert rows["front_and_rear"].params["not_with"] == ["rear"]
    assert rows["front_and_rear"].params["attackers_adjacent"] is True
    assert rows["rear_in_enemy_front"].params["added_to"] == ["rear", "front_and_rear"]
    assert rows["charge_vs_square"].params["cancels"] == ["heavy_charge", "charge"]


@pytest.mark.parametrize("row_id, kind, value, rule, printed", FIRE_ROWS)
def test_fire_drm_table_row(row_id, kind, value, rule, printed):
    row = load_tables().fire[row_id]
    assert (row.params["kind"], row.rule) == (kind, rule)
    assert row.params["seed"].endswith(printed)
    if value is not None:
        assert row.value == value


def test_fire_drm_row_parameters():
    rows = load_tables().fire
    assert rows["combined_fire"].params["units"] == 2
    assert rows["reaction_or_counter_battery"].params["rules"] == {
        "reaction": "8.3",
        "counter_battery": "7.6",
    }
    assert rows["concentrated"].params["min_units"] == 2
    assert rows["concentrated"].params["not_types"] == ["artillery"]
    assert rows["adjacent"].params["range"] == 1
    assert rows["adjacent"].params["target_types"] == ["infantry", "cavalry"]
    assert rows["long_range"].params["per_hex"] is True


def test_force_ratio_table_as_data():
    data = raw_tables()["force_ratio"]
    assert data["rule"] == "8.6"
    assert [(r["ratio"], r["attacker"], r["defender"], r["drm"]) for r in data["rows"]] == [
        row[:4] for row in RATIOS
    ]
    assert [r["seed"].split(" | ")[0] for r in data["rows"]] == [row[4] for row in RATIOS]
    assert data["rounding"]["default"] is True and "2.9:1 is 2:1" in data["rounding"]["why"]
    assert [r.drm for r in load_tables().force_ratio] == [4, 3, 2, 1, 0, -1, -2, -3, -4]


def test_result_codes_as_data():
    codes = load_tables().codes
    assert codes["1"] == (("retreat",), ())
    assert codes["Z"] == (("disorder",), ())
    assert codes["U"] == (("rout",), ())
    assert codes["PZw"] == ((), ("disorder",))
    assert codes["PZw/1"] == ((), ("retreat",))
    assert codes["breakthrough"] == (("breakthrough",), ())
    assert codes["pursuit"] == (("pursuit",), ("disorder",))
    assert codes["counterattack"] == (("counterattack",), ())


def test_defaults_are_marked_with_why():
    data = raw_tables()
    for path in (
        ("die",),
        ("cohesion_test",),
        ("retreat_blocked",),
        ("force_ratio", "rounding"),
        ("procedures", "breakthrough"),
        ("procedures", "pursuit"),
        ("procedures", "counterattack"),
        ("procedures", "countercharge"),
        ("combining", "approaches"),
        ("readings", "routed_defender"),
    ):
        entry = data
        for key in path:
            entry = entry[key]
        assert entry["default"] is True and entry["why"], path
    assert data["cohesion_test"]["pass_if"] == "at_most"
    assert data["retreat_blocked"]["becomes"] == ["rout"]
    # The aid's melee results (0-4: pursuit, if countercharge) need the countercharge offered.
    assert data["procedures"]["countercharge"]["reaction"] is True
    assert data["procedures"]["breakthrough"]["advance"] == "may"
    assert data["procedures"]["pursuit"]["advance"] == "must"


def test_rule_references_as_printed():
    rows = {r["seed"]: r for r in raw_tables()["melee_table"]["rows"]}
    assert rows["10 lub więcej"]["attacker"]["rules"] == ["8.7", "9.5"]
    assert rows["5 do 9"]["attacker"]["rules"] == ["9.5"]
    assert rows["0 do 4"]["defender"]["rules"] == ["9.4", "9.5"]
    assert rows["Mniej niż 0"]["defender"]["rules"] == ["8.7", "9.5"]
    procedures = raw_tables()["procedures"]
    assert {k: v["rule"] for k, v in procedures.items()} == {
        "breakthrough": "8.7",
        "pursuit": "9.5",
        "counterattack": "8.7",
        "countercharge": "9.4",
    }


# --- Force ratio (8.6) -------------------------------------------------------------------


@pytest.mark.parametrize(
    "attack, defense, ratio, drm",
    [
        (4, 1, "4:1", 4),
        (100, 1, "4:1", 4),
        (5, 0, "4:1", 4),  # a defender of strength 0: the first row
        (3.99, 1, "3:1", 3),
        (399, 100, "3:1", 3),
        (3, 1, "3:1", 3),
        (29, 10, "2:1", 2),  # the documented default: 2.9:1 is 2:1
        (2, 1, "2:1", 2),
        (3, 2, "1.5:1", 1),
        (1.5, 1, "1.5:1", 1),
        (149, 100, "1:1", 0),
        (1.49, 1, "1:1", 0),
        (1, 1, "1:1", 0),
        (10, 12, "1:1.5", -1),  # 1:1.2 is 1:1.5
        (1, 1.2, "1:1.5", -1),
        (2, 3, "1:1.5", -1),
        (1, 1.51, "1:2", -2),
        (1, 2, "1:2", -2),
        (2, 5, "1:3", -3),
        (1, 3, "1:3", -3),
        (1, 3.5, "1:4", -4),
        (1, 4, "1:4", -4),
        (1, 9, "1:4", -4),
        (0, 5, "1:4", -4),
    ],
)
def test_force_ratio(attack, defense, ratio, drm):
    part = force_ratio_drm(attack, defense)
    assert (part.value, dict(part.params)["ratio"], part.rule) == (drm, ratio, "8.6")
    assert part.key == "melee.force_ratio"


@pytest.mark.parametrize("attack, defense", [(0, 0), (-1, 2), (2, -1), ("4", 1), (None, 1)])
def test_force_ratio_bad_strengths(attack, defense):
    with pytest.raises(ValueError):
        force_ratio_drm(attack, defense)


def test_force_ratio_sums_the_combat_units_only():
    parts = melee([inf(strength=3), inf(strength=3), Combatant("leader")], [inf(strength=2)])
    assert parts[0] == ("melee.force_ratio", 3, "8.6")  # 6:2 = 3:1


# --- Melee DRMs: one test per cell --------------------------------------------------------


def test_cohesion_is_best_attacker_minus_best_defender():
    parts = melee_modifiers(
        MeleeSituation(
            (inf(cohesion=3), inf(cohesion=6), Combatant("leader", cohesion=9)),
            (inf(cohesion=4), inf(cohesion=5)),
        )
    )
    assert (parts[1].key, parts[1].value, parts[1].rule) == ("melee.cohesion", 1, "8.6")
    assert dict(parts[1].params) == {"attacker": 6, "defender": 5}
    assert melee([inf(cohesion=2)], [inf(cohesion=7)])[1] == ("melee.cohesion", -5, "8.6")


def test_plain_melee_in_clear_has_only_the_three_computed_lines():
    assert melee([inf()], [inf()]) == BASE


def test_routed_defender():
    assert extra([inf()], [inf(routed=True)]) == [("melee.routed", 2, MELEE)]
    # Every defending unit must be routed (documented reading).
    assert extra([inf()], [inf(routed=True), inf()]) == []


def test_rear():
    assert extra([inf()], [inf()], position="rear") == [("melee.rear", 2, MELEE)]


def test_front_and_rear_is_not_added_to_rear():
    assert extra([inf(), inf()], [inf()], position="front_and_rear") == [
        ("melee.front_and_rear", 3, MELEE)
    ]


def test_front_and_rear_needs_adjacent_attackers():
    with pytest.raises(IllegalCombatError, match="melee DRM table"):
        melee([inf(), inf()], [inf()], position="front_and_rear", attackers_adjacent=False)
    # A rear attack has no such condition.
    assert extra([inf()], [inf()], position="rear", attackers_adjacent=False)


def test_front_gives_nothing():
    assert extra([inf()], [inf()], position="front") == []


def test_rear_in_enemy_front():
    assert extra([inf()], [inf()], rear_in_enemy_front=True) == [
        ("melee.rear_in_enemy_front", -1, MELEE)
    ]


def test_rear_in_enemy_front_is_added_to_the_position_modifiers():
    kw = {"rear_in_enemy_front": True}
    assert extra([inf()], [inf()], position="rear", **kw) == [
        ("melee.rear", 2, MELEE),
        ("melee.rear_in_enemy_front", -1, MELEE),
    ]
    assert extra([inf(), inf()], [inf()], position="front_and_rear", **kw) == [
        ("melee.front_and_rear", 3, MELEE),
        ("melee.rear_in_enemy_front", -1, MELEE),
    ]
    assert extra([inf()], [inf(routed=True)], position="rear", **kw) == [
        ("melee.routed", 2, MELEE),
        ("melee.rear_in_enemy_front", -1, MELEE),
    ]


def test_routed_is_not_combined_with_position():
    routed = [inf(routed=True)]
    # Equal (+2, +2): one line, the routed line printed first.
    assert extra([inf()], routed, position="rear") == [("melee.routed", 2, MELEE)]
    # +3 beats +2: only the front-and-rear line.
    assert extra([inf(), inf()], routed, position="front_and_rear") == [
        ("melee.front_and_rear", 3, MELEE)
    ]


def test_cavalry_melee_without_charge():
    assert extra([cav()], [inf()]) == [("melee.cavalry_melee", -2, MELEE)]
    assert extra([cav(), inf()], [inf()]) == [("melee.cavalry_melee", -2, MELEE)]
    assert extra([cav()], [inf()], charge=True) == [("melee.charge", 1, MELEE)]


def test_charge_with_heavy_cavalry():
    assert extra([cav(heavy=True), cav()], [inf()], charge=True) == [
        ("melee.heavy_charge", 3, MELEE)
    ]


def test_charge_by_non_heavy_cavalry():
    assert extra([cav(), cav()], [inf()], charge=True) == [("melee.charge", 1, MELEE)]
    # "Heavy" counts for cavalry only.
    assert extra([cav(), inf(heavy=True)], [inf()], charge=True) == [("melee.charge", 1, MELEE)]


def test_charge_against_a_square_loses_the_charge_bonus():
    square = [inf(in_square=True)]
    want = [("melee.charge_vs_square", -2, MELEE)]
    assert extra([cav(heavy=True)], square, charge=True) == want
    assert extra([cav()], square, charge=True) == want
    # Also when the charge is combined with an infantry attack (and then no infantry +1).
    assert extra([cav(), inf()], square, charge=True) == want


def test_only_infantry_attacking_a_square():
    square = [inf(in_square=True)]
    assert extra([inf(), inf()], square) == [("melee.infantry_vs_square", 1, MELEE)]
    assert extra([inf(), art()], square) == []
    assert extra([inf(), Combatant("leader")], square) == [("melee.infantry_vs_square", 1, MELEE)]
    # Cavalry meleeing a square without charging: the -2 for cavalry melee only.
    assert extra([cav()], square) == [("melee.cavalry_melee", -2, MELEE)]


def test_a_charge_needs_cavalry():
    with pytest.raises(IllegalCombatError) as e:
        melee([inf()], [inf()], charge=True)
    assert e.value.key == "combat.charge_without_cavalry"
    assert "melee DRM table" in str(e.value)


def test_no_combat_unit():
    with pytest.raises(ValueError):
        melee([Combatant("leader")], [inf()])
    with pytest.raises(ValueError):
        MeleeSituation((), (inf(),))
    with pytest.raises(ValueError):
        MeleeSituation((inf(),), (inf(),), position="flank")
    with pytest.raises(ValueError):
        Combatant("dragoons")


# --- Melee terrain: the terrain chart's Melee column and notes b, e, g, h -------------------


@pytest.mark.parametrize(
    "terrain, value, shown",
    [
        (("clear",), 1, "clear"),
        (("rough",), 0, "rough"),
        (("vineyard",), 0, "vineyard"),
        (("garden",), -1, "garden"),
        (("woods",), -1, "woods"),
        (("marsh",), -2, "marsh"),
        (("town",), -1, "town"),
        (("village",), -1, "village"),
        (("castle",), -3, "castle"),
        (("woods", "road"), -1, "woods"),  # road: use the other terrain (OT)
        (("road",), 1, "clear"),
        (("clear", "woods"), -1, "woods"),  # least favourable to the attacker (default)
        (("river", "bridge"), -3, "bridge"),  # (h): the bridge crosses a river
        (("clear", "bridge"), 1, "clear"),  # a bridge without a river is ignored (h)
    ],
)
def test_melee_target_hex_terrain(terrain, value, shown):
    parts = melee_modifiers(MeleeSituation((inf(),), (inf(),), terrain=terrain))
    p = parts[2]
    assert (p.key, p.value, p.rule, dict(p.params)) == (
        "melee.terrain",
        value,
        TT,
        {"terrain": shown},
    )


def test_melee_into_a_river_is_prohibited():
    with pytest.raises(IllegalCombatError, match="terrain table") as e:
        melee([inf()], [inf()], terrain=("river",))
    assert e.value.params["terrain"] == "river"


def test_unknown_terrain():
    with pytest.raises(UnknownTerrainError):
        melee([inf()], [inf()], terrain=("swamp_of_doom",))


@pytest.mark.parametrize(
    "feature, value",
    [("stream", -1), ("canal", -1), ("ford", -1), ("crest", 0), ("slope", -1), ("steep_slope", -2)],
)
def test_melee_across_a_hexside(feature, value):
    assert melee([inf(hexside=(feature,))], [inf()])[3:] == [("melee.hexside", value, TT)]


@pytest.mark.parametrize(
    "level, value",
    [(-1, -1), (-2, -2), (-3, -2), (1, 1), (2, 1), (5, 1)],
)
def test_melee_level(level, value):
    """``level``: attacker's level minus the defender's; -1 attacks one level up (-1)."""
    assert melee([inf(level=level)], [inf()])[3:] == [("melee.level", value, TT)]


def test_melee_over_a_bridge_crossing_a_stream_keeps_the_stream_only():
    assert extra([inf(hexside=("stream", "bridge"))], [inf()]) == [
        ("melee.bridge_ignored", 0, "terrain table (h)"),
        ("melee.hexside", -1, TT),
    ]


def test_melee_over_a_bridge_crossing_a_river_hexside():
    assert extra([inf(hexside=("river", "bridge"))], [inf()]) == [("melee.hexside", -3, TT)]


def test_redoubt_into_is_not_combined_with_the_hex_terrain():
    """(g): across a redoubt or wall -2, fortification -3; not added to the hex's own modifier."""
    for works, value in (("redoubt", -2), ("wall", -2), ("fortification", -3)):
        parts = melee([inf(hexside=(works,))], [inf()])
        assert parts[2:] == [("melee.works", value, "terrain table (g)")]
    # Town (-1) behind a wall (-2): the least favourable one only.
    assert melee([inf(hexside=("wall",))], [inf()], terrain=("town",))[2:] == [
        ("melee.works", -2, "terrain table (g)")
    ]
    # Castle (-3) behind a fortification (-3): one line.
    assert len(melee([inf(hexside=("fortification",))], [inf()], terrain=("castle",))) == 3


def test_attacking_out_of_a_redoubt():
    assert extra([inf(works_held=("redoubt",))], [inf()]) == [
        ("melee.works_from", -1, "terrain table (g)")
    ]
    # From a town behind its wall: the (b) -1 and the wall's -1 are not combined.
    assert len(extra([inf(terrain=("town",), works_held=("wall",))], [inf()])) == 1
    with pytest.raises(ValueError):
        melee([inf(works_held=("stream",))], [inf()])


def test_note_b_units_in_town_attack_at_minus_1():
    for terrain in (("town",), ("village",), ("ruins",), ("castle",)):
        assert extra([inf(terrain=terrain)], [inf()]) == [
            ("melee.six_front_attacker", -1, "terrain table (b)")
        ]
    assert extra([inf(terrain=("woods",))], [inf()]) == []


def test_note_b_cavalry_in_town_gives_plus_2_if_infantry_attacks():
    b = ("melee.six_front_cavalry", 2, "terrain table (b)")
    assert b in melee([inf()], [cav()], terrain=("village",))
    assert b in melee([inf(), cav()], [cav(), inf()], terrain=("town",))
    assert b not in melee([cav()], [cav()], terrain=("town",))
    assert b not in melee([inf()], [inf()], terrain=("town",))
    assert b not in melee([inf()], [cav()], terrain=("woods",))


def test_attackers_from_several_hexes_take_the_least_favourable_approach():
    parts = melee([inf(), inf(hexside=("stream",), level=-1)], [inf()])
    assert parts[2:] == [
        ("melee.terrain", 1, TT),
        ("melee.hexside", -1, TT),
        ("melee.level", -1, TT),
    ]
    # Attacking down a level (+1) from one hex does not help when another attacks on the level.
    assert melee([inf(), inf(level=1)], [inf()])[2:] == [("melee.terrain", 1, TT)]


@pytest.mark.parametrize(
    "where, kw",
    [
        ("against", {"terrain": ("woods",)}),
        ("against", {"terrain": ("rough",)}),
        ("against", {"terrain": ("town",)}),
        ("against", {"terrain": ("river", "bridge")}),
        ("from", {"attackers": (cav(terrain=("garden",)),)}),
        ("through", {"attackers": (cav(hexside=("slope",)),)}),
        ("through", {"attackers": (cav(hexside=("crest",)),)}),
        ("through", {"attackers": (cav(hexside=("redoubt",)),)}),
        ("through", {"attackers": (cav(works_held=("wall",)),)}),
    ],
)
def test_note_e_no_charge_from_through_or_against(where, kw):
    situation = {"attackers": (cav(),), "defenders": (inf(),), "charge": True, **kw}
    with pytest.raises(IllegalCombatError, match=r"terrain table \(e\)") as e:
        melee_modifiers(MeleeSituation(**situation))
    assert e.value.params["where"] == where
    assert isinstance(e.value, RulesError) and isinstance(e.value, ValueError)
    # The same melee without a charge is allowed.
    melee_modifiers(MeleeSituation(**{**situation, "charge": False}))


def test_charges_allowed_across_a_stream_and_into_clear():
    assert ("melee.charge", 1, MELEE) in melee([cav(hexside=("stream",))], [inf()], charge=True)


# --- Fire DRMs: one test per cell ---------------------------------------------------------


def test_fire_strength():
    assert fire([art(fire_strength=7)], [art()], range=2)[0] == ("fire.fire_strength", 7, FIRE)


def test_combined_fire_of_two_artillery_of_one_formation():
    parts = fire([art(formation="1", fire_strength=5), art(formation="1")], [art()], range=2)
    assert parts[:2] == [("fire.fire_strength", 6, FIRE), ("fire.combined_fire", 2, FIRE)]
    with pytest.raises(IllegalCombatError):
        fire([art(formation="1"), art(formation="2")], [art()])
    with pytest.raises(IllegalCombatError):
        fire([art(), art(), art()], [art()])


def test_only_artillery_fires():
    with pytest.raises(IllegalCombatError) as e:
        fire([inf(fire_strength=3, effective_range=2)], [inf()])
    assert e.value.params["type"] == "infantry"


def test_firer_with_six_front_hexes():
    want = ("fire.six_front_firer", -1, FIRE)
    assert want in fire([art(terrain=("village",))], [art()])
    assert want in fire([art(in_square=True)], [art()])
    assert want not in fire([art(terrain=("woods",))], [art()])


@pytest.mark.parametrize("kind, rule", [("reaction", "8.3"), ("counter_battery", "7.6")])
def test_reaction_and_counter_battery_fire(kind, rule):
    assert (f"fire.{kind}", -1, rule) in fire([art()], [art()], kind=kind)
    assert not any(k.startswith("fire.reaction") for k, _, _ in fire([art()], [art()]))


@pytest.mark.parametrize(
    "terrain, value",
    [
        (("clear",), 0),
        (("rough",), 0),
        (("woods",), -1),
        (("town",), -2),
        (("castle",), -2),
        (("marsh",), 0),
        (("woods", "road"), -1),
        (("clear", "town"), -2),
    ],
)
def test_fire_target_terrain(terrain, value):
    assert fire([art()], [art()], terrain=terrain)[1] == ("fire.terrain", value, TT)


def test_fire_at_a_target_behind_works():
    assert fire([art()], [art()], hexside=("redoubt",))[1] == (
        "fire.works",
        -1,
        "terrain table (g)",
    )
    assert fire([art()], [art()], hexside=("fortification",))[1][:2] == ("fire.works", -2)
    # Not combined with the hex (g): town -2 behind a wall -1 gives -2 once.
    parts = fire([art()], [art()], terrain=("town",), hexside=("wall",))
    assert parts[1] == ("fire.terrain", -2, TT) and parts[2][0] != "fire.works"


@pytest.mark.parametrize("level, value", [(-1, -1), (-2, -1), (-4, -1), (1, 0), (2, -1), (3, -1)])
def test_fire_level_at_close_range_only(level, value):
    """(f): the level modifiers for fire apply to one-hex fire only (-1 level: NE anyway)."""
    rule = TT + (" (f)" if value else "")
    assert ("fire.level", value, rule) in fire([art()], [art()], level=level)
    far = [(k, v) for k, v, _ in fire([art()], [art()], level=level, range=2) if k == "fire.level"]
    assert far == ([("fire.level", 0)] if level == 1 else [])


@pytest.mark.parametrize("feature", ["crest", "steep_slope"])
def test_crest_and_steep_slope_block_adjacent_fire(feature):
    with pytest.raises(IllegalCombatError, match=r"terrain table \(f\)"):
        fire([art()], [art()], hexside=(feature,))
    assert fire([art()], [art()], hexside=(feature,), range=2)[1][0] == "fire.terrain"


def test_fire_across_other_hexsides_has_no_effect():
    for feature in ("stream", "canal", "slope"):
        assert ("fire.hexside", 0, TT) in fire([art()], [art()], hexside=(feature,), range=2)
    bridge = ("fire.bridge_ignored", 0, "terrain table (h)")
    assert bridge in fire([art()], [art()], hexside=("stream", "bridge"))


def test_concentrated_target():
    want = ("fire.concentrated", 1, FIRE)
    assert want in fire([art()], [inf(), inf()], range=2)
    assert want in fire([art()], [inf(), cav()], range=2)
    assert want not in fire([art()], [inf(), art()], range=2)
    assert want not in fire([art()], [art(), art()], range=2)
    assert want not in fire([art()], [inf(), Combatant("leader")], range=2)


def test_target_in_square():
    assert ("fire.square", 1, FIRE) in fire([art()], [inf(in_square=True)], range=2)


def test_adjacent_fire_against_infantry_or_cavalry():
    want = ("fire.adjacent", 1, FIRE)
    assert want in fire([art()], [inf()])
    assert want in fire([art()], [cav()])
    assert want in fire([art()], [art(), inf()])
    assert want not in fire([art()], [art()])
    assert want not in fire([art()], [inf()], range=2)


def test_fire_within_effective_range():
    assert fire([art(effective_range=4)], [art()], range=4)[-1] == ("fire.effective_range", 0, FIRE)


@pytest.mark.parametrize("rng, value", [(5, -2), (6, -4), (9, -10)])
def test_long_range_minus_2_per_hex_beyond(rng, value):
    assert fire([art(effective_range=4)], [art()], range=rng)[-1] == (
        "fire.long_range",
        value,
        FIRE,
    )


def test_combined_fire_uses_the_shorter_effective_range():
    firers = [art(formation="a", effective_range=5), art(formation="a", effective_range=3)]
    assert fire(firers, [art()], range=4)[-1] == ("fire.long_range", -2, FIRE)


def test_fire_situation_checks():
    for bad in ({"range": 0}, {"kind": "volley"}):
        with pytest.raises(ValueError):
            FireSituation((art(),), (inf(),), **bad)


def test_fire_example_totals():
    parts = fire_modifiers(
        FireSituation((art(fire_strength=5),), (inf(), inf()), terrain=("woods",))
    )
    assert total(parts) == 5 - 1 + 1 + 1 + 0  # strength, woods, concentrated, adjacent


# --- Fire table ---------------------------------------------------------------------------


def expected_fire(total_: int) -> tuple[str, ...]:
    if total_ >= 15:
        return ("U",)
    if total_ >= 13:
        return ("Z",)
    if total_ >= 9:
        return ("PZw",)
    return ()


@pytest.mark.parametrize("total_", range(-5, 26))
def test_fire_table(total_):
    assert fire_result(0, total_).cells["result"].codes == expected_fire(total_)
    assert fire_result(9, total_ - 9).cells["result"].codes == expected_fire(total_)


def test_fire_table_rows():
    rows = load_tables().fire_table
    assert [(r.low, r.high) for r in rows] == [(15, None), (13, 14), (9, 12), (None, 8)]
    assert [r.seed for r in rows[:3]] == ["15 i więcej | U", "13 do 14 | Z", "9 do 12 | PZw"]


# --- Melee results table ------------------------------------------------------------------


def expected_melee(r: int) -> tuple:
    """(defender codes, italic cavalry codes, attacker codes, italic cavalry codes)."""
    if r >= 10:
        return ("1", "Z"), None, ("breakthrough",), ("pursuit",)
    if r >= 5:
        return ("1", "PZw"), None, (), ("pursuit",)
    if r >= 0:
        return (), ("pursuit",), ("Z", "PZw/1"), None
    return ("counterattack",), ("pursuit",), ("Z", "PZw/1"), None


@pytest.mark.parametrize("r", range(-6, 20))
def test_melee_results_table(r):
    row = melee_result(r)
    d, a = row.cells["defender"], row.cells["attacker"]
    assert (d.codes, d.cavalry, a.codes, a.cavalry) == expected_melee(r)


def test_melee_results_rows():
    rows = load_tables().melee_table
    assert [(r.low, r.high, r.seed) for r in rows] == [
        (10, None, "10 lub więcej"),
        (5, 9, "5 do 9"),
        (0, 4, "0 do 4"),
        (None, -1, "Mniej niż 0"),
    ]
    assert rows[2].cells["defender"].when == "countercharge_and_attacker_retreats"


# --- Cohesion tests and exact distributions ---------------------------------------------


@pytest.mark.parametrize(
    "roll, mods, cohesion, ok",
    [(5, 0, 5, True), (6, 0, 5, False), (0, 0, 0, True), (3, 2, 5, True), (4, 2, 5, False)],
)
def test_cohesion_test_passes_at_most_cohesion(roll, mods, cohesion, ok):
    assert cohesion_test_passes(roll, cohesion, mods) is ok


def brute_fire(drm: int, cohesion: int, mods: int) -> dict:
    counts: Counter = Counter()
    for roll in range(10):
        for test in range(10):
            t = roll + drm
            if t >= 15:
                effects = ["rout"]
            elif t >= 13:
                effects = ["disorder"]
            elif t >= 9:
                effects = [] if test + mods <= cohesion else ["disorder"]
            else:
                effects = []
            counts[(tuple(effects),)] += 1
    return {k: Fraction(n, 100) for k, n in counts.items()}


def brute_melee(drm, ac, dc, acav, dcav, countercharge=False, mods=(0, 0), retreat=(True, True)):
    """Every combat roll, attacker test die and defender test die, counted (1,000 cases)."""
    counts: Counter = Counter()
    for roll in range(10):
        for ta in range(10):
            for td in range(10):
                r, a_ok, d_ok = roll + drm, ta + mods[0] <= ac, td + mods[1] <= dc
                pursue_a = ["pursuit"] + ([] if a_ok else ["disorder"])
                pursue_d = ["pursuit"] + ([] if d_ok else ["disorder"])
                if r >= 10:
                    d, a = ["retreat", "disorder"], pursue_a if acav else ["breakthrough"]
                elif r >= 5:
                    d = ["retreat"] + ([] if d_ok else ["disorder"])
                    a = pursue_a if acav else []
                else:
                    a = ["disorder"] + ([] if a_ok else ["retreat"])
                    if not retreat[0]:
                        a = ["rout" if x == "retreat" else x for x in a]
                    fled = "retreat" in a or "rout" in a
                    if r >= 0:
                        d = pursue_d if dcav and countercharge and fled else []
                    else:
                        d = pursue_d if dcav else ["counterattack"]
                if not retreat[1]:
                    d = ["rout" if x == "retreat" else x for x in d]
                counts[(tuple(d), tuple(a))] += 1
    return {k: Fraction(n, 1000) for k, n in counts.items()}


def as_dist(outcomes, sides) -> dict:
    return {tuple(tuple(o[s]) for s in sides): p for o, p in outcomes}


@pytest.mark.parametrize("drm", range(-6, 21))
def test_fire_distribution_against_brute_force(drm):
    for cohesion in range(0, 10, 3):
        for mods in (0, 2):
            got = fire_distribution(drm, cohesion, mods)
            assert sum(p for _, p in got) == 1
            assert as_dist(got, ("target",)) == brute_fire(drm, cohesion, mods)


@pytest.mark.parametrize("drm", range(-7, 12))
def test_melee_distribution_against_brute_force(drm):
    for ac, dc in ((2, 6), (7, 3)):
        for acav in (False, True):
            for dcav in (False, True):
                got = melee_distribution(drm, ac, dc, acav, dcav)
                assert sum(p for _, p in got) == 1
                want = brute_melee(drm, ac, dc, acav, dcav)
                assert as_dist(got, ("defender", "attacker")) == want, (drm, ac, dc, acav, dcav)


@pytest.mark.parametrize("drm", [-3, 0, 2, 4, 5, 8, 10])
def test_melee_distribution_options_against_brute_force(drm):
    for kw in (
        {"countercharge": True},
        {"mods": (1, -2)},
        {"retreat": (False, True)},
        {"retreat": (True, False)},
        {"countercharge": True, "retreat": (False, False)},
    ):
        got = melee_distribution(
            drm,
            5,
            4,
            True,
            True,
            countercharge=kw.get("countercharge", False),
            cohesion_modifiers=kw.get("mods", (0, 0)),
            can_retreat=kw.get("retreat", (True, True)),
        )
        assert sum(p for _, p in got) == 1
        assert as_dist(got, ("defender", "attacker")) == brute_melee(drm, 5, 4, True, True, **kw)


def test_a_worked_example():
    """DRM +4, defender cohesion 5 (tests pass on 0-5): rolls 6-9 give 10+ (1 + Z, 40 %); rolls
    1-5 give 5-9 (1 + PZw) and the test fails on 6-9 (4 in 10): 5/10 x 4/10 = 20 %."""
    dist = as_dist(melee_distribution(4, 5, 5, False), ("defender", "attacker"))
    assert dist[(("retreat", "disorder"), ("breakthrough",))] == Fraction(2, 5)
    assert dist[(("retreat", "disorder"), ())] == Fraction(1, 5)
    assert dist[(("retreat",), ())] == Fraction(3, 10)
    # Roll 0: total 4, the attacker is disordered and tests (passes on 0-5).
    assert dist[((), ("disorder",))] == Fraction(6, 100)
    assert dist[((), ("disorder", "retreat"))] == Fraction(4, 100)
    retreat_and_disorder = sum(p for (d, _), p in dist.items() if d == ("retreat", "disorder"))
    assert retreat_and_disorder == Fraction(3, 5)


def test_distribution_shape_is_json_and_likeliest_first():
    got = melee_distribution(5, 5, 5, True)
    json.dumps([o for o, _ in got])
    assert all(set(o) == {"defender", "attacker"} for o, _ in got)
    assert [p for _, p in got] == sorted((p for _, p in got), reverse=True)
    assert all(isinstance(p, Fraction) and p > 0 for _, p in got)
    assert fire_distribution(20, 5) == [({"target": ["rout"]}, Fraction(1))]
    assert fire_distribution(-20, 5) == [({"target": []}, Fraction(1))]


def test_a_full_preview():
    """Modifiers and odds together: infantry 8 vs 4 in woods, attacking uphill from the rear."""
    s = MeleeSituation(
        (inf(strength=8, cohesion=6, level=-1),), (inf(),), terrain=("woods",), position="rear"
    )
    parts = melee_modifiers(s)
    assert [(p.key, p.value) for p in parts] == [
        ("melee.force_ratio", 2),
        ("melee.cohesion", 1),
        ("melee.terrain", -1),
        ("melee.level", -1),
        ("melee.rear", 2),
    ]
    dist = melee_distribution(total(parts), 6, 5, False)
    assert sum(p for _, p in dist) == 1


# --- combat.json validation ---------------------------------------------------------------


def broken(edit) -> str:
    data = copy.deepcopy(raw_tables())
    edit(data)
    with pytest.raises(CombatDataError) as e:
        parse_tables(data)
    assert isinstance(e.value, ValueError)
    return str(e.value)


def test_the_shipped_tables_parse():
    assert parse_tables(raw_tables()).melee["rear"].value == 2


def test_malformed_data_names_the_place():
    def no_why(d):
        del d["procedures"]["pursuit"]["why"]

    assert "procedures.pursuit" in broken(no_why)
    assert "system" in broken(lambda d: d.update(system="hex-hexside"))
    assert "die" in broken(lambda d: d["die"].update(sides=0))
    assert "combining.works" in broken(lambda d: d["combining"]["works"].update(value="random"))
    assert "readings.square" in broken(lambda d: d["readings"].pop("square"))
    assert "combat_types" in broken(lambda d: d["combat_types"].update(value=["dragoons"]))

    def bad_value(d):
        d["melee_modifiers"]["rows"][4]["value"] = "2"

    assert "melee_modifiers row 'rear'" in broken(bad_value)

    def reorder(d):
        rows = d["melee_modifiers"]["rows"]
        rows[3], rows[4] = rows[4], rows[3]

    assert "melee_modifiers" in broken(reorder)
    assert "not_with" in broken(
        lambda d: d["melee_modifiers"]["rows"][3].update(not_with=["flank"])
    )
    assert "fire_modifiers row 'adjacent' range" in broken(
        lambda d: d["fire_modifiers"]["rows"][7].update(range="1")
    )

    def gap(d):
        d["melee_table"]["rows"][1]["roll"] = [6, 9]

    assert "melee_table.rows[2]" in broken(gap)

    def unknown_code(d):
        d["melee_table"]["rows"][0]["defender"]["codes"] = ["1", "X"]

    assert "melee_table.rows[0] defender" in broken(unknown_code)

    def ratio_order(d):
        d["force_ratio"]["rows"][2]["attacker"] = 5

    assert "force_ratio.rows[2]" in broken(ratio_order)
    assert "terrain_notes 'b'" in broken(lambda d: d["terrain_notes"]["b"].pop("cavalry_defender"))
    assert "codes 'PZw'" in broken(lambda d: d["codes"]["PZw"].pop("failed"))
