"""The view of one side: what its screen may show, and nothing of the other side's hidden
blocks (their steps, types, names or ids). A property test checks it over random games."""

from __future__ import annotations

from typing import Any

from ...areamap import AreaScenario
from . import pieces as P

State = dict[str, Any]


def visible(scenario: AreaScenario, state: State, pid: str, viewer: str) -> bool:
    """True if ``viewer`` may see what block ``pid`` is: its own, or revealed."""
    return P.side_of(scenario, pid) == viewer or bool(state["pieces"][pid]["revealed"])


def side_view(rules: Any, scenario: AreaScenario, state: State, viewer: str) -> dict[str, Any]:
    """The state as ``viewer`` sees it (the API adds the prompt, the log, and the legal
    actions for the side that decides)."""
    blocks = []
    hidden_count = 0
    for pid in sorted(state["pieces"]):
        p = state["pieces"][pid]
        if p["out"]:
            continue
        block: dict[str, Any] = {
            "side": P.side_of(scenario, pid),
            "locale": p["locale"],
            "approach": p["approach"],
        }
        if visible(scenario, state, pid, viewer):
            spec = scenario.units[pid]
            block.update(
                id=pid,
                hidden=False,
                type=spec["type"],
                steps=p["steps"],
                name=spec["name"],
                revealed=bool(p["revealed"]) and P.side_of(scenario, pid) != viewer,
            )
            if P.side_of(scenario, pid) == viewer:
                block.update(moved=p["moved"], declared=p["declared"])
        else:
            hidden_count += 1
            block.update(id=f"hidden-{hidden_count}", hidden=True)
        blocks.append(block)
    decider = rules.decider(scenario, state)
    pending = state["pending"]
    assault = state["assault"]
    shown_assault = None
    if assault:
        shown_assault = {
            "from": assault["from"],
            "to": assault["to"],
            "lead": assault["lead"],
            "defence": assault["defence"],
            "artillery": assault["artillery"],
            "result": assault["result"],
        }
    return {
        "turn": state["turn"],
        "turns": state["turns"],
        "side": state["side"],
        "phase": state["phase"],
        "commands": state["commands"],
        "blocks": blocks,
        "selection": list(state["selection"]) if viewer == state["side"] else [],
        "army": dict(state["army"]),
        "held": dict(state["held"]),
        "won": list(state["won"]),
        "decider": decider,
        "pending": {"kind": pending["kind"], "side": pending["side"]} if pending else None,
        "assault": shown_assault,
        "result": state["result"],
    }
