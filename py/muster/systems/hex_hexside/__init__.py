"""Hex-hexside system (seed 003): Seven Years' War hexes with hexside terrain and morale.

Its descriptor, ``SYSTEM``: what the core asks of it (``muster.systems.System``).
"""

from pathlib import Path
from typing import Any

from ...hexmap import UNIT_TYPES
from ...movement import movement_data
from ...reference import label
from .. import Editor, OwnerTable, System
from .combat import check_scenario_crt, crt_info
from .evaluation import assault, evaluate, threat
from .movement import RULES as MOVEMENT
from .reference import DRM_ROWS
from .rules import RULES
from .tables import raw_tables

# The combat settings the rules reference words (sequence.json path -> ref.hh_setting.<name>).
SETTINGS = {
    ("results", "r"): "r",
    ("results", "S"): "S",
    ("results", "second_disorder"): "second_disorder",
    ("results", "no_retreat"): "no_retreat",
    ("results", "losses_to"): "losses_to",
    ("leader_loss", "lost_on"): "leader_loss",
    ("extended_attack", "once_per_turn"): "extended_attack",
    ("bombardment", "range"): "bombard_range",
    ("bombardment", "not_adjacent_to_enemy"): "bombard_adjacent",
    ("bombardment", "attacker_results"): "bombard_results",
    ("army_morale", "points_per_step"): "army_step",
    ("army_morale", "points_per_leader"): "army_leader",
    ("army_morale", "broken_ends_game"): "army_broken",
}
# Settings the rules reference words: (table, *path) -> its words.
WORDED: dict[tuple[str, ...], dict[str, Any]] = {
    ("movement", "road", "cost"): label("ref.move.road_cost")
}
WORDED |= {("sequence", *p): label(f"ref.hh_setting.{name}") for p, name in SETTINGS.items()}
WORDED |= {("sequence", "drm", row): label(f"ref.hh_drm.{row}") for row in DRM_ROWS}
COMBAT_COLUMNS = {"inf": "infantry", "cav": "cavalry"}  # the chart's attack columns


def headings() -> dict[str, dict[str, Any]]:
    """The headings of the terrain chart's columns: movement points by the unit types of each
    column, the attack columns, bombardment."""
    types: dict[str, list[str]] = {}
    for unit_type, col in movement_data("hex-hexside")["unit_columns"].items():
        types.setdefault(col, []).append(unit_type)
    found = {col: label("ref.col.mp", unit_types=names) for col, names in types.items()}
    found |= {c: label("ref.col.attack", unit_type=u) for c, u in COMBAT_COLUMNS.items()}
    found["bomb"] = label("ref.col.bombardment")
    return found


SYSTEM = System(
    id="hex-hexside",
    folder="hex_hexside",
    home=Path(__file__).parent,
    map_kind="hex",
    rules=RULES,
    movement=MOVEMENT,
    army_morale="levels",
    owner_table=OwnerTable(
        check=check_scenario_crt,
        info=lambda crt: crt_info({"crt": crt}),
        stand_in=lambda: raw_tables()["crt"],
    ),
    editor=Editor(unit_types=UNIT_TYPES, words=WORDED, headings=headings),
    terrain_chart="terrain effects chart",
    evaluate=evaluate,
    threat=threat,
    assault=assault,
)
