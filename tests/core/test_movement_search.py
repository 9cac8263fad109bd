"""The Dijkstra on random maps: pruning changes nothing, paths add up, costs stay in budget."""

import random

import pytest
from movement_maps import make_board

from muster.movement import path_to, reachable, reachable_costs, reachable_hexes
from muster.systems import movement_rules

TERRAIN = {
    "hex-facing": ["clear", "woods", "town", "marsh", "rough", "lake"],
    "hex-hexside": ["clear", "woods", "town", "marsh", "deep_water"],
}
FEATURES = {
    "hex-facing": [["stream"], ["stream", "bridge"], ["redoubt"], ["slope"], ["steep_slope"]],
    "hex-hexside": [["stream"], ["stream", "bridge"], ["entrenchment"], ["slope"], ["pond"]],
}


class NoPruning:
    """The same rules with a step floor of 0, so the search expands every hex."""

    def __init__(self, rules):
        self.rules = rules

    def zoc(self, board, side):
        return self.rules.zoc(board, side)

    def stepper(self, board, unit):
        return self.rules.stepper(board, unit)

    def min_step(self, board, unit):
        return 0


def random_board(system, seed):
    rng = random.Random(seed)
    labels = [f"{c:02d}{r:02d}" for c in range(1, 9) for r in range(1, 7)]
    hexes = {}
    for label in labels:
        spec = {"terrain": [rng.choice(TERRAIN[system])], "level": rng.choice([0, 0, 0, 1, 2])}
        hexes[label] = spec
    board = make_board(system, [{"id": "x", "hex": "0101"}], hexes=hexes, columns=8, rows=6)
    sides = []
    seen = set()
    for h, neighbours in board.scenario.neighbors.items():
        for n in neighbours:
            a, b = sorted([board.label(h), board.label(n)])
            if (a, b) in seen or rng.random() > 0.25:
                continue
            seen.add((a, b))
            features = rng.choice(FEATURES[system])
            spec = {"between": [a, b], "features": features}
            if "slope" in features or "steep_slope" in features:
                spec["up"] = rng.choice([a, b])
            sides.append(spec)
    free = [x for x in labels if hexes[x]["terrain"][0] not in ("lake", "deep_water")]
    rng.shuffle(free)
    units = [
        {
            "id": f"u{i}",
            "hex": free[i],
            "side": "a" if i < 4 else "b",
            "type": rng.choice(["infantry", "cavalry", "artillery", "leader"]),
            "mp": rng.choice([3, 4, 6, 8]),
            "facing": rng.randrange(12),
        }
        for i in range(8)
    ]
    road = [free[8]]
    while len(road) < 8:
        options = [
            board.label(n) for n in board.scenario.neighbors[board.scenario.hex_at(road[-1])]
        ]
        options = [o for o in options if o not in road]
        if not options:
            break
        road.append(rng.choice(options))
    roads = [road] if len(road) > 1 else []
    return make_board(system, units, hexes=hexes, hexsides=sides, roads=roads, columns=8, rows=6)


@pytest.mark.parametrize("system", ["hex-facing", "hex-hexside"])
@pytest.mark.parametrize("seed", range(6))
def test_pruned_search_matches_full_search(system, seed):
    board = random_board(system, seed)
    rules = movement_rules(system)
    for uid, unit in board.units.items():
        pruned = reachable(board, uid, rules)
        full = reachable(board, uid, NoPruning(rules))
        assert {h: r.cost for h, r in pruned.items()} == {h: r.cost for h, r in full.items()}
        for h, r in pruned.items():
            assert r.cost <= unit.allowance + 1e-9 or (r.step and r.step.stop == "all_mp")
            steps = path_to(pruned, h)
            assert sum(s.cost for s in steps) == pytest.approx(r.cost)
            assert all(s.prohibited is None for s in steps)
            assert all(s.stop is None for s in steps[:-1])
            for s in steps:
                assert s.cost == pytest.approx(sum(p.value for p in s.parts))


@pytest.mark.parametrize("system", ["hex-facing", "hex-hexside"])
@pytest.mark.parametrize("seed", range(6))
def test_the_costs_only_search_finds_what_reachable_finds(system, seed):
    """``reachable_costs`` (the listings' search) gives the costs of ``reachable``'s ``passed``
    and ``reachable_hexes`` its ends, in the same order; given every step beforehand as its
    ``ways`` (nothing asked of the stepper), it finds the same costs and the same paths."""
    board = random_board(system, seed)
    rules = movement_rules(system)
    for uid, unit in board.units.items():
        full = reachable(board, uid, rules)
        costs = reachable_costs(board, unit, rules)
        assert list(costs.items()) == [(h, r.cost) for h, r in full.passed.items()]
        assert reachable_hexes(board, uid, rules) == list(full)
        step_of = rules.stepper(board, unit)
        ways = {
            h: tuple(
                (n, s.cost, s.stop, s) for n in around if (s := step_of(h, n)).prohibited is None
            )
            for h, around in board.scenario.neighbors.items()
        }
        paths = {unit.hex: full.passed[unit.hex]}
        assert reachable_costs(board, unit, rules, ways, paths=paths) == costs
        assert paths == full.passed


@pytest.mark.parametrize("system", ["hex-facing", "hex-hexside"])
def test_a_path_runs_through_a_hex_the_unit_may_only_pass(system):
    """A full stack it may pass but not stop in: the hexes beyond it still have their paths
    (they once walked back into the hex left out of the ends, and the API's path crashed)."""
    units = [
        {"id": "i", "hex": "0102", "mp": 6},
        {"id": "f1", "hex": "0202"},
        {"id": "f2", "hex": "0202"},
        {"id": "f3", "hex": "0202"},
    ]
    board = make_board(system, units, rows=1 + 3, columns=6)
    rules = movement_rules(system)
    reach = reachable(board, "i", rules)
    full = board.scenario.hex_at("0202")
    assert full not in reach, f"{system}: a fourth unit may stop in a full hex"
    assert full in reach.passed
    for target in reach:
        steps = path_to(reach, target)
        assert sum(s.cost for s in steps) == pytest.approx(reach[target].cost)
        assert not steps or steps[-1].to == target
    assert any(full in (s.frm for s in path_to(reach, t)) for t in reach)
