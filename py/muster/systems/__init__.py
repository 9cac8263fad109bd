"""The rule systems, one folder each: tables as data files, movement and combat as code."""

from __future__ import annotations

from importlib import import_module
from typing import Any

FOLDERS = {"hex-facing": "hex_facing", "hex-hexside": "hex_hexside"}


def movement_rules(system: str) -> Any:
    """The ``StepRules`` of ``system``."""
    return import_module(f"{__name__}.{FOLDERS[system]}.movement").RULES
