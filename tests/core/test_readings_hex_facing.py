"""hex-facing's readings of what the aid leaves open, each on a position that shows it: where a
retreat may go, a fire that cannot have an effect, a disordered unit in a melee. Positions are
written as in test_fight_hex_facing.py (flat map, even columns lower; facing 0 upper right, 2
lower right, 8 upper left). Rule text quoted is from rules/hex-facing.md ("the aid")."""

from __future__ import annotations

import copy

import pytest
from test_fight_hex_facing import RULES, at_step, scenario

from muster.errors import IllegalActionError
from muster.hexgrid import hex_distance
from muster.scenario import parse_scenario

# == a retreat goes farther from every unit it falls back from ====================================


def two_attackers_win():
    """a1 in 0303 and a2 in 0304 melee d1 in 0403 (both from its front) and win 1 + Z: d1
    must retreat one hex."""
    sc = scenario(
        [
            {"id": "a1", "hex": "0303", "facing": 2, "ratings": {"strength": 6, "cohesion": 7}},
            {"id": "a2", "hex": "0304", "facing": 0, "ratings": {"strength": 6, "cohesion": 7}},
            {
                "id": "d1",
                "side": "au",
                "hex": "0403",
                "facing": 8,
                "ratings": {"strength": 6, "cohesion": 5},
            },
        ]
    )
    g = at_step(sc, "combat")
    melee = {"type": "melee", "target": "0403", "attackers": ["a1", "a2"]}
    total = RULES.preview(sc, g.state, melee)["total"]
    g.apply(melee)
    g.apply({"type": "roll", "value": max(0, 10 - total)})  # 10 or more: defender 1 + Z
    return sc, g


def test_a_retreat_is_never_into_a_hex_next_to_an_attacker():
    # "1 = wycofanie o 1 heks" ("retreat one hex"): the aid says no more. Of d1's open
    # neighbours 0402 is farther from a2 but still next to a1, and 0404 the other way round:
    # the sum of the distances (the former reading) offered both. Only 0503 and 0504 get away
    # from both attackers.
    sc, g = two_attackers_win()
    options = [a["to"] for a in g.legal_actions() if a["type"] == "retreat"]
    assert options == ["0503", "0504"]
    for label in options:
        for attacker in ("0303", "0304"):
            assert hex_distance(sc.hex_at(label), sc.hex_at(attacker)) == 2
    # The prompt says why, and that it is Muster's reading of the aid.
    prompt = RULES.prompt(sc, g.state)
    assert prompt is not None
    assert prompt["why"] == {"key": "why.hf_retreat", "params": {"unit": "d1", "count": 2}}


@pytest.mark.parametrize(
    "to, key, params",
    [
        ("0402", "error.hf_retreat_not_away", {"from": "0303"}),  # next to a1
        ("0404", "error.hf_retreat_not_away", {"from": "0304"}),  # next to a2
        ("0502", "error.hf_retreat_elsewhere", {"options": "0503, 0504"}),  # not a neighbour
    ],
)
def test_a_retreat_asked_into_a_hex_not_open_is_refused_naming_the_place(to, key, params):
    _, g = two_attackers_win()
    before = copy.deepcopy(g.state)
    with pytest.raises(IllegalActionError) as refused:
        g.apply({"type": "retreat", "unit": "d1", "to": to})
    assert refused.value.key == key
    assert refused.value.params == {"who": "d1", "place": to, **params}
    assert refused.value.place == to
    assert g.state == before  # a refused call changes nothing
    g.apply({"type": "retreat", "unit": "d1", "to": "0504"})
    assert g.state["units"]["d1"]["hex"] == "0504"


def test_a_unit_with_no_hex_away_from_both_attackers_routs():
    # a1 above d1 and a2 below it (d1 in a town: all six are front hexes, so attackers from
    # opposite sides need not be next to each other): every open neighbour of 0403 is next to
    # one of them, so d1 has nowhere to retreat and routs (the default of retreat_blocked);
    # the sum of the distances would have sent it sideways, between the two.
    sc = scenario(
        [
            {"id": "a1", "hex": "0402", "facing": 4, "ratings": {"strength": 6, "cohesion": 7}},
            {"id": "a2", "hex": "0404", "facing": 10, "ratings": {"strength": 6, "cohesion": 7}},
            {
                "id": "d1",
                "side": "au",
                "hex": "0403",
                "facing": 2,
                "ratings": {"strength": 6, "cohesion": 5},
            },
        ],
        hexes={"0403": {"terrain": ["town"]}},
    )
    g = at_step(sc, "combat")
    melee = {"type": "melee", "target": "0403", "attackers": ["a1", "a2"]}
    assert melee in g.legal_actions()
    total = RULES.preview(sc, g.state, melee)["total"]
    g.apply(melee)
    g.apply({"type": "roll", "value": max(0, 10 - total)})
    assert g.state["units"]["d1"]["status"] == "routed"
    assert g.state["units"]["d1"]["hex"] == "0403"
    assert any(e["key"] == "log.retreat_blocked" for e in g.log)


# == a fire that cannot have an effect is offered, and says why ==================================


def gun_at(target, fire, rng, cohesion=6, hexes=None):
    """A French battery in 0103 facing down the column (2), an Austrian infantry target."""
    gun = {
        "id": "gun",
        "type": "artillery",
        "hex": "0103",
        "facing": 2,
        "ratings": {"fire": fire, "range": rng, "strength": 2, "cohesion": 6},
    }
    t = {"id": "t", "side": "au", "hex": target, "ratings": {"cohesion": cohesion}}
    sc = scenario([gun, t], hexes=hexes)
    return sc, at_step(sc, "fire")


def test_a_fire_beyond_the_table_is_offered_and_says_why_it_cannot_have_an_effect():
    # The aid limits no fire by its odds: "long range: each hex beyond effective range -2" and
    # the fire table's "8 or less: no effect". Fire 1, range 1, target 3 hexes off (-4) in
    # woods (-1): even a 9 totals 5, and the table gives nothing below 9.
    sc, g = gun_at("0403", fire=1, rng=1, hexes={"0403": {"terrain": ["woods"]}})
    action = {"type": "fire", "unit": "gun", "target": "0403"}
    assert action in g.legal_actions()
    p = RULES.preview(sc, g.state, action)
    assert p["total"] == -4
    assert p["outcomes"] == [{"outcome": {"target": []}, "p": 1.0}]
    assert p["notes"] == [{"key": "note.hf_fire_no_result", "params": {"best": 5, "need": 9}}]


def test_a_fire_whose_cohesion_test_always_passes_says_why():
    # Fire 3 at effective range: 3 to 12, at most "9 to 12: PZw, cohesion test; if failed,
    # disorder"; a target of cohesion 9 passes on every face of the d10 (0-9).
    sc, g = gun_at("0303", fire=3, rng=2, cohesion=9)
    action = {"type": "fire", "unit": "gun", "target": "0303"}
    p = RULES.preview(sc, g.state, action)
    assert p["total"] == 3
    assert p["outcomes"] == [{"outcome": {"target": []}, "p": 1.0}]
    assert p["notes"] == [{"key": "note.hf_fire_tests_passed", "params": {"cohesion": 9}}]
    # The same fire at a target of cohesion 8 may disorder it (a 9 and a 9): no note.
    sc, g = gun_at("0303", fire=3, rng=2, cohesion=8)
    p = RULES.preview(sc, g.state, action)
    assert any(o["outcome"]["target"] for o in p["outcomes"])
    assert "notes" not in p


# == a disordered unit in a melee ================================================================


def disordered_attack(reading=None, a2_cohesion=6):
    """a1 (disordered, cohesion 8) in 0303 and a2 (good order, cohesion 6) in 0304, both with
    d1 (cohesion 5) in 0403 in front of them; c1, disordered cavalry, in 0504 may charge d1."""
    units = [
        {"id": "a1", "hex": "0303", "facing": 2, "state": {"disordered": True}},
        {"id": "a2", "hex": "0304", "facing": 0},
        {"id": "c1", "type": "cavalry", "hex": "0504", "facing": 10, "state": {"disordered": True}},
        {"id": "d1", "side": "au", "hex": "0403", "facing": 8},
    ]
    cohesion = {"a1": 8, "a2": a2_cohesion, "c1": 6, "d1": 5}
    for u in units:
        u["ratings"] = {"strength": 4, "cohesion": cohesion[u["id"]]}
    sc = scenario(units)
    if reading:
        data = {"combat": {"readings": {"disordered_attack": {"value": reading}}}}
        sc = parse_scenario({**sc.data, "overrides": data})
    return sc, at_step(sc, "combat")


def melees(g):
    return [
        (tuple(a["attackers"]), bool(a.get("charge")))
        for a in g.legal_actions()
        if a["type"] == "melee"
    ]


def test_a_disordered_unit_may_attack_and_its_cohesion_counts_with_a_note_saying_so():
    # The aid: "Zwartość najlepszego napastnika – zwartość najlepszego obrońcy" (best attacker's
    # cohesion minus best defender's), no row for a disordered attacker, and "(d) disordered
    # units pay +1 MP to enter an enemy ZOC" its only rule for disorder. a1 (disordered,
    # cohesion 8) may attack with a2 (cohesion 6): the cohesion line is 8 - 5, and the preview
    # says both points are readings.
    sc, g = disordered_attack()
    assert (("a1", "a2"), False) in melees(g)
    p = RULES.preview(sc, g.state, {"type": "melee", "target": "0403", "attackers": ["a1", "a2"]})
    [line] = [m for m in p["modifiers"] if m["key"] == "melee.cohesion"]
    assert (line["value"], line["params"]) == (3, {"attacker": 8, "defender": 5})
    assert p["notes"] == [
        {"key": "note.hf_disordered_attacker", "params": {"units": ["a1"]}},
        {"key": "note.hf_disordered_cohesion", "params": {"unit": "a1", "cohesion": 8}},
    ]
    # a2 alone, in good order: no reading to show.
    p = RULES.preview(sc, g.state, {"type": "melee", "target": "0403", "attackers": ["a2"]})
    assert "notes" not in p


def test_a_disordered_unit_whose_cohesion_is_not_the_best_gets_one_note():
    # a2, in good order, has the best cohesion (9): the line is 9 - 5, and only the note that
    # a disordered unit attacks remains.
    sc, g = disordered_attack(a2_cohesion=9)
    p = RULES.preview(sc, g.state, {"type": "melee", "target": "0403", "attackers": ["a1", "a2"]})
    [line] = [m for m in p["modifiers"] if m["key"] == "melee.cohesion"]
    assert line["params"] == {"attacker": 9, "defender": 5}
    assert p["notes"] == [{"key": "note.hf_disordered_attacker", "params": {"units": ["a1"]}}]


@pytest.mark.parametrize(
    "reading, a1_melee, c1_charge",
    [("may", True, True), ("melee_only", True, False), ("may_not", False, False)],
)
def test_a_scenario_may_bar_disordered_units_from_attacking(reading, a1_melee, c1_charge):
    sc, g = disordered_attack(reading)
    offered = melees(g)
    assert ((("a1",), False) in offered) is a1_melee
    assert ((("c1",), True) in offered) is c1_charge
    assert (("a2",), False) in offered  # a unit in good order attacks whatever the reading
