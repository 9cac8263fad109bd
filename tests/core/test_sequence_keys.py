"""Every setting of each system's ``sequence.json`` is read by the rules (issue 15, contract §1).

A recording mapping stands in for the scenario's settings (``systems.common.settings`` keeps
them in ``scenario.memo[("settings", folder)]``): a ``dict`` whose lookups (``[]``, ``get``,
``items``, ``values``, a copy) note the dotted path of the key, with every nested object and
list wrapped the same way (list items as ``path.0``, ``path.1``, ...). Seeded random games of
each demo are played through it (legal actions, apply, and what the screen asks: prompt,
choices, views, previews, chance results; not the rules reference, which shows every setting),
then every probe of ``sequence_probes.py``. Each non-note leaf must have been read; notes are
the keys ``why``, ``source``, ``system``, ``default``, ``aid``, ``closed``.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
import sequence_probes

from muster.game import Game
from muster.scenario import load_builtin
from muster.systems import FOLDERS, common, game_rules

NOTES = frozenset({"why", "source", "system", "default", "aid", "closed"})
DEMOS = {"hex_facing": "demo-valmont", "hex_hexside": "demo-hohenbrueck"}
DEMOS["area_locale"] = "demo-fontanella"
SEEDS = (1, 2, 3)
FIGHT_BIAS = 0.5  # how often a random game prefers a fight, to reach combat's corners
LIMIT = 20_000  # actions: a longer game is taken for one that never ends
FIGHTS = ("fire", "melee", "charge", "attack", "designate", "bombard", "assault", "declare")


class Recording(dict):
    """A dict that notes in ``read`` the dotted path of every key looked up."""

    def __init__(self, data: dict[str, Any], read: set[str], path: str = "") -> None:
        super().__init__({k: wrap(v, read, f"{path}{k}") for k, v in data.items()})
        self.read = read
        self.path = path

    def __getitem__(self, key: Any) -> Any:
        value = super().__getitem__(key)  # a missing key raises, and is not read
        self.read.add(f"{self.path}{key}")
        return value

    def get(self, key: Any, default: Any = None) -> Any:
        if key in self:
            return self[key]
        return default

    def items(self) -> Any:  # type: ignore[override]
        return [(k, self[k]) for k in self.keys()]

    def values(self) -> Any:  # type: ignore[override]
        return [self[k] for k in self.keys()]

    def __iter__(self) -> Iterator[Any]:
        # Not dict's own iterator: dict(x) and {**x} then copy through keys() and [], so a
        # copy of the settings reads every key it copies.
        return iter(list(self.keys()))

    def copy(self) -> dict[str, Any]:  # type: ignore[override]
        return dict(self.items())


class RecordingList(list):
    """A list (of objects or lists) whose items are recorded as ``path.index``."""

    def __init__(self, data: list[Any], read: set[str], path: str) -> None:
        super().__init__(wrap(v, read, f"{path}.{i}") for i, v in enumerate(data))
        self.read = read
        self.path = path

    def __getitem__(self, index: Any) -> Any:
        value = super().__getitem__(index)
        for i in range(len(self))[index] if isinstance(index, slice) else [index]:
            self.read.add(f"{self.path}.{i % len(self)}")
        return value

    def __iter__(self) -> Iterator[Any]:
        for i in range(len(self)):
            yield self[i]


def wrap(value: Any, read: set[str], path: str) -> Any:
    """``value`` with its objects recording under ``path`` (a list of plain values stays as
    it is: reading its key reads it whole)."""
    if isinstance(value, dict):
        return Recording(value, read, path + ".")
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        return RecordingList(value, read, path)
    return value


def leaves(data: Any, path: str = "") -> Iterator[str]:
    """The dotted path of every leaf of ``data`` that is not a note."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key not in NOTES:
                yield from leaves(value, f"{path}.{key}" if path else key)
    elif isinstance(data, list) and any(isinstance(v, (dict, list)) for v in data):
        for i, value in enumerate(data):
            yield from leaves(value, f"{path}.{i}")
    else:
        yield path


def unread(folder: str, read: set[str]) -> list[str]:
    """The settings of ``folder``'s sequence.json that nothing read."""
    return sorted(p for p in leaves(common.sequence_data(folder)) if p not in read)


def recorder(read: dict[str, set[str]]) -> Any:
    """``record(scenario)``: install the recording settings in ``scenario``'s cache."""

    def record(scenario: Any) -> Any:
        folder = FOLDERS[scenario.system]
        scenario.memo.pop(("settings", folder), None)
        merged = common.settings(scenario, folder)
        keys = read.setdefault(folder, set())
        scenario.memo[("settings", folder)] = Recording(merged, keys)
        return scenario

    return record


def ask_the_screen(game: Any) -> None:
    """What the screen asks of a position (the reads a view makes, without the reference)."""
    rules, sc, state = game.rules, game.scenario, game.state
    rules.prompt(sc, state)
    for viewer in [None] + [s["id"] for s in sc.data["sides"]]:
        rules.view_for(sc, state, viewer)
        rules.view_extra(sc, state, viewer)
    if state.get("result"):
        return
    if state.get("chance"):
        rules.chance_results(sc, state)
        return
    legal = game.legal_actions()
    rules.choices(sc, state, legal)
    for action in [a for a in legal if a["type"] in rules.previewable][:2]:
        rules.preview(sc, state, action)


def probes(folder: str) -> list[Any]:
    """Every ``probe_<folder>_<what>`` function of ``sequence_probes``, in file order."""
    found = [
        f
        for name, f in vars(sequence_probes).items()
        if name.startswith(f"probe_{folder}_") and callable(f)
    ]
    return sorted(found, key=lambda f: inspect.getsourcelines(f)[1])


def play(scenario: Any, seed: int) -> None:
    """A seeded random game to its end (fights preferred at times), the screen asked at each
    position."""
    game = Game.start(scenario, game_rules(scenario.system), seed)
    rng = random.Random(seed)
    while not game.state.get("result"):
        assert len(game.actions) < LIMIT, f"{scenario.id} seed {seed}: no end"
        legal = game.legal_actions()
        fights = [a for a in legal if a["type"] in FIGHTS]
        game.push(rng.choice(fights) if fights and rng.random() < FIGHT_BIAS else rng.choice(legal))
        ask_the_screen(game)


@cache
def reads(folder: str) -> frozenset[str]:
    """What the demo's random games and the system's probes read of ``folder``'s settings."""
    read: dict[str, set[str]] = {folder: set()}
    record = recorder(read)
    for seed in SEEDS:
        play(record(load_builtin(DEMOS[folder])), seed)
    for probe in probes(folder):
        probe(record)
    return frozenset(read[folder])


@pytest.mark.parametrize("folder", sorted(FOLDERS.values()))
def test_every_setting_of_sequence_json_is_read(folder):
    left = unread(folder, set(reads(folder)))
    assert not left, (
        f"{folder}/sequence.json: {len(left)} setting(s) no rule read in the demos' random "
        f"games nor in sequence_probes.py (wire each, or remove it, or add a probe that "
        f"reaches it): " + ", ".join(left)
    )


def test_the_recorder_notes_what_is_read_and_only_that():
    read: set[str] = set()
    raw = {
        "a": {"b": 1, "c": 2, "why": "note"},
        "turn": [{"phase": "x", "why": "y"}, {"phase": "z"}],
        "steps": ["fire", "move"],
        "n": 3,
        "closed": {"n": [3, 4]},
    }
    data = Recording(raw, read)
    assert data["a"]["b"] == 1 and data.get("n") == 3 and data.get("missing") is None
    assert [t["phase"] for t in data["turn"][:1]] == ["x"]
    assert data["steps"] == ["fire", "move"]
    assert read == {"a", "a.b", "n", "turn", "turn.0", "turn.0.phase", "steps"}
    assert sorted(p for p in leaves(raw) if p not in read) == ["a.c", "turn.1.phase"]
    # A copy reads what it copies; a test of presence reads nothing.
    read.clear()
    assert "c" in data["a"]
    assert read == {"a"}
    assert dict(data["a"]) == {"b": 1, "c": 2, "why": "note"}
    assert {**data["turn"][1]} == {"phase": "z"}
    assert read == {"a", "a.b", "a.c", "a.why", "turn", "turn.1", "turn.1.phase"}
    # A list of lists: its items are its leaves, read by index or by a loop.
    read.clear()
    grid = Recording({"rows": [[1, 2], [3]]}, read)
    assert [len(r) for r in grid["rows"]] == [2, 1] and grid["rows"][-1] == [3]
    assert read == {"rows", "rows.0", "rows.1"}
    # It is the settings the rules get: common.settings answers from the cache.
    scenario = load_builtin("demo-valmont")
    got: dict[str, set[str]] = {}
    recorder(got)(scenario)
    common.settings(scenario, "hex_facing")["turns"]
    assert got == {"hex_facing": {"turns"}}


def test_a_probe_is_found_and_its_reads_count(monkeypatch):
    def probe_hex_facing_example(record):
        scenario = record(load_builtin("demo-valmont"))
        common.settings(scenario, "hex_facing")["no_orders"]["may_melee"]

    monkeypatch.setattr(
        sequence_probes, "probe_hex_facing_example", probe_hex_facing_example, raising=False
    )
    assert probe_hex_facing_example in probes("hex_facing")
    assert probe_hex_facing_example not in probes("hex_hexside")
    got: dict[str, set[str]] = {}
    probe_hex_facing_example(recorder(got))
    assert "no_orders.may_melee" in got["hex_facing"]
    assert "no_orders.movement_factor" in unread("hex_facing", got["hex_facing"])
