"""hex-facing fire and melee in play, on hand-made positions (flat map, even columns lower;
directions 0 upper right, 1 lower right, 2 down, 3 lower left, 4 upper left, 5 up)."""

from fractions import Fraction

import pytest

from muster.game import Game
from muster.scenario import parse_scenario
from muster.systems import game_rules
from muster.systems.hex_facing import combat

RULES = game_rules("hex-facing")


def scenario(units, hexes=None):
    return parse_scenario(
        {
            "format": "muster-scenario/1",
            "id": "f",
            "system": "hex-facing",
            "title": "f",
            "map": {
                "orientation": "flat",
                "stagger": "even",
                "columns": 8,
                "rows": 5,
                "hexes": hexes or {},
            },
            "sides": [{"id": "fr", "name": "F"}, {"id": "au", "name": "A"}],
            "formations": [
                {"id": "fr", "side": "fr", "name": "F"},
                {"id": "au", "side": "au", "name": "A"},
            ],
            "units": [
                {
                    "name": u["id"],
                    "type": "infantry",
                    "side": "fr",
                    "formation": "fr",
                    **{k: v for k, v in u.items() if k != "side"},
                    **({"side": u["side"], "formation": u["side"]} if "side" in u else {}),
                }
                for u in units
            ],
        }
    )


def at_step(sc, step, by_hand=False):
    """A game of ``sc`` at ``step`` of the French activation; ``by_hand``: with every step
    ended by hand (sequence.json empty_steps off), to stop at a step with nothing to do."""
    if by_hand:
        overrides = sc.data.get("overrides", {})
        sequence = {**overrides.get("sequence", {}), "empty_steps": {"passed": False}}
        sc = parse_scenario({**sc.data, "overrides": {**overrides, "sequence": sequence}})
    g = Game.start(sc, RULES, 1)
    g.apply({"type": "roll", "value": "fr"})
    return walk_to(g, step)


def walk_to(g, step):
    """The active formation ends its steps up to ``step`` (an empty step passes by itself,
    sequence.json empty_steps: only those with something to do are ended here)."""
    steps = ["fire", "move", "combat"]
    while steps.index(g.state["active"]["step"]) < steps.index(step):
        g.apply({"type": "next_step"})
    assert g.state["active"]["step"] == step
    return g


def enemy(uid, label, unit_type, **ratings):
    """An Austrian unit in ``label`` facing the side towards direction 4 (upper left)."""
    return {
        "id": uid,
        "side": "au",
        "type": unit_type,
        "hex": label,
        "facing": 8,
        "ratings": ratings,
    }


def duel(attacker, defender):
    """Infantry a1 in 0303 and d1 in 0403, facing each other across their shared side."""
    return scenario(
        [
            {"id": "a1", "hex": "0303", "facing": 2, "ratings": attacker},
            {"id": "d1", "side": "au", "hex": "0403", "facing": 8, "ratings": defender},
        ]
    )


GUN = {
    "id": "gun",
    "type": "artillery",
    "hex": "0103",
    "facing": 2,
    "ratings": {"fire": 4, "range": 2, "strength": 2, "cohesion": 6},
}


def test_fire_needs_range_front_arc_and_sight():
    sc = scenario(
        [
            GUN,
            {"id": "near", "side": "au", "hex": "0303", "ratings": {"cohesion": 6}},  # range 2
            {"id": "far", "side": "au", "hex": "0803", "ratings": {"cohesion": 6}},  # range 7 > 2+2
            {"id": "behind", "side": "au", "hex": "0101", "ratings": {"cohesion": 6}},  # up: rear
            {"id": "hidden", "side": "au", "hex": "0503", "ratings": {"cohesion": 6}},
        ],
        hexes={"0402": {"terrain": ["woods"]}, "0403": {"terrain": ["woods"]}},
    )  # the line to 0503 runs between 0402 and 0403: woods on both sides
    g = at_step(sc, "fire")
    fires = [a for a in g.legal_actions() if a["type"] == "fire"]
    assert fires == [{"type": "fire", "unit": "gun", "target": "0303"}]


def test_fire_preview_and_result():
    sc = scenario([GUN, {"id": "t", "side": "au", "hex": "0303", "ratings": {"cohesion": 6}}])
    g = at_step(sc, "fire")
    action = {"type": "fire", "unit": "gun", "target": "0303"}
    view = RULES.preview(sc, g.state, action)
    # fire strength 4, effective range: 0, clear terrain: no effect.
    assert [(m["key"], m["value"]) for m in view["modifiers"]][0] == ("fire.fire_strength", 4)
    assert view["total"] == 4
    assert sum(Fraction(o["p"]).limit_denominator(1000) for o in view["outcomes"]) == 1
    expected = combat.fire_distribution(4, 6)
    assert [(o["outcome"], o["p"]) for o in view["outcomes"]] == [
        (o, float(p)) for o, p in expected
    ]
    g.apply(action)
    assert g.state["chance"]["purpose"] == "fire"
    g.apply({"type": "roll", "value": 9})  # 9 + 4 = 13: Z, disorder
    assert g.state["units"]["t"]["status"] == "disordered"
    assert g.state["units"]["gun"]["hex"] == "0103"
    assert "gun" in g.state["active"]["acted"]
    assert not [a for a in g.legal_actions() if a["type"] == "fire"]


def test_fire_cohesion_test_after_pzw():
    sc = scenario([GUN, {"id": "t", "side": "au", "hex": "0303", "ratings": {"cohesion": 6}}])
    g = at_step(sc, "fire")
    g.apply({"type": "fire", "unit": "gun", "target": "0303"})
    g.apply({"type": "roll", "value": 5})  # 5 + 4 = 9: PZw
    assert g.state["chance"]["purpose"] == "cohesion" and g.state["chance"]["unit"] == "t"
    g.apply({"type": "roll", "value": 7})  # 7 > cohesion 6: failed, disorder
    assert g.state["units"]["t"]["status"] == "disordered"
    assert g.state["chance"] is None


def test_melee_declaration_result_retreat_and_breakthrough():
    sc = duel({"strength": 6, "cohesion": 7}, {"strength": 6, "cohesion": 5})
    g = at_step(sc, "combat")
    melee = [a for a in g.legal_actions() if a["type"] == "melee"]
    assert melee == [{"type": "melee", "target": "0403", "attackers": ["a1"]}]
    view = RULES.preview(sc, g.state, melee[0])
    drm = view["total"]
    g.apply(melee[0])
    g.apply({"type": "roll", "value": max(0, 10 - drm)})  # modified 10+: defender 1 + Z
    # The defender's owner picks the retreat hex among those farther from the attacker.
    retreats = g.legal_actions()
    assert {a["type"] for a in retreats} == {"retreat"} and len(retreats) >= 2
    assert all(a["unit"] == "d1" for a in retreats)
    assert {a["to"] for a in retreats} <= {"0503", "0504", "0502", "0402", "0404"}
    g.apply(retreats[0])
    assert g.state["units"]["d1"]["hex"] == retreats[0]["to"]
    assert g.state["units"]["d1"]["status"] == "disordered"
    # Breakthrough (default): the attacker may advance into the hex left.
    assert g.legal_actions() == [{"type": "advance", "unit": "a1", "to": "0403"}, {"type": "hold"}]
    g.apply({"type": "advance", "unit": "a1", "to": "0403"})
    assert g.state["units"]["a1"]["hex"] == "0403"


def test_a_unit_that_cannot_retreat_routs():
    # The defender in a corner with its only free hexes held by attackers and off-map.
    sc = scenario(
        [
            {"id": "a1", "hex": "0201", "facing": 8, "ratings": {"strength": 8, "cohesion": 7}},
            {"id": "a2", "hex": "0202", "facing": 8, "ratings": {"strength": 8, "cohesion": 7}},
            {"id": "a3", "hex": "0102", "facing": 10, "ratings": {"strength": 8, "cohesion": 7}},
            {
                "id": "d1",
                "side": "au",
                "hex": "0101",
                "facing": 2,
                "ratings": {"strength": 2, "cohesion": 5},
            },
        ]
    )
    g = at_step(sc, "combat")
    melee = [a for a in g.legal_actions() if a["type"] == "melee" and len(a["attackers"]) == 1]
    g.apply(melee[0])
    g.apply({"type": "roll", "value": 9})
    assert g.state["units"]["d1"]["status"] == "routed"
    assert any(e["key"] == "log.retreat_blocked" for e in g.log)


def test_charge_is_illegal_into_woods_and_not_offered():
    sc = scenario(
        [
            {
                "id": "c1",
                "type": "cavalry",
                "hex": "0303",
                "facing": 2,
                "ratings": {"strength": 4, "cohesion": 7, "heavy": 1},
            },
            {"id": "d1", "side": "au", "hex": "0403", "ratings": {"strength": 4, "cohesion": 5}},
        ],
        hexes={"0403": {"terrain": ["woods"]}},
    )
    g = at_step(sc, "combat")
    melee = [a for a in g.legal_actions() if a["type"] == "melee"]
    assert melee == [{"type": "melee", "target": "0403", "attackers": ["c1"]}]  # no charge


@pytest.mark.parametrize("heavy,bonus", [(1, 3), (0, 1)])
def test_charge_bonus_in_preview(heavy, bonus):
    sc = scenario(
        [
            {
                "id": "c1",
                "type": "cavalry",
                "hex": "0303",
                "facing": 2,
                "ratings": {"strength": 4, "cohesion": 7, "heavy": heavy},
            },
            {"id": "d1", "side": "au", "hex": "0403", "ratings": {"strength": 4, "cohesion": 5}},
        ]
    )
    g = at_step(sc, "combat")
    charge = {"type": "melee", "target": "0403", "attackers": ["c1"], "charge": True}
    assert charge in g.legal_actions()
    values = {m["key"]: m["value"] for m in RULES.preview(sc, g.state, charge)["modifiers"]}
    assert bonus in values.values()


def test_forming_square_and_charging_it():
    sc = scenario(
        [
            {"id": "i1", "hex": "0403", "facing": 8, "ratings": {"strength": 6, "cohesion": 6}},
            enemy("c1", "0503", "cavalry", strength=4, cohesion=7, heavy=1),
        ]
    )
    g = at_step(sc, "move")
    assert {"type": "square", "unit": "i1", "form": True} in g.legal_actions()
    g.apply({"type": "square", "unit": "i1", "form": True})
    assert g.state["units"]["i1"]["square"] is True
    assert not [a for a in g.legal_actions() if a.get("unit") == "i1"]  # that was its move
    # The Austrian cavalry's turn: its charge against the square loses the bonus (-2).
    while g.state["active"]:  # the rest of the French activation (an empty step passes)
        g.apply({"type": "next_step"})
    g.apply({"type": "roll", "value": "au"})
    walk_to(g, "combat")
    charge = {"type": "melee", "target": "0403", "attackers": ["c1"], "charge": True}
    assert charge in g.legal_actions()
    keys = {m["key"]: m["value"] for m in RULES.preview(sc, g.state, charge)["modifiers"]}
    assert keys["melee.charge_vs_square"] == -2
    assert "melee.heavy_charge" not in keys


def test_reaction_fire_before_the_melee_and_counter_battery():
    sc = scenario(
        [
            {"id": "a1", "hex": "0303", "facing": 2, "ratings": {"strength": 6, "cohesion": 7}},
            enemy("gun", "0403", "artillery", strength=2, cohesion=6, fire=3, range=3),
        ]
    )
    g = at_step(sc, "combat")
    g.apply({"type": "melee", "target": "0403", "attackers": ["a1"]})
    assert g.state["chance"] is None
    reaction = {"type": "reaction_fire", "unit": "gun", "target": "0303"}
    assert g.legal_actions() == [reaction, {"type": "no_reaction"}]
    keys = {m["key"] for m in RULES.preview(sc, g.state, reaction)["modifiers"]}
    assert "fire.reaction" in keys
    g.apply(reaction)
    assert g.state["chance"]["purpose"] == "fire"
    g.apply({"type": "roll", "value": 0})  # 0 + 3 + 1 (adjacent) - 1 (reaction) = 3: nothing
    assert g.state["chance"]["purpose"] == "melee"  # now the melee goes ahead
    assert g.state["units"]["gun"]["reacted"] == 1
    # A fire at guns alone is counter-battery fire (-1).
    sc2 = scenario(
        [
            GUN,
            {
                "id": "g2",
                "side": "au",
                "type": "artillery",
                "hex": "0303",
                "ratings": {"cohesion": 6},
            },
        ]
    )
    g2 = at_step(sc2, "fire")
    fire = {"type": "fire", "unit": "gun", "target": "0303"}
    assert "fire.counter_battery" in {
        m["key"] for m in RULES.preview(sc2, g2.state, fire)["modifiers"]
    }


def test_counterattack_after_a_result_below_zero():
    sc = duel({"strength": 2, "cohesion": 5}, {"strength": 8, "cohesion": 8})
    g = at_step(sc, "combat")
    attack = {"type": "melee", "target": "0403", "attackers": ["a1"]}
    drm = RULES.preview(sc, g.state, attack)["total"]
    assert drm < 0  # 2 against 8 and a worse cohesion
    g.apply(attack)
    g.apply({"type": "roll", "value": 0})  # modified roll below 0: counterattack (8.7)
    while g.state["chance"]:  # the attacker's cohesion test
        g.apply({"type": "roll", "value": 0})
    # The defender may strike back at the attacker's hex (a stand-in of combat.json).
    back = {
        "type": "melee",
        "target": g.state["units"]["a1"]["hex"],
        "attackers": ["d1"],
        "counter": True,
    }
    assert g.legal_actions() == [back, {"type": "no_counterattack"}]
    g.apply(back)
    assert g.state["chance"]["purpose"] == "melee" and g.state["chance"]["counter"] is True
    g.apply({"type": "roll", "value": 0})
    while g.state["chance"]:
        g.apply({"type": "roll", "value": 0})
    assert g.state["counterattack"] is None  # no counterattack of a counterattack


def test_no_reaction_fire_across_a_crest():
    # Found by the random playouts: a crest between adjacent hexes forbids the fire (note f),
    # so the guns attacked across it have no reaction fire to offer.
    units = [
        {"id": "a1", "hex": "0303", "facing": 2, "ratings": {"strength": 6, "cohesion": 7}},
        {
            "id": "gun",
            "side": "au",
            "type": "artillery",
            "hex": "0403",
            "facing": 8,
            "ratings": {"strength": 2, "cohesion": 6, "fire": 3, "range": 3},
        },
    ]
    sc = parse_scenario(
        {
            **scenario(units).data,
            "map": {
                **scenario(units).data["map"],
                "hexes": {"0403": {"level": 1}},
                "hexsides": [{"between": ["0303", "0403"], "features": ["crest"], "up": "0403"}],
            },
        }
    )
    g = at_step(sc, "combat")
    g.apply({"type": "melee", "target": "0403", "attackers": ["a1"]})
    assert g.state["reaction"] is None
    assert g.state["chance"]["purpose"] == "melee"


def test_no_counterattack_at_an_attacker_that_has_retreated():
    # Found by the random playouts: the attacker failed its cohesion test and retreated
    # before the defender's counterattack, which must then have no target.
    sc = duel({"strength": 2, "cohesion": 5}, {"strength": 8, "cohesion": 8})
    g = at_step(sc, "combat")
    g.apply({"type": "melee", "target": "0403", "attackers": ["a1"]})
    g.apply({"type": "roll", "value": 0})  # below 0: attacker Z + PZw/1, counterattack
    assert g.state["chance"]["purpose"] == "cohesion"
    g.apply({"type": "roll", "value": 9})  # 9 > 5: failed, the attacker retreats
    while g.legal_actions() and g.legal_actions()[0]["type"] == "retreat":
        g.apply(g.legal_actions()[0])
    assert g.state["units"]["a1"]["hex"] != "0303"
    assert g.state["counterattack"] is None
