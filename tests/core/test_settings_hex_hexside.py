"""Every setting of hex-hexside's sequence.json a scenario may change does what it says: the
default, then the other reading, as a player sees it in the game (issue 15: no override is
accepted and then ignored). The readings themselves are listed in docs/hex-hexside.md,
"Readings".

Map: flat hexes, even columns half a hex lower; 0303 touches 0202 0203 0302 0304 0402 0403;
0403 touches 0303 0304 0402 0404 0503 0504. A CRT of the owner's, one result in every cell
(``table``), makes each combat's result known in advance.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from test_play_hex_hexside import U, scenario

from muster.errors import ScenarioError
from muster.game import Game
from muster.systems.hex_hexside import combat
from muster.systems.hex_hexside.rules import RULES
from muster.systems.hex_hexside.tables import raw_tables

STAND_IN = raw_tables()["crt"]


def table(*codes: str) -> dict[str, Any]:
    """The stand-in's shape with ``codes`` in every cell, said to be the owner's."""
    own = copy.deepcopy(STAND_IN)
    own.pop("why")
    own["stand_in"] = False
    for row in own["rows"]:
        row["cells"] = {k: list(codes) for k in row["cells"]}
    return own


ARMY = {"points": 30, "demoralized": 10, "broken": 5}  # far from any level
SIDES = [{"id": s, "name": s, "army_morale": ARMY} for s in ("prussia", "austria")]


def game(units, sequence=None, crt=None, **extra) -> Game:
    """A game of ``units`` with the sequence overrides, the CRT (each cell ``crt``) and
    whatever else the scenario is given; both sides' army morale far from any level."""
    extra.setdefault("sides", SIDES)
    if sequence:
        extra["overrides"] = {"sequence": sequence}
    options = {"crt": table(*crt)} if crt is not None else None
    return Game.start(scenario(units, **extra), RULES, 7, options)


def to_phase(g: Game, phase: str) -> None:
    while g.state["phase"] != phase:
        g.apply({"type": "end_phase"})


def attack(g: Game, target: str = "0403") -> None:
    """The phasing side attacks ``target`` with every unit that may, and rolls (any face)."""
    to_phase(g, "combat")
    g.apply({"type": "attack", "target": target})
    g.apply({"type": "confirm"})
    while g.state["chance"] is None and g.state["combat"]["step"] in CHOICES:
        g.apply(g.legal_actions()[0])
    g.apply({"type": "roll", "value": 3})


CHOICES = ("lead_attacker", "lead_defender", "terrain")  # taken as first offered


def keys(g: Game) -> list[str]:
    return [e["key"] for e in g.log]


def duel(**defender: Any) -> list[dict[str, Any]]:
    return [U("a", "0303"), U("d", "0403", side="austria", **defender)]


# -- the player turn -------------------------------------------------------------------------


def test_player_turn_the_phases_in_the_scenarios_order():
    units = [U("g", "0101", kind="artillery", range=3), U("d", "0104", side="austria")]
    g = game(units)
    g.apply({"type": "end_phase"})  # movement
    assert g.state["phase"] == "bombardment"
    # Without the bombardment phase, combat follows movement.
    turn = [{"phase": p} for p in ("rally", "movement", "combat", "end")]
    g = game(units, {"player_turn": turn})
    g.apply({"type": "end_phase"})
    assert g.state["phase"] == "combat"
    # Combat before movement: a player turn opens on it.
    turn = [{"phase": p} for p in ("rally", "combat", "movement", "end")]
    g = game(duel(), {"player_turn": turn})
    assert g.state["phase"] == "combat"
    g.apply({"type": "end_phase"})
    assert (g.state["side"], g.state["phase"]) == ("prussia", "movement")
    g.apply({"type": "end_phase"})
    assert (g.state["side"], g.state["phase"]) == ("austria", "combat")


def test_player_turn_takes_its_phases_from_the_closed_set():
    with pytest.raises(ScenarioError) as found:
        scenario([], overrides={"sequence": {"player_turn": [{"phase": "siege"}]}})
    assert "player_turn" in found.value.params["place"]


def test_formation_change_start():
    assert game(duel()).state["units"]["a"]["formation"] == "line"
    g = game(duel(), {"formation_change": {"start": "column"}})
    assert g.state["units"]["a"]["formation"] == "column"
    assert {"type": "formation", "unit": "a", "to": "line"} in g.legal_actions()


# -- strength, designation, retreat before combat, lead units --------------------------------


@pytest.mark.parametrize(
    ("reduced", "strength"),
    [("proportional_up", 3), ("proportional_down", 2), ("full", 5)],
)
def test_strength_reduced(reduced, strength):
    # Strength 5, two steps, one lost: 5 x 1 / 2 = 2.5.
    units = [U("a", "0303", strength=5), U("d", "0403", side="austria", strength=1)]
    g = game(units, {"strength": {"reduced": reduced}})
    g.states[-1]["units"]["a"]["lost"] = 1
    assert combat.strength(g.scenario, g.state, "a") == strength
    to_phase(g, "combat")
    g.apply({"type": "attack", "target": "0403"})
    g.apply({"type": "confirm"})
    assert g.state["combat"]["odds"]["attack"] == strength


def test_designation_defend_many():
    units = [U("a", "0303"), U("b", "0402"), U("d", "0403", side="austria", steps=9)]
    for defend_many, again in ((True, True), (False, False)):
        g = game(units, {"designation": {"defend_many": defend_many}}, crt=[])
        to_phase(g, "combat")
        g.apply({"type": "attack", "target": "0403"})
        g.apply({"type": "toggle_attacker", "unit": "b"})  # a alone
        g.apply({"type": "confirm"})
        g.apply({"type": "roll", "value": 3})  # no result
        assert ({"type": "attack", "target": "0403"} in g.legal_actions()) is again
    # A new player turn: the hex may be attacked again.
    for _ in range(3):
        g.apply({"type": "end_phase"})
    assert g.state["side"] == "prussia"
    to_phase(g, "combat")
    assert {"type": "attack", "target": "0403"} in g.legal_actions()


def test_retreat_before_combat_who():
    g = game(duel(morale=5))
    to_phase(g, "combat")
    g.apply({"type": "attack", "target": "0403"})
    g.apply({"type": "confirm"})
    assert g.state["combat"]["step"] == "retreat_before"
    g = game(duel(morale=5), {"retreat_before_combat": {"who": "none"}})
    to_phase(g, "combat")
    g.apply({"type": "attack", "target": "0403"})
    g.apply({"type": "confirm"})
    assert g.state["combat"]["step"] != "retreat_before" and g.state["chance"] is not None


@pytest.mark.parametrize(("chooser", "decides"), [("owner", "austria"), ("attacker", "prussia")])
def test_lead_units_chooser(chooser, decides):
    units = [U("a", "0303"), U("d", "0403", side="austria"), U("e", "0403", side="austria")]
    g = game(units, {"lead_units": {"chooser": chooser}})
    to_phase(g, "combat")
    g.apply({"type": "attack", "target": "0403"})
    g.apply({"type": "confirm"})
    assert g.state["combat"]["step"] == "lead_defender"
    assert RULES.decider(g.scenario, g.state) == decides


# -- DRM ---------------------------------------------------------------------------------------


def cavalry_drm(sequence=None, engaged=False) -> list[tuple[str, int]]:
    units = [U("c", "0303", kind="cavalry", shock=2), U("d", "0403", side="austria")]
    g = game(units, sequence)
    g.states[-1]["units"]["c"]["engaged"] = engaged
    to_phase(g, "combat")
    g.apply({"type": "attack", "target": "0403"})
    preview = RULES.preview(g.scenario, g.state, {"type": "confirm"})
    return [(m["key"], m["value"]) for m in preview["modifiers"]]


def test_drm_shock():
    assert ("drm.shock", 2) in cavalry_drm()
    found = cavalry_drm({"drm": {"shock": "none"}})
    assert not [k for k, _ in found if k in ("drm.shock", "drm.no_shock")]


def test_drm_shock_needs():
    assert ("drm.no_shock", 0) in cavalry_drm(engaged=True)  # Engaged: no shock by default
    assert ("drm.shock", 2) in cavalry_drm({"drm": {"shock_needs": ["formed"]}}, engaged=True)


def test_drm_routed_lead():
    # The defending lead routed: +2 by default, +3 when a scenario says so.
    for value, expected in ((None, 2), (-3, 3)):
        sequence = {"drm": {"routed_lead": value}} if value is not None else None
        g = game(duel(), sequence)
        g.states[-1]["units"]["d"]["status"] = "routed"
        to_phase(g, "combat")
        g.apply({"type": "attack", "target": "0403"})
        preview = RULES.preview(g.scenario, g.state, {"type": "confirm"})
        assert ("drm.lead_status", expected) in [
            (m["key"], m["value"]) for m in preview["modifiers"]
        ]


# -- leader loss, results ----------------------------------------------------------------------


def with_leader() -> list[dict[str, Any]]:
    return [*duel(), U("l", "0403", side="austria", kind="leader")]


def test_leader_loss_when():
    # An "r" costs no step: no leader check by default; a check in every combat when said so.
    g = game(with_leader(), crt=["Dr"])
    attack(g)
    assert "log.hh_leader_safe" not in keys(g) and g.state["chance"] is None
    g = game(with_leader(), {"leader_loss": {"when": "every_combat"}}, crt=["Dr"])
    attack(g)
    assert g.state["chance"]["purpose"] == "leader_loss"


@pytest.mark.parametrize(
    ("lost_on", "roll", "lost"),
    [([6], 6, True), ([6], 5, False), ([5, 6], 5, True), ([], 6, False)],
)
def test_leader_loss_lost_on(lost_on, roll, lost):
    g = game(with_leader(), {"leader_loss": {"lost_on": lost_on}}, crt=["D1"])
    attack(g)
    assert g.state["chance"]["purpose"] == "leader_loss"
    g.apply({"type": "roll", "value": roll})
    assert g.state["units"]["l"]["out"] is lost


def test_results_losses_to():
    units = [U("a", "0303"), U("b", "0402"), U("d", "0403", side="austria", steps=4)]
    g = game(units, crt=["A1"])
    attack(g)  # the attacker chooses its lead (the first offered: a): it takes the loss
    assert g.state["decision"] is None and g.state["units"]["a"]["lost"] == 1
    g = game(units, {"results": {"losses_to": "owner"}}, crt=["A1"])
    attack(g)
    assert g.state["decision"]["kind"] == "loss"
    assert [a["unit"] for a in g.legal_actions()] == ["a", "b"]


def test_results_r():
    g = game(duel(), crt=["Dr"])
    attack(g)  # morale 4: disordered, and it retreats (one way out: chosen for it, or asked)
    assert g.state["units"]["d"]["status"] == "disordered"
    assert g.state["units"]["d"]["hex"] != "0403" or g.state["decision"]["kind"] == "retreat"
    g = game(duel(), {"results": {"r": "morale_only"}}, crt=["Dr"])
    attack(g)
    assert g.state["units"]["d"]["status"] == "disordered"
    assert g.state["units"]["d"]["hex"] == "0403" and g.state["decision"] is None


def test_results_S():
    g = game(duel(morale=3, steps=3), crt=["DS"])
    attack(g)
    assert g.state["units"]["d"]["lost"] == 1 and not g.state["units"]["d"]["out"]
    g = game(duel(morale=3, steps=3), {"results": {"S": "eliminated"}}, crt=["DS"])
    attack(g)
    assert g.state["units"]["d"]["out"] and g.state["units"]["d"]["lost"] == 3


def test_results_second_disorder():
    for second, status in (("rout", "routed"), ("stay_disordered", "disordered")):
        g = game(duel(), {"results": {"second_disorder": second, "r": "morale_only"}}, crt=["Dr"])
        g.states[-1]["units"]["d"]["status"] = "disordered"
        attack(g)
        assert g.state["units"]["d"]["status"] == status


def boxed_in() -> list[dict[str, Any]]:
    """The defender at 0403 with no hex to retreat into: friends stacked two high all around it
    farther from 0303 (0404, 0503, 0504), enemies on the others."""
    units = [U("a", "0303"), U("d", "0403", side="austria", steps=3)]
    for i, h in enumerate(("0404", "0503", "0504")):
        units += [U(f"f{i}", h, side="austria"), U(f"g{i}", h, side="austria")]
    return units


def test_results_no_retreat():
    g = game(boxed_in(), crt=["Dr"])
    attack(g)
    assert "log.hh_no_retreat" in keys(g)
    assert g.state["units"]["d"]["lost"] == 1 and not g.state["units"]["d"]["out"]
    g = game(boxed_in(), {"results": {"no_retreat": "eliminated"}}, crt=["Dr"])
    attack(g)
    assert g.state["units"]["d"]["out"] and g.state["units"]["d"]["lost"] == 3


# -- Winning Combat marker, cavalry action -------------------------------------------------------


def wcm_after(crt: list[str], sequence=None) -> Game:
    """An attack on a lone defender of one step that the result takes out."""
    units = [U("a", "0303", steps=3), U("d", "0403", side="austria", steps=1)]
    g = game(units, sequence, crt=crt)
    attack(g)
    while g.state["combat"] is not None:
        g.apply(
            {"type": "no_advance"}
            if g.state["combat"]["step"] == "advance"
            else g.legal_actions()[-1]
        )
    return g


def test_winning_combat_marker_when():
    assert wcm_after(["D1"]).state["units"]["a"]["wcm"] is not None
    assert wcm_after(["EX"]).state["units"]["a"]["wcm"] is None  # the attacker was hurt
    when = {"winning_combat_marker": {"when": "defender_left"}}
    assert wcm_after(["EX"], when).state["units"]["a"]["wcm"] is not None
    never = {"winning_combat_marker": {"when": "never"}}
    assert wcm_after(["D1"], never).state["units"]["a"]["wcm"] is None


def test_winning_combat_marker_lasts():
    for lasts, kept in (("until_used_or_next_own_turn_end", False), ("until_used", True)):
        g = wcm_after(["D1"], {"winning_combat_marker": {"lasts": lasts}})
        # The end of this player turn, the enemy's, then of the next own player turn.
        for _ in range(20):
            if g.state["turn"] == 2 and g.state["side"] == "austria":
                break
            g.apply({"type": "end_phase"})
        assert (g.state["units"]["a"]["wcm"] is not None) is kept


def test_cavalry_action_engaged_after_combat():
    units = [U("c", "0303", kind="cavalry"), U("d", "0403", side="austria", steps=4)]
    g = game(units, crt=[])
    attack(g)
    assert g.state["units"]["c"]["engaged"]
    g = game(units, {"cavalry_action": {"engaged_after_combat": False}}, crt=[])
    attack(g)
    assert not g.state["units"]["c"]["engaged"]


def test_extended_attack_once_per_turn():
    # Cavalry that advanced may attack again; a second time only when once_per_turn is false.
    units = [
        U("c", "0303", kind="cavalry", steps=4, movement=8),
        U("d", "0403", side="austria", steps=1),
        U("e", "0503", side="austria", steps=1),
        U("f", "0603", side="austria", steps=1),
    ]
    for once, second in ((True, False), (False, True)):
        g = game(units, {"extended_attack": {"once_per_turn": once}}, crt=["D1"])
        attack(g)
        g.apply({"type": "advance", "unit": "c", "to": "0403"})
        g.apply({"type": "extended_attack", "target": "0503"})
        while g.state["combat"]["step"] != "designate":
            g.apply(g.legal_actions()[-1])
        g.apply({"type": "confirm"})
        g.apply({"type": "roll", "value": 3})
        g.apply({"type": "advance", "unit": "c", "to": "0503"})
        assert (g.state["combat"]["step"] == "extended") is second


# -- bombardment -------------------------------------------------------------------------------


def gun(*defenders: dict[str, Any], sequence=None, crt=None) -> Game:
    units = [U("g", "0301", kind="artillery", strength=4, range=3, steps=2), *defenders]
    g = game(units, sequence, crt=crt)
    g.apply({"type": "end_phase"})  # movement
    assert g.state["phase"] == "bombardment"
    return g


def test_bombardment_defender_strength():
    targets = (U("d", "0304", side="austria", strength=4), U("e", "0304", side="austria"))
    g = gun(*targets)
    g.apply({"type": "bombard", "unit": "g", "target": "0304"})
    assert g.state["combat"]["odds"]["defence"] == 8
    g = gun(*targets, sequence={"bombardment": {"defender_strength": "strongest_unit"}})
    preview = RULES.preview(g.scenario, g.state, {"type": "bombard", "unit": "g", "target": "0304"})
    assert preview["odds"]["defence"] == 4
    g.apply({"type": "bombard", "unit": "g", "target": "0304"})
    assert g.state["combat"]["odds"]["defence"] == 4


def test_bombardment_attacker_results():
    target = U("d", "0304", side="austria", steps=4)
    g = gun(target, crt=["A1"])
    g.apply({"type": "bombard", "unit": "g", "target": "0304"})
    g.apply({"type": "roll", "value": 3})
    assert g.state["units"]["g"]["lost"] == 0  # ignored by default
    g = gun(target, sequence={"bombardment": {"attacker_results": "applied"}}, crt=["A1"])
    preview = RULES.preview(g.scenario, g.state, {"type": "bombard", "unit": "g", "target": "0304"})
    assert preview["outcomes"][0]["codes"] == ["A1"]  # both sides' results, as a close combat
    g.apply({"type": "bombard", "unit": "g", "target": "0304"})
    g.apply({"type": "roll", "value": 3})
    assert g.state["units"]["g"]["lost"] == 1


# -- army morale and victory --------------------------------------------------------------------


def test_victory_objective_points():
    objectives = [{"hex": "0303", "points": 5}]
    for counted, points in ((True, 5), (False, 0)):
        g = Game.start(
            scenario(
                duel(),
                turns=1,
                objectives=objectives,
                overrides={"sequence": {"victory": {"objective_points": counted}}},
            ),
            RULES,
            7,
        )
        while not g.state["result"]:
            g.apply({"type": "end_phase"})
        assert g.state["result"]["points"]["prussia"] == points


def test_army_morale_points_per_leader():
    for per_leader, left in ((2, 28), (5, 25)):
        data = {"army_morale": {"points_per_leader": per_leader}}
        g = game(with_leader(), data, crt=["D1"])
        attack(g)
        g.apply({"type": "roll", "value": 6})  # the leader is lost
        assert g.state["army"]["austria"]["points"] == left - 1  # and the step


PLAIN = [{"id": s, "name": s} for s in ("prussia", "austria")]  # no army_morale


def test_army_morale_fallback_and_broken_ends_game():
    # No army_morale: the side's 4 steps are its points; by default 55 % (2) demoralized and
    # 25 % (1) broken, so losing 2 steps demoralizes it. With 90 % (3) and 60 % (2) it breaks,
    # and a broken army loses at once unless broken_ends_game is false.
    fallback = {"demoralized_fraction": 0.9, "broken_fraction": 0.6}
    for sequence, level, over in (
        (None, "demoralized", False),
        ({"army_morale": {"fallback": fallback}}, "broken", True),
        ({"army_morale": {"fallback": fallback, "broken_ends_game": False}}, "broken", False),
    ):
        g = game(duel(steps=4), sequence, crt=["D2"], sides=PLAIN)
        attack(g)
        assert g.state["army"]["austria"] == {"points": 2, "level": level}
        assert (g.state["result"] is not None) is over
