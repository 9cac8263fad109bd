"""One-line builders of small hand-made maps for the movement tests."""

from __future__ import annotations

from typing import Any

from muster.hexgrid import Hex
from muster.movement import Board, Reach, path_to, reachable
from muster.scenario import parse_scenario
from muster.systems import movement_rules


def make_board(
    system: str,
    units: list[dict[str, Any]],
    hexes: dict[str, Any] | None = None,
    hexsides: list[dict[str, Any]] | None = None,
    roads: list[list[str]] | None = None,
    trails: list[list[str]] | None = None,
    columns: int = 6,
    rows: int = 4,
    movement: dict[str, Any] | None = None,
    terrain_overrides: dict[str, Any] | None = None,
) -> Board:
    """A flat, even-staggered map numbered from 0101 with the given features and units.

    Each unit is ``{"id", "hex"}`` plus optional ``side`` (default "a"), ``type`` (default
    infantry), ``mp`` (default 6), ``state``, ``facing``.
    """
    specs = []
    for u in units:
        spec = {
            "id": u["id"],
            "side": u.get("side", "a"),
            "type": u.get("type", "infantry"),
            "name": u["id"],
            "hex": u["hex"],
            "ratings": {"movement": u.get("mp", 6)},
        }
        for key in ("state", "facing"):
            if key in u:
                spec[key] = u[key]
        specs.append(spec)
    road_list = [{"kind": "road", "hexes": r} for r in roads or []]
    road_list += [{"kind": "trail", "hexes": r} for r in trails or []]
    data = {
        "format": "muster-scenario/1",
        "id": "test",
        "system": system,
        "title": "test",
        "map": {
            "orientation": "flat",
            "stagger": "even",
            "columns": columns,
            "rows": rows,
            "hexes": {
                k: (v if isinstance(v, dict) else {"terrain": v}) for k, v in (hexes or {}).items()
            },
            "hexsides": hexsides or [],
            "roads": road_list,
        },
        "sides": [
            {"id": "a", "name": "A"},
            {"id": "b", "name": "B"},
            {"id": "prussia", "name": "P"},
        ],
        "units": specs,
        "overrides": {
            **({"movement": movement} if movement else {}),
            **({"terrain": terrain_overrides} if terrain_overrides else {}),
        },
    }
    return Board(parse_scenario(data))


def reach(board: Board, uid: str) -> dict[str, float]:
    """Printed number -> cheapest cost, for every hex the unit can reach."""
    found = reachable(board, uid, movement_rules(board.scenario.system))
    return {board.label(h): r.cost for h, r in found.items()}


def reach_records(board: Board, uid: str) -> dict[Hex, Reach]:
    """The raw Dijkstra result."""
    return reachable(board, uid, movement_rules(board.scenario.system))


def step(board: Board, uid: str, frm: str, to: str):
    """The single step ``frm`` -> ``to`` for unit ``uid``."""
    rules = movement_rules(board.scenario.system)
    sc = board.scenario
    return rules.step(board, board.unit(uid), sc.hex_at(frm), sc.hex_at(to))


def parts(board: Board, uid: str, frm: str, to: str) -> list[tuple[float, str, dict]]:
    """The breakdown of one step as (value, key, params)."""
    return [(p.value, p.key, dict(p.params)) for p in step(board, uid, frm, to).parts]


def path(board: Board, uid: str, to: str) -> list[str]:
    """The cheapest path's hexes, start included."""
    found = reach_records(board, uid)
    steps = path_to(found, board.scenario.hex_at(to))
    return [board.label(steps[0].frm)] + [board.label(s.to) for s in steps]
