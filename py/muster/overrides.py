"""A scenario's overrides of its system's tables (``overrides`` in docs/scenario-format.md),
checked against the tables they change.

Each table's check lives beside the table (terrain in ``terrain``, line of sight in ``los``,
movement in ``movement``, the sequence of play in ``play``); a system's own tables and an
owner's combat results table are checked by the system (``muster.systems.System``: its
``tables`` and ``owner_table``); this module composes them, above the maps and below
``scenario``.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from . import systems
from .errors import ScenarioError
from .los import LosDataError, los_config
from .movement import check_movement_overrides
from .parsing import brief, expect, show
from .play import check_sequence_overrides, refuse_notes
from .terrain import TerrainDataError, chart_with_overrides

# The tables a scenario may override that the core reads, where its system ships them (in its
# data folder, <name>.json); a system's own tables follow (System.tables: hex-facing's combat
# defaults, overrides.combat). A scenario's own combat results table (overrides.crt) is read
# by the system that reads an owner's table (System.owner_table) alone.
TABLES = ("los", "movement", "terrain", "sequence")


def override_tables(system: str) -> tuple[str, ...]:
    """The tables a scenario of ``system`` may override: those the system ships.

    >>> override_tables("area-locale")
    ('sequence',)
    >>> override_tables("hex-facing")[-1]
    'combat'
    """
    found = tuple(n for n in TABLES if systems.data_path(system, f"{n}.json").exists())
    return found + tuple(systems.get(system).tables)


def check_overrides(overrides: Any, system: str, sides: Collection[str] | None = None) -> None:
    """Check a scenario's table overrides against the tables they change (``sides``: the
    scenario's, which a setting naming sides takes its values from).

    Raises:
        ScenarioError: naming the place of the first problem.
        InvalidActionError: an owner's combat results table over a limit.
    """
    expect(isinstance(overrides, dict), "overrides", "problem.object")
    described = systems.get(system)
    if "crt" in overrides:  # an owner's combat results table: only a system that reads one
        owner = described.owner_table
        if owner is None:
            raise ScenarioError("overrides.crt", "problem.crt_only")
        owner.check(overrides["crt"])
        overrides = {k: v for k, v in overrides.items() if k != "crt"}
    if "combat" in overrides:  # combat defaults: only a system that ships them as a table
        expect("combat" in described.tables, "overrides.combat", "problem.combat_only")
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
        check_sequence_overrides(systems.folder(system), overrides["sequence"])
    for name, table in described.tables.items():
        if name in overrides:
            table.check(overrides[name])


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
