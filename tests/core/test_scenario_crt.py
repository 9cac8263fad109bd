"""A hex-hexside scenario's own combat results table (``overrides.crt``, docs/scenario-format.md).

The table is the one ``check_crt`` takes; the scenario is refused at load with the place named
when it is malformed or over the limits; a new game of the scenario plays with it unless a
table is chosen at New game; the view, the previews, the log and the rules reference say it is
the scenario's own; a save replays with it; other systems refuse it; the editor's catalog offers
it with the stand-in as its default.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from muster import editor
from muster.api import Session
from muster.errors import InvalidActionError, ScenarioError
from muster.game import Game
from muster.limits import MAX_CRT_CHARS, MAX_CRT_COLUMNS
from muster.scenario import SCENARIO_DIR, parse_scenario
from muster.systems.hex_hexside.rules import RULES
from muster.systems.hex_hexside.tables import raw_tables

STAND_IN = raw_tables()["crt"]


def own_crt(cell: list[str], name: str | None = "Printed CRT") -> dict[str, Any]:
    """The stand-in's shape, every cell ``cell``, said to be the owner's."""
    table = copy.deepcopy(STAND_IN)
    table.pop("why")
    table["stand_in"] = False
    if name is not None:
        table["name"] = name
    for row in table["rows"]:
        row["cells"] = {k: list(cell) for k in row["cells"]}
    return table


def U(uid: str, at: str, side: str = "prussia", strength: int = 4) -> dict[str, Any]:
    ratings = {"strength": strength, "morale": 4, "movement": 4}
    return {"id": uid, "side": side, "type": "infantry", "name": uid, "hex": at, "steps": 2,
            "ratings": ratings}  # fmt: skip


NONE = object()  # no table in the scenario


def duel_data(crt: Any = NONE, **extra: Any) -> dict[str, Any]:
    """Two units face to face (0303 attacks 0403, 4 against 4: column 1:1, no DRM)."""
    data = {
        "format": "muster-scenario/1",
        "id": "crt-duel",
        "system": "hex-hexside",
        "title": "A duel",
        "map": {"orientation": "flat", "stagger": "even", "columns": 6, "rows": 6},
        "sides": [{"id": "prussia", "name": "P"}, {"id": "austria", "name": "A"}],
        "units": [U("a", "0303"), U("d", "0403", side="austria")],
        **extra,
    }
    if crt is not NONE:
        data["overrides"] = {"crt": crt}
    return data


def to_attack(g: Game) -> None:
    """The phasing side's combat phase, the attack on 0403 designated and confirmed."""
    while g.state["phase"] != "combat":
        g.apply({"type": "end_phase"})
    g.apply({"type": "attack", "target": "0403"})
    g.apply({"type": "confirm"})


def fight(data: dict[str, Any], roll: int, options: Any = None) -> Game:
    g = Game.start(parse_scenario(data), RULES, 7, options)
    to_attack(g)
    g.apply({"type": "roll", "value": roll})
    return g


def result_line(g: Game) -> dict[str, Any]:
    return [e for e in g.log if e["key"].startswith("log.hh_result")][-1]


def demo(name: str) -> dict[str, Any]:
    return json.loads((SCENARIO_DIR / f"{name}.json").read_text(encoding="utf-8"))


# -- a new game plays with the scenario's table -------------------------------------------------


def test_a_new_game_plays_with_the_scenarios_table_and_says_so():
    # 1:1, roll 3: the stand-in reads no result; the scenario's table reads D1 everywhere.
    stand_in = fight(duel_data(), 3)
    assert stand_in.state["units"]["d"]["lost"] == 0
    assert result_line(stand_in)["params"]["table"] == "stand_in"
    g = fight(duel_data(own_crt(["D1"])), 3)
    assert g.state["units"]["d"]["lost"] == 1
    crt = g.state["crt"]
    assert (crt["name"], crt["stand_in"], crt["source"]) == ("Printed CRT", False, "scenario")
    line = result_line(g)
    assert line["key"] == "log.hh_result_own" and line["params"]["table"] == "scenario"
    assert line["params"]["own_codes"] == "D1"


def test_a_table_chosen_at_new_game_wins_over_the_scenarios():
    g = fight(duel_data(own_crt(["D1"])), 3, options={"crt": own_crt(["A1"], name="Mine")})
    assert g.state["units"]["d"]["lost"] == 0 and g.state["units"]["a"]["lost"] == 1
    assert g.state["crt"] == {"key": g.state["crt"]["key"], "name": "Mine", "stand_in": False}
    assert result_line(g)["params"]["table"] == "own"


def test_a_scenario_table_without_a_name_is_the_scenarios_not_a_hash():
    g = Game.start(parse_scenario(duel_data(own_crt(["D1"], name=None))), RULES, 7)
    assert g.state["crt"]["name"] is None and g.state["crt"]["source"] == "scenario"


def test_the_stand_in_written_into_a_scenario_is_still_said_to_be_the_stand_in():
    g = Game.start(parse_scenario(duel_data(copy.deepcopy(STAND_IN))), RULES, 7)
    assert g.state["crt"]["stand_in"] is True and g.state["crt"]["source"] == "scenario"


# -- the view, the preview, the reference, a save ------------------------------------------------


def session_with(data: dict[str, Any]) -> Session:
    s = Session()
    answer = s.call("load_scenario", {"scenario": data})
    assert answer["ok"], answer
    return s


def test_the_view_and_the_fight_preview_read_the_scenarios_table():
    outcomes = {}
    for label, crt in (("stand-in", NONE), ("scenario", own_crt(["D1"]))):
        s = session_with(duel_data(crt))
        view = s.call("new_game", {"seed": 5})["result"]
        assert view["crt"].get("source") == (None if crt is NONE else "scenario")
        while view["state"]["phase"] != "combat":
            view = s.call("act", {"action": {"type": "end_phase"}})["result"]
        s.call("act", {"action": {"type": "attack", "target": "0403"}})
        preview = s.call("preview", {"action": {"type": "confirm"}})["result"]
        assert preview["odds"]["column"] == "1:1"
        outcomes[label] = preview
    own = outcomes["scenario"]
    assert own["crt"]["source"] == "scenario" and own["crt"]["stand_in"] is False
    # Every face reads D1: one outcome, certain, worded with the table's own codes.
    assert len(own["outcomes"]) == 1 and own["outcomes"][0]["p"] == 1.0
    assert own["outcomes"][0]["codes"] == ["D1"]
    assert len(outcomes["stand-in"]["outcomes"]) > 1
    assert outcomes["stand-in"]["crt"]["stand_in"] is True


def test_the_rules_reference_shows_the_scenarios_table_before_and_during_a_game():
    s = session_with(duel_data(own_crt(["A1"])))
    for when in ("before", "during"):
        if when == "during":
            s.call("new_game", {"seed": 1})
        ref = s.call("rules_reference", {})["result"]
        crt = next(x for x in ref["sections"] if x["id"] == "crt")
        cells = [v for r in crt["rows"] for k, v in r["cells"].items() if k != "roll"]
        assert {c["params"]["own_codes"] for c in cells} == {"A1"}, when
        notes = [n["text"]["key"] for n in crt["intro"]]
        assert "ref.hh_crt_scenario" in notes and "ui.crt_stand_in" not in notes, when


def test_a_save_replays_with_the_scenarios_table():
    s = session_with(duel_data(own_crt(["D1"])))
    view = s.call("new_game", {"seed": 5})["result"]
    while view["state"]["phase"] != "combat":
        view = s.call("act", {"action": {"type": "end_phase"}})["result"]
    for action in ({"type": "attack", "target": "0403"}, {"type": "confirm"}):
        view = s.call("act", {"action": action})["result"]
    view = s.call("act", {"action": {"type": "roll"}})["result"]
    assert view["state"]["units"]["d"]["lost"] == 1  # any roll: D1
    save = s.call("save", {})["result"]
    assert save["options"] == {} and save["scenario"]["overrides"]["crt"]["name"] == "Printed CRT"
    loaded = Session().call("load_save", {"save": json.loads(json.dumps(save))})
    assert loaded["ok"], loaded
    again = loaded["result"]["view"]
    assert again["crt"] == view["crt"] and again["crt"]["source"] == "scenario"
    assert again["state"]["units"]["d"]["lost"] == 1


# -- refused with the place named ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "place"),
    [
        (
            lambda t: t["rows"][2]["cells"].update({"1:1": ["XX"]}),
            "overrides.crt.rows[2].cells.1:1",
        ),
        (lambda t: t["rows"][2]["cells"].pop("1:1"), "overrides.crt.rows[2].cells"),
        (lambda t: t["rows"].pop(), "overrides.crt.rows"),
        (lambda t: t["rows"][0].update(roll=9), "overrides.crt.rows[0].roll"),
        (lambda t: t["columns"][1].update(defender=9), "overrides.crt.columns[1]"),
        (lambda t: t["columns"].clear(), "overrides.crt.columns"),
        (lambda t: t["codes"]["D1"].update(side="nobody"), "overrides.crt.codes.D1.side"),
        (lambda t: t["codes"]["D1"].update(steps=-1), "overrides.crt.codes.D1.steps"),
        (lambda t: t.update(stand_in="no"), "overrides.crt.stand_in"),
        (lambda t: t.pop("roll_limits"), "overrides.crt.roll_limits.value"),
    ],
)
def test_a_malformed_scenario_table_is_refused_naming_the_place(change, place):
    table = own_crt(["D1"])
    change(table)
    with pytest.raises(ScenarioError) as found:
        parse_scenario(duel_data(table))
    assert found.value.params["place"] == place
    # The editor's check points at the same place, under overrides.
    answer = Session().call("scenario_check", {"scenario": duel_data(table)})["result"]
    assert answer["ok"] is False and answer["problem"]["params"]["place"] == place
    path = answer["problem"]["place"]["path"]
    assert answer["problem"]["place"]["kind"] == "overrides" and path[0] == "crt"


def test_a_cell_with_an_unknown_code_points_at_the_cell():
    table = own_crt(["D1"])
    table["rows"][2]["cells"]["1:1"] = ["XX"]
    answer = Session().call("scenario_check", {"scenario": duel_data(table)})["result"]
    assert answer["problem"]["place"] == {
        "kind": "overrides",
        "path": ["crt", "rows", 2, "cells", "1:1"],
    }


@pytest.mark.parametrize("value", ["a table", [1], None, 3])
def test_a_scenario_table_that_is_no_object_is_refused(value):
    with pytest.raises(ScenarioError, match="overrides.crt: expected a JSON object"):
        parse_scenario(duel_data(value))


def test_a_scenario_table_is_held_to_the_limits_of_an_owners_table():
    long = own_crt(["D1"])
    long["notes"] = ["x" * 1000] * (MAX_CRT_CHARS // 1000)
    with pytest.raises(InvalidActionError) as found:
        parse_scenario(duel_data(long))
    assert found.value.key == "error.too_large" and found.value.params["place"] == "overrides.crt"
    wide = own_crt(["D1"])
    wide["codes"] = {f"c{i}": {"side": "both", "steps": 1} for i in range(MAX_CRT_COLUMNS + 1)}
    with pytest.raises(InvalidActionError) as found:
        parse_scenario(duel_data(wide))
    assert found.value.params["place"] == "overrides.crt.codes"


def test_the_same_table_passes_check_crt_and_the_scenario():
    table = own_crt(["D1", "Dr"])
    info = Session().call("check_crt", {"crt": table})["result"]
    assert info["name"] == "Printed CRT" and info["stand_in"] is False
    parse_scenario(duel_data(table))


@pytest.mark.parametrize("name", ["demo-valmont", "demo-fontanella"])
def test_other_systems_refuse_a_combat_results_table(name):
    data = demo(name)
    data["overrides"] = {**data.get("overrides", {}), "crt": own_crt(["D1"])}
    with pytest.raises(ScenarioError) as found:
        parse_scenario(data)
    assert found.value.params["place"] == "overrides.crt"
    assert "only a hex-hexside scenario" in str(found.value)


# -- the editor's catalog -----------------------------------------------------------------------


def test_the_editor_offers_the_table_with_the_stand_in_as_its_default():
    entries = [e for e in editor.catalog("hex-hexside")["tables"] if e["table"] == "crt"]
    assert len(entries) == 1
    entry = entries[0]
    assert entry["path"] == ["crt"] and entry["kind"] == "crt"
    assert entry["default"] == STAND_IN and entry["default"]["stand_in"] is True
    assert entry["label"] == {"key": "editor.table.crt", "params": {}}
    for system in ("hex-facing", "area-locale"):
        assert not [e for e in editor.catalog(system)["tables"] if e["kind"] == "crt"]
    # What the editor writes at the entry's path loads.
    written = editor.override_at(entry["path"], own_crt(["EX"]))
    assert parse_scenario(duel_data(**{"overrides": written})).data["overrides"]["crt"]


# -- the table travels with the game, not in a module ---------------------------------------------


def test_the_table_in_play_is_the_games_not_a_modules():
    from muster.errors import RulesError
    from muster.systems.hex_hexside import combat
    from muster.systems.hex_hexside.tables import HexsideTables

    mine = own_crt(["A1"], name="Mine")
    g = fight(duel_data(), 3, options={"crt": mine})
    key = g.state["crt"]["key"]
    # The game's scenario holds the tables its options gave; no module keeps a registry.
    assert combat.tables_of(g.scenario, g.state).crt[3]["1:1"] == ("A1",)
    assert not [
        name
        for name, value in vars(combat).items()
        if isinstance(value, dict) and any(isinstance(v, HexsideTables) for v in value.values())
    ]
    # Another copy of the same scenario, that no game with this table started on, does not know
    # it: the table comes from the game's options, not from somewhere shared.
    other = parse_scenario(duel_data())
    with pytest.raises(RulesError) as found:
        combat.tables_of(other, g.state)
    assert found.value.key == "error.crt_refused" and key in str(found.value)
    # A new game on it with the same options brings the table along.
    again = Game.start(other, RULES, 7, {"crt": mine})
    assert again.state["crt"]["key"] == key
    assert combat.tables_of(other, again.state).crt[3]["1:1"] == ("A1",)


def test_a_save_with_a_table_chosen_at_new_game_replays_with_it():
    s = session_with(duel_data())
    mine = own_crt(["D1"], name="Mine")
    view = s.call("new_game", {"seed": 5, "options": {"crt": mine}})["result"]
    while view["state"]["phase"] != "combat":
        view = s.call("act", {"action": {"type": "end_phase"}})["result"]
    for action in ({"type": "attack", "target": "0403"}, {"type": "confirm"}, {"type": "roll"}):
        view = s.call("act", {"action": action})["result"]
    assert view["state"]["units"]["d"]["lost"] == 1  # any roll: D1
    save = json.loads(json.dumps(s.call("save", {})["result"]))
    assert save["options"]["crt"]["name"] == "Mine" and "crt" not in save["scenario"].get(
        "overrides", {}
    )
    loaded = Session().call("load_save", {"save": save})
    assert loaded["ok"], loaded
    again = loaded["result"]["view"]
    assert again["crt"]["name"] == "Mine" and again["state"]["units"]["d"]["lost"] == 1
