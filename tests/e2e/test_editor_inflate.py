"""The editor's own raw DEFLATE decoder (static/editor/inflate.js, RFC 1951), used by the zip
reader where the browser has no DecompressionStream("deflate-raw") (iPad Safari before 16.4).

It gives back exactly what Python's zlib packed, at every level, refuses corrupt streams with an
Error (never a hang), and the VASSAL import reads a module the same with and without the
browser's decompression.
"""

from __future__ import annotations

import base64
import io
import random
import struct
import zipfile
import zlib

import pytest
from apppage import AppPage, open_app
from test_editor_vassal import CASES, READ, check_board
from vassalpages import three_pages
from vmod import vmod

pytestmark = pytest.mark.e2e

LEVELS = [0, 1, 6, 9]


def deflate(data: bytes, level: int) -> bytes:
    """Raw deflate (no zlib header), as in a zip."""
    packer = zlib.compressobj(level, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush()


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _rng(seed: int) -> random.Random:
    return random.Random(seed)


def repetitive() -> bytes:
    """Text made of a few phrases repeated far apart: long matches, distances up to 32 KiB."""
    rng = _rng(1)
    words = [b"Old Guard ", b"advances ", b"on the ridge ", b"at dawn; ", b"the cavalry waits. "]
    phrase = b"".join(rng.choice(words) for _ in range(3000))  # ~32 KiB, then again and again
    return (phrase * 12)[:400_000] + b"A" * 70_000


def mixed() -> bytes:
    """2 MB of everything: random runs, text, zeros, a repeated random block 30 KiB back."""
    rng = _rng(2)
    parts = []
    size = 0
    while size < 2_000_000:
        kind = rng.randrange(4)
        n = rng.randrange(1_000, 60_000)
        if kind == 0:
            part = rng.randbytes(n)
        elif kind == 1:
            part = (b"Hex 0412: woods, slope; unit 3rd Bde moves 4 MP. " * (n // 50 + 1))[:n]
        elif kind == 2:
            part = bytes(n)
        else:
            block = rng.randbytes(300)
            part = (block + rng.randbytes(30_000)) * 3
        parts.append(part)
        size += len(part)
    return b"".join(parts)[:2_000_000]


SAMPLES = {
    "empty": b"",
    "one-byte": b"\x2a",
    "random": _rng(3).randbytes(200_000),
    "repetitive": repetitive(),
    "mixed-2MB": mixed(),
}


@pytest.fixture(scope="module")
def harness(browser, site_url):
    """The decoder's harness page, watched for console errors."""
    opened = open_app(browser, f"{site_url}__tests__/e2e/inflate_harness.html")
    yield opened
    opened.context.close()


def inflate(harness: AppPage, packed: bytes, **options) -> dict:
    result = harness.page.evaluate(
        "([packed, options]) => window.harness.inflate(packed, options)", [b64(packed), options]
    )
    if result["ok"]:
        result["bytes"] = base64.b64decode(result["bytes"])
    return result


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("sample", list(SAMPLES))
def test_what_zlib_packed_comes_back_byte_for_byte(harness, sample, level):
    data = SAMPLES[sample]
    packed = deflate(data, level)
    if sample == "random":
        # Incompressible: zlib stores it as it is, even at level 9.
        assert packed[0] & 0b110 == 0, "a stored first block"
    for exact in (True, False):
        result = inflate(harness, packed, size=len(data), exact=exact)
        assert result["ok"], result
        assert result["bytes"] == data
    harness.assert_no_errors()


def test_fixed_and_dynamic_blocks_are_both_read(harness):
    # A short text gets zlib's fixed codes, a long one dynamic ones.
    short = b"hello hello hello"
    long = SAMPLES["repetitive"][:50_000]
    assert (deflate(short, 6)[0] >> 1) & 3 == 1
    assert (deflate(long, 6)[0] >> 1) & 3 == 2
    for data in (short, long):
        assert inflate(harness, deflate(data, 6), size=len(data))["bytes"] == data


def test_zlib_streams_of_several_flushed_blocks_and_a_final_empty_block(harness):
    data = SAMPLES["repetitive"][:100_000] + SAMPLES["random"][:50_000]
    packer = zlib.compressobj(6, zlib.DEFLATED, -15)
    packed = b""
    for at in range(0, len(data), 20_000):
        packed += packer.compress(data[at : at + 20_000]) + packer.flush(zlib.Z_FULL_FLUSH)
    packed += packer.flush()
    assert inflate(harness, packed, size=len(data))["bytes"] == data


def test_stop_gives_the_start_without_unpacking_the_rest(harness):
    data = SAMPLES["mixed-2MB"]
    result = inflate(harness, deflate(data, 6), size=len(data), stop=100)
    assert result["ok"]
    assert 100 <= len(result["bytes"]) < 100_000
    assert result["bytes"] == data[: len(result["bytes"])]


def test_more_output_than_allowed_is_refused(harness):
    # A zip bomb's directory lies about the size: never unpack past it.
    data = bytes(1_000_000)
    for exact in (True, False):
        result = inflate(harness, deflate(data, 9), size=999_999, exact=exact)
        assert not result["ok"] and result["isError"]
        assert "allowed" in result["error"]
    assert not inflate(harness, deflate(data, 9))["ok"], "a size bound is required"


class Bits:
    """A DEFLATE bit stream written by hand: fields from their least significant bit, Huffman
    codes from their most significant one (RFC 1951, 3.1.1)."""

    def __init__(self) -> None:
        self.bits: list[int] = []

    def field(self, value: int, n: int) -> Bits:
        self.bits += [(value >> i) & 1 for i in range(n)]
        return self

    def code(self, value: int, n: int) -> Bits:
        self.bits += [(value >> i) & 1 for i in reversed(range(n))]
        return self

    def bytes(self) -> bytes:
        bits = self.bits + [0] * (-len(self.bits) % 8)
        return bytes(sum(bits[i + j] << j for j in range(8)) for i in range(0, len(bits), 8))


def fixed_literal(bits: Bits, byte: int) -> Bits:
    return bits.code(0x30 + byte, 8) if byte < 144 else bits.code(0x190 + byte - 144, 9)


def fixed_length(bits: Bits, symbol: int) -> Bits:
    # 256..279: 7 bits from 0; 280..287: 8 bits from 0xC0.
    return bits.code(symbol - 256, 7) if symbol < 280 else bits.code(0xC0 + symbol - 280, 8)


CORRUPT = {
    # BFINAL 1, BTYPE 3.
    "block type 3": Bits().field(1, 1).field(3, 2).field(0, 13).bytes(),
    # A second, non-final block of type 3 after a good one.
    "block type 3 later": Bits().field(0, 1).field(1, 2).code(0, 7).field(0, 1).field(3, 2).bytes()
    + bytes(4),
    # A fixed block whose first match reaches 4 bytes back from 2 bytes of output.
    "distance too far back": fixed_length(
        fixed_literal(fixed_literal(Bits().field(1, 1).field(1, 2), 65), 66), 257
    )
    .code(3, 5)
    .code(0, 7)
    .bytes(),
    # Fixed distance code 30, which the format does not use.
    "distance symbol 30": fixed_length(fixed_literal(Bits().field(1, 1).field(1, 2), 65), 257)
    .code(30, 5)
    .code(0, 7)
    .bytes(),
    # Fixed length symbol 286, which the format does not use.
    "length symbol 286": fixed_length(Bits().field(1, 1).field(1, 2), 286).code(0, 7).bytes(),
    # A stored block whose NLEN is not the complement of LEN.
    "stored length": Bits().field(1, 1).field(0, 2).bytes() + struct.pack("<HH", 5, 5) + b"hello",
    # A stored block longer than the input.
    "stored past the end": Bits().field(1, 1).field(0, 2).bytes()
    + struct.pack("<HH", 50, 50 ^ 0xFFFF)
    + b"short",
    # A dynamic block whose code length code repeats a length with none before it.
    "repeat with none before": Bits()
    .field(1, 1)
    .field(2, 2)
    .field(0, 5)
    .field(0, 5)
    .field(0, 4)  # four code length code lengths: for 16, 17, 18, 0
    .field(1, 3)
    .field(0, 3)
    .field(0, 3)
    .field(1, 3)
    .code(1, 1)  # symbol 16 first (its code is 1: the 1-bit codes go to 0, then 16)
    .field(0, 2)
    .bytes(),
    # A dynamic block whose code length code is over-subscribed (three codes of 1 bit).
    "over-subscribed": Bits()
    .field(1, 1)
    .field(2, 2)
    .field(0, 5)
    .field(0, 5)
    .field(0, 4)
    .field(1, 3)
    .field(1, 3)
    .field(1, 3)
    .field(0, 3)
    .bytes()
    + bytes(8),
    # Nothing at all.
    "empty input": b"",
    # Only a non-final stored block: the stream ends before its last block.
    "no final block": Bits().field(0, 1).field(0, 2).bytes()
    + struct.pack("<HH", 2, 2 ^ 0xFFFF)
    + b"ok",
}


# Why each is refused, in the decoder's words.
REASON = {
    "block type 3": "invalid block type 3",
    "block type 3 later": "invalid block type 3",
    "distance too far back": "a distance before the start of the output",
    "distance symbol 30": "invalid distance symbol",
    "length symbol 286": "invalid length symbol",
    "stored length": "stored block length is not its complement",
    "stored past the end": "the input ends before the last block",
    "repeat with none before": "a repeated code length with none before it",
    "over-subscribed": "over-subscribed code length code",
    "empty input": "the input ends before the last block",
    "no final block": "the input ends before the last block",
}


@pytest.mark.parametrize("case", list(CORRUPT))
def test_corrupt_streams_are_refused_with_an_error(harness, case):
    result = inflate(harness, CORRUPT[case], size=1_000_000)
    assert not result["ok"], result
    assert result["isError"], result
    assert result["error"] == "inflate: " + REASON[case]


def test_the_hand_written_streams_are_right_but_for_their_fault(harness):
    """The bit writer is sound: the same streams, mended, unpack."""
    good = (
        fixed_length(
            fixed_literal(fixed_literal(Bits().field(1, 1).field(1, 2), 65), 66), 258
        )  # length 4
        .code(1, 5)  # distance 2
        .code(0, 7)
        .bytes()
    )
    assert inflate(harness, good, size=100)["bytes"] == b"ABABAB"
    stored = Bits().field(1, 1).field(0, 2).bytes() + struct.pack("<HH", 5, 5 ^ 0xFFFF) + b"hello"
    assert inflate(harness, stored, size=100)["bytes"] == b"hello"


@pytest.mark.parametrize("level", LEVELS)
def test_every_truncation_is_refused(harness, level):
    data = SAMPLES["repetitive"][:30_000] + SAMPLES["random"][:3_000]
    packed = deflate(data, level)
    cuts = sorted({*range(0, min(len(packed), 40)), *range(0, len(packed), len(packed) // 60)})
    for cut in cuts:
        if cut == len(packed):
            continue
        result = inflate(harness, packed[:cut], size=len(data))
        assert not result["ok"], (cut, len(packed))
        assert result["isError"] and result["error"].startswith("inflate:"), result


def test_damaged_streams_end_in_output_or_an_error(harness):
    """Flipped bits anywhere: some streams still decode (to other bytes, never more than the
    size asked for), the rest are refused; none hangs or throws anything but the decoder's
    Error."""
    data = SAMPLES["mixed-2MB"][:300_000]
    rng = _rng(4)
    for level in (1, 9):
        packed = deflate(data, level)
        for _ in range(40):
            damaged = bytearray(packed)
            for _ in range(rng.randrange(1, 4)):
                damaged[rng.randrange(len(damaged))] ^= 1 << rng.randrange(8)
            result = inflate(harness, bytes(damaged), size=len(data) + 10_000)
            if not result["ok"]:
                assert result["isError"] and result["error"].startswith("inflate:"), result
            else:
                assert len(result["bytes"]) <= len(data) + 10_000, len(result["bytes"])
    harness.assert_no_errors()


# --- The VASSAL import without the browser's decompression -------------------------------------


@pytest.fixture(scope="module")
def pages(browser, site_url):
    """The VASSAL harness with the browser's DecompressionStream, without it, and with one
    that lacks deflate-raw."""
    yield from three_pages(browser, site_url)


def read(page: AppPage, data: bytes, name: str = "test.vmod") -> dict:
    page.page.set_input_files(
        "#vmod", files=[{"name": name, "mimeType": "application/zip", "buffer": data}]
    )
    return page.page.evaluate(READ, 0)


def test_the_pages_lack_what_they_should(pages):
    ask = """() => {
      if (typeof DecompressionStream === "undefined") return "none";
      try {
        new DecompressionStream("deflate-raw");
        return "native";
      } catch (e) {
        return "no-raw";
      }
    }"""
    for kind, page in pages.items():
        assert page.page.evaluate(ask) == kind


@pytest.mark.parametrize("case", ["flat-stagger", "pointy-offsets", "zone"])
def test_a_module_reads_the_same_without_decompression_stream(pages, case):
    grid = CASES[case]
    data, found = vmod(grid)  # build file, module data and picture all deflated
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert {i.compress_type for i in z.infolist()} == {zipfile.ZIP_DEFLATED}
    results = {kind: read(page, data) for kind, page in pages.items()}
    for kind, result in results.items():
        check_board(result, grid, found)
        pages[kind].assert_no_errors()
    native = results["native"]
    for kind in ("none", "no-raw"):
        result = results[kind]
        for key in ("name", "pieces", "boards", "map", "transform", "width", "height", "type"):
            assert result[key] == native[key], (kind, key)
        assert result["centres"] == native["centres"], kind


def test_a_large_picture_reads_the_same_without_decompression_stream(pages):
    """A picture whose packed bytes are far more than its start (read alone first for its size)."""
    grid = CASES["flat-stagger"]
    data, found = vmod(grid)
    rebuilt = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as old, zipfile.ZipFile(rebuilt, "w") as new:
        for info in old.infolist():
            content = old.read(info)
            if info.filename == "images/board.png":
                # An ancillary private chunk of noise after the header: 400 KB that do not pack.
                noise = _rng(5).randbytes(400_000)
                body = b"ruSt" + noise
                chunk = struct.pack(">I", len(noise)) + body + struct.pack(">I", zlib.crc32(body))
                content = content[:33] + chunk + content[33:]
            new.writestr(info.filename, content, compress_type=zipfile.ZIP_DEFLATED)
    data = rebuilt.getvalue()
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert z.getinfo("images/board.png").compress_size > 400_000
    results = {kind: read(page, data) for kind, page in pages.items()}
    for kind, result in results.items():
        check_board(result, grid, found)
        pages[kind].assert_no_errors()
        assert result["transform"] == results["native"]["transform"]
        assert result["centres"] == results["native"]["centres"]


def test_a_damaged_entry_is_refused_as_damaged_without_decompression_stream(pages):
    data = bytearray(vmod(CASES["flat-stagger"])[0])
    with zipfile.ZipFile(io.BytesIO(bytes(data))) as z:
        info = z.getinfo("buildFile.xml")
    # The entry's packed bytes start after its 30-byte local header, name and extra field.
    name_length, extra_length = struct.unpack_from("<HH", data, info.header_offset + 26)
    start = info.header_offset + 30 + name_length + extra_length
    data[start] = 0x07  # block type 3
    result = read(pages["none"], bytes(data))
    assert result["error"]["key"] == "editor.vassal.damaged"
    assert result["error"]["params"] == {"entry": "buildFile.xml"}


def test_an_entry_declaring_more_than_its_limit_is_refused_by_name(pages):
    data = bytearray(vmod(CASES["flat-stagger"])[0])
    # The central directory says the build file unpacks to 3 GB.
    at = data.index(b"PK\x01\x02")
    assert data[at + 46 : at + 46 + 13] == b"buildFile.xml"
    struct.pack_into("<I", data, at + 24, 3_000_000_000)
    result = read(pages["none"], bytes(data))
    assert result["error"]["key"] == "editor.limit.entry"
    assert result["error"]["params"] == {"entry": "buildFile.xml", "size": 2862, "max": 16}
