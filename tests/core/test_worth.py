"""What a position is worth to Muster (``muster.worth`` and each system's ``evaluation``): every
weight of ``evaluation.json`` is read, and every piece's advance counts, not only the nearest."""

from __future__ import annotations

import json
import random

import pytest

from muster import worth
from muster.game import Game
from muster.hexgrid import axial, hex_distance, hex_neighbors
from muster.opponent import evaluation
from muster.play import objectives
from muster.scenario import load_builtin
from muster.systems import game_rules
from muster.systems.hex_facing import evaluation as facing
from muster.systems.hex_hexside.evaluation import assault, threat

DEMOS = {"hex-facing": "demo-valmont", "hex-hexside": "demo-hohenbrueck"}
DEMOS["area-locale"] = "demo-fontanella"


def positions(scenario_id: str, count: int = 6, step: int = 25) -> list:
    """States of a demo every ``step`` random actions (dice rolled as they come)."""
    sc = load_builtin(scenario_id)
    game = Game.start(sc, game_rules(sc.system), 7)
    rng = random.Random(7)
    found = []
    while len(found) < count and not game.state.get("result"):
        for _ in range(step):
            if game.state.get("result"):
                break
            if game.rules.decider(sc, game.state) is None:
                game.push({"type": "roll"})
            else:
                game.apply(rng.choice(game.legal_actions()))
        found.append(game.state)
    return [sc, found]


class Read(dict):
    """Weights that note which of them were read."""

    def __init__(self, *args):
        super().__init__(*args)
        self.read = set()

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)


@pytest.mark.parametrize("system", sorted(DEMOS))
def test_every_weight_is_read(system, monkeypatch):
    sc, states = positions(DEMOS[system])
    evaluate = evaluation(system, threats=1.0, assaults=1.0)
    side = sc.data["sides"][0]["id"]
    noted = Read(worth.weights(system))
    monkeypatch.setattr(worth, "weights", lambda _system: noted)
    for state in states:
        evaluate(sc, state, side)
        # a unit in each state that weighs on its own (disordered, routed, not in good order)
        for uid in list(state.get("units", {}))[:1]:
            for status in ("disordered", "routed", "disrupted"):
                unit = {**state["units"][uid], "status": status}
                evaluate(sc, {**state, "units": {**state["units"], uid: unit}}, side)
    assert evaluate(sc, {**states[-1], "result": {"winner": side}}, side) == noted["win"]
    assert noted.read == set(noted), set(noted) - noted.read  # none left unread


@pytest.mark.parametrize("system", sorted(DEMOS))
def test_the_worth_of_a_position_is_zero_sum(system):
    sc, states = positions(DEMOS[system])
    a, b = (s["id"] for s in sc.data["sides"])
    for threats in (0.0, 1.0):
        evaluate = evaluation(system, threats)
        for state in states:
            assert evaluate(sc, state, a) == pytest.approx(-evaluate(sc, state, b))


class Memo:
    """A scenario as the hex readings use it: its objectives, a place to keep what they work
    out."""

    def __init__(self, goals):
        self.memo = {}
        self.data = {"objectives": [{"hex": h, "points": p} for h, p in goals]}

    def hex_at(self, h):
        return h


@pytest.mark.parametrize("pieces", [12, 250, 900])
def test_the_hex_readings_of_a_big_battle_are_the_plain_ones(pieces):
    """``hex_objectives`` gives ``reach`` and ``advance``'s values exactly: past
    ``worth.MANY`` pieces the nearest piece to each objective is looked for ring by ring, and
    each hex's distance to the nearest objective is kept, so a battle of 2,000 units is not
    100,000 distances a position. Random battles, crowded and sparse, sides lopsided, pieces
    stacked and on objectives, objectives far from every piece."""
    rng = random.Random(pieces)
    for trial in range(30):
        size = rng.choice([6, 20, 60])

        def spot(size=size):
            return axial(rng.randrange(-size, size), rng.randrange(-size, size))

        goals = [(spot(), rng.choice([1, 2, 3])) for _ in range(rng.randrange(1, 12))]
        share = rng.random()
        near = {"a": [], "b": []}
        for _ in range(pieces):
            near["a" if rng.random() < share else "b"].append(spot())
        if trial % 5 == 0:  # a piece on an objective
            near["a"].append(goals[0][0])
        if trial % 7 == 0:  # one side far away from everything
            near["b"] = [axial(5 * size + rng.randrange(3), 0) for _ in near["b"]] or near["b"]
        scenario = Memo(goals)
        for cap in (1, 4, 6, 8):
            for side in ("a", "b"):
                plain = (
                    worth.reach(goals, near, side, hex_distance, cap),
                    worth.advance(goals, near, side, hex_distance, cap + 2),
                )
                assert worth.hex_objectives(scenario, near, side, (cap, cap + 2)) == plain
                assert worth.hex_objectives(scenario, near, side, (cap, None)) == (plain[0], 0)


class AreaMemo:
    """What area-locale's readings of the objectives ask of a scenario: neighbours and a memo."""

    def __init__(self, neighbors):
        self.neighbors = neighbors
        self.memo = {}


@pytest.mark.parametrize("pieces", [0, 5, 60, 800])
def test_the_area_readings_of_the_objectives_are_the_plain_ones(pieces):
    """area-locale's ``reach`` and ``advance`` look outward from each objective and keep each
    locale's distance to the nearest one (a battle of 2,000 blocks and a hundred objectives is
    not 200,000 distances a position), with the values of ``worth.reach`` and
    ``worth.advance`` measuring every piece against every objective: a piece on an approach
    half a locale from the locale it faces. Random maps of several parts (objectives no piece
    can reach), sides lopsided or empty, pieces stacked, on objectives and on approaches."""
    from muster.systems.area_locale import evaluation as area

    rng = random.Random(pieces)
    for trial in range(40):
        count = rng.choice([3, 12, 80])
        names = [f"l{i}" for i in range(count)]
        neighbors = {n: set() for n in names}
        for _ in range(count * rng.choice([1, 2])):
            a, b = rng.sample(names, 2) if count > 1 else (names[0], names[0])
            if rng.random() < 0.9 and abs(names.index(a) - names.index(b)) < count // 2:
                neighbors[a].add(b)
                neighbors[b].add(a)
        scenario = AreaMemo({n: sorted(v) for n, v in neighbors.items()})
        goals = [(rng.choice(names), rng.choice([1, 2, 3])) for _ in range(rng.randrange(0, 9))]
        share = rng.random()
        near = {"a": [], "b": []}
        for _ in range(pieces):
            locale = rng.choice(names)
            ways = scenario.neighbors[locale]
            facing = rng.choice(ways) if ways and rng.random() < 0.4 else None
            near["a" if rng.random() < share else "b"].append((locale, facing))
        if trial % 5 == 0 and goals:  # a piece on an objective
            near["b"].append((goals[0][0], None))

        def distance(place, goal, scenario=scenario):
            found = area._distances(scenario, goal)
            far = float(found.get(place[0], 99))
            return far if place[1] is None else min(far, found.get(place[1], 99) + 0.5)

        for cap in (1, 4, 6):
            for side in ("a", "b"):
                assert area._reach(scenario, goals, near, side, cap) == worth.reach(
                    goals, near, side, distance, cap
                )
                assert area._advance(scenario, goals, near, side, cap + 1) == worth.advance(
                    goals, near, side, distance, cap + 1
                )


def test_every_piece_brought_forward_gains_not_only_the_nearest():
    def distance(place: int, goal: int) -> float:
        return abs(place - goal)

    goals = [(0, 1)]
    behind = {"a": [1, 6], "b": [3]}
    forward = {"a": [1, 5], "b": [3]}  # the piece behind moved up; the nearest did not move
    assert worth.reach(goals, behind, "a", distance, 6) == worth.reach(
        goals, forward, "a", distance, 6
    )
    assert worth.advance(goals, forward, "a", distance, 8) > worth.advance(
        goals, behind, "a", distance, 8
    )
    # zero-sum: the other side's worth is the opposite
    assert worth.advance(goals, forward, "b", distance, 8) == -worth.advance(
        goals, forward, "a", distance, 8
    )


def bombardments(sc, state, side) -> dict[str, list[dict]]:
    """Each gun of ``side`` with the bombardments the rules would let it fire in its side's
    bombardment phase from ``state`` (every gun not yet fired)."""
    rules = game_rules(sc.system)
    units = {uid: {**u, "bombarded": False} for uid, u in state["units"].items()}
    turn = {**state, "units": units, "side": side, "phase": "bombardment"}
    turn.update(combat=None, decision=None, chance=None)
    found: dict[str, list[dict]] = {}
    for action in rules.legal_actions(sc, turn):
        if action["type"] == "bombard":
            found.setdefault(action["unit"], []).append(rules.preview(sc, turn, action))
    return found


def test_the_guns_threat_is_the_best_bombardment_the_rules_allow_each_gun():
    """hex-hexside's ``threat``: each gun counts the best of the bombardments the rules would
    let it fire at its side's next bombardment phase (by their previews' exact odds), and a
    gun with none counts nothing; the side's guns less the other's."""
    sc, states = positions("demo-hohenbrueck", count=8, step=20)
    # and a gun with an enemy next to it (it may not fire), the other still in range
    start = Game.start(sc, game_rules(sc.system), 1).state
    gun = start["units"]["pr-art2"]["hex"]
    occupied = {u["hex"] for u in start["units"].values()}
    beside = next(
        sc.label(h)
        for h in hex_neighbors(sc.hex_at(gun))
        if h in sc.hexes and sc.label(h) not in occupied
    )
    units = {**start["units"], "au-grz": {**start["units"]["au-grz"], "hex": beside}}
    states.append({**start, "units": units})
    assert "pr-art2" not in bombardments(sc, states[-1], "prussia")
    # and with an enemy leader alone next to it: the rules count him as an enemy beside it
    units = {**start["units"], "au-ldr": {**start["units"]["au-ldr"], "hex": beside}}
    states.append({**start, "units": units})
    assert "pr-art2" not in bombardments(sc, states[-1], "prussia")
    w = worth.weights("hex-hexside")
    step = w["steps"] + w["morale"] + w["points"]  # a step lost: 1 point to the enemy
    a, b = (s["id"] for s in sc.data["sides"])
    fired = 0
    for state in states:
        harm = {}
        for side in (a, b):
            total = 0.0
            for previews in bombardments(sc, state, side).values():
                best = 0.0
                for shown in previews:
                    value = 0.0
                    for o in shown["outcomes"]:  # as the player sees them
                        said = {x["key"]: x["params"] for x in o["outcome"]["target"]}
                        lost = said.get("effect.hh_loss", {"n": 0})["n"]
                        lost += 1 if "effect.hh_S" in said else 0
                        retreat = 1 if "effect.hh_r" in said else 0
                        value += o["p"] * (lost * step - retreat * w["disrupted"])
                    best = max(best, value)
                total += best
                fired += 1
            harm[side] = total
        expected = w["threat"] * (harm[a] - harm[b])
        assert threat(sc, state, a) == pytest.approx(expected)
        assert threat(sc, state, b) == pytest.approx(-expected)
    assert fired, "no position where a gun could fire: the test would prove nothing"


def test_a_routed_gun_threatens_nothing():
    sc = load_builtin("demo-hohenbrueck")
    state = Game.start(sc, game_rules(sc.system), 1).state
    assert bombardments(sc, state, "prussia")  # at the start a Prussian gun has a target
    assert threat(sc, state, "prussia") > 0
    guns = [uid for uid in state["units"] if sc.units[uid]["type"] == "artillery"]
    routed = {uid: {**u, "status": "routed"} for uid, u in state["units"].items() if uid in guns}
    assert not bombardments(sc, {**state, "units": {**state["units"], **routed}}, "prussia")
    assert threat(sc, {**state, "units": {**state["units"], **routed}}, "prussia") == 0.0


def assaults(sc, state, side) -> list[tuple[float, str, frozenset]]:
    """Each close combat ``side`` could designate at its next combat phase from ``state`` (the
    rules' own ``attack``: every unit able to join is in it), with its expected result by the
    preview of its confirmation as the player sees it: the defender's steps lost and "r" less
    the attacker's."""
    rules = game_rules(sc.system)
    w = worth.weights("hex-hexside")
    step = w["steps"] + w["morale"] + w["points"]  # a step lost: 1 point to the enemy
    fresh = {
        uid: {**u, "attacked": False, "bombarded": False, "wcm": None, "must": False}
        for uid, u in state["units"].items()
    }
    turn = {**state, "units": fresh, "side": side, "phase": "combat"}
    turn.update(combat=None, decision=None, chance=None)
    found = []
    for action in rules.legal_actions(sc, turn):
        if action["type"] != "attack":
            continue
        designated = json.loads(json.dumps(turn))
        rules.apply(sc, designated, action)
        shown = rules.preview(sc, designated, {"type": "confirm"})
        value = 0.0
        for o in shown["outcomes"]:
            for who, sign in (("defender", 1), ("attacker", -1)):
                said = {x["key"]: x["params"] for x in o["outcome"][who]}
                lost = said.get("effect.hh_loss", {"n": 0})["n"]
                lost += 1 if "effect.hh_S" in said else 0
                retreat = 1 if "effect.hh_r" in said else 0
                value += sign * o["p"] * (lost * step - retreat * w["disrupted"])
        attackers = frozenset(designated["combat"]["attackers"])
        found.append((value, action["target"], attackers))
    return found


def test_the_assault_threat_is_each_combat_the_rules_would_let_a_side_designate():
    """hex-hexside's ``assault``: each enemy hex a side could attack at its next combat phase,
    with every unit the rules' ``attack`` puts in it, by the exact odds of its preview;
    combats that gain counted, the best first, each unit in one only; the side's less the
    other's."""
    sc, states = positions("demo-hohenbrueck", count=10, step=20)
    w = worth.weights("hex-hexside")
    a, b = (s["id"] for s in sc.data["sides"])
    fought = 0
    for state in states:
        gain = {}
        for side in (a, b):
            used: set = set()
            gain[side] = 0.0
            combats = [c for c in assaults(sc, state, side) if c[0] > 0]
            fought += len(combats)
            for value, _target, attackers in sorted(combats, key=lambda c: (-c[0], c[1])):
                if not attackers & used:
                    used |= attackers
                    gain[side] += value
        expected = w["assault"] * (gain[a] - gain[b])
        assert assault(sc, state, a) == pytest.approx(expected)
        assert assault(sc, state, b) == pytest.approx(-expected)
    assert fought, "no position where a combat could gain: the test would prove nothing"


def valmont_before_the_village() -> tuple:
    """demo-valmont at its start with Valmont's 0805 (3 points, Austria's) emptied: its two
    battalions out, every French unit put back far from it. 0705 is next to 0805 and to 0806
    (2 points, Austria's, held by a battalion in good order and a leader)."""
    sc = load_builtin("demo-valmont")
    state = json.loads(json.dumps(Game.start(sc, game_rules(sc.system), 1).state))
    for uid in ("au-1-1", "au-1-4"):
        state["units"][uid]["out"] = True
    return sc, state


def test_an_empty_objective_next_to_a_unit_that_will_move_weighs_its_points():
    sc, state = valmont_before_the_village()
    w = worth.weights("hex-facing")
    assert facing.threat(sc, state, "france") == 0  # no French unit next to an objective
    state["units"]["fr-1-1"]["hex"] = "0705"
    assert facing.threat(sc, state, "france") == w["take"] * 3
    assert facing.threat(sc, state, "austria") == -w["take"] * 3  # zero-sum
    # 0806's battalion routed: the one unit beside both counts once, for the first objective
    state["units"]["au-1-2"]["status"] = "routed"
    assert facing.threat(sc, state, "france") == w["take"] * 3
    state["units"]["au-1-2"]["status"] = "good"
    # a second unit beside it: 0806 still has a battalion in good order, so nothing more
    state["units"]["fr-1-2"]["hex"] = "0705"
    assert facing.threat(sc, state, "france") == w["take"] * 3
    # the battalion routed: a melee may drive it and the leader off, the second unit counts
    state["units"]["au-1-2"]["status"] = "routed"
    assert facing.threat(sc, state, "france") == w["take"] * 3 + w["take_routed"] * 2
    # a routed unit takes nothing
    state["units"]["fr-1-1"]["status"] = "routed"
    state["units"]["fr-1-2"]["status"] = "routed"
    assert facing.threat(sc, state, "france") == 0


def test_an_objective_with_enemies_on_it_is_weighed_by_their_state():
    sc, state = valmont_before_the_village()
    w = worth.weights("hex-facing")
    state["units"]["fr-1-1"]["hex"] = "0904"
    state["units"]["au-1-3"]["hex"] = "0805"  # a battalion in good order on it
    assert facing.threat(sc, state, "france") == 0
    state["units"]["au-1-3"]["status"] = "disordered"
    assert facing.threat(sc, state, "france") == 0
    state["units"]["au-1-3"]["status"] = "routed"
    assert facing.threat(sc, state, "france") == w["take_routed"] * 3
    state["units"]["au-1-3"]["hex"] = "0905"
    state["units"]["au-l-2"]["hex"] = "0805"  # a leader alone
    assert facing.threat(sc, state, "france") == w["take_routed"] * 3
    # an objective the side holds is not weighed for it again; the other side's battalion
    # beside it (0905) may walk back in
    state["units"]["au-l-2"]["hex"] = "1304"
    state["held"]["0805"] = "france"
    assert facing.threat(sc, state, "france") == -w["take"] * 3


def test_in_the_last_turn_only_a_formation_that_will_still_move_may_take():
    sc, state = valmont_before_the_village()
    w = worth.weights("hex-facing")
    state["units"]["fr-1-1"]["hex"] = "0705"  # of fr-bde1
    state["turn"] = state["turns"]
    state["cup"], state["active"] = [], None
    assert facing.threat(sc, state, "france") == 0
    state["cup"] = ["au-bde1", "fr-bde1"]
    assert facing.threat(sc, state, "france") == w["take"] * 3
    state["cup"] = ["au-bde1"]
    active = {"formation": "fr-bde1", "side": "france", "orders": True, "acted": []}
    for step, gains in (("fire", True), ("move", True), ("combat", False)):
        state["active"] = {**active, "step": step, "facing_due": None}
        assert facing.threat(sc, state, "france") == (w["take"] * 3 if gains else 0), step


def harmed(system: str, sc, state, side: str):
    """``state`` with one of ``side``'s pieces harmed, where nothing else changes: a step off
    a block of two or more (and its army's point of morale), or a unit in good order
    disordered."""
    state = json.loads(json.dumps(state))
    if system == "area-locale":
        pid = next(
            k
            for k, p in sorted(state["pieces"].items())
            if not p["out"] and p["steps"] > 1 and sc.units[k]["side"] == side
        )
        state["pieces"][pid]["steps"] -= 1
        state["army"][side] -= 1
    else:
        uid = next(
            k
            for k, u in sorted(state["units"].items())
            if not u["out"] and u["status"] == "good" and sc.units[k]["side"] == side
        )
        state["units"][uid]["status"] = "disordered"
    return state


@pytest.mark.parametrize("system", ["area-locale", "hex-facing"])
def test_forces_count_less_as_the_turns_run_out_and_points_never(system):
    """A side's forces count for what they can still do: the same harm weighs less each turn,
    ``late`` of it gone by the last; an objective changing hands weighs the same throughout."""
    sc, [state] = positions(DEMOS[system], count=1, step=1)
    w = worth.weights(system)
    assert w["late"] > 0
    side = sc.data["sides"][0]["id"]
    evaluate = evaluation(system)
    goal = next(place for place, _ in objectives(sc) if state["held"].get(place) != side)

    def weighs(turn: int) -> tuple[float, float]:
        """What the harm and the objective taken are worth at ``turn``."""
        at = {**state, "turn": turn}
        taken = {**at, "held": {**at["held"], goal: side}}
        here = evaluate(sc, at, side)
        return here - evaluate(sc, harmed(system, sc, at, side), side), evaluate(
            sc, taken, side
        ) - here

    turns = state["turns"]
    (harm, goal_worth), (harm_late, goal_late) = weighs(1), weighs(turns)
    assert harm > 0 and goal_worth > 0
    assert harm_late == pytest.approx(harm * (1 - w["late"] * (turns - 1) / turns))
    assert goal_late == pytest.approx(goal_worth)
