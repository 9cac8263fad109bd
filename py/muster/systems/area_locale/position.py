"""area-locale pieces on the map: where they stand, who holds a locale, steps and losses,
retreats, and army morale. Plain functions over the JSON state; no dice anywhere.

A piece stands in the reserve of its locale (``approach`` None) or on one of its approaches
(``approach`` the facing locale: the piece is on ``"locale/facing"``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

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
    """Locales a group may retreat into from ``frm`` (``ways_out``, on the state as it stands)."""
    side = side_of(scenario, group[0])
    return ways_out(
        scenario,
        frm,
        came_from,
        len(group),
        lambda n: enemy_in(scenario, state, n, side),
        lambda n: len(in_locale(scenario, state, n, side)),
    )


def ways_out(
    scenario: AreaScenario,
    frm: str,
    came_from: str | None,
    size: int,
    enemy: Callable[[str], bool],
    own: Callable[[str], int],
) -> list[str]:
    """Locales a group of ``size`` pieces may retreat into from ``frm``: a neighbour across a
    passable border, holding no enemy (``enemy``), not the one the attack came from, with room
    for the whole group (its capacity less the group's own side's pieces there, ``own``). The
    rules ask it of the state (``retreat_options``), Muster's reading of a coming attack of
    counts it keeps."""
    return [
        n
        for n in scenario.neighbors[frm]
        if scenario.passable(frm, n)
        and n != came_from
        and not enemy(n)
        and scenario.locales[n].capacity - own(n) >= size
    ]


class FallBack(NamedTuple):
    """How one group of a lost locale's defenders falls back (``fall_back``)."""

    facing: str | None  # the approach it stood on (None: the reserve)
    out: list[str]  # its pieces eliminated (artillery, by default)
    group: list[str]  # the rest, which retreat together
    takers: list[str]  # those of the rest that may take the steps it loses first
    loss: int  # the steps it loses before it goes (0 when none may take them)


def fall_back(
    scenario: AreaScenario, groups: Mapping[str | None, list[str]], came_from: str
) -> list[FallBack]:
    """How the defenders of a locale lost to an attack from ``came_from`` fall back (the notes,
    ``retreat`` of sequence.json), group by group in the order of ``groups`` (each approach's
    pieces by its facing locale, the reserve's by None): artillery is eliminated; the approach
    attacked goes without loss; every other approach's group loses a step, and the reserve's
    too, taken among its pieces but cavalry (none if it has only cavalry). The rules play it
    (``assault``); Muster reads it of a coming attack (``evaluation.strikes``)."""
    rule = settings(scenario)["retreat"]
    eliminated, spared = rule["eliminated"], rule["reserve_spared"]
    found = []
    for facing, pieces in groups.items():
        out = [p for p in pieces if kind(scenario, p) in eliminated]
        group = [p for p in pieces if p not in out]
        takers, loss = group, rule["other_approach"]
        if facing == came_from:
            loss = rule["attacked_approach"]
        elif facing is None:
            takers, loss = [p for p in group if kind(scenario, p) not in spared], rule["reserve"]
        found.append(FallBack(facing, out, group, takers, loss if takers else 0))
    return found


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
