"""hex-hexside play: the player turn, and the 12 steps of close combat driven action by action.

Maps: flat hexes, even columns half a hex lower; 0303 touches 0202 0203 0302 0304 0402 0403,
0304 touches 0203 0204 0303 0305 0403 0404, 0403 touches 0303 0304 0402 0404 0503 0504.
The stand-in CRT (combat.json) is read by hand in the comments: column, modified roll, cell.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playouts import random_playout

from muster.api import Session
from muster.errors import RulesError
from muster.game import Game
from muster.scenario import load_builtin, parse_scenario
from muster.systems.hex_hexside.rules import RULES
from muster.systems.hex_hexside.tables import raw_tables

RULES_CRT = raw_tables()["crt"]  # the shipped stand-in, read through the package


def U(uid: str, at: str, side: str = "prussia", kind: str = "infantry", steps: int = 2, **r: Any):
    """A unit: strength, morale, movement default 4, 4, 4; other ratings as keywords."""
    ratings = {"strength": 4, "morale": 4, "movement": 4, **r}
    if kind == "leader":
        ratings = {"morale_modifier": 1, "movement": 8, **r}
    spec = {"id": uid, "side": side, "type": kind, "name": uid, "hex": at, "ratings": ratings}
    if kind != "leader":
        spec["steps"] = steps
    return spec


def scenario(units, hexsides=(), hexes=None, **extra) -> Any:
    data = {
        "format": "muster-scenario/1",
        "id": "t",
        "system": "hex-hexside",
        "title": "t",
        "map": {
            "orientation": "flat",
            "stagger": "even",
            "columns": 8,
            "rows": 6,
            "hexes": {k: {"terrain": v} for k, v in (hexes or {}).items()},
            "hexsides": list(hexsides),
        },
        "sides": [{"id": "prussia", "name": "P"}, {"id": "austria", "name": "A"}],
        "units": units,
        **extra,
    }
    return parse_scenario(data)


def start(units, **kw) -> Game:
    options = kw.pop("options", None)
    return Game.start(scenario(units, **kw), RULES, 7, options)


def types(g: Game) -> list[str]:
    return sorted({a["type"] for a in g.legal_actions()})


def to_combat(g: Game) -> None:
    """End phases until the phasing side's combat phase."""
    while g.state["phase"] != "combat":
        g.apply({"type": "end_phase"})


def keys(g: Game) -> list[str]:
    return [e["key"] for e in g.log]


# -- the player turn -----------------------------------------------------------------------------


def test_alternate_player_turns_skip_empty_phases_and_end_after_the_last_turn():
    g = start([U("p", "0101"), U("a", "0806", side="austria")], turns=2)
    # Nothing to rally, no artillery: the rally and bombardment phases pass by themselves.
    assert (g.state["side"], g.state["phase"]) == ("prussia", "movement")
    g.apply({"type": "end_phase"})
    assert g.state["phase"] == "combat"
    assert types(g) == ["end_phase"]  # no enemy in reach
    g.apply({"type": "end_phase"})
    assert (g.state["turn"], g.state["side"], g.state["phase"]) == (1, "austria", "movement")
    for _ in range(2):
        g.apply({"type": "end_phase"})
    assert (g.state["turn"], g.state["side"]) == (2, "prussia")
    for _ in range(4):
        g.apply({"type": "end_phase"})
    assert g.state["result"] == {
        "points": {"prussia": 0, "austria": 0},
        "winner": None,
        "broken": None,
    }
    assert g.legal_actions() == []


def test_movement_once_per_unit_and_infantry_changes_formation_instead():
    g = start([U("p", "0101"), U("c", "0201", kind="cavalry", movement=8)])
    moves = [a for a in g.legal_actions() if a["type"] == "move" and a["unit"] == "p"]
    assert {"type": "move", "unit": "p", "to": "0105"} in moves  # 4 clear hexes, 1 MP each
    assert {"type": "move", "unit": "p", "to": "0106"} not in moves
    assert {"type": "formation", "unit": "p", "to": "column"} in g.legal_actions()
    assert not any(a["type"] == "formation" and a["unit"] == "c" for a in g.legal_actions())
    g.apply({"type": "formation", "unit": "p", "to": "column"})
    assert g.state["units"]["p"]["formation"] == "column"
    assert not any(a.get("unit") == "p" for a in g.legal_actions())  # its move is spent


def test_infantry_in_column_crosses_the_mietzel_with_all_its_mp():
    # 1 MP: in line the Mietzel is closed and the way round (0102, then 0201) costs 2.
    mietzel = {"between": ["0101", "0201"], "features": ["mietzel_river"]}
    g = start([U("p", "0101", movement=1), U("q", "0303", movement=1)], hexsides=[mietzel])
    assert {"type": "move", "unit": "p", "to": "0201"} not in g.legal_actions()
    g.apply({"type": "formation", "unit": "p", "to": "column"})
    board = RULES.board(g.scenario, g.state)
    assert board.unit("p").state["formation"] == "column"
    # Its move is spent by the change (default); a unit already in column may cross.
    g.states[-1]["units"]["p"]["moved"] = False
    moves = [a["to"] for a in g.legal_actions() if a["type"] == "move" and a["unit"] == "p"]
    assert "0201" in moves


def test_rally_uses_the_aid_modifiers_and_a_d6_at_most_the_total():
    g = start(
        [U("p", "0303", morale=4), U("l", "0303", kind="leader", morale_modifier=2)],
        hexes={"0303": ["woods"]},
    )
    g.states[-1]["units"]["p"]["status"] = "routed"
    g.states[-1]["phase"] = "rally"
    assert {"type": "rally", "unit": "p"} in g.legal_actions()
    s = Session()
    s.game = g
    s.scenario = g.scenario
    preview = s.call("preview", {"action": {"type": "rally", "unit": "p"}})["result"]
    # morale 4 + leader 2 + no enemy (4+ hexes) 1 + infantry in woods 1 = 8: every face passes.
    assert [(m["key"], m["value"]) for m in preview["modifiers"]] == [
        ("rally.leader", 2),
        ("rally.far_from_enemy", 1),
        ("rally.infantry_in_cover", 1),
    ]
    assert preview["target"] == 8 and preview["outcomes"][0]["p"] == 1.0
    g.apply({"type": "rally", "unit": "p"})
    assert g.state["chance"] == {"die": "d6", "purpose": "rally", "unit": "p", "target": 8}
    g.apply({"type": "roll", "value": 6})
    assert g.state["units"]["p"]["status"] == "disordered"  # routed -> disordered
    assert {"type": "rally", "unit": "p"} not in g.legal_actions()  # once a player turn


def test_rally_fails_above_the_total():
    g = start([U("p", "0303", morale=3), U("a", "0403", side="austria")])
    g.states[-1]["units"]["p"]["status"] = "disordered"
    g.states[-1]["phase"] = "rally"
    g.apply({"type": "rally", "unit": "p"})
    # morale 3 - adjacent enemy 1 = 2
    assert g.state["chance"]["target"] == 2
    g.apply({"type": "roll", "value": 3})
    assert g.state["units"]["p"]["status"] == "disordered"
    assert g.log[-1]["key"] == "log.hh_rally_failed"


# -- the 12 steps ----------------------------------------------------------------------------------


def duel_units(**defender: Any) -> list[dict[str, Any]]:
    return [
        U("a1", "0303", strength=6),
        U("a2", "0304", kind="cavalry", movement=8, shock=2),
        U("d1", "0403", side="austria", strength=3, **defender),
        U("d2", "0404", side="austria", strength=2, morale=5),
    ]


STREAM = {"between": ["0303", "0403"], "features": ["stream"]}


def test_a_full_combat_sequence_step_by_step():
    g = start(duel_units(), hexsides=[STREAM])
    to_combat(g)
    assert types(g) == ["attack", "end_phase"]
    assert {a["target"] for a in g.legal_actions() if a["type"] == "attack"} == {"0403", "0404"}
    # 1 Designate: both units next to 0403 are in; 0404 may be added (a2 touches it).
    g.apply({"type": "attack", "target": "0403"})
    c = g.state["combat"]
    assert (c["attackers"], c["targets"], c["step"]) == (["a1", "a2"], ["0403"], "designate")
    legal = g.legal_actions()
    assert {"type": "toggle_target", "hex": "0404"} in legal
    assert {"type": "toggle_attacker", "unit": "a1"} in legal
    g.apply({"type": "confirm"})
    # 2 No morale 5 defender in 0403; 3 odds 6+4 : 3 = 3.33 -> 3:1; 4 the attacker chooses.
    assert g.state["combat"]["odds"] == {"attack": 10, "defence": 3, "column": "3:1"}
    assert g.state["combat"]["step"] == "lead_attacker"
    assert g.legal_actions() == [{"type": "lead", "unit": "a1"}, {"type": "lead", "unit": "a2"}]
    g.apply({"type": "lead", "unit": "a2"})
    assert g.state["combat"]["lead"] == {"attacker": "a2", "defender": "d1"}  # one defender
    # 5 Two attacking hexes: the attacker chooses the pair that gives the terrain DRM.
    assert g.legal_actions() == [
        {"type": "terrain", "from": "0303", "into": "0403"},
        {"type": "terrain", "from": "0304", "into": "0403"},
    ]
    g.apply({"type": "terrain", "from": "0304", "into": "0403"})
    # clear, no hexside: 0; morale 4 - 4: none; shock of formed cavalry +2.
    assert g.state["chance"] == {"die": "d6", "purpose": "close_combat", "column": "3:1", "drm": 2}
    # 6 die 4 + 2 = 6 on 3:1: D2. 8 two loss points to d1 (2 steps): eliminated.
    g.apply({"type": "roll", "value": 4})
    assert g.state["units"]["d1"]["out"]
    # Army morale (no army_morale in this scenario: its steps, 2 + 2): two steps lost.
    assert g.state["army"]["austria"] == {"points": 2, "level": "demoralized"}
    # 9 advance into the emptied hex (both attackers may; stacking 2).
    assert g.state["combat"]["step"] == "advance"
    assert {"type": "advance", "unit": "a2", "to": "0403"} in g.legal_actions()
    g.apply({"type": "advance", "unit": "a2", "to": "0403"})
    g.apply({"type": "no_advance"})
    # 10 the cavalry that advanced may attack d2 at once.
    assert g.legal_actions() == [
        {"type": "extended_attack", "target": "0404"},
        {"type": "no_extended"},
    ]
    g.apply({"type": "extended_attack", "target": "0404"})
    # 11 unhurt, the defender gone: Winning Combat marker; 12 a2 is Engaged, may charge deep.
    assert g.state["units"]["a2"]["wcm"] == g.state["pturn"]
    assert g.state["units"]["a2"]["engaged"]
    assert g.legal_actions() == [{"type": "deep_charge", "unit": "a2"}, {"type": "end_combat"}]
    g.apply({"type": "deep_charge", "unit": "a2"})
    assert g.state["chance"]["bonus"] == 4
    g.apply({"type": "roll", "value": 6})  # 6 + 4 = 10 < 11
    assert not g.state["units"]["a2"]["must"]
    # The extended attack: a new designation with the cavalry alone.
    c = g.state["combat"]
    assert (c["attackers"], c["targets"], c["extended"]) == (["a2"], ["0404"], True)
    assert {"type": "cancel"} in g.legal_actions()
    g.apply({"type": "confirm"})
    # 2 d2 (morale 5) may retreat before combat: the defender decides.
    view = Session()
    view.game, view.scenario = g, g.scenario
    prompt = view.call("game_view")["result"]["prompt"]
    assert prompt == {
        "key": "prompt.hh_retreat_before",
        "params": {
            "side": "austria",
            "number": 2,
            "step": "retreat_before_combat",
            "targets": ["0404"],
        },
        "side": "austria",
        "why": {"key": "why.hh_retreat_before", "params": {"units": ["d2"]}},
    }
    assert {"type": "stand"} in g.legal_actions()
    g.apply({"type": "stand"})
    # odds 4 : 2 -> 2:1; morale 4 - 5 = -1; marker +1; Engaged cavalry: no shock.
    parts = [e["params"]["reason"]["key"] for e in g.log if e["key"] == "log.hh_modifier"][-3:]
    assert parts == ["drm.morale", "drm.wcm", "drm.no_shock"]
    assert g.state["chance"]["drm"] == 0 and g.state["chance"]["column"] == "2:1"
    # die 1 on 2:1: Ar. a2 (morale 4) is disordered and retreats away from 0404.
    g.apply({"type": "roll", "value": 1})
    assert g.state["units"]["a2"]["wcm"] is None  # used
    assert g.state["units"]["a2"]["status"] == "disordered"
    # From 0403, two hexes from 0404 and out of its zone (0404 touches 0304 0305 0403 0405
    # 0504 0505): 0303 (a1 there), 0402 and 0503; the owner picks.
    options = ["0303", "0402", "0503"]
    assert g.state["decision"] == {"kind": "retreat", "unit": "a2", "options": options}
    g.apply({"type": "retreat", "unit": "a2", "to": "0402"})
    assert g.state["units"]["a2"]["hex"] == "0402"
    assert g.state["combat"] is None and g.state["phase"] == "combat"


def test_designation_toggles_and_a_multi_hex_attack():
    g = start(duel_units(), hexsides=[STREAM])
    to_combat(g)
    g.apply({"type": "attack", "target": "0403"})
    g.apply({"type": "toggle_attacker", "unit": "a1"})
    assert g.state["combat"]["attackers"] == ["a2"]
    assert {"type": "toggle_attacker", "unit": "a2"} in g.legal_actions()
    g.apply({"type": "toggle_attacker", "unit": "a2"})
    assert {"type": "confirm"} not in g.legal_actions()  # no attacker: not a valid attack
    g.apply({"type": "toggle_attacker", "unit": "a2"})
    g.apply({"type": "toggle_target", "hex": "0404"})
    assert g.state["combat"]["targets"] == ["0403", "0404"]
    g.apply({"type": "confirm"})
    # d2 (morale 5) may step back first; it stands.
    g.apply({"type": "stand"})
    assert g.state["combat"]["defenders"] == ["d1", "d2"]
    assert g.state["combat"]["odds"] == {"attack": 4, "defence": 5, "column": "1:2"}
    assert g.state["combat"]["step"] == "lead_defender"  # one attacker; two defenders
    g.apply({"type": "lead", "unit": "d2"})
    assert g.legal_actions() == [
        {"type": "terrain", "from": "0304", "into": "0403"},
        {"type": "terrain", "from": "0304", "into": "0404"},
    ]


def test_a_morale_5_defender_retreats_before_combat_and_the_attacker_advances():
    g = start([U("a", "0303"), U("d", "0403", side="austria", morale=5)])
    to_combat(g)
    g.apply({"type": "attack", "target": "0403"})
    g.apply({"type": "confirm"})
    retreats = [a for a in g.legal_actions() if a["type"] == "retreat_before"]
    # Neighbours of 0403 two hexes from the attacker at 0303 (0304 and 0402 are not farther).
    assert [a["to"] for a in retreats] == ["0404", "0503", "0504"]
    g.apply(retreats[0])
    assert "log.hh_no_defenders" in keys(g)
    assert g.legal_actions() == [
        {"type": "advance", "unit": "a", "to": "0403"},
        {"type": "no_advance"},
    ]
    g.apply({"type": "advance", "unit": "a", "to": "0403"})
    assert g.state["combat"] is None
    assert g.state["units"]["a"]["wcm"] is None  # no combat fought: no marker


def test_leader_loss_check_then_losses_the_owner_chooses_after_the_lead():
    units = [
        U("a1", "0303", strength=1, steps=1),
        U("a2", "0304", strength=1),
        U("a3", "0402", strength=1),
        U("pl", "0303", kind="leader"),
        U("d", "0403", side="austria", strength=9),
    ]
    g = start(units)
    to_combat(g)
    g.apply({"type": "attack", "target": "0403"})
    g.apply({"type": "confirm"})
    assert g.state["combat"]["odds"]["column"] == "1:3"  # 3 : 9
    g.apply({"type": "lead", "unit": "a1"})
    g.apply({"type": "terrain", "from": "0303", "into": "0403"})
    # leader with the lead unit +1: die 1 + 1 = 2 on 1:3: A1 + Ar... and the leader check first.
    drm = g.state["chance"]["drm"]
    assert drm == 1
    g.apply({"type": "roll", "value": 1})  # modified 2 on 1:3: A1 + Ar
    assert g.state["chance"] == {"die": "d6", "purpose": "leader_loss", "unit": "pl"}
    g.apply({"type": "roll", "value": 6})
    assert g.state["units"]["pl"]["out"]
    assert "log.hh_leader_lost" in keys(g)
    # the one loss point goes to the lead unit a1 (1 step): eliminated; then the "r".
    assert g.state["units"]["a1"]["out"]


def test_the_owner_chooses_who_takes_a_loss_once_the_lead_is_gone():
    units = [
        U("a1", "0303", strength=1, steps=1),
        U("a2", "0304", strength=1),
        U("a3", "0402", strength=1),
        U("d", "0403", side="austria", strength=9),
    ]
    # An owner's table whose every cell is A2: two loss points for the attacker.
    crt = json.loads(json.dumps(RULES_CRT))
    for row in crt["rows"]:
        row["cells"] = {k: ["A2"] for k in row["cells"]}
    g = start(units, options={"crt": crt})
    to_combat(g)
    g.apply({"type": "attack", "target": "0403"})
    g.apply({"type": "confirm"})
    g.apply({"type": "lead", "unit": "a1"})
    g.apply({"type": "terrain", "from": "0303", "into": "0403"})
    g.apply({"type": "roll", "value": 3})
    assert g.state["units"]["a1"]["out"]  # first loss: the lead unit
    assert g.state["decision"] == {"kind": "loss", "side": "attacker", "options": ["a2", "a3"]}
    assert g.legal_actions() == [
        {"type": "take_loss", "unit": "a2"},
        {"type": "take_loss", "unit": "a3"},
    ]
    g.apply({"type": "take_loss", "unit": "a3"})
    assert g.state["units"]["a3"]["lost"] == 1 and g.state["units"]["a2"]["lost"] == 0


def test_a_replaced_crt_changes_the_result_and_the_game_says_which_table():
    units = [U("a", "0303"), U("d", "0403", side="austria", steps=3)]
    own = json.loads(json.dumps(RULES_CRT))
    own.update(stand_in=False, name="Printed CRT")
    for row in own["rows"]:
        row["cells"] = {k: ["D1"] for k in row["cells"]}
    results = {}
    for label, options in (("stand-in", None), ("own", {"crt": own})):
        g = start(units, options=options)
        to_combat(g)
        g.apply({"type": "attack", "target": "0403"})
        g.apply({"type": "confirm"})
        g.apply({"type": "roll", "value": 3})  # 1:1, modified 3: stand-in [] / own D1
        results[label] = (g.state["units"]["d"]["lost"], g.state["crt"])
    assert results["stand-in"] == (0, {"key": None, "name": None, "stand_in": True})
    assert results["own"][0] == 1
    assert results["own"][1]["stand_in"] is False and results["own"][1]["name"] == "Printed CRT"
    result_events = [e for e in g.log if e["key"] == "log.hh_result_own"]
    assert result_events[-1]["params"]["table"] == "own"


def test_a_malformed_owner_crt_is_refused_with_the_place():
    bad = json.loads(json.dumps(RULES_CRT))
    del bad["rows"][0]
    with pytest.raises(RulesError, match="rows: expected one row for each face"):
        start([U("a", "0101")], options={"crt": bad})
    answer = Session().call("check_crt", {"crt": {"columns": []}})
    assert answer["ok"] is False and answer["error"]["key"] == "error.crt_refused"
    ok = Session().call("check_crt", {"crt": {**RULES_CRT, "name": "Mine", "stand_in": False}})
    assert ok["result"]["name"] == "Mine" and ok["result"]["stand_in"] is False


def test_an_r_disorders_morale_4_and_a_blocked_retreat_costs_a_step():
    # d (morale 4) at 0101 in the corner; attackers around it leave it no hex farther away.
    units = [
        U("a1", "0201", strength=9),
        U("a2", "0102", strength=9),
        U("d", "0101", side="austria", strength=3, steps=3),
    ]
    own = json.loads(json.dumps(RULES_CRT))
    for row in own["rows"]:
        row["cells"] = {k: ["Dr"] for k in row["cells"]}
    g = start(units, options={"crt": own})
    to_combat(g)
    g.apply({"type": "attack", "target": "0101"})
    g.apply({"type": "confirm"})
    g.apply({"type": "lead", "unit": "a1"})
    if g.state["combat"] and g.state["combat"]["step"] == "terrain":
        g.apply(g.legal_actions()[0])
    g.apply({"type": "roll", "value": 3})
    d = g.state["units"]["d"]
    assert d["status"] == "disordered" and d["lost"] == 1 and d["hex"] == "0101"
    assert "log.hh_no_retreat" in keys(g)


def test_deep_charge_of_11_or_more_must_attack_next():
    units = [
        U("c", "0303", kind="cavalry", morale=5, movement=8, shock=1),
        U("pl", "0303", kind="leader", morale_modifier=2),
        U("d", "0403", side="austria", strength=1, steps=3),
        U("e", "0202", side="austria", strength=1, steps=3),
    ]
    g = start(units)
    g.states[-1]["units"]["c"]["engaged"] = True
    to_combat(g)
    g.apply({"type": "attack", "target": "0403"})
    g.apply({"type": "confirm"})
    # 4 : 1; morale 5 - 4 +1, leader +1, Engaged: no shock; 3 + 2 = 5 on 4:1: D2.
    g.apply({"type": "roll", "value": 3})
    assert g.state["units"]["d"]["lost"] == 2 and g.state["combat"]["step"] == "cavalry"
    assert {"type": "deep_charge", "unit": "c"} in g.legal_actions()
    s = Session()
    s.game, s.scenario = g, g.scenario
    preview = s.call("preview", {"action": {"type": "deep_charge", "unit": "c"}})["result"]
    # d6 + morale 5 + leader 2 >= 11: a 4, 5 or 6.
    assert preview["outcomes"][0]["p"] == pytest.approx(0.5)
    g.apply({"type": "deep_charge", "unit": "c"})
    g.apply({"type": "roll", "value": 4})  # 4 + 5 + 2 = 11
    assert g.state["units"]["c"]["must"] is True
    assert "log.hh_deep_must" in keys(g)
    # It charges on: it must take part in the next attack, though it attacked this turn.
    assert g.state["combat"] is None
    assert g.legal_actions() == [
        {"type": "attack", "target": "0202"},
        {"type": "attack", "target": "0403"},
    ]


def test_a_unit_that_must_attack_bars_the_end_of_the_phase():
    g = start([U("c", "0303", kind="cavalry"), U("d", "0403", side="austria")])
    g.states[-1]["units"]["c"]["must"] = True
    to_combat(g)
    assert g.legal_actions() == [{"type": "attack", "target": "0403"}]
    g.apply({"type": "attack", "target": "0403"})
    assert {"type": "toggle_attacker", "unit": "c"} not in g.legal_actions()


def test_bombardment_reads_the_bomb_column_and_spares_the_guns():
    units = [
        U("g", "0301", kind="artillery", strength=4, morale=3, movement=2, range=3, steps=1),
        U("d", "0304", side="austria", strength=4, steps=3),
    ]
    g = start(units, hexes={"0304": ["town"]})
    assert g.state["phase"] == "movement"
    g.apply({"type": "end_phase"})
    assert g.state["phase"] == "bombardment"
    assert {"type": "bombard", "unit": "g", "target": "0304"} in g.legal_actions()
    s = Session()
    s.game, s.scenario = g, g.scenario
    p = s.call("preview", {"action": {"type": "bombard", "unit": "g", "target": "0304"}})
    p = p["result"]
    # 4 : 4 -> 1:1; town, Bomb column -2.
    assert p["odds"]["column"] == "1:1" and p["total"] == -2
    assert sum(o["p"] for o in p["outcomes"]) == pytest.approx(1)
    g.apply({"type": "bombard", "unit": "g", "target": "0304"})
    g.apply({"type": "roll", "value": 6})  # 6 - 2 = 4 on 1:1: Dr
    assert g.state["units"]["g"]["bombarded"]
    assert g.state["units"]["d"]["status"] == "disordered"  # morale 4: "r" disorders
    assert g.state["units"]["g"]["lost"] == 0


def test_a_broken_army_loses_at_once():
    sides = [
        {"id": "prussia", "name": "P"},
        {"id": "austria", "name": "A", "army_morale": {"points": 3, "demoralized": 2, "broken": 1}},
    ]
    own = json.loads(json.dumps(RULES_CRT))
    for row in own["rows"]:
        row["cells"] = {k: ["D2"] for k in row["cells"]}
    g = start(
        [U("a", "0303"), U("d", "0403", side="austria", steps=3)],
        sides=sides,
        options={"crt": own},
    )
    to_combat(g)
    g.apply({"type": "attack", "target": "0403"})
    g.apply({"type": "confirm"})
    g.apply({"type": "roll", "value": 1})
    assert g.state["army"]["austria"] == {"points": 1, "level": "broken"}
    assert g.state["result"]["winner"] == "prussia" and g.state["result"]["broken"] == "austria"
    assert g.legal_actions() == []


def test_victory_counts_objectives_held_and_enemy_steps_lost():
    g = start(
        [U("p", "0101"), U("a", "0806", side="austria")],
        turns=1,
        objectives=[{"hex": "0101", "points": 3}, {"hex": "0806", "points": 1}],
    )
    g.states[-1]["units"]["a"]["lost"] = 1
    for _ in range(4):
        g.apply({"type": "end_phase"})
    assert g.state["result"] == {
        "points": {"prussia": 4, "austria": 1},
        "winner": "prussia",
        "broken": None,
    }


def test_the_view_carries_the_prompt_the_combat_and_the_table():
    s = Session()
    s.call("load_scenario", {"id": "demo-hohenbrueck"})
    view = s.call("new_game", {"seed": 3})["result"]
    assert view["prompt"] == {
        "key": "prompt.hh_movement",
        "params": {"side": "prussia"},
        "side": "prussia",
    }
    assert view["crt"]["stand_in"] is True and view["combat"] is None
    assert "confirm" in view["previewable"]


def test_the_state_is_plain_json_and_queries_do_not_change_it():
    g = start(duel_units(), hexsides=[STREAM])
    to_combat(g)
    g.apply({"type": "attack", "target": "0403"})
    before = json.dumps(g.state, sort_keys=True)
    g.legal_actions()
    RULES.preview(g.scenario, g.state, {"type": "confirm"})
    RULES.view_extra(g.scenario, g.state)
    assert json.dumps(g.state, sort_keys=True) == before
    assert json.loads(before) == g.state


FIGHTS = ("attack", "confirm", "bombard", "extended_attack", "deep_charge", "advance")


@pytest.mark.parametrize("fight_bias", [0.0, 0.8], ids=["uniform", "fight-heavy"])
@pytest.mark.parametrize("seed", range(2))
def test_random_playouts_of_the_demo_end_cleanly(seed, fight_bias):
    """Legal actions at random (fight-heavy: attacks preferred): every game ends, the state
    stays JSON, and the save replays it."""

    def screen_is_json(game: Game) -> None:  # what the screen gets is JSON too
        json.dumps(RULES.view_extra(game.scenario, game.state))

    sc = load_builtin("demo-hohenbrueck")
    g = random_playout(sc, RULES, seed, FIGHTS, fight_bias, screen_is_json)
    assert g.state["result"]["points"].keys() == {"prussia", "austria"}
    if fight_bias:
        assert any(e["key"] == "log.hh_result" for e in g.log)


def test_locked_units_are_those_the_zoc_exit_table_keeps_in_place():
    # p alone next to the enemy: no listed exit cost; s1 and s2 stacked are in support (+1).
    g = start(
        [
            U("p", "0303"),
            U("s1", "0305"),
            U("s2", "0305"),
            U("e", "0403", side="austria"),
            U("f", "0405", side="austria"),
        ]
    )
    assert RULES.view_extra(g.scenario, g.state)["locked"] == ["e", "f", "p"]
    assert not any(a.get("unit") == "p" and a["type"] == "move" for a in g.legal_actions())
    assert any(a.get("unit") == "s1" and a["type"] == "move" for a in g.legal_actions())


def test_a_scenario_overrides_a_sequence_default_key_by_key():
    units = [U("a", "0303"), U("pl", "0303", kind="leader"), U("d", "0403", side="austria")]
    g = start(units, overrides={"sequence": {"drm": {"leader_with_lead": 2}}})
    to_combat(g)
    g.apply({"type": "attack", "target": "0403"})
    g.apply({"type": "confirm"})
    # clear, equal morale; the leader with the lead unit: +2 instead of the default +1.
    assert g.state["chance"]["drm"] == 2
    assert RULES.legal_actions(g.scenario, g.state) == []  # at the die: only the roll
