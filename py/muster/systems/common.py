"""What every rule system's play shares: its sequence defaults with a scenario's overrides,
and the lookup of the handler of an action."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from ..errors import IllegalActionError

HERE = Path(__file__).parent


@cache
def sequence_data(folder: str) -> dict[str, Any]:
    """The turn sequence defaults of a system (``systems/<folder>/sequence.json``)."""
    return json.loads((HERE / folder / "sequence.json").read_text(encoding="utf-8"))


def settings(scenario: Any, folder: str) -> dict[str, Any]:
    """The sequence defaults with the scenario's overrides (objects merged key by key) and its
    own turn count; worked out once per scenario (the rules ask often; do not change it)."""
    memo = scenario.memo.get(("settings", folder))
    if memo is not None:
        return memo
    data = dict(sequence_data(folder))
    for key, value in scenario.data.get("overrides", {}).get("sequence", {}).items():
        default = data.get(key)
        data[key] = {**default, **value} if isinstance(default, dict) else value
    if "turns" in scenario.data:
        data["turns"] = scenario.data["turns"]
    scenario.memo[("settings", folder)] = data
    return data


def handler_for(action: Mapping[str, Any], *tables: Mapping[str, Callable[..., Any]]) -> Any:
    """The handler of ``action["type"]`` in the first table that has one.

    Raises:
        IllegalActionError: no table handles it.
    """
    for table in tables:
        found = table.get(action["type"])
        if found is not None:
            return found
    raise IllegalActionError(
        "error.illegal_action", "not allowed now: {action}", action=action["type"]
    )
