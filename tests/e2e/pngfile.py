"""A PNG written with the standard library (no imaging package on the test machines): the
pictures of printed maps and VASSAL boards the editor's tests and screenshots give the app."""

from __future__ import annotations

import struct
import zlib


def encode_png(width: int, height: int, rows: list[bytes] | list[bytearray]) -> bytes:
    """An 8-bit RGB PNG of ``rows``: ``height`` rows of ``3 * width`` bytes each."""
    raw = b"".join(b"\x00" + bytes(row) for row in rows)

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )
