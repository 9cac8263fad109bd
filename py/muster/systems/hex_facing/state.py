"""The shape of a hex-facing game's state: the shared keys (``muster.shapes.State``) and the
ones this system keeps, each with what it holds. ``rules.initial_state`` writes every one of
them; tests/core/test_state_shapes.py proves no other key appears in play.
"""

from __future__ import annotations

from typing import Any, Literal, cast

from ...shapes import Action, State


class HexFacingState(State):
    """A hex-facing game's state (plain JSON); the shared keys come from ``State``."""

    # the formations not yet drawn this turn (the activation cup)
    cup: list[str]
    # the formation activated: {"formation", "side", "orders", "step" (fire, move, combat...),
    # "acted" (its units done with this step), "facing_due" (a unit that must face first)};
    # None between activations
    active: dict[str, Any] | None
    # the rally phase: {"side" rallying, "tried" (its units that tried)}; None outside it
    rally: dict[str, Any] | None
    # unit id -> {"hex", "facing", "status" (good, disordered, routed), "square", "out",
    # "reacted" (the turn it last fired in reaction)}
    units: dict[str, dict[str, Any]]
    # a retreat whose owner chooses where: {"unit", "options" (hexes), "away" (the hexes it
    # retreats from)}; None: none
    retreat: dict[str, Any] | None
    # winners that may move into a hex vacated: {"hex", "units", "procedure" (breakthrough or
    # pursuit), "left" (how many more may)}; None: none
    advance: dict[str, Any] | None
    # defenders that may counterattack: {"units", "targets" (the attackers' hexes)}; None: none
    counterattack: dict[str, Any] | None
    # reaction fire offered before a melee: {"pairs" ([gun, target hex]), "melee" (the
    # action)}; None: none
    reaction: dict[str, Any] | None
    # a countercharge offered against a melee: {"units", "melee" (the action)}; None: none
    countercharge: dict[str, Any] | None
    # the melee held back by a reaction fire, resumed once the fire is settled; None: none
    after: Action | None


# The keys of what is under way (an activation, a decision asked, a die due): None when nothing is.
Ongoing = Literal[
    "active",
    "rally",
    "retreat",
    "advance",
    "counterattack",
    "reaction",
    "countercharge",
    "chance",
]


def ongoing(state: HexFacingState, key: Ongoing) -> dict[str, Any]:
    """``state[key]``, asked only while it is under way (not None)."""
    value = state[key]
    assert value is not None, f"no {key} under way"
    return value


# Until the helpers every system's play shares (``muster.play``) take a system's typed state.


def plain(state: HexFacingState) -> dict[str, Any]:
    """The same state, typed as the plain dict the helpers of ``muster.play`` take."""
    return cast(dict[str, Any], state)
