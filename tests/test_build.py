"""What the build writes for an installed app: the manifest (id, description, categories,
icons for every purpose, screenshots), a maskable icon drawn inside its safe zone, and the
service worker's precache list keyed by content (Pyodide's files by Pyodide's version)."""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import shutil
import struct
import zlib
from pathlib import Path

import pytest

import build


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("build") / "dist"
    build.build(out, base_path="/muster/")
    return out


def pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and rows of RGB triples of a PNG as build._png writes it (8-bit RGB, no
    filter)."""
    width, height = build.png_size(data)
    at, idat = 8, b""
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        tag = data[at + 4 : at + 8]
        if tag == b"IDAT":
            idat += data[at + 8 : at + 8 + length]
        at += 12 + length
    raw = zlib.decompress(idat)
    stride = 1 + 3 * width
    rows = [raw[y * stride + 1 : (y + 1) * stride] for y in range(height)]
    return width, height, rows


def test_the_manifest_describes_the_installed_app(site):
    manifest = json.loads((site / "manifest.webmanifest").read_text())
    assert manifest["id"] == "/muster/"
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"
    assert "horse-and-musket" in manifest["description"]
    assert "games" in manifest["categories"]
    by_purpose: dict[str, set[str]] = {}
    for icon in manifest["icons"]:
        by_purpose.setdefault(icon["purpose"], set()).add(icon["sizes"])
        width, height = build.png_size((site / icon["src"]).read_bytes())
        assert icon["sizes"] == f"{width}x{height}"
    assert by_purpose == {"any": {"192x192", "512x512"}, "maskable": {"192x192", "512x512"}}
    shots = {s["form_factor"]: s for s in manifest["screenshots"]}
    assert set(shots) == {"wide", "narrow"}
    for shot in shots.values():
        width, height = build.png_size((site / shot["src"]).read_bytes())
        assert shot["sizes"] == f"{width}x{height}" and shot["type"] == "image/png"
        assert shot["label"]
    wide = [int(n) for n in shots["wide"]["sizes"].split("x")]
    narrow = [int(n) for n in shots["narrow"]["sizes"].split("x")]
    assert wide[0] > wide[1] and narrow[0] < narrow[1]
    # Kept small: the install dialog downloads them.
    assert all((site / s["src"]).stat().st_size < 400_000 for s in shots.values())


def test_the_maskable_icon_keeps_the_hexagon_in_the_safe_zone():
    field = b"\x2b\x3a\x55"
    for size in build.ICON_SIZES:
        width, height, rows = pixels(build.maskable_png(size))
        assert (width, height) == (size, size)
        drawn = [
            (x + 0.5, y + 0.5)
            for y, row in enumerate(rows)
            for x in range(width)
            if row[3 * x : 3 * x + 3] != field
        ]
        assert drawn, "no hexagon"
        # Every drawn pixel lies inside the central 80 % (a circle of radius 0.4 of the side):
        # a launcher's mask may cut anything beyond it.
        far = max(math.hypot(x - size / 2, y - size / 2) for x, y in drawn)
        assert far <= 0.4 * size
        # The field fills the whole square, corners included, as a mask expects.
        assert rows[0][:3] == field and rows[-1][-3:] == field
    # The plain icon's hexagon is larger: it is not cut.
    _, _, plain = pixels(build._png(192))
    assert sum(row.count(b"\xe8\xdc\xb8") for row in plain) > 0


def test_the_precache_list_is_keyed_by_content(site):
    entries = build.precache_list(site)
    by_url = {e["url"]: e for e in entries}
    assert len(by_url) == len(entries)
    version = build.pyodide_version()
    for entry in entries:
        name = "index.html" if entry["url"] == "./" else entry["url"][2:]
        sha = hashlib.sha256((site / name).read_bytes()).hexdigest()[:16]
        assert entry["sha256"] == sha
        wanted_rev = f"pyodide-{version}" if name.startswith("pyodide/") else sha
        assert entry["rev"] == wanted_rev
    assert "./pyodide/pyodide.asm.wasm" in by_url and "./static/app.js" in by_url
    # Not kept: the worker itself, the build stamp, the screenshots only an install shows.
    assert not any(u in by_url for u in ("./sw.js", "./build.json", "./.nojekyll"))
    assert not any(u.startswith("./screenshots/") for u in by_url)
    # sw.js carries that list.
    sw = (site / "sw.js").read_text()
    start = sw.index("const PRECACHE = ") + len("const PRECACHE = ")
    end = sw.index(";\n", start)
    assert json.loads(sw[start:end]) == entries


def test_a_new_build_with_one_file_changed_changes_one_entry(site, tmp_path):
    copy = tmp_path / "dist"
    shutil.copytree(site, copy)
    before = {e["url"]: e for e in build.precache_list(copy)}
    old_hash = json.loads((copy / "build.json").read_text())["hash"]
    new_hash = build.rebuild_with(copy, {"static/i18n/en.json": b'{"ui.status_ready": "x"}'})
    after = {e["url"]: e for e in build.precache_list(copy)}
    changed = sorted(u for u in after if after[u] != before[u])
    assert changed == ["./static/i18n/en.json"]
    assert new_hash != old_hash
    assert json.loads((copy / "build.json").read_text())["hash"] == new_hash


def test_the_core_travels_as_its_files_with_their_fingerprint(site):
    core = json.loads((site / "core" / "core.json").read_text())
    shipped = {
        p.relative_to(build.PY).as_posix()
        for p in (build.PY / build.PACKAGE).rglob("*")
        if p.suffix in (".py", ".json") and "__pycache__" not in p.parts
    }
    assert set(core["files"]) == shipped
    assert core["files"]["muster/api.py"] == (build.PY / "muster" / "api.py").read_text()
    # No dist-info: Pyodide would count the core as an installed package, and a heap that
    # has installed one cannot be snapshotted.
    assert not [name for name in core["files"] if ".dist-info" in name]
    assert core["lock"]["packages"] == {} and core["lock"]["info"]["python"].startswith("3.14")
    digest = hashlib.sha256(json.dumps(core["files"], sort_keys=True).encode()).hexdigest()
    assert core["fingerprint"] == digest


def test_the_snapshot_is_named_in_snapshot_json_and_made_the_same_from_the_same_inputs(
    site, tmp_path
):
    import subprocess

    data = (site / "core" / "snapshot.gz").read_bytes()
    core = json.loads((site / "core" / "core.json").read_text())
    info = json.loads((site / "core" / "snapshot.json").read_text())
    raw = build.unpack_snapshot(data, info["bytes"])
    assert info == {
        "bytes": len(raw),
        "page": 65536,
        "id": hashlib.sha256(data).hexdigest()[:16],
    }
    # Packed by pages: the zero pages are left out, and nearly half the heap is zeros.
    assert build.pack_snapshot(raw) == data
    assert len(gzip.decompress(data)) < 0.7 * len(raw)
    magic, heap_start = struct.unpack("<II", raw[:8])
    assert magic == 1886286592 and heap_start < len(raw)
    # 30 MiB of heap: the smallest Pyodide starts with, which a tablet can spare.
    assert len(raw) - heap_start == 30 * 2**20
    assert core["fingerprint"].encode() in raw
    # Made again here (the build took it from .cache/snapshots/ or made it): the same bytes.
    again = tmp_path / "again.raw"
    made = subprocess.run(
        [
            "node",
            "--no-warnings",
            str(build.ROOT / "tools" / "snapshot.mjs"),
            str(site),
            str(again),
        ],
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stderr[-2000:]
    assert again.read_bytes() == raw


def test_a_snapshot_packed_by_pages_unpacks_to_the_same_bytes():
    page = build.SNAPSHOT_PAGE
    raw = bytes(page) + b"\1" * page + bytes(2 * page) + b"\2" * 100 + bytes(page) + b"\3" * 7
    packed = build.pack_snapshot(raw)
    assert build.unpack_snapshot(packed, len(raw)) == raw
    body = gzip.decompress(packed)
    # The map (6 pages: one byte, bits 1, 4 and 5 set), then the three kept pages, the last
    # one cut at the end (107 bytes).
    assert body[0] == 0b110010 and len(body) == 1 + page + page + 107
    with pytest.raises(ValueError):
        build.unpack_snapshot(packed, len(raw) + page)
