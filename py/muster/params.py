"""The API's parameters (``muster.api``): each checked, and refused naming the parameter, before
any work is done with it."""

from __future__ import annotations

from typing import Any

from . import limits
from .errors import InvalidActionError
from .savefile import echo

Params = dict[str, Any]
LOG_LINES = 200  # log lines a view holds unless it asks for another count


def only(params: Params, method: str, *names: str) -> None:
    """Refuse a parameter ``method`` does not take.

    Raises:
        InvalidActionError: ``error.unknown_param``.
    """
    for name in params:
        if name not in names:
            raise InvalidActionError(
                "error.unknown_param",
                "{method} takes no parameter {name}",
                method=method,
                name=echo(name),
            )


def seed(value: Any, name: str) -> int:
    """A seed: a whole number from 0 to ``limits.MAX_INT``.

    Raises:
        InvalidActionError: anything else.
    """
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limits.MAX_INT:
        raise InvalidActionError(
            "error.bad_seed",
            "{name} must be a whole number from 0 to {limit}",
            name=name,
            limit=limits.MAX_INT,
        )
    return value


def count(params: Params, name: str, default: Any, low: int, high: int) -> int:
    """The whole-number parameter ``name`` (``default`` if not given), from ``low`` to ``high``.

    Raises:
        InvalidActionError: anything else (``error.bad_count``).
    """
    value = params.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidActionError(
            "error.bad_count",
            "{name} must be a whole number from {low} to {limit}",
            name=name,
            low=low,
            limit=high,
        )
    return value


def steps(params: Params) -> int:
    """The ``steps`` parameter: how many actions to replay in one call (50 unless asked)."""
    return count(params, "steps", 50, 1, 10_000)


def held(params: Params) -> tuple[int, int] | None:
    """``load_save``'s ``held``: how many actions and log marks the head left out, or None.

    Raises:
        InvalidActionError: not an object of two whole numbers.
    """
    if "held" not in params:
        return None
    held = params["held"]
    if not isinstance(held, dict) or sorted(held) != ["actions", "log_marks"]:
        raise InvalidActionError(
            "error.bad_params", "parameters of {method} must be an object", method="load_save.held"
        )
    return (
        count(held, "actions", 0, 0, limits.MAX_SAVE_ACTIONS),
        count(held, "log_marks", 0, 0, limits.MAX_SAVE_ACTIONS),
    )


def log_count(params: Params) -> int:
    """The ``log`` parameter: how many log lines a view holds (0 to ``limits.MAX_LOG``)."""
    return count(params, "log", LOG_LINES, 0, limits.MAX_LOG)
