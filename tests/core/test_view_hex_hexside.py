"""hex-hexside on screen (docs/play-view.md): over random games of the demo every legal action
is in exactly one labelled choice, every message key the core emits has words in the four
languages, every parameter has a kind (or is a number), each face of a die says what it does;
and what a player checks: a bombardment is not a close combat, the step of a close combat,
markers and arrows on the map.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from playouts import random_playout
from test_play_hex_hexside import U  # the one-line unit fixture

from muster.game import Game, canonical, chance_faces
from muster.ruleset import CHOICE_KINDS, words_of
from muster.scenario import load_builtin, parse_scenario
from muster.systems.hex_hexside.rules import RULES
from muster.systems.hex_hexside.tables import STEP_IDS

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "pl", "fr", "ja")
TEXTS = {lang: json.loads((ROOT / f"static/i18n/{lang}.json").read_text()) for lang in LANGS}
WORDS = words_of(RULES)
FIGHTS = ("attack", "confirm", "bombard", "extended_attack", "deep_charge", "advance")
MARKERS = ("hh_locked", "hh_column", "hh_engaged", "hh_wcm", "hh_must_attack", "hh_lead")
MARKERS += tuple(f"hh_lost_{n}" for n in range(1, 6))


def has_words(key: str) -> bool:
    return all(key in TEXTS[lang] for lang in LANGS)


def rule_key(rule: str) -> str | None:
    """The key that words a rule reference (none for a numbered rule: "rule 19.11.1")."""
    if re.fullmatch(r"\d+(\.\d+)*", rule) or rule == "default":
        return None  # the screen words these itself
    return "rule_ref." + re.sub(r"[^a-z0-9]+", "_", rule.lower()).strip("_")


def check_label(label: Any, where: str, seen: set[str]) -> None:
    """A label's key has words; each parameter has a kind and is worded by it."""
    assert isinstance(label, dict) and set(label) <= {"key", "params"}, (where, label)
    key, params = label["key"], label.get("params", {})
    assert has_words(key), (where, key)
    seen.add(key)
    for name, value in params.items():
        check_param(name, value, f"{where} {key}.{name}", seen)


def check_param(name: str, value: Any, where: str, seen: set[str]) -> None:
    kind = WORDS.get(name)
    if kind is None:
        assert isinstance(value, int | float) and not isinstance(value, bool), (where, value)
        return
    if kind.startswith("word:") and value is not None:
        assert has_words(kind[5:] + str(value)), (where, kind, value)
    elif kind.startswith("words:"):
        assert isinstance(value, list), (where, value)
        for v in value:
            assert has_words(kind[6:] + str(v)), (where, kind, v)
    elif kind == "label":
        check_label(value, where, seen)
    elif kind == "labels":
        assert isinstance(value, list), (where, value)
        for v in value:
            check_label(v, where, seen)
    elif kind == "rule":
        key = rule_key(value)
        assert key is None or has_words(key), (where, value, key)
    elif kind in ("units", "places"):
        assert isinstance(value, list) and all(isinstance(v, str) for v in value), (where, value)
    elif kind in ("number", "count"):
        assert isinstance(value, int | float), (where, value)
    elif kind in ("unit", "place", "text", "formation"):
        assert isinstance(value, str), (where, value)


def check_modifier(m: dict[str, Any], where: str, seen: set[str]) -> None:
    """A preview's modifier: its own words, and its rule."""
    check_label({"key": m["key"], "params": m["params"]}, where, seen)
    check_param("rule", m["rule"], where, seen)
    assert isinstance(m["value"], int | float)


def check_preview(answer: dict[str, Any], where: str, seen: set[str]) -> None:
    for m in answer["modifiers"]:
        check_modifier(m, where, seen)
    assert abs(sum(o["p"] for o in answer["outcomes"]) - 1) < 1e-9, where
    for o in answer["outcomes"]:
        for side, effects in o["outcome"].items():
            assert has_words("ui." + side), (where, side)
            for e in effects:
                check_label(e, where, seen)
        for code in o.get("codes", []):
            if answer["crt"] and answer["crt"]["stand_in"]:
                assert has_words("hh_code." + code), (where, code)
    if answer.get("odds"):
        for name, value in answer["odds"].items():
            check_param(name, value, where, seen)


def check_view(game: Game, seen: set[str], rng: random.Random) -> None:
    """Everything the screen gets from the core now is worded, and the choices hold every
    legal action exactly once."""
    view = game.view(None, 0)
    legal, chance = view["legal"], view["chance"]
    where = f"move {len(game.actions)}"
    if view["prompt"] is None:
        assert view["result"]
    else:
        check_label({"key": view["prompt"]["key"], "params": view["prompt"]["params"]}, where, seen)
        assert view["prompt"]["side"] == view["decider"]
        assert view["prompt"]["params"].get("side") == view["decider"], view["prompt"]
        if "why" in view["prompt"]:
            check_label(view["prompt"]["why"], where, seen)
    if chance:
        assert view["choices"] == []
        results = RULES.chance_results(game.scenario, game.state)
        assert len(results) == len(chance_faces(game.state["chance"])) == len(chance["faces"])
        for face in chance["faces"]:
            check_label(face["result"], where, seen)
        check_param("purpose", chance["purpose"], where, seen)
        check_param("die", chance["die"], where, seen)
    else:
        taken = Counter(canonical(i["action"]) for c in view["choices"] for i in c["items"])
        assert taken == Counter(canonical(a) for a in legal), where
        for c in view["choices"]:
            assert c["kind"] in CHOICE_KINDS and c["items"], (where, c)
            check_label({"key": c["key"], "params": c["params"]}, where, seen)
            for i in c["items"]:
                check_label({"key": i["key"], "params": i["params"]}, where, seen)
                assert i["preview"] == (i["action"]["type"] in RULES.previewable)
                assert i["at"] is None or isinstance(i["at"], str)
                if i["action"]["type"] == "formation":
                    assert i["at"] is None and i["params"]["formation"] == i["action"]["to"]
        ends = {"end_phase", "end_combat", "no_advance", "no_extended", "stand", "cancel"}
        last = [i["action"]["type"] for i in view["choices"][-1]["items"]] if legal else []
        assert all(
            i["action"]["type"] not in ends for c in view["choices"][:-1] for i in c["items"]
        )
        if any(a["type"] in ends for a in legal):
            assert set(last) <= ends
        fights = [a for a in legal if a["type"] in RULES.previewable]
        if fights:
            check_preview(RULES.preview(game.scenario, game.state, rng.choice(fights)), where, seen)
    combat = view["combat"]
    if combat is not None:
        for line in combat["lines"]:
            check_label(line, where, seen)
        if combat.get("preview"):
            check_preview(combat["preview"], where, seen)
    for uid, marks in view["markers"].items():
        assert uid in game.scenario.units and marks
        for m in marks:
            assert m in MARKERS and has_words("marker." + m) and has_words("marker_sign." + m)
    for arrow in view["arrows"]:
        assert arrow["kind"] in ("attack", "bombard") and arrow["from"] != arrow["to"]


def check_log(game: Game, seen: set[str]) -> None:
    for event in game.log:
        check_label(event, "log", seen)


@pytest.mark.parametrize(("seed", "bias"), [(0, 0.0), (1, 0.8), (2, 0.8)])
def test_every_view_of_random_games_is_worded_and_offers_every_action_once(seed, bias):
    seen: set[str] = set()
    rng = random.Random(seed)
    game = random_playout(
        load_builtin("demo-hohenbrueck"),
        RULES,
        seed,
        FIGHTS,
        bias,
        lambda g: check_view(g, seen, rng),
    )
    check_log(game, seen)
    if bias:
        assert {"prompt.hh_designate", "choice.hh_confirm"} <= seen
        assert any(k.startswith("chance.hh_") for k in seen)


def test_every_rule_reference_and_code_has_words():
    from muster.systems.hex_hexside import combat as hh_combat
    from muster.systems.hex_hexside.tables import load_tables

    for code in load_tables().codes:
        assert has_words("hh_code." + code), code
    tec = hh_combat.TEC
    rules = [tec, "rally modifiers", "combat sequence"]
    rules += [tec + m for m in hh_combat.MARK.values()] + [tec + " (*) no shock"]
    rules += ["combat results table", tec + " (combining)", tec + " (**)"]
    for rule in rules:
        assert has_words(rule_key(rule)), rule
    assert rule_key("19.11.1") is None
    for step in STEP_IDS:
        assert has_words("hh_step." + step)


# -- what a player checks ----------------------------------------------------------------------


def start(units, **extra) -> Game:
    data = {
        "format": "muster-scenario/1",
        "id": "t",
        "system": "hex-hexside",
        "title": "t",
        "map": {"orientation": "flat", "stagger": "even", "columns": 8, "rows": 6, "hexes": {}},
        "sides": [{"id": "prussia", "name": "P"}, {"id": "austria", "name": "A"}],
        "units": units,
        **extra,
    }
    return Game.start(parse_scenario(data), RULES, 7)


def to_phase(g: Game, phase: str) -> None:
    while g.state["phase"] != phase:
        g.apply({"type": "end_phase"})


def bombardment() -> Game:
    """A gun at 0101 bombards 0104 (three hexes away): strength 4 against 4, column 1:1."""
    g = start([U("gun", "0101", kind="artillery"), U("d", "0104", side="austria")])
    to_phase(g, "bombardment")
    g.apply({"type": "bombard", "unit": "gun", "target": "0104"})
    return g


def test_a_bombardment_is_not_a_close_combat():
    g = bombardment()
    view = g.view(None, 5)
    c = view["combat"]
    assert c["kind"] == "bombard" and c["unit"] == "gun" and c["target"] == "0104"
    assert "number" not in c and "lead" not in c and "step" not in c
    assert c["title"] == {"key": "combat.hh_bombard", "params": {"unit": "gun", "target": "0104"}}
    assert all(line["key"] != "combat.hh_step" for line in c["lines"])
    # The prompt is the bombardment's own, with no step of twelve.
    assert view["prompt"]["key"] == "prompt.chance.hh_bombard"
    assert "number" not in view["prompt"]["params"] and "step" not in view["prompt"]["params"]
    assert view["arrows"] == [{"from": "0101", "to": "0104", "kind": "bombard"}]
    assert "hh_lead" not in str(view["markers"])
    # Its odds are only what befalls the target: the stand-in 1:1 column reads A1, Ar, -, Dr,
    # EX, D1 for 1-6; against the target: nothing on 1-3, "r" on 4, a loss point on 5 and 6.
    outcomes = c["preview"]["outcomes"]
    assert all(set(o["outcome"]) == {"target"} and "codes" not in o for o in outcomes)
    assert [(o["rolls"], o["outcome"]["target"]) for o in outcomes] == [
        ([1, 2, 3], []),
        ([4], [{"key": "effect.hh_r", "params": {}}]),
        ([5, 6], [{"key": "effect.hh_loss", "params": {"n": 1}}]),
    ]
    assert c["preview"]["bombard"] is True
    # Each face of the die says what it does to the target, never to the gun.
    results = [f["result"] for f in view["chance"]["faces"]]
    assert {r["key"] for r in results} == {"chance.hh_bombard_result"}
    assert results[0]["params"]["effects"] == [{"key": "ui.no_effect", "params": {}}]
    assert results[4]["params"]["effects"] == [{"key": "effect.hh_loss", "params": {"n": 1}}]
    assert g.state["chance"]["purpose"] == "bombard"
    # Its own log lines.
    g.apply({"type": "roll", "value": 1})  # A1 on the stand-in: the gun is unhurt
    keys = [e["key"] for e in g.log]
    assert "log.hh_bombard" in keys and "log.hh_bombard_result" in keys
    assert "log.hh_result" not in keys and g.state["units"]["gun"]["lost"] == 0


def duel() -> Game:
    """a at 0303 attacks d at 0403, with a second attacker b at 0304: two lead candidates."""
    g = start([U("a", "0303"), U("b", "0304"), U("d", "0403", side="austria", morale=3)])
    to_phase(g, "combat")
    return g


def test_the_step_of_a_close_combat_comes_from_the_core():
    g = duel()
    g.apply({"type": "attack", "target": "0403"})
    view = g.view(None, 0)
    assert view["prompt"]["params"]["number"] == 1
    assert view["prompt"]["params"]["step"] == "designate_attack"
    assert view["combat"]["title"] == {
        "key": "combat.hh_step",
        "params": {"number": 1, "step": "designate_attack"},
    }
    assert sorted(view["arrows"], key=lambda a: a["from"]) == [
        {"from": "0303", "to": "0403", "kind": "attack"},
        {"from": "0304", "to": "0403", "kind": "attack"},
    ]
    # Toggles say add or remove from the core's state; leaving out b removes its arrow.
    items = {i["action"]["unit"]: i for c in view["choices"] for i in c["items"] if i["unit"]}
    assert items["b"]["key"] == "action.hh_remove_attacker"
    g.apply({"type": "toggle_attacker", "unit": "b"})
    view = g.view(None, 0)
    items = {i["action"]["unit"]: i for c in view["choices"] for i in c["items"] if i["unit"]}
    assert items["b"]["key"] == "action.hh_add_attacker"
    assert view["arrows"] == [{"from": "0303", "to": "0403", "kind": "attack"}]
    g.apply({"type": "toggle_attacker", "unit": "b"})
    # Confirm is previewed; cancel is last and says the attack is given up.
    view = g.view(None, 0)
    assert view["choices"][-1]["items"][-1]["action"] == {"type": "cancel"}
    confirm = next(
        i for c in view["choices"] for i in c["items"] if i["action"]["type"] == "confirm"
    )
    assert confirm["preview"] is True
    g.apply({"type": "confirm"})
    view = g.view(None, 0)
    assert view["prompt"]["key"] == "prompt.hh_lead_attacker"
    assert (view["prompt"]["params"]["number"], view["prompt"]["params"]["step"]) == (
        4,
        "select_lead_units",
    )
    assert view["combat"]["number"] == 4 and view["combat"]["step_name"] == "select_lead_units"
    g.apply({"type": "lead", "unit": "a"})
    # Two attacking hexes: the attacker chooses the pair of hexes that gives the terrain DRM.
    view = g.view(None, 0)
    assert view["prompt"]["key"] == "prompt.hh_terrain"
    assert view["prompt"]["params"]["number"] == 5
    assert view["prompt"]["why"] == {"key": "why.hh_terrain", "params": {}}
    pairs = [i for c in view["choices"] for i in c["items"]]
    assert [(i["at"], i["preview"]) for i in pairs] == [("0403", True), ("0403", True)]
    g.apply(pairs[0]["action"])
    view = g.view(None, 0)
    assert view["prompt"]["key"] == "prompt.chance.hh_close_combat"
    assert view["prompt"]["params"]["number"] == 6
    assert "hh_lead" in view["markers"]["a"] and "hh_lead" in view["markers"]["d"]
    assert "hh_lead" not in view["markers"].get("b", [])
    # Each face: the stand-in CRT at 2:1 with this combat's DRM (+1: morale 4 against 3).
    assert view["prompt"]["params"]["drm"] == 1 and view["prompt"]["params"]["column"] == "2:1"
    faces = [f["result"] for f in view["chance"]["faces"]]
    assert faces[0] == {
        "key": "chance.hh_result_none",
        "params": {"roll": 1, "total": 2, "column": "2:1", "table": "stand_in"},
    }
    assert faces[5]["params"]["codes"] == ["D1", "Dr"] and faces[5]["params"]["total"] == 7


def test_markers_replace_the_state_fields_the_screen_used_to_read():
    g = start(
        [
            U("p", "0303"),
            U("c", "0101"),
            U("h", "0601", kind="cavalry"),
            U("e", "0403", side="austria"),
        ]
    )
    units = g.states[-1]["units"]
    units["c"].update(formation="column", lost=1)
    units["h"].update(engaged=True, wcm=1, must=True)
    units["e"]["lost"] = 9
    markers = RULES.view_extra(g.scenario, g.state)["markers"]
    assert markers == {
        "p": ["hh_locked"],
        "c": ["hh_lost_1", "hh_column"],
        "h": ["hh_engaged", "hh_wcm", "hh_must_attack"],
        "e": ["hh_locked", "hh_lost_5"],
    }


def test_a_formation_change_is_labelled_with_the_formation_not_a_place():
    g = start([U("p", "0101"), U("e", "0806", side="austria")])
    to_phase(g, "movement")
    choices = g.view(None, 0)["choices"]
    assert choices[0]["kind"] == "map" and choices[0]["key"] == "choice.hh_move"
    form = next(c for c in choices if c["key"] == "choice.hh_formation")
    assert form["items"] == [
        {
            "action": {"type": "formation", "unit": "p", "to": "column"},
            "key": "action.hh_formation",
            "params": {"unit": "p", "formation": "column"},
            "unit": "p",
            "at": None,
            "preview": False,
        }
    ]
    end = choices[-1]["items"]
    assert [i["action"] for i in end] == [{"type": "end_phase"}]
    assert end[0]["params"] == {
        # No gun: the bombardment phase passes by itself, and the label says so.
        "then": {"key": "then.hh_phase", "params": {"phase": "combat"}},
        "phase": "movement",
    }


def test_a_forced_choice_says_why():
    g = duel()
    g.apply({"type": "attack", "target": "0403"})
    g.apply({"type": "toggle_attacker", "unit": "b"})
    g.apply({"type": "confirm"})
    # 1:1 (4 against 4), DRM +1: a modified 5 reads EX: a loss point for each side.
    g.apply({"type": "roll", "value": 4})
    log = [e["key"] for e in g.log]
    assert "log.hh_result" in log
    rolled = next(e for e in g.log if e["key"] == "log.hh_result")
    assert rolled["params"]["codes"] == ["EX"]
    # Two leaders with the attacker would be checked at step 7: here none; losses applied.
    assert g.state["units"]["a"]["lost"] == 1 and g.state["units"]["d"]["lost"] == 1
    # A must-attack after a deep charge: the prompt says why and there is no end of phase.
    h = start([U("h", "0303", kind="cavalry"), U("e", "0403", side="austria")])
    to_phase(h, "combat")
    h.states[-1]["units"]["h"]["must"] = True
    view = h.view(None, 0)
    assert view["prompt"]["key"] == "prompt.hh_must_attack"
    assert view["prompt"]["why"] == {"key": "why.hh_must_attack", "params": {"units": ["h"]}}
    assert [c["key"] for c in view["choices"]] == ["choice.hh_must_attack"]
