"""Muster plays a side: ``advise`` in the API (its answer, its refusals, a game unchanged),
and games played to their end with Muster on one side or both, by legal actions only."""

from __future__ import annotations

import json
import random

import pytest

from muster.api import Session
from muster.errors import IllegalActionError
from muster.game import Game
from muster.opponent import LEVELS, Level, think, this_turn
from muster.opponent import evaluation as rules_evaluation
from muster.scenario import load_builtin
from muster.systems import game_rules

LIMIT = 5000
TINY = Level("level.muster_1", chances=1, deepen=1, plies=1, worlds=1, nodes=60)


def session(scenario_id: str = "demo-valmont", seed: int = 3) -> Session:
    """A session of a new game, its first dice rolled: a side decides."""
    s = Session()
    assert s.call("load_scenario", {"id": scenario_id})["ok"]
    assert s.call("new_game", {"seed": seed})["ok"]
    game = s.game
    while game.rules.decider(game.scenario, game.state) is None:
        game.push({"type": "roll"})
    return s


def fingerprint(game: Game) -> str:
    return json.dumps(
        [game.states, game.actions, game.redo_stack, game.log, game.log_marks, game.revision],
        sort_keys=True,
    )


@pytest.mark.parametrize("scenario_id", ["demo-valmont", "demo-hohenbrueck", "demo-fontanella"])
def test_advise_answers_a_legal_action_and_changes_nothing(scenario_id):
    s = session(scenario_id)
    game = s.game
    before = fingerprint(game)
    side = game.rules.decider(game.scenario, game.state)
    answer = s.call("advise", {"viewer": side, "level": 1, "seed": 4})
    assert answer["ok"], answer
    result = answer["result"]
    assert result["action"] in game.legal_actions()
    assert result["considered"] == len(game.legal_actions())
    assert isinstance(result["why"], list)
    for label in result["why"]:
        assert isinstance(label["key"], str) and isinstance(label["params"], dict)
    assert fingerprint(game) == before
    again = s.call("advise", {"viewer": side, "level": 1, "seed": 4})["result"]
    assert again["action"] == result["action"]
    json.dumps(answer, allow_nan=False)


def test_advise_without_a_viewer_advises_the_side_to_act():
    s = session()
    assert s.call("advise", {"level": 1, "seed": 1})["ok"]


def test_the_levels_are_listed_in_version():
    levels = Session().call("version")["result"]["levels"]
    assert [lv["level"] for lv in levels] == sorted(LEVELS)
    assert [lv["key"] for lv in levels] == ["level.muster_1", "level.muster_2", "level.muster_3"]
    assert sum(lv["default"] for lv in levels) == 1


@pytest.mark.parametrize(
    ("params", "key"),
    [
        ({"level": 0}, "error.bad_level"),
        ({"level": "1"}, "error.bad_level"),
        ({"level": True}, "error.bad_level"),
        ({"seed": -1}, "error.bad_seed"),
        ({"seed": 1.5}, "error.bad_seed"),
        ({"budget_ms": 0}, "error.bad_count"),
        ({"budget_ms": "fast"}, "error.bad_count"),
        ({"viewer": "prussia"}, "error.bad_viewer"),
        ({"colour": "red"}, "error.unknown_param"),
    ],
)
def test_advise_refuses_a_bad_parameter(params, key):
    s = session()
    before = fingerprint(s.game)
    answer = s.call("advise", params)
    assert not answer["ok"]
    assert answer["error"]["key"] == key
    assert fingerprint(s.game) == before


def test_advise_refuses_a_side_that_does_not_decide():
    s = session("demo-fontanella")
    game = s.game
    decider = game.rules.decider(game.scenario, game.state)
    other = next(x["id"] for x in game.scenario.data["sides"] if x["id"] != decider)
    answer = s.call("advise", {"viewer": other, "level": 1})
    assert answer["error"]["key"] == "error.advise_not_deciding"


def test_advise_refuses_at_a_chance_point_and_at_the_end():
    s = session("demo-valmont", 8)
    game = s.game
    rng = random.Random(8)
    refused = set()
    while not game.state.get("result"):
        if game.state.get("chance"):
            answer = s.call("advise", {"level": 1})
            refused.add(answer["error"]["key"])
        game.push(rng.choice(game.legal_actions()))
    assert refused == {"error.advise_not_deciding"}
    answer = s.call("advise", {"level": 1})
    assert answer["error"]["key"] == "error.advise_over"


def test_advise_refuses_without_a_game():
    s = Session()
    assert s.call("advise", {})["error"]["key"] == "error.no_game"
    s.call("load_scenario", {"id": "demo-valmont"})
    assert s.call("advise", {})["error"]["key"] == "error.no_game"


def play(scenario_id: str, muster: set[str], seed: int, decisions: int = LIMIT) -> Game:
    """A game to its end: Muster (a tiny budget) plays the sides of ``muster`` (its first
    ``decisions``), the others play at random; every action Muster takes goes through the
    checked ``apply``."""
    scenario = load_builtin(scenario_id)
    rules = game_rules(scenario.system)
    game = Game.start(scenario, rules, seed)
    rng = random.Random(seed)
    while not game.state.get("result"):
        assert len(game.actions) < LIMIT
        side = rules.decider(scenario, game.state)
        if side in muster and decisions > 0 and not game.state.get("chance"):
            decisions -= 1
            game.apply(think(game, side, TINY, seed)["action"])
        else:
            game.push(rng.choice(game.legal_actions()))
    assert Game.load(game.save(), game_rules).state == game.state
    return game


def test_a_game_with_muster_on_one_side_reaches_the_end():
    sides = [x["id"] for x in load_builtin("demo-fontanella").data["sides"]]
    play("demo-fontanella", {sides[1]}, 1)


@pytest.mark.parametrize("scenario_id", ["demo-valmont", "demo-hohenbrueck"])
def test_games_with_muster_on_one_side_for_a_while_reach_the_end(scenario_id):
    """The hex demos take long with Muster on a side all game (bench/arena.py plays them so):
    here it decides its first 30 times, then random play finishes the game."""
    sides = [x["id"] for x in load_builtin(scenario_id).data["sides"]]
    play(scenario_id, {sides[0]}, 1, 30)


def test_a_game_with_muster_on_both_sides_reaches_the_end():
    sides = [x["id"] for x in load_builtin("demo-fontanella").data["sides"]]
    play("demo-fontanella", set(sides), 2)


def test_muster_remembers_every_position_of_the_turn_and_changes_no_game():
    """``this_turn``: the positions of the current turn, newest first, the ones the game
    dropped to save room replayed as they were; the game itself is left as it was."""
    scenario = load_builtin("demo-fontanella")
    rules = game_rules(scenario.system)
    game = Game.start(scenario, rules, 5)
    rng = random.Random(5)
    every = [game.state]
    while len(game.actions) < 400 and not game.state.get("result"):
        game.push(rng.choice(game.legal_actions()))
        every.append(game.state)
    assert None in game.states  # some were dropped: the turn's are replayed
    before = fingerprint(game)
    turn = game.state["turn"]
    expected = []
    for state in reversed(every):
        if state["turn"] != turn:
            break
        expected.append(state)
    assert this_turn(game) == expected
    assert this_turn(game) == expected  # again, from what it worked out the first time
    assert this_turn(game, 3) == expected[:3]
    assert fingerprint(game) == before


def test_muster_ends_the_step_when_nothing_gains():
    """Where every action is worth the same, Muster ends the step rather than pick and put
    back blocks: at the start of demo-fontanella's first movement phase with a budget that
    looks at nothing further, the choice is the ending."""
    s = session("demo-fontanella")
    game = s.game
    side = game.rules.decider(game.scenario, game.state)
    flat = Level("level.muster_1", chances=0, deepen=0, plies=0, worlds=1, nodes=60)
    legal = game.legal_actions()
    assert any(a["type"] == "end_phase" for a in legal)
    assert think(game, side, flat, 1)["action"]["type"] == "end_phase"


def test_muster_walks_out_of_a_step_it_may_not_end():
    """A block on an approach with no enemy beyond must move before the phase may end, but two
    blocks of another locale are picked and no command is left: only picking is legal, and
    every pick is worth the same. Muster puts the picked blocks back, moves the block that
    must move (free, to its reserve) and ends the phase, in a few actions, where it once
    picked and put back blocks until the game's limit."""
    sc = load_builtin("demo-fontanella")
    rules = game_rules(sc.system)
    game = Game.start(sc, rules, 1)
    state = json.loads(json.dumps(game.state))
    state["pieces"]["a16"].update(locale="mollie", approach="prati")
    state["commands"] = 0
    state["selection"] = ["a08", "a04"]
    game.states[-1] = state
    legal = game.legal_actions()
    assert {a["type"] for a in legal} == {"select"}  # nothing ends the phase yet
    taken = []
    while rules.decider(sc, game.state) == "austria" and game.state["phase"] == "movement":
        assert len(taken) < 30, taken
        action = think(game, "austria", LEVELS[1], len(taken))["action"]
        taken.append(action)
        game.apply(action)
    assert {"type": "move", "to": "mollie"} in taken  # the block that had to move moved
    assert game.state["pieces"]["a16"]["approach"] is None
    assert taken[-1] == {"type": "end_phase"}


def test_muster_never_chooses_the_face_of_a_die():
    """At a chance point the side that rolls has the faces of a die typed in from the table
    among its legal actions: Muster picking one would choose its own luck. It is refused
    there (the API refuses the same), and the die is left to be rolled."""
    sc = load_builtin("demo-hohenbrueck")
    rules = game_rules(sc.system)
    game = Game.start(sc, rules, 3)
    rng = random.Random(3)
    while not game.state.get("chance"):
        assert not game.state.get("result")
        game.push(rng.choice(game.legal_actions()))
    side = rules.decider(sc, game.state)
    assert side is not None
    assert any("value" in a for a in game.legal_actions())  # a face could be typed in
    with pytest.raises(IllegalActionError) as refused:
        think(game, side, LEVELS[1], 1)
    assert refused.value.key == "error.advise_not_deciding"


@pytest.mark.parametrize("scenario_id", ["demo-valmont", "demo-hohenbrueck"])
def test_a_fight_looked_at_further_is_weighed_over_every_face_not_one_drawn(scenario_id):
    """A fight Muster looks at further (``deepen_one``) is valued over every face of its dice
    with their odds, as the first pass values it: the same whatever Muster's own random
    stream. Followed on one face drawn, the lucky draw of one line outbid the others."""
    from muster.opponent.search import STEP, Search

    sc = load_builtin(scenario_id)
    rules = game_rules(sc.system)
    evaluate = rules_evaluation(sc.system)
    level = Level("level.muster_1", chances=2, deepen=2, plies=1, worlds=1, nodes=100_000)
    found = 0
    for seed in range(40):
        game = Game.start(sc, rules, seed)
        rng = random.Random(seed)
        for _ in range(400):
            if game.state.get("result"):
                break
            legal = game.legal_actions()
            fights = [a for a in legal if a["type"] in rules.previewable]
            side = rules.decider(sc, game.state)
            if fights and side is not None and not game.state.get("chance"):
                fight = fights[0]
                values = set()
                for stream in range(3):
                    search = Search(rules, sc, side, evaluate, random.Random(stream), level)
                    values.add(round(search.deepen_one(game.state, fight), 9))
                assert len(values) == 1, (fight, values)
                search = Search(rules, sc, side, evaluate, random.Random(0), level)
                after = search.child(game.state, fight)
                first = search.settle(after, level.chances, None, True)
                assert values == {round(first - STEP, 9)}
                found += 1
                if found >= 3:
                    return
            game.push(rng.choice(legal))
    assert found, "no fight was offered in 40 random games"


def test_a_line_looked_at_further_stops_where_the_budget_is_spent():
    """A line ``deepen_one`` follows stops when the budget is spent, even halfway through the
    side's next decision of hundreds of actions: the time a level is given in the browser is
    not overrun by a line (it went on to value every action of the decision, a second and
    more of level 3 in demo-hohenbrueck). Such a line is not compared (``decide``)."""
    from muster.opponent.search import Search

    sc = load_builtin("demo-hohenbrueck")
    rules = game_rules(sc.system)
    evaluate = rules_evaluation(sc.system)
    level = Level("level.muster_1", chances=1, deepen=2, plies=2, worlds=1, nodes=100_000)
    game = Game.start(sc, rules, 1)
    side = rules.decider(sc, game.state)
    moves = [a for a in game.legal_actions() if a["type"] == "move"]
    # a move whose next decision is a long list (the side's other units' moves)
    search = Search(rules, sc, side, evaluate, random.Random(0), level)
    search.deepen_one(game.state, moves[0])
    assert search.nodes > 100  # followed whole, the line takes more than a hundred actions
    cut = Search(rules, sc, side, evaluate, random.Random(0), level, budget=20)
    cut.deepen_one(game.state, moves[0])
    assert 20 <= cut.nodes <= 22  # the action, the decision's first 19, the position valued


def test_a_first_pass_with_a_time_limit_looks_at_each_unit_in_turn_and_the_ending_first():
    """``spread``: the order a first pass looks at the actions when it has a time limit: the
    actions that end the step, then one action of each unit in turn; every action once."""
    from muster.opponent.search import spread

    legal = [
        {"type": "move", "unit": "a", "to": "1"},
        {"type": "move", "unit": "a", "to": "2"},
        {"type": "move", "unit": "a", "to": "3"},
        {"type": "move", "unit": "b", "to": "1"},
        {"type": "formation", "unit": "b", "to": "column"},
        {"type": "end_phase"},
        {"type": "move", "unit": "c", "to": "9"},
    ]
    assert spread(legal) == [5, 0, 3, 6, 1, 4, 2]
    assert spread([]) == []


def test_past_its_time_muster_looks_at_no_more_actions_and_still_answers():
    """With its time already spent (a battle far bigger than the time given), Muster's first
    pass looks at few actions of hundreds, not at every one (a battle of 2,000 units took
    minutes a decision), and still answers a legal action with its why."""
    s = session("demo-hohenbrueck", 1)
    game = s.game
    side = game.rules.decider(game.scenario, game.state)
    legal = game.legal_actions()
    assert len(legal) > 200
    whole = s.call("advise", {"viewer": side, "level": 1, "seed": 1})["result"]
    assert whole["nodes"] > len(legal)  # untimed: every action looked at, at least once
    answer = s.call("advise", {"viewer": side, "level": 1, "seed": 1, "budget_ms": 1})
    assert answer["ok"], answer
    assert answer["result"]["action"] in legal
    assert answer["result"]["nodes"] < 50  # a machine slower, or paused, looks at fewer
    assert answer["result"]["considered"] == len(legal)


def test_muster_is_given_the_legal_actions_its_sides_screen_shows():
    """``Game.legal_for``: the view's legal actions without the view: the deciding side's in
    a game of hidden blocks (none for the other side), every side's otherwise."""
    for scenario_id in ("demo-fontanella", "demo-valmont"):
        game = session(scenario_id).game
        for side in [s["id"] for s in game.scenario.data["sides"]] + [None]:
            assert game.legal_for(side) == game.view(side, 0)["legal"]
        if game.rules.hidden_information:
            waiting = next(
                s["id"]
                for s in game.scenario.data["sides"]
                if s["id"] != game.rules.decider(game.scenario, game.state)
            )
            assert game.legal_for(waiting) == []


def test_the_levels_that_look_at_the_other_sides_turn_weigh_its_threat(monkeypatch):
    """Levels 2 and 3 add the system's ``threat`` (what each side's fire could do at its next
    turn) to every position's value, level 3 its ``assault`` (its close combats) too; level 1
    neither. A threat that only one move lifts (a made-up one: one unit standing on one hex)
    is that move for level 2, not for level 1; an assault so made up is that move for level 3,
    not for level 2, and level 3 counts it."""
    import dataclasses

    from muster import systems

    assert [n for n, lv in LEVELS.items() if lv.threats] == [2, 3]
    assert [n for n, lv in LEVELS.items() if lv.assaults] == [3]
    sc = load_builtin("demo-hohenbrueck")
    game = Game.start(sc, game_rules(sc.system), 1)
    legal = game.legal_actions()
    moves = [a for a in legal if a["type"] == "move"]
    levels = {**LEVELS, 3: dataclasses.replace(LEVELS[3], nodes=1500)}  # its sight, less budget
    answers = {lv: think(game, "prussia", levels[lv], "t/1") for lv in (1, 2, 3)}
    plain = {lv: answer["action"] for lv, answer in answers.items()}
    wanted = next(m for m in reversed(moves) if m not in plain.values())
    shipped = systems.get(sc.system)

    def threat(scenario, state, side):
        there = state["units"][wanted["unit"]]["hex"] == wanted["to"]
        return (100.0 if there else 0.0) * (1 if side == "prussia" else -1)

    changed = dataclasses.replace(shipped, threat=threat)
    monkeypatch.setattr(systems, "get", lambda system: changed)
    assert think(game, "prussia", LEVELS[2], "t/1")["action"] == wanted
    assert think(game, "prussia", LEVELS[1], "t/1")["action"] == plain[1]
    assaulting = dataclasses.replace(shipped, assault=threat)
    monkeypatch.setattr(systems, "get", lambda system: assaulting)
    assert think(game, "prussia", LEVELS[2], "t/1")["action"] == plain[2]
    # level 3 takes the made-up gain too (on the way to more: its line goes on past it)
    assert think(game, "prussia", levels[3], "t/1")["value"] >= answers[3]["value"] + 50
