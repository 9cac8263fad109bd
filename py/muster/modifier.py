"""A modifier: one line of a sum the rules add up (a step's cost in MP, a die roll's DRM), with
the message key that names its reason, its parameters, and the rule it comes from.

Modifiers are values: listed, summed, shown and logged one per line.

>>> m = Modifier(1, "melee.cohesion", "8.3", (("difference", 2),))
>>> m.to_json()
{'value': 1, 'key': 'melee.cohesion', 'rule': '8.3', 'params': {'difference': 2}}
>>> total([m, Modifier(-2, "melee.terrain", "8.4")])
-1
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Modifier:
    """One modifier line: its value, the message key of its reason, its rule, its parameters."""

    value: float
    key: str
    rule: str
    params: tuple[tuple[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The modifier as plain JSON."""
        return {
            "value": self.value,
            "key": self.key,
            "rule": self.rule,
            "params": dict(self.params),
        }


def total(modifiers: Iterable[Modifier]) -> int:
    """The sum of whole-number modifier lines (a DRM)."""
    return int(sum(m.value for m in modifiers))
