"""hex-hexside's refusals of its commonest actions (``Ruleset.refusal``): the checked
``Game.apply`` names the action, the rule and the place, in words a player reads.

Map: flat hexes, even columns half a hex lower; a unit of 4 MP on clear ground reaches four hexes
down its column (0101 -> 0105), not five.
"""

from __future__ import annotations

import copy

import pytest
from test_play_hex_hexside import U, scenario

from muster.errors import IllegalActionError
from muster.game import Game
from muster.systems.hex_hexside.rules import RULES

TEC = "terrain effects chart"


def refused(g: Game, action: dict) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as found:
        g.apply(action)
    return found.value


def test_a_move_beyond_reach_names_the_unit_its_mp_and_the_chart():
    g = Game.start(scenario([U("p", "0101"), U("a", "0806", side="austria")]), RULES, 7)
    error = refused(g, {"type": "move", "unit": "p", "to": "0106"})
    assert error.key == "error.hh_out_of_reach"
    assert error.params == {"who": "p", "place": "0106", "allowance": 4.0, "rule": TEC}
    assert (error.rule, error.place) == (TEC, "0106")
    g.apply({"type": "move", "unit": "p", "to": "0105"})
    error = refused(g, {"type": "move", "unit": "p", "to": "0104"})
    assert error.key == "error.hh_has_moved" and error.params == {"who": "p"}


def gun(*others, hexsides=(), hexes=None) -> Game:
    units = [U("g", "0301", kind="artillery", strength=4, range=3, steps=1), *others]
    g = Game.start(scenario(units, hexsides, hexes), RULES, 7)
    g.apply({"type": "end_phase"})
    assert g.state["phase"] == "bombardment"
    return g


def test_a_bombardment_out_of_range_says_how_far():
    g = gun(U("d", "0304", side="austria"), U("e", "0305", side="austria"))
    error = refused(g, {"type": "bombard", "unit": "g", "target": "0305"})
    assert error.key == "error.hh_bombard_range"
    assert error.params == {"who": "g", "place": "0305", "distance": 4, "reach": 3}


def test_a_bombardment_the_chart_prohibits_names_the_chart():
    elbe = {"between": ["0302", "0303"], "features": ["elbe_river"]}
    into = {"between": ["0303", "0304"], "features": ["elbe_river"]}
    g = gun(U("d", "0304", side="austria"), U("e", "0503", side="austria"), hexsides=[elbe, into])
    error = refused(g, {"type": "bombard", "unit": "g", "target": "0304"})
    assert error.key == "error.hh_bombard_prohibited"
    assert (error.params["rule"], error.rule, error.place) == (TEC, TEC, "0304")


def test_a_bombardment_without_sight_or_from_next_to_an_enemy():
    # Woods at 0303 hide 0304 from the gun; 0503 stays in sight.
    g = gun(
        U("d", "0304", side="austria"), U("e", "0503", side="austria"), hexes={"0303": ["woods"]}
    )
    error = refused(g, {"type": "bombard", "unit": "g", "target": "0304"})
    assert error.key == "error.hh_bombard_sight" and error.place == "0304"
    # An enemy next to the gun: the gun may not bombard (the phase passes by itself).
    units = [U("g", "0301", kind="artillery", range=3, steps=1), U("d", "0304", side="austria")]
    g = Game.start(scenario([*units, U("e", "0302", side="austria")]), RULES, 7)
    g.apply({"type": "end_phase"})
    assert g.state["phase"] == "combat"
    state = {**g.state, "phase": "bombardment"}  # were it asked all the same
    found = RULES.refusal(g.scenario, state, {"type": "bombard", "unit": "g", "target": "0304"})
    assert found["key"] == "error.hh_bombard_adjacent" and found["params"] == {"who": "g"}


def test_an_attack_no_unit_may_make_names_the_chart():
    pond = {"between": ["0303", "0403"], "features": ["pond"]}
    g = Game.start(scenario([U("a", "0303"), U("d", "0403", side="austria")], [pond]), RULES, 7)
    while g.state["phase"] != "combat":
        g.apply({"type": "end_phase"})
    error = refused(g, {"type": "attack", "target": "0403"})
    assert error.key == "error.hh_no_attacker"
    assert error.params == {"place": "0403", "rule": TEC} and error.place == "0403"


def test_anything_else_gets_the_cores_words():
    g = Game.start(scenario([U("p", "0101"), U("a", "0806", side="austria")]), RULES, 7)
    error = refused(g, {"type": "bombard", "unit": "p", "target": "0806"})
    assert error.key == "error.refused" and error.rule == "movement"
    error = refused(g, {"type": "move", "unit": "a", "to": "0805"})  # the enemy's unit
    assert error.key == "error.refused"


@pytest.mark.parametrize("purpose", ["sortie", "deep charge"])
def test_a_roll_for_no_known_purpose_is_refused(purpose):
    """Every chance point's purpose has its handler (``rules.CHANCE``, ``closecombat.CHANCE``);
    any other is refused, never sent to a deep charge's."""
    sc = scenario([U("p", "0101"), U("a", "0806", side="austria")])
    g = Game.start(sc, RULES, 7)
    before = copy.deepcopy(g.state)
    with pytest.raises(IllegalActionError) as caught:
        RULES.roll(sc, g.state, {"type": "roll", "value": 1, "chance": {"purpose": purpose}})
    assert caught.value.key == "error.no_roll_due"
    assert caught.value.params == {"purpose": purpose}
    assert g.state == before
