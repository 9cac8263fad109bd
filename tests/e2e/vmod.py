"""Small VASSAL modules (.vmod zips) for the editor's VASSAL import tests.

A module holds a build file with one Map, its BoardPicker and one Board with a HexGrid and its
HexGridNumbering, a few PieceSlots, and the board's picture: a white PNG (written here with zlib
and struct) with a dark dot at the centre of every hex. The centres and their printed numbers
are computed here from VASSAL's documented grid geometry, independently of the app's code:

- the grid has its own frame, which is the board's (x, y), or (y, x) for a sideways grid
  ("Setting the grid to be sideways switches the meanings of horizontal/vertical,
  Height/Width and X/Y", VASSAL reference manual, Hex Grid);
- in that frame hex column ``c`` (counted from 0 at the offset) has its centres at
  ``x0 + c * dx``, and its hexes are ``dy`` apart from ``y0``, the odd columns half a hex lower;
- the numbering names column ``c`` as ``c + hOff`` and its ``r``-th hex ``r + vOff``, one more
  in the odd (lowered) columns when "odd-numbered rows numbered higher" (``stagger``) is set;
  numbers are zero-padded to ``leading + 1`` digits; "Horizontal first" (``first="H"``) writes
  the column number first.
"""

from __future__ import annotations

import io
import math
import zipfile
from dataclasses import dataclass, field
from xml.sax.saxutils import quoteattr

from pngfile import encode_png

SQRT3 = math.sqrt(3)


@dataclass
class Grid:
    """A board's hex grid and numbering, with the board picture's size."""

    width: int = 600
    height: int = 480
    sideways: bool = False
    x0: int = 0
    y0: int = 32
    dx: float = 64 * SQRT3 / 2
    dy: float = 64.0
    first: str = "H"
    sep: str = ""
    h_type: str = "N"
    v_type: str = "N"
    h_leading: int = 1
    v_leading: int = 1
    h_off: int = 1
    v_off: int = 1
    h_descend: bool = False
    v_descend: bool = False
    stagger: bool = True
    board: str = "Main board"
    map_name: str = "Main map"
    image: str = "board.png"
    # A Zone of a ZonedGrid holding the grid instead of the board: its box (x, y, w, h).
    zone: tuple[int, int, int, int] | None = None
    pieces: list[tuple[str, str]] = field(
        default_factory=lambda: [
            ("1st Guards", "+/null/piece;;;guards.png;1st Guards/null;0;0;1"),
            ("", "+/null/prototype;Infantry\tpiece;;;inf.png;3rd Infantry/\t\\\tnull;0;0;2"),
            ("Cossacks", ""),
            ("1st Guards", ""),
            ("Horse Battery", ""),
        ]
    )


def _name(value: int, leading: int) -> str:
    return ("-" if value < 0 else "") + str(abs(value)).zfill(leading + 1)


def hexes(g: Grid) -> dict[str, dict]:
    """Every hex near the picture: its printed number -> centre (board pixels), and whether the
    whole hex lies inside the picture (with 1 px to spare) and its centre does."""
    out: dict[str, dict] = {}
    across, down = (g.height, g.width) if g.sideways else (g.width, g.height)
    # The part of the picture the grid covers, in the grid's frame.
    a0, d0, a1, d1 = 0, 0, across, down
    if g.zone:
        zx, zy, zw, zh = g.zone
        a0, d0, a1, d1 = (zy, zx, zy + zh, zx + zw) if g.sideways else (zx, zy, zx + zw, zy + zh)
        a0, d0, a1, d1 = max(a0, 0), max(d0, 0), min(a1, across), min(d1, down)
    half_across = 2 * g.dx / 3  # corners of a flat hex: 2/3 of the column spacing out
    half_down = g.dy / 2
    for c in range(-3, int(across / g.dx) + 4):
        for r in range(-3, int(down / g.dy) + 4):
            a = g.x0 + c * g.dx
            d = g.y0 + r * g.dy + (g.dy / 2 if c % 2 else 0)
            x, y = (d, a) if g.sideways else (a, d)
            column = c + g.h_off
            row = r + g.v_off + (1 if g.stagger and c % 2 else 0)
            if column < 0 or row < 0:
                continue
            col_name = _name(column, g.h_leading)
            row_name = _name(row, g.v_leading)
            label = col_name + g.sep + row_name if g.first == "H" else row_name + g.sep + col_name
            whole = (
                a - half_across >= a0 - 1
                and a + half_across <= a1 + 1
                and d - half_down >= d0 - 1
                and d + half_down <= d1 + 1
            )
            inside = 0 <= x < g.width and 0 <= y < g.height
            out[label] = {"x": x, "y": y, "whole": whole, "inside": inside}
    return out


def png(width: int, height: int, dots: list[tuple[float, float]], radius: float = 2.6) -> bytes:
    """A white RGB PNG with a near-black disc at each dot."""
    rows = [bytearray(b"\xff" * (3 * width)) for _ in range(height)]
    reach = math.ceil(radius)
    for x, y in dots:
        cx, cy = round(x), round(y)
        for py in range(cy - reach, cy + reach + 1):
            for px in range(cx - reach, cx + reach + 1):
                if (
                    0 <= px < width
                    and 0 <= py < height
                    and (px - cx) ** 2 + (py - cy) ** 2 <= radius**2
                ):
                    rows[py][3 * px : 3 * px + 3] = b"\x10\x10\x10"
    return encode_png(width, height, rows)


def _b(value: bool) -> str:
    return "true" if value else "false"


def build_file(g: Grid) -> str:
    """The module's buildFile.xml."""
    slots = "".join(
        f"<VASSAL.build.widget.PieceSlot entryName={quoteattr(name)} gpid='{n}' "
        f"height='60' width='60'>{definition.replace('&', '&amp;').replace('<', '&lt;')}"
        "</VASSAL.build.widget.PieceSlot>"
        for n, (name, definition) in enumerate(g.pieces, start=1)
    )
    numbering = (
        "<VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering "
        f"color='0,0,0' first='{g.first}' fontSize='9' hDescend='{_b(g.h_descend)}' "
        f"hDrawOff='0' hLeading='{g.h_leading}' hOff='{g.h_off}' hType='{g.h_type}' "
        f"locationFormat='$gridLocation$' rotateText='0' sep={quoteattr(g.sep)} "
        f"stagger='{_b(g.stagger)}' vDescend='{_b(g.v_descend)}' vDrawOff='32' "
        f"vLeading='{g.v_leading}' vOff='{g.v_off}' vType='{g.v_type}' visible='true'/>"
    )
    grid = (
        "<VASSAL.build.module.map.boardPicker.board.HexGrid color='0,0,0' cornersLegal='false' "
        f"dotsVisible='false' dx='{g.dx!r}' dy='{g.dy!r}' edgesLegal='false' "
        f"sideways='{_b(g.sideways)}' snapTo='true' visible='false' x0='{g.x0}' y0='{g.y0}'>"
        f"{numbering}</VASSAL.build.module.map.boardPicker.board.HexGrid>"
    )
    if g.zone:
        zx, zy, zw, zh = g.zone
        path = f"{zx},{zy};{zx + zw},{zy};{zx + zw},{zy + zh};{zx},{zy + zh}"
        grid = (
            "<VASSAL.build.module.map.boardPicker.board.ZonedGrid>"
            "<VASSAL.build.module.map.boardPicker.board.mapgrid.Zone "
            f"locationFormat='$gridLocation$' name='Battlefield' path='{path}' "
            f"useParentGrid='false'>{grid}</VASSAL.build.module.map.boardPicker.board.mapgrid.Zone>"
            "</VASSAL.build.module.map.boardPicker.board.ZonedGrid>"
        )
    return (
        "<?xml version='1.0' encoding='UTF-8'?>\n"
        "<VASSAL.build.GameModule ModuleOther1='' ModuleOther2='' VassalVersion='3.7.0' "
        "description='A test module' name='Muster Test Module' nextPieceSlotId='9' version='1.0'>"
        "<VASSAL.build.module.BasicCommandEncoder/>"
        "<VASSAL.build.module.PieceWindow allowHidingPieces='false' name='Pieces'>"
        "<VASSAL.build.widget.ListWidget entryName='Units' height='0' width='0' divider='150'>"
        f"{slots}</VASSAL.build.widget.ListWidget></VASSAL.build.module.PieceWindow>"
        f"<VASSAL.build.module.Map mapName={quoteattr(g.map_name)} allowMultiple='false'>"
        "<VASSAL.build.module.map.BoardPicker addColumnText='Add column' title='Choose Boards'>"
        f"<VASSAL.build.module.map.boardPicker.Board image={quoteattr(g.image)} "
        f"name={quoteattr(g.board)} reversible='false'>{grid}"
        "</VASSAL.build.module.map.boardPicker.Board>"
        "</VASSAL.build.module.map.BoardPicker>"
        "</VASSAL.build.module.Map>"
        "</VASSAL.build.GameModule>\n"
    )


def vmod(g: Grid, image_compression: int = zipfile.ZIP_DEFLATED) -> tuple[bytes, dict[str, dict]]:
    """The module's bytes, and its hexes (see ``hexes``)."""
    found = hexes(g)
    picture = png(g.width, g.height, [(h["x"], h["y"]) for h in found.values() if h["inside"]])
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("buildFile.xml", build_file(g), compress_type=zipfile.ZIP_DEFLATED)
        z.writestr(
            "moduledata",
            "<?xml version='1.0' encoding='UTF-8'?><data version='1'>"
            "<name>Muster Test Module</name></data>",
            compress_type=zipfile.ZIP_DEFLATED,
        )
        z.writestr(f"images/{g.image}", picture, compress_type=image_compression)
    return out.getvalue(), found
