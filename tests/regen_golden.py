#!/usr/bin/env python3
"""Write the golden files under ``tests/golden/``; ``tests/core/test_golden.py`` checks them.

Two kinds, as chess engines keep perft counts and OpenSpiel its playthroughs:

- ``reach/<system>-<fixture>.txt``: for a small hand-made map of a hex system (terrain,
  hexsides, roads, levels, enemy units and their zones), every hex each unit can reach this
  move with its cheapest cost, as the app's ``reachable`` query answers (``muster.api``),
  one line per hex: ``<unit> <hex> <cost>`` and `` stop=<why>`` where the move must end.
- ``playthrough/<scenario>-seed<N>.txt``: a seeded game of a demo, legal actions chosen at
  random (``random.Random(seed)``), one line per action: its number, how many actions were
  legal, the action as recorded (a roll with its value) and the state hash after it (the
  hash saves keep, ``muster.game.state_hash``), to the end of the game or ``PLAY_LIMIT``
  actions. Line 0 holds the hash of the first state.

A change of the rules shows up as a diff of these files: regenerate them, then read the diff
(``git diff tests/golden``) and keep it only if every change is the one intended.

    python3 tests/regen_golden.py          # write every file, print what changed
    python3 tests/regen_golden.py --check  # write nothing; exit 1 if a file differs
"""

from __future__ import annotations

import argparse
import difflib
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
for _path in (ROOT / "py", ROOT / "tests" / "core"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from movement_maps import make_board  # noqa: E402

from muster.api import Session  # noqa: E402
from muster.game import Game, canonical, state_hash  # noqa: E402
from muster.scenario import load_builtin  # noqa: E402
from muster.systems import game_rules  # noqa: E402

HF, HH = "hex-facing", "hex-hexside"
DEMOS = ("demo-valmont", "demo-hohenbrueck", "demo-fontanella")
SEEDS = (1, 2, 3)
PLAY_LIMIT = 250  # actions per playthrough: enough to pass a turn or two, small to review


@dataclass(frozen=True)
class Fixture:
    """A small map of a hex system with units on it (``movement_maps.make_board``'s terms)."""

    system: str
    name: str
    about: str
    units: list[dict[str, Any]]
    hexes: dict[str, Any] = field(default_factory=dict)
    hexsides: list[dict[str, Any]] = field(default_factory=list)
    roads: list[list[str]] = field(default_factory=list)
    trails: list[list[str]] = field(default_factory=list)
    columns: int = 6
    rows: int = 5

    def scenario(self) -> dict[str, Any]:
        """The fixture as a scenario's JSON (flat hexes, even columns lower, from 0101)."""
        board = make_board(
            self.system,
            self.units,
            hexes=self.hexes,
            hexsides=self.hexsides,
            roads=self.roads,
            trails=self.trails,
            columns=self.columns,
            rows=self.rows,
        )
        return board.scenario.data


def _side(a: str, b: str, *features: str, up: str | None = None) -> dict[str, Any]:
    side: dict[str, Any] = {"between": [a, b], "features": list(features)}
    if up is not None:
        side["up"] = up
    return side


# Hex-facing: leader Gen, infantry Inf, cavalry Cav, artillery Art; facing 0-11 (even: a
# hexside, odd: a vertex).
FIXTURES = [
    Fixture(
        HF,
        "terrain",
        "every kind of hex terrain, two levels up, each unit type",
        units=[
            {"id": "g", "hex": "0101", "type": "leader", "mp": 6},
            {"id": "i", "hex": "0102", "type": "infantry", "mp": 6},
            {"id": "c", "hex": "0103", "type": "cavalry", "mp": 8},
            {"id": "a", "hex": "0104", "type": "artillery", "mp": 5},
        ],
        hexes={
            "0201": ["garden"],
            "0202": ["woods"],
            "0302": ["marsh"],
            "0203": ["rough"],
            "0303": ["town"],
            "0402": ["village"],
            "0403": ["vineyard"],
            "0204": ["lake"],
            "0304": ["castle"],
            "0404": ["palm_grove"],
            "0305": ["frozen_pond"],
            "0405": ["ruins"],
            "0105": ["rugged"],
            "0502": {"terrain": ["clear"], "level": 1},
            "0503": {"terrain": ["woods"], "level": 1},
            "0602": {"terrain": ["clear"], "level": 2},
        },
    ),
    Fixture(
        HF,
        "water",
        "a stream with a bridge and a ford, a canal, a river hex, a road over the bridge, a trail",
        units=[
            {"id": "i", "hex": "0102", "type": "infantry", "mp": 6},
            {"id": "c", "hex": "0103", "type": "cavalry", "mp": 8},
            {"id": "a", "hex": "0101", "type": "artillery", "mp": 5},
            {"id": "g", "hex": "0105", "type": "leader", "mp": 4},
        ],
        hexes={"0304": ["river"], "0404": ["river"]},
        hexsides=[
            _side("0201", "0301", "stream", "bridge"),
            _side("0201", "0302", "stream"),
            _side("0202", "0302", "stream"),
            _side("0202", "0303", "stream", "ford"),
            _side("0203", "0303", "stream"),
            _side("0402", "0502", "canal"),
            _side("0402", "0503", "canal"),
        ],
        roads=[["0101", "0201", "0301", "0401", "0501", "0601"]],
        trails=[["0105", "0205", "0305", "0405"]],
    ),
    Fixture(
        HF,
        "slopes",
        "a hill: slopes, a steep slope and a crest, levels 1 to 3, a road up the slope",
        units=[
            {"id": "i", "hex": "0102", "type": "infantry", "mp": 6},
            {"id": "c", "hex": "0103", "type": "cavalry", "mp": 8},
            {"id": "a", "hex": "0101", "type": "artillery", "mp": 5},
            {"id": "g", "hex": "0104", "type": "leader", "mp": 6},
        ],
        hexes={
            "0302": {"terrain": ["clear"], "level": 1},
            "0303": {"terrain": ["clear"], "level": 1},
            "0402": {"terrain": ["woods"], "level": 2},
            "0403": {"terrain": ["clear"], "level": 2},
            "0502": {"terrain": ["clear"], "level": 3},
        },
        hexsides=[
            _side("0202", "0302", "slope", up="0302"),
            _side("0203", "0303", "steep_slope", up="0303"),
            _side("0202", "0303", "slope", up="0303"),
            _side("0302", "0402", "crest", up="0402"),
            _side("0303", "0403", "slope", up="0403"),
            _side("0402", "0502", "steep_slope", up="0502"),
        ],
        roads=[["0101", "0201", "0302", "0402"]],
    ),
    Fixture(
        HF,
        "works-and-zoc",
        "a redoubt, a wall and a fortification; enemies facing a hexside, a vertex, and in a "
        "town (six front hexes); a friendly unit and a disordered one",
        units=[
            {"id": "i", "hex": "0102", "type": "infantry", "mp": 6},
            {"id": "c", "hex": "0104", "type": "cavalry", "mp": 8},
            {"id": "a", "hex": "0101", "type": "artillery", "mp": 5},
            {"id": "d", "hex": "0103", "state": {"disordered": True}, "mp": 6},
            {"id": "f", "hex": "0202", "type": "infantry", "mp": 6},
            {"id": "e1", "hex": "0402", "side": "b", "facing": 6},
            {"id": "e2", "hex": "0404", "side": "b", "facing": 7},
            {"id": "e3", "hex": "0501", "side": "b", "facing": 8},
        ],
        hexes={"0501": ["town"]},
        hexsides=[
            _side("0201", "0301", "redoubt"),
            _side("0203", "0303", "wall"),
            _side("0203", "0304", "fortification"),
        ],
    ),
    Fixture(
        HH,
        "terrain",
        "every kind of hex terrain, each unit type, a formation in column",
        units=[
            {"id": "g", "hex": "0101", "type": "leader", "mp": 6},
            {"id": "i", "hex": "0102", "type": "infantry", "mp": 4},
            {"id": "k", "hex": "0105", "state": {"formation": "column"}, "mp": 4},
            {"id": "c", "hex": "0103", "type": "cavalry", "mp": 6},
            {"id": "a", "hex": "0104", "type": "artillery", "mp": 3},
        ],
        hexes={
            "0202": ["woods"],
            "0302": ["town"],
            "0203": ["walled_town"],
            "0303": ["marsh"],
            "0204": ["pond_river_hex"],
            "0304": ["deep_water"],
            "0402": ["town", "marsh"],
            "0403": ["woods"],
        },
    ),
    Fixture(
        HH,
        "water",
        "a stream with a bridge, a pond, the Elbe, the Mietzel for a column, a road",
        units=[
            {"id": "i", "hex": "0102", "type": "infantry", "mp": 4},
            {"id": "k", "hex": "0103", "state": {"formation": "column"}, "mp": 4},
            {"id": "c", "hex": "0104", "type": "cavalry", "mp": 6},
            {"id": "a", "hex": "0101", "type": "artillery", "mp": 3},
        ],
        hexsides=[
            _side("0201", "0301", "stream", "bridge"),
            _side("0201", "0302", "stream"),
            _side("0202", "0302", "stream"),
            _side("0202", "0303", "pond"),
            _side("0203", "0303", "elbe_river"),
            _side("0103", "0203", "mietzel_river"),
            _side("0104", "0203", "mietzel_river"),
            _side("0104", "0204", "mietzel_river"),
        ],
        roads=[["0101", "0201", "0301", "0401", "0501", "0601"]],
    ),
    Fixture(
        HH,
        "slopes",
        "a hill with slopes (up and down), an entrenchment, a road up the slope",
        units=[
            {"id": "i", "hex": "0102", "type": "infantry", "mp": 4},
            {"id": "c", "hex": "0103", "type": "cavalry", "mp": 6},
            {"id": "a", "hex": "0101", "type": "artillery", "mp": 3},
            {"id": "g", "hex": "0302", "type": "leader", "mp": 6},
        ],
        hexsides=[
            _side("0202", "0302", "slope", up="0302"),
            _side("0202", "0303", "slope", up="0303"),
            _side("0203", "0303", "slope", up="0303"),
            _side("0302", "0402", "entrenchment"),
            _side("0303", "0403", "entrenchment"),
        ],
        roads=[["0101", "0201", "0302", "0402"]],
    ),
    Fixture(
        HH,
        "zoc-and-stacking",
        "enemy zones, a routed enemy (no zone), a supporting unit and engaged Prussian "
        "cavalry leaving a zone, a full stack passed through, a leader ignoring zones",
        units=[
            {"id": "i", "hex": "0102", "type": "infantry", "mp": 5},
            {"id": "l", "hex": "0104", "type": "leader", "mp": 6},
            {"id": "s", "hex": "0305", "state": {"support": True}, "mp": 4},
            {
                "id": "p",
                "hex": "0505",
                "type": "cavalry",
                "side": "prussia",
                "mp": 6,
                "state": {"engaged": True},
            },
            {"id": "f1", "hex": "0202"},
            {"id": "f2", "hex": "0202"},
            {"id": "e", "hex": "0404", "side": "b"},
            {"id": "e2", "hex": "0504", "side": "b"},
            {"id": "r", "hex": "0302", "side": "b", "state": {"routed": True}},
        ],
    ),
]


def reach_name(fixture: Fixture) -> str:
    """The golden file of a fixture, relative to ``tests/golden``."""
    return f"reach/{fixture.system}-{fixture.name}.txt"


def reach_text(fixture: Fixture) -> str:
    """Every hex each unit of side ``a`` (and ``prussia``) can reach, as the app asks."""
    data = fixture.scenario()
    session = Session()
    answer = session.call("load_scenario", {"scenario": data})
    assert answer["ok"], answer
    lines = [
        f"# reachable hexes, {fixture.system}, fixture {fixture.name!r}: {fixture.about}",
        f"# map {fixture.columns}x{fixture.rows} (flat, even columns lower, 0101 top left)",
    ]
    for label, spec in sorted(data["map"]["hexes"].items()):
        level = f" level {spec['level']}" if "level" in spec else ""
        lines.append(f"# hex {label}: {' '.join(spec.get('terrain', []))}{level}")
    for side in data["map"]["hexsides"]:
        up = f" up {side['up']}" if "up" in side else ""
        lines.append(f"# hexside {'-'.join(side['between'])}: {' '.join(side['features'])}{up}")
    for road in data["map"]["roads"]:
        lines.append(f"# {road['kind']} {' '.join(road['hexes'])}")
    for unit in data["units"]:
        extra = "".join(f" {k} {canonical(unit[k])}" for k in ("facing", "state") if k in unit)
        lines.append(
            f"# unit {unit['id']}: side {unit['side']}, {unit['type']}, at {unit['hex']}, "
            f"{unit['ratings']['movement']} MP{extra}"
        )
    lines.append("# <unit> <hex> <cheapest cost> [stop=<why the move ends there>]")
    for unit in data["units"]:
        if unit["side"] == "b":
            continue
        answer = session.call("reachable", {"unit": unit["id"]})
        assert answer["ok"], answer
        for label, entry in sorted(answer["result"]["hexes"].items()):
            stop = f" stop={entry['stop']}" if entry.get("stop") else ""
            lines.append(f"{unit['id']} {label} {entry['cost']:g}{stop}")
    return "\n".join(lines) + "\n"


def playthrough_name(scenario_id: str, seed: int) -> str:
    """The golden file of a seeded game, relative to ``tests/golden``."""
    return f"playthrough/{scenario_id}-seed{seed}.txt"


def playthrough_text(scenario_id: str, seed: int, limit: int = PLAY_LIMIT) -> str:
    """A seeded random game of a demo: each action as recorded and the state hash after it."""
    scenario = load_builtin(scenario_id)
    game = Game.start(scenario, game_rules(scenario.system), seed)
    rng = random.Random(seed)
    lines = [
        f"# playthrough of {scenario_id} ({scenario.system}), seed {seed}: legal actions "
        f"chosen by random.Random({seed}), at most {limit} actions",
        "# <number> <legal actions> <action as recorded> <state hash after it>",
        f"0 - - {state_hash(game.state)}",
    ]
    while not game.state.get("result") and len(game.actions) < limit:
        legal = game.legal_actions()
        game.apply(rng.choice(legal))
        lines.append(
            f"{len(game.actions)} {len(legal)} {canonical(game.actions[-1])} "
            f"{state_hash(game.state)}"
        )
    result = game.state.get("result")
    end = f"result {canonical(result)}" if result else f"stopped after {limit} actions"
    lines.append(f"# {end}")
    return "\n".join(lines) + "\n"


def names() -> list[str]:
    """Every golden file, relative to ``tests/golden`` (cheap: nothing is played)."""
    out = [reach_name(f) for f in FIXTURES]
    out += [playthrough_name(s, seed) for s in DEMOS for seed in SEEDS]
    return out


def render(name: str) -> str:
    """The text a golden file should hold now."""
    for fixture in FIXTURES:
        if reach_name(fixture) == name:
            return reach_text(fixture)
    for scenario_id in DEMOS:
        for seed in SEEDS:
            if playthrough_name(scenario_id, seed) == name:
                return playthrough_text(scenario_id, seed)
    raise KeyError(name)


def diff(name: str, old: str, new: str, context: int = 2) -> str:
    """A unified diff of a golden file, as ``git diff`` would show it."""
    return "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True),
            new.splitlines(keepends=True),
            f"a/tests/golden/{name}",
            f"b/tests/golden/{name}",
            n=context,
        )
    )


def first_change(old: str, new: str) -> str:
    """Where two playthroughs part: the first action played otherwise, and the first state
    hash that differs (only hashes differ: the same game, another state)."""
    rows = [
        [line.split() for line in text.splitlines() if not line.startswith("#")]
        for text in (old, new)
    ]
    action = hashes = None
    for a, b in zip(*rows, strict=False):
        if action is None and a[1:-1] != b[1:-1]:
            action = a[0]
        if hashes is None and a[-1] != b[-1]:
            hashes = a[0]
    if action is None and len(rows[0]) != len(rows[1]):
        action = str(min(len(rows[0]), len(rows[1])))
    said = f"first other action at {action}" if action is not None else "the same actions"
    return said + (f", first other state hash at {hashes}" if hashes is not None else "")


def stale() -> list[Path]:
    """Files under ``tests/golden`` that no fixture or playthrough writes any more."""
    wanted = {GOLDEN / n for n in names()}
    return sorted(p for p in GOLDEN.rglob("*.txt") if p not in wanted)


def main() -> int:
    """Write (or with ``--check`` compare) every golden file and print what changed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 on a change")
    args = parser.parse_args()
    changed = 0
    for name in names():
        path = GOLDEN / name
        new = render(name)
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        if new == old:
            continue
        changed += 1
        lines = diff(name, old, new).splitlines()
        added = sum(1 for x in lines if x.startswith("+") and not x.startswith("+++"))
        removed = sum(1 for x in lines if x.startswith("-") and not x.startswith("---"))
        status = "new" if not old else f"changed (+{added} -{removed} lines)"
        if old and name.startswith("playthrough/"):
            status += "; " + first_change(old, new)
        print(f"{name}: {status}")
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(new, encoding="utf-8")
    for path in stale():
        changed += 1
        print(f"{path.relative_to(GOLDEN)}: no longer written{'' if args.check else ' (removed)'}")
        if not args.check:
            path.unlink()
    if not changed:
        print(f"all {len(names())} golden files unchanged")
    elif not args.check:
        print(f"{changed} file(s) written: review them with `git diff tests/golden`")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
