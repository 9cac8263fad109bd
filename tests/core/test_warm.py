"""Warming the core before its memory snapshot leaves nothing behind: the page's session is as
a fresh start has it, and a game played after the warming is the game played without it."""

from __future__ import annotations

import json

from muster import api
from muster.api import Session
from muster.scenario import builtin_scenarios
from muster.warm import warm


def _play(session: Session, scenario_id: str, actions: int = 30) -> list[str]:
    session.call("load_scenario", {"id": scenario_id})
    view = session.call("new_game", {"seed": 7})["result"]
    hashes = []
    for step in range(actions):
        legal = view["legal"]
        if not legal:
            break
        view = session.call("act", {"action": legal[step % len(legal)]})["result"]
        hashes.append(json.dumps(session.call("save", {})["result"]["hash"]))
    return hashes


def test_warming_plays_each_demo_and_leaves_the_page_session_untouched():
    before = _play(Session(), "demo-valmont")
    page = (api._default.scenario, api._default.game)
    assert sorted(warm(actions=5)) == sorted(s["id"] for s in builtin_scenarios())
    assert (api._default.scenario, api._default.game) == page
    assert _play(Session(), "demo-valmont") == before
