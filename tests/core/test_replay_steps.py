"""A save file opened in parts (``load_save {"steps"}``, then ``replay_step``): its progress
told between calls, the game in progress untouched until the whole save is checked, a refused
file changing nothing, and with hidden blocks no count beyond the file's own."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from long_games import long_game

from muster.api import Session
from muster.game import Game, state_hash
from muster.systems import game_rules


@pytest.fixture(scope="module")
def file() -> dict[str, Any]:
    return long_game(300, seed=5).save()


def playing() -> tuple[Session, str]:
    """A session with another game in progress, and its view's hash."""
    session = Session()
    assert session.call("load_scenario", {"id": "demo-hohenbrueck"})["ok"]
    view = session.call("new_game", {"seed": 2})["result"]
    return session, view["hash"]


def unchanged(session: Session, was: str) -> bool:
    view = session.call("game_view", {})["result"]
    return view["hash"] == was and session.scenario.id == "demo-hohenbrueck"


def open_in_parts(session: Session, save: Any, steps: int) -> list[dict[str, Any]]:
    """Every answer of opening ``save`` ``steps`` actions at a time, the refusal last."""
    answer = session.call("load_save", {"save": save, "steps": steps})
    answers = [answer]
    while answer["ok"] and answer["result"]["replaying"]:
        answer = session.call("replay_step", {"steps": steps})
        answers.append(answer)
    return answers


def test_a_file_opens_in_parts_and_the_game_waits_until_it_is_checked(
    file: dict[str, Any],
) -> None:
    session, was = playing()
    answer = session.call("load_save", {"save": file, "steps": 40})["result"]
    assert answer == {"replaying": True, "done": 40, "total": 300}
    assert unchanged(session, was)  # the game in progress is still played
    assert session.call("check_kept", {})["result"] == {"done": True, "differs": False}
    answers = [answer]
    while answer["replaying"]:
        answer = session.call("replay_step", {"steps": 40, "log": 7})["result"]
        answers.append(answer)
        if answer["replaying"]:
            assert unchanged(session, was)
    assert [a.get("done") for a in answers[:-1]] == [40, 80, 120, 160, 200, 240, 280]
    assert answer["checking"] is False and answer["scenario"]["id"] == "demo-valmont"
    assert answer["view"]["hash"] == file["hash"] and len(answer["view"]["log"]) == 7
    assert session.game.save() == Game.load(file, game_rules).save()
    refused = session.call("replay_step", {})
    assert refused["error"]["key"] == "error.nothing_to_replay"


@pytest.mark.parametrize(
    ("spoil", "key"),
    [
        (lambda s: s["actions"].__setitem__(150, {"type": "end_phase_nope"}), "bad_save_action"),
        (lambda s: s.update(hash="0" * 16), "bad_save_hash"),
        (lambda s: s["actions"].pop(), "bad_save_hash"),
        (lambda s: s.update(seed=-1), "bad_save"),
        (lambda s: s.update(format="nope"), "bad_save"),
        (lambda s: s["actions"].__setitem__(3, 7), "bad_save_entry"),
    ],
)
def test_a_refused_file_changes_nothing(file: dict[str, Any], spoil: Any, key: str) -> None:
    session, was = playing()
    bad = copy.deepcopy(file)
    spoil(bad)
    answers = open_in_parts(session, bad, 60)
    assert not answers[-1]["ok"] and answers[-1]["error"]["key"] == "error." + key
    assert all(a["ok"] and a["result"]["replaying"] for a in answers[:-1])
    assert unchanged(session, was)
    assert session.call("replay_step", {})["error"]["key"] == "error.nothing_to_replay"
    assert unchanged(session, was)


def test_a_bad_step_count_is_refused_and_the_replay_goes_on(file: dict[str, Any]) -> None:
    session, was = playing()
    assert session.call("load_save", {"save": file, "steps": 0})["error"]["key"] == (
        "error.bad_count"
    )
    assert session.call("load_save", {"save": file, "steps": 100})["result"]["done"] == 100
    assert session.call("replay_step", {"steps": True})["error"]["key"] == "error.bad_count"
    assert session.call("replay_step", {"steps": 300})["result"]["view"]["hash"] == file["hash"]


def test_with_hidden_blocks_the_answers_count_only_the_files_actions() -> None:
    """The progress counts the file's actions, which the file itself holds: nothing about one
    side's hidden decisions beyond it, and no state, log or hash before the end."""
    game = long_game(120, seed=4, scenario="demo-fontanella")
    save = game.save()
    session, _ = playing()
    answers = open_in_parts(session, save, 25)
    for answer in answers[:-1]:
        assert set(answer["result"]) == {"replaying", "done", "total"}
        assert answer["result"]["total"] == len(save["actions"])
    last = answers[-1]["result"]
    assert last["view"]["private"] is True
    assert "moves" not in last["view"] and "hash" not in last["view"]
    assert state_hash(session.game.state) == save["hash"]
