"""Errors of the rules core: each carries a message key and parameters for the UI."""

from __future__ import annotations

from typing import Any


class RulesError(ValueError):
    """An error the player can read: a message key, its parameters, and an English fallback.

    >>> e = RulesError("error.unknown_hex", "unknown hex {hex}", hex="9999")
    >>> e.key, e.params, str(e)
    ('error.unknown_hex', {'hex': '9999'}, 'unknown hex 9999')
    """

    def __init__(self, key: str, template: str, **params: Any) -> None:
        self.key = key
        self.params = params
        self.template = template
        super().__init__(template.format(**params))

    def to_json(self) -> dict[str, Any]:
        """The error as the JSON the bridge sends to the UI."""
        return {"key": self.key, "params": self.params, "message": str(self)}


class ScenarioError(RulesError):
    """A scenario file that cannot be loaded; the message names the place."""

    def __init__(self, place: str, problem: str) -> None:
        super().__init__("error.scenario", "{place}: {problem}", place=place, problem=problem)


class InvalidActionError(RulesError):
    """An action or request that is malformed (unknown method, missing parameter)."""


class IllegalActionError(RulesError):
    """A well-formed action that the rules forbid in the present state."""
