"""Trust at the table: a refused call changes nothing, whatever it was given; the bridge never
raises; saves are checked whole before the game in progress is replaced."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from muster import limits
from muster.api import Session
from muster.game import canonical, state_hash

DEMOS = ("demo-valmont", "demo-hohenbrueck", "demo-fontanella")
DEEP = [0]
for _ in range(1000):
    DEEP = [DEEP]
# One value of every kind a bad caller may send, the strange ones included.
BAD = [
    None,
    True,
    -1,
    0,
    2**60,
    10**400,
    1.5,
    float("nan"),
    float("-inf"),
    "",
    "zz",
    "x" * 5000,
    [],
    [1, "a"],
    {},
    {"type": 3},
    {"type": "move", "unit": ["a"]},
    DEEP,
]
QUERIES = {"version", "scenario_list", "hex_info", "reachable", "path", "los", "game_view"}
QUERIES |= {"preview", "save", "check_crt", "look_back", "rules_reference", "briefing"}
QUERIES |= {"editor_catalog", "scenario_template", "scenario_check", "advise"}


def snapshot(session: Session) -> tuple:
    """Everything a call may change: scenario, game, position, history, redo stack, log."""
    game = session.game
    if game is None:
        return (id(session.scenario), None)
    return (
        id(session.scenario),
        id(game),
        state_hash(game.state),
        len(game.states),
        [canonical(a) for a in game.actions],
        [canonical(a) for a in game.redo_stack],
        len(game.log),
        game.revision,
        canonical(game.options),
    )


def position(demo: str, actions: int, seed: int = 7) -> Session:
    """A session of ``demo`` after ``actions`` random legal actions, then one taken back."""
    session = Session()
    assert session.call("load_scenario", {"id": demo})["ok"]
    assert session.call("new_game", {"seed": seed})["ok"]
    rng = random.Random(seed)
    for _ in range(actions):
        legal = session.game.legal_actions()
        if not legal:
            break
        assert session.call("act", {"action": rng.choice(legal)})["ok"]
    if session.game.actions and session.game.can_undo():
        session.call("undo", {})  # a redo stack to keep as it is
    return session


def fork(session: Session) -> Session:
    """Another session at the same position (states are never changed, so they are shared)."""
    other = Session()
    game = session.game
    other.scenario = session.scenario
    other.game = dataclasses.replace(
        game,
        options=dict(game.options),
        actions=list(game.actions),
        redo_stack=list(game.redo_stack),
        states=list(game.states),
        log=list(game.log),
        log_marks=list(game.log_marks),
        _legal=None,
    )
    return other


def good_params(session: Session) -> dict[str, dict]:
    """Parameters each method takes well in this position."""
    game = session.game
    legal = game.legal_actions()
    sides = [s["id"] for s in session.scenario.data["sides"]]
    hexes = getattr(session.scenario, "hexes", None)
    first_hex = session.scenario.label(next(iter(hexes))) if hexes else "0101"
    unit = next(iter(session.scenario.units))
    decider = game.rules.decider(session.scenario, game.state)
    return {
        "version": {},
        "scenario_list": {},
        "load_scenario": {"id": session.scenario.id},
        "hex_info": {"hex": first_hex},
        "reachable": {"unit": unit},
        "path": {"unit": unit, "to": first_hex},
        "los": {"from": first_hex, "to": first_hex},
        "new_game": {"seed": 3, "options": {}, "viewer": sides[0]},
        "game_view": {"viewer": sides[0], "log": 5},
        "act": {"action": legal[0] if legal else {"type": "roll"}, "viewer": sides[0]},
        "preview": {"action": legal[0] if legal else {"type": "roll"}},
        "undo": {"viewer": sides[0]},
        "redo": {"viewer": sides[0]},
        "look_back": {"at": len(game.actions), "viewer": sides[0]},
        "save": {},
        "load_save": {"save": game.save(), "viewer": sides[0]},
        "check_kept": {"steps": 5, "viewer": sides[0], "log": 5},
        "kept_rest": {"actions": [], "log": [], "log_marks": []},
        "replay_step": {"steps": 5, "viewer": sides[0], "log": 5},
        "advise": {"viewer": decider or sides[0], "level": 1, "seed": 1, "budget_ms": 50},
        "check_crt": {"crt": None},
        "rules_reference": {},
        "briefing": {},
        "editor_catalog": {"system": session.scenario.system},
        "scenario_template": {"system": session.scenario.system},
        "scenario_check": {"scenario": session.scenario.data},
    }


@pytest.mark.parametrize("demo", DEMOS)
@pytest.mark.parametrize("actions", [0, 15])
def test_every_method_refuses_bad_parameters_and_changes_nothing(demo, actions):
    start = position(demo, actions)
    session = fork(start)
    methods = good_params(session)
    assert set(methods) == set(session.methods)  # every method of the API is tried
    for method, good in methods.items():
        for name in [*good, "extra"]:
            for bad in BAD if name != "extra" else [None, "zz", DEEP]:
                before = snapshot(session)
                answer = session.call(method, {**good, name: bad})
                if answer["ok"]:
                    if method in QUERIES:
                        assert snapshot(session) == before, (method, name, bad)
                    else:  # a parameter the method does not read: start again from here
                        session = fork(start)
                    continue
                assert answer["error"]["key"] != "error.internal", (method, name, answer)
                assert snapshot(session) == before, (method, name, answer["error"])


def test_a_refused_viewer_never_acts_first():
    """act, undo, redo and new_game with an unknown viewer used to act, then refuse."""
    for demo in DEMOS:
        session = position(demo, 6)
        before = snapshot(session)
        legal = session.game.legal_actions()[0]
        for method, params in (
            ("act", {"action": legal}),
            ("undo", {}),
            ("redo", {}),
            ("new_game", {"seed": 9}),
            ("load_save", {"save": session.game.save()}),
        ):
            answer = session.call(method, {**params, "viewer": "prussia-and-france"})
            assert answer["error"]["key"] == "error.bad_viewer", (demo, method, answer)
            assert snapshot(session) == before, (demo, method)


def test_a_bug_halfway_through_a_call_is_put_back():
    session = position("demo-hohenbrueck", 5)
    before = snapshot(session)

    def acts_then_breaks(params):
        session.game.apply(session.game.legal_actions()[0])
        session.game = None
        raise KeyError("halfway")

    session.methods["broken"] = acts_then_breaks
    answer = session.call("broken", {})
    assert answer["error"]["key"] == "error.internal"
    assert snapshot(session) == before
    assert session.call("act", {"action": session.game.legal_actions()[0]})["ok"]


def test_game_view_log_must_be_a_count():
    session = position("demo-valmont", 10)
    for bad in ("5", -1, 1.5, True, None, [3], limits.MAX_LOG + 1):
        answer = session.call("game_view", {"log": bad})
        assert answer["error"]["key"] == "error.bad_count", bad
    view = session.call("game_view", {"log": 2})["result"]
    assert len(view["log"]) == 2 and view["log_size"] > 2
    assert session.call("game_view", {"log": 0})["result"]["log"] == []


def test_seeds_are_whole_numbers_in_range():
    session = position("demo-valmont", 0)
    for bad in (True, -1, 1.0, "7", limits.MAX_INT + 1):
        answer = session.call("new_game", {"seed": bad})
        assert answer["error"]["key"] in ("error.bad_seed", "error.bad_number"), bad
    assert session.call("new_game", {"seed": limits.MAX_INT})["ok"]


def test_options_that_nothing_reads_are_refused():
    session = position("demo-valmont", 0)
    answer = session.call("new_game", {"seed": 1, "options": {"crt": {}}})
    assert answer["error"]["key"] == "error.unknown_option"  # hex-facing has no CRT to replace
    answer = session.call("new_game", {"seed": 1, "options": {"strict_undo": "yes"}})
    assert answer["error"]["key"] == "error.bad_option"
    assert session.call("new_game", {"seed": 1, "options": {"strict_undo": True}})["ok"]


def test_the_sides_muster_plays_are_an_option_kept_by_the_save():
    session = position("demo-valmont", 0)
    sides = [s["id"] for s in session.call("save", {})["result"]["scenario"]["sides"]]
    for bad in ([sides[0]], {sides[0]: 4}, {sides[0]: True}, {sides[0]: "1"}, {"nobody": 1}):
        answer = session.call("new_game", {"seed": 1, "options": {"muster": bad}})
        assert answer["error"]["key"] == "error.bad_option", bad
    assert session.call("new_game", {"seed": 1, "options": {"muster": {sides[1]: 1}}})["ok"]
    save = session.call("save", {})["result"]
    assert save["options"]["muster"] == {sides[1]: 1}
    again = Session()
    assert again.call("load_save", {"save": save})["ok"]
    assert again.call("save", {})["result"]["options"]["muster"] == {sides[1]: 1}


@pytest.mark.parametrize(
    "request_text",
    [
        "",
        "{",
        "null",
        "[]",
        '"text"',
        '{"method": "version", "params": -Infinity}',
        '{"method": "version", "params": {"x": NaN}}',
        '{"method": "new_game", "params": {"seed": 1e400}}',
        '{"method": "new_game", "params": {"seed": ' + "9" * 5000 + "}}",
        '{"method": "version", "params": ' + "[" * 100_000 + "]" * 100_000 + "}",
        "[" * 100_000,
        '{"method": {"a": 1}}',
        '{"method": "game_view", "params": {"log": "all"}}',
        "\ud800",
    ],
)
def test_call_json_never_raises(request_text):
    session = position("demo-hohenbrueck", 3)
    before = snapshot(session)
    answer = json.loads(session.call_json(request_text))
    assert answer["ok"] is False
    assert answer["error"]["key"] != "error.internal", answer
    assert snapshot(session) == before


def test_call_json_takes_no_text_over_the_limit(monkeypatch):
    monkeypatch.setattr(limits, "MAX_REQUEST_CHARS", 1000)
    session = Session()
    answer = json.loads(session.call_json(json.dumps({"method": "version", "x": "y" * 2000})))
    assert answer["error"]["key"] == "error.too_large"
    for not_text in (None, b"{}", 12):
        assert json.loads(session.call_json(not_text))["error"]["key"] == "error.bad_json"


def test_answers_are_json_a_browser_reads():
    """No NaN or Infinity goes out: every answer parses as strict JSON."""
    session = position("demo-valmont", 10)
    text = session.call_json(json.dumps({"method": "game_view", "params": {}}))

    def strict(name):
        raise ValueError(name)

    assert json.loads(text, parse_constant=strict)["ok"]


def fresh_save(demo: str = "demo-hohenbrueck", actions: int = 8) -> dict:
    return position(demo, actions).game.save()


@pytest.mark.parametrize(
    ("change", "part"),
    [
        (lambda s: s.update(system="area-locale"), "system"),
        (lambda s: s.update(system="hex-facing"), "system"),
        (lambda s: s.update(system=["hex-hexside"]), "system"),
        (lambda s: s.pop("system"), "system"),
        (lambda s: s.update(seed=True), "seed"),
        (lambda s: s.update(seed=-5), "seed"),
        (lambda s: s.update(seed=2.5), "seed"),
        (lambda s: s.update(actions={"0": {}}), "actions"),
        (lambda s: s.update(actions=[*s["actions"], 7]), {"index": 8}),
        (lambda s: s.update(hash=None), "hash"),
        (lambda s: s.update(extra=1), {"name": "extra"}),
        (lambda s: s.update(format="muster-save/9"), "format"),
    ],
)
def test_a_broken_save_is_refused_and_the_game_kept(change, part):
    session = position("demo-valmont", 12)
    before = snapshot(session)
    save = fresh_save()
    change(save)
    answer = session.call("load_save", {"save": save})
    if isinstance(part, str):
        assert answer["error"]["key"] == "error.bad_save", answer
        assert answer["error"]["params"] == {"part": part}
    else:
        assert answer["error"]["key"] in ("error.bad_save_entry", "error.bad_save_key"), answer
        assert answer["error"]["params"] == part
    assert snapshot(session) == before


def test_an_illegal_action_in_a_save_says_which_and_why():
    session = position("demo-valmont", 2)
    save = fresh_save("demo-valmont", 10)
    save["actions"][3] = {"type": "move", "unit": "nobody", "to": "0101"}
    error = session.call("load_save", {"save": save})["error"]
    assert error["key"] == "error.bad_save_action"
    assert error["params"]["index"] == 4
    why = error["params"]["why"]
    assert why["key"] == "error.refused"  # the move, at the place, and what is asked now
    assert why["params"]["action"] == {
        "key": "refused.act_place",
        "params": {"act": "move", "place": "0101"},
    }


def test_a_save_with_numbers_a_browser_cannot_read_is_refused():
    session = position("demo-valmont", 2)
    before = snapshot(session)
    for value in (float("-inf"), float("nan"), 10**400):
        save = fresh_save()
        save["options"] = {"strict_undo": False}
        save["scenario"]["units"][0]["ratings"] = {"morale": value}
        answer = session.call("load_save", {"save": save})
        assert answer["error"]["key"] == "error.bad_number", answer
        assert snapshot(session) == before
    save = fresh_save()
    save["scenario"]["units"][0]["ratings"] = {"morale": float("-inf")}
    text = json.dumps({"method": "load_save", "params": {"save": save}})  # "-Infinity"
    assert json.loads(session.call_json(text))["error"]["key"] == "error.bad_json"


def test_a_save_over_the_action_limit_is_refused_before_replay(monkeypatch):
    monkeypatch.setattr(limits, "MAX_SAVE_ACTIONS", 5)
    session = position("demo-valmont", 2)
    answer = session.call("load_save", {"save": fresh_save(actions=8)})
    assert answer["error"]["key"] == "error.too_large"
    assert answer["error"]["params"]["place"] == "save.actions"


def test_a_whole_save_of_each_demo_is_taken():
    for demo in DEMOS:
        save = fresh_save(demo, 30)
        session = position("demo-valmont", 3)
        answer = session.call("load_save", {"save": save})
        assert answer["ok"], answer
        assert session.scenario.id == demo
        assert session.call("save", {})["result"] == save


def test_deep_nesting_in_any_parameter_is_refused():
    session = position("demo-fontanella", 4)
    before = snapshot(session)
    for method in session.methods:
        answer = session.call(method, {"viewer": DEEP, "action": DEEP, "save": DEEP})
        assert answer["error"]["key"] == "error.too_deep", (method, answer)
        assert answer["error"]["params"]["place"].startswith("params.")
    assert snapshot(session) == before


def test_views_say_who_acts_for_the_saved_games_list():
    for demo in DEMOS:
        session = position(demo, 12)
        summary = session.call("game_view", {})["result"]["summary"]
        sides = {s["id"] for s in session.scenario.data["sides"]}
        assert summary["scenario"] == demo
        assert summary["title"] == session.scenario.data["title"]
        hidden = session.game.rules.hidden_information
        assert summary["moves"] == (None if hidden else len(session.game.actions))
        assert summary["turn"] >= 1 and summary["turns"] >= summary["turn"]
        assert summary["side"] in sides | {None}
        assert summary["over"] is False


def test_a_long_game_keeps_few_states_and_undo_rebuilds_the_dropped_ones():
    """Memory stays small however long the game: old states are dropped and rebuilt by replay
    when undo reaches them, equal to the states first played."""
    from muster import game as game_module

    session = Session()
    session.call("load_scenario", {"id": "demo-fontanella"})
    session.call("new_game", {"seed": 11})
    game = session.game
    rng = random.Random(11)
    hashes = [state_hash(game.state)]
    for _ in range(300):
        game.apply(rng.choice(game.legal_actions()))
        hashes.append(state_hash(game.state))
    kept = sum(s is not None for s in game.states)
    assert kept <= game_module.KEEP_RECENT + 300 // game_module.CHECKPOINT + 2
    assert game.states[0] is not None  # the start is always kept
    while game.actions:
        game.undo()
        assert state_hash(game.state) == hashes[len(game.actions)]
    assert len(game.redo_stack) == 300
    for _ in range(300):
        game.redo()
    assert state_hash(game.state) == hashes[-1]
