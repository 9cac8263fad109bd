"""The objectives on the map, each side's standing under the prompt and the scenario's briefing
(muster/standing.py), for every system alike, over random games of each demo."""

from __future__ import annotations

import random

import pytest

from muster import play
from muster.api import Session
from muster.game import Game
from muster.scenario import SCENARIO_DIR, load_builtin
from muster.systems import game_rules

DEMOS = sorted(p.stem for p in SCENARIO_DIR.glob("*.json"))


def random_views(demo: str, seed: int, steps: int):
    """The scenario, its rules, and (game, view) after each of ``steps`` random actions."""
    scenario = load_builtin(demo)
    rules = game_rules(scenario.system)
    game = Game.start(scenario, rules, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        yield scenario, rules, game, game.view(None, 0)
        if game.state.get("result"):
            return
        game.push(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("demo", DEMOS)
def test_the_view_draws_each_objective_with_its_points_and_holder(demo):
    scenario = load_builtin(demo)
    objectives = play.objectives(scenario)
    for _, _, game, view in random_views(demo, 3, 250):
        marks = view["objectives"]
        assert [(m["at"], m["points"]) for m in marks] == objectives
        held = game.state.get("held") or {}
        assert [m["holder"] for m in marks] == [held.get(p) for p, _ in objectives]


@pytest.mark.parametrize("demo", DEMOS)
def test_the_count_says_which_objectives_each_side_holds_and_their_points(demo):
    """ "Prussia holds 2 objectives (5 points): 1005, 1203": the objectives alone (an area map
    keeps who holds every locale: Fontanella's count is of its objective locales), with
    their points and places, every side listed."""
    scenario = load_builtin(demo)
    sides = [s["id"] for s in scenario.data["sides"]]
    objectives = dict(play.objectives(scenario))
    for seed in (1, 2):
        for _, _, game, view in random_views(demo, seed, 300):
            held = game.state.get("held") or {}
            facts = [f for f in view.get("facts", []) if f["key"].startswith("fact.held")]
            assert [f["params"]["side"] for f in facts] == sides
            for fact in facts:
                side = fact["params"]["side"]
                mine = [p for p in objectives if held.get(p) == side]
                if not mine:
                    assert fact["key"] == "fact.held_none"
                    continue
                assert fact["key"] == "fact.held"
                assert fact["params"]["places"] == mine
                assert fact["params"]["count"] == len(mine)
                assert fact["params"]["worth"] == sum(objectives[p] for p in mine)
    if scenario.system == "area-locale":
        assert len(held) > len(objectives)  # locales held that are no objective were met


@pytest.mark.parametrize("demo", DEMOS)
def test_the_standing_counts_what_the_end_counts(demo):
    """Each side's points under the prompt are the points the end of the game gives (the
    system's own count), by source; the leads agree; the turns left count down to 1."""
    scenario = load_builtin(demo)
    sides = [s["id"] for s in scenario.data["sides"]]
    rules = game_rules(scenario.system)
    game = Game.start(scenario, rules, 5)
    rng = random.Random(5)
    while not game.state.get("result") and len(game.actions) < 20_000:
        view = game.view(None, 0)
        lines = view["standing"]
        assert [line["params"]["side"] for line in lines[:-1]] == sides
        scores = {line["params"]["side"]: line["params"]["score"] for line in lines[:-1]}
        for line in lines[:-1]:
            parts = [s["params"]["value"] for s in line["params"]["sources"]]
            assert sum(parts) == line["params"]["score"]
            best = max(v for s, v in scores.items() if s != line["params"]["side"])
            lead = line["params"]["score"] - best
            key = "standing.ahead" if lead > 0 else "standing.behind" if lead else "standing.level"
            assert line["key"] == key and line["params"].get("n", 0) == abs(lead)
        state = game.state
        assert lines[-1] == {
            "key": "standing.turns_left",
            "params": {"turns": state["turns"], "count": state["turns"] - state["turn"] + 1},
        }
        last = scores
        game.push(rng.choice(game.legal_actions()))
    result = game.state["result"]
    assert game.view(None, 0)["standing"] == []  # the result says it now
    final = {s: sum(p.values()) for s, p in rules.score(scenario, game.state).items()}
    assert final == result["points"]
    assert set(last) == set(final)


@pytest.mark.parametrize("demo", DEMOS)
def test_the_briefing_says_the_scenario_and_marks_musters_assumptions(demo):
    session = Session()
    assert session.call("load_scenario", {"id": demo})["ok"]
    before = session.call("briefing", {})["result"]
    data = load_builtin(demo).data
    assert before["title"] == data["title"] and before["description"] == data["description"]
    assert before["sides"] == [s["id"] for s in data["sides"]]
    assert before["turns"] == data["turns"]
    assert [(o["at"], o["points"], o["holder"]) for o in before["objectives"]] == [
        (p, n, None) for p, n in play.objectives(load_builtin(demo))
    ]
    keys = [c["key"] for c in before["victory"]]
    assert keys[0] == "victory.turns" and keys[-1] == "victory.most_points"
    assert "victory.objectives" in keys
    # The scenario gives its turns; the victory rules are Muster's defaults in every system
    # (the rules aids do not give them).
    assert before["victory"][0]["flags"] == []
    assert all("default" in c["flags"] for c in before["victory"][1:])
    reference = session.call("rules_reference", {})["result"]
    assert [t["id"] for t in before["tables"]] == [s["id"] for s in reference["sections"]]
    assert any(t["marks"].get("default") for t in before["tables"])
    session.call("new_game", {"seed": 1})
    during = session.call("briefing", {})["result"]
    held = session.game.state.get("held") or {}
    assert [o["holder"] for o in during["objectives"]] == [
        held.get(o["at"]) for o in during["objectives"]
    ]


def test_a_stand_in_table_is_marked_as_such():
    session = Session()
    session.call("load_scenario", {"id": "demo-hohenbrueck"})
    tables = {t["id"]: t for t in session.call("briefing", {})["result"]["tables"]}
    assert tables["crt"]["marks"].get("standin")
    assert not tables["deep-charges"]["marks"].get("standin")


def test_a_scenario_that_changes_the_victory_rules_is_said_so():
    data = load_builtin("demo-valmont").data
    changed = {**data, "overrides": {"sequence": {"victory": {"routed_unit_points": 0}}}}
    session = Session()
    assert session.call("load_scenario", {"scenario": changed})["ok"]
    found = session.call("briefing", {})["result"]["victory"]
    assert "victory.routed" not in [c["key"] for c in found]
    assert "override" in found[-1]["flags"]
    session.call("new_game", {"seed": 2})
    view = session.call("game_view", {})["result"]
    sources = view["standing"][0]["params"]["sources"]
    assert [s["key"] for s in sources] == ["score.objectives"]
