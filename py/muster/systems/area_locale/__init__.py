"""Area-locale system (seed 004): locales and approaches, commands, assaults, hidden blocks.

Its descriptor, ``SYSTEM``: what the core asks of it (``muster.systems.System``).
"""

from pathlib import Path
from typing import Any

from ...reference import label
from .. import Editor, System
from .evaluation import evaluate, struck, threat
from .rules import RULES
from .tables import defaults, piece_steps, problem

# The settings the rules reference words (sequence.json path -> ref.al_setting.<name>).
SETTINGS = {
    ("group", "from"): "group",
    ("cavalry_follow", "group"): "cavalry_follow",
    ("maneuver", "through_blocked_border"): "through_blocked",
    ("blocked_attack", "attacker_to"): "blocked_attack",
    ("artillery_fire", "from"): "artillery_from",
    ("pursuit", "by"): "pursuit",
    ("army_morale", "points_per_step"): "army_step",
    ("army_morale", "demoralized_at"): "army_demoralized",
    ("reveal", "until"): "reveal",
    ("victory", "objectives"): "objectives",
}
# Costs in commands worded by the commands chart's rows.
COSTS = (
    "reserve_to_locale",
    "reserve_to_approach",
    "reserve_attack",
    "approach_blocked_back",
    "approach_attack",
    "approach_free_back",
    "approach_on",
    "assault",
)
COMMANDS = {
    ("road", "primary_cost"): "ref.al_cmd.road_primary",
    ("road", "secondary_cost"): "ref.al_cmd.road_secondary",
    ("cavalry_follow", "cost"): "ref.al_cmd.cavalry_follow",
    **{("costs", name): f"ref.al_cmd.{name}" for name in COSTS},
}
# Settings the rules reference words: (table, *path) -> its words.
WORDED: dict[tuple[str, ...], dict[str, Any]] = {
    ("sequence", "commands", "per_turn"): label("ref.al_cmd.per_turn"),
    ("sequence", "reserve_effect", "value"): label("ref.al_bombard.reserve"),
    ("sequence", "retreat", "cannot"): label("ref.al_retreat.cannot"),
}
WORDED |= {("sequence", *p): label(f"ref.al_setting.{name}") for p, name in SETTINGS.items()}
WORDED |= {
    ("sequence", *p): label("editor.table.commands", what=label(key)) for p, key in COMMANDS.items()
}
PIECES = piece_steps()  # piece type -> its most steps (units.json)

SYSTEM = System(
    id="area-locale",
    folder="area_locale",
    home=Path(__file__).parent,
    map_kind="areas",
    rules=RULES,
    movement=None,
    army_morale="number",
    pieces=PIECES,
    # How many leading pieces an assault may have by default, by the width of its approach
    # (sequence.json "leading", the notes'); the rules read the scenario's (pieces.leaders).
    leading={w: int(defaults()["leading"][w]) for w in ("narrow", "wide")},
    sequence_problem=problem,
    editor=Editor(unit_types=tuple(PIECES), approach=True, words=WORDED),
    evaluate=evaluate,
    threat=threat,
    strikes=struck,
)
