"""The result card (``muster.cards``, the view's ``card``): after every die rolled or typed in
and every resolved fight, for both sides, with the die, the fight's line and what happened to
each unit, the same lines as the log; in Fontanella the other side's card tells nothing its
view and its log do not.

Random games of each demo (fights preferred) are played; after every action the views of both
sides are checked against the action's own log lines.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from muster.cards import QUIET
from muster.game import Game
from muster.ruleset import words_of
from muster.scenario import load_builtin
from muster.systems import game_rules

FIGHTS = ("fire", "melee", "bombard", "attack", "confirm", "assault", "lead", "declare", "rally")
LIMIT = 1500  # actions per game at most: enough to reach every kind of chance point
# The kinds of chance point (a die's purpose) and of fight each demo must show a card for over
# the seeds played.
KINDS = {
    "demo-valmont": {"fire", "melee", "cohesion", "rally"},
    "demo-hohenbrueck": {"bombard", "close_combat", "rally", "deep_charge", "leader_loss"},
    "demo-fontanella": {"log.al_result", "log.al_bombard", "log.al_blocked", "log.al_not_blocked"},
}
SEEDS = (1, 2, 3)


def sides(game: Game) -> list[str]:
    return [s["id"] for s in game.scenario.data["sides"]]


def shown_lines(events: list[dict[str, Any]], quiet: frozenset[str]) -> list[dict[str, Any]]:
    """The lines of an action a card shows: all but the roll, the bookkeeping and modifiers."""
    return [
        {"key": e["key"], "params": e["params"]}
        for e in events
        if e["key"] != "log.roll" and e["key"] not in quiet and not e["key"].endswith("modifier")
    ]


def named(value: Any, kinds: dict[str, str], want: tuple[str, ...]) -> set[str]:
    """The ids a label's params name with a kind in ``want``."""
    out: set[str] = set()
    for name, one in value["params"].items():
        if kinds.get(name) in want:
            out |= set(one if isinstance(one, list) else [one])
    return out


def play(demo: str, seed: int, check) -> Game:
    """A random game of ``demo``, fights preferred; ``check(game, events)`` after each action."""
    scenario = load_builtin(demo)
    game = Game.start(scenario, game_rules(scenario.system), seed)
    rng = random.Random(seed)
    while not game.state.get("result") and len(game.actions) < LIMIT:
        legal = game.legal_actions()
        fights = [a for a in legal if a["type"] in FIGHTS]
        action = rng.choice(fights) if fights and rng.random() < 0.6 else rng.choice(legal)
        check(game, game.push(action))
    return game


@pytest.mark.parametrize("demo", ["demo-valmont", "demo-hohenbrueck"])
def test_a_card_after_every_die_with_its_face_the_fight_and_each_units_result(demo):
    seen: set[str] = set()

    def check(game: Game, events: list[dict[str, Any]]) -> None:
        rules = game.rules
        kinds = words_of(rules)
        roll = next((e for e in events if e["key"] == "log.roll"), None)
        for side in sides(game):
            card = game.view(side, 0)["card"]
            if roll is None:
                if any(e["key"] == "log.draw" for e in events):
                    # A formation drawn from the cup: its own card (checked below).
                    assert card["at"] == len(game.actions) and card["draw"] is not None
                    continue
                # No die this time: the card is an earlier one, never one of this action.
                assert card is None or card["at"] < len(game.actions)
                continue
            seen.add(roll["params"]["purpose"])
            # Both sides see the card of the die just rolled: the die and its face ...
            assert card["at"] == len(game.actions)
            assert card["die"] == roll["params"]
            assert card["die"]["value"] == game.actions[-1]["value"]
            # ... and what happened, the log's own lines, worded like them.
            assert card["lines"] == shown_lines(events, QUIET | rules.card_quiet)
            # Every unit a line names is marked on the map, and every place.
            lines = card["lines"] + ([card["head"]] if card["head"] else [])
            for line in lines:
                assert named(line, kinds, ("unit", "units")) <= set(card["units"])
                assert named(line, kinds, ("place", "places")) <= set(card["places"])
        if roll is not None and roll["params"]["purpose"] in ("fire", "melee", "close_combat"):
            # A fight's die comes under the line that declared the fight: who fought whom.
            card = game.view(None, 0)["card"]
            assert card["head"] is not None and card["units"], card
            heads = game.rules.card_heads[roll["params"]["purpose"]]
            assert card["head"]["key"] in heads

    for seed in SEEDS:
        play(demo, seed, check)
    assert KINDS[demo] <= seen, KINDS[demo] - seen


def test_the_cards_die_is_the_one_typed_in_and_says_no_effect_too():
    """A fire die typed in that does nothing still makes a card: the die, the table's row and
    "no effect" (Valmont's fire table, codes ["none"])."""
    scenario = load_builtin("demo-valmont")
    rules = game_rules(scenario.system)
    for seed in range(1, 30):
        game = Game.start(scenario, rules, seed)
        rng = random.Random(seed)
        while not game.state.get("result") and len(game.actions) < LIMIT:
            chance = game.state.get("chance")
            if chance and chance.get("purpose") == "fire":
                game.apply({"type": "roll", "value": 0})  # the lowest face: the least effect
                card = game.view(None, 0)["card"]
                assert card["die"]["value"] == 0 and card["die"]["how"] == "physical"
                result = next(x for x in card["lines"] if x["key"] == "log.hf_fire_result")
                assert "total" in result["params"] and result["params"]["codes"]
                assert card["head"]["key"] == "log.hf_fire"
                return
            legal = game.legal_actions()
            fights = [a for a in legal if a["type"] == "fire"]
            game.push(rng.choice(fights) if fights else rng.choice(legal))
    pytest.fail("no fire die in the games played")


def test_every_resolved_fight_in_fontanella_makes_a_card_that_leaks_nothing():
    seen: set[str] = set()

    def check(game: Game, events: list[dict[str, Any]]) -> None:
        rules = game.rules
        fought = [e["key"] for e in events if e["key"] in rules.card_keys]
        for side in sides(game):
            view = game.view(side, 100000)
            card = view["card"]
            mine = [e for e in events if e.get("to", side) == side]
            if not any(e["key"] in rules.card_keys for e in mine):
                continue
            seen.update(fought)
            # Each side sees a card of this fight: the lines of it that its log shows, no more,
            # after those of the fight's earlier actions (a fight and its aftermath are one).
            lines = [x for x in shown_lines(mine, QUIET | rules.card_quiet) if x != card["head"]]
            assert card["lines"][len(card["lines"]) - len(lines) :] == lines
            assert "at" not in card  # a count of actions would tell how often the other decided
            log = [{"key": e["key"], "params": e["params"]} for e in view["log"]]
            for line in card["lines"] + ([card["head"]] if card["head"] else []):
                assert line in log
            # No block the viewer may not see is named: every unit is one of its own or one
            # its view shows by name; nothing of the card names a hidden block's id.
            blocks = view["state"]["blocks"]
            known = {b["id"] for b in blocks if not b.get("hidden")}
            own = {u for u, spec in game.scenario.units.items() if spec["side"] == side}
            assert set(card["units"]) <= known | own
            hidden = {u for u in game.scenario.units if u not in known | own}
            text = json.dumps(card)
            assert not any(f'"{u}"' in text for u in hidden), side

    for seed in SEEDS:
        play("demo-fontanella", seed, check)
    assert KINDS["demo-fontanella"] <= seen, KINDS["demo-fontanella"] - seen


def test_fontanellas_assault_card_waits_for_the_side_that_did_not_decide():
    """The defender's leading blocks settle an assault and the tablet goes to the attacker: its
    view, asked behind the privacy screen, holds the assault's card (its result and the losses
    of its own blocks, the defender's only by side and place)."""
    scenario = load_builtin("demo-fontanella")
    rules = game_rules(scenario.system)
    for seed in range(1, 20):
        game = Game.start(scenario, rules, seed)
        rng = random.Random(seed)
        while not game.state.get("result") and len(game.actions) < LIMIT:
            legal = game.legal_actions()
            fights = [a for a in legal if a["type"] in ("assault", "lead")]
            decider = rules.decider(scenario, game.state)
            events = game.push(rng.choice(fights) if fights else rng.choice(legal))
            after = rules.decider(scenario, game.state)
            if any(e["key"] == "log.al_result" for e in events) and after != decider:
                card = game.view(after, 0)["card"]
                assert any(x["key"] == "log.al_result" for x in card["lines"])
                assert card["head"]["key"] == "log.al_assault"
                theirs = {u for u, s in scenario.units.items() if s["side"] == decider}
                assert not set(card["units"]) & theirs
                # The deciding side's own card names its own blocks' losses.
                own = game.view(decider, 0)["card"]
                assert own["lines"] != card["lines"]
                return
    pytest.fail("no assault settled by the defender in the games played")


def test_an_assault_and_its_aftermath_are_one_card_for_the_defender_at_its_hand_over():
    """The defender's leading blocks settle an assault, the tablet goes to the attacker, who
    takes its losses; when the tablet comes back to the defender (to retreat, or at the end of
    the phase) with no other fight between, its card holds the assault's result and all that
    followed, under the assault's line."""
    scenario = load_builtin("demo-fontanella")
    rules = game_rules(scenario.system)
    found = 0
    for seed in range(1, 30):
        game = Game.start(scenario, rules, seed)
        rng = random.Random(seed)
        watching: str | None = None  # the defender that settled an assault, not yet shown it
        aftermath = False
        while not game.state.get("result") and len(game.actions) < LIMIT:
            legal = game.legal_actions()
            fights = [a for a in legal if a["type"] in ("assault", "lead")]
            decider = rules.decider(scenario, game.state)
            events = game.push(rng.choice(fights) if fights else rng.choice(legal))
            after = rules.decider(scenario, game.state)
            keys = [e["key"] for e in events]
            if "log.al_result" in keys and after != decider:
                watching, aftermath = decider, False
                continue
            other = rules.card_heads[""] | {"log.al_declare", "log.al_bombard"}
            if watching and any(k in other for k in keys):
                watching = None  # another fight before the hand-over: its card is newer
            if watching and any(k in rules.card_keys for k in keys):
                aftermath = True  # losses taken or a retreat after the result
            if watching and aftermath and after == watching and decider != watching:
                card = game.view(watching, 0)["card"]
                assert card["head"]["key"] == "log.al_assault", card
                assert any(x["key"] == "log.al_result" for x in card["lines"])
                found += 1
                watching = None
        if found >= 2:
            return
    pytest.fail(f"only {found} assaults settled by a defender reached it again")


def test_a_card_is_none_before_any_die_or_fight():
    for demo in ("demo-valmont", "demo-hohenbrueck", "demo-fontanella"):
        scenario = load_builtin(demo)
        game = Game.start(scenario, game_rules(scenario.system), 1)
        assert game.view(sides(game)[0], 0)["card"] is None


def test_undo_takes_the_card_back_with_the_die():
    scenario = load_builtin("demo-hohenbrueck")
    rules = game_rules(scenario.system)
    game = Game.start(scenario, rules, 4)
    rng = random.Random(4)
    while not game.state.get("chance"):
        legal = game.legal_actions()
        fights = [a for a in legal if a["type"] in FIGHTS]
        game.push(rng.choice(fights) if fights else rng.choice(legal))
    before = game.view(None, 0)["card"]
    game.apply({"type": "roll", "value": 6})
    card = game.view(None, 0)["card"]
    assert card["die"]["value"] == 6 and card != before
    game.undo()
    assert game.view(None, 0)["card"] == before
    game.apply({"type": "roll", "value": 1})
    again = game.view(None, 0)["card"]
    assert again["seq"] == card["seq"] and again["lines"] != card["lines"]  # another die


def test_the_cup_draw_makes_a_card_naming_the_formation_and_marking_its_units():
    """Valmont's activation draw is a chance point too: its card says which formation was drawn
    and whether it has orders, and marks every unit of it still on the map."""
    scenario = load_builtin("demo-valmont")
    rules = game_rules(scenario.system)
    drawn: set[str] = set()
    for seed in SEEDS:
        game = Game.start(scenario, rules, seed)
        rng = random.Random(seed)
        while not game.state.get("result") and len(game.actions) < 300:
            chance = game.state.get("chance")
            if chance and chance["purpose"] == "activation":
                face = rng.choice(chance["options"])
                events = game.push({"type": "roll", "value": face})
                card = game.view(None, 0)["card"]
                assert card["at"] == len(game.actions) and card["die"] is None
                assert card["draw"] == {"drawn": face, "how": "physical", "purpose": "activation"}
                keys = [line["key"] for line in card["lines"]]
                assert keys[0] in ("log.hf_activated", "log.hf_activated_no_orders"), keys
                assert card["lines"][0]["params"]["formation"] == face
                assert card["lines"] == shown_lines(events, QUIET | rules.card_quiet)[1:]
                members = {
                    uid
                    for uid, unit in game.state["units"].items()
                    if not unit["out"] and unit_formation(scenario, uid) == face
                }
                assert members and members <= set(card["units"])
                drawn.add(face)
                continue
            legal = game.legal_actions()
            game.push(rng.choice(legal))
    assert len(drawn) >= 4, drawn


def unit_formation(scenario, uid: str) -> str:
    return str(scenario.units[uid].get("formation", uid))
