"""A kept game resumes at once from its checkpoint (``Game.resume``, ``muster.resume``): to the
same state, hash, log and view as a full replay; undo reaches as far back after it; a
checkpoint that does not fit its save is refused and the save replayed whole; the check in
the background finds a checkpoint that lies and puts the replayed game in its place."""

from __future__ import annotations

import bisect
import copy
import json
from typing import Any

import pytest
from long_games import long_game

from muster import game as game_module
from muster.api import Session
from muster.errors import RulesError
from muster.game import CHECKPOINT, PENDING, Game, Replay, state_hash
from muster.resume import KeptCheck, resume_kept
from muster.systems import game_rules


@pytest.fixture(scope="module")
def game() -> Game:
    return long_game(300, seed=3)


def kept(game: Game) -> dict[str, Any]:
    """The save as the browser keeps it: through JSON, as it is stored."""
    return json.loads(json.dumps(game.save(checkpoint=True)))


def test_a_checkpoint_resumes_to_the_replayed_game(game: Game) -> None:
    save = kept(game)
    point = save["checkpoint"]
    assert point["at"] == 300
    assert [s["at"] for s in point["states"]] == [300 // CHECKPOINT * CHECKPOINT, 300]
    resumed = Game.resume(save, game_rules)
    replayed = Game.load(save, game_rules)
    assert resumed.state == replayed.state == game.state
    assert state_hash(resumed.state) == save["hash"]
    assert resumed.log == replayed.log and resumed.log_marks == replayed.log_marks
    assert resumed.view(None, 200) == replayed.view(None, 200)
    assert resumed.legal_actions() == replayed.legal_actions()
    assert resumed.save() == replayed.save()  # its file is the same: no checkpoint in it


def test_undo_after_a_resume_reaches_as_far(game: Game) -> None:
    save = kept(game)
    resumed = Game.resume(save, game_rules)
    replayed = Game.load(save, game_rules)
    for _ in range(150):  # past the checkpoint's older state: rebuilt from the start
        resumed.undo()
        replayed.undo()
        assert resumed.state == replayed.state
        assert resumed.log == replayed.log
    assert resumed.view_at(10, None) == replayed.view_at(10, None)
    resumed.redo()
    replayed.redo()
    assert resumed.state == replayed.state


def test_the_check_agrees_and_gives_the_states(game: Game) -> None:
    save = kept(game)
    resumed = Game.resume(save, game_rules)
    check = KeptCheck(resumed, Replay(save, game_rules, checked=True))
    steps = 0
    while not check.finished:
        assert check.step(40) is None
        steps += 1
    assert steps == 8
    assert resumed.states[CHECKPOINT] is not None  # undo far back replays from here
    assert resumed.states[CHECKPOINT] == Game.load(save, game_rules).states[CHECKPOINT]


def test_only_the_newest_log_lines_are_kept_and_the_check_rebuilds_the_rest(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a resume reads does not grow with the log: the checkpoint keeps its newest lines,
    the view shows them as the replayed game does, the older ones come back with the check."""
    monkeypatch.setattr(game_module, "LOG_KEPT", 100)
    save = kept(game)
    point = save["checkpoint"]
    assert len(game.log) > 200
    assert point["log"] == game.log[-100:] and point["log_from"] == len(game.log) - 100
    resumed = Game.resume(save, game_rules)
    replayed = Game.load(save, game_rules)
    assert resumed.log[: point["log_from"]] == [PENDING] * point["log_from"]
    mine, theirs = resumed.view(None, 60), replayed.view(None, 60)
    assert mine["log"] == theirs["log"] and mine["log_at"] == theirs["log_at"]
    assert mine["state"] == theirs["state"] and mine["hash"] == theirs["hash"]
    assert all(e is not PENDING for e in resumed.view(None, 100_000)["log"])
    again = json.loads(json.dumps(resumed.save(checkpoint=True)))  # kept again before the check
    assert again["checkpoint"] == point
    check = KeptCheck(resumed, Replay(again, game_rules, checked=True))
    while not check.finished:
        assert check.step(70) is None
    assert resumed.log == replayed.log
    assert resumed.view(None, 1000) == replayed.view(None, 1000)


def garbled(save: dict[str, Any]) -> list[dict[str, Any]]:
    """The save with its checkpoint spoiled in every way a device could spoil it."""
    out = []
    for spoil in (
        lambda p: p.update(at=p["at"] - 1),
        lambda p: p.update(at=True),
        lambda p: p.pop("log"),
        lambda p: p.update(extra=1),
        lambda p: p["states"][-1]["state"].update(turn=1),  # its hash no longer fits
        lambda p: p["states"][-1].update(at=3),
        lambda p: p["states"].reverse(),
        lambda p: p["states"].clear(),
        lambda p: p["states"][0].update(state="x"),
        lambda p: p["log_marks"].pop(),
        lambda p: p["log_marks"].reverse(),
        lambda p: p["log"].append(7),
        lambda p: p.update(states=None),
        lambda p: p.pop("log_from"),
        lambda p: p.update(log_from=-1),
        lambda p: p.update(log_from=None),
        lambda p: p.update(log_from=10**9),  # more lines than any log
        lambda p: p.update(log_from=True),
    ):
        copied = copy.deepcopy(save)
        spoil(copied["checkpoint"])
        out.append(copied)
    out.append({**copy.deepcopy(save), "checkpoint": []})
    return out


def test_a_garbled_checkpoint_is_refused_and_the_save_replayed(game: Game) -> None:
    save = kept(game)
    for bad in garbled(save):
        with pytest.raises(RulesError) as refused:
            Game.resume(bad, game_rules)
        assert refused.value.key == "error.bad_checkpoint"
        resumed, view, check = resume_kept(bad, game_rules, lambda g: g.view(None, 5))
        assert check is None and resumed.state == game.state and view["hash"] == save["hash"]


def test_a_lying_checkpoint_is_found_and_replaced_by_the_replay(game: Game) -> None:
    """A checkpoint whose states and hashes agree with each other but not with the actions:
    the background check finds it and the replayed game takes its place, with the actions
    played since the resume taken again."""
    save = kept(game)
    other = json.loads(json.dumps(long_game(300, seed=3, pick=4).save(checkpoint=True)))
    lying = {**save, "checkpoint": other["checkpoint"], "hash": other["hash"]}
    resumed = Game.resume(lying, game_rules)
    assert resumed.state != game.state
    played = resumed.legal_actions()[0]
    resumed.apply(played)
    check = KeptCheck(resumed, Replay(lying, game_rules, checked=True))
    truth = None
    while truth is None:
        truth = check.step(50)
        assert truth is not None or not check.finished
    assert check.finished
    assert truth.actions[:300] == game.actions
    assert truth.states[300] is None or truth.states[300] == game.state


def test_a_game_of_five_thousand_actions_resumes() -> None:
    game = long_game(5000)
    save = kept(game)
    resumed = Game.resume(save, game_rules)
    assert resumed.state == game.state and state_hash(resumed.state) == save["hash"]
    check = KeptCheck(resumed, Replay(save, game_rules, checked=True))
    assert check.step(5000) is None and check.finished  # its replay agrees
    for _ in range(CHECKPOINT + 1):
        game.undo()
        resumed.undo()
    assert resumed.state == game.state and resumed.log == game.log


def test_the_session_resumes_a_kept_game_and_checks_it(game: Game) -> None:
    session = Session()
    save = kept(game)
    answer = session.call("load_save", {"save": save, "kept": True})
    assert answer["ok"] and answer["result"]["checking"] is True
    assert answer["result"]["view"]["hash"] == save["hash"]
    done = False
    while not done:
        checked = session.call("check_kept", {"steps": 100})["result"]
        assert checked["differs"] is False
        done = checked["done"]
    assert session.call("check_kept", {})["result"] == {"done": True, "differs": False}
    kept_again = session.call("save", {"checkpoint": True})["result"]
    assert kept_again["checkpoint"]["at"] == 300
    # A file opened is replayed whole, its checkpoint not read; and nothing is left to check.
    answer = session.call("load_save", {"save": save})
    assert answer["ok"] and answer["result"]["checking"] is False
    refused = session.call("check_kept", {"steps": 0})
    assert not refused["ok"] and refused["error"]["key"] == "error.bad_count"
    # A garbled kept game is replayed whole, never an internal error.
    for bad in garbled(save):
        answer = session.call("load_save", {"save": bad, "kept": True})
        assert answer["ok"] and answer["result"]["checking"] is False


def test_a_lying_checkpoint_in_the_session_says_so_with_the_replayed_view(game: Game) -> None:
    session = Session()
    save = kept(game)
    other = json.loads(json.dumps(long_game(300, seed=3, pick=4).save(checkpoint=True)))
    lying = {**save, "checkpoint": other["checkpoint"], "hash": other["hash"]}
    assert session.call("load_save", {"save": lying, "kept": True})["result"]["checking"]
    checked: dict[str, Any] = {"done": False}
    while not checked["done"]:
        checked = session.call("check_kept", {"steps": 100})["result"]
    assert checked["differs"] is True
    assert checked["view"]["hash"] == state_hash(game.state)
    assert session.call("save", {})["result"]["actions"] == game.actions


def as_js(value: Any) -> Any:
    """``value`` as a page's JSON writes it back: a whole number 4.0 as 4."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: as_js(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_js(v) for v in value]
    return value


def test_a_game_kept_by_the_page_checks_as_the_same(game: Game) -> None:
    """The page keeps the save through its own JSON, which writes a move's cost 4.0 as 4: the
    check still finds the replay the same (it said it differed after every turn of a hex
    game played on screen)."""
    save = as_js(kept(game))
    # The log holds whole costs that the page writes as integers: the text differs.
    assert json.dumps(save) != json.dumps(kept(game))
    resumed, _view, check = resume_kept(save, game_rules, lambda g: {})
    assert check is not None
    while not check.finished:
        assert check.step(50) is None
    assert resumed.state == game.state


# -- a long kept game sent in two parts: the head first, the rest right behind it ----------

HEAD_LINES = 200  # static/games.js


def head_of(save: dict[str, Any], viewer: str | None = None) -> tuple[Any, Any, Any] | None:
    """The page's two parts of a kept save (``keptHead`` in static/games.js): the head, how
    many actions and marks it left out (``load_save``'s ``held``), and the rest."""
    point = save["checkpoint"]
    if len(point["states"]) < 2:
        return None
    held = point["states"][0]["at"]
    log, marks = point["log"], point["log_marks"]
    cut, seen = len(log), 0
    while cut > 0 and seen < HEAD_LINES:
        cut -= 1
        if viewer is None or log[cut].get("to", viewer) == viewer:
            seen += 1
    first = min(point["log_from"] + cut, marks[held])
    cut = first - point["log_from"]
    if cut < 0:
        return None
    held_marks = min(held, bisect.bisect_right(marks, first))
    head = {
        **save,
        "actions": save["actions"][held:],
        "checkpoint": {
            **point,
            "log": log[cut:],
            "log_from": first,
            "log_marks": marks[held_marks:],
        },
    }
    rest = {"actions": save["actions"][:held], "log": log[:cut], "log_marks": marks[:held_marks]}
    return head, {"actions": held, "log_marks": held_marks}, rest


def test_the_head_of_a_long_game_does_not_grow_with_it() -> None:
    """What the game needs on screen comes first: the head holds the actions since the
    checkpoint's older state (fewer than CHECKPOINT), the lines the screen shows and those
    actions logged; the rest, sent after it, holds all the others."""
    sizes = {}
    for length in (500, 5000):
        save = kept(long_game(length))
        parts = head_of(save)
        assert parts is not None
        head, held, rest = parts
        point = head["checkpoint"]
        assert len(head["actions"]) < CHECKPOINT and held["actions"] == len(rest["actions"])
        assert rest["actions"] + head["actions"] == save["actions"]
        assert rest["log_marks"] + point["log_marks"] == save["checkpoint"]["log_marks"]
        assert rest["log"] + point["log"] == save["checkpoint"]["log"]
        own = len(point["log"]) - (
            point["log_marks"][held["actions"] - held["log_marks"]] - point["log_from"]
        )
        assert len(point["log"]) <= max(HEAD_LINES, own)
        sizes[length] = len(json.dumps(head))
        assert sizes[length] < len(json.dumps(save)) / 2
    assert sizes[5000] < 1.5 * sizes[500], sizes


def test_a_head_resumes_to_the_same_view_and_takes_the_rest(game: Game) -> None:
    save = kept(game)
    parts = head_of(save)
    assert parts is not None
    head, held, rest = parts
    resumed = Game.resume(head, game_rules, held["actions"], held["log_marks"])
    replayed = Game.load(save, game_rules)
    assert resumed.held == held["actions"] and resumed.state == replayed.state
    assert resumed.view(None, HEAD_LINES) == replayed.view(None, HEAD_LINES)
    resumed.take_held(rest["actions"], rest["log"], rest["log_marks"], held["log_marks"])
    assert resumed.held == 0 and resumed.actions == replayed.actions
    assert resumed.log_marks == replayed.log_marks
    assert resumed.save(checkpoint=True) == Game.resume(save, game_rules).save(checkpoint=True)


def test_an_action_before_the_rest_arrived_loses_nothing(game: Game) -> None:
    """Before the rest arrives the game plays on: undo reaches back to the head's first
    state, no further; a look back before it and a save are refused (nothing half is ever
    kept). Once the rest is here, the check agrees, undo goes all the way back to the start
    and the save holds every action, the new ones with them."""
    save = kept(game)
    parts = head_of(save)
    assert parts is not None
    head, held, rest = parts
    session = Session()
    answer = session.call("load_save", {"save": head, "kept": True, "held": held})
    assert answer["ok"] and answer["result"]["checking"] is True
    assert answer["result"]["view"]["hash"] == save["hash"]
    whole = Game.load(save, game_rules)
    for _ in range(2):
        action = whole.legal_actions()[0]
        whole.apply(action)
        assert session.call("act", {"action": action})["ok"]
    assert session.call("check_kept", {"steps": 100})["result"] == {"done": False, "differs": False}
    for method, params in (("save", {}), ("look_back", {"at": held["actions"] - 1})):
        refused = session.call(method, params)
        assert not refused["ok"] and refused["error"]["key"] == "error.kept_arriving"
    undone = 0
    while session.call("undo", {})["ok"]:  # back to the head's first state, no further
        whole.undo()
        undone += 1
    assert undone == len(head["actions"]) + 2
    assert session.game is not None and session.game.state == whole.state
    for _ in range(undone):  # all of them again, then one more
        redone = session.call("redo", {})
        whole.redo()
        assert redone["ok"] and redone["result"]["hash"] == state_hash(whole.state)
    action = whole.legal_actions()[-1]
    whole.apply(action)
    assert session.call("act", {"action": action})["ok"]
    assert session.call("kept_rest", rest)["result"] == {"taken": True}
    checked: dict[str, Any] = {"done": False}
    while not checked["done"]:
        checked = session.call("check_kept", {"steps": 100})["result"]
        assert checked["differs"] is False
    assert session.call("save", {})["result"] == whole.save()
    full = session.call("game_view", {"log": 100_000})["result"]
    assert full["log"] == whole.view(None, 100_000)["log"]
    while session.call("undo", {})["ok"]:
        whole.undo()
        assert session.game.state == whole.state
    assert session.game.actions == whole.actions == []
    assert session.game.log == whole.log


def test_a_rest_that_does_not_fit_is_refused_and_changes_nothing(game: Game) -> None:
    save = kept(game)
    parts = head_of(save)
    assert parts is not None
    head, held, rest = parts
    session = Session()
    assert session.call("load_save", {"save": head, "kept": True, "held": held})["ok"]
    for spoil in (
        lambda r: r["actions"].pop(),
        lambda r: r["actions"].append({"type": "move"}),
        lambda r: r["actions"].__setitem__(0, 7),
        lambda r: r["log_marks"].append(0),
        lambda r: r["log_marks"].reverse(),
        lambda r: r["log"].extend(r["log"] * 10),  # more lines than come before the head's
        lambda r: r["log"].append(7),
        lambda r: r.update(log_marks=None),
    ):
        bad = copy.deepcopy(rest)
        spoil(bad)
        refused = session.call("kept_rest", bad)
        assert not refused["ok"], bad
        assert refused["error"]["key"] in {"error.bad_checkpoint", "error.bad_save_entry"}
        assert session.game is not None and session.game.held == held["actions"]
    wrong = session.call("kept_rest", {**rest, "more": 1})
    assert not wrong["ok"] and wrong["error"]["key"] == "error.unknown_param"
    assert session.call("kept_rest", rest)["result"] == {"taken": True}
    assert session.call("kept_rest", rest)["result"] == {"taken": False}  # it has them


def test_a_head_that_does_not_fit_is_refused_and_the_whole_save_resumes(game: Game) -> None:
    """A head is never replayed (it has not all the actions): refused, and the page sends the
    whole save, which resumes as before; its rest, arriving after, finds nothing to fill."""
    save = kept(game)
    parts = head_of(save)
    assert parts is not None
    head, held, rest = parts
    for bad_held in (
        {"actions": held["actions"] + 1, "log_marks": held["log_marks"]},
        {"actions": held["actions"], "log_marks": held["log_marks"] + 1},
        {"actions": held["actions"], "log_marks": held["actions"] + 1},
    ):
        session = Session()
        refused = session.call("load_save", {"save": head, "kept": True, "held": bad_held})
        assert not refused["ok"] and refused["error"]["key"] == "error.bad_checkpoint"
        assert session.call("kept_rest", rest)["result"] == {"taken": False}
        answer = session.call("load_save", {"save": save, "kept": True})
        assert answer["ok"] and answer["result"]["checking"] is True
    for bad in ({"actions": -1, "log_marks": 0}, {"actions": 3}, [1, 2]):
        refused = Session().call("load_save", {"save": head, "kept": True, "held": bad})
        assert not refused["ok"] and refused["error"]["key"] in {
            "error.bad_count",
            "error.bad_params",
        }
