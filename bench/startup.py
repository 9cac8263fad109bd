#!/usr/bin/env python3
"""Startup benchmark: the normal boot, the snapshot boot and bare Pyodide, cold and warm.

One run measures, side by side in headless Chromium, the app started by a normal Pyodide start
(``?boot=normal``), the app started from the build's memory snapshot (the default) and bare
Pyodide (bench/bare.html: no packages, main thread) as the baseline. Cold is a fresh browser
context (a new profile: empty HTTP cache, no service worker); warm is a second visit in the
same context, once the service worker controls the page (it has precached the site). Each
context has a profile on disk, as a browser has: Playwright's default contexts (--incognito)
keep their HTTP cache in memory, which keeps no file as large as pyodide.asm.wasm, so the
browser fetches it again where a browser would not. Each round visits the three in turn,
starting with a different one each round, so that machine noise hits them alike.

Prints medians (ms since navigation start, with the min-max spread) of first map paint, rules
ready and bare Pyodide ready; rules ready over bare ready against the targets (snapshot boot:
at most 0.5x bare cold, 0.4x bare warm); the worker's phases; the bytes each visit fetched,
counted by the server (every request: the page's, the worker's, the service worker's), raw
and as a compressing host would send them (gzip -6, except files compressed already), with
any URL fetched more than once in one visit; and the worker's WebAssembly heap after rules
ready and after each demo is loaded and started (target: 30 MiB).

    python bench/startup.py [--runs 7] [--verbose] [--incognito]
"""

from __future__ import annotations

import argparse
import gzip
import http.server
import json
import shutil
import statistics
import sys
import tempfile
import threading
from collections import Counter, defaultdict
from functools import cache, partial
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "py")]

from playwright.sync_api import sync_playwright  # noqa: E402

import build  # noqa: E402
from tests.conftest import chromium_launch_args  # noqa: E402

TIMEOUT_MS = 120_000
VARIANTS = ("normal", "snapshot", "bare")
VISITS = ("cold", "warm")
# Where the server mounts the bench's folder and the bare page's lockfile.
BENCH_MOUNT = "/__bench__/"
LOCK_MOUNT = "/__bench_lock__/"
# The snapshot boot's targets: rules ready at most this share of bare Pyodide ready.
TARGETS = {"cold": 0.5, "warm": 0.4}
# The worker's WebAssembly heap after each demo: at most 30 MiB.
HEAP_TARGET = 30 * 1024 * 1024
DEMOS = ("demo-hohenbrueck", "demo-valmont", "demo-fontanella")
DEMO_SEED = 7
DEMO_ACTS = 5
# Files a host sends as they are: compressing them again gains nothing.
COMPRESSED = (".gz", ".zip", ".png")
# After a warm visit is ready, how long its late requests (the service worker's update
# check) have to arrive before the context closes.
SETTLE_MS = 500

# Runs in the page before its own scripts, to time the boot from the page's side: its
# streaming WebAssembly compiles (bare Pyodide's, or a page-side compile of pyodide.asm.wasm)
# and its workers (when each was made, its first message, and for the rules worker the ready
# message's arrival).
PAGE_TIMING = """
(() => {
  const marks = (window.benchWasm = []);
  for (const name of ["compileStreaming", "instantiateStreaming"]) {
    const original = WebAssembly[name];
    if (typeof original !== "function") continue;
    WebAssembly[name] = function (...args) {
      const mark = { name: name, start: performance.now(), end: null };
      marks.push(mark);
      return original.apply(this, args).then((result) => {
        mark.end = performance.now();
        return result;
      });
    };
  }
  const workers = (window.benchWorkers = []);
  const Original = window.Worker;
  if (typeof Original !== "function") return;
  window.Worker = class extends Original {
    constructor(url, options) {
      super(url, options);
      const entry = { url: String(url), created: performance.now(), first: null, ready: null };
      workers.push(entry);
      this.addEventListener("message", (event) => {
        const now = performance.now();
        if (entry.first === null) entry.first = now;
        const data = event.data;
        if (entry.ready === null && typeof data === "string" && data.includes('"type":"ready"')) {
          entry.ready = now;
        }
      });
    }
  };
})();
"""

# Loads a demo in the worker, starts it and takes a few first legal actions; resolves to the
# worker's heap afterwards.
PLAY_DEMO = """
async ([id, seed, acts]) => {
  const engine = window.muster.engine;
  await engine.call("load_scenario", { id: id });
  let view = await engine.call("new_game", { seed: seed });
  let taken = 0;
  while (taken < acts && view.legal && view.legal.length) {
    view = await engine.call("act", { action: view.legal[0] });
    taken += 1;
  }
  const stats = await engine.stats();
  return { heap: stats.heap, acts: taken };
}
"""


class Traffic:
    """Every GET the server answers, filed under the visit in progress when it came."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.visit: tuple | None = None
        self.requests: dict[tuple, list[dict]] = defaultdict(list)

    def start(self, visit: tuple | None) -> None:
        """File the next requests under ``visit`` (None: file them nowhere)."""
        with self.lock:
            self.visit = visit

    def add(self, path: str, status: int, dest: str) -> dict:
        """A new request's record: its URL, status, Sec-Fetch-Dest (who asked: "document",
        "script", "worker", "empty" for a fetch...) and (so far) no body byte."""
        record = {
            "path": path,
            "status": status,
            "dest": dest,
            "bytes": 0,
            "file": None,
            "cut": False,
        }
        with self.lock:
            if self.visit is not None:
                self.requests[self.visit].append(record)
        return record


class CountingHandler(build.Handler):
    """build.Handler that records each response and counts the body bytes it sends."""

    def __init__(self, *args, traffic: Traffic, **kw) -> None:
        self.traffic = traffic
        self.record: dict | None = None
        super().__init__(*args, **kw)

    def send_response(self, code: int, message: str | None = None) -> None:
        """Record the response (redirects, 304s and errors too: they send no file)."""
        self.record = self.traffic.add(self.path, code, self.headers.get("Sec-Fetch-Dest", "?"))
        super().send_response(code, message)

    def log_message(self, format: str, *args) -> None:  # noqa: A002
        """Quiet: every response is recorded."""

    def copyfile(self, source, outputfile) -> None:
        """Send the file, counting its bytes; a request the browser drops counts as cut."""
        record = self.record or self.traffic.add(self.path, 200, "?")
        record["file"] = source.name
        try:
            while chunk := source.read(64 * 1024):
                outputfile.write(chunk)
                record["bytes"] += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            record["cut"] = True


def make_server(dist: Path, lock_dir: Path, traffic: Traffic) -> http.server.HTTPServer:
    """A threaded server for ``dist`` at the root, the bench folder and the bare lockfile."""
    extra = {BENCH_MOUNT: ROOT / "bench", LOCK_MOUNT: lock_dir}
    handler = partial(
        CountingHandler, root=dist, prefix="/", extra=extra, on_request=None, traffic=traffic
    )
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    return server


def write_bare_lock(folder: Path) -> None:
    """The lockfile bare Pyodide starts with: the npm package's info block, no packages, as
    the app gives Pyodide (core.json's ``lock``)."""
    lock = json.loads((build.PYODIDE_DIR / "pyodide-lock.json").read_text())
    (folder / "pyodide-lock.json").write_text(json.dumps({"info": lock["info"], "packages": {}}))


@cache
def gzip_size(file: str) -> int:
    """What a compressing host sends for ``file``: gzip -6 of it, or the file itself if it is
    compressed already."""
    data = Path(file).read_bytes()
    if file.endswith(COMPRESSED):
        return len(data)
    return len(gzip.compress(data, compresslevel=6, mtime=0))


def wait_ready(page) -> None:
    """Until the page says it is ready (html[data-ready='1'])."""
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=TIMEOUT_MS)


def app_visit(page, url: str) -> dict:
    """Load the app; its timing (start, mapPainted, rulesReady, boot: the worker's ready
    message) and the page's WebAssembly compiles."""
    page.goto(url)
    wait_ready(page)
    return page.evaluate(
        "({timing: window.musterTiming, wasm: window.benchWasm, workers: window.benchWorkers})"
    )


def bare_visit(page, url: str) -> dict:
    """Load bare Pyodide; its ready time and WebAssembly compiles."""
    page.goto(url)
    wait_ready(page)
    return page.evaluate("({ready: window.bareReady, wasm: window.benchWasm})")


def wasm_end(visit: dict) -> float | None:
    """When the page first held Pyodide's compiled WebAssembly: the end of its own streaming
    compile, or the first message of the compiling worker (static/compile_worker.js)."""
    ends = [m["end"] for m in visit.get("wasm") or [] if m.get("end") is not None]
    compiler = worker_entry(visit, "compile_worker.js")
    if compiler and compiler["first"] is not None:
        ends.append(compiler["first"])
    return min(ends) if ends else None


def worker_entry(visit: dict, name: str) -> dict | None:
    """The page's record of the first worker made from a script named ``name``."""
    for entry in visit.get("workers") or []:
        if urlsplit(entry["url"]).path.rsplit("/", 1)[-1] == name:
            return entry
    return None


def fresh_context(pw, browser, incognito: bool):
    """A browser context with nothing of the site: a new profile on disk (its own browser,
    with an on-disk HTTP cache as a browser has), or under ``incognito`` a context of the
    running browser (an in-memory HTTP cache, which keeps no file as large as
    pyodide.asm.wasm). Returns the context and its profile folder (None under incognito)."""
    if incognito:
        return browser.new_context(), None
    profile = Path(tempfile.mkdtemp(prefix="muster-profile-"))
    return pw.chromium.launch_persistent_context(str(profile), **chromium_launch_args()), profile


def measure(variant: str, pw, browser, urls: dict, traffic: Traffic, rnd: int, incognito: bool):
    """One cold and one warm visit of ``variant`` in a fresh context."""
    context, profile = fresh_context(pw, browser, incognito)
    context.add_init_script(PAGE_TIMING)
    page = context.pages[0] if context.pages else context.new_page()
    # A request for no file first, so the renderer and the network stack are up before the
    # cold visit, as in a browser already running; it leaves nothing of the site behind.
    page.goto(urls["warm-up"])
    visits = {}
    traffic.start((variant, "cold", rnd))
    if variant == "bare":
        visits["cold"] = bare_visit(page, urls[variant])
        traffic.start((variant, "warm", rnd))
        visits["warm"] = bare_visit(page, urls[variant])
    else:
        visits["cold"] = app_visit(page, urls[variant])
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=TIMEOUT_MS)
        traffic.start((variant, "warm", rnd))
        visits["warm"] = app_visit(page, urls[variant])
    page.wait_for_timeout(SETTLE_MS)
    context.close()
    traffic.start(None)
    if profile:
        shutil.rmtree(profile, ignore_errors=True)
    return visits


def heap_run(browser, url: str) -> dict:
    """The worker's heap after rules ready and after each demo, in a fresh context."""
    context = browser.new_context()
    page = context.new_page()
    visit = app_visit(page, url)
    heaps = {"rules ready": {"heap": visit["timing"]["boot"]["heap"], "acts": None}}
    for demo in DEMOS:
        heaps[demo] = page.evaluate(PLAY_DEMO, [demo, DEMO_SEED, DEMO_ACTS])
    boot = visit["timing"]["boot"]["boot"]
    context.close()
    return {"boot": boot, "heaps": heaps}


def spread(values: list[float]) -> str:
    """A median with its min-max spread."""
    return f"{statistics.median(values):.0f} [{min(values):.0f}-{max(values):.0f}]"


def verdict(value: float, target: float, unit: str = "x") -> str:
    """ "met", or by how much ``value`` misses ``target`` (a ratio, or bytes)."""
    if value <= target:
        return "met"
    if unit == "x":
        return f"missed by {value - target:.2f}x"
    return f"missed by {value - target:,.0f} bytes ({(value - target) / 2**20:.1f} MiB)"


def visit_bytes(records: list[dict]) -> tuple[int, int, int]:
    """Requests, raw body bytes and the bytes a compressing host would send."""
    raw = sum(r["bytes"] for r in records)
    packed = sum(gzip_size(r["file"]) for r in records if r["file"] and r["bytes"])
    return len(records), raw, packed


def repeated(records: list[dict]) -> dict[str, list[dict]]:
    """URLs (query left out) requested more than once in one visit: their requests."""
    by_url: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        by_url[urlsplit(r["path"]).path].append(r)
    return {path: rs for path, rs in by_url.items() if len(rs) > 1}


def print_repeats(repeats: dict, runs: int, verbose: bool) -> None:
    """Which URLs one visit fetched more than once: how many, and those whose body was sent
    again (the others were revalidations, 304, with no body); all of them under --verbose."""
    if not any(any(per_round) for per_round in repeats.values()):
        print("no URL was requested more than once in one visit")
        return
    print(
        "URLs requested more than once in one visit (each file should be fetched once); "
        "a 304 is a revalidation, headers only"
    )
    for (variant, visit), per_round in repeats.items():
        counts = [len(found) for found in per_round]
        if not any(counts):
            continue
        again: dict[str, int] = {}
        for found in per_round:
            for path, rs in found.items():
                sizes = [r["bytes"] for r in rs]
                if sum(1 for n in sizes if n) > 1:
                    again[path] = max(again.get(path, 0), sum(sizes) - max(sizes))
        many = f"{min(counts)}-{max(counts)}" if min(counts) != max(counts) else f"{counts[0]}"
        line = f"  {variant} {visit}: {many} URL{'' if many == '1' else 's'}"
        if again:
            listed = ", ".join(f"{path} +{extra:,}" for path, extra in sorted(again.items()))
            line += f"; body sent again: {listed} (+{sum(again.values()):,} bytes)"
        else:
            line += "; no body sent twice"
        shown = max(per_round, key=len)
        entries = [
            f"{path} x{len(rs)} ({'/'.join(str(r['status']) for r in rs)})"
            for path, rs in sorted(shown.items())
        ]
        if len(entries) <= 3:
            line += "; " + ", ".join(entries)
        print(line)
        if verbose and len(entries) > 3:
            for entry in entries:
                print(f"      {entry}")


def print_times(results: dict, runs: int, version: str, incognito: bool) -> None:
    contexts = "incognito contexts" if incognito else "a new profile on disk per context"
    print(
        f"Chromium {version}, localhost, {contexts}, {runs} rounds (normal, snapshot and bare "
        "Pyodide interleaved), medians [min-max] in ms since navigation start"
    )
    print(f"{'':30}{'cold':>18}{'warm':>18}")
    rows = [
        ("first map paint, normal", "normal", "paint"),
        ("rules ready, normal", "normal", "ready"),
        ("first map paint, snapshot", "snapshot", "paint"),
        ("rules ready, snapshot", "snapshot", "ready"),
        ("bare Pyodide ready", "bare", "ready"),
    ]
    for label, variant, key in rows:
        cells = [spread([v[key] for v in results[variant][visit]]) for visit in VISITS]
        print(f"{label:30}{cells[0]:>18}{cells[1]:>18}")
    print()
    print("rules ready / bare Pyodide ready (medians)")
    bare = {
        visit: statistics.median(v["ready"] for v in results["bare"][visit]) for visit in VISITS
    }
    for variant in ("normal", "snapshot"):
        cells = []
        for visit in VISITS:
            ready = statistics.median(v["ready"] for v in results[variant][visit])
            ratio = ready / bare[visit]
            cell = f"{visit} {ratio:.2f}"
            if variant == "snapshot":
                target = TARGETS[visit]
                cell += f" (target <= {target}: {verdict(ratio, target)}"
                if ratio > target:
                    cell += f", {ready - target * bare[visit]:.0f} ms over"
                cell += ")"
            cells.append(cell)
        print(f"  {variant:10}" + ";  ".join(cells))


def print_phases(results: dict) -> None:
    """Where a boot spends its time: the page's marks and the worker's own figures."""
    print()
    print("boot phases, medians in ms")
    print("  since navigation start: made (the page makes the rules worker), runs (its script")
    print("    starts: ready msg - worker), wasm (the page holds the compiled pyodide.asm.wasm),")
    print("    ready msg (the worker's ready message reaches the page), rules ready")
    print("  durations the worker reports: fetch (fetch and unpack of core/snapshot.gz), pyodide")
    print("    (Pyodide's start until Python is up: the restore, or the normal start; waiting for")
    print("    the compiled module included; in the snapshot boot it runs beside the fetch),")
    print("    import (of the core), worker (its script's start to its ready message)")
    header = ("made", "runs", "wasm", "fetch", "pyodide", "import", "worker", "ready msg", "rules")
    keys = ("made", "runs", "wasm", "fetchMs", "pyodideMs", "importMs", "bootMs", "msg", "ready")
    print(f"{'':16}" + "".join(f"{h:>10}" for h in header))
    for variant in ("normal", "snapshot"):
        for visit in VISITS:
            runs = results[variant][visit]
            cells = []
            for key in keys:
                values = [v[key] for v in runs if v.get(key) is not None]
                cells.append(f"{statistics.median(values):.0f}" if values else "-")
            print(f"{variant + ' ' + visit:16}" + "".join(f"{c:>10}" for c in cells))
    for visit in VISITS:
        values = [v["wasm"] for v in results["bare"][visit] if v.get("wasm") is not None]
        if values:
            print(f"bare {visit}: Pyodide's wasm compiled at {statistics.median(values):.0f} ms")
    for variant in ("normal", "snapshot"):
        boots = Counter(
            (v["boot"], v.get("refused")) for visit in VISITS for v in results[variant][visit]
        )
        print(
            f"{variant} boots: "
            + ", ".join(
                f"{b}{' (refused: ' + r + ')' if r else ''} x{n}" for (b, r), n in boots.items()
            )
        )


def print_bytes(traffic: Traffic, runs: int, verbose: bool) -> None:
    print()
    print(
        "bytes per visit, counted by the server (every request: page, worker, service worker), "
        f"medians of {runs} rounds"
    )
    print(f"{'':18}{'requests':>10}{'raw':>16}{'gzip -6':>16}")
    repeats: dict[tuple, list[dict[str, list[dict]]]] = {}
    for variant in VARIANTS:
        for visit in VISITS:
            per_round = [traffic.requests.get((variant, visit, r), []) for r in range(runs)]
            counts = [visit_bytes(records) for records in per_round]
            cells = [statistics.median(c[i] for c in counts) for i in range(3)]
            raws = [c[1] for c in counts]
            varied = "" if len(set(raws)) == 1 else f" (raw {min(raws):,}-{max(raws):,})"
            print(
                f"{variant + ' ' + visit:18}{cells[0]:>10.0f}{cells[1]:>16,.0f}{cells[2]:>16,.0f}"
                + varied
            )
            repeats[(variant, visit)] = [repeated(records) for records in per_round]
    print()
    print_repeats(repeats, runs, verbose)
    if verbose:
        for variant in VARIANTS:
            print()
            print(f"{variant} cold, first round, by URL (query left out):")
            files: dict[str, list[dict]] = defaultdict(list)
            for r in traffic.requests.get((variant, "cold", 0), []):
                files[urlsplit(r["path"]).path].append(r)
            rows = []
            for path, records in files.items():
                _, raw, packed = visit_bytes(records)
                codes = " ".join(f"{r['status']} {r['dest']}" for r in records)
                cut = " cut" if any(r["cut"] for r in records) else ""
                rows.append((raw, path, len(records), codes + cut, packed))
            for raw, path, count, codes, packed in sorted(rows, key=lambda row: (-row[0], row[1])):
                print(f"  {path:40}{count:>2}x {codes:28}{raw:>12,}{packed:>12,}")


def print_heaps(heaps: dict, results: dict) -> None:
    print()
    print(
        f"worker wasm heap, bytes (target after each demo: <= {HEAP_TARGET:,} = 30 MiB; "
        f"each demo: load_scenario, new_game seed {DEMO_SEED}, up to {DEMO_ACTS} acts)"
    )
    print(f"{'':28}" + "".join(f"{b + ' boot':>34}" for b in ("normal", "snapshot")))
    ready = []
    for variant in ("normal", "snapshot"):
        values = [v["heap"] for visit in VISITS for v in results[variant][visit]]
        ready.append(f"{statistics.median(values):,.0f}")
    print(f"{'rules ready (all visits)':28}" + "".join(f"{c:>34}" for c in ready))
    for step in ("rules ready", *DEMOS):
        cells = []
        for variant in ("normal", "snapshot"):
            entry = heaps[variant]["heaps"][step]
            cell = f"{entry['heap']:,}"
            if step != "rules ready":
                cell += f" {verdict(entry['heap'], HEAP_TARGET, 'bytes')}"
            cells.append(cell)
        acts = heaps["snapshot"]["heaps"][step]["acts"]
        label = "rules ready (heap run)" if acts is None else f"{step} ({acts} acts)"
        print(f"{label:28}" + "".join(f"{c:>34}" for c in cells))
    for variant in ("normal", "snapshot"):
        if heaps[variant]["boot"] != variant:
            print(f"note: the {variant} heap run booted {heaps[variant]['boot']}")


def main() -> int:
    """Build, serve, measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--verbose", action="store_true", help="per-file bytes of cold visits")
    parser.add_argument(
        "--incognito",
        action="store_true",
        help="contexts of one browser (in-memory HTTP cache) instead of a new profile on disk",
    )
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp())
    dist = work / "dist"
    build.build(dist)
    lock_dir = work / "lock"
    lock_dir.mkdir()
    write_bare_lock(lock_dir)
    traffic = Traffic()
    server = make_server(dist, lock_dir, traffic)
    build.serve_in_thread(server)
    host, port = server.server_address[:2]
    base = f"http://{host}:{port}/"
    urls = {
        "normal": base + "?boot=normal",
        "snapshot": base,
        "bare": base + BENCH_MOUNT.strip("/") + "/bare.html",
        "warm-up": base + "__bench_warm_up__",
    }
    results: dict = {v: {visit: [] for visit in VISITS} for v in VARIANTS}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(**chromium_launch_args())
        for rnd in range(args.runs):
            order = VARIANTS[rnd % 3 :] + VARIANTS[: rnd % 3]
            for variant in order:
                visits = measure(variant, pw, browser, urls, traffic, rnd, args.incognito)
                for visit, seen in visits.items():
                    results[variant][visit].append(summarize(variant, seen))
        heaps = {v: heap_run(browser, urls[v]) for v in ("normal", "snapshot")}
        version = browser.version
        browser.close()
    server.shutdown()
    print_times(results, args.runs, version, args.incognito)
    print_phases(results)
    print_bytes(traffic, args.runs, args.verbose)
    print_heaps(heaps, results)
    return 0


def summarize(variant: str, seen: dict) -> dict:
    """The figures of one visit."""
    if variant == "bare":
        return {"ready": seen["ready"], "wasm": wasm_end(seen)}
    timing = seen["timing"]
    boot = timing["boot"]
    rules = worker_entry(seen, "worker.js") or {}
    msg = rules.get("ready")
    return {
        "paint": timing["mapPainted"],
        "ready": timing["rulesReady"],
        "wasm": wasm_end(seen),
        "made": rules.get("created"),
        "msg": msg,
        "runs": None if msg is None else msg - boot["bootMs"],
        "boot": boot["boot"],
        "refused": boot.get("refused"),
        "fetchMs": boot.get("fetchMs"),
        "pyodideMs": boot.get("pyodideMs"),
        "importMs": boot.get("importMs"),
        "bootMs": boot["bootMs"],
        "heap": boot["heap"],
    }


if __name__ == "__main__":
    sys.exit(main())
