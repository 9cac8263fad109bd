"""The markers a system may put on a unit are declared (``Ruleset.markers``), sent to the
screen by ``load_scenario`` and ``load_save`` for the legend, and worded in the four
languages; over random games of each demo, every marker the view sends is a declared one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playouts import random_playout

from muster.api import Session
from muster.game import Game
from muster.scenario import load_builtin
from muster.systems import game_rules

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "pl", "fr", "ja")
I18N = {lang: json.loads((ROOT / "static/i18n" / f"{lang}.json").read_text()) for lang in LANGS}
DEMOS = ("demo-valmont", "demo-hohenbrueck", "demo-fontanella")
# Action types preferred now and then, so the playouts reach fights and their markers.
FIGHTS = ("fire", "melee", "attack", "bombard", "deep_charge", "assault", "declare", "lead")


@pytest.mark.parametrize("demo", DEMOS)
def test_every_marker_sent_over_random_games_is_declared(demo: str) -> None:
    scenario = load_builtin(demo)
    rules = game_rules(scenario.system)
    declared = set(rules.markers)
    sides = [s["id"] for s in scenario.data["sides"]]
    sent: set[str] = set()

    def check(game: Game) -> None:
        for side in sides:
            extra: dict[str, Any] = rules.view_extra(game.scenario, game.state, side)
            for marks in extra.get("markers", {}).values():
                sent.update(marks)

    for seed, bias in ((0, 0.0), (1, 0.8)):
        random_playout(scenario, rules, seed, FIGHTS, bias, check)
    assert sent - declared == set()
    # The playouts did put markers on the map: the check above compared something.
    assert len(sent) >= 3, sent


@pytest.mark.parametrize("demo", DEMOS)
def test_declared_markers_are_worded_and_sent_with_the_scenario(demo: str) -> None:
    rules = game_rules(load_builtin(demo).system)
    assert rules.markers and len(set(rules.markers)) == len(rules.markers)
    for lang in LANGS:
        for m in rules.markers:
            assert I18N[lang][f"marker.{m}"], (lang, m)
            assert 1 <= len(I18N[lang][f"marker_sign.{m}"]) <= 3, (lang, m)
    session = Session()
    answer = session.call("load_scenario", {"id": demo})["result"]
    assert answer["markers"] == list(rules.markers)
    session.call("new_game", {})
    save = session.call("save", {})["result"]
    loaded = session.call("load_save", {"save": save})["result"]
    assert loaded["markers"] == list(rules.markers)
