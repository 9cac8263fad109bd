"""Files made to exhaust the editor: zip bombs, and pictures whose headers declare more pixels
than a tablet can decode, each a few MB at most. Used by tests/e2e/test_editor_bombs.py and
bench/editor_bombs.py.

The zips are written here field by field (APPNOTE.TXT 4.3.7, 4.3.12, 4.3.16), so that an
entry's declared sizes can say anything: the same in its local header and in the central
directory, as a careful bomb says them.
"""

from __future__ import annotations

import struct
import zlib

from pngfile import encode_png
from vmod import Grid, build_file

MIB = 1 << 20
STORED = 0
DEFLATED = 8

MODULEDATA = b"<?xml version='1.0' encoding='UTF-8'?><data version='1'><name>Bomb</name></data>"


def deflate(data: bytes) -> bytes:
    """Raw DEFLATE (no zlib header), as a zip holds it."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def zeros_deflate(total: int, prefix: bytes = b"") -> bytes:
    """A raw DEFLATE stream of ``prefix`` and then zeros, ``total`` bytes in all (a whole number
    of MiB), packed about 1000 to 1: its first MiB packed, then the packing of a MiB of zeros
    after zeros (the same bytes each time, each ending on a byte boundary) repeated."""
    assert total % MIB == 0 and len(prefix) < MIB // 2
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    first = c.compress(prefix + bytes(MIB - len(prefix))) + c.flush(zlib.Z_SYNC_FLUSH)
    again = c.compress(bytes(MIB)) + c.flush(zlib.Z_SYNC_FLUSH)
    assert again == c.compress(bytes(MIB)) + c.flush(zlib.Z_SYNC_FLUSH)
    return first + again * (total // MIB - 1) + c.flush()


def zip_of(entries: list[tuple[str, int, bytes, int, int]]) -> bytes:
    """A zip of ``(name, method, packed bytes, declared unpacked size, CRC-32)`` entries, each
    size declared alike in its local header and the central directory."""
    out = bytearray()
    central = bytearray()
    for name, method, packed, size, crc in entries:
        raw = name.encode()
        offset = len(out)
        out += struct.pack(
            "<IHHHHHIIIHH", 0x04034B50, 20, 0, method, 0, 0, crc, len(packed), size, len(raw), 0
        )
        out += raw + packed
        central += struct.pack(
            "<IHHHHHHIIIHHHHHII",
            0x02014B50,
            20,
            20,
            0,
            method,
            0,
            0,
            crc,
            len(packed),
            size,
            len(raw),
            0,
            0,
            0,
            0,
            0,
            offset,
        )
        central += raw
    at = len(out)
    count = len(entries)
    out += central
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, len(central), at, 0)
    return bytes(out)


def png_head(width: int, height: int) -> bytes:
    """A PNG's signature and IHDR chunk declaring ``width`` × ``height`` (8-bit RGB)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    body = b"IHDR" + header
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + body + struct.pack(">I", zlib.crc32(body))


def png_declaring(width: int, height: int) -> bytes:
    """A PNG whose header declares ``width`` × ``height`` with a tiny body: one packed row of
    the picture, then its end (the browser would start decoding, and allocate, the whole)."""
    body = zlib.compress(b"\x00" + bytes(3 * min(width, 4096)), 9)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    return png_head(width, height) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


def jpeg_declaring(width: int, height: int) -> bytes:
    """A baseline JPEG whose frame header (SOF0) declares ``width`` × ``height``, after an APP0
    segment, with a few bytes of scan data and its end."""
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    sof0 = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, height, width, 1) + b"\x01\x11\x00"
    sos = b"\xff\xda" + struct.pack(">HB", 8, 1) + b"\x01\x00\x00\x3f\x00"
    return b"\xff\xd8" + app0 + sof0 + sos + bytes(64) + b"\xff\xd9"


def gif_declaring(width: int, height: int) -> bytes:
    """A GIF89a whose logical screen is 1 × 1 and whose first frame is ``width`` × ``height``."""
    screen = b"GIF89a" + struct.pack("<HHBBB", 1, 1, 0, 0, 0)
    frame = b"\x2c" + struct.pack("<HHHHB", 0, 0, width, height, 0)
    return screen + frame + b"\x02\x02\x44\x01\x00\x3b"


def webp_declaring(width: int, height: int) -> bytes:
    """An extended WebP (VP8X) whose canvas is ``width`` × ``height``, with nothing drawn."""
    vp8x = b"VP8X" + struct.pack("<I", 10) + bytes(4)
    vp8x += (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    return b"RIFF" + struct.pack("<I", 4 + len(vp8x)) + b"WEBP" + vp8x


def bmp_declaring(width: int, height: int) -> bytes:
    """A BMP (BITMAPINFOHEADER, 24-bit) declaring ``width`` × ``height``, with no pixels."""
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 24, 0, 0, 2835, 2835, 0, 0)
    return b"BM" + struct.pack("<IHHI", 14 + len(info), 0, 0, 14 + len(info)) + info


def board_png(width: int = 600, height: int = 480) -> bytes:
    """A plain picture of a board, of the size ``Grid()``'s grid is laid on."""
    return encode_png(width, height, [b"\xf0\xf0\xf0" * width] * height)


def module(
    build: tuple[bytes, int] | None = None,
    image: tuple[int, bytes, int] | None = None,
    picture: bytes | None = None,
) -> bytes:
    """A VASSAL module of one board (``vmod.Grid()``'s): its build file, moduledata and board
    picture, each honest unless given: ``build`` (packed, declared size) deflated, ``image``
    (method, packed, declared size) for the picture's entry, or ``picture`` deflated honestly
    (CRCs of the bombs left 0: never read before their sizes)."""
    text = build_file(Grid()).encode()
    build_entry = ("buildFile.xml", DEFLATED, *build, 0) if build else honest("buildFile.xml", text)
    if image:
        image_entry = ("images/board.png", *image, 0)
    else:
        image_entry = honest("images/board.png", board_png() if picture is None else picture)
    return zip_of([build_entry, honest("moduledata", MODULEDATA), image_entry])


def honest(name: str, data: bytes) -> tuple[str, int, bytes, int, int]:
    """A deflated entry that declares what it holds."""
    return (name, DEFLATED, deflate(data), len(data), zlib.crc32(data))


def huge_directory(size: int) -> bytes:
    """A file that ends like a zip whose central directory takes ``size`` bytes (zeros)."""
    return bytes(size) + struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, size, 0, 0)
