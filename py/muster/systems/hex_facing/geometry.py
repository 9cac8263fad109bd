"""hex-facing geometry of facing: front and rear hexes, the front arc, attack positions.

A unit faces a hexside (facing 2d: front hexes in directions d-1, d, d+1) or a vertex
(facing 2d+1: front hexes d, d+1); in a town, village, ruins, castle or square all six are
front hexes (note b). The rest are rear hexes. These are the documented defaults of
``movement.json`` ("facing").
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ...hexgrid import HEX_DIRECTIONS, Hex, hex_direction_to, hex_distance, hex_neighbor
from ...movement import Board, Unit
from .movement import front_directions


def front_hexes(board: Board, unit: Unit) -> set[Hex]:
    """The hexes in front of ``unit``."""
    return {hex_neighbor(unit.hex, d) for d in front_directions(board, unit)}


def rear_hexes(board: Board, unit: Unit) -> set[Hex]:
    """The hexes behind ``unit`` (none for a unit with six front hexes)."""
    front = set(front_directions(board, unit))
    return {hex_neighbor(unit.hex, d) for d in range(6) if d not in front}


def _angle(delta: Hex) -> float:
    """The screen angle of a cube vector, in degrees (the same rotation for both layouts)."""
    x = math.sqrt(3) * (delta.q + delta.r / 2)
    y = 1.5 * delta.r
    return math.degrees(math.atan2(y, x))


def in_front_arc(board: Board, unit: Unit, target: Hex) -> bool:
    """True if ``target`` lies in the cone through the unit's front hexes (edges included):
    180 degrees facing a hexside, 120 facing a vertex, all round with six front hexes."""
    dirs = front_directions(board, unit)
    if len(dirs) == 6 or target == unit.hex:
        return True
    delta = Hex(target.q - unit.hex.q, target.r - unit.hex.r, target.s - unit.hex.s)
    bearing = _angle(delta)
    centres = [_angle(HEX_DIRECTIONS[d]) for d in dirs]
    # The cone spans the front directions' angles, widened by 30 degrees each way.
    mid = centres[1] if len(dirs) == 3 else centres[0] + _turn(centres[0], centres[1]) / 2
    half = 30 * len(dirs) + 1e-9
    return abs(_turn(mid, bearing)) <= half


def _turn(a: float, b: float) -> float:
    """The signed smallest rotation from angle ``a`` to angle ``b``, in degrees."""
    return (b - a + 180) % 360 - 180


def attack_position(board: Board, defender: Unit, attackers: list[Unit]) -> str:
    """Where the attack comes from, for the defender: "front", "rear" or "front_and_rear"."""
    front = set(front_directions(board, defender))
    sides = {hex_direction_to(defender.hex, a.hex) in front for a in attackers}
    if sides == {True}:
        return "front"
    if sides == {False}:
        return "rear"
    return "front_and_rear"


def attackers_adjacent(attackers: list[Unit]) -> bool:
    """True if the attacking units form one group of hexes each next to another."""
    hexes = {a.hex for a in attackers}
    if len(hexes) <= 1:
        return True
    start = next(iter(hexes))
    seen, todo = {start}, [start]
    while todo:
        h = todo.pop()
        for other in hexes - seen:
            if hex_distance(h, other) == 1:
                seen.add(other)
                todo.append(other)
    return seen == hexes


def rear_in_enemy_front(
    board: Board,
    attackers: list[Unit],
    defenders: list[Unit],
    enemy_types: Sequence[str] = ("infantry", "artillery"),
) -> bool:
    """True if an attacker's rear hex is a front hex of an enemy unit of ``enemy_types``
    (the melee table's: infantry or artillery) that takes no part in the melee (the -1
    position modifier)."""
    side = attackers[0].side
    taking_part = {d.id for d in defenders}
    watched: set[Hex] = set()
    for unit in board.units.values():
        if unit.side == side or unit.id in taking_part:
            continue
        if unit.type in enemy_types and not unit.has("routed"):
            watched |= front_hexes(board, unit)
    return any(rear_hexes(board, a) & watched for a in attackers)
