"""The rule systems, one folder each: tables as data files, movement and combat as code."""

from __future__ import annotations

from importlib import import_module
from typing import Any

FOLDERS = {"hex-facing": "hex_facing", "hex-hexside": "hex_hexside", "area-locale": "area_locale"}


def movement_rules(system: str) -> Any:
    """The ``StepRules`` of ``system``."""
    return import_module(f"{__name__}.{FOLDERS[system]}.movement").RULES


def game_rules(system: str) -> Any:
    """The ``Ruleset`` that plays ``system``.

    Raises:
        RulesError: the system cannot be played yet (its board tools still work).
    """
    from ..errors import RulesError

    try:
        return import_module(f"{__name__}.{FOLDERS[system]}.rules").RULES
    except ModuleNotFoundError:
        raise RulesError(
            "error.no_play", "play of {system} is not available yet", system=system
        ) from None


def playable(system: str) -> bool:
    """True if ``system`` has a ruleset to play (not only its board tools)."""
    try:
        game_rules(system)
    except Exception:
        return False
    return True
