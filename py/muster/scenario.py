"""Scenario files: parse, validate and index a battle of any system (format in
docs/scenario-format.md), and the scenarios shipped with the core.

``parse_scenario`` checks what every scenario has (plain JSON within the limits, its format,
id, title and system), then its map (``hexmap`` or ``areamap``) and its overrides
(``overrides``). Every problem raises :class:`ScenarioError` naming the place (``hex 0412:
unknown terrain "wods"``); nothing is half-loaded.
"""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Any

from . import systems
from .areamap import AreaScenario, parse_area_scenario
from .errors import ScenarioError
from .hexmap import (
    DIRECTIONAL_FEATURES,
    LEVELS,
    UNIT_TYPES,
    HexData,
    HexsideData,
    Scenario,
    check_ratings,
    connection_kinds,
    hex_terrains,
    hexside_features,
    parse_hex_scenario,
    unit_types,
)
from .limits import MAX_SCENARIO_CHARS, check_plain, check_size
from .overrides import check_overrides, override_tables
from .parsing import ScenarioFacts, expect, known_name, nonempty_text, show
from .texts import check_words

__all__ = [
    "DEFAULT_SCENARIO",
    "DIRECTIONAL_FEATURES",
    "FORMAT",
    "LEVELS",
    "SCENARIO_DIR",
    "UNIT_TYPES",
    "AnyScenario",
    "AreaScenario",
    "HexData",
    "HexsideData",
    "Scenario",
    "ScenarioFacts",
    "builtin_scenarios",
    "check_ratings",
    "connection_kinds",
    "hex_terrains",
    "hexside_features",
    "load_builtin",
    "override_tables",
    "parse_scenario",
    "unit_types",
]

FORMAT = "muster-scenario/1"
SCENARIO_DIR = Path(__file__).parent / "scenarios"
DEFAULT_SCENARIO = "demo-hohenbrueck"
# A scenario of any system: a hex map or an area map.
AnyScenario = Scenario | AreaScenario


def parse_scenario(data: Any) -> AnyScenario:
    """Validate a scenario's JSON object and index its board.

    Any JSON value in any place is either what the format allows or refused; the limits
    (``muster.limits``, docs/scenario-format.md "Limits") are checked before the work they bound.

    Raises:
        ScenarioError: naming the first place that is wrong.
        InvalidActionError: not plain JSON, or over a limit (``error.too_large`` and others of
            ``muster.limits``), naming the place.
    """
    collecting = gc.isenabled()
    gc.disable()  # many new objects and no cycles: a collection meanwhile only costs (~30 %)
    try:
        return _parse_scenario(data)
    finally:
        if collecting:
            gc.enable()


def _parse_scenario(data: Any) -> AnyScenario:
    check_plain(data, "scenario")
    expect(isinstance(data, dict), "scenario", "problem.object")
    check_size(data, "scenario", MAX_SCENARIO_CHARS)
    expect(data.get("format") == FORMAT, "format", "problem.format", expected=show(FORMAT))
    nonempty_text(data.get("id"), "id")
    check_words(data.get("title"), "title")
    if "description" in data:
        check_words(data["description"], "scenario description", empty=True)
    system = known_name(data.get("system"), systems.ids(), "system", "problem.unknown_system")
    # The kind of map of the system's scenarios: a hex grid, or areas (docs/scenario-format.md).
    if systems.get(system).map_kind == "areas":
        return parse_area_scenario(data)  # its overrides checked with its map
    scenario = parse_hex_scenario(data, system)
    check_overrides(data.get("overrides", {}), system, [s["id"] for s in data["sides"]])
    return scenario


def builtin_scenarios() -> list[dict[str, Any]]:
    """The scenarios shipped with the core: id, system, title, file name."""
    out = []
    # The default demo first (the app opens the first); the others by file name.
    paths = sorted(SCENARIO_DIR.glob("*.json"), key=lambda p: (p.stem != DEFAULT_SCENARIO, p.name))
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        out.append(
            {"id": data["id"], "system": data["system"], "title": data["title"], "file": path.name}
        )
    return out


def load_builtin(scenario_id: str) -> AnyScenario:
    """Parse the shipped scenario ``scenario_id``.

    Raises:
        ScenarioError: if there is no such scenario.
    """
    for entry in builtin_scenarios():
        if entry["id"] == scenario_id:
            text = (SCENARIO_DIR / entry["file"]).read_text(encoding="utf-8")
            return parse_scenario(json.loads(text))
    raise ScenarioError("scenario", "problem.no_scenario", got=show(scenario_id))
