"""What an area-locale screen is told (docs/play-view.md): prompts with the reason a choice is
forced, every legal action in one labelled choice, markers and arrows; every key worded in the
four languages, every parameter with a kind; and what the players checked at the table (the
move that must be made, the blocked maneuver attack, the blocking side's panel, an assault
drawn on the map).

Maps are the one-line specs of ``test_play_area_locale`` (``"a b c d"`` a strip; units
``"id:KS@place"``, side x moves first)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from playouts import random_playout
from test_play_area_locale import end_player_turn, end_player_turn_to_movement, game, select

from muster.game import Game, canonical
from muster.ruleset import CHOICE_KINDS, words_of
from muster.scenario import load_builtin
from muster.systems.area_locale.rules import RULES
from muster.systems.area_locale.screen import MARKERS

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "pl", "fr", "ja")
I18N = {lang: json.loads((ROOT / "static/i18n" / f"{lang}.json").read_text()) for lang in LANGS}
DEMO = load_builtin("demo-fontanella")
KINDS = words_of(RULES)


def view(g: Game, viewer: str) -> dict[str, Any]:
    """``viewer``'s screen of ``g`` (as the API gives it)."""
    return g.view(viewer, 50)


def labels(seen: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every label a view asks the screen to word: the prompt and its reason, the choices and
    their items, the log lines, the markers' legends and signs."""
    out: list[tuple[str, dict[str, Any]]] = []
    prompt = seen["prompt"]
    if prompt:
        out.append((prompt["key"], prompt["params"]))
        if "why" in prompt:
            out.append((prompt["why"]["key"], prompt["why"]["params"]))
    for group in seen["choices"]:
        out.append((group["key"], group["params"]))
        out += [(it["key"], it["params"]) for it in group["items"]]
    out += [(line["key"], line["params"]) for line in seen["log"]]
    for marks in seen["markers"].values():
        out += [(f"marker.{m}", {}) for m in marks] + [(f"marker_sign.{m}", {}) for m in marks]
    return out


def unworded(key: str, params: dict[str, Any]) -> list[str]:
    """What of a label the four languages cannot word: a key missing in one, a parameter with
    no kind that is not a number, a word or label parameter whose own key is missing."""
    bad = [f"{lang}: {key}" for lang in LANGS if key not in I18N[lang]]
    for name, value in params.items():
        kind = KINDS.get(name)
        if kind is None:
            if not isinstance(value, int | float) or isinstance(value, bool):
                bad.append(f"{key}: {name}={value!r} has no kind")
        elif kind.startswith(("word:", "words:")):
            prefix = kind.split(":", 1)[1]
            for v in value if kind.startswith("words:") else [value]:
                bad += [
                    f"{lang}: {prefix}{v}" for lang in LANGS if f"{prefix}{v}" not in I18N[lang]
                ]
        elif kind in ("label", "labels"):
            for label in value if kind == "labels" else [value]:
                bad += unworded(label["key"], label["params"])
        elif kind in ("number", "count") and not isinstance(value, int | float):
            bad.append(f"{key}: {name}={value!r} is not a number")
    return bad


def covered(legal: list[dict[str, Any]], choices: list[dict[str, Any]]) -> bool:
    """True if every legal action is in exactly one item of one choice (and nothing else)."""
    listed = Counter(canonical(it["action"]) for group in choices for it in group["items"])
    return listed == Counter(canonical(a) for a in legal)


# == over random games of the demo ================================================================


def test_random_games_every_action_in_one_choice_and_every_word_known():
    # Four games of the demo, both sides' screens after every action.
    seen_keys: Counter[str] = Counter()
    for seed in range(4):
        play_and_check(seed, seen_keys)
    # The games went through the screen's corners.
    for key in (
        "prompt.al_block",
        "prompt.al_lead_defender",
        "prompt.al_retreat",
        "choice.al_block",
        "choice.al_road",
        "why.al_must_move",
        "log.al_stopped",
        "log.al_move_back",
        "marker.lead",
        "marker.declared",
        "action.al_end_turn",
    ):
        assert seen_keys[key], key


def play_and_check(seed: int, seen_keys: Counter[str]) -> None:
    """One random game; after each action both sides' screens are checked."""

    def check(g: Game) -> None:
        for viewer in ("austria", "france"):
            shown = view(g, viewer)
            assert covered(shown["legal"], shown["choices"]), (seed, len(g.actions))
            for group in shown["choices"]:
                assert group["kind"] in CHOICE_KINDS and group["items"]
            if shown["choices"]:  # ending the phase or the turn comes last
                ends = [
                    i
                    for i, group in enumerate(shown["choices"])
                    if any(
                        it["action"]["type"] in ("end_phase", "end_turn") for it in group["items"]
                    )
                ]
                assert ends in ([], [len(shown["choices"]) - 1])
            for key, params in labels(shown):
                assert unworded(key, params) == [], (seed, len(g.actions))
                seen_keys[key] += 1
            for line in shown["log"]:  # no move from a place to itself
                p = line["params"]
                assert "frm" not in p or p["frm"] != p.get("to"), line
            prompt = shown["prompt"]
            if prompt and prompt["key"] in INTERRUPTS:  # never the phasing side's commands
                assert set(prompt["params"]) == INTERRUPTS[prompt["key"]], prompt

    random_playout(DEMO, RULES, seed, ("assault", "declare", "move", "block"), 0.5, check)


# The parameters of the prompt of each interrupt: what is decided, of whom, never the commands
# the phasing side has left (a phase prompt's ``count``).
INTERRUPTS = {
    "prompt.al_block": {"side", "frm", "to"},
    "prompt.al_lead_attacker": {"side", "approach"},
    "prompt.al_lead_defender": {"side", "frm", "to"},
    "prompt.al_loss": {"side", "n", "reason"},
    "prompt.al_group_loss": {"side", "at"},
    "prompt.al_retreat": {"side", "at", "count"},
    "prompt.al_pursuit": {"side"},
    "prompt.al_follow": {"side", "locale"},
}


def test_every_marker_has_a_legend_and_a_short_sign():
    for lang in LANGS:
        for m in MARKERS:
            assert I18N[lang][f"marker.{m}"], (lang, m)
            assert 1 <= len(I18N[lang][f"marker_sign.{m}"]) <= 3, (lang, m)


def test_phases_and_reasons_are_words():
    assert KINDS["phase"] == "word:al_phase." and KINDS["reason"] == "word:al_why."
    for lang in LANGS:
        for word in ("bombardment", "assault", "movement", "declaration"):
            assert f"al_phase.{word}" in I18N[lang]
        for word in ("assault", "bombardment", "pursuit", "retreat"):
            assert f"al_why.{word}" in I18N[lang]


# == what the players checked at the table ========================================================


def test_a_move_that_must_be_made_says_so_to_its_side_only():
    # x1 stands on a/b with no enemy in b: it must move this turn, so "end this phase" is not
    # offered; x's prompt says why, naming x1 and a/b; y's screen says nothing of it.
    g = game("a b c d", "x1:i2@a/b x2:i2@a y1:i2@d")
    end_player_turn_to_movement(g)
    mine = view(g, "x")
    assert not any(a["type"] == "end_phase" for a in mine["legal"])
    assert mine["prompt"]["why"] == {
        "key": "why.al_must_move",
        "params": {"units": ["x1"], "places": ["a/b"], "count": 1},
    }
    assert mine["markers"]["x1"] == ["must_move"]
    theirs = view(g, "y")
    assert "why" not in theirs["prompt"] and "x1" not in json.dumps(theirs)
    assert theirs["prompt"]["key"] == mine["prompt"]["key"] == "prompt.al_movement"
    # Once x1 has moved (back to its reserve, for free) the phase may end.
    select(g, "x1")
    g.apply({"type": "move", "to": "a"})
    mine = view(g, "x")
    assert "why" not in mine["prompt"] and mine["markers"]["x1"] == ["moved"]
    [end] = [c for c in mine["choices"] if c["key"] == "choice.al_end"]
    assert end is mine["choices"][-1]
    assert [(it["key"], it["params"]) for it in end["items"]] == [
        ("action.al_end_turn", {"phase": "movement", "side": "y"})
    ]
    # The move back was logged from the approach, never "from a to a".
    line = [e for e in g.log if e["key"] == "log.al_move_back"][-1]
    assert line["params"] == {"side": "x", "frm": "a/b", "to": "a", "count": 1, "cost": 0}


def test_a_blocked_maneuver_attack_is_logged_where_it_stopped():
    # x1 moves from the reserve of a into b, where y holds its reserve: y blocks with y1. x1 stops
    # on a/b facing y1 on b/a: that is what x's log says, never "moved to b".
    g = game("a b c", "x1:i3@a y1:i2@b y2:i2@c")
    end_player_turn_to_movement(g)
    select(g, "x1")
    g.apply({"type": "move", "to": "b", "attack": True})
    # While y decides: its prompt is the block, without x's commands; both see the attack.
    for viewer in ("x", "y"):
        seen = view(g, viewer)
        assert seen["prompt"]["key"] == "prompt.al_block"
        assert seen["prompt"]["params"] == {"side": "y", "frm": "a", "to": "b"}
        assert seen["prompt"]["why"]["key"] == "why.al_block"
        assert seen["arrows"] == [{"from": "a", "to": "b", "kind": "maneuver"}]
    blocking = view(g, "y")
    assert [c["key"] for c in blocking["choices"]] == ["choice.al_block"]
    assert [(it["key"], it["params"], it["at"]) for it in blocking["choices"][0]["items"]] == [
        ("action.al_block", {"unit": "y1", "at": "b/a"}, "b/a"),
        ("action.al_no_block", {"to": "b"}, None),
    ]
    assert "x1" not in json.dumps(blocking)
    g.apply({"type": "block", "unit": "y1"})
    log = view(g, "x")["log"]
    keys = [e["key"] for e in log]
    assert "log.al_attack_own" in keys and "log.al_move_own" not in keys
    [stopped] = [e for e in log if e["key"] == "log.al_stopped_own"]
    assert stopped["params"] == {"units": ["x1"], "at": "a/b"}
    [public] = [e for e in log if e["key"] == "log.al_stopped"]
    assert public["params"] == {"side": "x", "at": "a/b", "count": 1}
    assert "log.al_stopped_own" not in [e["key"] for e in view(g, "y")["log"]]
    assert view(g, "x")["arrows"] == []


def test_an_attack_not_blocked_is_logged_as_entered():
    g = game("a b c", "x1:i3@a y1:i2@b y2:i2@c")
    end_player_turn_to_movement(g)
    select(g, "x1")
    g.apply({"type": "move", "to": "b", "attack": True})
    g.apply({"type": "block"})
    own = [e["params"] for e in view(g, "x")["log"] if e["key"] == "log.al_move_own"]
    assert own == [{"units": ["x1"], "to": "b"}]


def test_an_assault_is_drawn_and_its_leading_blocks_marked():
    g = game("a b c", "x1:i2@a/b x9:i1@a y1:i2@b/a y9:i1@c")
    assert g.state["phase"] == "assault"  # the bombardment passed by itself: nothing declared
    g.apply({"type": "assault", "approach": "a/b"})
    for viewer in ("x", "y"):
        assert view(g, viewer)["arrows"] == [{"from": "a/b", "to": "b/a", "kind": "assault"}]
    attacker = view(g, "x")
    assert attacker["prompt"]["key"] == "prompt.al_lead_attacker"
    assert attacker["prompt"]["why"] == {
        "key": "why.al_lead",
        "params": {"approach": "a/b", "n": 1},
    }
    [lead] = attacker["choices"]
    assert [(it["key"], it["params"], it["unit"]) for it in lead["items"]] == [
        ("action.al_lead", {"units": ["x1"], "count": 1, "steps": 2}, "x1")
    ]
    g.apply({"type": "lead", "units": ["x1"]})
    defender = view(g, "y")
    assert defender["prompt"]["key"] == "prompt.al_lead_defender"
    assert "count" not in defender["prompt"]["params"]  # not x's commands
    assert defender["markers"]["x1"] == ["lead", "revealed"]
    assert "y1" not in view(g, "x")["markers"]


def test_the_defenders_guns_are_named_to_the_defender_only():
    g = game("a b c", "x1:i2@a/b x9:i1@a y1:i2@b/a yg:g1@b/a y9:i1@c")
    g.apply({"type": "assault", "approach": "a/b"})
    g.apply({"type": "lead", "units": ["x1"]})
    assert view(g, "y")["prompt"]["why"]["key"] == "why.al_defend_guns"
    assert view(g, "x")["prompt"]["why"]["key"] == "why.al_defend"
    keys = [c["key"] for c in view(g, "y")["choices"]]
    assert keys == ["choice.al_lead_hold", "choice.al_lead_fire"]


def test_cavalry_moving_on_is_asked_of_its_side_only():
    # All cavalry moved into b, next to the enemy in c: x may move it on to b/c. To y, x is
    # still moving (whether the group was all cavalry is x's secret).
    g = game("a b c", "x1:c2@a y1:i2@c")
    end_player_turn_to_movement(g)
    select(g, "x1")
    g.apply({"type": "move", "to": "b"})
    assert g.state["pending"]["kind"] == "follow"
    mine, theirs = view(g, "x"), view(g, "y")
    assert mine["prompt"]["key"] == "prompt.al_follow"
    [follow] = mine["choices"]
    assert [(it["key"], it["at"]) for it in follow["items"]] == [
        ("action.al_follow", "b/c"),
        ("action.al_stay", None),
    ]
    assert theirs["prompt"] == {
        "key": "prompt.al_movement",
        "params": {"side": "x", "count": 2},
        "side": "x",
    }
    assert theirs["state"]["pending"] is None


def test_ending_a_phase_says_where_it_goes():
    # Nothing to assault: ending the bombardment goes on to movement (assaults pass by).
    g = game("a b c", "x1:i2@a y1:i2@c")
    assert g.state["phase"] == "movement"  # bombardment and assaults passed by themselves
    end = view(g, "x")["choices"][-1]
    assert [(it["key"], it["params"]) for it in end["items"]] == [
        ("action.al_end_turn", {"phase": "movement", "side": "y"})
    ]
    g = game("a b c", "x1:g1@a/b x2:i2@a y1:i2@b/a", turns=1)
    end_player_turn_to_movement(g)
    g.apply({"type": "end_phase"})
    assert g.state["phase"] == "declaration"
    end = view(g, "x")["choices"][-1]
    assert end["items"][0]["params"] == {"phase": "declaration", "side": "y"}
    g.apply({"type": "end_turn"})
    end_player_turn_to_movement(g)
    assert g.state["side"] == "y"
    end = view(g, "y")["choices"][-1]
    assert [it["key"] for it in end["items"]] == ["action.al_end_game"]
    end_player_turn(g)
    assert g.state["result"]


def test_moves_are_labelled_by_their_case():
    g = game("a b c d", "x1:i2@a x2:i2@b/c y1:i2@c y2:i2@d")
    end_player_turn_to_movement(g)
    select(g, "x1")
    [moves] = [c for c in view(g, "x")["choices"] if c["key"] == "choice.al_move"]
    assert moves["params"] == {"units": ["x1"], "count": 1}
    assert [(it["key"], it["params"], it["unit"], it["at"]) for it in moves["items"]] == [
        ("action.al_move", {"to": "b", "cost": 1}, None, "b")
    ]
    select(g, "x1")  # leave it
    select(g, "x2")
    [moves] = [c for c in view(g, "x")["choices"] if c["key"] == "choice.al_move"]
    assert [(it["key"], it["params"]) for it in moves["items"]] == [
        ("action.al_attack", {"to": "c", "cost": 1})
    ]
