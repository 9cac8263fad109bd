"""The way on through a game (``muster.flow``, docs/play-view.md): the primary item is the
natural next step and never a give-up; an ending that leaves commands unused or units unmoved
says so; undo reaches back over the hand-over where nothing is hidden; a step or phase with
nothing to do passes by itself, logged, unless the scenario turns it off (``empty_steps``)."""

from __future__ import annotations

import random

import pytest

from muster.api import Session
from muster.errors import ScenarioError
from muster.game import Game
from muster.scenario import load_builtin, parse_scenario
from muster.systems import game_rules

DEMOS = ("demo-valmont", "demo-hohenbrueck", "demo-fontanella")
GIVE_UPS = {"cancel"}  # the action types that abandon what is under way (an attack)
SEEDS = (1, 2)
STEPS = 400  # actions of each random game: over a turn of each demo


def start(demo, seed=1, sequence=None):
    sc = load_builtin(demo)
    if sequence is not None:
        sc = parse_scenario({**sc.data, "overrides": {"sequence": sequence}})
    return Game.start(sc, game_rules(sc.system), seed)


def random_views(demo, seed):
    """The deciding side's view after each action of a random game of ``demo``."""
    g = start(demo, seed)
    rng = random.Random(seed)
    for _ in range(STEPS):
        if g.state.get("result"):
            return
        yield g, g.view(None, 0)
        g.push(rng.choice(g.legal_actions()))


def items_of(view):
    return [it for ch in view["choices"] for it in ch["items"]]


@pytest.mark.parametrize("demo", DEMOS)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_primary_item_is_one_never_a_give_up(demo, seed):
    seen = set()
    for _, view in random_views(demo, seed):
        items = items_of(view)
        primary = [it for it in items if it.get("primary")]
        assert len(primary) <= 1
        for it in items:
            assert it.get("give_up", False) is (it["action"]["type"] in GIVE_UPS)
        ends = [it for ch in view["choices"] if ch.get("end") for it in ch["items"]]
        if any(not it.get("give_up") for it in ends):
            assert len(primary) == 1
        if primary:
            assert not primary[0].get("give_up")
            seen.add(primary[0]["action"]["type"])
    assert seen  # the games had a way on to mark


def test_a_designated_attack_is_the_primary_item_not_giving_it_up():
    found = 0
    for seed in SEEDS:
        for _, view in random_views("demo-hohenbrueck", seed):
            types = {it["action"]["type"]: it for it in items_of(view)}
            if "confirm" in types and "cancel" in types:
                assert types["confirm"].get("primary") is True
                assert not types["cancel"].get("primary")
                found += 1
    assert found


def unused_of(view):
    ends = [it for ch in view["choices"] if ch.get("end") for it in ch["items"]]
    return [it["unused"] for it in ends if "unused" in it]


def test_ending_fontanellas_movement_with_commands_left_says_how_many():
    g = start("demo-fontanella")
    view = g.view(None, 0)
    assert g.state["phase"] == "movement" and g.state["commands"] == 3
    assert unused_of(view) == [{"key": "unused.commands", "params": {"count": 3}}]
    for _ in range(2000):  # a random game: the label says the commands left, when it shows
        view = g.view(None, 0)
        for label in unused_of(view):
            assert g.state["phase"] == "movement"
            assert label == {"key": "unused.commands", "params": {"count": g.state["commands"]}}
        if g.state.get("result"):
            break
        g.push(random.Random(len(g.actions)).choice(g.legal_actions()))


@pytest.mark.parametrize("demo", ["demo-valmont", "demo-hohenbrueck"])
def test_ending_a_movement_with_units_unmoved_says_how_many(demo):
    shown = 0
    for g, view in random_views(demo, 1):
        movers = {
            a["unit"] for a in g.legal_actions() if a["type"] in ("move", "formation", "square")
        }
        if demo == "demo-valmont":
            movers |= {a["unit"] for a in g.legal_actions() if a["type"] == "face"}
        labels = unused_of(view)
        moving = g.state["phase"] in ("movement", "formation") and bool(movers)
        if moving and (demo != "demo-valmont" or g.state["active"]["step"] == "move"):
            if any(a["type"] in ("next_step", "end_phase") for a in g.legal_actions()):
                assert labels == [
                    {"key": "unused.units_not_moved", "params": {"count": len(movers)}}
                ]
                shown += 1
        else:
            assert labels == []
    assert shown


def hand_over(demo, seed=1):
    """A random game of ``demo`` up to the first action after which another side decides."""
    g = start(demo, seed)
    rng = random.Random(seed)
    rules, sc = g.rules, g.scenario
    while True:
        before = rules.decider(sc, g.state)
        legal = [a for a in g.legal_actions() if a["type"] != "roll"] or g.legal_actions()
        g.push(rng.choice(legal))
        after = rules.decider(sc, g.state)
        if before is not None and after is not None and after != before:
            return g, before


@pytest.mark.parametrize("demo", ["demo-valmont", "demo-hohenbrueck"])
def test_undo_reaches_back_over_the_hand_over_where_nothing_is_hidden(demo):
    g, before = hand_over(demo)
    view = g.view(None, 0)
    assert view["can_undo"] is True
    g.undo()
    assert g.rules.decider(g.scenario, g.state) == before


def test_undo_stops_at_the_hand_over_with_hidden_blocks():
    g, before = hand_over("demo-fontanella")
    now = g.rules.decider(g.scenario, g.state)
    assert g.view(now, 0)["can_undo"] is False
    assert not g.can_take_back()


def test_the_api_refuses_an_undo_over_the_hand_over_with_hidden_blocks():
    session = Session()
    assert session.call("load_scenario", {"id": "demo-fontanella"})["ok"]
    view = session.call("new_game", {"seed": 1})["result"]
    while True:
        side = view["decider"]
        ends = [a for a in view["legal"] if a["type"] in ("end_phase", "end_turn")]
        view = session.call("act", {"action": ends[0], "viewer": side})["result"]
        if view["decider"] != side:
            break
    view = session.call("game_view", {"viewer": view["decider"]})["result"]
    assert view["can_undo"] is False
    answer = session.call("undo", {"viewer": view["decider"]})
    assert answer["ok"] is False and answer["error"]["key"] == "error.cannot_undo"


def against_muster(seed=1):
    """A random game of Fontanella, Muster playing France, up to a point where Austria (the
    player) decides again after France's reply, nothing revealed to Austria in the reply;
    with the index of Austria's last decision before it."""
    sc = load_builtin("demo-fontanella")
    rng = random.Random(seed)
    g = Game.start(sc, game_rules(sc.system), seed, {"muster": {"france": 1}})
    decided = None
    while True:
        before = g.rules.decider(sc, g.state)
        seen = named(g, "austria")
        g.apply(rng.choice(g.legal_actions()))
        if before == "austria":
            decided = len(g.actions) - 1
            continue
        if named(g, "austria") - seen:
            decided = None  # France showed a block: this reply cannot be taken back
            continue
        if decided is not None and g.rules.decider(sc, g.state) == "austria":
            return g, decided


def named(g, side):
    view = g.rules.view_for(g.scenario, g.state, side)
    return {b["id"] for b in view["blocks"] if not b["hidden"]}


def test_undo_against_muster_takes_back_its_reply_with_the_players_move():
    g, decided = against_muster()
    assert g.view("austria", 0)["can_undo"] is True
    # Each of France's actions is taken back, then Austria's: the game is where Austria decided.
    while len(g.actions) > decided:
        assert g.can_take_back()
        g.undo()
    assert g.rules.decider(g.scenario, g.state) == "austria"


def test_undo_against_muster_stops_where_a_block_was_revealed_to_the_player():
    sc = load_builtin("demo-fontanella")
    rng = random.Random(1)
    g = Game.start(sc, game_rules(sc.system), 1, {"muster": {"france": 1}})
    stops = 0
    for _ in range(400):
        if g.state.get("result"):
            break
        seen = named(g, "austria")
        by_muster = g.rules.decider(sc, g.state) == "france"
        g.apply(rng.choice(g.legal_actions()))
        if by_muster and named(g, "austria") - seen:
            assert not g.can_take_back()
            assert g.view("austria", 0)["can_undo"] is False
            stops += 1
    assert stops


def test_undo_against_muster_stops_after_a_chance_was_settled():
    g, _ = against_muster()
    assert g.can_take_back()
    # The state before the last action as if at a chance point (no hidden-block demo rolls):
    # what the die showed is not taken back.
    g.states[-2] = {**g.states[-2], "chance": {"die": 6}}
    assert not g.can_take_back()


def test_undo_against_muster_on_both_sides_is_not_offered():
    sc = load_builtin("demo-fontanella")
    g = Game.start(sc, game_rules(sc.system), 1, {"muster": {"france": 1, "austria": 1}})
    g.apply(g.legal_actions()[0])
    assert g.can_undo() and not g.can_take_back()


def test_the_api_takes_back_musters_reply_with_the_players_move():
    g, decided = against_muster(2)
    session = Session()
    assert session.call("load_scenario", {"id": "demo-fontanella"})["ok"]
    view = session.call("load_save", {"save": g.save(), "viewer": "austria"})["result"]["view"]
    assert view["can_undo"] is True
    for _ in range(len(g.actions) - decided):
        answer = session.call("undo", {"viewer": "austria"})
        assert answer["ok"], answer
    assert answer["result"]["decider"] == "austria"


# -- empty steps ------------------------------------------------------------------------------


def test_valmonts_infantry_brigade_passes_its_fire_step_with_a_log_line():
    g = start("demo-valmont")
    g.apply({"type": "roll", "value": "fr-bde1"})  # Brigade Morand: no gun in range
    assert g.state["active"]["step"] == "move"
    passed = [e for e in g.log if e["key"] == "log.hf_step_passed"]
    assert passed == [
        {"key": "log.hf_step_passed", "params": {"formation": "fr-bde1", "step": "fire"}}
    ]
    # A save replays through the pass to the same state.
    assert Game.load(g.save(), game_rules).state == g.state


def test_an_empty_step_is_ended_by_hand_when_the_scenario_says_so():
    g = start("demo-valmont", sequence={"empty_steps": {"passed": False}})
    g.apply({"type": "roll", "value": "fr-bde1"})
    assert g.state["active"]["step"] == "fire"
    assert g.legal_actions() == [{"type": "next_step"}]
    assert not [e for e in g.log if e["key"].endswith("_passed")]


def test_valmonts_guns_pass_their_melee_step():
    g = start("demo-valmont")
    g.apply({"type": "roll", "value": "fr-art"})
    while g.state["active"] and g.state["active"]["formation"] == "fr-art":
        if g.state["active"]["step"] == "combat":  # never stops here: guns do not melee
            pytest.fail("the guns' melee step was not passed")
        g.apply({"type": "next_step"})
    steps = [e["params"]["step"] for e in g.log if e["key"] == "log.hf_step_passed"]
    assert "combat" in steps


@pytest.mark.parametrize(
    "demo, phase, key",
    [
        ("demo-hohenbrueck", "rally", "log.hh_phase_passed"),
        ("demo-fontanella", "bombardment", "log.al_phase_passed"),
    ],
)
def test_a_phase_with_nothing_to_do_passes_logged_unless_turned_off(demo, phase, key):
    g = start(demo)
    side = g.state["side"]
    while g.state["side"] == side:
        ends = [a for a in g.legal_actions() if a["type"] in ("end_phase", "end_turn")]
        g.apply(ends[0])
    passed = [e for e in g.log if e["key"] == key and e["params"]["side"] == g.state["side"]]
    assert passed and passed[0]["params"]["phase"] == phase  # the first of the new side's
    if demo == "demo-fontanella":  # its own side's log only
        assert all(e["to"] == e["params"]["side"] for e in g.log if e["key"] == key)
    held = start(demo, sequence={"empty_steps": {"passed": False}})
    side = held.state["side"]
    while held.state["side"] == side:
        ends = [a for a in held.legal_actions() if a["type"] in ("end_phase", "end_turn")]
        held.apply(ends[0])
    assert held.state["phase"] == phase
    assert [a["type"] for a in held.legal_actions()] in (["end_phase"], ["end_turn"])
    assert not [e for e in held.log if e["key"] == key]


@pytest.mark.parametrize("demo", DEMOS)
@pytest.mark.parametrize(
    "bad, place",
    [
        ({"passed": "yes"}, "overrides.sequence.empty_steps.passed"),
        ({"passed": True, "skip": 1}, "overrides.sequence.empty_steps"),
        ({"passed": True, "why": "mine"}, "overrides.sequence.empty_steps.why"),
    ],
)
def test_the_setting_is_refused_when_invalid(demo, bad, place):
    data = {**load_builtin(demo).data, "overrides": {"sequence": {"empty_steps": bad}}}
    with pytest.raises(ScenarioError) as e:
        parse_scenario(data)
    assert str(e.value).startswith(place)
