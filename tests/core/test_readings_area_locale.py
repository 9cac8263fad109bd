"""area-locale's readings and numbers as data (issue 15): each reading of the notes a scenario
may change (``overrides.sequence``), played both ways, and the numbers of sequence.json (costs,
leading pieces, the assault's result and losses, retreats, roads, the order of the turn) read
by the rules and shown by the rules reference as the scenario sets them.

Maps and units are written as in test_play_area_locale.py (its helpers). Rule text quoted in
the comments is from rules/area-locale.md ("the notes").
"""

from __future__ import annotations

from typing import Any

import pytest
from test_play_area_locale import (
    end_player_turn,
    end_player_turn_to_movement,
    game,
    lead_options,
    lost,
    move,
    no_pursuit,
    of_type,
    pending,
    select,
    start_assault,
    steps,
    where,
)

from muster.errors import IllegalActionError, ScenarioError
from muster.game import Game
from muster.scenario import parse_scenario
from muster.systems.area_locale import tables
from muster.systems.area_locale.rules import RULES

# == readings: each with the notes' default and the scenario's other choice ======================


def test_a_group_is_the_pieces_of_one_locale_wherever_they_stand_in_it():
    # "One command moves one group: any pieces that move together from the same locale to the
    # same locale." x1 in a's reserve and x2 on a/b (b holds y1, nothing blocks a/b) move as
    # one group: where both may go, into b, a maneuver attack; one of them came from the
    # reserve ("the attacker moved from a reserve"), so y may block it.
    g = game("a b c", "x1:i3@a x2:i2@a/b y1:i3@b y9:i1@c")
    g.apply({"type": "select", "unit": "x1"})
    assert {"type": "select", "unit": "x2"} in g.legal_actions()
    assert select(g, "x2") == {"b": True}
    g.apply({"type": "move", "to": "b", "attack": True})
    assert (pending(g), g.state["commands"]) == (("block", "y"), 2)
    g.apply({"type": "block", "unit": "y1"})
    assert (where(g, "x1"), where(g, "x2"), where(g, "y1")) == ("a/b", "a/b", "b/a")


def test_a_scenario_may_keep_a_group_to_one_place():
    # group.from "position" (the engine's former reading): x2 on a/b is not of x1's group.
    g = game("a b c", "x1:i3@a x2:i2@a/b y1:i3@b y9:i1@c", seq={"group": {"from": "position"}})
    g.apply({"type": "select", "unit": "x1"})
    assert {"type": "select", "unit": "x2"} not in g.legal_actions()


def test_a_group_from_two_approaches_pays_the_dearer_move_and_each_place_is_logged():
    # x1 on b/a (no enemy beyond: back for 0) and x2 on b/c (y1 blocks it: back for 1) pull
    # back together into b's reserve: one command, the dearer. The log says where each came
    # from, never "from b to b".
    g = game("a b c", "x1:i2@b/a x2:i2@b/c y1:i3@c/b")
    end_player_turn_to_movement(g)
    assert select(g, "x1", "x2") == {"b": False}
    g.apply({"type": "move", "to": "b"})
    assert (where(g, "x1"), where(g, "x2"), g.state["commands"]) == ("b", "b", 2)
    back = [e["params"] for e in g.log if e["key"] == "log.al_move_back"]
    assert [(p["frm"], p["count"]) for p in back] == [("b/a", 1), ("b/c", 1)]


def test_the_defenders_guns_in_the_reserve_fire_too():
    # "Defensive artillery fire: if the defender has artillery, it may fire": the notes do not
    # say where it stands; the rules file's default is anywhere in the attacked locale. yg in
    # b's reserve fires: 3 - 1 - 0 - 2 = 0, y wins; the gun shows itself and loses nothing
    # (it is not in the assault).
    units = "x1:i3@a/b x9:i1@a y1:i2@b/a yg:g1@b y9:i1@c"
    g = game("a b c", units)
    start_assault(g, "a/b", ["x1"])
    assert {a.get("fire") for a in of_type(g, "lead")} == {False, True}
    g.apply({"type": "lead", "units": ["y1"], "fire": True})
    [event] = [e for e in g.log if e["key"] == "log.al_result"]
    assert (event["params"]["artillery"], event["params"]["winner"]) == (1, "y")
    no_pursuit(g)
    assert (g.state["pieces"]["yg"]["revealed"], where(g, "yg"), steps(g, "yg")) == (True, "b", 1)
    # artillery_fire.from "approach" (the engine's former reading): the gun in the reserve
    # may not fire; no fire or hold is asked.
    g = game("a b c", units, seq={"artillery_fire": {"from": "approach"}})
    start_assault(g, "a/b", ["x1"])
    assert {a.get("fire") for a in of_type(g, "lead")} == {None}


def test_a_blocked_maneuver_attack_may_stay_in_its_reserve():
    # blocked_attack.attacker_to "reserve": the blocked group does not go up to its approach.
    seq = {"blocked_attack": {"attacker_to": "reserve"}}
    g = game("a b c d", "x1:i3@a y1:i2@b y2:i3@d", seq=seq)
    move(g, "x1", "b", attack=True)
    g.apply({"type": "block", "unit": "y1"})
    assert (where(g, "x1"), where(g, "y1"), g.state["commands"]) == ("a", "b/a", 2)
    assert {"type": "select", "unit": "x1"} not in g.legal_actions()  # it has moved
    [stopped] = [e["params"] for e in g.log if e["key"] == "log.al_stopped"]
    assert stopped["at"] == "a"


def _revealed_for_y(g: Game) -> bool:
    """True if y's view shows x1 as the block it is."""
    blocks = RULES.view_for(g.scenario, g.state, "y")["blocks"]
    return any(b.get("id") == "x1" and not b["hidden"] for b in blocks)


@pytest.mark.parametrize("until, shown", [("end_of_turn", True), ("end_of_player_turn", False)])
def test_revealed_leaders_stay_shown_until_the_end_of_the_turn_the_scenario_says(until, shown):
    # The notes reveal leading pieces, not for how long: until the end of the game turn by
    # default. 3 - 0 - 3 = 0: y wins, both lose a step; x1 goes back to a.
    g = game("a b c", "x1:i3@a/b x9:i1@a y1:i3@b/a y9:i1@c", seq={"reveal": {"until": until}})
    start_assault(g, "a/b", ["x1"])
    g.apply({"type": "lead", "units": ["y1"]})
    no_pursuit(g)
    assert _revealed_for_y(g)
    end_player_turn(g)
    assert g.state["side"] == "y"
    assert _revealed_for_y(g) is shown
    assert g.state["pieces"]["y1"]["revealed"] is shown


def test_a_scenario_may_score_no_objectives():
    # victory.objectives false: after the last turn no locale scores, a draw.
    g = game(
        "a b", "x1:i3@a y1:i3@b", obj={"a": 2}, turns=1, seq={"victory": {"objectives": False}}
    )
    end_player_turn(g)
    end_player_turn(g)
    assert g.state["result"] == {"winner": None, "points": {"x": 0, "y": 0}}


# == numbers as data ==============================================================================


def test_costs_are_the_scenarios():
    # costs.reserve_to_locale 2: a move from a reserve to an adjacent locale takes 2 commands.
    g = game("a b c", "x1:i3@a y1:i3@c", seq={"costs": {"reserve_to_locale": 2}})
    assert move(g, "x1", "b") == 2


def test_leading_pieces_per_width_and_their_types_are_the_scenarios():
    units = "x1:i3@a/b x2:i2@a/b x3:c2@a/b y1:i3@b/a"
    # leading.narrow 2: two may lead on a narrow approach.
    g = game("a b c", units, seq={"leading": {"narrow": 2}})
    g.apply({"type": "assault", "approach": "a/b"})
    assert ("x1", "x2") in lead_options(g) and ("x1", "x3") not in lead_options(g)
    # leading.mixed true: infantry and cavalry may lead together.
    g = game("a b c", units, seq={"leading": {"narrow": 2, "mixed": True}})
    g.apply({"type": "assault", "approach": "a/b"})
    assert ("x1", "x3") in lead_options(g)
    # leading.types ["infantry"]: cavalry may not lead.
    g = game("a b c", units, seq={"leading": {"types": ["infantry"]}})
    g.apply({"type": "assault", "approach": "a/b"})
    assert lead_options(g) == {("x1",), ("x2",)}


def test_the_result_the_attacker_wins_at_and_the_losses_are_the_scenarios():
    # assault.wins_at 2: 3 - 0 - 2 = 1 is the defender's.
    g = game("a b c", "x1:i3@a/b x9:i1@a y1:i2@b/a y9:i1@c", seq={"assault": {"wins_at": 2}})
    start_assault(g, "a/b", ["x1"])
    g.apply({"type": "lead", "units": ["y1"]})
    [event] = [e for e in g.log if e["key"] == "log.al_result"]
    assert (event["params"]["result"], event["params"]["winner"]) == (1, "y")
    # losses.winner 0, losses.loser 2: 3 - 0 - 2 = 1, x wins and loses nothing; y loses
    # 2 + 1 = 3: y1's 2 (it led), then 1 of y2; y2 retreats from the attacked approach.
    units = "x1:i3@a/b y1:i2@b/a y2:i3@b/a y9:i1@c"
    g = game("a b c", units, seq={"losses": {"winner": 0, "loser": 2}})
    start_assault(g, "a/b", ["x1"])
    g.apply({"type": "lead", "units": ["y1"]})
    no_pursuit(g)
    assert lost(g) == {"x": 0, "y": 3}
    got = {pid: (where(g, pid), steps(g, pid)) for pid in ("x1", "y1", "y2")}
    assert got == {"x1": ("b", 3), "y1": ("out", 0), "y2": ("c", 2)}


def test_retreat_losses_are_the_scenarios():
    # x1 takes b from its approach (no block). By default y's gun yg is eliminated and y1, the
    # reserve's cavalry, loses nothing. With retreat.reserve 2, reserve_spared [] and
    # eliminated [], the reserve group (y1 and yg) loses 2 steps, y choosing each.
    units = "x1:i3@a/b y1:c2@b yg:g1@b y9:i1@d"
    g = game("a b c d", units)
    move(g, "x1", "b", attack=True)
    got = {pid: (where(g, pid), steps(g, pid)) for pid in ("y1", "yg")}
    assert got == {"y1": ("c", 2), "yg": ("out", 0)}
    seq = {"retreat": {"reserve": 2, "reserve_spared": [], "eliminated": []}}
    g = game("a b c d", units, seq=seq)
    move(g, "x1", "b", attack=True)
    assert pending(g) == ("group_loss", "y")
    assert sorted(g.state["pending"]["options"]) == ["y1", "yg"]
    g.apply({"type": "take_step", "unit": "y1"})
    assert pending(g) == ("group_loss", "y")
    g.apply({"type": "take_step", "unit": "yg"})
    got = {pid: (where(g, pid), steps(g, pid)) for pid in ("y1", "yg")}
    assert got == {"y1": ("c", 1), "yg": ("out", 0)}
    assert lost(g, "retreat") == {"x": 0, "y": 2}


def test_road_limits_are_the_scenarios():
    # road.areas 1: a road move goes one locale at most.
    g = game("a b c d e", "x1:i3@a y1:i3@e", roads=("P a b c d",), seq={"road": {"areas": 1}})
    select(g, "x1")
    assert [a["path"] for a in of_type(g, "road")] == [["b"]]


def test_the_order_of_the_player_turn_is_the_scenarios():
    # player_turn movement, assault, declaration: x moves up to b/c, then assaults from it in
    # the same player turn; with no gun, the declaration phase passes and y plays.
    seq = {"player_turn": [{"phase": "movement"}, {"phase": "assault"}, {"phase": "declaration"}]}
    g = game("a b c", "x1:i3@b y1:i3@c/b y9:i1@c", seq=seq)
    assert (g.state["phase"], g.state["commands"]) == ("movement", 3)
    move(g, "x1", "b/c")
    g.apply({"type": "end_phase"})
    assert g.state["phase"] == "assault"
    assert of_type(g, "assault") == [{"type": "assault", "approach": "b/c"}]
    g.apply({"type": "end_phase"})
    assert (g.state["side"], g.state["phase"]) == ("y", "movement")


@pytest.mark.parametrize(
    "sequence, message",
    [
        ({"costs": {"assault": -1}}, "overrides.sequence.costs.assault: expected a whole number"),
        ({"leading": {"wide": -2}}, "overrides.sequence.leading.wide: expected a whole number"),
        ({"pursuit": {"by": "loser"}}, "expected one of attacker, winning_attacker, winner"),
        ({"player_turn": [{"phase": "movement"}, {"phase": "movement"}]}, "each"),
    ],
)
def test_settings_the_rules_cannot_play_are_refused_with_their_place(sequence, message):
    from test_play_area_locale import scenario_data

    with pytest.raises(ScenarioError) as info:
        parse_scenario(scenario_data("a b", "x1:i3@a y1:i3@b", seq=sequence))
    assert message in str(info.value)


def test_the_data_files_hold_the_notes_numbers():
    # The notes: "infantry blocks of 1-3 steps, cavalry 1-2, artillery 1"; leading pieces 1 on
    # a narrow approach, up to 2 on a wide one, one of the attacker's of 2 or more steps; the
    # winner loses 1 step, the loser 1 + |result|; the pursuing cavalry 1; 3 commands a turn.
    assert tables.piece_steps() == {"infantry": 3, "cavalry": 2, "artillery": 1}
    s = tables.defaults()
    assert (s["leading"]["narrow"], s["leading"]["wide"], s["leading"]["strong_steps"]) == (1, 2, 2)
    assert s["leading"]["strong_for"] == ["attacker"] and s["leading"]["mixed"] is False
    assert (s["losses"]["winner"], s["losses"]["loser"], s["losses"]["pursuer"]) == (1, 1, 1)
    assert (s["assault"]["wins_at"], s["commands"]["per_turn"]) == (1, 3)
    assert s["road"]["areas"] == s["road"]["pieces_per_turn"] == 3


# == the rules reference shows what the rules read ================================================


def _rows(ref: dict[str, Any], section: str) -> dict[str, dict[str, Any]]:
    [found] = [s for s in ref["sections"] if s["id"] == section]
    return {r["id"]: r for r in found["rows"]}


def test_the_reference_shows_the_scenarios_numbers_and_readings():
    seq = {
        "leading": {"narrow": 2},
        "costs": {"assault": 2},
        "pursuit": {"by": "winner"},
        "retreat": {"reserve": 2, "reserve_spared": []},
    }
    sc = parse_scenario(game("a b", "x1:i3@a y1:i3@b", seq=seq).scenario.data)
    ref = RULES.reference(sc, None)
    narrow = _rows(ref, "approach-kinds")["width-narrow"]
    assert narrow["cells"]["effect"]["params"]["n"] == 2 and narrow["flags"] == ["override"]
    assault = _rows(ref, "commands")["command-assault"]
    assert (assault["cells"]["cost"], assault["flags"]) == (2, ["override"])
    steps_ = _rows(ref, "assault")
    lead = steps_["assault-lead"]["cells"]["what"]["params"]
    assert lead["unit_types"] == ["infantry", "cavalry"] and lead["narrow"] == 2
    assert lead["second"] == {"key": "ref.al_strong.some", "params": {"steps": 2}}
    defence = steps_["assault-defence"]["cells"]["what"]["params"]
    assert defence["second"]["key"] == "ref.al_strong.any"  # no 2-step line for the defender
    pursuit = steps_["assault-pursuit"]["cells"]["what"]["params"]["who"]
    assert pursuit["key"] == "ref.al_value.pursuit.winner"
    reserve = _rows(ref, "retreats")["retreat-reserve"]
    assert reserve["cells"]["what"] == {"key": "ref.al_retreat_what.steps", "params": {"n": 2}}
    settings = _rows(ref, "settings")
    assert settings["setting-pursuit"]["cells"]["value"]["key"] == "ref.al_value.pursuit.winner"
    assert settings["setting-group"]["flags"] == ["default"]


# == refusals say why, naming the place ===========================================================


def refused(g: Game, action: dict[str, Any]) -> tuple[str, dict[str, Any], str | None]:
    """The reason ``action`` is refused now: its key, params and the place named."""
    with pytest.raises(IllegalActionError) as info:
        g.apply(action)
    error = info.value
    assert error.key == "error.al_refused", (error.key, error.params)
    why = error.params["why"]
    return why["key"], why["params"], error.place


def test_a_refused_move_says_why_and_names_the_locale():
    g = game("a b c d", "x1:i3@a x2:i2@a x3:i1@b y1:i3@d", caps={"b": 2})
    assert refused(g, {"type": "move", "to": "b"}) == ("refusal.al_no_group", {}, "L-b")
    select(g, "x1")
    assert refused(g, {"type": "move", "to": "c"}) == (
        "refusal.al_not_next",
        {"place": "L-c", "here": "L-a"},
        "L-c",
    )
    assert refused(g, {"type": "move", "to": "a/b"})[0] == "refusal.al_no_enemy_beyond"
    select(g, "x2")  # x1 and x2: b (capacity 2, x3 there) has room for one
    assert refused(g, {"type": "move", "to": "b"}) == (
        "refusal.al_no_room",
        {"place": "L-b", "count": 2},
        "L-b",
    )


def test_a_move_beyond_the_commands_left_says_what_it_costs():
    g = game("a b c", "x1:i3@a x2:i3@a x3:i3@a x4:i2@a y1:i3@c", caps={"a": 4, "b": 4})
    for pid in ("x1", "x2", "x3"):
        move(g, pid, "b")
    select(g, "x4")
    assert refused(g, {"type": "move", "to": "b"}) == (
        "refusal.al_commands",
        {"cost": 1, "count": 0},
        "L-b",
    )


def test_a_refused_assault_says_why_and_names_the_approach():
    # Grid a b / c d. x1 on a/b may assault y1 on b/a; x2 on a/c faces nobody on c/a (y2 is in
    # c's reserve); b/a is y's approach.
    g = game("a b/c d", "x1:i3@a/b y1:i3@b/a x2:i3@a/c y2:i3@c")
    assert g.state["phase"] == "assault"
    assert refused(g, {"type": "assault", "approach": "a/c"}) == (
        "refusal.al_no_blocker",
        {"place": "L-c → L-a"},
        "L-a → L-c",
    )
    assert refused(g, {"type": "assault", "approach": "b/a"}) == (
        "refusal.al_none_there",
        {"place": "L-b → L-a"},
        "L-b → L-a",
    )
    # "at least one chosen piece must have 2 or more steps": x3 (1 step) may not lead.
    g = game("a b/c d", "x1:i3@a/b y1:i3@b/a x3:i1@a/c y3:i3@c/a")
    assert refused(g, {"type": "assault", "approach": "a/c"}) == (
        "refusal.al_no_leader",
        {"place": "L-a → L-c", "steps": 2},
        "L-a → L-c",
    )
