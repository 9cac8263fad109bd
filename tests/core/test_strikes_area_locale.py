"""What Muster reads of each side's coming turn in area-locale (``evaluation.strikes`` and
``threat``): the objectives it could walk into, the maneuver attacks the enemy could not block
and the assaults it would win whatever the defender leads, each checked against the rules
themselves: on small maps (the specs of test_play_area_locale) and on every strike found in
random games of the demo, played out by the rules from the start of the side's turn."""

from __future__ import annotations

import copy
import random

import pytest
from test_play_area_locale import game, select, start_assault, steps, where

from muster import worth
from muster.game import Game
from muster.scenario import load_builtin
from muster.systems import game_rules
from muster.systems.area_locale.evaluation import strikes, threat

W = worth.weights("area-locale")
STEP = W["steps"] + W["morale"]  # a step lost is worth this to the reading (1 morale a step)


def test_an_empty_objective_next_to_a_piece_is_walked_into():
    g = game("a b c", "x1:i2@b y1:i2@a", obj={"c": 2})
    assert strikes(g.scenario, g.state, "x") == [
        {"from": ("b", None), "to": "c", "kind": "walk", "lost": 0, "worth": W["points"] * 2}
    ]
    assert threat(g.scenario, g.state, "x") == W["strike"] * W["points"] * 2
    assert threat(g.scenario, g.state, "y") == -W["strike"] * W["points"] * 2  # zero-sum
    g.state["phase"] = "movement"
    assert select(g, "x1")["c"] is False  # the rules: into c, no attack


def test_a_maneuver_attack_counts_only_where_the_enemy_cannot_block_it():
    # y1 in c's reserve may block an attack from b's reserve: nothing to count
    g = game("a b c d", "x1:i3@b y1:i2@c", obj={"c": 2})
    assert strikes(g.scenario, g.state, "x") == []
    # on c's approach facing d, it may not: c falls, y1 loses a step (another approach) and
    # the objective changes hands (y held it: twice its points)
    g = game("a b c d", "x1:i3@b y1:i2@c/d", obj={"c": 2})
    [found] = strikes(g.scenario, g.state, "x")
    assert found == {
        "from": ("b", None),
        "to": "c",
        "kind": "maneuver",
        "lost": 1,
        "worth": W["points"] * 2 * 2 + STEP,
    }
    g.state["phase"] = "movement"
    assert select(g, "x1")["c"] is True
    g.apply({"type": "move", "to": "c", "attack": True})
    assert g.state["pending"] is None  # no block asked
    assert (where(g, "x1"), where(g, "y1"), steps(g, "y1")) == ("c", "d", 1)
    # on the border (c's approach facing b) it blocks the way: an assault's, not a maneuver's
    g = game("a b c d", "x1:i3@b y1:i2@c/b", obj={"c": 2})
    assert strikes(g.scenario, g.state, "x") == []


def test_a_group_with_nowhere_to_fall_back_counts_all_its_steps():
    g = game("a b c d", "x1:i3@b y1:i2@c/d y2:i1@d", obj={"c": 2}, caps={"d": 1})
    [found] = strikes(g.scenario, g.state, "x")
    assert found["lost"] == 2
    g.state["phase"] = "movement"
    select(g, "x1")
    g.apply({"type": "move", "to": "c", "attack": True})
    assert where(g, "y1") == "out"


@pytest.mark.parametrize(
    "retreat, lost",
    [
        ({}, 1 + 1 + 1),  # the gun; a step off the other approach; a step off the reserve
        ({"other_approach": 0, "reserve": 2}, 1 + 0 + 2),
        ({"eliminated": [], "reserve_spared": ["cavalry", "infantry", "artillery"]}, 0 + 1 + 0),
    ],
    ids=["notes", "reserve-harder", "guns-kept"],
)
def test_the_reading_counts_a_fall_back_as_the_scenarios_rules_play_it(retreat, lost):
    """One fall back, read by both (``position.fall_back``): a scenario's ``retreat``
    overrides change what the reading counts and what the rules take alike."""
    # x1 on b's approach facing c walks into c (nobody on c's border to block it): y1 on
    # another approach, y2 and the gun y3 in the reserve fall back to d
    units = "x1:i3@b/c y1:i3@c/d y2:i2@c y3:g1@c"
    g = game("a b c d", units, obj={"c": 2}, seq={"retreat": retreat})
    [found] = strikes(g.scenario, g.state, "x")
    assert (found["kind"], found["lost"]) == ("maneuver", lost)
    assert found["worth"] == W["points"] * 2 * 2 + STEP * lost
    g.state["phase"] = "movement"
    before = sum(steps(g, p) for p in ("y1", "y2", "y3"))
    select(g, "x1")
    g.apply({"type": "move", "to": "c", "attack": True})
    while g.state["pending"]:
        g.apply(g.legal_actions()[0])
    assert before - sum(steps(g, p) for p in ("y1", "y2", "y3")) == lost
    assert where(g, "x1") == "c"


@pytest.mark.parametrize(
    "units, counted",
    [
        ("x1:i3@b/c y1:i1@c/b", True),  # 3 - 1 (terrain) - 1 = 1: the attacker wins
        ("x1:i3@b/c y1:i2@c/b", False),  # 3 - 1 - 2 = 0: the defender wins
        ("x1:i3@b/c y1:i1@c/b y2:g1@c", False),  # its gun fires: 3 - 1 - 1 - 1 = 0
        ("x1:i1@b/c y1:i1@c/b", False),  # no leading piece of 2 steps: no assault
    ],
)
def test_an_assault_counts_where_the_attacker_wins_whatever_the_defender_leads(units, counted):
    g = game("a b c d", units, ap={"c/b": "1"}, obj={"c": 2})
    found = strikes(g.scenario, g.state, "x")
    assert [f["kind"] for f in found] == (["assault"] if counted else [])
    if not counted:
        return
    # y1 (1 step) loses 1 + 1 (the result), all it has; x1 the winner's step
    assert found[0]["lost"] == 1
    assert found[0]["worth"] == W["points"] * 2 * 2 + STEP * (1 - 1)
    for defence in ([], ["y1"]):
        played = copy.deepcopy(g)
        played.state["phase"] = "assault"
        start_assault(played, "b/c", ["x1"])
        played.apply({"type": "lead", "units": defence})
        while played.state["pending"]:
            played.apply(played.legal_actions()[0])
        assert (where(played, "y1"), where(played, "x1"), steps(played, "x1")) == ("out", "c", 2)


def test_a_side_strikes_once_a_command_each_place_and_locale_once():
    # x has four pieces beside four empty objectives, and three commands
    g = game(
        "a b c d e/f g h i j",
        "x1:i2@a x2:i2@b x3:i2@c x4:i2@d",
        obj={"f": 1, "g": 2, "h": 3, "i": 4, "j": 5},
        links="a-f b-g c-h d-i d-j",
    )
    found = strikes(g.scenario, g.state, "x")
    # d's pieces could walk into i or j: one place strikes once (j, the worthier)
    assert [(f["from"][0], f["to"]) for f in found] == [("d", "j"), ("c", "h"), ("b", "g")]


def demo_positions(seeds: int = 4) -> list[tuple[Game, str]]:
    """Positions of random games of demo-fontanella where a side's turn starts: at its assault
    phase and at its movement phase, before it has done anything."""
    sc = load_builtin("demo-fontanella")
    rules = game_rules(sc.system)
    found = []
    for seed in range(seeds):
        g = Game.start(sc, rules, seed)
        rng = random.Random(seed)
        while not g.state["result"]:
            st = g.state
            fresh = st["pending"] is None and st["commands"] == 3 and not st["selection"]
            if fresh and st["phase"] in ("assault", "movement"):
                mine = [p for pid, p in st["pieces"].items() if sc.units[pid]["side"] == st["side"]]
                if not any(p["moved"] or p["assaulted"] for p in mine):
                    found.append((Game(sc, rules, seed, states=[copy.deepcopy(st)]), st["phase"]))
            g.apply(rng.choice(g.legal_actions()))
    return found


def test_every_strike_read_in_random_games_is_one_the_rules_play_as_read():
    """Each strike the reading finds for the side whose turn starts is legal by the rules and,
    played (the defender answering anything), takes the locale and costs the defenders at least
    the steps it read (exactly, for a walk or a maneuver attack: no choice changes them)."""
    kinds = {"walk": 0, "maneuver": 0, "assault": 0}
    for start, phase in demo_positions():
        side = start.state["side"]
        for strike in strikes(start.scenario, start.state, side):
            frm, to, kind = strike["from"], strike["to"], strike["kind"]
            if (kind == "assault") != (phase == "assault"):
                continue
            g = Game(start.scenario, start.rules, 0, states=[copy.deepcopy(start.state)])
            enemy = [pid for pid in g.state["pieces"] if g.scenario.units[pid]["side"] != side]
            before = sum(steps(g, pid) for pid in enemy)
            if kind == "assault":
                g.apply({"type": "assault", "approach": f"{frm[0]}/{frm[1]}"})
                g.apply({"type": "lead", "units": strongest(g)})
            else:
                here = [
                    pid
                    for pid, p in g.state["pieces"].items()
                    if not p["out"] and (p["locale"], p["approach"]) == frm
                    if g.scenario.units[pid]["side"] == side
                ]
                moves = {}
                for pid in here:  # the first piece there that may still move
                    moves = select(g, pid)
                    if to in moves:
                        break
                    g.apply({"type": "select", "unit": pid})  # put back
                assert moves.get(to) is (kind == "maneuver"), (strike, moves)
                g.apply({"type": "move", "to": to, **({"attack": True} if moves[to] else {})})
                assert not g.state["pending"] or g.state["pending"]["kind"] != "block"
            while g.state["pending"]:
                g.apply(g.legal_actions()[0])
            after = sum(steps(g, pid) for pid in enemy)
            assert all(
                where(g, pid) == "out" or g.state["pieces"][pid]["locale"] != to for pid in enemy
            )
            if kind == "assault":
                assert before - after >= strike["lost"], strike
            else:
                assert before - after == strike["lost"], strike
            kinds[kind] += 1
    assert kinds["walk"] and kinds["maneuver"], kinds


def strongest(g: Game) -> list[str]:
    """The attacker's leading pieces of most steps among those the rules offer."""
    options = [a["units"] for a in g.legal_actions() if a["type"] == "lead"]
    return max(options, key=lambda ids: sum(steps(g, pid) for pid in ids))


def test_the_advisor_says_which_strike_an_action_guards_against_or_readies():
    """``why``: a block moved back into its locale's reserve keeps the other side from walking
    in by a maneuver attack (it guards it); a block moved up beside a locale the enemy cannot
    hold against it readies its own attack next turn."""
    from muster.opponent import evaluation, why

    # x holds c (an objective) with x1 on its approach facing d; y1 in b may walk in
    g = game("a b c d", "y1:i2@b x1:i2@c/d x2:i2@a", obj={"c": 2})
    g.state["phase"] = "movement"
    assert strikes(g.scenario, g.state, "y")[0]["to"] == "c"
    g.apply({"type": "select", "unit": "x1"})
    back = {"type": "move", "to": "c"}  # into c's reserve: a block to stop the attack
    labels = why(g.rules, g.scenario, g.state, "x", back, evaluation("area-locale"))
    assert {"key": "advise.guards", "params": {"at": "c"}} in labels
    # y1 on c's approach facing d, nobody in c's reserve: x2 moved up from a to b readies it
    g = game("a b c d", "x2:i2@a y1:i2@c/d", obj={"c": 2})
    g.state["phase"] = "movement"
    g.apply({"type": "select", "unit": "x2"})
    up = {"type": "move", "to": "b"}
    labels = why(g.rules, g.scenario, g.state, "x", up, evaluation("area-locale"))
    assert {"key": "advise.prepares", "params": {"at": "c"}} in labels
    assert not [lb for lb in labels if lb["key"] == "advise.guards"]
