"""The shape of an area-locale game's state: the shared keys (``muster.shapes.State``) and the
ones this system keeps, each with what it holds. ``rules.initial_state`` writes every one of
them; tests/core/test_state_shapes.py proves no other key appears in play.
"""

from __future__ import annotations

from typing import Any, cast

from ...shapes import State


class AreaLocaleState(State):
    """An area-locale game's state (plain JSON); the shared keys come from ``State``."""

    # commands the phasing side has left this player turn (``commands.per_turn`` at its start)
    commands: int
    # piece id -> {"locale", "approach" (the facing locale, or None in the reserve), "steps",
    # "out", "revealed", "moved", "assaulted", "bombarded" (the turn it last fired; never:
    # ``position.NEVER_BOMBARDED``),
    # "declared" (a bombardment for next turn), "road" (it moved by road this turn)}
    pieces: dict[str, dict[str, Any]]
    # the pieces picked for the group about to move (in the order picked)
    selection: list[str]
    # pieces that moved by road this player turn
    roads_used: int
    # [locale, nth step] pairs the road moves of this player turn have passed through
    road_steps: list[list[Any]]
    # locales won this player turn by an assault or a maneuver attack (none may enter again)
    won: list[str]
    # side -> its army morale points left
    army: dict[str, int]
    # the decision a side must make now: {"kind", "side", "options", ...}; None: none
    pending: dict[str, Any] | None
    # the assault being fought: {"from", "to", "attackers", "defenders", "lead", "defence",
    # "artillery", "result", "won", "pursuit"}; None: none
    assault: dict[str, Any] | None


def fighting(state: AreaLocaleState) -> dict[str, Any]:
    """The assault being fought: asked only while there is one."""
    fight = state["assault"]
    assert fight is not None, "no assault is being fought"
    return fight


def asked(state: AreaLocaleState) -> dict[str, Any]:
    """The decision a side must make now: asked only while there is one."""
    pending = state["pending"]
    assert pending is not None, "no side is asked anything"
    return pending


# Until ``muster.shapes.State`` says ``side: str`` and the helpers every system's play shares
# (``muster.play``) take a system's typed state, these two keep mypy's word on both.


def phasing(state: AreaLocaleState) -> str:
    """The phasing side: the side whose player turn it is (there always is one)."""
    side = state["side"]
    assert side is not None, "no side is playing"
    return side


def plain(state: AreaLocaleState) -> dict[str, Any]:
    """The same state, typed as the plain dict the helpers of ``muster.play`` take."""
    return cast(dict[str, Any], state)
