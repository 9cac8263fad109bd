"""The view of one side: what its screen may show, and nothing of the other side's hidden
blocks (their steps, types, names or ids). A property test checks it over random games."""

from __future__ import annotations

from typing import Any

from ...areamap import AreaScenario
from ...texts import english
from . import position as P
from .state import AreaLocaleState

State = AreaLocaleState  # the state's shape (state.py)


def visible(scenario: AreaScenario, state: State, pid: str, viewer: str | None) -> bool:
    """True if ``viewer`` may see what block ``pid`` is: its own, or revealed (no viewer: the
    revealed blocks only)."""
    return P.side_of(scenario, pid) == viewer or bool(state["pieces"][pid]["revealed"])


HIDDEN = "hidden-"  # the start of a hidden block's label: ``hidden-b-1``, ``hidden-b/c-2``


def hidden_prefix(scenario: AreaScenario) -> str:
    """The start of every hidden label: ``hidden-``, lengthened by ``-`` while a unit id of the
    scenario starts with it, so that a label never equals a real id."""
    prefix = HIDDEN
    while any(uid.startswith(prefix) for uid in scenario.units):
        prefix += "-"
    return prefix


def shown_blocks(scenario: AreaScenario, state: State, viewer: str | None) -> list[dict[str, Any]]:
    """The blocks on the map as ``viewer`` sees them, in an order that comes only from where
    they stand: by locale, the reserve before the approaches (by facing locale), side, the
    blocks ``viewer`` sees before the bare ones; blocks it sees by name, then id.

    A bare block (the other side's, not revealed) is labelled by its place and a count there
    (``hidden-b-1`` in the reserve of b, ``hidden-b/c-1`` on b's approach facing c): nothing in
    its label or its place in the list comes from its id, the scenario's order of units, or the
    order of ``state["pieces"]``, so that a side that has read the scenario file learns nothing
    from either.

    >>> from muster.areamap import EXAMPLE, parse_area_scenario
    >>> from muster.systems.area_locale.rules import RULES
    >>> places = [("y9", "b", None), ("x1", "a", "b"), ("y1", "b", None), ("y2", "b", "a")]
    >>> units = [
    ...     {"id": u, "side": u[0], "type": "infantry", "name": u, "steps": 2, "locale": a,
    ...      "approach": n} for u, a, n in places]
    >>> sc = parse_area_scenario(dict(EXAMPLE, units=units))
    >>> [b["id"] for b in shown_blocks(sc, RULES.initial_state(sc, {}), "x")]
    ['x1', 'hidden-b-1', 'hidden-b-2', 'hidden-b/a-1']
    """
    places = []
    for pid, p in state["pieces"].items():
        if p["out"]:
            continue
        side = P.side_of(scenario, pid)
        seen = visible(scenario, state, pid, viewer)
        order = (english(scenario.units[pid]["name"]), pid) if seen else ("", "")
        places.append(((p["locale"], p["approach"] or "", side, not seen) + order, pid))
    places.sort(key=lambda entry: entry[0])  # never by pid: bare blocks tie, and look alike
    prefix = hidden_prefix(scenario)
    counts: dict[str, int] = {}
    blocks = []
    for _, pid in places:
        p = state["pieces"][pid]
        side = P.side_of(scenario, pid)
        block: dict[str, Any] = {"side": side, "locale": p["locale"], "approach": p["approach"]}
        if visible(scenario, state, pid, viewer):
            spec = scenario.units[pid]
            block.update(
                id=pid,
                hidden=False,
                type=spec["type"],
                steps=p["steps"],
                name=spec["name"],
                revealed=bool(p["revealed"]) and side != viewer,
            )
            if side == viewer:
                block.update(moved=p["moved"], declared=p["declared"])
        else:
            where = P.position(p)
            counts[where] = counts.get(where, 0) + 1
            block.update(id=f"{prefix}{where}-{counts[where]}", hidden=True)
        blocks.append(block)
    return blocks


def side_view(
    rules: Any, scenario: AreaScenario, state: State, viewer: str | None
) -> dict[str, Any]:
    """The state as ``viewer`` sees it (the API adds the prompt, the log, and the legal
    actions for the side that decides)."""
    blocks = shown_blocks(scenario, state, viewer)
    decider = rules.decider(scenario, state)
    pending = state["pending"]
    if pending and pending["kind"] == "follow" and viewer != decider:
        pending = None  # to the other side the phasing side is still moving (screen.prompt)
    assault = state["assault"]
    shown_assault = None
    if assault:  # leading blocks are revealed ones, in the order of their names (choose_lead)
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
