#!/usr/bin/env python3
"""Limits benchmark: load the largest scenarios the limits allow, and refuse larger ones.

Generates a hex-facing and a hex-hexside scenario of ``MAX_HEXES`` hexes (160 x 125, printed
with three-digit columns and rows) with mixed terrain, hills with slopes, streams, roads and
``MAX_UNITS`` units, and an area-locale scenario of ``MAX_LOCALES`` locales with its
approaches, roads and blocks; times ``Session().call("load_scenario", ...)`` on each and on
maps over the limits (which must be refused at once), and prints medians. Budget: the largest
allowed scenario loads in under 2 s.

    python bench/limits.py [--runs 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from muster.api import Session  # noqa: E402
from muster.hexgrid import Numbering, hex_neighbors  # noqa: E402
from muster.limits import (  # noqa: E402
    MAX_APPROACHES,
    MAX_FORMATIONS,
    MAX_LOCALES,
    MAX_SCENARIO_CHARS,
    MAX_UNITS,
    json_chars,
)

COLUMNS, ROWS = 160, 125  # MAX_HEXES hexes
TERRAIN = {
    "hex-facing": {"woods": 0.14, "town": 0.03, "marsh": 0.04, "rough": 0.06, "garden": 0.02},
    "hex-hexside": {"woods": 0.16, "town": 0.03, "marsh": 0.05, "walled_town": 0.01},
}


def label(c: int, r: int) -> str:
    """The printed number of column ``c``, row ``r`` (three digits each)."""
    return f"{c:03d}{r:03d}"


def hex_scenario(
    system: str,
    columns: int = COLUMNS,
    rows: int = ROWS,
    units: int = MAX_UNITS,
    dense: bool = False,
    seed: int = 1,
) -> dict[str, Any]:
    """A ``columns`` x ``rows`` map with mixed terrain, hills, streams, roads and ``units``
    units; ``dense``: every hex and as many hexsides listed as the size limit lets through."""
    rng = random.Random(seed)
    n = Numbering("flat", "even", 3, 3)
    labels = [label(c, r) for c in range(1, columns + 1) for r in range(1, rows + 1)]
    on_map = set(labels)
    hexes: dict[str, Any] = {}
    for at in labels:
        roll = rng.random()
        for terrain, share in TERRAIN[system].items():
            if roll < share:
                hexes[at] = {"terrain": [terrain]}
                break
            roll -= share
    for _ in range(len(labels) // 200):  # hills: a level-1 blob, sometimes a level-2 top
        centre = n.to_hex(rng.choice(labels))
        for h in (centre, *hex_neighbors(centre)):
            if n.label(h) in on_map:
                hexes.setdefault(n.label(h), {})["level"] = 1
        if rng.random() < 0.5:
            hexes.setdefault(n.label(centre), {})["level"] = 2
    sides: dict[tuple[str, str], dict[str, Any]] = {}
    for at in labels:
        level = hexes.get(at, {}).get("level", 0)
        for m in hex_neighbors(n.to_hex(at)):
            other = n.label(m)
            if other not in on_map or other < at:
                continue
            other_level = hexes.get(other, {}).get("level", 0)
            if level != other_level:
                up = at if level > other_level else other
                feature = "slope" if system == "hex-hexside" or rng.random() < 0.7 else "crest"
                sides[(at, other)] = {"between": [at, other], "features": [feature], "up": up}
            elif dense or rng.random() < 0.03:
                sides[(at, other)] = {"between": [at, other], "features": ["stream"]}
    roads = [
        {"kind": "road", "hexes": [label(c, row) for c in range(1, columns + 1)]}
        for row in range(8, rows + 1, 12)
    ]
    roads += [
        {"kind": "road", "hexes": [label(col, r) for r in range(1, rows + 1)]}
        for col in range(10, columns + 1, 20)
    ]
    free = [x for x in labels if "terrain" not in hexes.get(x, {})]
    rng.shuffle(free)
    types = ["infantry"] * 5 + ["cavalry"] * 3 + ["artillery"]
    formations = [
        {"id": f"f{i}", "side": "a" if i % 2 else "b", "name": f"Brigade {i}"}
        for i in range(min(MAX_FORMATIONS, MAX_UNITS // 10))
    ]
    out_units = []
    if dense:
        for at in labels:
            hexes.setdefault(at, {}).setdefault("level", 0)
    for i in range(min(units, len(free))):
        utype = rng.choice(types)
        unit = {
            "id": f"u{i}",
            "side": "a" if i % 2 else "b",
            "type": utype,
            "name": f"Unit {i}",
            "hex": free[i],
            "ratings": {"strength": 4, "morale": 4, "movement": 6},
        }
        if system == "hex-facing":
            unit["facing"] = rng.randrange(12)
            unit["formation"] = formations[i % len(formations)]["id"]
        else:
            unit["steps"] = 2
        out_units.append(unit)
    data: dict[str, Any] = {
        "format": "muster-scenario/1",
        "id": f"bench-{system}",
        "system": system,
        "title": f"Benchmark map {columns}x{rows}",
        "map": {
            "orientation": "flat",
            "stagger": "even",
            "columns": columns,
            "rows": rows,
            "column_digits": 3,
            "row_digits": 3,
            "hexes": hexes,
            "hexsides": list(sides.values()),
            "roads": roads,
            "labels": [{"hex": rng.choice(labels), "text": f"Place {i}"} for i in range(200)],
        },
        "sides": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
        "units": out_units,
        "objectives": [{"hex": rng.choice(labels), "points": 1} for _ in range(50)],
    }
    if system == "hex-facing":
        data["formations"] = formations
    if dense:  # as many hexsides as the size limit lets through
        every, data["map"]["hexsides"] = data["map"]["hexsides"], []
        room = MAX_SCENARIO_CHARS - json_chars(data) - 100
        each = max(json_chars(x) + 1 for x in every[:100])
        data["map"]["hexsides"] = every[: room // each]
    return data


def area_scenario(locales: int = MAX_LOCALES, seed: int = 1) -> dict[str, Any]:
    """A grid of ``locales`` eight-sided locales, each bordering up to eight others."""
    rng = random.Random(seed)
    width = 40
    height = -(-locales // width)
    cells = [(x, y) for y in range(height) for x in range(width)][:locales]
    ids = {cell: f"l{x}_{y}" for cell, (x, y) in zip(cells, cells, strict=True)}
    out_locales = []
    for x, y in cells:
        cx, cy = x * 100 + 50, y * 100 + 50
        polygon = [[cx - 50, cy - 25], [cx - 25, cy - 50], [cx + 25, cy - 50], [cx + 50, cy - 25]]
        polygon += [[cx + 50, cy + 25], [cx + 25, cy + 50], [cx - 25, cy + 50], [cx - 50, cy + 25]]
        out_locales.append(
            {
                "id": ids[(x, y)],
                "name": f"Locale {x},{y}",
                "polygon": polygon,
                "capacity": 4,
                "objective": 1 if rng.random() < 0.05 else 0,
                "terrain": rng.choice(["open", "town", "woods", "farm", "hills"]),
            }
        )
    approaches = []
    for x, y in cells:
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)):
            other = (x + dx, y + dy)
            if other in ids and len(approaches) < MAX_APPROACHES:
                approaches.append(
                    {
                        "from": ids[(x, y)],
                        "facing": ids[other],
                        "width": "wide" if dx == 0 or dy == 0 else "narrow",
                        "effect": rng.randrange(3),
                        "flags": ["cavalry_obstructed"] if rng.random() < 0.1 else [],
                    }
                )
    roads = [
        {"kind": "primary", "locales": [ids[(x, y)] for x in range(width) if (x, y) in ids]}
        for y in range(0, height, 5)
    ]
    units = []
    for i in range(min(MAX_UNITS, 2 * locales)):
        x, y = cells[i // 2]
        side = "a" if y < height // 2 else "b"
        units.append(
            {
                "id": f"b{i}",
                "side": side,
                "type": "infantry",
                "name": f"Block {i}",
                "steps": 3,
                "locale": ids[(x, y)],
                "approach": None,
            }
        )
    return {
        "format": "muster-scenario/1",
        "id": "bench-areas",
        "system": "area-locale",
        "title": f"Benchmark areas ({locales})",
        "map": {
            "kind": "areas",
            "width": width * 100,
            "height": height * 100,
            "locales": out_locales,
            "approaches": approaches,
            "roads": roads,
        },
        "sides": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
        "units": units,
    }


def over_limit() -> dict[str, dict[str, Any]]:
    """Scenarios just over, and far over, the limits: each must be refused at once."""
    huge = hex_scenario("hex-hexside", 10, 10, units=0)
    huge["map"].update(columns=1000, rows=1000, first_column=0, first_row=0)
    wide = hex_scenario("hex-hexside", 10, 10, units=0)
    wide["map"].update(columns=COLUMNS, rows=ROWS + 1)
    crowd = hex_scenario("hex-hexside", 10, 10, units=1)
    crowd["units"] = [dict(crowd["units"][0], id=f"x{i}") for i in range(MAX_UNITS + 1)]
    areas = area_scenario(10)
    areas["map"]["locales"] = areas["map"]["locales"] * (MAX_LOCALES // 10 + 1)
    return {
        "1000x1000 hexes": huge,
        f"{COLUMNS}x{ROWS + 1} hexes": wide,
        f"{MAX_UNITS + 1} units": crowd,
        f"{MAX_LOCALES + 10} locales": areas,
    }


def time_load(
    scenario: dict[str, Any], runs: int, expect_ok: bool
) -> tuple[list[float], list[float]]:
    """Seconds per ``load_scenario`` call, each in a fresh session: wall clock, and this
    process's CPU time (steadier when other work shares the machine)."""
    wall, cpu = [], []
    for _ in range(runs):
        session = Session()
        start, start_cpu = time.perf_counter(), time.process_time()
        answer = session.call("load_scenario", {"scenario": scenario})
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        assert answer["ok"] == expect_ok, answer
        if not expect_ok:
            assert answer["error"]["key"] != "error.internal", answer
    return wall, cpu


def main() -> int:
    """Time each load and print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    loads = {
        "hex-facing": hex_scenario("hex-facing"),
        "hex-hexside": hex_scenario("hex-hexside"),
        "hex-hexside dense": hex_scenario("hex-hexside", dense=True),
        "area-locale": area_scenario(),
    }
    slowest = 0.0
    print(f"load_scenario, median of {args.runs} runs")
    for name, scenario in loads.items():
        m = scenario["map"]
        size = (
            f"{m['columns']}x{m['rows']} hexes, {len(m['hexes'])} listed, "
            f"{len(m['hexsides'])} hexsides, {sum(len(r['hexes']) - 1 for r in m['roads'])} "
            "road hexsides"
            if "columns" in m
            else f"{len(m['locales'])} locales, {len(m['approaches'])} approaches"
        )
        times, cpu = time_load(scenario, args.runs, True)
        median = statistics.median(times)
        slowest = max(slowest, median)
        print(
            f"  {name:17} {median * 1000:7.0f} ms (min {min(times) * 1000:.0f}, "
            f"CPU {statistics.median(cpu) * 1000:.0f})  {size}, {len(scenario['units'])} units, "
            f"{json_chars(scenario) / 2**20:.2f} MiB"
        )
    print("refusals, median")
    for name, scenario in over_limit().items():
        times, _ = time_load(scenario, args.runs, False)
        answer = Session().call("load_scenario", {"scenario": scenario})
        print(
            f"  {name:18} {statistics.median(times) * 1000:8.2f} ms  {answer['error']['message']}"
        )
    print(f"budget: the largest load under 2 s: {'met' if slowest < 2 else 'NOT met'}")
    return 0 if slowest < 2 else 1


if __name__ == "__main__":
    sys.exit(main())
