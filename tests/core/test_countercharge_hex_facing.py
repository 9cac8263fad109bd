"""hex-facing countercharge (9.4) and the pursuits of the melee results (9.5), in play.

The aid prints the countercharge in one cell of the melee results (0-4, defender: "Pościg,
jeśli kontrszarża i wycofanie lub odwrót napastnika", pursuit if countercharge and the
attacker withdraws or retreats); the procedure is a stand-in of combat.json
("procedures.countercharge"). Positions: French cavalry c1 in 0303 facing 2 charges 0403,
where Austrian cavalry k1 faces it (facing 8) across their shared hexside.
"""

from __future__ import annotations

import random

import pytest
from test_fight_hex_facing import at_step, scenario

from muster.game import Game
from muster.systems import game_rules
from muster.systems.hex_facing import combat
from muster.systems.hex_facing import tables as hf_tables

RULES = game_rules("hex-facing")
CHARGE = {"type": "melee", "target": "0403", "attackers": ["c1"], "charge": True}
COUNTER = {"type": "countercharge", "units": ["k1"]}
EVEN = {"strength": 4, "cohesion": 7}  # 1:1, equal cohesion: clear +1, charge +1 = +2


def cavalry(uid, label, facing, side=None, **ratings):
    unit = {"id": uid, "type": "cavalry", "hex": label, "facing": facing, "ratings": ratings}
    return {**unit, "side": side} if side else unit


def duel(attacker=EVEN, defender=EVEN, **defender_state):
    """c1 (French cavalry) and k1 (Austrian cavalry) facing each other; k1 may start
    disordered or face elsewhere."""
    k1 = cavalry("k1", "0403", defender_state.get("facing", 8), "au", **defender)
    if "status" in defender_state:
        k1["state"] = {defender_state["status"]: True}
    return scenario([cavalry("c1", "0303", 2, **attacker), k1])


def with_tables(sc, **changes):
    """The scenario plays with combat.json changed at dotted paths (procedures.* ...)."""
    raw = hf_tables.raw_tables()
    for path, value in changes.items():
        *parents, last = path.split(".")
        here = raw
        for key in parents:
            here = here[key]
        here[last] = value
    sc.memo["hf combat tables"] = hf_tables.parse_tables(raw)
    return sc


def charged(sc, action=CHARGE):
    g = at_step(sc, "combat")
    g.apply(action)
    return g


def keys(g):
    return [e["key"] for e in g.log]


def roll(g, *faces):
    for face in faces:
        assert g.state["chance"], "a die was due"
        g.apply({"type": "roll", "value": face})


def retreat_first(g):
    """The owner of a retreating unit takes the first hex offered (the best)."""
    while g.state["retreat"]:
        g.apply(g.legal_actions()[0])


# -- who decides, and when ----------------------------------------------------------------


def test_a_charge_at_cavalry_facing_it_asks_the_defender_to_countercharge():
    sc = duel()
    g = charged(sc)
    assert g.state["chance"] is None  # no die yet: the defender decides first
    assert g.legal_actions() == [COUNTER, {"type": "no_countercharge"}]
    assert RULES.decider(sc, g.state) == "au"
    prompt = RULES.prompt(sc, g.state)
    assert prompt["key"] == "prompt.hf_countercharge" and prompt["side"] == "au"
    assert prompt["params"] == {
        "units": ["k1"],
        "attackers": ["c1"],
        "target": "0403",
        "rule": "9.4",
    }
    choices = RULES.choices(sc, g.state, g.legal_actions())
    offered = {i["key"]: i for c in choices for i in c["items"]}
    assert choices[0]["key"] == "choice.hf_countercharge"
    assert offered["action.hf_countercharge"]["params"]["rule"] == "9.4"
    assert offered["action.hf_countercharge"]["preview"] is True
    assert offered["action.hf_no_countercharge"]["preview"] is True
    assert "countercharge" in RULES.previewable and "no_countercharge" in RULES.previewable
    # The map shows the charge waiting on the decision.
    assert RULES.view_extra(sc, g.state, None)["arrows"] == [
        {"from": "0303", "to": "0403", "kind": "charge"}
    ]


@pytest.mark.parametrize(
    "case",
    ["melee, not a charge", "disordered", "charged from its rear", "infantry"],
)
def test_who_may_not_countercharge(case):
    action = CHARGE
    if case == "melee, not a charge":
        sc, action = duel(), {k: v for k, v in CHARGE.items() if k != "charge"}
    elif case == "disordered":
        sc = duel(status="disordered")
    elif case == "charged from its rear":
        sc = duel(facing=2)  # k1 faces away: 0303 is behind it
    else:  # infantry: a countercharge is cavalry's (procedures.countercharge.by)
        sc = scenario(
            [
                cavalry("c1", "0303", 2, **EVEN),
                {"id": "k1", "side": "au", "hex": "0403", "facing": 8, "ratings": EVEN},
            ]
        )
    g = charged(sc, action)
    assert g.state["countercharge"] is None
    assert g.state["chance"]["purpose"] == "melee"  # the die at once


def test_guns_fire_in_reaction_before_the_countercharge_is_asked():
    gun = {
        "id": "gun",
        "side": "au",
        "type": "artillery",
        "hex": "0403",
        "facing": 8,
        "ratings": {"strength": 2, "cohesion": 6, "fire": 3, "range": 3},
    }
    sc = scenario([cavalry("c1", "0303", 2, **EVEN), cavalry("k1", "0403", 8, "au", **EVEN), gun])
    g = charged(sc)
    assert [a["type"] for a in g.legal_actions()] == ["reaction_fire", "no_reaction"]
    g.apply({"type": "no_reaction"})
    assert g.legal_actions() == [COUNTER, {"type": "no_countercharge"}]


# -- preview odds -------------------------------------------------------------------------


def test_the_preview_of_a_countercharge_gives_the_defender_its_pursuit_with_exact_odds():
    sc = duel()
    g = charged(sc)
    yes = RULES.preview(sc, g.state, COUNTER)
    no = RULES.preview(sc, g.state, {"type": "no_countercharge"})
    assert yes["total"] == no["total"] == 2  # the modifiers stay (charge bonus kept)
    expected = combat.melee_distribution(2, 7, 7, True, True, countercharge=True)
    assert [(o["outcome"], o["p"]) for o in yes["outcomes"]] == [(o, float(p)) for o, p in expected]

    def pursued(view):
        return sum(o["p"] for o in view["outcomes"] if "pursuit" in o["outcome"]["defender"])

    # 0-4 is faces 0-2 (0.3); the attacker then fails its test (8 or 9 > 7: 0.2).
    assert pursued(yes) == pytest.approx(0.3 * 0.2)
    assert pursued(no) == 0  # no countercharge: the 0-4 row gives the defender nothing


# -- every result row, met by a countercharge ----------------------------------------------


def test_row_10_or_more_defender_retreats_disordered_and_the_charging_cavalry_pursues():
    sc = duel()
    g = charged(sc)
    g.apply(COUNTER)
    assert g.log[-1]["key"] == "log.hf_countercharge"
    assert g.log[-1]["params"]["rule"] == "9.4"
    roll(g, 8)  # 8 + 2 = 10: defender 1 + Z; attacker (cavalry) pursuit
    retreat_first(g)
    assert g.state["units"]["k1"]["hex"] != "0403"
    assert g.state["units"]["k1"]["status"] == "disordered"
    assert g.state["units"]["c1"]["hex"] == "0403"  # pursued into the hex left
    pursuit = next(e for e in g.log if e["key"] == "log.hf_pursuit")
    assert pursuit["params"] == {"unit": "c1", "from": "0303", "to": "0403", "rule": "9.5"}
    assert g.state["chance"] == {
        "die": "d10",
        "purpose": "cohesion",
        "unit": "c1",
        "failed": ["disorder"],
    }
    roll(g, 9)  # 9 > 7: the pursuer is disordered
    assert g.state["units"]["c1"]["status"] == "disordered"


def test_row_5_to_9_defender_retreats_and_tests_and_the_charging_cavalry_pursues():
    sc = duel()
    g = charged(sc)
    g.apply(COUNTER)
    roll(g, 3)  # 3 + 2 = 5: defender 1 + PZw; attacker (cavalry) pursuit
    retreat_first(g)
    assert g.state["chance"]["unit"] == "k1"  # the defender's cohesion test
    roll(g, 7)  # 7 <= 7: passed
    assert g.state["units"]["k1"]["status"] == "good"
    assert g.state["units"]["c1"]["hex"] == "0403"
    roll(g, 0)  # the pursuer's test, passed
    assert g.state["units"]["c1"]["status"] == "good"
    assert g.state["chance"] is None and g.legal_actions()[-1] == {"type": "next_step"}


def test_row_0_to_4_the_countercharging_cavalry_pursues_an_attacker_that_falls_back():
    sc = duel()
    g = charged(sc)
    g.apply(COUNTER)
    roll(g, 0)  # 0 + 2 = 2: attacker Z + PZw/1; defender pursuit if it falls back
    result = next(e for e in g.log if e["key"].startswith("log.hf_melee_result"))
    assert result["key"] == "log.hf_melee_result_if_falls_back"
    assert result["params"]["cavalry_codes"] == ["pursuit"]
    assert g.state["units"]["c1"]["status"] == "disordered"
    roll(g, 8)  # 8 > 7: failed, c1 retreats one hex
    retreat_first(g)
    assert g.state["units"]["c1"]["hex"] != "0303"
    assert g.state["units"]["k1"]["hex"] == "0303"  # k1 pursued into the hex c1 left
    pursuit = next(e for e in g.log if e["key"] == "log.hf_pursuit")
    assert pursuit["params"] == {"unit": "k1", "from": "0403", "to": "0303", "rule": "9.5"}
    assert g.state["chance"]["unit"] == "k1" and g.state["chance"]["failed"] == ["disorder"]
    roll(g, 2)
    assert g.state["units"]["k1"]["status"] == "good"


def test_row_0_to_4_no_pursuit_when_the_attacker_holds():
    sc = duel()
    g = charged(sc)
    g.apply(COUNTER)
    roll(g, 0, 3)  # result 2; c1's test 3 <= 7 passes: it stays, disordered
    assert g.state["units"]["c1"] == {**g.state["units"]["c1"], "hex": "0303"}
    assert g.state["units"]["k1"]["hex"] == "0403"
    assert "log.hf_pursuit" not in keys(g)
    assert g.state["chance"] is None


def test_row_0_to_4_without_a_countercharge_the_defender_does_not_pursue():
    sc = duel()
    g = charged(sc)
    g.apply({"type": "no_countercharge"})
    assert g.state["chance"]["countercharge"] == []
    roll(g, 0, 8)  # result 2; c1 fails and retreats
    retreat_first(g)
    assert g.state["units"]["k1"]["hex"] == "0403"
    assert "log.hf_pursuit" not in keys(g)
    assert next(e for e in g.log if e["key"].startswith("log.hf_melee_result"))["key"] == (
        "log.hf_melee_result"
    )


def test_row_below_0_the_defending_cavalry_pursues_instead_of_counterattacking():
    # 1 against 8 (1:4 or worse, -4), cohesion 5 against 8 (-3), clear +1, charge +1: -5.
    sc = duel({"strength": 1, "cohesion": 5}, {"strength": 8, "cohesion": 8})
    g = charged(sc)
    g.apply(COUNTER)
    assert g.state["chance"]["total"] == -5
    roll(g, 0, 9)  # result -5: attacker Z + PZw/1 (fails: retreats); defender: pursuit
    retreat_first(g)
    assert g.state["counterattack"] is None  # the italic pursuit replaces the counterattack
    assert g.state["units"]["k1"]["hex"] == "0303"
    roll(g, 9)  # 9 > 8: the pursuer is disordered
    assert g.state["units"]["k1"]["status"] == "disordered"


def test_an_attacker_that_cannot_fall_back_routs_in_place_and_is_not_pursued():
    # c1 in the corner 0101 charges 0201; its only other neighbour, 0102, is full (two units).
    sc = scenario(
        [
            cavalry("c1", "0101", 2, **EVEN),
            {"id": "f3", "hex": "0102", "facing": 2, "ratings": EVEN},
            {"id": "f4", "hex": "0102", "facing": 2, "ratings": EVEN},
            cavalry("k1", "0201", 8, "au", **EVEN),
        ]
    )
    g = at_step(sc, "combat")
    charge = {"type": "melee", "target": "0201", "attackers": ["c1"], "charge": True}
    assert charge in g.legal_actions()
    g.apply(charge)
    g.apply(COUNTER)
    roll(g, 0, 9)  # result 0-4; c1 fails its test and cannot retreat: it routs
    assert "log.retreat_blocked" in keys(g)
    assert g.state["units"]["c1"]["status"] == "routed"
    assert g.state["units"]["k1"]["hex"] == "0201"  # nothing vacated: no pursuit
    assert "log.hf_pursuit" not in keys(g)


# -- what combat.json's stand-in lets a designer change ------------------------------------


def test_charge_bonus_lost_to_a_countercharge():
    sc = with_tables(duel(), **{"procedures.countercharge.charge_bonus": "lost"})
    g = charged(sc)
    with_bonus = RULES.preview(sc, g.state, {"type": "no_countercharge"})
    without = RULES.preview(sc, g.state, COUNTER)
    assert "melee.charge" in [m["key"] for m in with_bonus["modifiers"]]
    assert "melee.charge" not in [m["key"] for m in without["modifiers"]]
    g.apply(COUNTER)
    assert g.state["chance"]["total"] == with_bonus["total"] - 1


def test_countercharge_not_offered_when_the_stand_in_is_off():
    sc = with_tables(duel(), **{"procedures.countercharge.reaction": False})
    g = charged(sc)
    assert g.state["chance"]["purpose"] == "melee"


@pytest.mark.parametrize(
    "changes, sc_args, action",
    [
        ({"procedures.countercharge.against": ["charge", "melee"]}, {}, "melee"),
        ({"procedures.countercharge.facing": "any"}, {"facing": 2}, "charge"),
        (
            {"procedures.countercharge.states": ["good", "disordered"]},
            {"status": "disordered"},
            "charge",
        ),
    ],
    ids=["against a melee", "from its rear", "disordered"],
)
def test_countercharge_readings_widened(changes, sc_args, action):
    sc = with_tables(duel(**sc_args), **changes)
    melee = {k: v for k, v in CHARGE.items() if k != "charge"}
    g = charged(sc, CHARGE if action == "charge" else melee)
    assert g.legal_actions() == [COUNTER, {"type": "no_countercharge"}]


def test_a_pursuit_the_stand_in_makes_optional_is_offered_then_tested():
    sc = with_tables(duel(), **{"procedures.pursuit.advance": "may"})
    g = charged(sc)
    g.apply(COUNTER)
    roll(g, 0, 8)
    retreat_first(g)
    assert g.legal_actions() == [{"type": "advance", "unit": "k1", "to": "0303"}, {"type": "hold"}]
    prompt = RULES.prompt(sc, g.state)
    assert prompt["key"] == "prompt.hf_pursue" and prompt["params"]["rule"] == "9.5"
    assert RULES.choices(sc, g.state, g.legal_actions())[0]["key"] == "choice.hf_pursue"
    g.apply({"type": "advance", "unit": "k1", "to": "0303"})
    assert g.state["units"]["k1"]["hex"] == "0303"
    assert g.state["chance"]["purpose"] == "cohesion" and g.state["chance"]["unit"] == "k1"


def test_a_breakthrough_the_stand_in_makes_compulsory_needs_no_decision():
    infantry = {"id": "a1", "hex": "0303", "facing": 2, "ratings": {"strength": 6, "cohesion": 7}}
    defender = {"id": "d1", "side": "au", "hex": "0403", "facing": 8, "ratings": EVEN}
    sc = with_tables(scenario([infantry, defender]), **{"procedures.breakthrough.advance": "must"})
    g = at_step(sc, "combat")
    g.apply({"type": "melee", "target": "0403", "attackers": ["a1"]})
    roll(g, 9)
    retreat_first(g)
    assert g.state["advance"] is None
    assert g.state["units"]["a1"]["hex"] == "0403"


def test_a_counterattack_the_stand_in_makes_compulsory_has_no_refusal():
    strong = {"strength": 8, "cohesion": 8}
    infantry = {"id": "a1", "hex": "0303", "facing": 2, "ratings": {"strength": 2, "cohesion": 5}}
    defender = {"id": "d1", "side": "au", "hex": "0403", "facing": 8, "ratings": strong}
    sc = with_tables(scenario([infantry, defender]), **{"procedures.counterattack.melee": "must"})
    g = at_step(sc, "combat")
    g.apply({"type": "melee", "target": "0403", "attackers": ["a1"]})
    roll(g, 0, 0)  # below 0; the attacker passes its test and stays
    assert g.legal_actions() == [
        {"type": "melee", "target": "0303", "attackers": ["d1"], "counter": True}
    ]


# -- in random games -----------------------------------------------------------------------


def test_random_games_reach_the_countercharge_and_its_pursuit():
    """Fight-heavy random games of a small cavalry battle: the countercharge is offered,
    taken, and followed by a pursuit, and every game ends."""
    ratings = {**EVEN, "movement": 6}
    units = [cavalry(f"c{j}", f"020{j}", 2, **ratings) for j in (2, 3, 4)]
    units += [cavalry(f"k{j}", f"040{j}", 8, "au", **ratings) for j in (2, 3, 4)]
    sc = scenario(units)

    seen = set()
    for seed in range(12):
        rng = random.Random(seed)
        g = Game.start(sc, RULES, seed)
        while not g.state["result"]:
            legal = g.legal_actions()
            fights = [a for a in legal if a["type"] in ("melee", "countercharge")]
            pick = fights if fights and rng.random() < 0.9 else legal
            g.apply(rng.choice(pick))
        seen |= {e["key"] for e in g.log}
    assert {"log.hf_countercharge", "log.hf_pursuit", "log.hf_melee_result_if_falls_back"} <= seen
