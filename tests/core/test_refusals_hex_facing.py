"""hex-facing's own refusals: a move beyond the unit's movement, a fire out of range, out of
the front arc or out of sight say so, with the rule and the place (``Ruleset.refusal``)."""

from __future__ import annotations

import copy

import pytest
from test_fight_hex_facing import GUN, at_step, scenario

from muster.errors import IllegalActionError
from muster.systems import game_rules

RULES = game_rules("hex-facing")


def refused(g, action):
    with pytest.raises(IllegalActionError) as caught:
        g.apply(action)
    return caught.value


def test_a_move_beyond_the_units_movement_names_its_allowance_and_the_table():
    sc = scenario([{"id": "i1", "hex": "0103", "facing": 2, "ratings": {"movement": 2}}])
    g = at_step(sc, "move")
    assert {"type": "move", "unit": "i1", "to": "0303"} in g.legal_actions()
    error = refused(g, {"type": "move", "unit": "i1", "to": "0603"})
    assert error.key == "error.hf_out_of_reach"
    assert error.params == {"who": "i1", "place": "0603", "allowance": 2.0, "rule": "terrain table"}
    assert (error.rule, error.place) == ("terrain table", "0603")
    assert "rule: terrain table" in str(error)


@pytest.mark.parametrize(
    "target, key, rule",
    [
        ("0603", "error.hf_out_of_range", "fire DRM table"),  # 5 hexes: range 2 + 2 at most
        ("0101", "error.hf_out_of_arc", None),  # behind the battery (it faces down-right)
        ("0503", "error.hf_no_sight", "7.4"),  # the line runs between two woods hexes
    ],
)
def test_a_fire_it_cannot_make_says_why(target, key, rule):
    units = [GUN] + [
        {"id": f"t{i}", "side": "au", "hex": h, "ratings": {"cohesion": 6}}
        for i, h in enumerate(("0603", "0101", "0503"))
    ]
    sc = scenario(units, hexes={"0402": {"terrain": ["woods"]}, "0403": {"terrain": ["woods"]}})
    g = at_step(sc, "fire", by_hand=True)  # no fire it may make: an empty step
    error = refused(g, {"type": "fire", "unit": "gun", "target": target})
    assert error.key == key
    assert (error.rule, error.place) == (rule, target)
    assert error.params["who"] == "gun" and error.params["place"] == target
    if key == "error.hf_out_of_range":
        assert (error.params["distance"], error.params["reach"]) == (5, 4)


def test_other_refusals_are_the_cores():
    sc = scenario([{"id": "i1", "hex": "0103", "facing": 2, "ratings": {"movement": 2}}])
    g = at_step(sc, "fire", by_hand=True)  # not the move step
    error = refused(g, {"type": "move", "unit": "i1", "to": "0603"})
    assert error.key == "error.refused"
    for junk in ({"type": "move", "unit": ["x"]}, {"type": "fire", "unit": "gun", "target": 3}):
        assert refused(g, junk).key == "error.refused"


def test_a_roll_for_no_known_purpose_is_refused():
    """Every chance point's purpose has its handler (``rules.CHANCE``); any other is refused,
    never taken for one of them."""
    sc = scenario([{"id": "i1", "hex": "0103", "facing": 2, "ratings": {"movement": 2}}])
    g = at_step(sc, "move")
    before = copy.deepcopy(g.state)
    with pytest.raises(IllegalActionError) as caught:
        RULES.roll(sc, g.state, {"type": "roll", "value": 1, "chance": {"purpose": "sortie"}})
    assert caught.value.key == "error.no_roll_due"
    assert caught.value.params == {"purpose": "sortie"}
    assert g.state == before
