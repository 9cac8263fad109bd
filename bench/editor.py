#!/usr/bin/env python3
"""Hex editor benchmark: painting by drag on a 60x40 map, and redrawing a 2,500-hex map.

In headless Chromium at the tablet's size (820x1180, two device pixels a CSS pixel, touch),
bench/editor.html mounts the scenario editor's hex map (static/editor/hexedit.js) on the
generated maps of bench/board.py and:

- paints along a snake of N adjacent hexes with pointer events, one a frame, with a brush of
  one hex and of radius 2: per event, the handler's ms and the ms from the event to the end
  of the frame that draws the new hexes (style, layout and paint on the main thread);
  budget 16 ms. Then the ms from the pointer's lift to the stroke's one change drawn;
- times update() on a 50x50 map (2,500 hexes): every layer drawn again ("load"), and after a
  change of one hex (only the terrain layer is drawn again), each to the end of its frame;
- times opening: mount() to the first frame drawn (target under 1 s with the core's check).

And in the app itself (the same tablet, the editor opened once the rules are ready, the
service worker controlling the page), on a generated 50x50 scenario with every hex listed
(terrain, some levels), about 300 hexsides, 5 roads and trails and 100 units:

- Open... of the scenario's file through the editor's file input: from the input's change
  event to the map drawn (the frame that shows the map editor's terrain of the scenario), to
  the status line saying it loads, and to the editor's own check of the new draft answered;
- a reload with that draft kept on the device (IndexedDB): from navigation start to rules
  ready, the map drawn and the check answered; beside them the frame that drew the map (its
  long animation frame: script, then style, layout and paint), the draft's check from posted
  to its answer seen by the page (which waits for that frame), and the worker's time in the
  play screen's load_scenario before the editor's calls;
- one hex painted by a tap on that map: from the lift to the change drawn and to the core's
  check of it answered; then the core's scenario_check of the draft alone, the page idle,
  and in CPython (this process) for reference.

And the order of battle in the app at the core's limit (`--part units`): a file of 2,000
units (two sides of 1,000, four formations each, every unit on a hex of the 50x50 map) opened,
then, each from its input event (a tap's pointerup, Enter's keydown, a select's change) to the
end of the frame that shows its result: the Units tab opened; one unit renamed and one unit's
formation changed (each in a group opened first: a side of more than 150 units is folded in
groups, static/editor/oobfold.js); a side's units selected; those 1,000 deleted at once; the
delete undone; the side's 1,000 moved to the other side; 100 rows pasted from a spreadsheet.
Printed as a markdown table of medians and ranges.

Prints medians and the worst over several rounds (the first of each part warms up).

    python bench/editor.py [--rounds 5] [--hexes 40] [--cpu-throttle 1] [--part app|units]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "py"), str(ROOT / "bench")]

import board  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

import build  # noqa: E402
from muster.hexgrid import Numbering, hex_neighbors  # noqa: E402
from tests.conftest import chromium_launch_args  # noqa: E402

BENCH_MOUNT = "/__bench__/"
BUDGET_MS = 16.0


def sized(columns: int, rows: int) -> dict[str, Any]:
    """bench/board.py's generated hex-facing map at another size."""
    board.COLUMNS, board.ROWS = columns, rows
    try:
        return board.generate("hex-facing")
    finally:
        board.COLUMNS, board.ROWS = 60, 40


def run(rounds: int, hexes: int, throttle: float) -> dict[str, list[float]]:
    """Every measurement, in ms, over `rounds` rounds."""
    dist = Path(tempfile.mkdtemp()) / "dist"
    build.build(dist)
    server = build.make_server(dist, 0, "/", {BENCH_MOUNT: ROOT / "bench"})
    build.serve_in_thread(server)
    url = f"http://127.0.0.1:{server.server_address[1]}{BENCH_MOUNT}editor.html"
    drag_map = board.generate("hex-facing")
    big_map = sized(50, 50)
    out: dict[str, list[float]] = {}

    def add(name: str, values: list[float] | float) -> None:
        out.setdefault(name, []).extend(values if isinstance(values, list) else [values])

    with sync_playwright() as pw:
        browser = pw.chromium.launch(**chromium_launch_args())
        context = browser.new_context(
            viewport={"width": 820, "height": 1180},
            device_scale_factor=2,
            has_touch=True,
            is_mobile=True,
        )
        page = context.new_page()
        if throttle > 1:
            cdp = context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        page.goto(url)
        page.wait_for_selector("html[data-ready='1']", state="attached")
        for i in range(rounds + 1):
            warm = i == 0  # the first round warms up and is not counted
            opened = page.evaluate("(s) => bench.open(s)", drag_map)
            labels = page.evaluate(f"bench.path({hexes}, 0.6)")
            assert len(labels) >= hexes * 0.8, labels
            one = page.evaluate("([l, k]) => bench.drag(l, 'vineyard', 0, k)", [labels, "touch"])
            two = page.evaluate("([l, k]) => bench.drag(l, 'village', 2, k)", [labels, "touch"])
            assert one["changes"] == 1 and two["changes"] == 1, (one, two)
            big = page.evaluate("(s) => bench.open(s)", big_map)
            load = page.evaluate("bench.redraw('load')")
            change = page.evaluate("bench.redraw('change')")
            if warm:
                continue
            add("open 60x40: mount", opened["mount"])
            add("open 60x40: shown", opened["shown"])
            add("open 50x50: shown", big["shown"])
            add("drag 1 hex: handler", one["handler"])
            add("drag 1 hex: event to drawn", one["total"])
            add("drag 1 hex: lift to change drawn", one["commitShown"])
            add("drag r2: handler", two["handler"])
            add("drag r2: event to drawn", two["total"])
            add("drag r2: lift to change drawn", two["commitShown"])
            add("update 2,500 all layers: update()", load["update"])
            add("update 2,500 all layers: shown", load["shown"])
            add("update 2,500 one hex: update()", change["update"])
            add("update 2,500 one hex: shown", change["shown"])
        browser.close()
    server.shutdown()
    return out


# ---- the editor in the app: Open..., a reload with the draft kept, one hex painted ----------

APP_SIZE = 50
APP_UNITS = 100
APP_ID = "bench-open-2500"
TIMEOUT_MS = 60_000
APP_TERRAINS = ("clear", "rough", "woods", "marsh", "town", "garden", "vineyard", "village")

# Runs in the app's page before its scripts: the rules worker's calls (method, posted,
# answered), the long animation frames, and bench.watch(id): when the editor, holding the
# draft of scenario `id`, first drew its map (the end of the frame that shows the map editor's
# terrain of it), its status line first said it loads, and the core's check of the draft
# first answered (after the marks already taken: each watch starts afresh).
APP_TIMING = """
(() => {
  const rec = (window.benchEd = { calls: [], frames: [], marks: null });
  const afterFrame = () =>
    new Promise((resolve) => {
      requestAnimationFrame(() => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => resolve(performance.now());
        ch.port2.postMessage(0);
      });
    });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        rec.frames.push({
          start: e.startTime,
          end: e.startTime + e.duration,
          render: e.renderStart || null,
          style: e.styleAndLayoutStart || null,
          scripts: e.scripts.map((s) => ({
            start: s.startTime,
            ms: s.duration,
            source: (s.sourceFunctionName || "") + " " + (s.sourceURL || "").split("/").pop(),
          })),
        });
      }
    }).observe({ type: "long-animation-frame", buffered: true });
  } catch (error) {}
  const Original = window.Worker;
  if (typeof Original === "function") {
    window.Worker = class extends Original {
      constructor(url, options) {
        super(url, options);
        this._benchCalls = new Map();
        if (!/\\/worker\\.js/.test(String(url))) return;
        this.addEventListener("message", (event) => {
          const d = event.data;
          if (typeof d !== "string" || !d.startsWith('{"type":"reply"')) return;
          const m = /"id":([^,]+),/.exec(d.slice(0, 80));
          const call = m && this._benchCalls.get(m[1]);
          if (call) call.answered = performance.now();
        });
      }
      postMessage(data, ...rest) {
        if (typeof data === "string") {
          const m = /^\\{"id":([^,]+),"method":"([a-z_]+)"/.exec(data.slice(0, 80));
          if (m) {
            const call = { method: m[2], posted: performance.now(), answered: null };
            call.chars = data.length;
            rec.calls.push(call);
            this._benchCalls.set(m[1], call);
          }
        }
        return super.postMessage(data, ...rest);
      }
    };
  }
  rec.watch = (id) => {
    const marks = (rec.marks = { since: performance.now() });
    const root = () => document.getElementById("editor");
    const checks0 = Number((root() && root().dataset.checks) || 0);
    const ed = () => window.musterEditor;
    const mine = () => ed() && ed().draft && ed().draft.scenario.id === id;
    const look = () => {
      if (rec.marks !== marks || !mine()) return;
      const now = performance.now();
      const part = ed().parts.map;
      const map = part && part.map;
      const terrain = document.querySelector("#editor-map .hm-terrain");
      if (
        marks.drawnDom === undefined &&
        map && map._scenario && map._scenario.id === id &&
        terrain && terrain.childElementCount
      ) {
        marks.drawnDom = now;
        marks.drawnTerrain = terrain.firstChild;
        afterFrame().then((t) => (marks.drawn = t));
      } else if (
        marks.drawnDom !== undefined && marks.redrawnDom === undefined &&
        terrain && terrain.firstChild !== marks.drawnTerrain
      ) {
        marks.redrawnDom = now;
        afterFrame().then((t) => (marks.redrawn = t));
      }
      const say = document.getElementById("editor-say");
      if (marks.saysDom === undefined && say && / loads/.test(say.textContent)) {
        marks.saysDom = now;
        afterFrame().then((t) => (marks.says = t));
      }
      if (marks.checkedDom === undefined && Number(root().dataset.checks || 0) > checks0) {
        marks.checkedDom = now;
        marks.loads = root().dataset.loads;
        afterFrame().then((t) => (marks.checked = t));
      }
    };
    const observer = new MutationObserver(look);
    const start = () => {
      observer.observe(document.documentElement, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
      look();
    };
    if (document.documentElement) start();
    else document.addEventListener("DOMContentLoaded", start, { once: true });
    return marks.since;
  };
  // The input's change event: when the file was set (before the editor's own listener).
  document.addEventListener(
    "change",
    (e) => {
      const set = e.target && e.target.id === "editor-open-file";
      if (set && rec.marks) rec.marks.fileSet = e.timeStamp;
    },
    true,
  );
  document.addEventListener(
    "pointerup",
    (e) => {
      if (rec.marks && rec.marks.lift === undefined) rec.marks.lift = e.timeStamp;
    },
    true,
  );
  if (new URLSearchParams(location.search).has("benchwatch")) {
    rec.watch(new URLSearchParams(location.search).get("benchwatch"));
  }
})();
"""

# The hex to paint in part 3: the first of these in view, with a terrain other than the
# brush's and no unit, and its place on the screen.
PICK_HEX = """
(labels) => {
  const part = window.musterEditor.parts.map;
  const s = window.musterEditor.draft.scenario;
  const taken = new Set(s.units.map((u) => u.hex));
  const svg = part.map.svg;
  const rect = svg.getBoundingClientRect();
  for (const label of labels) {
    const h = s.map.hexes[label];
    if (taken.has(label) || (h && h.terrain && h.terrain[0] === part.terrain)) continue;
    const p = part.map.hexToClient(label);
    if (p.x < rect.left + 40 || p.x > rect.right - 40) continue;
    if (p.y < rect.top + 40 || p.y > rect.bottom - 40) continue;
    if (!svg.contains(document.elementFromPoint(p.x, p.y))) continue;
    return { label, x: p.x, y: p.y, terrain: part.terrain };
  }
  return null;
}
"""


# The draft's scenario_check `n` times from the idle page, one after the other: ms each.
IDLE_CHECKS = """
async (n) => {
  const engine = window.muster.engine;
  const scenario = window.musterEditor.draft.scenario;
  const out = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const answer = await engine.call("scenario_check", { scenario });
    if (!answer.ok) throw new Error(JSON.stringify(answer));
    out.push(performance.now() - t);
  }
  return out;
}
"""


def app_scenario(seed: int = 5) -> dict[str, Any]:
    """A 50x50 hex-facing scenario: every hex listed with a terrain, hills (levels 1 and 2)
    with slopes and crests round them, streams, three roads and two trails across, 100 units."""
    rng = random.Random(seed)
    n = Numbering("flat", "even")
    size = APP_SIZE
    labels = [f"{c:02d}{r:02d}" for c in range(1, size + 1) for r in range(1, size + 1)]
    on_map = set(labels)
    hexes: dict[str, Any] = {label: {"terrain": [rng.choice(APP_TERRAINS)]} for label in labels}
    for _ in range(14):
        centre = n.to_hex(rng.choice(labels))
        for h in (centre, *hex_neighbors(centre)):
            if n.label(h) in on_map:
                hexes[n.label(h)]["level"] = 1
        if rng.random() < 0.5:
            hexes[n.label(centre)]["level"] = 2
    sides = []
    for label in labels:
        level = hexes[label].get("level", 0)
        for m in hex_neighbors(n.to_hex(label)):
            other = n.label(m)
            if other not in on_map or other < label:
                continue
            other_level = hexes[other].get("level", 0)
            if level != other_level:
                up = label if level > other_level else other
                feature = "slope" if rng.random() < 0.7 else "crest"
                sides.append({"between": [label, other], "features": [feature], "up": up})
            elif rng.random() < 0.015:
                sides.append({"between": [label, other], "features": ["stream"]})
    roads = [
        {"kind": "road", "hexes": [f"{c:02d}{row:02d}" for c in range(1, size + 1)]}
        for row in (10, 25, 40)
    ]
    roads += [
        {"kind": "trail", "hexes": [f"{col:02d}{r:02d}" for r in range(1, size + 1)]}
        for col in (13, 37)
    ]
    free = labels[:]
    rng.shuffle(free)
    units = []
    for i in range(APP_UNITS):
        utype = rng.choice(["infantry"] * 5 + ["cavalry"] * 3 + ["artillery"])
        units.append(
            {
                "id": f"u{i}",
                "side": "a" if i % 2 else "b",
                "type": utype,
                "name": f"Unit {i}",
                "hex": free[i],
                "ratings": {"movement": {"infantry": 6, "cavalry": 12, "artillery": 4}[utype]},
                "facing": rng.randrange(12),
            }
        )
    return {
        "format": "muster-scenario/1",
        "id": APP_ID,
        "system": "hex-facing",
        "title": f"Benchmark map {size}x{size}",
        "map": {
            "orientation": "flat",
            "stagger": "even",
            "columns": size,
            "rows": size,
            "hexes": hexes,
            "hexsides": sides,
            "roads": roads,
        },
        "sides": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
        "units": units,
    }


def wait_marks(page, *names: str) -> dict[str, Any]:
    """The watch's marks once all of `names` are taken."""
    test = " && ".join(f"m.{name} !== undefined" for name in names)
    try:
        page.wait_for_function(
            f"(() => {{ const m = window.benchEd.marks; return m && {test}; }})()",
            timeout=TIMEOUT_MS,
        )
    except Exception:
        print("marks so far:", page.evaluate("window.benchEd.marks"), file=sys.stderr)
        raise
    return page.evaluate("window.benchEd.marks")


def wait_editor_checked(page) -> None:
    """As the e2e tests wait: the editor open, its draft checked by the core."""
    page.wait_for_selector("#editor:not([hidden])", timeout=TIMEOUT_MS)
    page.wait_for_function("window.musterEditor && window.musterEditor.draft", timeout=TIMEOUT_MS)
    page.evaluate("window.musterEditor.ready")
    page.evaluate("window.musterEditor.checked()")
    page.wait_for_function("document.querySelector('#editor').dataset.checks", timeout=TIMEOUT_MS)


def core_times(calls: list[dict[str, Any]]) -> dict[str, list[float]]:
    """The worker's time in each call (ms), by method: from when it could start (posted, or
    the answer before it: one call at a time) to its answer."""
    out: dict[str, list[float]] = {}
    free = 0.0
    for call in sorted(calls, key=lambda c: c["posted"]):
        if call["answered"] is None:
            continue
        out.setdefault(call["method"], []).append(call["answered"] - max(call["posted"], free))
        free = call["answered"]
    return out


def frame_of(frames: list[dict[str, Any]], t: float) -> dict[str, Any] | None:
    """The long animation frame under way at `t`."""
    for f in frames:
        if f["start"] <= t <= f["end"]:
            return f
    return None


def tablet_page(browser, script: str, throttle: float, errors: list[str]):
    """A page in a fresh tablet context (820x1180, 2 device pixels, touch) with ``script``
    run before the page's own, the CPU slowed ``throttle`` times, its errors kept."""
    context = browser.new_context(
        viewport={"width": 820, "height": 1180},
        device_scale_factor=2,
        has_touch=True,
        is_mobile=True,
    )
    context.add_init_script(script)
    page = context.new_page()
    if throttle > 1:
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page


def app_round(browser, base: str, scenario_text: str, add, throttle: float) -> None:
    """One round in a fresh context: the app warm (its service worker controlling), then
    Open..., a reload, and one hex painted."""
    errors: list[str] = []
    context, page = tablet_page(browser, APP_TIMING, throttle, errors)
    page.goto(base)
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=TIMEOUT_MS)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=TIMEOUT_MS)
    page.goto(base + "?editor=1")
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=TIMEOUT_MS)
    wait_editor_checked(page)
    page.wait_for_timeout(300)

    # 1. Open... the file.
    page.evaluate("(id) => window.benchEd.watch(id)", APP_ID)
    page.set_input_files(
        "#editor-open-file",
        files=[
            {
                "name": "bench-2500.json",
                "mimeType": "application/json",
                "buffer": scenario_text.encode(),
            }
        ],
    )
    m = wait_marks(page, "fileSet", "drawn", "says", "checked")
    assert m["loads"] == "yes", m
    add("open file: map drawn", m["drawn"] - m["fileSet"])
    add("open file: says it loads", m["says"] - m["fileSet"])
    add("open file: draft's check answered", m["checked"] - m["fileSet"])
    checks = [c for c in page.evaluate("window.benchEd.calls") if c["posted"] >= m["fileSet"] - 1]
    core = core_times(checks)
    add("open file: checks, posted to answer seen", core.get("scenario_check", []))
    page.evaluate("window.musterEditor.saved()")
    page.wait_for_timeout(300)

    # 2. A reload: the draft comes back from the device.
    page.goto(base + f"?editor=1&benchwatch={APP_ID}")
    m = wait_marks(page, "drawn", "checked")
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=TIMEOUT_MS)
    wait_editor_checked(page)
    got = page.evaluate(
        "({t: window.musterTiming, calls: window.benchEd.calls, frames: window.benchEd.frames})"
    )
    calls = got["calls"]
    core = core_times(calls)
    ready = got["t"]["rulesReady"]
    add("reload: rules ready", ready)
    add("reload: map drawn", m["drawn"])
    add("reload: check answered", m["checked"])
    add("reload: draft's check, posted to answer seen", core["scenario_check"][0])
    add("reload: core, editor_catalog", sum(core.get("editor_catalog", [0.0])))
    frame = frame_of(got["frames"], m["drawnDom"])
    if frame:
        add("reload: map's frame (LoAF, all)", frame["end"] - frame["start"])
        if frame["render"]:
            add("reload: map's frame: style+layout+paint", frame["end"] - frame["render"])
    add("reload: core, the play screen's load_scenario", sum(core.get("load_scenario", [0.0])))

    # 3. One hex painted by a tap.
    page.wait_for_timeout(500)
    wanted = [f"{c:02d}{r:02d}" for c in range(15, 36) for r in range(15, 36)]
    spot = page.evaluate(PICK_HEX, wanted)
    assert spot, "no hex to paint in view"
    page.evaluate("(id) => window.benchEd.watch(id)", APP_ID)
    page.touchscreen.tap(spot["x"], spot["y"])
    m = wait_marks(page, "lift", "redrawn", "checked")
    hexes = page.evaluate("window.musterEditor.draft.scenario.map.hexes")
    assert hexes[spot["label"]]["terrain"][0] == spot["terrain"], (spot, hexes[spot["label"]])
    add("paint 1 hex: change drawn", m["redrawn"] - m["lift"])
    add("paint 1 hex: check answered", m["checked"] - m["lift"])
    calls = [c for c in page.evaluate("window.benchEd.calls") if c["posted"] >= m["lift"]]
    add("paint 1 hex: check, posted to answer seen", core_times(calls)["scenario_check"][0])
    # The core's check alone, the page idle: a round trip to the worker and back.
    page.wait_for_timeout(300)
    add("Pyodide: core's scenario_check, idle page", page.evaluate(IDLE_CHECKS, 3))
    assert not errors, errors
    context.close()


def cpython_check(text: str, rounds: int) -> list[float]:
    """The core's scenario_check of the scenario in this process (CPython), ms a call, with
    the JSON in and out as the worker has them."""
    from muster.api import Session

    session = Session()
    request = json.dumps(
        {"id": 1, "method": "scenario_check", "params": {"scenario": json.loads(text)}}
    )
    times = []
    for i in range(rounds + 1):
        start = time.perf_counter()
        answer = json.loads(session.call_json(request))
        if i:
            times.append((time.perf_counter() - start) * 1000)
        assert answer["ok"] and answer["result"]["ok"], answer
    return times


def served_site():
    """The site built afresh and served on a port of its own: the server and its address."""
    dist = Path(tempfile.mkdtemp()) / "dist"
    build.build(dist)
    server = build.make_server(dist, 0, "/")
    build.serve_in_thread(server)
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def run_app(rounds: int, throttle: float) -> dict[str, list[float]]:
    """The in-app figures, in ms, over `rounds` rounds (and one more first, to warm up)."""
    server, base = served_site()
    scenario_text = json.dumps(app_scenario())
    out: dict[str, list[float]] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(**chromium_launch_args())
        for i in range(rounds + 1):

            def add(name: str, values: list[float] | float, warm: bool = i == 0) -> None:
                if not warm:
                    out.setdefault(name, []).extend(
                        values if isinstance(values, list) else [values]
                    )

            app_round(browser, base, scenario_text, add, throttle)
            out.setdefault("CPython: core's scenario_check", []).extend(
                cpython_check(scenario_text, 1)
            )
        browser.close()
    server.shutdown()
    return out


# ---- the order of battle at the core's limit: 2,000 units -----------------------------------

OOB_UNITS = 2000
OOB_PASTE = 100
OOB_ID = "bench-oob-2000"

# Runs in the app's page before its scripts: bench.arm(kind, test) and then one input event
# of that kind (pointerup of a tap, keydown of Enter, change of a select): from the event's
# time to the end of the first frame whose start finds test() true (the frame that shows the
# result; a message posted from its requestAnimationFrame arrives once it is painted).
OOB_TIMING = """
(() => {
  const rec = (window.benchOob = { armed: null, result: null });
  rec.arm = (kind, test) => {
    rec.armed = { kind, test: new Function("return (" + test + ")();"), t0: null };
    rec.result = null;
  };
  const hit = (e) => {
    const a = rec.armed;
    if (!a || a.t0 !== null || e.type !== a.kind) return;
    if (e.type === "keydown" && e.key !== "Enter") return;
    a.t0 = e.timeStamp;
    const look = () =>
      requestAnimationFrame(() => {
        if (!a.test()) return look();
        const ch = new MessageChannel();
        ch.port1.onmessage = () => {
          rec.result = { t0: a.t0, shown: performance.now() };
          rec.armed = null;
        };
        ch.port2.postMessage(0);
      });
    look();
  };
  for (const kind of ["pointerup", "keydown", "change"]) {
    document.addEventListener(kind, hit, true);
  }
})();
"""

# A control scrolled into view and still (as the e2e tests' steady_tap): a tap at a place
# taken before the page settled would land elsewhere.
STEADY = """(s) => new Promise((done) => {
  const el = document.querySelector(s);
  el.scrollIntoView({block: "center"});
  const top = el.getBoundingClientRect().top;
  requestAnimationFrame(() => requestAnimationFrame(() =>
    done(Math.abs(el.getBoundingClientRect().top - top) < 1)));
})"""

ED = "window.musterEditor"
OOB = "window.musterEditor.parts.oob"
# The units the order of battle shows: a side's rows, or on a side folded in groups the counts
# on the groups' headers.
SHOWN = (
    "Array.from(document.querySelectorAll('#editor-oob .oob-list'), (l) =>"
    " l.querySelector('.oob-fold-head') ? Array.from(l.querySelectorAll('.oob-fold-head'),"
    " (h) => Number(h.dataset.count)).reduce((a, b) => a + b, 0)"
    " : l.querySelectorAll('.oob-unit').length).reduce((a, b) => a + b, 0)"
)


def oob_scenario(seed: int = 7) -> dict[str, Any]:
    """The 50x50 scenario of the app part with 2,000 units, two sides of 1,000, each with four
    formations (half the units in one), every unit on a hex of its own."""
    scenario = app_scenario(seed)
    rng = random.Random(seed)
    labels = list(scenario["map"]["hexes"])
    rng.shuffle(labels)
    scenario["id"] = OOB_ID
    scenario["formations"] = [
        {"id": f"{side}-f{k}", "side": side, "name": f"Brigade {side.upper()}{k}", "orders": True}
        for side in ("a", "b")
        for k in range(1, 5)
    ]
    units = []
    for i in range(OOB_UNITS):
        utype = rng.choice(["infantry"] * 5 + ["cavalry"] * 3 + ["artillery"])
        side = "a" if i % 2 else "b"
        unit = {
            "id": f"u{i}",
            "side": side,
            "type": utype,
            "name": f"Regiment {i}",
            "hex": labels[i],
            "facing": rng.randrange(12),
            "ratings": {"strength": 6, "cohesion": 6, "movement": 6},
        }
        if i % 4 < 2:
            unit["formation"] = f"{side}-f{i % 8 // 2 + 1}"
        units.append(unit)
    scenario["units"] = units
    return scenario


def paste_rows(n: int) -> str:
    """`n` rows as a spreadsheet copies them, under a header row."""
    rows = ["Name\tSide\tType"]
    rows += [f"Pasted {k}\t{'A' if k % 2 else 'B'}\tInfantry" for k in range(n)]
    return "\n".join(rows)


def oob_load(page, text: str) -> None:
    """Open... the scenario file (yes to the question when the draft was changed), the map's
    tab shown, and wait until every unit has its row and the core's check answered."""
    page.locator("#editor-tab-map").tap()
    page.evaluate(f"window.benchBefore = {ED}.draft.scenario")
    page.set_input_files(
        "#editor-open-file",
        files=[{"name": "oob-2000.json", "mimeType": "application/json", "buffer": text.encode()}],
    )
    page.wait_for_function(
        f"document.querySelector('#ask[open]') || ({ED}.draft.scenario.id === '{OOB_ID}'"
        f" && {ED}.draft.scenario.units.length === {OOB_UNITS}"
        f" && {ED}.draft.scenario !== window.benchBefore)",
        timeout=TIMEOUT_MS,
    )
    if page.locator("#ask[open]").count():
        page.locator("#ask-ok").tap()
    page.wait_for_function(
        f"{ED}.draft.scenario.id === '{OOB_ID}' && {SHOWN} === {OOB_UNITS}",
        timeout=TIMEOUT_MS,
    )
    wait_editor_checked(page)
    page.evaluate(f"{OOB}.select(() => false)")  # none selected, as in a fresh editor
    page.wait_for_timeout(300)


def oob_timed(page, kind: str, test: str, act) -> float:
    """Arm the watch, act, and wait for the frame that shows test() true: ms from the event."""
    page.evaluate("([k, t]) => window.benchOob.arm(k, t)", [kind, test])
    act()
    try:
        page.wait_for_function("window.benchOob.result", timeout=TIMEOUT_MS)
    except Exception:
        armed = page.evaluate("(window.benchOob.armed || {}).t0")
        print(f"no frame shows it: {test} (event seen at {armed})", file=sys.stderr)
        raise
    got = page.evaluate("window.benchOob.result")
    return got["shown"] - got["t0"]


def steady_tap(page, selector: str) -> None:
    page.wait_for_function(STEADY, arg=selector, timeout=TIMEOUT_MS)
    page.locator(selector).tap()


def timed_tap(page, selector: str, test: str) -> float:
    """A tap on ``selector`` once it stands still: ms from its pointerup to the frame that
    shows test() true."""
    page.wait_for_function(STEADY, arg=selector, timeout=TIMEOUT_MS)
    return oob_timed(page, "pointerup", test, lambda: page.locator(selector).tap())


def oob_round(page, text: str, add) -> None:
    """Open the file, then each edit timed once."""
    oob_load(page, text)
    add(
        "open the Units tab",
        oob_timed(
            page,
            "pointerup",
            f"() => !document.querySelector('#editor-oob').closest('[role=tabpanel]').hidden"
            f" && {SHOWN} === {OOB_UNITS}",
            lambda: page.locator("#editor-tab-units").tap(),
        ),
    )
    # The groups of u5 (side a, formation a-f3) and u7 (side a, no formation) opened.
    for group in ("a/a-f3/0", "a//0"):
        toggle = f".oob-fold-head[data-group='{group}'] .oob-fold-toggle"
        if page.locator(toggle).count():
            steady_tap(page, toggle)
    row = ".oob-unit[data-unit='u5']"
    page.wait_for_function(STEADY, arg=row, timeout=TIMEOUT_MS)
    name = page.locator(f"{row} input[data-field='name']")
    name.fill("Renamed 5")
    add(
        "rename one unit",
        oob_timed(
            page,
            "keydown",
            f"() => {ED}.draft.scenario.units[5].name === 'Renamed 5'"
            f" && document.querySelector(\"{row} input[data-field='name']\").value === 'Renamed 5'",
            lambda: name.press("Enter"),
        ),
    )
    add(
        "change one unit's formation",
        oob_timed(
            page,
            "change",
            f"() => {ED}.draft.scenario.units[7].formation === 'a-f3'"
            " && document.querySelector(\".oob-unit[data-unit='u7']"
            " select[data-field='formation']\").value === 'a-f3'",
            lambda: page.select_option(
                ".oob-unit[data-unit='u7'] select[data-field='formation']", "a-f3"
            ),
        ),
    )
    half = OOB_UNITS // 2
    add(
        "select the units of a side",
        timed_tap(
            page,
            ".oob-select-side[data-side='a']",
            f"() => {OOB}.selected.size === {half}"
            f" && /1,000/.test(document.querySelector('.oob-bulk-count').textContent)",
        ),
    )
    add(
        "delete 1,000 at once",
        timed_tap(
            page,
            ".oob-bulk-delete",
            f"() => {ED}.draft.scenario.units.length === {half} && {SHOWN} === {half}",
        ),
    )
    add(
        "undo the delete",
        timed_tap(
            page,
            "#editor-undo",
            f"() => {ED}.draft.scenario.units.length === {OOB_UNITS} && {SHOWN} === {OOB_UNITS}",
        ),
    )
    steady_tap(page, ".oob-select-side[data-side='a']")
    page.wait_for_function(f"{OOB}.selected.size === {half}", timeout=TIMEOUT_MS)
    page.select_option(".oob-bulk-side", "b")
    add(
        "move 1,000 to the other side",
        timed_tap(
            page,
            ".oob-bulk-move",
            f"() => {ED}.draft.scenario.units.every((u) => u.side === 'b')"
            " && document.querySelector(\".oob-list[data-side='a']\").childElementCount === 0",
        ),
    )
    page.wait_for_function(STEADY, arg=".oob-paste summary", timeout=TIMEOUT_MS)
    page.locator(".oob-paste summary").tap()
    page.locator(".oob-paste-box").fill(paste_rows(OOB_PASTE))
    add(
        f"paste {OOB_PASTE} rows",
        timed_tap(
            page,
            ".oob-paste-add",
            f"() => {SHOWN} === {OOB_UNITS + OOB_PASTE}",
        ),
    )
    page.locator(".oob-paste-box").fill("")
    page.locator(".oob-paste summary").tap()


def run_units(rounds: int, throttle: float) -> dict[str, list[float]]:
    """The order of battle's figures over `rounds` rounds (and one more first, to warm up)."""
    server, base = served_site()
    text = json.dumps(oob_scenario())
    out: dict[str, list[float]] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(**chromium_launch_args())
        errors: list[str] = []
        context, page = tablet_page(browser, OOB_TIMING, throttle, errors)
        page.goto(base + "?editor=1")
        page.wait_for_selector("html[data-ready='1']", state="attached", timeout=TIMEOUT_MS)
        wait_editor_checked(page)
        for i in range(rounds + 1):

            def add(name: str, value: float, warm: bool = i == 0) -> None:
                if not warm:
                    out.setdefault(name, []).append(value)

            oob_round(page, text, add)
        assert not errors, errors
        browser.close()
    server.shutdown()
    return out


def print_units(title: str, times: dict[str, list[float]]) -> None:
    """A markdown table: the median and range of each edit, from its input event to the end
    of the frame that shows it."""
    print(title)
    print()
    print("| edit | median ms | min–max ms |")
    print("| --- | ---: | ---: |")
    for name, values in times.items():
        print(f"| {name} | {statistics.median(values):.0f} | {min(values):.0f}–{max(values):.0f} |")


def print_table(title: str, times: dict[str, list[float]], width: int = 36) -> None:
    """Medians, p90 and the worst of each figure."""
    print(title)
    print(f"{'':{width}}{'median':>9}{'p90':>9}{'worst':>9}{'n':>6}")
    for name, values in times.items():
        p90 = (
            statistics.quantiles(values, n=10, method="inclusive")[-1]
            if len(values) > 1
            else values[0]
        )
        print(
            f"{name:{width}}{statistics.median(values):>9.2f}{p90:>9.2f}{max(values):>9.2f}"
            f"{len(values):>6}"
        )


def main() -> int:
    """Run and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hexes", type=int, default=40, help="hexes a drag passes")
    parser.add_argument(
        "--cpu-throttle", type=float, default=1, help="Chromium CPU slowdown (4: a slow tablet)"
    )
    parser.add_argument(
        "--part",
        choices=("all", "harness", "app", "units"),
        default="all",
        help="the hex editor on its bench page, the editor in the app, its order of battle at"
        " 2,000 units, or all three",
    )
    args = parser.parse_args()
    slow = f", CPU throttled {args.cpu_throttle:g}x" if args.cpu_throttle > 1 else ""
    if args.part in ("all", "harness"):
        times = run(args.rounds, args.hexes, args.cpu_throttle)
        print_table(
            f"Hex editor, 820x1180 @2x touch{slow}: {args.rounds} rounds, drags of {args.hexes}"
            " hexes on 60x40, redraws on 50x50 (ms)",
            times,
        )
        frames = times["drag 1 hex: event to drawn"] + times["drag r2: event to drawn"]
        over = sum(1 for t in frames if t > BUDGET_MS)
        print(f"painting frames over {BUDGET_MS:g} ms: {over} of {len(frames)}")
    if args.part in ("all", "app"):
        if args.part == "all":
            print()
        times = run_app(args.rounds, args.cpu_throttle)
        print_table(
            f"Editor in the app, 820x1180 @2x touch{slow}: {args.rounds} rounds, a 50x50 "
            f"scenario (2,500 hexes, {APP_UNITS} units), ms (reload: since navigation start)",
            times,
            48,
        )
        opened = statistics.median(times["open file: draft's check answered"])
        reload = statistics.median(times["reload: check answered"])
        ready = statistics.median(times["reload: rules ready"])
        print(
            f"target 1 s: open file {opened:.0f} ms ({'met' if opened <= 1000 else 'missed'}); "
            f"reload {reload - ready:.0f} ms after rules ready "
            f"({'met' if reload - ready <= 1000 else 'missed'})"
        )
    if args.part in ("all", "units"):
        if args.part == "all":
            print()
        times = run_units(args.rounds, args.cpu_throttle)
        print_units(
            f"Order of battle in the app, 820x1180 @2x touch{slow}: {args.rounds} rounds,"
            f" {OOB_UNITS:,} units on a 50x50 map, from the input event to the end of the frame"
            " that shows the edit",
            times,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
