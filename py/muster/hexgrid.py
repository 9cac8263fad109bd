"""Hex grid geometry: cube-coordinate hexes, hexsides, and the printed CCRR numbering.

Follows the Red Blob Games hexagon guide: cube coordinates inside, printed numbers at the
edge, and offset conversion with an explicit stagger, never a hidden convention.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

Orientation = Literal["flat", "pointy"]
Stagger = Literal["odd", "even"]


class _Cube(NamedTuple):
    q: int
    r: int
    s: int


class Hex(_Cube):
    """A hex in cube coordinates; q + r + s must be 0.

    A tuple underneath, so hashing, equality and ordering run at C speed in dict-heavy
    searches.

    >>> Hex(1, -1, 0)
    Hex(q=1, r=-1, s=0)
    >>> Hex(1, 1, 1)
    Traceback (most recent call last):
    ...
    ValueError: cube coordinates must sum to 0: (1, 1, 1)
    """

    __slots__ = ()

    def __new__(cls, q: int, r: int, s: int) -> Hex:
        """Check the cube invariant."""
        if q + r + s != 0:
            raise ValueError(f"cube coordinates must sum to 0: ({q}, {r}, {s})")
        return super().__new__(cls, q, r, s)


def axial(q: int, r: int) -> Hex:
    """The hex with axial coordinates (q, r)."""
    return Hex(q, r, -q - r)


# Direction 0 is "q+1, r-1", then clockwise on screen: flat hexes 0 upper right, 1 lower
# right, 2 down, 3 lower left, 4 upper left, 5 up; pointy hexes 0 upper right, 1 right, 2 lower
# right, 3 lower left, 4 left, 5 upper left.
HEX_DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, -1, 0),
    Hex(1, 0, -1),
    Hex(0, 1, -1),
    Hex(-1, 1, 0),
    Hex(-1, 0, 1),
    Hex(0, -1, 1),
)


def hex_add(a: Hex, b: Hex) -> Hex:
    """The sum of two cube vectors."""
    return Hex(a.q + b.q, a.r + b.r, a.s + b.s)


def hex_neighbor(h: Hex, direction: int) -> Hex:
    """The neighbour of ``h`` in ``direction`` (0-5).

    >>> hex_neighbor(Hex(0, 0, 0), 2)
    Hex(q=0, r=1, s=-1)
    """
    return hex_add(h, HEX_DIRECTIONS[direction % 6])


def hex_neighbors(h: Hex) -> tuple[Hex, ...]:
    """The six neighbours of ``h`` in direction order."""
    return tuple(hex_add(h, d) for d in HEX_DIRECTIONS)


def hex_distance(a: Hex, b: Hex) -> int:
    """The number of hex steps from ``a`` to ``b``.

    >>> hex_distance(Hex(0, 0, 0), Hex(3, -1, -2))
    3
    """
    return max(abs(a.q - b.q), abs(a.r - b.r), abs(a.s - b.s))


def hex_ring(center: Hex, radius: int) -> list[Hex]:
    """The hexes ``radius`` steps from ``center`` (the centre alone at 0), walking round from
    the one ``radius`` steps in direction 4.

    >>> len(hex_ring(Hex(0, 0, 0), 2)), hex_ring(Hex(0, 0, 0), 1)[0]
    (12, Hex(q=-1, r=0, s=1))
    """
    if radius == 0:
        return [center]
    ring = []
    q = center.q + HEX_DIRECTIONS[4].q * radius
    r = center.r + HEX_DIRECTIONS[4].r * radius
    for step in HEX_DIRECTIONS:
        for _ in range(radius):
            ring.append(Hex(q, r, -q - r))
            q, r = q + step.q, r + step.r
    return ring


def hex_direction_to(a: Hex, b: Hex) -> int:
    """The direction (0-5) from ``a`` to its neighbour ``b``.

    Raises:
        ValueError: if the hexes are not adjacent.
    """
    delta = Hex(b.q - a.q, b.r - a.r, b.s - a.s)
    try:
        return HEX_DIRECTIONS.index(delta)
    except ValueError:
        raise ValueError(f"hexes are not adjacent: {a} {b}") from None


@dataclass(frozen=True, order=True, slots=True)
class Hexside:
    """The side between two adjacent hexes, stored once: ``a`` is the smaller hex.

    >>> Hexside.between(Hex(1, 0, -1), Hex(0, 0, 0)) == Hexside.between(Hex(0, 0, 0), Hex(1, 0, -1))
    True
    """

    a: Hex
    b: Hex

    def __post_init__(self) -> None:
        if hex_distance(self.a, self.b) != 1:
            raise ValueError(f"a hexside joins adjacent hexes: {self.a} {self.b}")
        if not self.a < self.b:
            raise ValueError(f"hexside not canonical: {self.a} {self.b}")

    @classmethod
    def between(cls, h1: Hex, h2: Hex) -> Hexside:
        """The hexside separating two adjacent hexes, in either order."""
        return cls(h1, h2) if h1 < h2 else cls(h2, h1)

    def other(self, h: Hex) -> Hex:
        """The hex on the other side from ``h``."""
        if h == self.a:
            return self.b
        if h == self.b:
            return self.a
        raise ValueError(f"{h} is not beside {self}")


@dataclass(frozen=True, slots=True)
class Numbering:
    """How a printed map numbers its hexes: ``CCRR`` column then row.

    ``stagger`` names the printed columns (flat hexes) or printed rows (pointy hexes)
    that sit half a hex lower (flat) or further right (pointy). Printed numbers are used
    directly as offset coordinates, so a map numbered from 1 or from 0 converts the same way.

    >>> n = Numbering("flat", "even")
    >>> n.to_hex("0304"), n.label(n.to_hex("0304"))
    (Hex(q=3, r=2, s=-5), '0304')
    >>> Numbering("pointy", "odd").label(Numbering("pointy", "odd").to_hex("1207"))
    '1207'
    """

    orientation: Orientation
    stagger: Stagger
    column_digits: int = 2
    row_digits: int = 2

    def to_hex(self, label: str) -> Hex:
        """The hex printed as ``label``.

        Raises:
            ValueError: if the label is not ``column_digits + row_digits`` digits.
        """
        width = self.column_digits + self.row_digits
        if len(label) != width or not label.isdigit():
            raise ValueError(f"hex number must be {width} digits: {label!r}")
        return self.offset_to_hex(
            int(label[: self.column_digits]), int(label[self.column_digits :])
        )

    def label(self, h: Hex) -> str:
        """The printed number of hex ``h``."""
        col, row = self.hex_to_offset(h)
        return f"{col:0{self.column_digits}d}{row:0{self.row_digits}d}"

    def offset_to_hex(self, col: int, row: int) -> Hex:
        """The hex at printed column ``col`` and row ``row``."""
        shift = 1 if self.stagger == "even" else -1
        if self.orientation == "flat":
            q = col
            r = row - (col + shift * (col & 1)) // 2
        else:
            r = row
            q = col - (row + shift * (row & 1)) // 2
        return axial(q, r)

    def hex_to_offset(self, h: Hex) -> tuple[int, int]:
        """The printed (column, row) of hex ``h``."""
        shift = 1 if self.stagger == "even" else -1
        if self.orientation == "flat":
            col = h.q
            return col, h.r + (col + shift * (col & 1)) // 2
        row = h.r
        return h.q + (row + shift * (row & 1)) // 2, row
