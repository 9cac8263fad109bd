"""Hex geometry: cube invariants, neighbours, distance, hexsides, printed numbering."""

import itertools

import pytest

from muster.hexgrid import (
    HEX_DIRECTIONS,
    Hex,
    Hexside,
    Numbering,
    axial,
    hex_direction_to,
    hex_distance,
    hex_neighbor,
    hex_neighbors,
)


def test_cube_coordinates_must_sum_to_zero():
    with pytest.raises(ValueError, match="sum to 0"):
        Hex(1, 0, 0)


def test_directions_are_unit_steps_and_opposite_pairs():
    origin = Hex(0, 0, 0)
    for d, step in enumerate(HEX_DIRECTIONS):
        assert hex_distance(origin, step) == 1
        opposite = HEX_DIRECTIONS[(d + 3) % 6]
        assert (step.q + opposite.q, step.r + opposite.r, step.s + opposite.s) == (0, 0, 0)


def test_neighbour_direction_round_trip():
    h = axial(3, -2)
    for d in range(6):
        assert hex_direction_to(h, hex_neighbor(h, d)) == d
    with pytest.raises(ValueError, match="not adjacent"):
        hex_direction_to(h, axial(5, -2))


def test_distance_by_hand():
    assert hex_distance(axial(0, 0), axial(0, 0)) == 0
    assert hex_distance(axial(0, 0), axial(2, 1)) == 3
    assert hex_distance(axial(-2, 3), axial(2, -1)) == 4


def test_hexside_is_canonical_and_symmetric_over_a_whole_map():
    n = Numbering("flat", "even")
    cells = {n.offset_to_hex(c, r) for c in range(1, 9) for r in range(1, 7)}
    sides = set()
    for h in cells:
        for m in hex_neighbors(h):
            side = Hexside.between(h, m)
            assert side == Hexside.between(m, h)
            assert side.other(side.other(h)) == h
            sides.add(side)
    # every hex owns six sides, each shared by two hexes; sides touching off-map hexes
    # are counted once per on-map hex.
    inner = {s for s in sides if s.a in cells and s.b in cells}
    border = sides - inner
    assert 6 * len(cells) == 2 * len(inner) + len(border)


def test_hexside_rejects_non_adjacent_and_non_canonical():
    with pytest.raises(ValueError, match="adjacent"):
        Hexside(axial(0, 0), axial(2, 0))
    with pytest.raises(ValueError, match="canonical"):
        Hexside(axial(1, 0), axial(0, 0))


@pytest.mark.parametrize(
    "orientation,stagger", list(itertools.product(["flat", "pointy"], ["odd", "even"]))
)
def test_numbering_round_trips_and_neighbours_are_adjacent(orientation, stagger):
    n = Numbering(orientation, stagger)
    seen = set()
    for c in range(0, 12):
        for r in range(0, 9):
            label = f"{c:02d}{r:02d}"
            h = n.to_hex(label)
            assert n.label(h) == label
            seen.add(h)
    assert len(seen) == 12 * 9


def test_flat_even_stagger_puts_even_columns_lower():
    n = Numbering("flat", "even")
    # 0705 (odd column) touches 0804 and 0805 to its east; 0805 touches 0905 and 0906.
    east = {n.label(m) for m in hex_neighbors(n.to_hex("0705"))}
    assert east == {"0804", "0805", "0706", "0605", "0604", "0704"}
    assert {n.label(m) for m in hex_neighbors(n.to_hex("0805"))} == {
        "0905",
        "0906",
        "0806",
        "0706",
        "0705",
        "0804",
    }


def test_flat_odd_stagger_puts_odd_columns_lower():
    n = Numbering("flat", "odd")
    assert {n.label(m) for m in hex_neighbors(n.to_hex("0705"))} == {
        "0805",
        "0806",
        "0706",
        "0606",
        "0605",
        "0704",
    }


def test_pointy_numbering_shifts_rows():
    even = Numbering("pointy", "even")
    assert {even.label(m) for m in hex_neighbors(even.to_hex("0304"))} == {
        "0403",
        "0404",
        "0405",
        "0305",
        "0204",
        "0303",
    }
    odd = Numbering("pointy", "odd")
    assert {odd.label(m) for m in hex_neighbors(odd.to_hex("0304"))} == {
        "0303",
        "0404",
        "0305",
        "0205",
        "0204",
        "0203",
    }


def test_bad_labels():
    n = Numbering("flat", "even")
    for bad in ["304", "03x4", "030405", ""]:
        with pytest.raises(ValueError, match="4 digits"):
            n.to_hex(bad)
    wide = Numbering("flat", "even", column_digits=3, row_digits=2)
    assert wide.label(wide.to_hex("10305")) == "10305"
