"""area-locale pieces on the map: where they stand, who holds a locale, steps and losses,
retreats, and army morale. Plain functions over the JSON state; no dice anywhere.

A piece stands in the reserve of its locale (``approach`` None) or on one of its approaches
(``approach`` the facing locale: the piece is on ``"locale/facing"``).
"""

from __future__ import annotations

from typing import Any

from ... import play
from ...areamap import Approach, AreaScenario
from ...texts import english
from . import tables
from .state import AreaLocaleState, plain

FOLDER = tables.FOLDER
# What a move or an assault costs in commands by default (sequence.json "costs", the notes'):
# for readers outside the rules; the rules read the costs in force, ``cost(scenario, name)``.
COMMANDS: dict[str, int] = {k: v for k, v in tables.defaults()["costs"].items() if k != "why"}
State = AreaLocaleState  # the state's shape (state.py)
Event = dict[str, Any]
# A piece's "bombarded" (the turn it last fired) before it has ever fired: a turn before any, so
# "fired this turn" and "fired last turn" are plain comparisons. Saved games hold this number
# and their hashes depend on it: it stays -9.
NEVER_BOMBARDED = -9


def sequence_data() -> dict[str, Any]:
    """The turn sequence defaults (``sequence.json``)."""
    return play.sequence_data(FOLDER)


def settings(scenario: AreaScenario) -> dict[str, Any]:
    """The sequence defaults with the scenario's overrides and its own turn count."""
    return play.settings(scenario, FOLDER)


def cost(scenario: AreaScenario, name: str) -> int:
    """What a move (or an assault) costs in commands (``costs`` of sequence.json)."""
    return int(settings(scenario)["costs"][name])


def leaders(scenario: AreaScenario, approach: Approach) -> int:
    """How many leading pieces an assault may have on ``approach``: by its width (the
    notes: 1 narrow, 2 wide; ``leading`` of sequence.json)."""
    return int(settings(scenario)["leading"][approach.width])


def phases(scenario: AreaScenario) -> list[str]:
    """The phases of a player turn in order (``player_turn`` of sequence.json)."""
    return [str(row["phase"]) for row in settings(scenario)["player_turn"]]


def side_of(scenario: AreaScenario, pid: str) -> str:
    """The side a piece belongs to."""
    return str(scenario.units[pid]["side"])


def kind(scenario: AreaScenario, pid: str) -> str:
    """A piece's type: infantry, cavalry or artillery."""
    return str(scenario.units[pid]["type"])


def by_name(scenario: AreaScenario, ids: list[str]) -> list[str]:
    """Blocks in the order a screen lists them once revealed: by name, then id (never by id
    alone, so the order says nothing the names do not)."""
    return sorted(ids, key=lambda pid: (english(scenario.units[pid]["name"]), pid))


def other(scenario: AreaScenario, side: str) -> str:
    """The opposing side."""
    return str(next(s["id"] for s in scenario.data["sides"] if s["id"] != side))


def live(state: State) -> dict[str, dict[str, Any]]:
    """The pieces still on the map."""
    return {pid: p for pid, p in state["pieces"].items() if not p["out"]}


def at(
    state: State,
    locale: str,
    approach: str | None = None,
    side: str | None = None,
    scenario: AreaScenario | None = None,
) -> list[str]:
    """Pieces in the reserve of ``locale`` (or on its approach facing ``approach``)."""
    out = []
    for pid, p in state["pieces"].items():
        if p["out"] or p["locale"] != locale or p["approach"] != approach:
            continue
        if side is not None and scenario is not None and side_of(scenario, pid) != side:
            continue
        out.append(pid)
    return sorted(out)


def in_locale(scenario: AreaScenario, state: State, locale: str, side: str) -> list[str]:
    """Every piece of ``side`` in ``locale``: its reserve and its approaches."""
    return sorted(
        pid
        for pid, p in state["pieces"].items()
        if not p["out"] and p["locale"] == locale and side_of(scenario, pid) == side
    )


def enemy_in(scenario: AreaScenario, state: State, locale: str, side: str) -> bool:
    """True if ``locale`` holds a piece of the other side."""
    return bool(in_locale(scenario, state, locale, other(scenario, side)))


def room(scenario: AreaScenario, state: State, locale: str, side: str) -> int:
    """How many more pieces of ``side`` ``locale`` takes (its capacity)."""
    return scenario.locales[locale].capacity - len(in_locale(scenario, state, locale, side))


def position(p: dict[str, Any]) -> str:
    """A piece's place as text: ``"locale"`` (reserve) or ``"locale/facing"``."""
    return p["locale"] if p["approach"] is None else f"{p['locale']}/{p['approach']}"


def group_place(scenario: AreaScenario, p: dict[str, Any]) -> str:
    """What the pieces of one group share (``group.from``): their locale (the notes: "from the
    same locale to the same locale"), or their place, the reserve or one approach."""
    if settings(scenario)["group"]["from"] == "locale":
        return str(p["locale"])
    return position(p)


def lose_step(scenario: AreaScenario, state: State, pid: str, why: str) -> list[Event]:
    """One step off a piece (eliminated at 0), one point off its army's morale."""
    p = state["pieces"][pid]
    side = side_of(scenario, pid)
    p["steps"] -= 1
    state["army"][side] -= settings(scenario)["army_morale"]["points_per_step"]
    where = p["locale"]
    events: list[Event] = [
        {"key": "log.al_step_lost", "params": {"side": side, "locale": where, "reason": why}},
        {"key": "log.al_step_lost_own", "params": {"unit": pid, "steps": p["steps"]}, "to": side},
    ]
    if p["steps"] <= 0:
        p["out"] = True
        events.append({"key": "log.al_eliminated", "params": {"side": side, "locale": where}})
    return events


def retreat_options(
    scenario: AreaScenario, state: State, group: list[str], frm: str, came_from: str | None
) -> list[str]:
    """Locales a group may retreat into from ``frm``: a neighbour across a passable border,
    holding no enemy, not the one the attack came from, with room for the whole group."""
    side = side_of(scenario, group[0])
    return [
        n
        for n in scenario.neighbors[frm]
        if scenario.passable(frm, n)
        and n != came_from
        and not enemy_in(scenario, state, n, side)
        and room(scenario, state, n, side) >= len(group)
    ]


def update_held(scenario: AreaScenario, state: State) -> None:
    """A locale is held by the last side to have pieces there alone (``play.update_held``:
    every piece on the map counts, in its reserve or on an approach)."""
    present = ((p["locale"], side_of(scenario, pid)) for pid, p in live(state).items())
    play.update_held(plain(state)["held"], scenario.locales, present)


def demoralized(scenario: AreaScenario, state: State, side: str) -> bool:
    """A demoralized army (morale at or below the default's mark) may not assault."""
    return bool(state["army"][side] <= settings(scenario)["army_morale"]["demoralized_at"])


def army_start(scenario: AreaScenario) -> dict[str, int]:
    """Each side's army morale at the start: the scenario's, else its steps."""
    out = {}
    for side in scenario.data["sides"]:
        steps = sum(int(u["steps"]) for u in scenario.units.values() if u["side"] == side["id"])
        out[side["id"]] = int(side.get("army_morale", steps))
    return out
