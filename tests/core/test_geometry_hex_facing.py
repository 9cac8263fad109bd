"""Facing geometry on hand-made maps (flat, even stagger; directions 0 upper right, 1 lower
right, 2 down, 3 lower left, 4 upper left, 5 up)."""

from movement_maps import make_board

from muster.systems.hex_facing.geometry import (
    attack_position,
    attackers_adjacent,
    front_hexes,
    in_front_arc,
    rear_hexes,
    rear_in_enemy_front,
)

HF = "hex-facing"


def board(*units, hexes=None):
    return make_board(HF, list(units), hexes=hexes, columns=8, rows=6)


def labels(b, hexes):
    return {b.label(h) for h in hexes}


def test_front_and_rear_hexes_by_facing():
    # 0403 (even column) facing 2 = the side towards direction 1 (lower right): front hexes
    # in directions 0, 1, 2 = 0503 (upper right), 0504 (lower right), 0404 (down).
    b = board({"id": "u", "hex": "0403", "facing": 2})
    u = b.unit("u")
    assert labels(b, front_hexes(b, u)) == {"0503", "0504", "0404"}
    assert labels(b, rear_hexes(b, u)) == {"0303", "0304", "0402"}
    # facing 3 = the vertex between directions 1 and 2: front 0504 and 0404.
    b = board({"id": "u", "hex": "0403", "facing": 3})
    assert labels(b, front_hexes(b, b.unit("u"))) == {"0504", "0404"}


def test_six_front_hexes_in_a_village_or_square():
    b = board({"id": "u", "hex": "0403", "facing": 2}, hexes={"0403": ["village"]})
    assert len(front_hexes(b, b.unit("u"))) == 6 and not rear_hexes(b, b.unit("u"))
    b = board({"id": "u", "hex": "0403", "facing": 2, "state": {"square": True}})
    assert len(front_hexes(b, b.unit("u"))) == 6


def test_front_arc():
    # Facing 2 (towards lower right): the half plane on that side, edges included.
    b = board({"id": "u", "hex": "0403", "facing": 2})
    u = b.unit("u")
    assert in_front_arc(b, u, b.scenario.hex_at("0703"))  # far along direction 1
    assert in_front_arc(b, u, b.scenario.hex_at("0405"))  # two hexes straight down
    assert not in_front_arc(b, u, b.scenario.hex_at("0103"))  # behind
    assert not in_front_arc(b, u, b.scenario.hex_at("0401"))  # straight up: behind
    # Vertex facing 3 (between lower right and down): 120 degrees.
    b = board({"id": "u", "hex": "0403", "facing": 3})
    u = b.unit("u")
    assert in_front_arc(b, u, b.scenario.hex_at("0405"))
    assert not in_front_arc(b, u, b.scenario.hex_at("0602"))  # along direction 0: outside


def test_attack_positions():
    b = board(
        {"id": "d", "hex": "0403", "facing": 2, "side": "b"},
        {"id": "f", "hex": "0504"},  # a front hex of d
        {"id": "r", "hex": "0402"},  # a rear hex of d
        {"id": "r2", "hex": "0303"},  # another rear hex
    )
    d = b.unit("d")
    assert attack_position(b, d, [b.unit("f")]) == "front"
    assert attack_position(b, d, [b.unit("r"), b.unit("r2")]) == "rear"
    assert attack_position(b, d, [b.unit("f"), b.unit("r")]) == "front_and_rear"
    assert attackers_adjacent([b.unit("r"), b.unit("r2")])
    assert not attackers_adjacent([b.unit("f"), b.unit("r")])


def test_rear_in_the_front_of_an_enemy_not_taking_part():
    # Attacker at 0503 facing 8 (the side towards direction 4, upper left): its rear hexes
    # are in directions 0, 1, 2 = 0602, 0603, 0504. An enemy at 0604 facing 10 (towards
    # direction 5, up): front hexes in directions 4, 5, 0 = 0504, 0603, 0704.
    b = board(
        {"id": "a", "hex": "0503", "facing": 8},
        {"id": "d", "hex": "0403", "side": "b", "facing": 2},
        {"id": "e", "hex": "0604", "side": "b", "facing": 10},
    )
    a = b.unit("a")
    assert labels(b, rear_hexes(b, a)) == {"0602", "0603", "0504"}
    assert "0603" in labels(b, front_hexes(b, b.unit("e")))
    assert rear_in_enemy_front(b, [a], [b.unit("d")])
    # Cavalry and routed units do not count; a unit taking part does not either.
    assert not rear_in_enemy_front(b, [a], [b.unit("d"), b.unit("e")])
