"""area-locale play on small hand-made maps: commands, every movement case, roads, cavalry
moving on, maneuver attacks, assaults (table-driven), retreats, bombardment, the turn, and
two properties over random games of the demo (hidden blocks never in a side's view; every
playout ends and its save replays).

Maps come from one-line specs (see ``scenario_data``): ``"a b c d"`` is a strip, ``"a b c/d e f"``
a 2x3 grid (rows split by ``/``); neighbours in a row or a column are joined by two narrow
approaches of effect 0 unless told otherwise. Units are ``"id:KS@place"``: the side is the
id's first letter (``x`` moves first, ``y``), K is i(nfantry), c(avalry) or g(un: artillery),
S the steps, place ``"b"`` (the reserve of b) or ``"b/c"`` (the approach of b facing c).
Rule text quoted in the comments is from rules/area-locale.md ("the notes").
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from playouts import random_playout

from muster.errors import IllegalActionError
from muster.game import Game
from muster.scenario import load_builtin, parse_scenario
from muster.systems.area_locale.rules import RULES

KINDS = {"i": "infantry", "c": "cavalry", "g": "artillery"}

# -- building maps --------------------------------------------------------------------------------


def _approach_spec(spec: dict[str, Any], code: str) -> None:
    """Apply a short code to an approach: n/w width, a digit the effect, i impassable,
    c cavalry_obstructed."""
    for ch in code:
        if ch in "nw":
            spec["width"] = "narrow" if ch == "n" else "wide"
        elif ch.isdigit():
            spec["effect"] = int(ch)
        else:
            spec.setdefault("flags", []).append({"i": "impassable", "c": "cavalry_obstructed"}[ch])


def scenario_data(
    layout: str = "a b c d",
    units: str = "",
    ap: dict[str, str] | None = None,
    roads: tuple[str, ...] = (),
    cap: int = 3,
    caps: dict[str, int] | None = None,
    obj: dict[str, int] | None = None,
    turns: int | None = None,
    links: str | None = None,
    seq: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON of a small area scenario.

    ``seq`` is the scenario's ``overrides.sequence`` (a reading other than the default).
    ``ap`` sets approaches: key ``"a/b"`` (one side) or ``"a-b"`` (both sides), value a code
    for ``_approach_spec`` (``"w1"`` wide, effect 1; ``"i"`` impassable). ``roads`` are
    ``"P a b c"`` (primary) or ``"S a b"`` (secondary). ``links`` (``"a-b b-c"``) replaces the
    default joins of neighbours in the layout.
    """
    cells = {
        lid: (x, y) for y, row in enumerate(layout.split("/")) for x, lid in enumerate(row.split())
    }
    locales = []
    for lid, (x, y) in cells.items():
        square = [
            [10 * x, 10 * y],
            [10 * x + 10, 10 * y],
            [10 * x + 10, 10 * y + 10],
            [10 * x, 10 * y + 10],
        ]
        loc: dict[str, Any] = {"id": lid, "name": f"L-{lid}", "polygon": square, "capacity": cap}
        loc["capacity"] = (caps or {}).get(lid, cap)
        if obj and lid in obj:
            loc["objective"] = obj[lid]
        locales.append(loc)
    if links is None:
        pairs = [
            (a, b)
            for a, (ax, ay) in cells.items()
            for b, (bx, by) in cells.items()
            if a < b and abs(ax - bx) + abs(ay - by) == 1
        ]
    else:
        pairs = [tuple(link.split("-")) for link in links.split()]
    approaches: dict[str, dict[str, Any]] = {}
    for a, b in pairs:
        for p, q in ((a, b), (b, a)):
            approaches[f"{p}/{q}"] = {"from": p, "facing": q, "width": "narrow", "effect": 0}
    for key, code in (ap or {}).items():
        if "/" in key:
            _approach_spec(approaches[key], code)
        else:
            p, q = key.split("-")
            _approach_spec(approaches[f"{p}/{q}"], code)
            _approach_spec(approaches[f"{q}/{p}"], code)
    unit_specs = []
    for text in units.split():
        uid, rest = text.split(":")
        code, place = rest.split("@")
        locale, _, facing = place.partition("/")
        unit_specs.append(
            {
                "id": uid,
                "side": uid[0],
                "type": KINDS[code[0]],
                "name": f"Unit {uid}",
                "steps": int(code[1:]),
                "locale": locale,
                "approach": facing or None,
            }
        )
    data: dict[str, Any] = {
        "format": "muster-scenario/1",
        "id": "t",
        "system": "area-locale",
        "title": "t",
        "map": {
            "kind": "areas",
            "width": 100,
            "height": 100,
            "locales": locales,
            "approaches": list(approaches.values()),
            "roads": [
                {"kind": {"P": "primary", "S": "secondary"}[r.split()[0]], "locales": r.split()[1:]}
                for r in roads
            ],
        },
        "sides": [{"id": "x", "name": "X"}, {"id": "y", "name": "Y"}],
        "units": unit_specs,
    }
    if turns is not None:
        data["turns"] = turns
    if seq is not None:
        data["overrides"] = {"sequence": seq}
    return data


def game(layout: str = "a b c d", units: str = "", **kw: Any) -> Game:
    """A new game of a small scenario, side x to play."""
    return Game.start(parse_scenario(scenario_data(layout, units, **kw)), RULES, 1)


# -- driving --------------------------------------------------------------------------------------


def of_type(g: Game, kind: str) -> list[dict[str, Any]]:
    """The legal actions of one type."""
    return [a for a in g.legal_actions() if a["type"] == kind]


def where(g: Game, pid: str) -> str:
    """A piece's place: "b", "b/c", or "out"."""
    p = g.state["pieces"][pid]
    if p["out"]:
        return "out"
    return p["locale"] if p["approach"] is None else f"{p['locale']}/{p['approach']}"


def steps(g: Game, pid: str) -> int:
    """A piece's steps (0 once eliminated)."""
    p = g.state["pieces"][pid]
    return 0 if p["out"] else p["steps"]


def select(g: Game, *ids: str) -> dict[str, bool]:
    """Select a group; where it may move, with True for a maneuver attack."""
    for pid in ids:
        g.apply({"type": "select", "unit": pid})
    return {a["to"]: a.get("attack", False) for a in of_type(g, "move")}


def move(g: Game, ids: str, to: str, attack: bool = False) -> int:
    """Move a group (ids split by spaces); the commands it cost."""
    before = g.state["commands"]
    select(g, *ids.split())
    g.apply({"type": "move", "to": to, **({"attack": True} if attack else {})})
    return before - g.state["commands"]


def end_player_turn_to_movement(g: Game) -> None:
    """From the bombardment or assault phase on to movement, doing nothing there."""
    while g.state["phase"] in ("bombardment", "assault"):
        g.apply({"type": "end_phase"})
    assert g.state["phase"] == "movement"


def end_player_turn(g: Game) -> None:
    """The phasing side ends every phase without doing anything (no decision may be open)."""
    side = g.state["side"]
    while g.state["side"] == side and not g.state["result"]:
        assert g.state["pending"] is None
        ends = [a for a in g.legal_actions() if a["type"] in ("end_phase", "end_turn")]
        assert ends, g.legal_actions()
        g.apply(ends[0])


def pending(g: Game) -> tuple[str, str] | None:
    """The open decision: (kind, deciding side)."""
    p = g.state["pending"]
    return (p["kind"], p["side"]) if p else None


def lost(g: Game, why: str = "assault") -> dict[str, int]:
    """Steps lost so far for ``why`` (assault, retreat, pursuit, bombardment), per side."""
    out = {"x": 0, "y": 0}
    for event in g.log:
        if event["key"] == "log.al_step_lost" and event["params"]["reason"] == why:
            out[event["params"]["side"]] += 1
    return out


def start_assault(g: Game, frm: str, lead: list[str]) -> None:
    """The phasing side assaults from approach ``frm`` with its leading pieces."""
    g.apply({"type": "assault", "approach": frm})
    assert pending(g) == ("lead", g.state["side"])
    g.apply({"type": "lead", "units": lead})


def lead_options(g: Game) -> set[tuple[str, ...]]:
    """The leading-piece choices now open."""
    return {tuple(a["units"]) for a in of_type(g, "lead")}


def no_pursuit(g: Game, side: str = "x") -> None:
    """``side`` is asked whether its cavalry pursues, with no cavalry to offer: it does not."""
    assert (pending(g), g.legal_actions()) == (
        ("pursuit", side),
        [{"type": "pursue", "units": []}],
    )
    g.apply({"type": "pursue", "units": []})


# == 1. commands ==================================================================================


def test_three_commands_a_move_costs_one_and_only_free_moves_at_zero():
    # "3 commands per turn"; "From a reserve: to an adjacent locale: 1 command";
    # "there are no enemy pieces in the locale beyond (then it must move): to the reserve,
    # 0 commands ... or into the locale beyond, 1 command".
    g = game("a b c d", "x1:i3@a x2:i2@a x3:i2@a x4:i2@a/b y1:i3@d", caps={"a": 4, "b": 4})
    assert (g.state["side"], g.state["phase"], g.state["commands"]) == ("x", "movement", 3)
    assert [move(g, pid, "b") for pid in ("x1", "x2", "x3")] == [1, 1, 1]
    assert g.state["commands"] == 0
    # x4 on a/b has no enemy in b: into b would cost 1, so only the free move to a is left.
    assert select(g, "x4") == {"a": False}
    assert {"type": "end_phase"} not in g.legal_actions()  # it must still move
    g.apply({"type": "move", "to": "a"})
    assert (where(g, "x4"), g.state["commands"]) == ("a", 0)
    assert {"type": "end_phase"} in g.legal_actions()


def test_commands_are_three_again_next_turn():
    # "3 commands per turn" for each player turn.
    g = game("a b c", "x1:i3@a y1:i3@c")
    move(g, "x1", "b")
    end_player_turn(g)
    assert (g.state["side"], g.state["commands"]) == ("y", 3)
    end_player_turn(g)
    assert (g.state["turn"], g.state["side"], g.state["commands"]) == (2, "x", 3)


# == 2. movement from a reserve ===================================================================


def test_from_a_reserve_every_case():
    # From a reserve: "to an adjacent locale: 1 command; to the approach facing a locale that
    # holds enemy pieces: 1 command; ... into a locale that holds enemy pieces: 1 command, and
    # this is a Maneuver Attack". a is empty; c holds y1.
    g = game("a b c", "x1:i3@b y1:i3@c")
    assert select(g, "x1") == {"a": False, "b/c": False, "c": True}
    g.apply({"type": "select", "unit": "x1"})  # deselect
    assert move(g, "x1", "b/c") == 1
    assert where(g, "x1") == "b/c"


def test_from_a_reserve_to_an_approach_the_enemy_blocks():
    # "to an approach the enemy is blocking: 1 command": y1 on c/b blocks b/c.
    g = game("a b c", "x1:i3@b y1:i3@c/b")
    assert select(g, "x1")["b/c"] is False  # a move, not an attack
    g.apply({"type": "move", "to": "b/c"})
    assert (where(g, "x1"), g.state["commands"]) == ("b/c", 2)


def test_from_a_reserve_no_approach_facing_an_empty_locale():
    # The approach is a move only when the locale beyond "holds enemy pieces".
    g = game("a b c", "x1:i3@b y1:i3@c")
    assert "b/a" not in select(g, "x1")


def test_maneuver_attack_from_a_reserve_costs_one():
    # "into a locale that holds enemy pieces: 1 command, and this is a Maneuver Attack".
    g = game("a b c d", "x1:i3@a y1:i3@b/c y2:i3@d")
    assert move(g, "x1", "b", attack=True) == 1
    assert where(g, "x1") == "b"  # nobody in b's reserve could block


def test_capacity_respected_by_moves():
    # "Locale capacities" are scenario data: b holds 2; x3 fills it to 2, so a group of two
    # may not go in, one piece may.
    g = game("a b c d", "x1:i3@a x2:i2@a x3:i2@b y1:i3@d", caps={"b": 2})
    assert "b" not in select(g, "x1", "x2")
    g.apply({"type": "select", "unit": "x2"})
    assert select(g) == {"b": False}
    g.apply({"type": "move", "to": "b"})
    assert where(g, "x1") == "b"


def test_impassable_approaches_never_crossed():
    # "impassable" on either side of a border: no move, no approach, no attack across it;
    # a-b is impassable (flag on a/b only), b-c is open.
    g = game("a b c", "x1:i3@a x2:i3@b y1:i3@c", ap={"a/b": "i"})
    assert select(g, "x1") == {}
    g.apply({"type": "select", "unit": "x1"})
    assert "a" not in select(g, "x2")
    # Across an impassable border towards the enemy: neither the approach nor an attack.
    g = game("a b c", "x1:i3@b y1:i3@c", ap={"c/b": "i"})
    assert select(g, "x1") == {"a": False}


# == 3. movement from an approach =================================================================


def test_from_an_approach_the_enemy_blocks_back_to_reserve():
    # "From an approach: the enemy blocks it: back to the reserve, 1 command." (Not into b:
    # that takes an assault.)
    g = game("a b c d", "x1:i3@a/b y1:i3@b/a")
    end_player_turn_to_movement(g)
    assert select(g, "x1") == {"a": False}
    g.apply({"type": "move", "to": "a"})
    assert (where(g, "x1"), g.state["commands"]) == ("a", 2)


def test_from_an_approach_not_blocked_is_a_maneuver_attack():
    # "the enemy does not block it: into the locale beyond, 1 command, a Maneuver Attack";
    # it came from an approach, so y may not block (no decision) and y1 retreats.
    g = game("a b c d", "x1:i3@a/b y1:i3@b")
    assert select(g, "x1") == {"b": True}
    g.apply({"type": "move", "to": "b", "attack": True})
    assert g.state["pending"] is None
    assert (where(g, "x1"), g.state["commands"]) == ("b", 2)
    assert where(g, "y1") == "c"


def test_from_an_approach_no_enemy_beyond_is_compulsory():
    # "there are no enemy pieces in the locale beyond (then it must move): to the reserve,
    # 0 commands, and it counts as moved; or into the locale beyond, 1 command."
    g = game("a b c d", "x1:i3@a/b x2:i2@a/b y1:i3@d")
    assert {"type": "end_phase"} not in g.legal_actions()
    assert select(g, "x1") == {"a": False, "b": False}
    g.apply({"type": "move", "to": "a"})
    assert (where(g, "x1"), g.state["commands"]) == ("a", 3)  # free
    assert {"type": "select", "unit": "x1"} not in g.legal_actions()  # it counts as moved
    assert {"type": "end_phase"} not in g.legal_actions()  # x2 must still move
    assert move(g, "x2", "b") == 1
    assert where(g, "x2") == "b"
    assert {"type": "end_phase"} in g.legal_actions()


# == 4. road movement =============================================================================


def test_road_up_to_three_areas_primary_free():
    # "up to 3 areas (3 steps of movement) along a road"; "along a primary road it costs
    # 0 commands".
    g = game("a b c d e", "x1:i3@a y1:i3@e/d", roads=("P a b c d e",))
    select(g, "x1")
    paths = [a["path"] for a in of_type(g, "road")]
    assert sorted(paths) == [["b"], ["b", "c"], ["b", "c", "d"]]
    g.apply({"type": "road", "unit": "x1", "path": ["b", "c", "d"]})
    assert (where(g, "x1"), g.state["commands"]) == ("d", 3)


def test_road_one_piece_at_a_time():
    # "one piece at a time": a group of two has no road move.
    g = game("a b c d", "x1:i3@a x2:i2@a y1:i3@d/c", roads=("P a b c",))
    select(g, "x1", "x2")
    assert of_type(g, "road") == []
    assert of_type(g, "move")  # it may still move as a group


def test_road_at_most_three_pieces_a_turn():
    # "at most 3 pieces per turn use roads": four pieces one locale apart each step ahead.
    g = game("a b c d e f", "x1:i1@a x2:i1@b x3:i1@c x4:i1@d y1:i3@f/e", roads=("P a b c d e",))
    for pid, to in (("x3", "d"), ("x2", "c"), ("x1", "b")):
        g.apply({"type": "select", "unit": pid})
        g.apply({"type": "road", "unit": pid, "path": [to]})
    assert g.state["roads_used"] == 3
    select(g, "x4")
    assert of_type(g, "road") == []
    assert "e" in select(g)  # an ordinary move is still there


def test_road_not_two_pieces_into_one_locale_at_the_same_step_count():
    # "two pieces may not enter the same locale at the same step count": x1 went a-b-c-d
    # (b at 1, c at 2, d at 3). x3 from a would enter b at 1 again: no road at all. x2 from b
    # enters c at 1, d at 2 and e at 3 (or a at 1): allowed.
    g = game("a b c d e f", "x1:i3@a x2:i2@b x3:i2@a y1:i3@f", roads=("P a b c d e",))
    g.apply({"type": "select", "unit": "x1"})
    g.apply({"type": "road", "unit": "x1", "path": ["b", "c", "d"]})
    select(g, "x3")
    assert of_type(g, "road") == []
    g.apply({"type": "select", "unit": "x3"})
    select(g, "x2")
    paths = sorted(a["path"] for a in of_type(g, "road"))
    assert paths == [["a"], ["c"], ["c", "d"], ["c", "d", "e"]]


def test_road_secondary_costs_one_and_is_not_offered_at_zero():
    # "along a primary road it costs 0 commands (otherwise 1)": a-b primary, b-c secondary;
    # a path using any secondary part costs 1.
    g = game("a b c d", "x1:i3@a x2:i3@a x3:i3@a x4:i2@b y1:i3@d", roads=("P a b", "S b c"))
    g.apply({"type": "select", "unit": "x1"})
    assert sorted(a["path"] for a in of_type(g, "road")) == [["b"], ["b", "c"]]
    g.apply({"type": "road", "unit": "x1", "path": ["b", "c"]})
    assert g.state["commands"] == 2
    move(g, "x2", "b")
    move(g, "x3", "b")
    assert g.state["commands"] == 0
    # x4 in b: to a (primary) is free, to c (secondary) would cost 1: not offered.
    select(g, "x4")
    assert [a["path"] for a in of_type(g, "road")] == [["a"]]
    g.apply({"type": "road", "unit": "x4", "path": ["a"]})
    assert (where(g, "x4"), g.state["commands"]) == ("a", 0)


def test_road_never_into_a_locale_with_the_enemy():
    # "it may not enter a locale holding enemy pieces (no Maneuver Attack by road)".
    g = game("a b c d e", "x1:i3@a y1:i3@c", roads=("P a b c d e",))
    select(g, "x1")
    assert [a["path"] for a in of_type(g, "road")] == [["b"]]


# == 5. cavalry moving on =========================================================================


def test_cavalry_moves_on_to_an_approach_after_entering_a_locale():
    # "Cavalry may move into an approach right after moving into a locale": x1 enters b; c
    # holds the enemy, so the decision "follow" is offered with b/c, for the mover.
    g = game("a b c", "x1:c2@a y1:i3@c")
    assert move(g, "x1", "b") == 1
    assert pending(g) == ("follow", "x")
    assert g.legal_actions() == [{"type": "follow", "to": "c"}, {"type": "follow"}]
    g.apply({"type": "follow", "to": "c"})
    assert (where(g, "x1"), g.state["commands"]) == ("b/c", 2)  # the same command


def test_cavalry_may_stay_and_infantry_never_follows():
    g = game("a b c", "x1:c2@a y1:i3@c")
    move(g, "x1", "b")
    g.apply({"type": "follow"})
    assert (where(g, "x1"), g.state["pending"]) == ("b", None)
    # Infantry alone is offered nothing.
    g = game("a b c", "x2:i2@a y1:i3@c")
    move(g, "x2", "b")
    assert g.state["pending"] is None


def test_the_cavalry_of_a_group_with_infantry_moves_on_and_the_infantry_stays():
    # "Cavalry may move into an approach right after moving into a locale": the notes say
    # cavalry, not a group of cavalry only. x1 (cavalry) and x2 (infantry) enter b together;
    # x1 alone is offered b/c, in the same command; x2 stays in b's reserve.
    g = game("a b c", "x1:c2@a x2:i2@a y1:i3@c")
    assert move(g, "x1 x2", "b") == 1
    assert pending(g) == ("follow", "x")
    assert g.state["pending"]["group"] == ["x1"]
    g.apply({"type": "follow", "to": "c"})
    assert (where(g, "x1"), where(g, "x2"), g.state["commands"]) == ("b/c", "b", 2)


def test_a_scenario_may_let_only_an_all_cavalry_group_move_on():
    # cavalry_follow.group "cavalry_only" (the engine's former reading): a group with infantry
    # is offered nothing; an all-cavalry group still is.
    only = {"cavalry_follow": {"group": "cavalry_only"}}
    g = game("a b c", "x1:c2@a x2:i2@a y1:i3@c", seq=only)
    move(g, "x1 x2", "b")
    assert g.state["pending"] is None
    g = game("a b c", "x1:c2@a x3:c1@a y1:i3@c", seq=only)
    move(g, "x1 x3", "b")
    assert pending(g) == ("follow", "x") and g.state["pending"]["group"] == ["x1", "x3"]


def test_moving_on_costs_what_the_scenario_says():
    # cavalry_follow.cost (default 0, "as part of the same command"): at 1 the move on takes a
    # command of its own, and is not offered when none is left.
    g = game("a b c", "x1:c2@a y1:i3@c", seq={"cavalry_follow": {"cost": 1}})
    move(g, "x1", "b")
    g.apply({"type": "follow", "to": "c"})
    assert (where(g, "x1"), g.state["commands"]) == ("b/c", 1)
    g = game("a b c d", "x1:c2@a x2:i1@d x3:i1@d y1:i3@c", seq={"cavalry_follow": {"cost": 1}})
    move(g, "x2", "d/c")
    move(g, "x3", "d/c")
    move(g, "x1", "b")
    assert (g.state["commands"], g.state["pending"]) == (0, None)


# == 6. maneuver attacks ==========================================================================


def test_maneuver_attack_blocked_by_the_defender():
    # Blocked when "the attacker moved from a reserve; the defender has a piece in the reserve
    # of the attacked locale; the defender chooses to move it to the approach to block".
    # The decision is the defender's; the blocker goes to b/a ("the approach of the
    # defender's locale that faces the attacker's locale"), the attackers stop on a/b.
    g = game("a b c d", "x1:i3@a y1:i2@b y2:i3@d")
    assert move(g, "x1", "b", attack=True) == 1
    assert pending(g) == ("block", "y")
    assert g.legal_actions() == [{"type": "block", "unit": "y1"}, {"type": "block"}]
    g.apply({"type": "block", "unit": "y1"})
    assert (where(g, "x1"), where(g, "y1"), steps(g, "y1")) == ("a/b", "b/a", 2)
    assert g.state["pending"] is None


def test_maneuver_attack_declined_succeeds_and_the_defender_retreats():
    # "Otherwise the attack succeeds (the attacker enters; the defender retreats)"; the
    # reserve's non-cavalry group "loses 1 step and retreats", not into a (the attack came
    # from there): into c.
    g = game("a b c d", "x1:i3@a y1:i2@b y2:i3@d")
    move(g, "x1", "b", attack=True)
    g.apply({"type": "block"})
    assert (where(g, "x1"), where(g, "y1"), steps(g, "y1")) == ("b", "c", 1)
    assert lost(g, "retreat") == {"x": 0, "y": 1}


def test_maneuver_attack_without_a_defender_in_the_reserve_is_not_blockable():
    # The defender has no piece in b's reserve (y1 is on b/c): nothing to decide.
    g = game("a b c d", "x1:i3@a y1:i2@b/c y2:i3@d")
    move(g, "x1", "b", attack=True)
    assert g.state["pending"] is None
    # "Pieces on other approaches: each group loses 1 step and retreats."
    assert (where(g, "x1"), where(g, "y1"), steps(g, "y1")) == ("b", "c", 1)


# == 7. assaults ==================================================================================

# Strip a-b-c: x1 (infantry, A steps) on a/b assaults y1 (infantry, D steps) on b/a; y1 leads
# if ``d_leads`` (else it leads nothing); b/a has effect E; yg (1-step gun) stands on b/a when
# ``gun`` is not None and fires if ``gun``. x9 and y9 keep both sides alive.
# "Result = (attacker's leading steps) - (defender's terrain effect) - (defender's leading
# steps). 1 or more: the attacker wins; 0 or less: the defender wins." Artillery (default):
# "each artillery step removes one step of strength from the attacker's leading pieces".
# "Losses: the winner loses 1 step; the loser loses 1 + |result| steps", beyond every piece
# in the assault they are not taken (sequence.json losses.overflow "lost").
ASSAULTS = [
    # id, A, D, d_leads, E, gun, result, winner, x lost, y lost
    ("win by 1", 3, 2, True, 0, None, 1, "x", 1, 2),  # 3-0-2=1; y loses 2 (y1 2 -> out)
    ("tie: defender wins", 2, 2, True, 0, None, 0, "y", 1, 1),  # 2-0-2=0; x 1+0, y 1
    ("defender wins by 1", 2, 3, True, 0, None, -1, "y", 2, 1),  # x loses 1+1=2: x1 out
    ("terrain turns a win to a tie", 3, 2, True, 1, None, 0, "y", 1, 1),  # 3-1-2=0
    ("terrain, defender leads none", 3, 1, False, 1, None, 2, "x", 1, 1),  # y owes 3, has 1
    ("defender chooses none", 3, 3, False, 0, None, 3, "x", 1, 3),  # y owes 4, has 3
    ("artillery fires", 3, 2, True, 0, True, 0, "y", 1, 1),  # 3-1(gun)-0-2=0
    ("artillery holds its fire", 3, 2, True, 0, False, 1, "x", 1, 2),  # 3-0-0-2=1
    ("big win, overflow lost", 3, 2, False, 0, None, 3, "x", 1, 2),  # y owes 4, has 2
]


@pytest.mark.parametrize(
    "a_steps, d_steps, d_leads, effect, gun, result, winner, x_lost, y_lost",
    [pytest.param(*row[1:], id=row[0]) for row in ASSAULTS],
)
def test_assault_table(a_steps, d_steps, d_leads, effect, gun, result, winner, x_lost, y_lost):
    units = f"x1:i{a_steps}@a/b y1:i{d_steps}@b/a x9:i1@a y9:i1@c"
    if gun is not None:
        units += " yg:g1@b/a"
    g = game("a b c", units, ap={"b/a": str(effect)}, caps={"c": 3})
    assert (g.state["phase"], g.legal_actions()[0]) == (
        "assault",
        {"type": "assault", "approach": "a/b"},
    )
    start_assault(g, "a/b", ["x1"])
    # "if the defender has artillery, it may fire" (step 2), then "the defender chooses and
    # reveals its leading pieces" (step 3): one decision of y's, asked with or without a gun,
    # its guns' fire or hold going with each choice of leading blocks when it has one.
    assert pending(g) == ("lead", "y")
    fires = {a.get("fire") for a in of_type(g, "lead")}
    assert fires == ({None} if gun is None else {False, True})
    lead = {"type": "lead", "units": ["y1"] if d_leads else []}
    g.apply(lead if gun is None else {**lead, "fire": gun})
    if winner == "y" or gun is not None:
        # y1 (or the gun) is left on the attacked approach: x is asked whether its cavalry
        # pursues, as whenever y keeps blocks there, though it has no cavalry; after a defeat
        # too (the notes tie pursuit to no result: sequence.json pursuit.by "attacker").
        no_pursuit(g)
    assert g.state["pending"] is None  # every loss fell on a single piece
    [event] = [e for e in g.log if e["key"] == "log.al_result"]
    assert (event["params"]["result"], event["params"]["winner"]) == (result, winner)
    assert lost(g) == {"x": x_lost, "y": y_lost}
    assert g.state["commands"] == 2  # "An assault ... 1 command"
    assert g.state["assault"] is None
    # Every loss fell on x1 and y1 (the gun yg never had to take one).
    assert (steps(g, "x1"), steps(g, "y1")) == (a_steps - x_lost, d_steps - y_lost)
    alive = {pid: steps(g, pid) > 0 for pid in ("x1", "y1")}
    if winner == "y":
        # "if the defender wins it stays on the approach and every attacking piece goes back
        # to its reserve".
        assert where(g, "y1") == "b/a"
        assert where(g, "x1") == ("a" if alive["x1"] else "out")
        if gun is not None:
            assert where(g, "yg") == "b/a"
    else:
        # "every defending piece in that locale ... retreats, and every attacking piece moves
        # into the reserve of the defender's locale"; "Artillery is eliminated."
        assert where(g, "x1") == "b"
        assert where(g, "y1") == ("c" if alive["y1"] else "out")
        if gun is not None:
            assert where(g, "yg") == "out"


def test_assault_needs_an_enemy_blocking_and_a_piece_that_may_lead():
    # "An assault is made from an approach against the enemy approach blocking it"; "at least
    # one chosen piece must have 2 or more steps": x1 (1 step) alone may not assault.
    g = game("a b c", "x1:i1@a/b x2:i3@a y1:i3@b/a")
    assert g.state["phase"] == "movement"  # nothing to assault: the phase passed by itself
    g = game("a b c", "x1:i3@a/b y1:i3@b x9:i3@c/b")
    assert of_type(g, "assault") == []  # y1 is in the reserve, not blocking a/b


def test_leading_pieces_narrow_one_wide_two_no_mixing_one_strong():
    # "1 on a narrow approach, up to 2 on a wide one; infantry or cavalry; two may not mix
    # infantry and cavalry; at least one chosen piece must have 2 or more steps."
    units = "x1:i3@a/b x2:i1@a/b x3:c2@a/b x4:i1@a/b xg:g1@a/b y1:i3@b/a y2:i1@b/a"
    g = game("a b c", units, caps={"a": 5})
    g.apply({"type": "assault", "approach": "a/b"})
    assert lead_options(g) == {("x1",), ("x3",)}  # narrow: one, of 2+ steps, never the gun
    g = game("a b c", units, caps={"a": 5}, ap={"a-b": "w"})
    g.apply({"type": "assault", "approach": "a/b"})
    assert lead_options(g) == {("x1",), ("x3",), ("x1", "x2"), ("x1", "x4")}
    # "The defender chooses and reveals its leading pieces: 1 on a narrow approach, up to 2 on
    # a wide one; infantry or cavalry; two may not mix infantry and cavalry; it may choose
    # none" (the notes give the 2-step line to the attacker only): y2 (1 step) may lead alone.
    g.apply({"type": "lead", "units": ["x1", "x2"]})
    assert g.state["pieces"]["x1"]["revealed"] and g.state["pieces"]["x2"]["revealed"]
    assert pending(g) == ("lead", "y")
    assert lead_options(g) == {(), ("y1",), ("y2",), ("y1", "y2")}


@pytest.mark.parametrize("width", ["n", "w"])
def test_a_defender_may_lead_one_step_blocks_an_attacker_may_not(width):
    # Step 1, the attacker: "at least one chosen piece must have 2 or more steps"; step 3, the
    # defender: no such line. x1 and y1 are 1-step infantry, x2 a 2-step one; y2 1-step cavalry.
    units = "x1:i1@a/b x2:i2@a/b y1:i1@b/a y2:c1@b/a y3:i1@b/a"
    g = game("a b c", units, ap={"a-b": width})
    g.apply({"type": "assault", "approach": "a/b"})
    attacker = {("x2",), ("x1", "x2")} if width == "w" else {("x2",)}
    assert lead_options(g) == attacker
    g.apply({"type": "lead", "units": ["x2"]})
    defender = {(), ("y1",), ("y2",), ("y3",)}
    if width == "w":
        defender |= {("y1", "y3")}  # two, not mixed: y2 is cavalry
    assert lead_options(g) == defender
    g.apply({"type": "lead", "units": ["y1"]})  # 2 - 0 - 1 = 1: x wins
    [event] = [e for e in g.log if e["key"] == "log.al_result"]
    assert (event["params"]["defence"], event["params"]["winner"]) == (1, "x")


def test_a_scenario_may_give_the_two_step_line_to_the_defender_too():
    # leading.strong_for ["attacker", "defender"] (the engine's former reading).
    seq = {"leading": {"strong_for": ["attacker", "defender"]}}
    g = game("a b c", "x2:i2@a/b y1:i1@b/a y3:i2@b/a", ap={"a-b": "w"}, seq=seq)
    g.apply({"type": "assault", "approach": "a/b"})
    g.apply({"type": "lead", "units": ["x2"]})
    assert lead_options(g) == {(), ("y3",), ("y1", "y3")}


def test_cavalry_obstructed_approach_cavalry_may_not_lead():
    g = game("a b c", "x1:c2@a/b x2:i2@a/b y1:i3@b/a", ap={"b/a": "c"})
    g.apply({"type": "assault", "approach": "a/b"})
    assert lead_options(g) == {("x2",)}


def test_losses_enemy_chooses_among_several_leaders():
    # "Among several leading pieces the enemy chooses": wide a/b, x1+x2 (2+2) lead against
    # y1 (3) behind effect 2: 4-2-3 = -1, x loses 2, y chooses each step; y loses 1.
    g = game("a b c", "x1:i2@a/b x2:i2@a/b y1:i3@b/a", ap={"a-b": "w", "b/a": "w2"})
    start_assault(g, "a/b", ["x1", "x2"])
    g.apply({"type": "lead", "units": ["y1"]})
    assert pending(g) == ("loss", "y")
    assert g.state["pending"]["options"] == ["x1", "x2"]
    g.apply({"type": "take_step", "unit": "x1"})
    assert pending(g) == ("loss", "y")
    g.apply({"type": "take_step", "unit": "x1"})
    assert (steps(g, "x1"), steps(g, "x2"), steps(g, "y1")) == (0, 2, 2)
    no_pursuit(g)
    assert (where(g, "x2"), g.state["pending"]) == ("a", None)


def test_losses_overflow_leaders_owner_chooses_among_the_others():
    # "Leading pieces lose steps first; when they are gone, the other pieces lose the rest ...
    # among several other pieces the owner chooses": x1 (2) leads, x2 x3 follow; y1 (3) behind
    # effect 1: 2-1-3 = -2, x loses 3: x1's 2 steps, then one of x2/x3 chosen by x.
    g = game("a b c", "x1:i2@a/b x2:i2@a/b x3:i2@a/b y1:i3@b/a", ap={"b/a": "1"})
    start_assault(g, "a/b", ["x1"])
    g.apply({"type": "lead", "units": ["y1"]})
    assert steps(g, "x1") == 0
    assert pending(g) == ("loss", "x")
    assert g.state["pending"]["options"] == ["x2", "x3"]
    g.apply({"type": "take_step", "unit": "x3"})
    assert (steps(g, "x2"), steps(g, "x3"), steps(g, "y1")) == (2, 1, 2)
    no_pursuit(g)
    assert where(g, "x2") == where(g, "x3") == "a"


def test_cavalry_pursuit():
    # "if the winner has cavalry that did not lead and the loser has no cavalry, it may pursue
    # ... The pursued side's terrain effect applies; the pursued side loses as many steps as
    # the pursuing cavalry has; the pursuing cavalry loses 1 step."
    # Wide, effect 1: x1+x2 (3+3) - 1 - y1 (3) = 2: x loses 1 (y picks x1), y loses 3 (y1 out).
    # x3 (2 steps) pursues: y2 loses 2-1 = 1, x3 loses 1. Then y2, on the attacked approach,
    # retreats without loss to c and x1 x2 x3 enter b.
    units = "x1:i3@a/b x2:i3@a/b x3:c2@a/b y1:i3@b/a y2:i3@b/a"
    g = game("a b c", units, ap={"a-b": "w", "b/a": "w1"})
    start_assault(g, "a/b", ["x1", "x2"])
    g.apply({"type": "lead", "units": ["y1"]})
    assert pending(g) == ("loss", "y")
    g.apply({"type": "take_step", "unit": "x1"})
    assert pending(g) == ("pursuit", "x")
    assert g.legal_actions() == [
        {"type": "pursue", "units": ["x3"]},
        {"type": "pursue", "units": []},
    ]
    g.apply({"type": "pursue", "units": ["x3"]})
    assert lost(g, "pursuit") == {"x": 1, "y": 1}
    got = {pid: (where(g, pid), steps(g, pid)) for pid in ("x1", "x2", "x3", "y1", "y2")}
    assert got == {
        "x1": ("b", 2),
        "x2": ("b", 3),
        "x3": ("b", 1),
        "y1": ("out", 0),
        "y2": ("c", 2),
    }


@pytest.mark.parametrize(
    "width, options",
    [("n", [["x2"], ["x3"]]), ("w", [["x2"], ["x3"], ["x2", "x3"]])],
    ids=["narrow: 1", "wide: up to 2"],
)
def test_pursuit_one_on_narrow_two_on_wide(width, options):
    # "1 piece on a narrow approach, up to 2 on a wide one"; the leading x1 may not pursue.
    # 3-0-2 = 1: x wins, y1 (leading, 2 steps) is out and y2 is left to pursue.
    units = "x1:i3@a/b x2:c1@a/b x3:c1@a/b y1:i2@b/a y2:i3@b/a"
    g = game("a b c", units, ap={"a-b": width})
    start_assault(g, "a/b", ["x1"])
    g.apply({"type": "lead", "units": ["y1"]})
    assert pending(g) == ("pursuit", "x")
    assert [a["units"] for a in g.legal_actions()] == options + [[]]


def test_no_pursuit_when_the_loser_has_cavalry_or_by_the_defender():
    # The loser y2 is cavalry: "if the defending side has no cavalry, pursuit is possible", so
    # none. x is asked all the same (the question may not tell it what y2 is): its pursuit
    # stops, nothing is lost, and x2 stays hidden. And "only the winning attacker pursues".
    g = game("a b c", "x1:i3@a/b x2:c2@a/b y1:i2@b/a y2:c2@b/a", ap={"a-b": "w"})
    start_assault(g, "a/b", ["x1"])
    g.apply({"type": "lead", "units": ["y1"]})  # 3-0-2 = 1: x wins, y1 out
    assert pending(g) == ("pursuit", "x")
    assert g.legal_actions() == [
        {"type": "pursue", "units": ["x2"]},
        {"type": "pursue", "units": []},
    ]
    g.apply({"type": "pursue", "units": ["x2"]})
    assert g.state["pending"] is None
    assert lost(g, "pursuit") == {"x": 0, "y": 0}
    assert [e["params"] for e in g.log if e["key"] == "log.al_pursuit_stopped"] == [{"side": "x"}]
    assert not g.state["pieces"]["x2"]["revealed"] and not g.state["pieces"]["y2"]["revealed"]
    assert (where(g, "x2"), where(g, "y2"), steps(g, "y2")) == ("b", "c", 2)
    # pursuit.by "winning_attacker" (the engine's former reading): after y wins nobody pursues.
    seq = {"pursuit": {"by": "winning_attacker"}}
    g = game("a b c", "x1:i2@a/b y1:i3@b/a y2:c2@b/a x9:i1@a", seq=seq)
    start_assault(g, "a/b", ["x1"])
    g.apply({"type": "lead", "units": ["y1"]})  # 2-0-3 = -1: y wins
    assert g.state["pending"] is None
    assert (lost(g, "pursuit"), steps(g, "y2")) == ({"x": 0, "y": 0}, 2)


def test_the_attackers_cavalry_may_pursue_after_a_defeat():
    # "if there is cavalry not used as leading pieces, and the defending side has no cavalry,
    # pursuit is possible": no word of who won. x1 (2) leads against y1 (3): 2-0-3 = -1, y wins;
    # x1 loses 2 (out), y1 1. x2 (cavalry, 2 steps) pursues: y1 loses 2 - 0 = 2 (out), x2
    # loses 1 and goes back to a with the attackers.
    g = game("a b c", "x1:i2@a/b x2:c2@a/b y1:i3@b/a y9:i1@c", ap={"a-b": "w"})
    start_assault(g, "a/b", ["x1"])
    g.apply({"type": "lead", "units": ["y1"]})
    assert pending(g) == ("pursuit", "x")
    assert g.legal_actions() == [
        {"type": "pursue", "units": ["x2"]},
        {"type": "pursue", "units": []},
    ]
    g.apply({"type": "pursue", "units": ["x2"]})
    assert lost(g, "pursuit") == {"x": 1, "y": 2}
    got = {pid: (where(g, pid), steps(g, pid)) for pid in ("x1", "x2", "y1")}
    assert got == {"x1": ("out", 0), "x2": ("a", 1), "y1": ("out", 0)}
    assert g.state["pending"] is None and g.state["assault"] is None


def test_a_scenario_may_let_the_winner_pursue_whoever_it_is():
    # pursuit.by "winner": y wins (2-0-3 = -1) and its cavalry y2, which did not lead, pursues
    # x1 (no cavalry) across x's approach a/b of effect 1: x loses 2 - 1 = 1, y2 loses 1.
    seq = {"pursuit": {"by": "winner"}}
    units = "x1:i2@a/b x8:i2@a/b y1:i3@b/a y2:c2@b/a y9:i1@c"
    g = game("a b c", units, ap={"a-b": "w", "a/b": "w1"}, seq=seq, caps={"a": 4})
    start_assault(g, "a/b", ["x1"])
    g.apply({"type": "lead", "units": ["y1"]})  # x1 loses 2: out; y1 loses 1
    assert pending(g) == ("pursuit", "y")
    assert g.legal_actions() == [
        {"type": "pursue", "units": ["y2"]},
        {"type": "pursue", "units": []},
    ]
    g.apply({"type": "pursue", "units": ["y2"]})
    assert lost(g, "pursuit") == {"x": 1, "y": 1}
    got = {pid: (where(g, pid), steps(g, pid)) for pid in ("x1", "x8", "y1", "y2")}
    assert got == {"x1": ("out", 0), "x8": ("a", 1), "y1": ("b/a", 2), "y2": ("b/a", 1)}


def test_no_entry_into_a_locale_won_by_assault_this_turn():
    # "No piece that did not take part may enter a locale won by assault in the same turn":
    # x5 in a may not follow into b this turn, by move or by road; next turn it may.
    g = game("a b c d", "x1:i3@a/b x5:i2@a y1:i2@b/a y9:i3@d", roads=("P a b c",))
    start_assault(g, "a/b", ["x1"])
    g.apply({"type": "lead", "units": ["y1"]})  # 3-0-2 = 1: x wins, y1 out
    assert (where(g, "x1"), g.state["won"]) == ("b", ["b"])
    g.apply({"type": "end_phase"})
    assert select(g, "x5") == {}
    assert of_type(g, "road") == []
    g.apply({"type": "select", "unit": "x5"})
    end_player_turn(g)
    end_player_turn(g)
    assert select(g, "x5") == {"b": False}


def test_a_demoralized_army_may_not_assault():
    # Public summaries (sequence.json army_morale): "a demoralized army (morale 0 or less)
    # cannot assault".
    data = scenario_data("a b c", "x1:i3@a/b y1:i3@b/a")
    data["sides"][0]["army_morale"] = 0
    g = Game.start(parse_scenario(data), RULES, 1)
    assert (g.state["phase"], of_type(g, "assault")) == ("movement", [])


# == 8. retreats ==================================================================================


def test_every_defender_in_the_locale_retreats_by_its_place():
    # Grid  a b c / d e f.  x1 on e/b assaults b; x9 holds a. y1 (2, leads) and y6 (3) on b/e,
    # y2 on b/c, y3 (infantry) and y4 (cavalry) in b's reserve, the gun y5 on b/a.
    # 3-0-2 = 1: x wins; x1 loses 1, y loses 2 (y1 out). Then, the notes: "Artillery is
    # eliminated" (y5); "Pieces on the attacked approach retreat without step loss" (y6 keeps
    # 3); "Pieces on other approaches: each group loses 1 step" (y2 2 -> 1); "Pieces in the
    # reserve, other than cavalry: the group loses 1 step" (y3 2 -> 1, y4 keeps 2). Not into a
    # (enemy), not into e (the attack came from there): every group goes to c.
    units = "x1:i3@e/b x9:i2@a y1:i2@b/e y6:i3@b/e y2:i2@b/c y3:i2@b y4:c2@b y5:g1@b/a"
    g = game("a b c/d e f", units, caps={"b": 6, "c": 4})
    start_assault(g, "e/b", ["x1"])
    g.apply({"type": "lead", "units": ["y1"]})
    # y6 is left on the attacked approach: x is asked about pursuit (it has no cavalry).
    assert (pending(g), g.legal_actions()) == (("pursuit", "x"), [{"type": "pursue", "units": []}])
    g.apply({"type": "pursue", "units": []})
    # The reserve group (two blocks) loses a step: y is asked which, though only y3 may take
    # it (y4 is cavalry); asked as it would be for two infantry blocks, which x cannot tell.
    assert pending(g) == ("group_loss", "y")
    assert g.legal_actions() == [{"type": "take_step", "unit": "y3"}]
    g.apply({"type": "take_step", "unit": "y3"})
    assert g.state["pending"] is None
    got = {pid: (where(g, pid), steps(g, pid)) for pid in ("y1", "y2", "y3", "y4", "y5", "y6")}
    assert got == {
        "y1": ("out", 0),
        "y2": ("c", 1),
        "y3": ("c", 1),
        "y4": ("c", 2),
        "y5": ("out", 0),
        "y6": ("c", 3),
    }
    assert (where(g, "x1"), steps(g, "x1")) == ("b", 2)
    assert lost(g, "retreat") == {"x": 0, "y": 2}


def test_retreat_choice_is_the_owners():
    # Grid: x1 on e/b attacks b (not blocked: from an approach); y1's group may go to a or c,
    # never e; y chooses. An all-cavalry reserve group loses nothing.
    g = game("a b c/d e f", "x1:i3@e/b y1:c2@b y9:i3@f/c")
    move(g, "x1", "b", attack=True)
    assert pending(g) == ("retreat", "y")
    assert g.legal_actions() == [{"type": "retreat", "to": "a"}, {"type": "retreat", "to": "c"}]
    g.apply({"type": "retreat", "to": "a"})
    assert (where(g, "y1"), steps(g, "y1"), where(g, "x1")) == ("a", 2, "b")


def test_reserve_group_loses_one_step_chosen_by_its_owner():
    # "the group loses 1 step": one step for the two, y choosing which.
    g = game("a b c d", "x1:i3@a/b y1:i2@b y2:i3@b y9:i1@d")
    move(g, "x1", "b", attack=True)
    assert pending(g) == ("group_loss", "y")
    g.apply({"type": "take_step", "unit": "y2"})
    assert {pid: (where(g, pid), steps(g, pid)) for pid in ("y1", "y2")} == {
        "y1": ("c", 2),
        "y2": ("c", 2),
    }


@pytest.mark.parametrize(
    "extra, kw",
    [
        ("x8:i2@c", {}),  # "may not go into a locale that holds enemy pieces"
        ("y8:i1@c", {"caps": {"c": 1}}),  # "or a locale already at its capacity"
        ("y8:i1@d", {"ap": {"b/c": "i"}}),  # nor across an impassable border
    ],
    ids=["enemy", "capacity", "impassable"],
)
def test_a_group_that_cannot_retreat_is_eliminated(extra, kw):
    # b's neighbours are a (the attack came from there) and c. "A piece that cannot retreat is
    # eliminated (default)."
    g = game("a b c d", f"x1:i3@a/b y1:i3@b y9:i1@d {extra}", **kw)
    move(g, "x1", "b", attack=True)
    assert (where(g, "y1"), where(g, "x1")) == ("out", "b")
    assert g.state["result"] is None  # y still has pieces


def test_retreat_into_free_room_when_there_is_some():
    # The same as above with room for one more in c: the group loses its step and goes there.
    g = game("a b c d", "x1:i3@a/b y1:i3@b y8:i1@c", caps={"c": 2})
    move(g, "x1", "b", attack=True)
    assert (where(g, "y1"), steps(g, "y1")) == ("c", 2)


# == 9. bombardment ===============================================================================


def declare_then_bombard(g: Game, gun: str = "x1") -> None:
    """x declares with ``gun`` at the end of turn 1, y passes, x bombards at turn 2."""
    end_player_turn_to_movement(g)
    g.apply({"type": "end_phase"})
    assert g.state["phase"] == "declaration"
    g.apply({"type": "declare", "unit": gun})
    g.apply({"type": "end_turn"})
    end_player_turn(g)
    assert (g.state["turn"], g.state["side"], g.state["phase"]) == (2, "x", "bombardment")
    g.apply({"type": "bombard", "unit": gun})


@pytest.mark.parametrize(
    "targets, hit",
    [
        ("y1:i3@b/a y2:i3@b y3:i3@b/c", "y1"),  # "the approach it faces first"
        ("y2:i3@b y3:i3@b/c", "y2"),  # "if that approach is empty, the reserve"
        ("y3:i3@b/c", "y3"),  # "if the reserve is empty too, another approach"
    ],
    ids=["faced approach", "reserve", "other approach"],
)
def test_bombardment_target_priority(targets, hit):
    # x7 in c keeps y3 on b/c from having to move. Effects 0: the gun's 1 step is 1 lost.
    g = game("a b c", f"x1:g1@a/b x7:i1@c {targets}")
    declare_then_bombard(g)
    got = {pid: steps(g, pid) for pid in ("y1", "y2", "y3") if pid in g.state["pieces"]}
    assert got == {pid: 2 if pid == hit else 3 for pid in got}
    assert lost(g, "bombardment") == {"x": 0, "y": 1}


@pytest.mark.parametrize("effect, loss", [(0, 1), (1, 0)])
def test_bombardment_terrain_effect_subtracted(effect, loss):
    # "the defender loses as many steps as the artillery has (minus the terrain effect, at
    # least 0)".
    g = game("a b c", "x1:g1@a/b y1:i3@b/a", ap={"b/a": str(effect)})
    declare_then_bombard(g)
    assert steps(g, "y1") == 3 - loss


def test_bombardment_several_targets_owner_chooses():
    g = game("a b c", "x1:g1@a/b y1:i3@b/a y2:i2@b/a")
    declare_then_bombard(g)
    assert pending(g) == ("loss", "y")
    g.apply({"type": "take_step", "unit": "y2"})
    assert (steps(g, "y1"), steps(g, "y2")) == (3, 1)


def test_declaration_reveals_and_a_gun_that_bombarded_may_not_move_or_declare():
    # "At the end of its turn a player reveals the artillery that declares a bombardment";
    # "artillery that bombarded this turn may not declare"; "Artillery that bombards may not
    # move".
    g = game("a b c", "x1:g1@a/b x2:i2@a y1:i3@b/a")
    hidden = [b for b in RULES.view_for(g.scenario, g.state, "y")["blocks"] if b["side"] == "x"]
    assert all(b["hidden"] and "type" not in b for b in hidden)
    g.apply({"type": "end_phase"})
    assert of_type(g, "declare") == [{"type": "declare", "unit": "x1"}]
    g.apply({"type": "declare", "unit": "x1"})
    seen = {b["id"]: b for b in RULES.view_for(g.scenario, g.state, "y")["blocks"]}
    assert seen["x1"]["type"] == "artillery" and seen["x1"]["revealed"]
    g.apply({"type": "end_turn"})
    end_player_turn(g)
    g.apply({"type": "bombard", "unit": "x1"})
    assert steps(g, "y1") == 2
    g.apply({"type": "end_phase"})
    assert g.state["phase"] == "movement"
    assert {"type": "select", "unit": "x1"} not in g.legal_actions()
    assert {"type": "select", "unit": "x2"} in g.legal_actions()
    g.apply({"type": "end_phase"})
    # y1 still faces x1, yet x1 may not declare: with nothing to declare the turn passed.
    assert (g.state["side"], g.state["pieces"]["x1"]["declared"]) == ("y", False)


def test_a_gun_in_a_reserve_has_no_target_to_declare():
    # "Target: the approach it faces first; if that approach is empty, the reserve; ...": a gun
    # in a reserve faces nothing. (x1 had to leave a/b: no enemy beyond it.)
    g = game("a b c d", "x1:g1@a/b x2:i3@a y1:i3@d")
    move(g, "x1", "a")
    g.apply({"type": "end_phase"})
    assert g.state["side"] == "y"  # the declaration phase had nothing and passed


@pytest.mark.parametrize("gun", ["ready", "declared", "bombarded"])
def test_defensive_fire_not_after_a_declaration(gun):
    # "Defensive artillery fire: if the defender has artillery, it may fire, unless that
    # artillery bombarded or declared a bombardment on the previous turn." The defender's one
    # decision is its leading blocks either way; fire or hold goes with it only when it may.
    g = game("a b c", "x1:g1@a/b x2:i2@a/b y1:i3@b/a")
    if gun == "bombarded":
        declare_then_bombard(g)  # x bombards y1 (3 -> 2) at the start of turn 2
        end_player_turn(g)
    else:
        end_player_turn_to_movement(g)
        g.apply({"type": "end_phase"})
        if gun == "declared":
            g.apply({"type": "declare", "unit": "x1"})
        g.apply({"type": "end_turn"})
    assert (g.state["side"], g.state["phase"]) == ("y", "assault")
    start_assault(g, "b/a", ["y1"])
    assert pending(g) == ("lead", "x")
    fires = {a.get("fire") for a in of_type(g, "lead")}
    assert fires == ({False, True} if gun == "ready" else {None})
    assert g.state["pieces"]["x1"]["revealed"] is (gun != "ready")  # a declaration revealed it
    g.apply({"type": "lead", "units": ["x2"], **({"fire": True} if gun == "ready" else {})})
    [event] = [e for e in g.log if e["key"] == "log.al_result"]
    assert event["params"]["artillery"] == (1 if gun == "ready" else 0)
    assert g.state["pieces"]["x1"]["revealed"]  # a gun that fires is revealed


# == 10. the turn =================================================================================


def test_sixteen_turns_first_side_first_then_objectives_decide():
    # Default "16 turns, the first player moves first each turn"; "After the last turn each
    # side scores the objective locales it holds": x holds a (2), y holds d (1).
    g = game("a b c d", "x1:i3@a y1:i3@d", obj={"a": 2, "d": 1})
    assert g.state["turns"] == 16
    order = []
    while not g.state["result"]:
        order.append((g.state["turn"], g.state["side"]))
        end_player_turn(g)
    assert order == [(t, s) for t in range(1, 17) for s in ("x", "y")]
    assert g.state["result"] == {"winner": "x", "points": {"x": 2, "y": 1}}
    assert (g.state["phase"], g.legal_actions()) == ("over", [])


def test_scenario_turns_and_a_locale_stays_held_by_the_last_side_alone_there():
    # "turns": 2. y walks into the objective b (3 points) and out again: "the last side to
    # have pieces there alone" holds it.
    g = game("a b c d", "x1:i3@a y1:i3@c", obj={"b": 3}, turns=2)
    end_player_turn(g)
    move(g, "y1", "b")
    end_player_turn(g)
    end_player_turn(g)
    move(g, "y1", "c")
    assert g.state["held"]["b"] == "y"
    end_player_turn(g)
    assert g.state["turn"] == 2
    assert g.state["result"] == {"winner": "y", "points": {"x": 0, "y": 3}}


def test_equal_points_are_a_draw():
    g = game("a b", "x1:i3@a y1:i3@b", obj={"a": 1, "b": 1}, turns=1)
    end_player_turn(g)
    end_player_turn(g)
    assert g.state["result"] == {"winner": None, "points": {"x": 1, "y": 1}}


def test_a_side_wiped_out_loses_at_once():
    # "A side with no piece left loses at once": y1 (1 step) loses its retreat step.
    g = game("a b c d", "x1:i3@a/b y1:i1@b")
    move(g, "x1", "b", attack=True)
    assert g.state["result"]["winner"] == "x"
    assert g.state["result"]["wiped"] == "y"
    assert (g.state["turn"], g.state["phase"], g.legal_actions()) == (1, "over", [])
    with pytest.raises(IllegalActionError):
        g.apply({"type": "end_phase"})


def test_illegal_actions_are_refused():
    g = game("a b c", "x1:i3@a y1:i3@c")
    with pytest.raises(IllegalActionError):
        g.apply({"type": "move", "to": "b"})  # nothing selected
    select(g, "x1")
    with pytest.raises(IllegalActionError):
        g.apply({"type": "move", "to": "c"})  # not adjacent
    with pytest.raises(IllegalActionError):
        g.apply({"type": "select", "unit": "y1"})  # not its piece


# == 11. hidden information =======================================================================

DEMO = load_builtin("demo-fontanella")
LIMIT = 20000  # actions: a random game of the demo takes a few hundred to a few thousand


def _hidden_leaks(
    view: dict[str, Any], blocks: list[dict[str, Any]], state: dict[str, Any], viewer: str
) -> list[str]:
    """What of the other side's hidden blocks a view shows: their ids or names anywhere in it,
    or hidden blocks with keys they should not have."""
    # Unescaped: an escaped "（" (\uff08, in a Japanese title) holds "f08", a block's id.
    text = json.dumps(view, ensure_ascii=False)
    leaks = []
    for pid, p in state["pieces"].items():
        spec = DEMO.units[pid]
        if spec["side"] == viewer or p["revealed"]:
            continue
        for secret in (pid, json.dumps(spec["name"], ensure_ascii=False)[1:-1]):
            if secret in text:
                leaks.append(f"{pid}: {secret}")
    for block in blocks:
        if block["side"] != viewer and block.get("hidden", True):
            leaks += [f"{block['id']}: {k}" for k in ("steps", "type", "name") if k in block]
            if not str(block["id"]).startswith("hidden-"):
                leaks.append(f"{block['id']}: id")
    return leaks


def test_demo_ids_and_names_are_distinct_words():
    # The substring check below is sound only if no id or name is part of another text.
    texts = [json.dumps(u["name"], ensure_ascii=False)[1:-1] for u in DEMO.units.values()]
    texts += list(DEMO.units)
    texts += [loc.name for loc in DEMO.locales.values()] + list(DEMO.locales)
    for pid, spec in DEMO.units.items():
        for secret in (pid, json.dumps(spec["name"], ensure_ascii=False)[1:-1]):
            assert sum(secret in t for t in texts) == 1, secret


@pytest.mark.parametrize("seed", range(6))
def test_views_never_hold_hidden_blocks(seed):
    rng = random.Random(seed)
    g = Game.start(DEMO, RULES, seed)
    sides = [s["id"] for s in DEMO.data["sides"]]
    hidden_seen = 0
    while not g.state["result"] and len(g.actions) < LIMIT:
        g.apply(rng.choice(g.legal_actions()))
        for viewer in sides:
            view = RULES.view_for(DEMO, g.state, viewer)
            leaks = _hidden_leaks(view, view["blocks"], g.state, viewer)
            assert leaks == [], (seed, len(g.actions), viewer)
            hidden_seen += sum(b["hidden"] for b in view["blocks"])
    assert g.state["result"] and hidden_seen > 0  # the property was put to the test


def _api_blocks(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The blocks of an API game view (the side's view is its "state")."""
    return result["state"]["blocks"]


@pytest.mark.parametrize("seed", [7, 8])
def test_api_game_view_holds_no_hidden_blocks(seed):
    # The same property through the API, with its prompt, log and legal actions; the legal
    # actions are empty for the side that does not decide, and the log holds no line meant for
    # the other side only (which blocks led or declared is in their owner's log alone).
    from muster.api import Session

    s = Session()
    s.call("load_scenario", {"id": "demo-fontanella"})
    started = s.call("new_game", {"seed": seed})
    view = s.call("game_view", {"viewer": "france"})
    assert started["ok"] and view["ok"], (started, view)
    assert view["result"]["viewer"] == "france" and _api_blocks(view["result"])
    rng = random.Random(seed)
    while True:
        state = s.game.state
        for viewer in ("austria", "france"):
            answer = s.call("game_view", {"viewer": viewer})
            assert answer["ok"], answer
            result = answer["result"]
            leaks = _hidden_leaks(result, _api_blocks(result), state, viewer)
            assert leaks == [], (seed, len(s.game.actions), viewer)
            assert all(e.get("to", viewer) == viewer for e in result["log"])
            if state["result"] or RULES.decider(DEMO, state) != viewer:
                assert result["legal"] == []
            else:
                assert result["legal"] == s.game.legal_actions()
        if state["result"] or len(s.game.actions) >= LIMIT:
            break
        acted = s.call("act", {"action": rng.choice(s.game.legal_actions())})
        assert acted["ok"], acted
    assert state["result"]


# -- what is asked tells the other side nothing ---------------------------------------------------
# Whether a decision is asked shows on the tablet (it is handed over), and every view carries the
# kind of the open decision and the prompt: so what is asked, of whom and in which order may
# depend only on what both sides see, never on the other side's hidden blocks.


def seen_by(g: Game, viewer: str) -> dict[str, Any]:
    """What ``viewer``'s screen gets from the API now: its view of the blocks, the side to act,
    the open decision's kind, the prompt, its own log, and its legal actions if it decides."""
    from muster.api import Session

    s = Session()
    s.scenario, s.game = g.scenario, g
    answer = s.call("game_view", {"viewer": viewer})
    assert answer["ok"], answer
    return answer["result"]


def trace(g: Game, script: list[Any], viewer: str) -> tuple[list[tuple], list[dict[str, Any]]]:
    """Play ``script`` (actions; ``"first"``: the first legal action; a lead where guns may fire
    holds their fire); after each action the decision open (side to act, kind, prompt key), and
    ``viewer``'s whole view."""
    asked, views = [], []
    for action in script:
        if action == "first":
            action = g.legal_actions()[0]
        elif action["type"] == "lead" and any("fire" in a for a in of_type(g, "lead")):
            action = {"fire": False, **action}
        g.apply(action)
        seen = seen_by(g, viewer)
        asked.append((seen["state"]["decider"], seen["state"]["pending"], seen["prompt"]["key"]))
        views.append(seen)
    return asked, views


ASSAULT = [
    {"type": "assault", "approach": "a/b"},
    {"type": "lead", "units": ["x1"]},
    {"type": "lead", "units": ["y1"]},
]


def test_the_attacker_cannot_tell_a_gun_that_holds_its_fire():
    # "Defensive artillery fire: if the defender has artillery, it may fire": a question of its
    # own would tell the attacker the gun is there even when it holds. y's third block on b/a
    # is a gun, an infantry or a cavalry block (none may lead: 1 step); y leads y1: 2-0-0-2 = 0,
    # y wins. x's screen is the same all through; the decisions are y's leading blocks alone.
    runs = {}
    for extra in ("yg:g1@b/a", "yz:i1@b/a", "yc:c1@b/a"):
        g = game("a b c", f"x1:i2@a/b x9:i1@a y1:i2@b/a y9:i1@c {extra}")
        runs[extra] = trace(g, ASSAULT, "x")
    asked, views = runs["yg:g1@b/a"]
    assert asked == [
        ("x", {"kind": "lead", "side": "x"}, "prompt.al_lead_attacker"),
        ("y", {"kind": "lead", "side": "y"}, "prompt.al_lead_defender"),
        ("x", {"kind": "pursuit", "side": "x"}, "prompt.al_pursuit"),  # y1 holds b/a
    ]
    assert runs["yz:i1@b/a"] == runs["yc:c1@b/a"] == (asked, views)
    # The gun only changes y's own choices: each of them with fire or hold.
    g = game("a b c", "x1:i2@a/b x9:i1@a y1:i2@b/a y9:i1@c yg:g1@b/a")
    trace(g, ASSAULT[:2], "x")
    assert [(a["units"], a["fire"]) for a in g.legal_actions()] == [
        ([], False),
        (["y1"], False),
        ([], True),
        (["y1"], True),
    ]
    assert seen_by(g, "x")["legal"] == []
    # A gun that fires shows itself (the log, the result, the block): the decisions are the same.
    g.apply({"type": "lead", "units": ["y1"], "fire": True})
    assert (pending(g), g.state["pieces"]["yg"]["revealed"]) == (("pursuit", "x"), True)
    assert [e["params"] for e in g.log if e["key"] == "log.al_artillery_fire"] == [{"steps": 1}]


def test_a_retreating_reserve_group_is_asked_the_same_whatever_its_types():
    # "Pieces in the reserve, other than cavalry: the group loses 1 step and retreats." x1 from
    # a/b takes b (a maneuver attack from an approach: no block); y's reserve group of two loses
    # its step (into c, the only way out). x sees two bare blocks: y is asked which block loses
    # the step whether both may take it or one is cavalry. (An all-cavalry group loses no step,
    # which the log and the army's morale show whatever is asked.)
    script = [
        {"type": "select", "unit": "x1"},
        {"type": "move", "to": "b", "attack": True},
        "first",
    ]
    runs = []
    for group in ("y1:i2@b y2:i2@b", "y1:i2@b y2:c2@b", "y1:c2@b y2:i2@b"):
        g = game("a b c d", f"x1:i3@a/b y9:i1@d {group}")
        runs.append(trace(g, script, "x"))
        assert [where(g, pid) for pid in ("x1", "y1", "y2")] == ["b", "c", "c"]
        assert lost(g, "retreat") == {"x": 0, "y": 1}
    asked = runs[0][0]
    assert asked[1] == ("y", {"kind": "group_loss", "side": "y"}, "prompt.al_group_loss")
    assert runs[1] == runs[2] == runs[0]


def test_pursuit_is_asked_whatever_cavalry_either_side_has():
    # Cavalry pursuit: "if there is cavalry not used as leading pieces, and the defending side
    # has no cavalry, pursuit is possible". Wide a-b: x1 (3) leads against y1 (2): 3-0-2 = 1, x
    # wins, y1 is out, y2 is left on b/a. x is asked whether its cavalry pursues whether x2 is
    # cavalry or not and whether y2 is cavalry or not (a question only for x's cavalry would
    # show y the tablet coming to x between its own decisions; one only for a loser without
    # cavalry would tell x what y2 is). x does not pursue; y2 retreats and x enters b. Neither
    # side's screen shows what the other's second block is.
    script = ASSAULT + [{"type": "pursue", "units": []}]
    runs = {}
    for x2 in ("c2", "i2"):
        for y2 in ("c2", "i2"):
            units = f"x1:i3@a/b x2:{x2}@a/b x9:i1@a y1:i2@b/a y2:{y2}@b/a y9:i1@c"
            runs[x2, y2, "x"] = trace(game("a b c", units, ap={"a-b": "w"}), script, "x")
            runs[x2, y2, "y"] = trace(game("a b c", units, ap={"a-b": "w"}), script, "y")
    asked = runs["c2", "c2", "x"][0]
    assert asked[2] == ("x", {"kind": "pursuit", "side": "x"}, "prompt.al_pursuit")
    assert all(run[0] == asked for run in runs.values())
    for mine in ("c2", "i2"):
        assert runs[mine, "c2", "x"] == runs[mine, "i2", "x"]  # x cannot tell y2's type
        assert runs["c2", mine, "y"] == runs["i2", mine, "y"]  # y cannot tell x2's type


@pytest.mark.parametrize(
    "passes, waits",
    [("x1:i1@a/b x8:i3@a", "x1:i2@a/b x8:i2@a"), ("x1:i1@a/b x8:i3@a", "x1:g1@a/b x8:i3@a")],
    ids=["assault", "declaration"],
)
def test_a_phase_that_passes_by_itself_leaves_the_other_side_no_trace(passes, waits):
    # "A phase with nothing to do passes by itself": the assault phase when no block on an
    # approach may lead (x1 of 1 step may not, of 2 may), the declaration phase when no gun may
    # declare. Passing by itself or ended by a tap, y's screen at the start of its turn 2 is the
    # same: the same log lines since turn 2 began, no count of actions. (Both armies have the
    # same steps: the army's morale, which both sides see, starts at its steps.)
    seen = []
    for units in (passes, waits):
        g = game("a b c", f"{units} y1:i3@b/a")
        for _ in range(3):  # x's turn 1, y's, then x's turn 2
            end_player_turn(g)
        assert (g.state["turn"], g.state["side"], g.state["phase"]) == (2, "y", "assault")
        view = seen_by(g, "y")
        keys = [e["key"] for e in view["log"]]
        seen.append(dict(view, log=view["log"][keys.index("log.turn_start") :]))
    assert seen[0] == seen[1]
    assert seen[0]["summary"]["moves"] is None


# == 12. random playouts ==========================================================================


def test_random_playouts_end_and_replay():
    # 16 playouts of the demo (bench/playouts.py plays 1000): each ends with a result, a legal
    # action is always there until then, and the save replays to the same state.
    seen: set[str] = set()
    for seed in range(16):
        g = random_playout(DEMO, RULES, seed)
        assert g.state["result"]["winner"] in ("austria", "france", None)
        assert g.state["result"]["points"].keys() == {"austria", "france"}
        seen.update(a["type"] for a in g.actions)
    # The playouts went through the game's corners: combat, decisions, roads, guns.
    assert {"assault", "lead", "block", "retreat", "road", "declare", "bombard"} <= seen


# == regressions found by these tests ==============================================================


def test_cavalry_moving_on_after_a_maneuver_attack_comes_after_the_retreat():
    # "the attack succeeds (the attacker enters; the defender retreats)": the defenders retreat
    # first, then the cavalry may move on to an approach facing the enemy.
    g = game("a b c/d e f", "x1:c2@e/b y1:i2@b x2:i1@d y9:i2@c", caps={"c": 3})
    end_player_turn_to_movement(g)
    move(g, "x1", "b", attack=True)  # from an approach: no block
    assert steps(g, "y1") == 1  # the reserve group loses a step, then its owner picks where
    assert pending(g) == ("retreat", "y")  # a or c (not e, where the attack came from)
    g.apply({"type": "retreat", "to": "a"})
    assert where(g, "y1") == "a"
    assert pending(g) == ("follow", "x")  # only now may the cavalry move on
    g.apply({"type": "follow", "to": "c"})
    assert where(g, "x1") == "b/c" and g.state["queue"] == [] and g.state["held"]["b"] == "x"


def test_a_declaration_not_fired_lapses():
    # "At the start of its next turn, artillery that declared may bombard": then, not later.
    g = game("a b", "x1:g1@a/b x2:i2@a y1:i3@b/a y2:i3@b")
    end_player_turn_to_movement(g)
    g.apply({"type": "end_phase"})
    g.apply({"type": "declare", "unit": "x1"})
    g.apply({"type": "end_turn"})
    end_player_turn(g)  # y
    assert {"type": "bombard", "unit": "x1"} in g.legal_actions()
    g.apply({"type": "end_phase"})  # x does not fire
    assert g.state["pieces"]["x1"]["declared"] is False
    end_player_turn(g)  # the rest of x's turn: it declares nothing
    end_player_turn(g)  # y
    assert g.state["turn"] == 3 and not of_type(g, "bombard")


def test_a_maneuver_attack_needs_room_for_the_whole_group():
    g = game("a b", "x1:i3@a x2:i2@a x3:i2@a y1:i2@b", caps={"b": 2})
    end_player_turn_to_movement(g)
    assert select(g, "x1", "x2").get("b") is True
    assert "b" not in select(g, "x3")  # three blocks, room for two


def test_no_maneuver_attack_from_a_reserve_through_a_border_the_enemy_blocks():
    # From an approach, into the locale beyond is a maneuver attack only "[when] the enemy
    # does not block it"; from a reserve the notes give "to an approach the enemy is
    # blocking", and "an assault is made from an approach against the enemy approach blocking
    # it". y1 on b/a blocks the border: x1 may go up to a/b (to assault), not into b; asked
    # anyway, the refusal names the blocked approach and nothing changes.
    g = game("a b c", "x1:i3@a y1:i3@b/a")
    assert select(g, "x1") == {"a/b": False}
    before = g.state["commands"]
    with pytest.raises(IllegalActionError) as refused:
        g.apply({"type": "move", "to": "b", "attack": True})
    why = refused.value.params["why"]
    assert (why["key"], why["params"]["place"]) == ("refusal.al_blocked", "L-b → L-a")
    assert refused.value.place == "L-b"
    assert (where(g, "x1"), where(g, "y1"), g.state["commands"]) == ("a", "b/a", before)
    # Up to the approach, then the assault of the next turn's assault phase.
    g.apply({"type": "move", "to": "a/b"})
    assert where(g, "x1") == "a/b"


def test_a_maneuver_attack_through_a_blocked_border_if_the_scenario_says():
    # maneuver.through_blocked_border true (the default for a time): the reserve's case of the
    # notes read as naming no exception. y1 already on b/a: x1 may still attack b; with
    # nobody in b's reserve it succeeds, and y1, on the attacked approach, retreats without
    # loss.
    seq = {"maneuver": {"through_blocked_border": True}}
    g = game("a b c", "x1:i3@a y1:i3@b/a", seq=seq)
    assert select(g, "x1") == {"a/b": False, "b": True}
    g.apply({"type": "move", "to": "b", "attack": True})
    assert g.state["pending"] is None
    assert (where(g, "x1"), where(g, "y1"), steps(g, "y1")) == ("b", "c", 3)
    # With a piece in b's reserve, y may block: the blocker joins y1 on b/a, x1 stops on a/b.
    g = game("a b c", "x1:i3@a y1:i3@b/a y2:i2@b", seq=seq)
    move(g, "x1", "b", attack=True)
    assert pending(g) == ("block", "y")
    g.apply({"type": "block", "unit": "y2"})
    assert (where(g, "x1"), where(g, "y1"), where(g, "y2")) == ("a/b", "b/a", "b/a")


def test_a_wiped_out_defender_ends_the_game_once():
    g = game("a b c", "x1:i3@a y1:i1@b x2:i1@c")
    end_player_turn_to_movement(g)
    move(g, "x1", "b", attack=True)
    g.apply({"type": "block"})  # y lets it in: its 1-step reserve block loses its step
    assert g.state["result"]["winner"] == "x"
    assert [e["key"] for e in g.log].count("log.game_over") == 1
