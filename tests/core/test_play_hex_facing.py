"""hex-facing play: the activation cup, moves and facing, orders, rally, turns and victory."""

import pytest
from playouts import random_playout

from muster.errors import IllegalActionError
from muster.game import Game
from muster.scenario import load_builtin, parse_scenario
from muster.systems import game_rules

RULES = game_rules("hex-facing")


# The tests of tiny() walk the sequence by hand: its empty steps are not passed by themselves
# (sequence.json empty_steps; test_an_empty_step_passes_by_itself and after test what is).
BY_HAND = {"sequence": {"empty_steps": {"passed": False}}}


def tiny(**extra):
    """A 6x4 map: two French units in one brigade, one Austrian, one objective; every step
    ended by hand (``BY_HAND``)."""
    data = {
        "format": "muster-scenario/1",
        "id": "t",
        "system": "hex-facing",
        "title": "t",
        "turns": 2,
        "map": {"orientation": "flat", "stagger": "even", "columns": 6, "rows": 4},
        "sides": [{"id": "fr", "name": "F"}, {"id": "au", "name": "A"}],
        "formations": [
            {"id": "bde", "side": "fr", "name": "Brigade"},
            {"id": "aus", "side": "au", "name": "Austrians", "orders": False},
        ],
        "objectives": [{"hex": "0502", "points": 2}],
        "units": [
            {
                "id": "f1",
                "side": "fr",
                "type": "infantry",
                "name": "F1",
                "hex": "0102",
                "formation": "bde",
                "facing": 2,
                "ratings": {"movement": 4, "cohesion": 6},
            },
            {
                "id": "f2",
                "side": "fr",
                "type": "infantry",
                "name": "F2",
                "hex": "0103",
                "formation": "bde",
                "facing": 2,
                "ratings": {"movement": 4, "cohesion": 6},
            },
            {
                "id": "a1",
                "side": "au",
                "type": "infantry",
                "name": "A1",
                "hex": "0502",
                "formation": "aus",
                "facing": 8,
                "ratings": {"movement": 4, "cohesion": 5},
            },
        ],
    }
    data["overrides"] = BY_HAND
    data.update(extra)
    return parse_scenario(data)


def start(scenario=None, seed=1):
    return Game.start(scenario or tiny(), RULES, seed)


def test_the_turn_opens_with_a_draw_from_the_cup():
    g = start()
    assert g.state["chance"] == {"options": ["bde", "aus"], "purpose": "activation"}
    assert g.state["held"] == {"0502": "au"}  # held by who stands there at the start
    g.apply({"type": "roll", "value": "bde"})
    assert g.state["cup"] == ["aus"]
    assert g.state["active"]["formation"] == "bde"
    assert g.state["active"]["step"] == "fire"
    assert g.legal_actions() == [{"type": "next_step"}]


def test_move_then_choose_facing():
    g = start()
    g.apply({"type": "roll", "value": "bde"})
    g.apply({"type": "next_step"})  # to the move step
    moves = [a for a in g.legal_actions() if a["type"] == "move" and a["unit"] == "f1"]
    # 4 MP over clear ground (1 each): hexes up to 4 away, less what an enemy zone stops.
    assert {"type": "move", "unit": "f1", "to": "0302"} in moves
    g.apply({"type": "move", "unit": "f1", "to": "0302"})
    assert g.state["units"]["f1"]["hex"] == "0302"
    # Now only a facing for f1 may be chosen.
    assert g.legal_actions() == [{"type": "face", "unit": "f1", "facing": f} for f in range(12)]
    with pytest.raises(IllegalActionError):
        g.apply({"type": "move", "unit": "f2", "to": "0203"})
    g.apply({"type": "face", "unit": "f1", "facing": 3})
    assert g.state["units"]["f1"]["facing"] == 3
    # f1 has moved; f2 may still move or turn in place.
    assert not [a for a in g.legal_actions() if a.get("unit") == "f1"]
    g.apply({"type": "face", "unit": "f2", "facing": 0})
    assert [a for a in g.legal_actions()] == [{"type": "next_step"}]


def test_a_formation_without_orders_moves_at_half_rate():
    g = start()
    g.apply({"type": "roll", "value": "aus"})
    g.apply({"type": "next_step"})
    targets = {a["to"] for a in g.legal_actions() if a["type"] == "move"}
    assert "0402" in targets  # one hex for 1 MP of its 2
    assert "0202" not in targets  # 3 hexes away: beyond 4 x 1/2 MP
    assert g.state["active"]["orders"] is False


def test_after_the_cup_rally_then_next_turn_then_victory():
    sc = tiny()
    g = start(sc)
    for fid in ("bde", "aus"):
        g.apply({"type": "roll", "value": fid})
        for _ in range(3):
            g.apply({"type": "next_step"})
    assert g.state["phase"] == "rally" and g.state["rally"]["side"] == "fr"
    g.apply({"type": "end_rally"})
    g.apply({"type": "end_rally"})
    assert g.state["turn"] == 2 and g.state["phase"] == "activation"
    # Turn 2: the French take the objective 0502 after the Austrian leaves it.
    g.apply({"type": "roll", "value": "aus"})
    g.apply({"type": "next_step"})
    g.apply({"type": "move", "unit": "a1", "to": "0602"})
    g.apply({"type": "face", "unit": "a1", "facing": 8})
    g.apply({"type": "next_step"})
    g.apply({"type": "next_step"})
    g.apply({"type": "roll", "value": "bde"})
    g.apply({"type": "next_step"})
    g.apply({"type": "move", "unit": "f1", "to": "0402"})
    g.apply({"type": "face", "unit": "f1", "facing": 2})
    g.apply({"type": "next_step"})
    g.apply({"type": "next_step"})
    g.apply({"type": "end_rally"})
    g.apply({"type": "end_rally"})
    # Nobody on 0502 at the end: the Austrians, last to hold it, keep it.
    assert g.state["result"] == {"points": {"fr": 0, "au": 2}, "winner": "au"}
    assert g.legal_actions() == []


def test_rally_is_a_cohesion_test():
    g = start()
    state = g.states[-1]
    state["units"]["f1"]["status"] = "routed"
    state["units"]["f2"]["status"] = "disordered"
    for fid in ("bde", "aus"):
        g.apply({"type": "roll", "value": fid})
        for _ in range(3):
            g.apply({"type": "next_step"})
    assert {"type": "rally", "unit": "f1"} in g.legal_actions()
    g.apply({"type": "rally", "unit": "f1"})
    assert g.state["chance"]["purpose"] == "rally"
    g.apply({"type": "roll", "value": 6})  # 6 <= cohesion 6: passes
    assert g.state["units"]["f1"]["status"] == "disordered"
    g.apply({"type": "rally", "unit": "f2"})
    g.apply({"type": "roll", "value": 7})  # 7 > 6: fails
    assert g.state["units"]["f2"]["status"] == "disordered"
    assert g.log[-1]["key"] == "log.rally_failed"
    assert {"type": "rally", "unit": "f1"} not in g.legal_actions()  # once a turn


FIGHTS = ("fire", "melee", "reaction_fire")


@pytest.mark.parametrize("fight_bias", [0.0, 0.8], ids=["uniform", "fight-heavy"])
@pytest.mark.parametrize("seed", range(3))
def test_random_playouts_of_the_demo_end_cleanly(seed, fight_bias):
    """Legal actions at random (fight-heavy: fire and melee preferred, to reach combat's
    corners often): every game ends, the state stays JSON, and the save replays it."""
    g = random_playout(load_builtin("demo-valmont"), RULES, seed, FIGHTS, fight_bias)
    assert g.state["result"]["points"].keys() == {"france", "austria"}
    if fight_bias:
        assert any(e["key"] == "log.hf_melee_result" for e in g.log)
