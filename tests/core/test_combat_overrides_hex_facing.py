"""hex-facing: a scenario's own combat defaults (``overrides.combat``).

The aid leaves open how a cohesion test is read and the procedures its results name
(breakthrough, counterattack, pursuit, countercharge); combat.json holds the readings, marked
default, and a scenario may change them. A player sees the change in play (the die faces, the
choices offered, the odds), in the rules reference ("changed by this scenario") and in the
editor's Tables tab. The aid's printed tables are facts and stay closed.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from test_countercharge_hex_facing import CHARGE, COUNTER, charged
from test_countercharge_hex_facing import duel as cavalry_duel
from test_editor import WORDS, check, other_value, template
from test_fight_hex_facing import GUN, at_step, duel, scenario
from test_play_hex_facing import tiny
from test_settings_hex_facing import to_rally

from muster import editor
from muster.api import Session
from muster.errors import ScenarioError
from muster.game import Game
from muster.reference import overridden
from muster.scenario import load_builtin, parse_scenario
from muster.systems import game_rules
from muster.systems.hex_facing import tables as hf_tables

RULES = game_rules("hex-facing")
FIRE = {"type": "fire", "unit": "gun", "target": "0303"}
MELEE = {"type": "melee", "target": "0403", "attackers": ["a1"]}


def own(sc, **tables):
    """The scenario again, with ``overrides.combat`` (combat.json's shape)."""
    return parse_scenario({**sc.data, "overrides": {"combat": tables}})


def target(**state):
    """The gun in 0103 and an Austrian unit of cohesion 6 two hexes in front of it."""
    t = {"id": "t", "side": "au", "hex": "0303", "ratings": {"cohesion": 6}}
    return scenario([GUN, {**t, "state": state} if state else t])


def rows(reference, section):
    found = next(s for s in reference["sections"] if s["id"] == section)
    return {r["id"]: r for r in found["rows"]}


# -- in play: what the player sees changes ----------------------------------------------------


@pytest.mark.parametrize(
    "pass_if, face, passed",
    [("at_most", 6, True), ("at_most", 7, False), ("below", 5, True), ("below", 6, False)],
)
def test_a_cohesion_test_passes_as_the_scenario_reads_it_at_its_boundary(pass_if, face, passed):
    sc = own(target(), cohesion_test={"pass_if": pass_if})
    g = at_step(sc, "fire")
    g.apply(FIRE)
    g.apply({"type": "roll", "value": 5})  # 5 + fire 4 = 9: PZw, a cohesion test
    assert g.state["chance"]["purpose"] == "cohesion"
    faces = RULES.chance_results(sc, g.state)
    needed = 6 if pass_if == "at_most" else 5  # the highest face that passes, as the die says
    assert faces[face]["key"] == ("chance.hf_test_pass" if passed else "chance.hf_test_fail")
    assert faces[face]["params"]["needed"] == needed
    before = len(g.log)
    g.apply({"type": "roll", "value": face})
    assert g.state["units"]["t"]["status"] == ("good" if passed else "disordered")
    logged = [e["key"] for e in g.log[before:]]
    assert ("log.test_passed" if passed else "log.test_failed") in logged


def test_the_odds_of_a_fire_follow_the_scenarios_cohesion_test():
    def disordered(sc):
        g = at_step(sc, "fire")
        odds = RULES.preview(sc, g.state, FIRE)["outcomes"]
        return sum(o["p"] for o in odds if "disorder" in o["outcome"]["target"])

    sc = target()
    assert disordered(own(sc, cohesion_test={"pass_if": "below"})) > disordered(sc)


def test_a_rally_reads_the_scenarios_cohesion_test():
    data = copy.deepcopy(tiny().data)
    next(u for u in data["units"] if u["id"] == "f1")["state"] = {"disordered": True}
    for pass_if, needed in (("at_most", 6), ("below", 5)):
        sc = parse_scenario(
            {
                **data,
                "overrides": {
                    **data["overrides"],
                    "combat": {"cohesion_test": {"pass_if": pass_if}},
                },
            }
        )
        g = to_rally(Game.start(sc, RULES, 1))
        g.apply({"type": "rally", "unit": "f1"})
        assert RULES.prompt(sc, g.state)["params"]["needed"] == needed
        g.apply({"type": "roll", "value": 6})
        assert g.state["units"]["f1"]["status"] == (
            "good" if pass_if == "at_most" else "disordered"
        )


def test_a_scenario_without_countercharge_never_offers_it():
    sc = cavalry_duel()
    assert charged(sc).legal_actions() == [COUNTER, {"type": "no_countercharge"}]
    off = own(sc, procedures={"countercharge": {"reaction": False}})
    g = charged(off)
    assert g.state["chance"]["purpose"] == "melee"  # straight to the die: nobody is asked
    assert not [a for a in g.legal_actions() if a["type"] == "countercharge"]
    # Nor when only a melee without charging may be countercharged.
    melee_only = own(sc, procedures={"countercharge": {"against": ["melee"]}})
    assert charged(melee_only).state["chance"]["purpose"] == "melee"
    plain = {k: v for k, v in CHARGE.items() if k != "charge"}
    assert charged(melee_only, plain).legal_actions() == [COUNTER, {"type": "no_countercharge"}]


@pytest.mark.parametrize("advance", ["may", "must"])
def test_the_breakthrough_is_made_as_the_scenario_says(advance):
    sc = duel({"strength": 6, "cohesion": 7}, {"strength": 6, "cohesion": 5})
    sc = own(sc, procedures={"breakthrough": {"advance": advance}})
    g = at_step(sc, "combat")
    drm = RULES.preview(sc, g.state, MELEE)["total"]
    g.apply(MELEE)
    g.apply({"type": "roll", "value": max(0, 10 - drm)})  # 10+: defender 1 + Z, breakthrough
    g.apply(g.legal_actions()[0])  # the defender's owner picks its retreat
    if advance == "may":
        assert g.legal_actions() == [
            {"type": "advance", "unit": "a1", "to": "0403"},
            {"type": "hold"},
        ]
    else:  # no choice: the winner advances at once
        assert g.state["units"]["a1"]["hex"] == "0403"
        assert not [a for a in g.legal_actions() if a["type"] in ("advance", "hold")]
        assert "log.advance" in [e["key"] for e in g.log]


def test_a_counterattack_the_scenario_makes_compulsory_cannot_be_declined():
    sc = duel({"strength": 2, "cohesion": 5}, {"strength": 8, "cohesion": 8})
    sc = own(sc, procedures={"counterattack": {"melee": "must"}})
    g = at_step(sc, "combat")
    g.apply(MELEE)
    g.apply({"type": "roll", "value": 0})  # below 0: counterattack
    while g.state["chance"]:
        g.apply({"type": "roll", "value": 0})
    assert [a["type"] for a in g.legal_actions()] == ["melee"]
    assert g.legal_actions()[0]["counter"] is True


@pytest.mark.parametrize("again, status", [("rout", "routed"), ("disordered", "disordered")])
def test_a_disordered_unit_disordered_again_as_the_scenario_says(again, status):
    sc = own(target(disordered=True), disorder_again={"value": again})
    g = at_step(sc, "fire")
    g.apply(FIRE)
    g.apply({"type": "roll", "value": 9})  # 9 + 4 = 13: Z
    assert g.state["units"]["t"]["status"] == status


def test_long_range_reaches_as_far_as_the_scenario_says():
    t = {"id": "t", "side": "au", "hex": "0403", "ratings": {"cohesion": 6}}  # range 3
    sc = scenario([GUN, t])
    fire = {"type": "fire", "unit": "gun", "target": "0403"}
    assert fire in at_step(sc, "fire").legal_actions()  # effective 2, and 2 beyond
    near = own(sc, fire_modifiers={"long_range_limit": {"value": 0}})
    g = at_step(near, "fire", by_hand=True)  # out of range: an empty step, held to see it
    assert fire not in g.legal_actions()
    assert RULES.refusal(near, g.state, fire)["key"] == "error.hf_out_of_range"


def test_every_default_the_scenario_may_change_reaches_the_rules():
    """Each entry of the editor's catalog, set to another value, is what the rules read."""
    base = template("hex-facing")
    for entry in (e for e in editor.tables("hex-facing") if e["table"] == "combat"):
        value = other_value(entry)
        sc = parse_scenario({**base, "overrides": editor.override_at(entry["path"], value)})
        setting = hf_tables.open_settings()[tuple(entry["path"][1:])]
        read = hf_tables.tables_for(sc).settings[setting]
        assert (list(read) if isinstance(read, tuple) else read) == value, entry["path"]


def test_a_scenario_without_combat_overrides_plays_the_systems_own_tables():
    sc = load_builtin("demo-valmont")
    assert hf_tables.tables_for(sc) is hf_tables.load_tables()
    assert hf_tables.raw_for(sc) == hf_tables.raw_tables()


# -- refusals -------------------------------------------------------------------------------


FACTS = [
    {"melee_table": {"rows": []}},
    {"fire_table": {"legend": "x"}},
    {"force_ratio": {"rows": []}},
    {"codes": {"PZw": {"failed": ["rout"]}}},
    {"terrain_notes": {"b": {"attacking_from": 0}}},
    {"melee_modifiers": {"rows": []}},
    {"fire_modifiers": {"rows": []}},
    {"procedures": {"breakthrough": {"rule": "8.8"}}},
    {"cohesion_test": {"seed": "PZw"}},
]
HELD = [
    {"die": {"sides": 6}},
    {"combat_types": {"value": ["infantry"]}},
    {"fire_modifiers": {"firer_types": {"value": ["infantry", "artillery"]}}},
    {"retreat_blocked": {"becomes": ["rout"]}},
    {"readings": {"italic": {"value": "cavalry_replaces"}}},
    {"force_ratio": {"rounding": {"value": "row_at_or_below"}}},
    {"procedures": {"pursuit": {"test": False}}},
    {"procedures": {"breakthrough": {"effects": ["pursuit"]}}},
]


def leaf(tables):
    """The dotted place of the one value in ``tables``."""
    path = []
    while isinstance(tables, dict):
        key, tables = next(iter(tables.items()))
        path.append(key)
    return ".".join(path)


def refusal(tables, system="hex-facing"):
    data = {**template(system), "overrides": {"combat": tables}}
    answer = Session().call("scenario_check", {"scenario": data})
    assert answer["ok"] and not answer["result"]["ok"], answer
    with pytest.raises(ScenarioError):
        parse_scenario(data)
    return answer["result"]["problem"]


@pytest.mark.parametrize("tables", FACTS, ids=leaf)
def test_a_fact_of_the_aids_chart_is_refused_naming_its_place(tables):
    found = refusal(tables)
    assert found["params"]["place"] == "overrides.combat." + leaf(tables)
    assert found["params"]["problem"] == {"key": "problem.combat_fact", "params": {}}
    assert "a fact of the aid's chart, not a setting" in found["message"]
    assert found["place"] == {"kind": "overrides", "path": ["combat", *leaf(tables).split(".")]}


@pytest.mark.parametrize("tables", HELD, ids=leaf)
def test_a_default_the_rules_hold_fixed_is_refused_naming_its_place(tables):
    found = refusal(tables)
    assert found["params"]["place"] == "overrides.combat." + leaf(tables)
    assert found["params"]["problem"] == {"key": "problem.combat_fixed", "params": {}}


@pytest.mark.parametrize(
    "tables, problem",
    [
        ({"cohesion_test": {"pass_if": "never"}}, "expected one of at_most, below"),
        ({"cohesion_test": {"pass_if": 1}}, "expected one of at_most, below"),
        ({"disorder_again": {"value": "routs"}}, "expected one of rout, disordered"),
        ({"combining": {"works": {"value": "any"}}}, "expected one of least_favourable"),
        ({"readings": {"square": {"value": True}}}, "expected one of any, all"),
        ({"procedures": {"breakthrough": {"advance": "maybe"}}}, "expected one of may, must"),
        ({"procedures": {"breakthrough": {"units": 0}}}, "whole number of at least 1"),
        ({"procedures": {"pursuit": {"units": 1.5}}}, "whole number of at least 1"),
        ({"procedures": {"pursuit": {"units": True}}}, "whole number of at least 1"),
        ({"fire_modifiers": {"long_range_limit": {"value": -1}}}, "at least 0"),
        ({"procedures": {"countercharge": {"reaction": "no"}}}, "expected one of true, false"),
        ({"procedures": {"countercharge": {"against": ["charge", "charge"]}}}, "each once"),
        ({"procedures": {"countercharge": {"by": ["dragoons"]}}}, "some of infantry, cavalry"),
        ({"procedures": {"countercharge": {"states": "good"}}}, "some of good, disordered"),
        ({"procedures": {"pursuit": {"failed": []}}}, "at least one of disorder, rout"),
        ({"procedures": {"pursuit": {"failed": ["retreat"]}}}, "at least one of disorder, rout"),
        ({"procedures": {"countercharge": {"facing": "rear"}}}, "expected one of front, any"),
    ],
    ids=leaf,
)
def test_a_bad_value_is_refused_naming_its_place(tables, problem):
    found = refusal(tables)
    assert found["params"]["place"] == "overrides.combat." + leaf(tables)
    assert problem in found["message"]


@pytest.mark.parametrize(
    "tables, place, problem",
    [
        ({"disorder_again": "disordered"}, "disorder_again", "expected a JSON object"),
        ({"procedures": {"breakthrough": {"why": "x"}}}, "procedures.breakthrough.why", "a note"),
        ({"system": "hex-hexside"}, "system", "a note of the rules"),
        ({"procedures": {"retreat": {"units": 2}}}, "procedures.retreat", "no such combat"),
        ({"pursuit": {"units": 2}}, "pursuit", "no such combat setting"),
    ],
)
def test_notes_unknown_settings_and_the_wrong_shape_are_refused(tables, place, problem):
    found = refusal(tables)
    assert found["params"]["place"] == f"overrides.combat.{place}"
    assert problem in found["message"]


def test_only_a_hex_facing_scenario_may_change_its_combat_defaults():
    for system in ("hex-hexside", "area-locale"):
        found = refusal({"cohesion_test": {"pass_if": "below"}}, system)
        assert found["params"]["place"] == "overrides.combat"
        assert found["params"]["problem"] == {"key": "problem.combat_only", "params": {}}
        assert "only a hex-facing scenario" in found["message"]


def test_the_refusals_have_words_in_every_language():
    for lang, words in WORDS.items():
        for key in ("problem.combat_fact", "problem.combat_fixed"):
            assert words.get(key), (lang, key)


# -- the editor's catalog and the rules reference ---------------------------------------------


def test_the_catalog_lists_the_defaults_a_scenario_may_change_with_their_choices():
    found = {tuple(e["path"]): e for e in editor.tables("hex-facing") if e["table"] == "combat"}
    assert list(found) == [("combat", *p) for p in hf_tables.open_settings()]
    pass_if = found[("combat", "cohesion_test", "pass_if")]
    assert pass_if["default"] == "at_most" and pass_if["choices"] == ["at_most", "below"]
    assert pass_if["label"]["key"] == "ref.hf_setting.cohesion_test_pass_if"
    reaction = found[("combat", "procedures", "countercharge", "reaction")]
    assert reaction["kind"] == "bool" and reaction["default"] is True and "choices" not in reaction
    advance = found[("combat", "procedures", "breakthrough", "advance")]
    assert advance["default"] == "may" and advance["choices"] == ["may", "must"]
    units = found[("combat", "procedures", "pursuit", "units")]
    assert units["kind"] == "int" and units["default"] == 1
    by = found[("combat", "procedures", "countercharge", "by")]
    assert by["kind"] == "list" and by["default"] == ["cavalry"] and "leader" in by["choices"]
    assert found[("combat", "disorder_again", "value")]["choices"] == ["rout", "disordered"]
    held = {("combat", *leaf(t).split(".")) for t in HELD + FACTS}
    assert not held & set(found) and not any("die" in p or "why" in p for p in found)
    raw = hf_tables.raw_tables()
    for path, entry in found.items():
        here = raw
        for key in path[1:]:
            here = here[key]
        assert entry["default"] == here, path
    assert not [e for e in editor.tables("hex-hexside") if e["table"] == "combat"]


def test_every_choice_of_the_catalog_has_words_in_every_language():
    for entry in (e for e in editor.tables("hex-facing") if e["table"] == "combat"):
        for choice in entry.get("choices", []):
            if entry["path"][-1] == "by":
                continue  # unit types: the editor says them by their own words
            key = f"{entry['label']['key']}_{choice}"
            assert all(key in words for words in WORDS.values()), key


def test_the_reference_shows_the_scenarios_combat_defaults_as_changed():
    sc = load_builtin("demo-valmont")
    data = {
        **sc.data,
        "overrides": {
            **sc.data.get("overrides", {}),
            "combat": {
                "cohesion_test": {"pass_if": "below"},
                "procedures": {
                    "countercharge": {"reaction": False},
                    "breakthrough": {"advance": "must", "units": 2},
                },
            },
        },
    }
    changed = parse_scenario(data)
    ref = RULES.reference(changed, None)
    settings = rows(ref, "combat-settings")
    row = settings["setting-cohesion_test_pass_if"]
    assert row["cells"]["value"]["key"] == "ref.setting.below"
    assert row["flags"] == ["default", "override"]
    row = settings["setting-procedures_countercharge_reaction"]
    assert row["cells"]["value"]["key"] == "ref.no" and "override" in row["flags"]
    row = settings["setting-procedures_breakthrough_advance"]
    assert row["cells"]["value"]["key"] == "ref.setting.must" and "override" in row["flags"]
    assert settings["setting-procedures_breakthrough_units"]["cells"]["value"] == 2
    assert settings["setting-disorder_again"]["flags"] == ["default"]  # not changed
    procedures = rows(ref, "procedures")
    for name in ("countercharge", "breakthrough"):
        assert procedures[f"procedure-{name}"]["flags"] == ["default", "override"]
        assert procedures[f"procedure-{name}"]["cells"]["what"]["key"] == "ref.hf_procedure_changed"
    assert procedures["procedure-pursuit"]["flags"] == ["default"]
    assert overridden(changed, "combat", "procedures", "breakthrough", "units")
    # The same scenario without them: every row the system's default.
    plain = RULES.reference(sc, None)
    assert all("override" not in r["flags"] for r in rows(plain, "combat-settings").values())
    assert all("override" not in r["flags"] for r in rows(plain, "procedures").values())


def test_the_reference_words_every_setting_it_shows():
    def keys(value):
        if isinstance(value, dict):
            if isinstance(value.get("key"), str):
                yield value["key"]
            for inner in value.values():
                yield from keys(inner)
        elif isinstance(value, list):
            for inner in value:
                yield from keys(inner)

    changed = own(
        load_builtin("demo-valmont"),
        procedures={
            "countercharge": {"against": [], "states": ["good", "disordered"], "facing": "any"},
            "pursuit": {"failed": ["rout"]},
        },
    )
    found = set(keys(rows(RULES.reference(changed, None), "combat-settings")))
    assert {"ref.setting.none", "ref.hf_setting.procedures_countercharge_facing_any"} <= found
    for key in found:
        assert all(key in words for words in WORDS.values()), key


def test_a_draft_with_combat_defaults_checks_and_keeps_them():
    data = {
        **template("hex-facing"),
        "overrides": {"combat": {"readings": {"square": {"value": "all"}}}},
    }
    assert check(data)["ok"]
    sc = parse_scenario(json.loads(json.dumps(data)))
    assert hf_tables.tables_for(sc).settings["readings.square"] == "all"


def test_the_scenario_format_lists_every_default_a_scenario_may_change():
    doc = (Path(__file__).resolve().parents[2] / "docs" / "scenario-format.md").read_text()
    for path in hf_tables.open_settings():
        assert f"`{'.'.join(path)}`" in doc, path
