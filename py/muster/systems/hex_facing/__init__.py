"""Hex-facing system (seed 002): Napoleonic tactical hexes with facing and cohesion.

Its descriptor, ``SYSTEM``: what the core asks of it (``muster.systems.System``).
"""

from pathlib import Path

from ...hexmap import UNIT_TYPES
from ...reference import label
from .. import Editor, Setting, System, Table
from .evaluation import evaluate, threat
from .movement import RULES as MOVEMENT
from .reference import HEADINGS
from .rules import RULES
from .tables import CHOICES, LISTS, open_settings, raw_tables
from .tables import check_overrides as check_combat

# Settings the rules reference words: (table, *path) -> its words.
WORDED = {
    ("movement", "hex_terrain_combination", "rule"): "ref.move.combination",
    ("movement", "road", "adjacent_enemy_forbids_road"): "ref.move.road_next_to_enemy",
    ("movement", "road", "prohibited_crossing_extra"): "ref.move.road_crossing",
    ("movement", "level_prohibition_cancelled_by_road", "value"): "ref.move.road_level",
    ("movement", "steep_slope_impassable_levels"): "ref.move.steep_slope_levels",
    ("sequence", "square", "who"): "ref.hf_turn.square",
    ("sequence", "no_orders", "may_melee"): "ref.hf_turn.no_orders_melee",
    ("sequence", "no_orders", "movement_factor"): "ref.hf_turn.no_orders_move",
    ("sequence", "rally", "modifier_adjacent_leader"): "ref.hf_turn.rally_leader",
    ("sequence", "victory", "routed_unit_points"): "ref.hf_turn.routed_points",
}


def combat_settings() -> list[Setting]:
    """The combat defaults a scenario may change (``overrides.combat``), in the words of the
    rules reference's combat settings, each with its closed set."""
    raw = raw_tables()
    out = []
    for path, setting in open_settings().items():
        default = raw
        for key in path:
            default = default[key]
        choices = CHOICES.get(setting, LISTS.get(setting))
        words = label(f"ref.hf_setting.{setting.replace('.', '_')}")
        out.append(Setting(path, default, words, choices))
    return out


SYSTEM = System(
    id="hex-facing",
    folder="hex_facing",
    home=Path(__file__).parent,
    map_kind="hex",
    rules=RULES,
    movement=MOVEMENT,
    army_morale=None,
    tables={"combat": Table(check_combat, combat_settings)},
    editor=Editor(
        unit_types=UNIT_TYPES,
        facing=(0, 11),
        formations=True,
        words={path: label(key) for path, key in WORDED.items()},
        headings=lambda: HEADINGS,
    ),
    terrain_chart="terrain table",
    evaluate=evaluate,
    threat=threat,
)
