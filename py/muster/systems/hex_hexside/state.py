"""The shape of a hex-hexside game's state: the shared keys (``muster.shapes.State``) and the
ones this system keeps, each with what it holds. ``rules.initial_state`` writes every one of
them but ``defended``; tests/core/test_state_shapes.py proves no other key appears in play.
"""

# No ``from __future__ import annotations`` here: the keys' types are evaluated as the class is
# made, so ``NotRequired`` shows in ``__required_keys__`` at run time (the tests read them).
from typing import Any, Literal, NotRequired, cast

from ...shapes import State


class HexHexsideState(State):
    """A hex-hexside game's state (plain JSON); the shared keys come from ``State``."""

    # the player turn of the game: 1, 2, ... (a unit's "wcm" names the one it was marked in)
    pturn: int
    # unit id -> {"hex", "lost" (loss points), "status", "engaged", "formation" (or None),
    # "out", "moved", "attacked", "bombarded", "extended", "wcm" (the player turn it was marked
    # without command, or None), "deep" (the turn it last tried a deep charge), "must" (it must
    # attack)}
    units: dict[str, dict[str, Any]]
    # side -> {"points" (army morale points left), "level" (normal, demoralized, broken)}
    army: dict[str, dict[str, Any]]
    # the units that tried to rally this player turn
    rallied: list[str]
    # the close combat in progress (position.new_combat: its step, attackers, targets, the
    # odds, the roll, ...); None: none
    combat: dict[str, Any] | None
    # the decision a side must make now: {"kind" (loss, retreat), "side" or "unit",
    # "options"}; None: none
    decision: dict[str, Any] | None
    # the combat results table the game plays with: {"key", "name", "stand_in", "source"?}
    crt: dict[str, Any]
    # hexes attacked this player turn, kept only when ``designation.defend_many`` is false
    defended: NotRequired[list[str]]


# The keys of what is under way (a close combat, a decision asked, a die due): None when none is.
Ongoing = Literal["combat", "decision", "chance"]


def ongoing(state: HexHexsideState, key: Ongoing) -> dict[str, Any]:
    """``state[key]``, asked only while it is under way (not None)."""
    value = state[key]
    assert value is not None, f"no {key} under way"
    return value


# Until ``muster.shapes.State`` says ``side: str`` and the helpers every system's play shares
# (``muster.play``) take a system's typed state, these two keep mypy's word on both.


def phasing(state: HexHexsideState) -> str:
    """The phasing side: the side whose player turn it is (there always is one)."""
    side = state["side"]
    assert side is not None, "no side is playing"
    return side


def plain(state: HexHexsideState) -> dict[str, Any]:
    """The same state, typed as the plain dict the helpers of ``muster.play`` take."""
    return cast(dict[str, Any], state)
