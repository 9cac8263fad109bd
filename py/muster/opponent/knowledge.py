"""What Muster knows when it decides: one side's view, rebuilt into states it can search.

The hex systems hide nothing: the side's view (``Ruleset.view_for``) is the state but the
dice's inner workings, so the state to search is the view with a random stream of Muster's
own. In area-locale the other side's blocks are hidden: each state to search is a
*determinization*, the hidden blocks given identities sampled from what the side has seen (the
scenario's order of battle of the other side, less the blocks it sees), one per place where
the view shows a bare block. Nothing of a hidden block but its place is read: not its id, its
steps, its type, nor anything the rules keep on it (``tests/core/test_opponent_honesty.py``).
"""

from __future__ import annotations

import random
from typing import Any

from ..shapes import State

# What a block the side cannot see is taken to be, but for its place: as it stood at the start.
FRESH = {
    "out": False,
    "revealed": False,
    "moved": False,
    "assaulted": False,
    "bombarded": -9,
    "declared": False,
    "road": False,
}


def clone(value: Any) -> Any:
    """A deep copy of plain JSON data (dicts, lists and scalars), faster than ``copy.deepcopy``
    for a game's state (measured by ``bench/advise_speed.py``)."""
    kind = type(value)
    if kind is dict:
        return {k: clone(v) for k, v in value.items()}
    if kind is list:
        return [clone(v) for v in value]
    return value


def searchable(rules: Any, scenario: Any, state: State, side: str, rng: random.Random) -> State:
    """A state for ``side`` to search: the side's view of ``state`` made whole again, with
    Muster's own random stream (seeded from ``rng``) in place of the game's."""
    seen: dict[str, Any] = rules.view_for(scenario, state, side)
    own = {"seed": rng.randrange(2**31), "counter": 0}
    if not rules.hidden_information:
        rebuilt = clone(seen)
        rebuilt["chance"] = clone(state.get("chance"))  # no secret: the screen shows it
        rebuilt["rng"] = own
        return rebuilt  # type: ignore[no-any-return]
    return determinize(scenario, state, seen, side, rng, own)


def determinize(
    scenario: Any,
    state: State,
    seen: dict[str, Any],
    side: str,
    rng: random.Random,
    own: dict[str, Any],
) -> State:
    """One area-locale state consistent with what ``side`` sees (``seen``: its view): its own
    blocks and the revealed ones as they are, each bare block of the view given an identity
    drawn from the other side's blocks it does not see, at full steps, as at the start; the
    blocks left over are taken to be out of play. The other parts of the state (the turn, the
    commands, the assault, the queue) are the table's, with any hidden id in them renamed to
    the block drawn for its place."""
    pieces: dict[str, Any] = {}
    bare: list[tuple[str, str, Any]] = []  # (side, locale, approach) of each bare block
    visible: set[str] = set()
    for block in seen["blocks"]:
        if block["hidden"]:
            bare.append((block["side"], block["locale"], block["approach"]))
        else:
            visible.add(block["id"])
    truth: dict[str, Any] = state["pieces"]  # type: ignore[typeddict-item]  # area-locale's
    for pid in visible:  # its own and the revealed: the side sees them
        pieces[pid] = clone(truth[pid])
    for pid, spec in scenario.units.items():  # its own blocks out of play: it knows them
        if spec["side"] == side and pid not in pieces:
            pieces[pid] = clone(truth[pid])
    drawn: dict[tuple[str, str, Any], list[str]] = {}
    for other in sorted({s for s, _, _ in bare}):
        pool = sorted(
            pid
            for pid, spec in scenario.units.items()
            if spec["side"] == other and pid not in visible
        )
        rng.shuffle(pool)
        places = [place for place in bare if place[0] == other]  # the view's order: by place
        for place, pid in zip(places, pool, strict=False):
            drawn.setdefault(place, []).append(pid)
            pieces[pid] = {
                **FRESH,
                "locale": place[1],
                "approach": place[2],
                "steps": int(scenario.units[pid]["steps"]),
            }
        for pid in pool[len(places) :]:
            pieces[pid] = {**FRESH, "locale": scenario.units[pid]["locale"], "approach": None}
            pieces[pid].update(out=True, steps=0)
    rename = _renaming(scenario, state, side, visible, drawn)
    rebuilt: dict[str, Any] = {}
    for key, value in state.items():
        if key == "pieces":
            rebuilt[key] = {pid: pieces[pid] for pid in scenario.units}
        elif key == "rng":
            rebuilt[key] = own
        else:
            rebuilt[key] = _renamed(value, rename)
    return rebuilt  # type: ignore[return-value]


def _renaming(
    scenario: Any,
    state: State,
    side: str,
    visible: set[str],
    drawn: dict[tuple[str, str, Any], list[str]],
) -> dict[str, str]:
    """Each hidden block's id -> the id drawn for its place (blocks at one place taken in the
    order drawn, which is the same whatever their ids: they stand at the same place)."""
    rename: dict[str, str] = {}
    left = {place: list(ids) for place, ids in drawn.items()}
    truth: dict[str, Any] = state["pieces"]  # type: ignore[typeddict-item]  # area-locale's
    for pid, p in truth.items():
        owner = scenario.units[pid]["side"]
        if owner == side or pid in visible or p["out"]:
            continue
        ids = left.get((owner, p["locale"], p["approach"]))
        if ids:
            rename[pid] = ids.pop(0)
    return rename


def _renamed(value: Any, rename: dict[str, str]) -> Any:
    """``value`` (plain JSON) with every string that is a key of ``rename`` replaced."""
    kind = type(value)
    if kind is str:
        return rename.get(value, value)
    if kind is dict:
        return {rename.get(k, k): _renamed(v, rename) for k, v in value.items()}
    if kind is list:
        return [_renamed(v, rename) for v in value]
    return value
