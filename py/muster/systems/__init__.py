"""The rule systems, one folder each: tables as data files, movement and combat as code."""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
# The one table from a system's id to its folder here (its data files and its code).
FOLDERS = {"hex-facing": "hex_facing", "hex-hexside": "hex_hexside", "area-locale": "area_locale"}


def folder(system: str) -> str:
    """The folder of ``system`` under ``muster/systems``.

    >>> folder("hex-facing")
    'hex_facing'

    Raises:
        KeyError: no such system.
    """
    return FOLDERS[system]


def data_path(system: str, name: str) -> Path:
    """The data file ``name`` of ``system`` (``systems/<folder>/<name>``; it may not exist).

    >>> data_path("area-locale", "sequence.json").relative_to(HERE).as_posix()
    'area_locale/sequence.json'

    Raises:
        KeyError: no such system.
    """
    return HERE / FOLDERS[system] / name


def movement_rules(system: str) -> Any:
    """The ``StepRules`` of ``system``."""
    return import_module(f"{__name__}.{folder(system)}.movement").RULES


def game_rules(system: str) -> Any:
    """The ``Ruleset`` that plays ``system``.

    Raises:
        RulesError: the system cannot be played yet (its board tools still work).
    """
    from ..errors import RulesError

    try:
        return import_module(f"{__name__}.{folder(system)}.rules").RULES
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
