"""A scenario's overrides of its system's tables (``overrides`` in docs/scenario-format.md),
checked against the tables they change.

Each table's check lives beside the table (terrain in ``terrain``, line of sight in ``los``,
movement in ``movement``, the sequence of play in ``systems.common``, an owner's combat
results table in hex-hexside's ``combat``, hex-facing's combat defaults in its ``combat``);
this module composes them, above the maps and below ``scenario``.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from .errors import ScenarioError
from .los import LosDataError, los_config
from .movement import check_movement_overrides
from .parsing import brief, expect, show
from .systems import FOLDERS, data_path
from .systems.common import check_sequence_overrides, refuse_notes
from .systems.hex_facing.tables import check_overrides as check_hf_combat
from .terrain import TerrainDataError, chart_with_overrides

# The tables a scenario may override, where its system ships them (systems/<folder>/<name>.json).
TABLES = ("los", "movement", "terrain", "sequence")
# A scenario's own combat results table (overrides.crt) is read by hex-hexside alone.
# The defaults of combat.json the aid leaves open (overrides.combat): hex-facing's alone (its
# check, ``check_overrides`` of hex-facing's ``combat``, says which).
COMBAT_SYSTEMS = ("hex-facing",)


def override_tables(system: str) -> tuple[str, ...]:
    """The tables a scenario of ``system`` may override: those the system ships.

    >>> override_tables("area-locale")
    ('sequence',)
    >>> override_tables("hex-facing")[-1]
    'combat'
    """
    found = tuple(n for n in TABLES if data_path(system, f"{n}.json").exists())
    return found + (("combat",) if system in COMBAT_SYSTEMS else ())


def check_overrides(overrides: Any, system: str, sides: Collection[str] | None = None) -> None:
    """Check a scenario's table overrides against the tables they change (``sides``: the
    scenario's, which a setting naming sides takes its values from).

    Raises:
        ScenarioError: naming the place of the first problem.
        InvalidActionError: an owner's combat results table over a limit.
    """
    expect(isinstance(overrides, dict), "overrides", "problem.object")
    if "crt" in overrides:  # an owner's combat results table: hex-hexside's alone
        expect(system == "hex-hexside", "overrides.crt", "problem.crt_only")
        # Imported here until hex-hexside's modules take Scenario from hexmap, not scenario
        # (tests/core/test_imports.py names the cycle); then at the top of this module.
        from .systems.hex_hexside.combat import check_scenario_crt

        check_scenario_crt(overrides["crt"])
        overrides = {k: v for k, v in overrides.items() if k != "crt"}
    if "combat" in overrides:
        ok = system in COMBAT_SYSTEMS
        expect(ok, "overrides.combat", "problem.combat_only")
    unknown = set(overrides) - set(override_tables(system))
    if unknown:
        raise ScenarioError("overrides", "problem.unknown_table", got=show(sorted(unknown)[0]))
    if "terrain" in overrides:
        refuse_notes(overrides["terrain"], "overrides.terrain")
        refuse_printed(overrides["terrain"])
        try:
            chart_with_overrides(system, overrides["terrain"])
        except TerrainDataError as exc:
            raise ScenarioError("overrides.terrain" + exc.at, exc.problem, **exc.params) from None
    if "los" in overrides:
        # null is no override to the line of sight's code; in a file, as every table, an object
        expect(isinstance(overrides["los"], dict), "overrides.los", "problem.object")
        try:
            los_config(system, overrides["los"])
        except LosDataError as exc:
            raise ScenarioError("overrides.los" + exc.at, exc.problem, **exc.params) from None
    if "movement" in overrides:
        check_movement_overrides(system, overrides["movement"], sides=sides)
    if "sequence" in overrides:
        check_sequence_overrides(FOLDERS[system], overrides["sequence"])
    if "combat" in overrides:
        check_hf_combat(overrides["combat"])


def refuse_printed(terrain: Any) -> None:
    """Refuse an override of what the aid prints in a cell (``printed``): the rules read the
    cell's value, and the aid's print is its fact.

    Raises:
        ScenarioError: ``overrides.terrain.<row>.<column>.printed`` (``problem.combat_fact``).
    """
    for row, cells in terrain.items() if isinstance(terrain, dict) else ():
        for column, cell in cells.items() if isinstance(cells, dict) else ():
            if isinstance(cell, dict) and "printed" in cell:
                place = f"overrides.terrain.{brief(row)}.{brief(column)}.printed"
                raise ScenarioError(place, "problem.combat_fact")
