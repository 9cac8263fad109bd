"""hex-hexside tables: one test per cell of combat.json, exact d6 odds, and malformed data."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest

from muster.dice import D6
from muster.systems.hex_hexside.tables import (
    RallyFacts,
    crt_result,
    deep_charge_probability,
    is_stand_in_crt,
    load_tables,
    morale_effects,
    odds_column,
    parse_tables,
    rally_modifiers,
    rally_probability,
    raw_tables,
)

# The aid's combat sequence, in order: (id, French as printed, English).
SEQUENCE = [
    ("designate_attack", "Désignation de l'attaque", "Designate the attack"),
    ("retreat_before_combat", "retrait avant le combat", "Retreat before combat"),
    ("determine_odds", "Détermination du rapport", "Determine the odds"),
    ("select_lead_units", "Sélection des unités à la tête du combat", "Select the lead units"),
    ("determine_drm", "Déterminer le modificateur (DRM)", "Determine the DRM"),
    ("resolve_combat", "Résoudre le combat", "Resolve the combat"),
    ("leader_loss_check", "Test des pertes de chef", "Leader loss check"),
    ("apply_results", "Application des résultats", "Apply the results"),
    ("advance_after_combat", "Avance après combat", "Advance after combat"),
    ("extended_attack", "Attaque/Avance prolongé", "Extended attack / advance"),
    ("winning_combat_marker", "Gain de pion de Combat Gagnant", 'Gain a "Winning Combat" marker'),
    ("cavalry_action", "Action de cavalerie", "Cavalry action"),
]
# Rally modifiers: facts that trigger exactly one row (beside the +1 far from the enemy that
# every unit with no enemy within 3 hexes gets), and that row's value.
FAR = {"enemy_distance": 2}
RALLY = [
    ("leader", {"leader": 2, **FAR}, 2),
    ("leader", {"leader": -1, **FAR}, -1),
    ("far_from_enemy", {"enemy_distance": 4}, 1),
    ("far_from_enemy", {"enemy_distance": None}, 1),
    ("infantry_in_cover", {"terrain": ("woods",), **FAR}, 1),
    ("infantry_in_cover", {"terrain": ("town",), **FAR}, 1),
    ("infantry_in_cover", {"terrain": ("walled_town",), **FAR}, 1),
    ("friendly_shaken", {"friendly_shaken": True, **FAR}, -1),
    ("adjacent_enemy", {"enemy_distance": 1}, -1),
    ("army_demoralized", {"army": "demoralized", **FAR}, -1),
    ("army_broken", {"army": "broken", **FAR}, -2),
]
MORALE = [
    (5, {"may_retreat_voluntarily", "immune_to_r"}),
    (4, {"loss_with_step_loss_disorder", "r_gives_disorder"}),
    (3, {"loss_with_step_loss_rout", "r_gives_disorder", "S_means_surrender"}),
    (6, {"may_retreat_voluntarily", "immune_to_r"}),
    (9, {"may_retreat_voluntarily", "immune_to_r"}),
    (2, {"loss_with_step_loss_rout", "r_gives_disorder", "S_means_surrender"}),
    (0, {"loss_with_step_loss_rout", "r_gives_disorder", "S_means_surrender"}),
]
# The stand-in CRT, as written in combat.json: rows are d6 rolls, columns 1:3 .. 4:1.
COLUMNS = ["1:3", "1:2", "1:1", "2:1", "3:1", "4:1"]
CRT = {
    1: ["A2", "A1 Ar", "A1", "Ar", "", "Dr"],
    2: ["A1 Ar", "A1", "Ar", "", "Dr", "EX"],
    3: ["A1", "Ar", "", "Dr", "EX", "D1"],
    4: ["Ar", "", "Dr", "EX", "D1", "D1 Dr"],
    5: ["", "Dr", "EX", "D1", "D1 Dr", "D2"],
    6: ["Dr", "EX", "D1", "D1 Dr", "D2", "D1 DS"],
}
CELLS = [(c, r, tuple(CRT[r][i].split())) for r in CRT for i, c in enumerate(COLUMNS)]
ODDS = [
    (1, 9, "1:3"), (1, 4, "1:3"), (1, 3, "1:3"), (2, 5, "1:3"), (1, 2, "1:2"), (2, 3, "1:2"),
    (3, 3, "1:1"), (7, 4, "1:1"), (2, 1, "2:1"), (11, 4, "2:1"), (3, 1, "3:1"), (15, 4, "3:1"),
    (4, 1, "4:1"), (9, 1, "4:1"), (1, 0, "4:1"), (0, 5, "1:3"), (Fraction(7, 2), 1, "3:1"),
]  # fmt: skip


def d6_chance(test) -> Fraction:
    """The chance of ``test(face)`` by counting the faces of a d6."""
    return Fraction(sum(1 for f in D6.faces if test(f)), 6)


@pytest.mark.parametrize("index", range(12))
def test_combat_sequence_step(index):
    step = raw_tables()["combat_sequence"]["steps"][index]
    assert (step["step"], step["id"], step["seed"], step["name"]) == (index + 1, *SEQUENCE[index])
    assert load_tables().sequence[index] == SEQUENCE[index][0]


def test_combat_sequence_in_order():
    assert load_tables().sequence == tuple(s[0] for s in SEQUENCE)


@pytest.mark.parametrize(("row", "facts", "value"), RALLY)
def test_rally_modifier_row(row, facts, value):
    parts = [p for p in rally_modifiers(RallyFacts(**facts)) if p.key != "rally.far_from_enemy"]
    if row == "far_from_enemy":
        parts = rally_modifiers(RallyFacts(**facts))
    assert [(p.key, p.value, p.rule) for p in parts] == [(f"rally.{row}", value, "rally modifiers")]


def test_rally_leader_part_names_the_modifier():
    (part,) = rally_modifiers(RallyFacts(leader=1, enemy_distance=2))
    assert part.params == (("modifier", 1),)


@pytest.mark.parametrize("facts", [{}, {"unit_type": "cavalry", "terrain": ("woods",)}])
def test_rally_no_modifier(facts):
    assert rally_modifiers(RallyFacts(enemy_distance=3, **facts)) == []


def test_rally_all_rows_in_order():
    facts = RallyFacts(1, None, "infantry", ("clear", "town"), True, "broken")
    keys = [p.key for p in rally_modifiers(facts)]
    assert keys == ["rally.leader", "rally.far_from_enemy", "rally.infantry_in_cover"] + [
        "rally.friendly_shaken",
        "rally.army_broken",
    ]


def test_rally_rows_keep_the_seed_and_signed_reading():
    rows = raw_tables()["rally_modifiers"]["rows"]
    assert [r["seed"].split()[0] for r in rows] == ["+?", "+1", "+1", "1", "1", "1", "2"]
    assert [r["value"] for r in rows][1:] == [1, 1, -1, -1, -1, -2]
    assert rows[0]["value"] == "leader_morale_modifier"


@pytest.mark.parametrize("morale", range(0, 8))
@pytest.mark.parametrize("total", range(-3, 3))
def test_rally_probability_by_enumeration(morale, total):
    mods = rally_modifiers(RallyFacts(leader=total, enemy_distance=2))
    assert rally_probability(morale, mods) == d6_chance(lambda f: f <= morale + total)


def test_rally_probability_bounds():
    assert rally_probability(3, rally_modifiers(RallyFacts(army="broken", enemy_distance=1))) == 0
    assert rally_probability(5, rally_modifiers(RallyFacts(leader=2))) == 1


@pytest.mark.parametrize(("morale", "flags"), MORALE)
def test_morale_effects_row(morale, flags):
    assert morale_effects(morale) == frozenset(flags)


def test_morale_effect_flags_are_defined():
    data = raw_tables()["morale_effects"]
    assert {f for r in data["rows"] for f in r["flags"]} == set(data["flags"])


def test_deep_charge_rule():
    dc = raw_tables()["deep_charges"]
    assert (dc["rule"], dc["at_least"], dc["effect"]) == ("19.11.1", 11, "must_attack")
    who = {"unit_types": ["cavalry"], "engaged": True, "formed": True, "not_tried_this_turn": True}
    assert dc["who"] == who
    assert dc["total"] == ["die", "unit_morale", "stacked_leader_morale_modifier"]
    assert "11 ou plus" in dc["seed"] and "(19.11.1)" in dc["seed"]


@pytest.mark.parametrize("morale", range(2, 8))
@pytest.mark.parametrize("leader", range(-1, 4))
def test_deep_charge_probability_by_enumeration(morale, leader):
    expected = d6_chance(lambda f: f + morale + leader >= 11)
    assert deep_charge_probability(morale, leader) == expected


def test_deep_charge_boundaries():
    assert deep_charge_probability(5) == Fraction(1, 6)
    assert deep_charge_probability(4) == 0
    assert deep_charge_probability(5, 5) == 1


@pytest.mark.parametrize(("column", "roll", "codes"), CELLS)
def test_crt_cell(column, roll, codes):
    assert crt_result(column, roll) == codes


@pytest.mark.parametrize(("roll", "row"), [(-2, 1), (0, 1), (7, 6), (12, 6)])
def test_crt_modified_roll_kept_to_rows(roll, row):
    assert [crt_result(c, roll) for c in COLUMNS] == [crt_result(c, row) for c in COLUMNS]


def test_crt_is_a_marked_stand_in():
    crt = raw_tables()["crt"]
    assert is_stand_in_crt() and crt["stand_in"] is True
    assert "does not include" in crt["why"] and "replace" in crt["why"]
    assert [c["label"] for c in crt["columns"]] == COLUMNS


@pytest.mark.parametrize(("attack", "defence", "column"), ODDS)
def test_odds_column(attack, defence, column):
    assert odds_column(attack, defence) == column


def test_odds_default_is_marked():
    odds = raw_tables()["odds"]
    assert odds["default"] is True and odds["why"]
    assert (odds["strength"], odds["rounding"]) == ("all_units", "defender_favour")


@pytest.mark.parametrize("section", ["rally_roll", "morale_effects.beyond", "odds"])
def test_engine_defaults_are_marked(section):
    here = raw_tables()
    for name in section.split("."):
        here = here[name]
    assert here["default"] is True and len(here["why"]) > 20


@pytest.mark.parametrize(("attack", "defence"), [(0, 0), (-1, 2), (2, -1), (True, 1), ("3", 1)])
def test_odds_bad_strengths(attack, defence):
    with pytest.raises(ValueError, match="odds"):
        odds_column(attack, defence)


@pytest.mark.parametrize(("column", "roll"), [("5:1", 3), ("1:1", 2.5), ("1:1", None)])
def test_crt_bad_lookup(column, roll):
    with pytest.raises(ValueError):
        crt_result(column, roll)


def test_owner_crt_replaces_the_stand_in():
    data = raw_tables()
    data["crt"]["stand_in"] = False
    data["crt"]["rows"][0]["cells"]["1:1"] = ["D2"]
    tables = parse_tables(data)
    assert not is_stand_in_crt(tables)
    assert crt_result("1:1", 1, tables) == ("D2",)


def _set(path, value):
    data = raw_tables()
    here = data
    *parents, last = path
    for name in parents:
        here = here[name]
    if value is KeyError:
        del here[last]
    else:
        here[last] = value
    return data


MALFORMED = [
    (("die", "sides"), "6", "die.sides"),
    (("combat_sequence", "steps", 0, "id"), "attack", "combat_sequence.steps"),
    (("combat_sequence", "steps", 3, "step"), 5, "combat_sequence.steps"),
    (("rally_modifiers", "rows", 0, "value"), 1, "leader"),
    (("rally_modifiers", "rows", 3, "value"), "-1", "friendly_shaken.value"),
    (("rally_modifiers", "rows", 1, "min_hexes"), KeyError, "min_hexes"),
    (("rally_modifiers", "rows", 2, "terrains"), ["woods"], "terrains.value"),
    (("rally_roll", "default"), KeyError, "rally_roll.default"),
    (("rally_roll", "pass_if"), "below", "rally_roll.pass_if"),
    (("deep_charges", "at_least"), 11.0, "deep_charges.at_least"),
    (("morale_effects", "rows", 0, "flags"), ["brave"], "morale_effects.rows[0]"),
    (("morale_effects", "rows", 1, "morale"), 2, "consecutive"),
    (("odds", "strength"), "best_unit", "odds.strength"),
    (("crt", "columns", 1, "defender"), 4, "crt.columns[1]"),
    (("crt", "columns", 0, "label"), KeyError, "crt.columns[0].label"),
    (("crt", "rows", 5), KeyError, "one row for each face"),
    (("crt", "rows", 2, "roll"), 7, "crt.rows[2].roll"),
    (("crt", "rows", 4, "cells", "2:1"), ["D9"], "crt.rows[4].cells.2:1"),
    (("crt", "rows", 4, "cells", "9:1"), [], "crt.rows[4].cells"),
    (("crt", "codes", "EX", "side"), "neither", "crt.codes.EX.side"),
    (("crt", "stand_in"), "yes", "crt.stand_in"),
    (("crt", "roll_limits", "value"), "wrap", "crt.roll_limits.value"),
]


@pytest.mark.parametrize(("path", "value", "place"), MALFORMED)
def test_malformed_data_names_the_place(path, value, place):
    with pytest.raises(ValueError, match="combat.json: .*" + place.replace("[", r"\[")):
        parse_tables(_set(path, value))


def test_parse_does_not_change_its_input():
    data = raw_tables()
    before = copy.deepcopy(data)
    parse_tables(data)
    assert data == before
