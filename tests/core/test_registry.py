"""The registry of rule systems (``muster.systems``): the core asks it and never names a system.

Two proofs. The source: no module outside a system's folder imports it, and nothing outside the
registry and the systems' folders compares with a system's id (read with ``ast``; docstrings
and doctests may name them). Play: a fourth system, a few dozen lines in a package of the test's
own, registered from outside, is played through ``muster.api`` (a new game, its view, legal
actions, an action, undo), listed by the editor's catalogue and the rules reference, with no
change to the core.
"""

from __future__ import annotations

import ast
import json
import sys
import textwrap
from pathlib import Path

import pytest
from test_imports import MODULES, PACKAGE, imports_of

from muster import systems
from muster.api import Session

SYSTEM_IDS = frozenset(systems.FOLDERS)


def system_folder(name: str) -> str | None:
    """The system folder module ``name`` is in (``muster.systems.hex_facing``), or None."""
    parts = name.split(".")
    return ".".join(parts[:3]) if parts[:2] == ["muster", "systems"] and len(parts) > 2 else None


def id_comparisons(source: str, ids: frozenset[str]) -> list[int]:
    """The lines of ``source`` that compare with one of ``ids`` or look one up as a key: an
    ``==``/``in`` test, a dict's key, a ``case`` (a docstring is no branch)."""
    found = []

    def named(node: ast.AST) -> bool:
        if isinstance(node, ast.Constant):
            return node.value in ids
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return any(named(e) for e in node.elts)
        return False

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
        elif isinstance(node, ast.Dict):
            operands = [k for k in node.keys if k is not None]
        elif isinstance(node, ast.MatchValue):
            operands = [node.value]
        else:
            continue
        if any(named(n) for n in operands):
            found.append(node.lineno)
    return found


def imports_by_name(source: str) -> list[str]:
    """The modules ``source`` imports by a name written out (``import_module("a.b")``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                found.append(node.args[0].value)
    return found


def test_the_reader_finds_a_branch_on_a_system():
    ids = frozenset({"hex-facing"})
    assert id_comparisons('if system == "hex-facing":\n    pass\n', ids) == [1]
    assert id_comparisons('x = system in ("a", "hex-facing")\n', ids) == [1]
    assert id_comparisons('x = {"hex-facing": 1}[system]\n', ids) == [1]
    assert id_comparisons('"""system == "hex-facing" in words"""\n', ids) == []
    assert system_folder("muster.systems.hex_facing.rules") == "muster.systems.hex_facing"
    assert system_folder("muster.systems") is None and system_folder("muster.api") is None
    source = 'import importlib\nimportlib.import_module("muster.systems.hex_facing.rules")\n'
    assert imports_by_name(source) == ["muster.systems.hex_facing.rules"]


def test_no_module_outside_a_system_folder_imports_it():
    found = []
    for name in MODULES:
        own = system_folder(name)
        for target in imports_of(name):
            folder = system_folder(target)
            if folder is not None and folder != own:
                found.append(f"{name} imports {target}")
        for target in imports_by_name(MODULES[name].read_text(encoding="utf-8")):
            folder = system_folder(target)
            if folder is not None and folder != own:
                found.append(f"{name} imports {target} by its name")
    assert found == [], "\n".join(found)


def test_no_module_outside_the_registry_and_the_systems_branches_on_a_system():
    found = []
    for name, path in MODULES.items():
        if name == "muster.systems" or system_folder(name) is not None:
            continue
        for line in id_comparisons(path.read_text(encoding="utf-8"), SYSTEM_IDS):
            found.append(f"{path.relative_to(PACKAGE)}:{line}")
    assert found == [], "a branch on a system's id:\n" + "\n".join(found)


def test_each_shipped_system_describes_itself_from_its_folder():
    for system, folder in systems.FOLDERS.items():
        described = systems.get(system)
        assert (described.id, described.folder) == (system, folder)
        assert described.home == Path(systems.__file__).parent / folder
        assert described.rules.system == system
        assert described.map_kind in ("hex", "areas")
        assert (described.movement is None) == (described.map_kind == "areas")
    assert systems.ids() == tuple(systems.FOLDERS)
    with pytest.raises(KeyError):
        systems.get("chess")
    with pytest.raises(ValueError):
        systems.register(systems.get("hex-facing"))


# -- a fourth system, from outside ------------------------------------------------------------

TOY = '''
"""A toy system: one unit type on a hex map, one action (march one hex), four marches."""

from pathlib import Path

from muster.hexgrid import hex_neighbors
from muster.reference import terrain_section
from muster.ruleset import RulesBase
from muster.systems import Editor, System
from muster.play import game_over


class Toy(RulesBase):
    system = "toy-march"

    def initial_state(self, scenario, options):
        at = {uid: u["hex"] for uid, u in scenario.units.items()}
        side = scenario.data["sides"][0]["id"]
        return {"side": side, "phase": "march", "at": at, "marches": 0, "result": None,
                "chance": None, "held": {}, "queue": []}

    def legal_actions(self, scenario, state):
        if state["result"]:
            return []
        out = []
        for uid, label in sorted(state["at"].items()):
            if scenario.units[uid]["side"] == state["side"]:
                for n in hex_neighbors(scenario.hex_at(label)):
                    if n in scenario.hexes:
                        out.append({"type": "march", "unit": uid, "to": scenario.label(n)})
        return out

    def apply(self, scenario, state, action):
        state["at"][action["unit"]] = action["to"]
        state["marches"] += 1
        sides = [s["id"] for s in scenario.data["sides"]]
        state["side"] = sides[(sides.index(state["side"]) + 1) % len(sides)]
        if state["marches"] == 4:
            return game_over(state, dict.fromkeys(sides, 0))
        return []

    def reference(self, scenario, state):
        chart = terrain_section(scenario, "toy", SYSTEM.editor.headings())
        return {"system": self.system, "sections": [chart]}


SYSTEM = System(
    id="toy-march", folder="toy_march", home=Path(__file__).parent, map_kind="hex",
    rules=Toy(), movement=None, editor=Editor(unit_types=("infantry",), headings=lambda: {
        "mp": {"key": "ref.col.mp", "params": {"unit_types": ["infantry"]}}}),
    terrain_chart="toy chart",
)
'''
DATA = {
    "terrain.json": {
        "system": "toy-march",
        "notes": {},
        "flags": {},
        "columns": [{"key": "mp", "seed": "MP", "group": "movement"}],
        "rows": [
            {"id": "clear", "names": ["clear"], "kind": "hex", "seed": "Clear", "cells": {"mp": 1}}
        ],
    },
    "los.json": {
        "system": "toy-march",
        "vertex": {"value": "both", "source": "toy"},
        "eye_height": {"value": 0, "source": "toy"},
        "hex_obstacles": {},
        "hexside_features": {},
    },
    "units.json": {
        "system": "toy-march",
        "types": {"infantry": {"ratings": [], "steps": {"min": 1, "max": 1, "default": 1}}},
    },
    "sequence.json": {"system": "toy-march", "turns": 2, "closed": {}},
}


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The toy system in a package of its own, registered for the test and then forgotten."""
    home = tmp_path / "toy_march"
    home.mkdir()
    (home / "__init__.py").write_text(textwrap.dedent(TOY), encoding="utf-8")
    for name, data in DATA.items():
        (home / name).write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    import toy_march

    systems.register(toy_march.SYSTEM)
    yield toy_march.SYSTEM
    systems.unregister("toy-march")
    sys.modules.pop("toy_march", None)


def answer(session: Session, method: str, params: dict | None = None):
    found = session.call(method, params)
    assert found["ok"], (method, found)
    return found["result"]


def test_a_fourth_system_plays_through_the_api_with_no_change_to_the_core(toy):
    session = Session()
    listed = answer(session, "version")["systems"]
    assert {"id": "toy-march", "map_kind": "hex"} in listed

    catalog = answer(session, "editor_catalog", {"system": "toy-march"})
    assert catalog["map_kind"] == "hex" and catalog["units"]["types"] == ["infantry"]
    assert catalog["units"]["facing"] is None and catalog["hex"]["terrains"] == ["clear"]
    assert {e["table"] for e in catalog["tables"]} == {"los", "terrain"}  # "turns" is its own

    scenario = answer(session, "scenario_template", {"system": "toy-march"})
    scenario["sides"][0]["id"], scenario["sides"][1]["id"] = "blue", "red"
    scenario["units"] = [
        {"id": "b1", "name": "Blue", "side": "blue", "type": "infantry", "hex": "0101"},
        {"id": "r1", "name": "Red", "side": "red", "type": "infantry", "hex": "0305"},
    ]
    assert answer(session, "scenario_check", {"scenario": scenario})["ok"]
    loaded = answer(session, "load_scenario", {"scenario": scenario})
    assert (loaded["system"], loaded["playable"], loaded["units"]) == ("toy-march", True, 2)

    view = answer(session, "new_game", {"seed": 1})
    assert view["legal"] and all(a["type"] == "march" and a["unit"] == "b1" for a in view["legal"])
    first = view["legal"][0]
    view = answer(session, "act", {"action": first})
    assert view["state"]["at"]["b1"] == first["to"] and view["state"]["side"] == "red"
    view = answer(session, "undo")
    assert view["state"]["at"]["b1"] == "0101" and view["state"]["side"] == "blue"
    for _ in range(4):
        view = answer(session, "act", {"action": view["legal"][0]})
    assert view["state"]["result"] is not None and not view["legal"]

    reference = answer(session, "rules_reference")
    assert reference["system"] == "toy-march"
    chart = reference["sections"][0]
    assert chart["rule"] == "toy chart"  # the chart's name is the system's word, not the core's
    assert [row["cells"]["mp"] for row in chart["rows"]] == [1]


def test_a_registered_system_is_forgotten_when_unregistered(toy):
    assert "toy-march" in systems.ids()
    systems.unregister("toy-march")
    assert "toy-march" not in systems.ids()
    refused = Session().call("editor_catalog", {"system": "toy-march"})
    assert refused["error"]["key"] == "error.unknown_system"
    systems.register(toy)  # for the fixture to forget it again
