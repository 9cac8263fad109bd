"""Errors of the rules core: each carries a message key and parameters for the UI."""

from __future__ import annotations

from typing import Any

from .problems import english
from .shapes import Refusal


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
    """A scenario file that cannot be loaded: ``place`` says where (a path into the file, as
    ``units[3] hex``), ``problem`` is the key of what is wrong (``problem.*``, in the words of
    every language; its English in ``muster.problems`` for ``str()`` and logs) with ``params``.

    The screen words ``error.scenario`` with its ``problem`` parameter as a label.

    >>> e = ScenarioError("map.rows", "problem.whole_number", lo=1, hi=99, got='"x"')
    >>> str(e)
    'map.rows: expected a whole number from 1 to 99, got "x"'
    >>> e.key, e.params["place"], e.params["problem"]["key"], e.problem_params["hi"]
    ('error.scenario', 'map.rows', 'problem.whole_number', 99)
    """

    def __init__(self, place: str, problem: str, **params: Any) -> None:
        self.key = "error.scenario"
        self.template = "{place}: {problem}"
        self.place = place
        self.problem = problem
        self.problem_params = params
        self.params = {"place": place, "problem": {"key": problem, "params": params}}
        ValueError.__init__(self, f"{place}: {english(problem, params)}")


class InvalidActionError(RulesError):
    """An action or request that is malformed (unknown method, missing parameter)."""


class IllegalActionError(RulesError):
    """A well-formed action that the rules forbid in the present state; ``rule`` and ``place``:
    the rule that forbids it and where, when known (``Ruleset.refusal``)."""

    rule: str | None = None
    place: str | None = None

    @classmethod
    def refused(cls, refusal: Refusal, message: str) -> IllegalActionError:
        """The error of a refusal: its key and params for the screen, ``message`` in English.

        >>> e = IllegalActionError.refused(
        ...     {"key": "error.refused", "params": {"n": 1}, "rule": "8.7", "place": "0412"},
        ...     "not allowed now: {move}",
        ... )
        >>> e.key, e.params, e.rule, e.place, str(e)
        ('error.refused', {'n': 1}, '8.7', '0412', 'not allowed now: {move}')
        """
        text = message.replace("{", "{{").replace("}", "}}")
        error = cls(refusal["key"], text, **refusal["params"])
        error.rule, error.place = refusal["rule"], refusal["place"]
        return error
