"""The rules reference (``rules_reference``): for each system, every chart the rules read, cell
by cell against the loaded tables; the aid's defaults and stand-ins marked as the data files
mark them; a scenario's overrides shown as overridden with their new value; every word in all
four languages; every modifier line of a preview naming a row that exists; bad parameters
refused with nothing changed."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from test_words import Check

from muster import play
from muster.api import Session
from muster.game import state_hash
from muster.reference import CONDITION_KEYS, row_ids
from muster.scenario import load_builtin
from muster.systems import get as system_of
from muster.systems.area_locale import position as P
from muster.systems.area_locale.assault import ASSAULT
from muster.systems.hex_facing import tables as hf_tables
from muster.systems.hex_hexside import tables as T
from muster.terrain import load_chart

# The installed core (in CPython the source tree, in Pyodide the wheel).
CORE = Path(T.__file__).resolve().parent
DEMOS = {"hex-facing": "demo-valmont", "hex-hexside": "demo-hohenbrueck"}
DEMOS["area-locale"] = "demo-fontanella"


def session(demo: str, scenario: dict[str, Any] | None = None) -> Session:
    s = Session()
    params = {"scenario": scenario} if scenario is not None else {"id": demo}
    answer = s.call("load_scenario", params)
    assert answer["ok"], answer
    return s


def reference(s: Session) -> dict[str, Any]:
    answer = s.call("rules_reference", {})
    assert answer["ok"], answer
    return answer["result"]


def sections(ref: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["id"]: s for s in ref["sections"]}


def rows(ref: dict[str, Any], section: str) -> dict[str, dict[str, Any]]:
    return {r["id"]: r for r in sections(ref)[section]["rows"]}


def key(x: Any) -> str | None:
    return x["key"] if isinstance(x, dict) else None


def names_of(head: dict[str, Any]) -> list[str]:
    """The keys of the terrain names a row's head words, in order."""
    labels = head["params"]["names"] if head["key"] == "ref.names" else [head]
    return [lab["key"] for lab in labels]


def name_keys(r: Any) -> list[str]:
    """The keys that word a chart row's names (as the movement breakdown and the map do)."""
    if r.kind == "hex":
        return [f"terrain.{n}" for n in r.names]
    if r.kind == "condition":
        return [CONDITION_KEYS[n] for n in r.names]
    group = "connection." if r.kind == "connection" and r.id in ("road", "trail") else "feature."
    return [group + n for n in r.names]


def check_cell(shown: Any, cell: Any) -> None:
    """A cell of the reference says what the chart's cell says."""
    if cell.attacking_from is not None:
        assert shown["key"] == "ref.cell.into_from"
        check_cell(_unwrap(shown["params"]["first"]), _base(cell))
        check_cell(_unwrap(shown["params"]["second"]), cell.attacking_from)
    elif cell.prohibited:
        assert key(shown) == "ref.cell.prohibited"
    elif cell.no_effect:
        assert key(shown) == "ref.cell.no_effect"
    elif cell.other_terrain:
        assert key(shown) == "ref.cell.other_terrain"
    elif cell.by_unit:
        items = shown["params"]["items"]
        got = {i["params"]["unit_type"]: i["params"]["value"] for i in items}
        assert got == dict(cell.by_unit)
    elif cell.value is not None:
        assert shown == cell.value
    else:
        assert key(shown) == "ref.cell.see_note"


def _unwrap(x: Any) -> Any:
    return x["params"]["value"] if key(x) == "ref.number" else x


def _base(cell: Any) -> Any:
    """The "into" part of a cell with into/from values, as a cell of its own."""
    from dataclasses import replace

    return replace(cell, attacking_from=None)


def check_terrain(ref: dict[str, Any], system: str, chart: Any = None) -> None:
    chart = chart or load_chart(system)
    found = rows(ref, "terrain")
    assert len(found) == len(chart.rows)
    for r in chart.rows:
        shown = found[f"terrain-{r.id}"]
        assert names_of(shown["cells"]["terrain"]) == name_keys(r), r.id
        for column in chart.columns:
            check_cell(shown["cells"][column.key], r[column.key])


# -- hex-facing -----------------------------------------------------------------------------------


def test_hex_facing_lists_every_terrain_modifier_and_table_as_the_rules_read_them():
    ref = reference(session(DEMOS["hex-facing"]))
    assert ref["system"] == "hex-facing"
    check_terrain(ref, "hex-facing")
    t = hf_tables.load_tables()
    for table, drm in (("melee", t.melee), ("fire", t.fire)):
        found = rows(ref, f"{table}-modifiers")
        assert [r.split("-", 1)[1] for r in found] == list(drm)
        for row in drm.values():
            value = found[f"{table}-{row.id}"]["cells"]["value"]
            if isinstance(row.value, str):
                assert value["key"] == f"ref.hf_value.{row.value}"
            elif row.params.get("per_hex"):
                assert value["params"]["value"] == row.value
            else:
                assert value == row.value
    ratios = list(rows(ref, "force-ratio").values())
    assert [r["cells"]["drm"] for r in ratios] == [r.drm for r in t.force_ratio]
    assert [r["cells"]["ratio"]["params"]["ratio"] for r in ratios] == [
        r.ratio for r in t.force_ratio
    ]
    fire = list(rows(ref, "fire-table").values())
    assert len(fire) == len(t.fire_table)
    for shown, r in zip(fire, t.fire_table, strict=True):
        assert _band(shown["cells"]["total"]) == (r.low, r.high)
        codes = shown["cells"]["result"]["params"]["codes"]
        assert codes == (list(r.cells["result"].codes) or ["none"])
    melee = list(rows(ref, "melee-table").values())
    for shown, r in zip(melee, t.melee_table, strict=True):
        assert _band(shown["cells"]["roll"]) == (r.low, r.high)
        for side in ("defender", "attacker"):
            cell, params = r.cells[side], shown["cells"][side]["params"]
            assert params["codes"] == (list(cell.codes) or ["none"])
            if cell.cavalry is not None:
                assert params["cavalry_codes"] == (list(cell.cavalry) or ["none"])


def _band(label: Any) -> tuple[Any, Any]:
    """The (low, high) totals a results row's head says."""
    if not isinstance(label, dict):
        return label, label
    p = label["params"]
    return {
        "ref.band.at_least": lambda: (p["value"], None),
        "ref.band.at_most": lambda: (None, p["value"]),
        "ref.band.range": lambda: (p["low"], p["high"]),
    }[label["key"]]()


def test_hex_facing_marks_the_defaults_the_data_marks_and_lists_the_sequence_in_order():
    ref = reference(session(DEMOS["hex-facing"]))
    raw = hf_tables.raw_tables()
    intro = sections(ref)["force-ratio"]["intro"]
    assert intro[0]["flags"] == (["default"] if raw["force_ratio"]["rounding"]["default"] else [])
    for name, row in rows(ref, "procedures").items():
        assert row["flags"] == ["default"], name  # rules 8.7, 9.4, 9.5 are not in the aid
    settings = rows(ref, "combat-settings")
    assert settings["setting-die"]["flags"] == ["default"]
    assert settings["setting-cohesion_test_pass_if"]["flags"] == ["default"]
    # The aid's own tables carry no mark.
    for section in ("melee-modifiers", "fire-modifiers", "force-ratio", "fire-table"):
        assert all(r["flags"] == [] for r in sections(ref)[section]["rows"]), section
    # Rule 4.3.1 is the aid's: not a default; the stacking limit is one.
    movement = rows(ref, "movement")
    assert movement["movement-road-enemy"]["flags"] == []
    assert movement["movement-stacking"]["flags"] == ["default"]
    # The sequence: the turn's phases, with a formation's steps under the activation.
    seq = play.settings(load_builtin(DEMOS["hex-facing"]), "hex_facing")
    expected = []
    for phase in (p["phase"] for p in seq["turn"]):
        expected.append(f"sequence-{phase}")
        if phase == "activation":
            expected += [f"sequence-step-{s}" for s in seq["formation_steps"]]
    shown = list(rows(ref, "sequence"))
    assert shown == expected
    assert all(r["flags"] == ["default"] for r in rows(ref, "sequence").values())


def test_hex_facing_overrides_show_as_overridden_with_the_new_value():
    data = copy.deepcopy(load_builtin(DEMOS["hex-facing"]).data)
    data["overrides"] = {
        "terrain": {"woods": {"fire": -3, "cav": 4}},
        "movement": {"stacking": {"max_units": 3}},
        "sequence": {"formation_steps": ["move", "fire", "combat"]},
    }
    s = session("", data)
    ref = reference(s)
    woods = rows(ref, "terrain")["terrain-woods"]
    assert woods["cells"]["fire"] == -3 and woods["cells"]["cav"] == 4
    assert "override" in woods["cell_flags"]["fire"] and "override" in woods["cell_flags"]["cav"]
    assert "inf" not in woods["cell_flags"]
    assert "override" not in rows(ref, "terrain")["terrain-clear"]["cell_flags"].get("fire", [])
    stacking = rows(ref, "movement")["movement-stacking"]
    assert stacking["cells"]["value"] == 3 and "override" in stacking["flags"]
    steps = [r for r in rows(ref, "sequence") if r.startswith("sequence-step-")]
    assert steps == ["sequence-step-move", "sequence-step-fire", "sequence-step-combat"]
    assert "override" in rows(ref, "sequence")["sequence-step-move"]["flags"]
    # The fire rules read the same overridden chart as the reference shows.
    assert hf_tables.tables_for(s.scenario).chart.row("woods")["fire"].value == -3


# -- hex-hexside ----------------------------------------------------------------------------------


def test_hex_hexside_lists_the_chart_the_crt_and_every_modifier_as_the_rules_read_them():
    ref = reference(session(DEMOS["hex-hexside"]))
    check_terrain(ref, "hex-hexside")
    chart = load_chart("hex-hexside")
    zoc = rows(ref, "zoc-exit")
    assert [z["cells"]["mp"] for z in zoc.values()] == [z.mp for z in chart.leaving_enemy_zoc]
    t = T.load_tables()
    crt = rows(ref, "crt")
    assert [r["cells"]["roll"] for r in crt.values()] == list(t.die.faces)
    columns = [c["label"]["params"]["column"] for c in sections(ref)["crt"]["columns"][1:]]
    assert columns == [c[0] for c in t.columns]
    for face in t.die.faces:
        cells = crt[f"crt-roll-{face}"]["cells"]
        for col in sections(ref)["crt"]["columns"][1:]:
            shown = cells[col["id"]]
            codes = t.crt[face][col["label"]["params"]["column"]]
            if codes:
                assert shown["params"]["own_codes"].split() == list(codes)
            else:
                assert shown["key"] == "ref.cell.no_effect"
    codes = rows(ref, "crt-codes")
    assert len(codes) == len(t.codes)
    for code, entry in t.codes.items():
        shown = codes[f"crt-code-{code}"]["cells"]
        assert shown["steps"] == entry["steps"]
        assert shown["side"]["key"] == f"ref.side_role.{entry['side']}"
    rally = rows(ref, "rally")
    assert [r.split("-", 1)[1] for r in rally] == [r.id for r in t.rally]
    for r in t.rally:
        value = rally[f"rally-{r.id}"]["cells"]["value"]
        assert value == r.value if r.value is not None else isinstance(value, dict)
    drm = play.settings(load_builtin(DEMOS["hex-hexside"]), "hex_hexside")["drm"]
    shown = rows(ref, "drm")
    for name in ("disordered_lead", "routed_lead", "leader_with_lead", "winning_combat_marker"):
        assert shown[f"drm-{name}"]["cells"]["value"] == drm[name]
    steps = [r.split("-", 2)[2] for r in rows(ref, "combat-sequence")]
    assert steps == list(T.STEP_IDS)
    deep = rows(ref, "deep-charges")["deep-charge"]["cells"]["need"]
    assert deep["params"]["value"] == t.deep_charge_at_least
    morale = rows(ref, "morale")
    for m, flags in t.morale.items():
        items = morale[f"morale-{m}"]["cells"]["effects"]["params"]["items"]
        assert {i["key"].rsplit(".", 1)[1] for i in items} == set(flags)


def test_hex_hexside_marks_the_stand_in_crt_and_the_defaults():
    ref = reference(session(DEMOS["hex-hexside"]))
    raw = json.loads((CORE / "combat.json").read_text())
    assert raw["crt"]["stand_in"] is True
    assert sections(ref)["crt"]["flags"] == ["standin"]
    assert all(r["flags"] == ["standin"] for r in rows(ref, "crt").values())
    assert any(n["text"]["key"] == "ui.crt_stand_in" for n in sections(ref)["crt"]["intro"])
    # The aid's own charts carry no stand-in mark.
    for section in ("terrain", "zoc-exit", "rally", "combat-sequence", "morale"):
        assert all("standin" not in r["flags"] for r in rows(ref, section).values()), section
    # "Bottom of slope +0/+1" is ambiguous: the reading is a default (the cell says so).
    slope = rows(ref, "terrain")["terrain-slope_bottom"]
    assert slope["cell_flags"]["mp_inf_art_leader"] == ["default"]
    assert "mp_cav" not in slope["cell_flags"]
    # A walled town counts as a town for rally: a default.
    assert rows(ref, "rally")["rally-infantry_in_cover"]["flags"] == ["default"]
    assert rows(ref, "rally")["rally-adjacent_enemy"]["flags"] == []
    assert all(
        r["flags"] == ["default"] for r in rows(ref, "drm").values() if r["id"] != "drm-terrain"
    )
    # The aid has no line-of-sight rules: every value is an engine default.
    assert rows(ref, "terrain")["terrain-woods"]["cell_flags"]["los"] == ["default"]


def test_hex_hexside_reference_shows_the_owner_crt_of_the_game_in_play():
    s = session(DEMOS["hex-hexside"])
    own = T.raw_tables()["crt"]
    own = {**own, "stand_in": False, "name": "printed", "rows": copy.deepcopy(own["rows"])}
    own["rows"][0]["cells"]["1:3"] = ["D2"]
    assert s.call("new_game", {"seed": 3, "options": {"crt": own}})["ok"]
    ref = reference(s)
    assert sections(ref)["crt"]["flags"] == []
    first = rows(ref, "crt")["crt-roll-1"]
    assert first["flags"] == []
    column = next(c["id"] for c in sections(ref)["crt"]["columns"] if c["id"] != "roll")
    assert first["cells"][column]["params"]["own_codes"] == "D2"
    intro = {n["id"]: n for n in sections(ref)["crt"]["intro"]}
    assert intro["crt-own"]["text"]["params"]["name"] == "printed"


def test_hex_hexside_overrides_show_as_overridden_with_the_new_value():
    data = copy.deepcopy(load_builtin(DEMOS["hex-hexside"]).data)
    data["overrides"] = {
        "terrain": {"woods": {"inf": {"value": -2, "applies": "into"}}},
        "sequence": {"drm": {"leader_with_lead": 2}, "turns": 5},
        "los": {"hex_obstacles": {"town": 2}},
    }
    data.pop("turns", None)
    ref = reference(session("", data))
    woods = rows(ref, "terrain")["terrain-woods"]
    assert woods["cells"]["inf"] == -2 and woods["cell_flags"]["inf"] == ["override"]
    leader = rows(ref, "drm")["drm-leader_with_lead"]
    assert leader["cells"]["value"] == 2 and leader["flags"] == ["default", "override"]
    assert rows(ref, "drm")["drm-routed_lead"]["flags"] == ["default"]
    turns = rows(ref, "sequence")["sequence-turns"]
    assert turns["cells"]["what"] == 5 and "override" in turns["flags"]
    town = rows(ref, "terrain")["terrain-town"]
    assert town["cells"]["los"]["params"]["height"] == 2
    assert "override" in town["cell_flags"]["los"]


# -- area-locale ----------------------------------------------------------------------------------


def test_area_locale_lists_commands_approaches_assault_and_sequence_as_the_rules_read_them():
    s = session(DEMOS["area-locale"])
    ref = reference(s)
    settings = P.settings(s.scenario)
    commands = rows(ref, "commands")
    assert commands["command-per-turn"]["cells"]["cost"] == settings["commands"]["per_turn"]
    for name, cost in P.COMMANDS.items():
        assert commands[f"command-{name}"]["cells"]["cost"] == cost
    for kind in ("primary", "secondary"):
        cost = commands[f"command-road-{kind}"]["cells"]["cost"]
        assert cost == settings["road"][f"{kind}_cost"]
    kinds = rows(ref, "approach-kinds")
    for width, n in system_of("area-locale").leading.items():
        assert kinds[f"width-{width}"]["cells"]["effect"]["params"]["n"] == n
    approaches = rows(ref, "approaches")
    assert len(approaches) == len(s.scenario.approaches)
    for a in s.scenario.approaches.values():
        shown = approaches[f"approach-{a.locale}-{a.facing}"]["cells"]
        assert shown["effect"] == a.effect
        assert shown["width"]["key"] == f"ref.al_width.{a.width}"
        assert shown["approach"]["params"]["approach"] == a.id
    results = rows(ref, "assault-results")
    win = results["assault-result-attacker"]["cells"]
    assert win["result"]["params"]["value"] == ASSAULT["wins_at"]
    assert win["winner_loss"] == ASSAULT["winner_loss"]
    assert win["loser_loss"]["params"]["n"] == ASSAULT["loser_loss"]
    phases = [r for r in rows(ref, "sequence") if r != "sequence-turns"]
    assert phases == [f"sequence-{p['phase']}" for p in settings["player_turn"]]
    assert rows(ref, "sequence")["sequence-turns"]["cells"]["what"] == settings["turns"]


def test_area_locale_marks_the_notes_own_values_apart_from_the_defaults():
    ref = reference(session(DEMOS["area-locale"]))
    data = P.sequence_data()
    commands = rows(ref, "commands")
    # The notes give road movement and the order of the turn; 3 commands a turn is a default.
    assert "road" in data["aid"] and "player_turn" in data["aid"]
    assert commands["command-road-primary"]["flags"] == []
    assert commands["command-per-turn"]["flags"] == ["default"]
    assert rows(ref, "sequence")["sequence-assault"]["flags"] == []
    assert "default" in rows(ref, "retreats")["retreat-cannot"]["flags"]
    assert all(r["flags"] == ["default"] for r in rows(ref, "settings").values())


def test_area_locale_overrides_show_as_overridden_with_the_new_value():
    data = copy.deepcopy(load_builtin(DEMOS["area-locale"]).data)
    data["overrides"] = {"sequence": {"commands": {"per_turn": 4}}}
    ref = reference(session("", data))
    row = rows(ref, "commands")["command-per-turn"]
    assert row["cells"]["cost"] == 4 and row["flags"] == ["default", "override"]


# -- words, links and trust -----------------------------------------------------------------------


@pytest.mark.parametrize("system", sorted(DEMOS))
def test_every_word_of_the_reference_is_in_every_language(system):
    s = session(DEMOS[system])
    words = s.call("load_scenario", {"id": DEMOS[system]})["result"]["words"]
    check = Check(s, words)  # test_words' checker: keys in four languages, kinds of params
    ref = reference(s)
    for section in ref["sections"]:
        where = f"{system} {section['id']}"
        check.label(section["title"], where)
        if section["rule"] is not None:
            check.rule("section", section["rule"], where)
        for column in section["columns"]:
            check.label(column["label"], where)
        for note in section["intro"] + section["notes"]:
            check.label(note["text"], f"{where} {note['id']}")
        for row in section["rows"]:
            for cell in row["cells"].values():
                if isinstance(cell, dict):
                    check.label(cell, f"{where} {row['id']}")
                else:
                    assert cell is None or isinstance(cell, int | float), (where, row["id"])
    assert check.problems == {}, check.problems


def test_anchors_are_unique_and_every_cell_has_its_column():
    for demo in DEMOS.values():
        ref = reference(session(demo))
        seen: list[str] = []
        for section in ref["sections"]:
            seen.append(section["id"])
            ids = [c["id"] for c in section["columns"]]
            for row in section["rows"]:
                seen.append(row["id"])
                assert set(row["cells"]) <= set(ids), (demo, row["id"])
                assert set(row["cell_flags"]) <= set(ids) and set(row["marks"]) <= set(ids)
            seen += [n["id"] for n in section["intro"] + section["notes"]]
        assert len(seen) == len(set(seen)), demo
        assert all(i.replace("-", "").replace("_", "").isalnum() for i in seen), demo


@pytest.mark.parametrize("system", ["hex-facing", "hex-hexside"])
def test_every_preview_line_names_a_row_of_the_reference(system):
    s = session(DEMOS[system])
    ids = row_ids(reference(s))
    seen_keys: set[str] = set()
    for seed in (5, 6):
        assert s.call("new_game", {"seed": seed})["ok"]
        rng = random.Random(seed)
        game = s.game
        for _ in range(600):
            if game.state.get("result"):
                break
            view = s.call("game_view", {"log": 0})["result"]
            answers = []
            for choice in view["choices"]:
                for item in choice["items"]:
                    if item["preview"] and rng.random() < 0.5:
                        answer = s.call("preview", {"action": item["action"]})
                        if answer["ok"]:
                            answers.append(answer["result"])
            if (view.get("combat") or {}).get("preview"):
                answers.append(view["combat"]["preview"])
            for answer in answers:
                assert answer.get("ref") in ids, answer.get("ref")
                for line in answer["modifiers"]:
                    assert line.get("ref") in ids, line
                    seen_keys.add(line["key"])
            legal = game.legal_actions()
            fights = [a for a in legal if a["type"] in game.rules.previewable]
            pick = rng.choice(fights) if fights and rng.random() < 0.7 else rng.choice(legal)
            assert s.call("act", {"action": pick, "log": 0})["ok"]
    assert len(seen_keys) >= 4, seen_keys  # several kinds of line were met


def test_bad_parameters_are_refused_and_change_nothing():
    fresh = Session()
    refused = fresh.call("rules_reference", {})
    assert refused["error"]["key"] == "error.no_scenario"
    s = session(DEMOS["hex-hexside"])
    assert s.call("new_game", {"seed": 9})["ok"]
    before = (s.scenario, s.game, state_hash(s.game.state), len(s.game.actions))
    for params in ({"x": 1}, {"system": "hex-facing"}, [1], "rules"):
        answer = s.call("rules_reference", params)
        assert not answer["ok"], params
        assert answer["error"]["key"] in ("error.unknown_param", "error.bad_params")
    assert s.call("rules_reference", {"x": 1})["error"]["params"]["name"] == "x"
    after = (s.scenario, s.game, state_hash(s.game.state), len(s.game.actions))
    assert after == before
    # Asking is a query: twice the same answer, and the game as it was.
    assert reference(s) == reference(s)
    assert state_hash(s.game.state) == before[2]
