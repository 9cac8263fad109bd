"""The game model on a tiny ruleset: actions, chance points, undo/redo, log, saves, replay."""

import copy
import json
import random

import pytest

from muster.errors import IllegalActionError, InvalidActionError, RulesError
from muster.game import Game, state_hash
from muster.ruleset import RulesBase, place_words
from muster.scenario import SCENARIO_DIR, load_builtin, parse_scenario
from muster.systems import game_rules

DEMOS = sorted(p.stem for p in SCENARIO_DIR.glob("*.json"))
PUSHES = 300  # actions of each demo played both ways

SCENARIO = {
    "format": "muster-scenario/1",
    "id": "volleys",
    "system": "hex-facing",
    "title": "Three volleys",
    "map": {"orientation": "flat", "stagger": "even", "columns": 2, "rows": 2},
    "sides": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
    "units": [],
}


class Volleys(RulesBase):
    """Three volleys of a d10 each; the score is their sum."""

    system = "hex-facing"
    previewable = ()
    hidden_information = False
    options = frozenset()

    def decider(self, scenario, state):
        return None

    def initial_state(self, scenario, options):
        return {"volley": 1, "score": 0, "chance": None, "result": None}

    def legal_actions(self, scenario, state):
        return [{"type": "fire"}, {"type": "hold"}]

    def apply(self, scenario, state, action):
        if action["type"] == "fire":
            state["chance"] = {"die": "d10", "purpose": "volley"}
            return [{"key": "log.fire", "params": {}}]
        if action["type"] == "roll":
            state["score"] += action["value"]
        state["volley"] += 1
        if state["volley"] > 3:
            state["result"] = {"score": state["score"]}
        return [{"key": "log.next", "params": {"volley": state["volley"]}}]


def new_game(seed=7, **options):
    return Game.start(parse_scenario(SCENARIO), Volleys(), seed, options)


def rules_for(system):
    return Volleys()


def test_chance_point_offers_a_digital_roll_and_every_face():
    g = new_game()
    assert g.legal_actions() == [{"type": "fire"}, {"type": "hold"}]
    g.apply({"type": "fire"})
    actions = g.legal_actions()
    assert actions[0] == {"type": "roll"}
    assert [a["value"] for a in actions[1:]] == list(range(10))


def test_physical_die_typed_in():
    g = new_game()
    g.apply({"type": "fire"})
    g.apply({"type": "roll", "value": 9})
    assert g.state["score"] == 9
    assert g.actions[-1] == {"type": "roll", "value": 9, "how": "physical"}
    assert g.state["rng"]["counter"] == 0  # the seeded RNG was not used


def test_digital_rolls_are_deterministic_per_seed():
    def play(seed):
        g = new_game(seed)
        for _ in range(3):
            g.apply({"type": "fire"})
            g.apply({"type": "roll"})
        return [a["value"] for a in g.actions if a["type"] == "roll"], g.state

    first, state = play(11)
    again, _ = play(11)
    assert first == again
    assert state["rng"]["counter"] == 3
    assert state["result"] == {"score": sum(first)}
    assert any(play(s)[0] != first for s in range(12, 20))


def test_illegal_and_malformed_actions_leave_the_game_untouched():
    g = new_game()
    before = copy.deepcopy(g.state)
    with pytest.raises(IllegalActionError, match="not allowed now"):
        g.apply({"type": "charge"})
    with pytest.raises(IllegalActionError):
        g.apply({"type": "roll", "value": 3})  # no chance point
    for bad in (None, "fire", {"kind": "fire"}, {"type": 3}):
        with pytest.raises(InvalidActionError):
            g.apply(bad)
    g.apply({"type": "fire"})
    with pytest.raises(IllegalActionError):
        g.apply({"type": "roll", "value": 10})  # a d10 reads 0-9
    assert g.states[0] == before


def test_undo_and_redo_restore_state_and_log():
    g = new_game()
    g.apply({"type": "fire"})
    g.apply({"type": "roll"})
    after_roll = copy.deepcopy(g.state)
    log_after = list(g.log)
    g.undo()
    assert g.state["chance"] == {"die": "d10", "purpose": "volley"}
    assert len(g.log) == 1
    g.redo()
    assert g.state == after_roll and g.log == log_after
    g.undo()
    g.undo()
    assert g.state == g.states[0] and g.log == []
    with pytest.raises(IllegalActionError):
        g.undo()
    g.apply({"type": "hold"})
    with pytest.raises(IllegalActionError):
        g.redo()  # a new action clears what could be redone


def test_strict_play_keeps_rolls():
    g = new_game(strict_undo=True)
    g.apply({"type": "fire"})
    assert g.can_undo()
    g.apply({"type": "roll"})
    assert not g.can_undo()
    with pytest.raises(IllegalActionError):
        g.undo()


def test_save_replays_to_the_same_state():
    g = new_game(5)
    g.apply({"type": "fire"})
    g.apply({"type": "roll"})
    g.apply({"type": "hold"})
    g.apply({"type": "fire"})
    g.apply({"type": "roll", "value": 4})
    save = json.loads(json.dumps(g.save()))
    loaded = Game.load(save, rules_for)
    assert loaded.state == g.state
    assert loaded.actions == g.actions
    assert state_hash(loaded.state) == save["hash"]


@pytest.mark.parametrize(
    "tamper,message",
    [
        (lambda s: s.update(format="other"), "not a save file"),
        (lambda s: s.update(seed="x"), r"not a save file \(seed\)"),
        (lambda s: s.update(hash="0" * 16), "does not replay to its saved state"),
        (lambda s: s["actions"].append({"type": "charge"}), "action 6 of the save"),
        (lambda s: s["actions"][1].update(value=0), "action 2 of the save"),
        (lambda s: s["scenario"].update(system="chess"), "unknown rule system"),
    ],
)
def test_bad_saves_are_refused(tamper, message):
    g = new_game(5)
    for action in ({"type": "fire"}, {"type": "roll"}, {"type": "hold"}, {"type": "fire"}):
        g.apply(action)
    g.apply({"type": "roll", "value": 4})
    save = json.loads(json.dumps(g.save()))
    tamper(save)
    with pytest.raises(RulesError, match=message):
        Game.load(save, rules_for)


def test_cup_draws_are_chance_points_too():
    class Cup(Volleys):
        def apply(self, scenario, state, action):
            if action["type"] == "fire":
                state["chance"] = {"options": ["red", "blue", "green"], "purpose": "activation"}
                return []
            state["drawn"] = action["value"]
            return []

    g = Game.start(parse_scenario(SCENARIO), Cup(), 3)
    g.apply({"type": "fire"})
    assert g.legal_actions()[1:] == [{"type": "roll", "value": c} for c in ("red", "blue", "green")]
    g.apply({"type": "roll"})
    assert g.state["drawn"] in ("red", "blue", "green")


def test_a_system_without_previews_refuses_one():
    with pytest.raises(IllegalActionError) as refused:
        RulesBase().preview(None, {}, {"type": "fire"})
    assert refused.value.key == "error.illegal_action"


# -- the two entry points: checked apply, unchecked push ----------------------------------------


@pytest.mark.parametrize("demo", DEMOS)
def test_push_reaches_the_states_apply_reaches(demo):
    """The unchecked push, given the legal actions the checked apply takes, gives the same
    states, hashes, logs and recorded actions (rolls included), and undo after it alike."""
    scenario = load_builtin(demo)
    rules = game_rules(scenario.system)
    checked = Game.start(scenario, rules, 5)
    fast = Game.start(scenario, rules, 5)
    rng = random.Random(5)
    for _ in range(PUSHES):
        if checked.state.get("result"):
            break
        action = rng.choice(checked.legal_actions())
        assert checked.apply(action) == fast.push(action)
        assert fast.state == checked.state
        assert state_hash(fast.state) == state_hash(checked.state)
    assert fast.actions == checked.actions and fast.log == checked.log
    checked.undo()
    fast.undo()
    assert fast.state == checked.state
    assert Game.load(fast.save(), game_rules).state == fast.state


def test_push_does_not_list_the_legal_actions():
    class Counted(Volleys):
        listed = 0

        def legal_actions(self, scenario, state):
            Counted.listed += 1
            return super().legal_actions(scenario, state)

    g = Game.start(parse_scenario(SCENARIO), Counted(), 7)
    g.push({"type": "fire"})
    g.push({"type": "roll"})
    assert Counted.listed == 0 and g.state["volley"] == 2
    g.apply({"type": "hold"})
    assert Counted.listed == 1


def test_a_refusal_names_the_action_the_unit_the_place_and_what_is_asked_now():
    scenario = load_builtin("demo-hohenbrueck")
    g = Game.start(scenario, game_rules(scenario.system), 1)
    # A unit of the side not to move: hex-hexside words its own units' moves out of reach itself.
    uid = next(u for u, spec in scenario.units.items() if spec["side"] != g.state["side"])
    far = max(scenario.at_label)  # a hex no unit reaches in one move
    with pytest.raises(IllegalActionError) as refused:
        g.apply({"type": "move", "unit": uid, "to": far})
    error = refused.value
    assert error.key == "error.refused"
    name = scenario.units[uid]["name"]
    words = {"act": "move", "who": name, "place": far}
    assert error.params["action"] == {"key": "refused.act_who_place", "params": words}
    prompt = g.rules.prompt(scenario, g.state)
    assert error.params["now"] == {"key": prompt["key"], "params": prompt["params"]}
    assert error.place == far and error.rule == g.state["phase"]
    assert uid not in json.dumps(error.params)  # words only: the unit's name, not its id
    assert str(error).startswith('not allowed now: {"to":') and far in str(error)


def test_a_refusal_words_only_what_it_knows():
    g = new_game()
    with pytest.raises(IllegalActionError) as refused:
        g.apply({"type": "Charge!", "unit": "nobody", "to": "9999"})
    assert refused.value.params["action"] == {"key": "refused.some", "params": {}}
    with pytest.raises(IllegalActionError) as refused:
        g.apply({"type": "charge", "to": "0101"})
    assert refused.value.params["action"]["params"] == {"act": "charge", "place": "0101"}
    for _ in range(3):
        g.apply({"type": "hold"})
    with pytest.raises(IllegalActionError) as refused:
        g.apply({"type": "hold"})
    assert refused.value.key == "error.refused_over"


def test_a_refusal_never_names_a_block_the_side_deciding_may_not_see():
    scenario = load_builtin("demo-fontanella")
    rules = game_rules(scenario.system)
    assert rules.hidden_information
    g = Game.start(scenario, rules, 1)
    decider = rules.decider(scenario, g.state)
    mine = next(u for u, spec in scenario.units.items() if spec["side"] == decider)
    theirs = next(u for u, spec in scenario.units.items() if spec["side"] != decider)
    for uid, named in ((mine, True), (theirs, False)):
        with pytest.raises(IllegalActionError) as refused:
            g.apply({"type": "take_step", "unit": uid})
        error = refused.value
        assert error.key == "error.refused_plain"  # nothing of the prompt: a side's own
        assert ("who" in error.params["action"]["params"]) is named
        assert scenario.units[theirs]["name"] not in json.dumps(error.params)


def test_a_refusal_names_a_locale_and_an_approach_by_their_names():
    scenario = load_builtin("demo-fontanella")
    a, b = next(iter(scenario.approaches.values())).id.split("/")
    names = scenario.locales[a].name, scenario.locales[b].name
    assert place_words(scenario, a) == names[0]
    assert place_words(scenario, f"{a}/{b}") == f"{names[0]} → {names[1]}"
    assert place_words(scenario, "nowhere") is None
    assert place_words(scenario, f"{a}/{b}/{a}") is None
