"""Every setting of each system's ``sequence.json`` is read by the rules (issue 15, contract §1),
and every setting of every table a scenario may override (``overrides``: sequence, movement,
hex-facing's combat defaults, line of sight, terrain cells) is read by the rules or refused as
an override with words naming its place (issue 23).

A recording mapping stands in for the scenario's settings (``muster.play.settings`` keeps
them in ``scenario.memo[("settings", folder)]``): a ``dict`` whose lookups (``[]``, ``get``,
``items``, ``values``, a copy) note the dotted path of the key, with every nested object and
list wrapped the same way (list items as ``path.0``, ``path.1``, ...). Seeded random games of
each demo are played through it (legal actions, apply, and what the screen asks: prompt,
choices, views, previews, chance results; not the rules reference, which shows every setting),
then every probe of ``sequence_probes.py``. Each non-note leaf must have been read; notes are
the keys ``why``, ``source``, ``system``, ``default``, ``aid``, ``closed``. The movement settings
(``scenario.memo[("movement", system)]``) and hex-facing's combat defaults (the ``settings`` of
``scenario.memo["hf combat tables"]``) are recorded the same way in the same games.

Then each leaf of each table, written back as a scenario's override with its own default
value: either the loader refuses it, naming the leaf's place with the words of a note, a fact
of the aid's chart or a default the rules hold fixed, or the rules read it (recorded above;
for the line of sight, the rules' configuration changes with it).
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import json
import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
import sequence_probes

from muster import editor
from muster import play as shared
from muster.errors import ScenarioError
from muster.game import Game
from muster.los import los_config, los_values
from muster.movement import MOVEMENT_NOTES, movement_closed, movement_data, movement_settings
from muster.overrides import override_tables
from muster.problems import PROBLEMS
from muster.scenario import load_builtin, parse_scenario
from muster.systems import FOLDERS, data_path, game_rules
from muster.systems.hex_facing import tables as hf_tables

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
    return sorted(p for p in leaves(shared.sequence_data(folder)) if p not in read)


def recorder(read: dict[str, set[str]]) -> Any:
    """``record(scenario)``: install the recording settings in ``scenario``'s caches: its
    sequence (noted under ``read[folder]``), its movement settings (``read[folder +
    "/movement"]``, hex systems) and hex-facing's combat defaults (``read["hex_facing/combat"]``,
    by the dotted names of ``combat.open_settings``)."""

    def record(scenario: Any) -> Any:
        folder = FOLDERS[scenario.system]
        scenario.memo.pop(("settings", folder), None)
        merged = shared.settings(scenario, folder)
        keys = read.setdefault(folder, set())
        scenario.memo[("settings", folder)] = Recording(merged, keys)
        if "movement" in override_tables(scenario.system):
            scenario.memo.pop(("movement", scenario.system), None)
            moves = movement_settings(scenario)
            keys = read.setdefault(f"{folder}/movement", set())
            scenario.memo[("movement", scenario.system)] = Recording(moves, keys)
        if "combat" in override_tables(scenario.system):
            scenario.memo.pop("hf combat tables", None)
            tables = hf_tables.tables_for(scenario)
            keys = read.setdefault(f"{folder}/combat", set())
            settings = Recording(dict(tables.settings), keys)
            scenario.memo["hf combat tables"] = dataclasses.replace(tables, settings=settings)
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
def all_reads(folder: str) -> dict[str, frozenset[str]]:
    """What the demo's random games and the system's probes read of ``folder``'s settings:
    by table (``folder`` for its sequence, ``folder/movement``, ``folder/combat``)."""
    read: dict[str, set[str]] = {folder: set()}
    record = recorder(read)
    for seed in SEEDS:
        play(record(load_builtin(DEMOS[folder])), seed)
    for probe in probes(folder):
        probe(record)
    return {table: frozenset(keys) for table, keys in read.items()}


def reads(folder: str, table: str = "sequence") -> frozenset[str]:
    """What was read of one table of ``folder`` (``all_reads``)."""
    key = folder if table == "sequence" else f"{folder}/{table}"
    return all_reads(folder).get(key, frozenset())


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
    # It is the settings the rules get: muster.play.settings answers from the cache.
    scenario = load_builtin("demo-valmont")
    got: dict[str, set[str]] = {}
    recorder(got)(scenario)
    shared.settings(scenario, "hex_facing")["turns"]
    assert got["hex_facing"] == {"turns"}
    assert not got["hex_facing/movement"] and not got["hex_facing/combat"]


def test_a_probe_is_found_and_its_reads_count(monkeypatch):
    def probe_hex_facing_example(record):
        scenario = record(load_builtin("demo-valmont"))
        shared.settings(scenario, "hex_facing")["no_orders"]["may_melee"]

    monkeypatch.setattr(
        sequence_probes, "probe_hex_facing_example", probe_hex_facing_example, raising=False
    )
    assert probe_hex_facing_example in probes("hex_facing")
    assert probe_hex_facing_example not in probes("hex_hexside")
    got: dict[str, set[str]] = {}
    probe_hex_facing_example(recorder(got))
    assert "no_orders.may_melee" in got["hex_facing"]
    assert "no_orders.movement_factor" in unread("hex_facing", got["hex_facing"])


# -- every table a scenario may override (issue 23) --------------------------------------------

HEX_FOLDERS = ("hex_facing", "hex_hexside")
SYSTEM_OF = {folder: system for system, folder in FOLDERS.items()}
# The keys of a refusal of an override that is no setting.
NOT_A_SETTING_KEYS = ("problem.note", "problem.combat_fact", "problem.combat_fixed")


def no_setting(problem: Any) -> bool:
    """True if ``problem`` (a label) says that what was written is no setting."""
    return isinstance(problem, dict) and problem.get("key") in NOT_A_SETTING_KEYS


def defaults_of(system: str, table: str) -> dict[str, Any]:
    """The shipped defaults of one table of ``system`` (the file a scenario overrides)."""
    if table == "sequence":
        return shared.sequence_data(FOLDERS[system])
    if table == "movement":
        return movement_data(system)
    assert table == "combat", table
    return hf_tables.raw_tables()


def written_back(defaults: dict[str, Any], leaf: str) -> tuple[dict[str, Any], str]:
    """The override that writes ``leaf`` (a dotted path of ``leaves``) back with its default,
    and the place a refusal of it names: a leaf inside a list is written with its whole list."""
    out: dict[str, Any] = {}
    here, node, place = out, defaults, []
    parts = leaf.split(".")
    for i, key in enumerate(parts):
        value = node[key]
        place.append(key)
        if i == len(parts) - 1 or isinstance(value, list):
            here[key] = copy.deepcopy(value)
            return out, ".".join(place)
        here = here.setdefault(key, {})
        node = value
    raise AssertionError(leaf)


def refusal(system: str, overrides: dict[str, Any]) -> ScenarioError | None:
    """The loader's refusal of a scenario of ``system`` with ``overrides``, or None."""
    try:
        parse_scenario({**editor.template(system), "overrides": overrides})
    except ScenarioError as error:
        return error
    return None


TABLE_CASES = [
    (system, table)
    for system in sorted(FOLDERS)
    for table in override_tables(system)
    if table in ("sequence", "movement", "combat")
]


@pytest.mark.parametrize("system, table", TABLE_CASES, ids=[f"{s}-{t}" for s, t in TABLE_CASES])
def test_every_leaf_a_scenario_may_override_is_read_or_refused(system, table):
    folder = FOLDERS[system]
    defaults = defaults_of(system, table)
    read = reads(folder, table)
    opened = hf_tables.open_settings() if table == "combat" else {}
    refused, unread = [], []
    for leaf in leaves(defaults):
        override, place = written_back(defaults, leaf)
        error = refusal(system, {table: override})
        if error is not None:
            # Refused where it is written, as no setting: a note, a fact, a default held fixed.
            at = error.params["place"]
            assert at.startswith(f"overrides.{table}.{place}"), (leaf, at)
            assert no_setting(error.params["problem"]), (leaf, error.params)
            refused.append(leaf)
        elif table == "combat":
            setting = opened.get(tuple(leaf.split(".")))
            if setting not in read:
                unread.append(leaf)
        elif leaf not in read:
            unread.append(leaf)
    assert not unread, f"{system} {table}: accepted as overrides, never read: {unread}"
    if table == "movement":
        assert MOVEMENT_NOTES & set(leaves(defaults)) <= set(refused), refused
        assert not MOVEMENT_NOTES & read


@pytest.mark.parametrize("folder", HEX_FOLDERS)
def test_every_setting_of_movement_json_is_read_but_its_notes(folder):
    system = SYSTEM_OF[folder]
    read = reads(folder, "movement")
    left = [p for p in leaves(movement_data(system)) if p not in read and p not in MOVEMENT_NOTES]
    assert not left, f"{folder}/movement.json: read by no rule: {left}"


def test_every_combat_default_a_scenario_may_change_is_read():
    read = reads("hex_facing", "combat")
    left = [s for s in hf_tables.open_settings().values() if s not in read]
    assert not left, f"hex_facing/combat.json: open defaults read by no rule: {left}"


def another(value: Any) -> Any:
    """A value of the kind of ``value`` (a line-of-sight setting) that is not it."""
    if isinstance(value, bool):
        return not value
    if value == "both":
        return "either"
    return 1 if value is None else value + 1


@pytest.mark.parametrize("system", ["hex-facing", "hex-hexside"])
def test_every_line_of_sight_setting_is_accepted_and_reaches_the_rules(system):
    values = los_values(system)
    plain = {"vertex": values["vertex"], "eye_height": values["eye_height"]}
    plain |= {f"hex_obstacles.{k}": v for k, v in values["hex_obstacles"].items()}
    for name, spec in values["hexside_features"].items():
        plain |= {f"hexside_features.{name}.{k}": v for k, v in spec.items()}
    assert "hex_obstacles.woods" in plain
    for leaf, value in plain.items():
        override = editor.override_at(leaf.split("."), value)
        assert refusal(system, {"los": override}) is None, leaf
        changed = editor.override_at(leaf.split("."), another(value))
        assert refusal(system, {"los": changed}) is None, leaf
        assert los_config(system, changed) != los_config(system), leaf


@pytest.mark.parametrize("system", ["hex-facing", "hex-hexside"])
def test_a_terrain_cell_is_a_setting_but_its_print_and_its_mark(system):
    raw = json.loads(data_path(system, "terrain.json").read_text(encoding="utf-8"))
    for row in raw["rows"]:
        for column, cell in row["cells"].items():
            if not isinstance(cell, dict):
                continue
            plain = {k: v for k, v in cell.items() if k not in ("printed", "default")}
            for mark, problem in (
                ("printed", PROBLEMS["problem.combat_fact"]),
                ("default", PROBLEMS["problem.note"]),
            ):
                if mark not in cell:
                    continue
                marked = {**plain, mark: cell[mark]}
                error = refusal(system, {"terrain": {row["id"]: {column: marked}}})
                assert error is not None, (row["id"], column, mark)
                place = f"overrides.terrain.{row['id']}.{column}.{mark}"
                assert error.params["place"] == place, (place, error.params)
                assert no_setting(error.params["problem"]) and problem in str(error)
            assert refusal(system, {"terrain": {row["id"]: {column: plain}}}) is None


def test_the_terrain_charts_mark_cells_and_print_others():
    """The test above meets both marks (in the two charts together)."""
    marks = set()
    for system in ("hex-facing", "hex-hexside"):
        raw = json.loads(data_path(system, "terrain.json").read_text(encoding="utf-8"))
        cells = [c for r in raw["rows"] for c in r["cells"].values() if isinstance(c, dict)]
        marks |= {m for c in cells for m in ("printed", "default") if m in c}
    assert marks == {"printed", "default"}


# Text settings whose closed set is not in their file: the chart's movement columns
# (``movement_columns``) and the scenario's sides.
CLOSED_ELSEWHERE = ("unit_columns.", "zoc_exit.prussian_sides")


@pytest.mark.parametrize("system", sorted(FOLDERS))
def test_every_text_setting_takes_its_values_from_a_closed_set(system):
    """A text, or a list of texts, that a scenario may override is held to a closed set: the
    file's ``"closed"`` object names it (rows of a list by their field), or its set is the
    chart's or the scenario's."""
    tables = [("sequence", shared.sequence_data(FOLDERS[system]), shared.closed_sets)]
    if "movement" in override_tables(system):
        tables.append(("movement", movement_data(system), lambda _: movement_closed(system)))
    checked = 0
    for table, data, closed_of in tables:
        closed = closed_of(FOLDERS[system])
        for leaf in leaves(data):
            value: Any = data
            for key in leaf.split("."):
                value = value[int(key)] if isinstance(value, list) else value[key]
            texts = isinstance(value, str) or (
                isinstance(value, list) and all(isinstance(v, str) for v in value) and value
            )
            if not texts or leaf in MOVEMENT_NOTES or leaf.startswith(CLOSED_ELSEWHERE):
                continue
            field = ".".join(k for k in leaf.split(".") if not k.isdigit())
            assert field in closed, f"{system} {table}: {leaf} has no closed set"
            checked += 1
    assert checked >= len(tables), system  # each table has text settings
