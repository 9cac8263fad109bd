#!/usr/bin/env python3
"""Build the static site into dist/, or build and serve it: ``python build.py [serve]``.

Standard library only (and Node.js, which runs Pyodide to make the memory snapshot). Writes the
app, the Pyodide core files (from node_modules), the rules core as one file (core/core.json) with
a memory snapshot of it imported and warmed (core/snapshot.gz), the web app manifest with its
icons and screenshots, and a service worker whose precache list carries each file's content
hash, so an update downloads only the files that changed (static/sw.template.js says how).
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import hashlib
import http.server
import json
import os
import shutil
import struct
import subprocess
import sys
import threading
import zlib
from collections.abc import Callable
from functools import partial
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent
PY = ROOT / "py"
PACKAGE = "muster"
PYODIDE_DIR = ROOT / "node_modules" / "pyodide"
# The Pyodide files the browser loads; the rest of the npm package is for Node.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
# Small libraries the app loads as they are published (npm, pinned in package.json), copied
# into dist/vendor/: a QR code drawn (lean-qr) and read (jsQR) to pair two tablets.
VENDOR_FILES = {
    "lean-qr.mjs": ROOT / "node_modules" / "lean-qr" / "index.mjs",
    "jsQR.js": ROOT / "node_modules" / "jsqr" / "dist" / "jsQR.js",
}
# The manifest's screenshots (made by bench/screenshots.py), copied into dist/screenshots/.
SCREENSHOTS = ROOT / "docs" / "screenshots"
# Files of dist/ the service worker does not precache: itself, GitHub Pages' marker, the build
# stamp written after it, and the screenshots only an install dialog shows.
NOT_PRECACHED = ("sw.js", ".nojekyll", "build.json")
NOT_PRECACHED_DIRS = ("screenshots/",)

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".gz": "application/gzip",
    ".zip": "application/zip",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".html": "text/html; charset=utf-8",
    ".css": "text/css",
    ".py": "text/x-python",
}


def package_version() -> str:
    """The core's version, read from its __init__ without importing it."""
    for line in (PY / PACKAGE / "__init__.py").read_text().splitlines():
        if line.startswith("__version__"):
            return line.split("=", 1)[1].strip().strip("\"'")
    raise SystemExit("build: no __version__ in py/muster/__init__.py")


def core_files() -> dict[str, str]:
    """The core's files as the worker writes them into site-packages: path -> text.

    Its .py and .json files alone: with a dist-info beside them Pyodide would count the core
    as an installed package, and it refuses to snapshot a heap after a package install.
    """
    files: dict[str, str] = {}
    for path in sorted((PY / PACKAGE).rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix in (".py", ".json"):
            files[path.relative_to(PY).as_posix()] = path.read_text(encoding="utf-8")
    return files


def write_core(dist: Path) -> dict:
    """Write core/core.json: the core's files, their fingerprint, and the lockfile Pyodide
    starts with (the npm package's ``info`` block, no package: nothing is installed).
    Returns its contents."""
    files = core_files()
    fingerprint = hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()
    lock = json.loads((PYODIDE_DIR / "pyodide-lock.json").read_text())
    core = {
        "version": package_version(),
        "fingerprint": fingerprint,
        "lock": {"info": lock["info"], "packages": {}},
        "files": files,
    }
    (dist / "core").mkdir(parents=True, exist_ok=True)
    (dist / "core" / "core.json").write_text(json.dumps(core, ensure_ascii=False))
    return core


# What a snapshot is made from besides the core's files: the code that makes it.
SNAPSHOT_TOOLS = (ROOT / "tools" / "snapshot.mjs", ROOT / "static" / "pyboot.js")
SNAPSHOT_CACHE = ROOT / ".cache" / "snapshots"


# The snapshot ships as 64 KiB pages (WebAssembly's): a map of the pages that hold anything but
# zeros, then those pages, gzipped. Near half of Python's heap is zeros, which then cost neither
# unpacking nor copying: the worker writes each page at its place in a zeroed buffer.
SNAPSHOT_PAGE = 65536


def pack_snapshot(raw: bytes) -> bytes:
    """A memory snapshot as core/snapshot.gz holds it: gzip of the page map (bit ``i % 8`` of
    byte ``i // 8`` set for page ``i`` kept) and the kept pages, the last one cut at the end."""
    count = -(-len(raw) // SNAPSHOT_PAGE)
    kept = bytearray(-(-count // 8))
    pages = []
    for i in range(count):
        page = raw[i * SNAPSHOT_PAGE : (i + 1) * SNAPSHOT_PAGE]
        if page.strip(b"\0"):
            kept[i // 8] |= 1 << (i % 8)
            pages.append(page)
    return gzip.compress(bytes(kept) + b"".join(pages), 9, mtime=0)


def unpack_snapshot(data: bytes, size: int) -> bytes:
    """The memory snapshot of ``size`` bytes that :func:`pack_snapshot` packed into ``data``.

    Raises:
        ValueError: ``data`` does not hold exactly the pages its map names.
    """
    body = gzip.decompress(data)
    count = -(-size // SNAPSHOT_PAGE)
    kept, pages = body[: -(-count // 8)], body[-(-count // 8) :]
    raw = bytearray(size)
    at = 0
    for i in range(count):
        if kept[i // 8] >> (i % 8) & 1:
            start = i * SNAPSHOT_PAGE
            length = min(SNAPSHOT_PAGE, size - start)
            raw[start : start + length] = pages[at : at + length]
            at += length
    if at != len(pages):
        raise ValueError(f"{len(pages)} bytes of pages, not {at}")
    return bytes(raw)


def write_snapshot(dist: Path, core: dict) -> None:
    """Make core/snapshot.gz, the memory snapshot the worker boots from, and core/snapshot.json,
    its size unpacked, its page size and its id (a hash of the file): a small file, which the
    worker reads at once, to unpack the snapshot as it arrives without waiting for core.json.

    Made in Node by tools/snapshot.mjs (Pyodide from dist/, the core imported and warmed),
    packed by pages and gzipped (:func:`pack_snapshot`: hosts do not compress a binary file; the
    worker unpacks it as it arrives) and kept in .cache/snapshots/ under a key of everything it
    is made from, so a build with the same core, Pyodide and tools reuses it.
    """
    key_parts = [core["fingerprint"], pyodide_version(), _pyodide_build_id()]
    key_parts += [hashlib.sha256(path.read_bytes()).hexdigest() for path in SNAPSHOT_TOOLS]
    key_parts.append(str(SNAPSHOT_PAGE))
    key = hashlib.sha256("\n".join(key_parts).encode()).hexdigest()[:24]
    cached = SNAPSHOT_CACHE / f"{key}.gz"
    size_file = cached.with_suffix(".json")
    if not (cached.exists() and size_file.exists()):
        raw_file = dist / "core" / "snapshot.raw"
        node = shutil.which("node")
        if node is None:
            raise SystemExit("build: Node.js is needed to make the memory snapshot")
        made = subprocess.run(
            [node, "--no-warnings", str(ROOT / "tools" / "snapshot.mjs"), str(dist), str(raw_file)],
            capture_output=True,
            text=True,
        )
        if made.returncode != 0 or not raw_file.exists():
            raise SystemExit(f"build: the memory snapshot failed:\n{made.stderr[-4000:]}")
        raw = raw_file.read_bytes()
        raw_file.unlink()
        SNAPSHOT_CACHE.mkdir(parents=True, exist_ok=True)
        for target, data in (
            (size_file, json.dumps({"bytes": len(raw)}).encode()),
            (cached, pack_snapshot(raw)),
        ):
            partial_file = target.with_suffix(f".{os.getpid()}.part")
            partial_file.write_bytes(data)
            partial_file.replace(target)
    data = cached.read_bytes()
    (dist / "core" / "snapshot.gz").write_bytes(data)
    info = {
        "bytes": json.loads(size_file.read_text())["bytes"],
        "page": SNAPSHOT_PAGE,
        "id": hashlib.sha256(data).hexdigest()[:16],
    }
    (dist / "core" / "snapshot.json").write_text(json.dumps(info))


def _pyodide_build_id() -> str:
    """The build id Pyodide checks a snapshot against (written in pyodide.mjs)."""
    text = (PYODIDE_DIR / "pyodide.mjs").read_text()
    marker = "BUILD_ID:"
    at = text.find(marker)
    if at < 0:
        raise SystemExit("build: no BUILD_ID in pyodide.mjs")
    return text[at + len(marker) : at + len(marker) + 80].split('"')[1]


def _png(size: int, radius: float = 0.38) -> bytes:
    """A square app icon: a dark field with a light hexagon, drawn with zlib alone.

    ``radius`` is the distance of the hexagon's corners from the centre as a share of the side:
    0.38 fills a plain icon; a maskable one (:func:`maskable_png`) keeps it in the safe zone.
    """
    import math

    rows = []
    c = size / 2
    radius = size * radius
    corners = [
        (c + radius * math.cos(math.pi / 3 * i), c + radius * math.sin(math.pi / 3 * i))
        for i in range(6)
    ]

    def inside(x: float, y: float) -> bool:
        for i in range(6):
            (x1, y1), (x2, y2) = corners[i], corners[(i + 1) % 6]
            if (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) < 0:
                return False
        return True

    for y in range(size):
        row = bytearray(b"\x00")
        for x in range(size):
            row += b"\xe8\xdc\xb8" if inside(x + 0.5, y + 0.5) else b"\x2b\x3a\x55"
        rows.append(bytes(row))

    def chunk(tag: bytes, data: bytes) -> bytes:
        body = tag + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    raw = zlib.compress(b"".join(rows), 9)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


def maskable_png(size: int) -> bytes:
    """The icon a launcher may cut to a circle or a rounded square: the field fills the whole
    square and the hexagon stays inside the central 80 % (the safe zone, a circle of radius 0.4
    of the side) with room to spare: its corners lie 0.3 of the side from the centre."""
    return _png(size, radius=0.3)


ICON_SIZES = (192, 512)
DESCRIPTION = (
    "A table-side rules engine for horse-and-musket board wargames: it knows the rules of the "
    "battle on the table, previews every fight with its odds, and works offline on a tablet."
)
MANIFEST = {
    "id": "/",
    "name": "Muster: table-side rules for horse-and-musket wargames",
    "short_name": "Muster",
    "description": DESCRIPTION,
    "categories": ["games", "entertainment", "utilities"],
    "start_url": "./",
    "scope": "./",
    "display": "standalone",
    "background_color": "#2b3a55",
    "theme_color": "#2b3a55",
    "icons": [
        *(
            {"src": f"icons/icon-{n}.png", "sizes": f"{n}x{n}", "type": "image/png"}
            | {"purpose": "any"}
            for n in ICON_SIZES
        ),
        *(
            {"src": f"icons/maskable-{n}.png", "sizes": f"{n}x{n}", "type": "image/png"}
            | {"purpose": "maskable"}
            for n in ICON_SIZES
        ),
    ],
}
# The manifest's screenshots: file in docs/screenshots/, form factor, label.
SCREENSHOT_FILES = (
    ("wide.png", "wide", "A demo battle on a wide screen: the map and the play panel"),
    ("narrow.png", "narrow", "A demo battle on a tablet held upright"),
)


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, read from its header."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG file")
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def write_manifest(dist: Path, base_path: str = "/") -> None:
    """The icons, the screenshots and the manifest naming them.

    ``base_path`` is the path the site is served under (GitHub Pages: ``/<repo>/``), the app's
    id: a relative id would resolve against the origin alone, the same for every project site
    of one GitHub user.
    """
    (dist / "icons").mkdir(exist_ok=True)
    for size in ICON_SIZES:
        (dist / "icons" / f"icon-{size}.png").write_bytes(_png(size))
        (dist / "icons" / f"maskable-{size}.png").write_bytes(maskable_png(size))
    base = base_path.strip("/")
    manifest = dict(MANIFEST, id=f"/{base}/" if base else "/")
    shots = []
    for name, form_factor, label in SCREENSHOT_FILES:
        source = SCREENSHOTS / name
        if not source.exists():
            continue  # bench/screenshots.py makes them
        data = source.read_bytes()
        width, height = png_size(data)
        (dist / "screenshots").mkdir(exist_ok=True)
        (dist / "screenshots" / name).write_bytes(data)
        shot = {"src": f"screenshots/{name}", "sizes": f"{width}x{height}", "type": "image/png"}
        shots.append(shot | {"form_factor": form_factor, "label": label})
    if shots:
        manifest["screenshots"] = shots
    (dist / "manifest.webmanifest").write_text(json.dumps(manifest, indent=1))


def copy_scenarios(dist: Path) -> None:
    """Put the shipped scenarios where the renderer can draw them before Python is ready."""
    target = dist / "scenarios"
    target.mkdir(parents=True, exist_ok=True)
    index = []
    # The default demo first, as muster.scenario.builtin_scenarios lists them: the app opens it.
    paths = sorted(
        (PY / PACKAGE / "scenarios").glob("*.json"),
        key=lambda p: (p.stem != "demo-hohenbrueck", p.name),
    )
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        shutil.copyfile(path, target / path.name)
        index.append(
            {"id": data["id"], "system": data["system"], "title": data["title"], "file": path.name}
        )
    (target / "index.json").write_text(json.dumps(index, indent=1, ensure_ascii=False))


def pyodide_version() -> str:
    """The pinned Pyodide's version (node_modules/pyodide/package.json)."""
    return json.loads((PYODIDE_DIR / "package.json").read_text())["version"]


def precache_list(dist: Path) -> list[dict[str, str]]:
    """Every file the service worker keeps, with its revision and content hash, by URL.

    ``rev`` keys the file in the service worker's cache: the sha256 prefix of its bytes, or
    ``pyodide-<version>`` for Pyodide's own files (refetched only when Pyodide changes).
    ``sha256`` is the prefix the service worker checks each download against. ``./`` is
    index.html as the bare (sub-)path serves it.
    """
    version = pyodide_version()
    entries = []
    for path in sorted(p for p in dist.rglob("*") if p.is_file()):
        name = path.relative_to(dist).as_posix()
        if name in NOT_PRECACHED or name.startswith(NOT_PRECACHED_DIRS):
            continue
        sha = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
        rev = f"pyodide-{version}" if name.startswith("pyodide/") else sha
        entries.append({"url": "./" + name, "rev": rev, "sha256": sha})
        if name == "index.html":
            entries.append({"url": "./", "rev": rev, "sha256": sha})
    return sorted(entries, key=lambda e: e["url"])


def write_service_worker(dist: Path) -> str:
    """Write sw.js with the precache list of dist/; returns the build hash (of that list)."""
    (dist / "static" / "sw.template.js").unlink(missing_ok=True)
    entries = precache_list(dist)
    build_hash = hashlib.sha256(json.dumps(entries).encode()).hexdigest()[:16]
    template = (ROOT / "static" / "sw.template.js").read_text()
    text = template.replace("__BUILD_HASH__", build_hash).replace(
        "__PRECACHE__", json.dumps(entries, indent=1)
    )
    (dist / "sw.js").write_text(text)
    return build_hash


def build(dist: Path = ROOT / "dist", base_path: str = "/") -> str:
    """Write the whole site into ``dist``; returns the build hash. ``base_path``: the path the
    site will be served under (the manifest's id)."""
    missing = [f for f in PYODIDE_FILES if not (PYODIDE_DIR / f).exists()]
    if missing:
        raise SystemExit(f"build: {', '.join(missing)} missing in {PYODIDE_DIR}: run `npm ci`")
    absent = [str(p) for p in VENDOR_FILES.values() if not p.exists()]
    if absent:
        raise SystemExit(f"build: {', '.join(absent)} missing: run `npm ci`")
    if dist.exists():
        shutil.rmtree(dist)
    dist.mkdir(parents=True)
    shutil.copyfile(ROOT / "index.html", dist / "index.html")
    shutil.copytree(ROOT / "static", dist / "static")
    (dist / "pyodide").mkdir()
    for name in PYODIDE_FILES:
        shutil.copyfile(PYODIDE_DIR / name, dist / "pyodide" / name)
    (dist / "vendor").mkdir()
    for name, source in VENDOR_FILES.items():
        shutil.copyfile(source, dist / "vendor" / name)
    core = write_core(dist)
    copy_scenarios(dist)
    write_manifest(dist, base_path)
    write_snapshot(dist, core)
    (dist / ".nojekyll").write_text("")
    return finish(dist)


def finish(dist: Path) -> str:
    """The last step of a build: the service worker over the files of ``dist`` and the build
    stamp; returns the build hash."""
    build_hash = write_service_worker(dist)
    stamp = {"hash": build_hash, "version": package_version(), "pyodide": pyodide_version()}
    (dist / "build.json").write_text(json.dumps(stamp, indent=1))
    return build_hash


def rebuild_with(dist: Path, changes: dict[str, bytes]) -> str:
    """The build in ``dist`` as a new build would be with only ``changes`` (paths in dist ->
    new bytes) changed: the update test's second build, immune to other edits of the sources
    in between. Returns the new build hash."""
    for name, data in changes.items():
        target = dist / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return finish(dist)


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves one folder under a path prefix (as GitHub Pages does), plus extra folders."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

    def __init__(
        self,
        *args,
        root: Path,
        prefix: str,
        extra: dict[str, Path],
        on_request: Callable[[str], None] | None = None,
        **kw,
    ) -> None:
        self.root, self.prefix, self.extra, self.on_request = root, prefix, extra, on_request
        super().__init__(*args, directory=str(root), **kw)

    def translate_path(self, path: str) -> str:
        """Map a URL path to a file: under the prefix to dist, under a mount to its folder."""
        url_path = unquote(urlsplit(path).path)
        for mount, folder in self.extra.items():
            if url_path.startswith(mount):
                return self._inside(folder, url_path[len(mount) :])
        if url_path.startswith(self.prefix):
            return self._inside(self.root, url_path[len(self.prefix) :])
        return str(self.root / "__outside_prefix__")

    @staticmethod
    def _inside(folder: Path, rest: str) -> str:
        target = (folder / rest.lstrip("/")).resolve()
        if folder.resolve() not in (target, *target.parents):
            return str(folder / "__forbidden__")
        return str(target)

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        """Redirect the bare prefix to its folder form, then serve the file."""
        if self.on_request:
            self.on_request(self.path)
        if self.prefix != "/" and urlsplit(self.path).path == self.prefix.rstrip("/"):
            self.send_response(301)
            self.send_header("Location", self.prefix)
            self.end_headers()
            return
        super().do_GET()

    def end_headers(self) -> None:
        """Ask the browser to revalidate: the service worker is the offline cache."""
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:  # noqa: A002
        """Quiet unless an error."""
        if args and str(args[1] if len(args) > 1 else "").startswith(("4", "5")):
            super().log_message(format, *args)


def make_server(
    root: Path,
    port: int = 0,
    prefix: str = "/",
    extra: dict[str, Path] | None = None,
    host: str = "127.0.0.1",
    on_request: Callable[[str], None] | None = None,
) -> http.server.ThreadingHTTPServer:
    """A threaded HTTP server for ``root`` under ``prefix``; port 0 picks a free port.

    ``extra`` mounts other folders at URL paths; ``on_request`` is called with the path of
    every GET (tests count what the browser fetches).
    """
    prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
    handler = partial(Handler, root=root, prefix=prefix, extra=extra or {}, on_request=on_request)
    server = http.server.ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server


def serve_in_thread(server: http.server.ThreadingHTTPServer) -> threading.Thread:
    """Run ``server`` in a daemon thread (for tests and benchmarks)."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return thread


def main(argv: list[str] | None = None) -> int:
    """Command line: build, or build and serve."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("command", nargs="?", default="build", choices=["build", "serve"])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--prefix", default="/", help="serve under a sub-path, e.g. /muster/")
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    parser.add_argument(
        "--base-path",
        help="the path the site will be served under, e.g. /muster/ (the app's id in the "
        "manifest); defaults to --prefix",
    )
    args = parser.parse_args(argv)
    build_hash = build(args.out, args.base_path or args.prefix)
    print(f"built {args.out} (build {build_hash})")
    if args.command == "serve":
        server = make_server(args.out, args.port, args.prefix)
        host, port = server.server_address[:2]
        prefix = "/" + args.prefix.strip("/") + "/" if args.prefix.strip("/") else "/"
        print(f"serving the demo battle at http://localhost:{port}{prefix}  (Ctrl+C to stop)")
        sys.stdout.flush()
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
