"""What the hex-facing screen shows (docs/play-view.md): prompts, choices, chance results,
markers and arrows, every message worded in the four languages and every parameter with a
kind. Over random games of the demo, then on positions a player would check by eye."""

import json
import re
from pathlib import Path

import pytest
from playouts import random_playout
from test_fight_hex_facing import walk_to
from test_play_hex_facing import BY_HAND

from muster.game import Game, canonical, chance_faces
from muster.ruleset import CHOICE_KINDS, words_of
from muster.scenario import load_builtin, parse_scenario
from muster.systems import game_rules
from muster.systems.hex_facing import combat
from muster.systems.hex_facing import tables as hf_tables
from muster.systems.hex_facing.rules import formations
from muster.texts import english

RULES = game_rules("hex-facing")
KINDS = words_of(RULES)
I18N = Path(__file__).resolve().parents[2] / "static" / "i18n"
LANGS = ("en", "pl", "fr", "ja")
WORDS = {lang: json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")) for lang in LANGS}
EN = WORDS["en"]
RULE_NUMBER = re.compile(r"^\d+(\.\d+)*$")
ENDING = {"next_step", "no_counterattack", "no_reaction", "hold", "end_rally"}
DEMO = load_builtin("demo-valmont")
FIGHTS = ("fire", "melee", "reaction_fire", "rally")


def slug(text):
    """A rule reference's key, as static/i18n.js makes it."""
    return "rule_ref." + re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def has_key(key):
    missing = [lang for lang in LANGS if key not in WORDS[lang]]
    assert not missing, f"{key} missing in {missing}"


def is_number(value):
    return isinstance(value, int | float) and not isinstance(value, bool)


def is_label(value):
    return isinstance(value, dict) and isinstance(value.get("key"), str)


def check_rule(ref):
    assert isinstance(ref, str), ref
    if not RULE_NUMBER.match(ref) and ref != "default":
        has_key(slug(ref))


def check_value(sc, kind, value, where):
    """A parameter's value fits its kind, and the words it needs exist."""
    many = kind in ("units", "places", "labels") or kind.startswith("words:")
    values = value if many else [value]
    assert isinstance(values, list), (where, value)
    one = {"units": "unit", "places": "place", "labels": "label"}.get(kind, kind)
    one = "word:" + one[6:] if one.startswith("words:") else one
    for v in values:
        if one.startswith("word:"):
            has_key(one[5:] + str(v))
        elif one == "unit":
            assert v in sc.units, (where, v)
        elif one == "place":
            assert v in sc.at_label or "/" in v, (where, v)
        elif one == "side":
            assert v is None or v in {s["id"] for s in sc.data["sides"]}, (where, v)
        elif one == "formation":
            assert v in formations(sc) or v in ("line", "column"), (where, v)
        elif one == "facing":
            assert v in range(12), (where, v)
        elif one == "rule":
            check_rule(v)
        elif one == "label":
            check_label(sc, v, where)
        elif one in ("number", "count"):
            assert is_number(v), (where, v)
        elif one == "points":
            assert all(is_number(n) for n in v.values()), (where, v)


def check_params(sc, params, where):
    for name, value in params.items():
        if is_label(value):
            check_label(sc, value, f"{where}.{name}")
        elif name in KINDS:
            check_value(sc, KINDS[name], value, f"{where}.{name}")
        else:
            assert is_number(value), f"{where}: parameter {name}={value!r} has no kind"


def check_label(sc, label, where):
    has_key(label["key"])
    check_params(sc, label["params"], f"{where} {label['key']}")


def check_view(game):
    """One position as the screen sees it."""
    sc, state = game.scenario, game.state
    view = game.view(None, 3)
    legal = game.legal_actions()
    json.dumps(view)
    prompt = view["prompt"]
    if state["result"]:
        assert prompt is None and view["choices"] == []
        return
    check_label(sc, prompt, "prompt")
    if "why" in prompt:
        check_label(sc, prompt["why"], "why")
    chance = state["chance"]
    turn = state["active"]["side"] if state["active"] else (state["rally"] or {}).get("side")
    assert prompt["side"] == (turn if chance else RULES.decider(sc, state))
    if chance:
        results = RULES.chance_results(sc, state)
        assert len(results) == len(chance_faces(chance))
        for face in view["chance"]["faces"]:
            check_label(sc, face["result"], "chance")
        assert view["choices"] == []
    else:
        seen = []
        for c in view["choices"]:
            assert c["kind"] in CHOICE_KINDS and c["items"]
            check_label(sc, c, "choice")
            for it in c["items"]:
                check_label(sc, it, "item")
                a = it["action"]
                seen.append(canonical(a))
                assert it["preview"] == (a["type"] in RULES.previewable)
                if c["kind"] == "map":
                    assert it["unit"] and it["at"] and a["type"] == "move"
                if c["kind"] == "facing":
                    assert it["unit"] and "facing" in a
                if it["preview"]:
                    answer = RULES.preview(sc, state, a)
                    for m in answer["modifiers"]:
                        check_label(sc, m, "modifier")
                        check_rule(m["rule"])
                    for o in answer["outcomes"]:
                        for effects in o["outcome"].values():
                            for e in effects:
                                has_key("effect." + e)
        assert sorted(seen) == sorted(canonical(a) for a in legal), "each action in one item"
        # The action that ends a step, an offer or a phase (if any: not while a facing or a
        # retreat is due) comes alone, last.
        endings = [a for a in legal if a["type"] in ENDING]
        assert len(endings) <= 1
        if endings:
            [last] = view["choices"][-1]["items"]
            assert last["action"] == endings[0]
    for uid, marks in view["markers"].items():
        assert uid in sc.units and marks
        for m in marks:
            has_key(f"marker.{m}")
            has_key(f"marker_sign.{m}")
            assert all(1 <= len(WORDS[lang][f"marker_sign.{m}"]) <= 3 for lang in LANGS)
    for arrow in view["arrows"]:
        assert {arrow["from"], arrow["to"]} <= set(sc.at_label)
        assert arrow["kind"] in ("fire", "melee", "charge")


@pytest.mark.parametrize("seed,bias", [(0, 0.9), (1, 0.9), (2, 0.5), (3, 0.0)])
def test_every_view_of_random_games_is_worded(seed, bias):
    g = random_playout(DEMO, RULES, seed, FIGHTS, bias, check=check_view)
    for event in g.log:
        if event["key"] == "log.draw":  # a marker drawn from the cup names its formation
            assert event["params"]["drawn"] in formations(DEMO)
        check_label(DEMO, event, "log")


def test_every_rule_reference_of_the_data_is_worded():
    tables = hf_tables.load_tables()
    refs = {r.rule for r in (*tables.melee.values(), *tables.fire.values())}
    refs |= {n["rule"] for n in tables.notes.values()}
    raw = hf_tables.raw_tables()
    refs |= {raw[t]["rule"] for t in ("force_ratio", "fire_table", "melee_table")}
    refs |= {p["rule"] for p in raw["procedures"].values()}
    refs |= {"terrain table", "terrain table (f) (g)", "terrain table (c)", "terrain table (d)"}
    for ref in refs:
        check_rule(ref)


# -- a player's checks ------------------------------------------------------------------------


def say(sc, label):
    """A label in English, as the screen words it (the scenario's names in English)."""
    names = {f: english(v.get("name", f)) for f, v in formations(sc).items()}
    sides = {s["id"]: english(s["name"]) for s in sc.data["sides"]}

    def word(name, value):
        if is_label(value):
            return say(sc, value)
        kind = KINDS.get(name, "text")
        many = kind in ("units", "places") or kind.startswith("words:")
        if many:
            one = {"units": "unit", "places": "place"}.get(kind, "word:" + kind[6:])
            return ", ".join(word_of(one, v) for v in value)
        return word_of(kind, value)

    def word_of(kind, value):
        if kind.startswith("word:"):
            return EN[kind[5:] + str(value)]
        if kind == "unit":
            return english(sc.units[value]["name"])
        if kind == "side":
            return sides[value]
        if kind == "formation":
            return names[value]
        if kind == "rule":
            if RULE_NUMBER.match(value):
                return EN["ui.rule"].replace("{rule}", value)
            return EN[slug(value)]
        return str(value)

    return re.sub(r"\{(\w+)\}", lambda m: word(m[1], label["params"][m[1]]), EN[label["key"]])


def texts(game):
    view = game.view(None, 0)
    return [say(game.scenario, i) for c in view["choices"] for i in c["items"]]


def by_hand(sc):
    """The scenario with every step ended by hand (sequence.json empty_steps off): the tests
    below read what each step shows, empty or not."""
    return parse_scenario({**sc.data, "overrides": BY_HAND})


def demo_at(formation):
    g = Game.start(by_hand(DEMO), RULES, 1)
    g.apply({"type": "roll", "value": formation})
    return g


def test_the_cup_says_which_formation_each_draw_activates():
    g = Game.start(DEMO, RULES, 1)
    view = g.view(None, 0)
    assert view["prompt"]["side"] is None
    assert say(DEMO, view["prompt"]) == "Draw a formation marker from the cup (8 left)"
    results = [say(DEMO, f["result"]) for f in view["chance"]["faces"]]
    assert results[0] == "Brigade Morand (France) is activated"
    assert "Cavalry (Austria) is activated without orders" in results


def test_steps_of_an_activated_formation_and_what_ends_them():
    g = demo_at("fr-bde1")
    view = g.view(None, 0)
    assert say(DEMO, view["prompt"]) == "Brigade Morand (France): artillery fire"
    assert view["prompt"]["side"] == "france" and "why" not in view["prompt"]
    assert texts(g)[-1] == "End the fire step of Brigade Morand"
    g.apply({"type": "next_step"})
    view = g.view(None, 0)
    kinds = [c["kind"] for c in view["choices"]]
    assert kinds[:2] == ["map", "facing"] and view["choices"][-1]["key"] == "choice.hf_done"
    assert texts(g)[-1] == "End the movement step of Brigade Morand"
    g.apply({"type": "next_step"})
    assert texts(g)[-1] == (
        "End the activation of Brigade Morand (its melee and charges step is the last)"
    )


def test_a_formation_without_orders_is_told_why():
    g = demo_at("au-cav")
    g.apply({"type": "next_step"})
    prompt = g.view(None, 0)["prompt"]
    assert say(DEMO, prompt) == "Cavalry (Austria): movement"
    assert say(DEMO, prompt["why"]) == (
        "Without orders: its units move at 0.5 × their movement allowance"
    )
    g.apply({"type": "next_step"})
    prompt = g.view(None, 0)["prompt"]
    assert say(DEMO, prompt["why"]) == "Without orders: it may not declare melee or charges"


def test_a_facing_is_due_after_a_move():
    g = demo_at("fr-bde1")
    g.apply({"type": "next_step"})
    move = next(a for a in g.legal_actions() if a["type"] == "move")
    g.apply(move)
    view = g.view(None, 0)
    uid = move["unit"]
    name = DEMO.units[uid]["name"]
    assert say(DEMO, view["prompt"]) == f"{name} (Brigade Morand): choose its facing"
    assert say(DEMO, view["prompt"]["why"]) == f"{name} has moved: it must choose its facing now"
    [facing] = view["choices"]
    assert facing["kind"] == "facing" and len(facing["items"]) == 12
    assert all(i["unit"] == uid and i["at"] is None for i in facing["items"])
    assert say(DEMO, facing["items"][3]) == f"{name} faces 3"
    assert view["markers"][uid] == ["hf_done"]


# Hand-made positions (tests/core/test_fight_hex_facing.py): flat map, even columns lower.
def scenario(units):
    return parse_scenario(
        {
            "format": "muster-scenario/1",
            "id": "f",
            "system": "hex-facing",
            "title": "f",
            "map": {"orientation": "flat", "stagger": "even", "columns": 8, "rows": 5},
            "sides": [{"id": "fr", "name": "France"}, {"id": "au", "name": "Austria"}],
            "formations": [
                {"id": "fr", "side": "fr", "name": "Brigade F"},
                {"id": "au", "side": "au", "name": "Brigade A"},
            ],
            "units": [
                {"type": "infantry", "side": "fr", "formation": "fr", "name": u["id"], **u}
                for u in units
            ],
        }
    )


def duel(a, d, gun=None):
    units = [
        {"id": "a1", "hex": "0303", "facing": 2, "ratings": a},
        {"id": "d1", "side": "au", "formation": "au", "hex": "0403", "facing": 8, "ratings": d},
    ]
    return scenario(units + ([gun] if gun else []))


def at_combat(sc):
    g = Game.start(sc, RULES, 1)
    g.apply({"type": "roll", "value": "fr"})
    return walk_to(g, "combat")


def test_a_melee_button_names_its_attackers_and_the_roll_says_what_each_face_does():
    sc = duel({"strength": 6, "cohesion": 6}, {"strength": 3, "cohesion": 5})
    g = at_combat(sc)
    [melee] = g.view(None, 0)["choices"][0]["items"]
    assert melee["unit"] is None and melee["at"] == "0403" and melee["preview"]
    assert say(sc, melee) == "a1 attack 0403 in melee"
    g.apply(melee["action"])
    view = g.view(None, 0)
    total = g.state["chance"]["total"]
    assert say(sc, view["prompt"]) == f"Melee of a1 against 0403: roll the die (modifiers {total})"
    assert view["arrows"] == [{"from": "0303", "to": "0403", "kind": "melee"}]
    results = [say(sc, f["result"]) for f in view["chance"]["faces"]]
    top = combat.melee_result(9 + total)
    assert top.cells["defender"].codes == ("1", "Z")  # the table's top row
    assert results[9] == (
        f"total {9 + total}: defender retreat 1 hex, disordered; "
        "attacker breakthrough (may advance)"
    )


def test_the_counterattack_offer_names_the_rule_and_its_stand_in():
    sc = duel({"strength": 2, "cohesion": 5}, {"strength": 8, "cohesion": 8})
    g = at_combat(sc)
    g.apply({"type": "melee", "target": "0403", "attackers": ["a1"]})
    g.apply({"type": "roll", "value": 0})  # modified roll below 0: counterattack (8.7)
    view = g.view(None, 0)
    assert view["chance"]["purpose"] == "cohesion"  # the attacker's PZw/1 first
    assert say(sc, view["prompt"]) == (
        "Cohesion test of a1: passes on 5 or less; if it fails: retreats"
    )
    results = [say(sc, f["result"]) for f in view["chance"]["faces"]]
    assert results[5] == "a1 passes (needs 5 or less)"
    assert results[6] == "a1 fails (needs 5 or less): retreats"
    g.apply({"type": "roll", "value": 0})
    view = g.view(None, 0)
    assert view["prompt"]["side"] == "au" and view["decider"] == "au"
    assert say(sc, view["prompt"]).startswith(
        "Defender: may d1 counterattack 0303 at once? (rule: 8.7; the aid names it without"
    )
    assert texts(g) == [
        "d1 counterattack 0303 (rule: 8.7; procedure assumed by the app)",
        "d1 do not counterattack",
    ]
    assert view["markers"] == {"a1": ["hf_disordered", "hf_done"]}  # a1 has attacked


def test_reaction_fire_is_offered_to_the_defender_with_the_melee_drawn():
    gun = {
        "id": "gun",
        "side": "au",
        "formation": "au",
        "type": "artillery",
        "hex": "0403",
        "facing": 8,
        "ratings": {"strength": 2, "cohesion": 6, "fire": 3, "range": 3},
    }
    sc = scenario([{"id": "a1", "hex": "0303", "facing": 2, "ratings": {"strength": 6}}, gun])
    g = at_combat(sc)
    g.apply({"type": "melee", "target": "0403", "attackers": ["a1"]})
    view = g.view(None, 0)
    assert view["prompt"]["side"] == "au"
    assert say(sc, view["prompt"]) == (
        "Defender: may the guns gun in 0403 fire at a1 before the melee? (rule: 8.3)"
    )
    assert texts(g) == [
        "gun fires in reaction at 0303",
        "No reaction fire: the melee on 0403 goes ahead",
    ]
    assert view["arrows"] == [{"from": "0303", "to": "0403", "kind": "melee"}]
    g.apply({"type": "reaction_fire", "unit": "gun", "target": "0303"})
    view = g.view(None, 0)
    assert view["prompt"]["side"] == "fr"  # a die decides in the French activation
    assert {"from": "0403", "to": "0303", "kind": "fire"} in view["arrows"]
    total = g.state["chance"]["total"]
    results = [say(sc, f["result"]) for f in view["chance"]["faces"]]
    codes = [combat.fire_result(f, total).cells["result"].codes for f in range(10)]
    assert results == [
        f"total {f + total}: " + (", ".join(EN[f"hf_code.{c}"] for c in codes[f]) or "no effect")
        for f in range(10)
    ]


def test_rally_prompt_buttons_and_results():
    sc = by_hand(duel({"cohesion": 6}, {"cohesion": 5}))
    g = Game.start(sc, RULES, 1)
    g.states[-1]["units"]["a1"]["status"] = "routed"
    g.states[-1]["units"]["a1"]["hex"] = "0101"  # not next to the enemy
    for fid in ("fr", "au"):
        g.apply({"type": "roll", "value": fid})
        for _ in range(3):
            g.apply({"type": "next_step"})
    view = g.view(None, 0)
    assert say(sc, view["prompt"]) == (
        "France: rally disordered and routed units not next to an enemy"
    )
    assert view["markers"] == {"a1": ["hf_routed"]}
    assert texts(g) == ["Test a1 to rally it (passes on 6 or less)", "End the rally of France"]
    g.apply({"type": "rally", "unit": "a1"})
    view = g.view(None, 0)
    assert view["prompt"]["side"] == "fr"
    assert say(sc, view["prompt"]) == "Rally test of a1 (modifier 0): rallies on 6 or less"
    results = [say(sc, f["result"]) for f in view["chance"]["faces"]]
    assert results[6] == "a1 rallies (needs 6 or less): now disordered"
    assert results[7] == "a1 does not rally (needs 6 or less): stays routed"
    g.apply({"type": "roll", "value": 7})
    g.apply({"type": "end_rally"})
    assert texts(g) == ["End the rally of Austria: turn 1 ends"]


def test_a_retreat_with_a_choice_says_why():
    sc = duel({"strength": 8, "cohesion": 9}, {"strength": 2, "cohesion": 3})
    g = at_combat(sc)
    g.apply({"type": "melee", "target": "0403", "attackers": ["a1"]})
    g.apply({"type": "roll", "value": 9})  # 10 or more: the defender retreats, disordered
    view = g.view(None, 0)
    assert g.state["retreat"] and view["prompt"]["side"] == "au"
    count = len(g.state["retreat"]["options"])
    assert say(sc, view["prompt"]) == "Choose the hex d1 retreats into"
    assert say(sc, view["prompt"]["why"]) == (
        "A combat result makes d1 retreat one hex; the aid says no more, and Muster reads a"
        " retreat as going farther from every unit it falls back from (never next to one):"
        f" {count} hexes are open to it"
    )
    [retreat] = view["choices"]
    assert all(i["unit"] == "d1" and i["at"] == i["action"]["to"] for i in retreat["items"])
    assert view["arrows"] == [{"from": "0303", "to": "0403", "kind": "melee"}]


def test_log_results_are_codes_worded_in_full():
    sc = duel({"strength": 8, "cohesion": 9}, {"strength": 2, "cohesion": 3})
    g = at_combat(sc)
    g.apply({"type": "melee", "target": "0403", "attackers": ["a1"]})
    g.apply({"type": "roll", "value": 9})
    result = next(e for e in g.log if e["key"] == "log.hf_melee_result")
    assert result["params"]["defender_codes"] == ["1", "Z"]
    assert say(sc, result).endswith(
        "defender retreat 1 hex, disordered; attacker breakthrough (may advance)"
    )


def cav(**kw):
    return combat.Combatant("cavalry", 4, 5, **kw)


def inf(**kw):
    return combat.Combatant("infantry", 4, 5, **kw)


def art(**kw):
    return combat.Combatant("artillery", 2, 5, fire_strength=3, effective_range=2, **kw)


@pytest.mark.parametrize(
    "attempt",
    [
        lambda: combat.melee_modifiers(combat.MeleeSituation((inf(),), (inf(),), charge=True)),
        lambda: combat.melee_modifiers(
            combat.MeleeSituation((cav(),), (inf(),), ("woods",), charge=True)
        ),
        lambda: combat.melee_modifiers(
            combat.MeleeSituation((cav(hexside=("crest",)),), (inf(),), charge=True)
        ),
        lambda: combat.fire_modifiers(combat.FireSituation((inf(),), (inf(),))),
        lambda: combat.fire_modifiers(combat.FireSituation((art(), art(), art()), (inf(),))),
    ],
)
def test_combat_errors_are_worded(attempt):
    with pytest.raises(combat.IllegalCombatError) as e:
        attempt()
    check_label(DEMO, {"key": e.value.key, "params": e.value.params}, "error")
