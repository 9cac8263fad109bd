"""Hidden blocks carry no trace of identity (area-locale): what a side sees of the other side's
hidden blocks comes only from where they stand, never from their ids or the scenario's order.

The property: in a copy of the scenario one side's units are shuffled in the list of units and
renamed to fresh ids; the same random game is played in both (the renamed side's actions mapped
through the renaming); after every action the other side's view through the API (blocks, assault,
prompt, legal actions, log) is the same in both games, once the ids of the blocks the rules have
revealed (which a side may see) are mapped back. The view holds what the screen is told beside
the blocks too: the prompt and its reason, the choices, the markers (keyed by block id) and the
arrows of the attacks in progress.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from playouts import random_playout

from muster.api import Session
from muster.game import Game, canonical
from muster.scenario import load_builtin, parse_scenario
from muster.systems.area_locale.rules import RULES

DEMO = load_builtin("demo-fontanella")


def renamed(obj: Any, mapping: dict[str, str]) -> Any:
    """``obj`` (JSON) with every string that is a key of ``mapping`` replaced by its value,
    object keys too (markers are keyed by block id)."""
    if isinstance(obj, str):
        return mapping.get(obj, obj)
    if isinstance(obj, list):
        return [renamed(x, mapping) for x in obj]
    if isinstance(obj, dict):
        return {mapping.get(k, k): renamed(v, mapping) for k, v in obj.items()}
    return obj


def permuted(data: dict[str, Any], side: str, rng: random.Random) -> tuple[dict, dict[str, str]]:
    """A copy of scenario ``data`` whose ``side`` units are shuffled among their places in the
    list of units and renamed ``zz-<random>``; and the renaming (old id -> new id).

    An id that looks like a hidden label (``hidden-...``) keeps that start: the labels' start
    comes from the scenario's ids (public, as the file is), lengthened past any that looks like
    one, so such an id renamed to something else would change every label."""
    data = copy.deepcopy(data)
    slots = [i for i, u in enumerate(data["units"]) if u["side"] == side]
    units = [data["units"][i] for i in slots]
    rng.shuffle(units)
    renaming = {}
    for i, unit in zip(slots, units, strict=True):
        start = "hidden-" if unit["id"].startswith("hidden-") else ""
        renaming[unit["id"]] = f"{start}zz-{rng.getrandbits(48):012x}"
        data["units"][i] = dict(unit, id=renaming[unit["id"]])
    assert len(set(renaming.values())) == len(renaming)
    return data, renaming


def session(data: dict[str, Any], seed: int = 1) -> Session:
    """A session playing scenario ``data`` from its start."""
    s = Session()
    assert s.call("load_scenario", {"scenario": data})["ok"]
    assert s.call("new_game", {"seed": seed})["ok"]
    return s


def view(s: Session, viewer: str) -> dict[str, Any]:
    """``viewer``'s game view through the API."""
    answer = s.call("game_view", {"viewer": viewer})
    assert answer["ok"], answer
    return answer["result"]


def unordered(action: dict[str, Any]) -> str:
    """An action with its set of blocks (``units``) in sorted order, as canonical JSON."""
    if isinstance(action.get("units"), list):
        action = dict(action, units=sorted(action["units"]))
    return canonical(action)


def difference(a: Any, b: Any, path: str = "") -> str:
    """Where two JSON values first differ, for the failure message."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(a.keys() | b.keys()):
            if a.get(k) != b.get(k):
                return difference(a.get(k), b.get(k), f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return difference(x, y, f"{path}[{i}]")
    return f"{path}: {json.dumps(a)[:300]} != {json.dumps(b)[:300]}"


def small_map() -> dict[str, Any]:
    """A hand-made scenario: the strip a - b - c - d, wide approaches, both sides stacked in
    reserves and on approaches (a unit id like a label, too), so that assaults come often."""
    ids = ["a", "b", "c", "d"]
    approaches = [
        {"from": p, "facing": q, "width": "wide", "effect": e}
        for i, (p, q) in enumerate(zip(ids, ids[1:], strict=False))
        for p, q, e in ((p, q, i % 2), (q, p, 0))
    ]
    units = [
        ("hidden-b-1", "x", "infantry", 3, "b", "c"),
        ("x2", "x", "infantry", 2, "b", "c"),
        ("x3", "x", "cavalry", 2, "b", "c"),
        ("x4", "x", "artillery", 1, "b", "c"),
        ("x5", "x", "infantry", 3, "b", None),
        ("x6", "x", "cavalry", 1, "a", None),
        ("y1", "y", "infantry", 3, "c", "b"),
        ("y2", "y", "infantry", 2, "c", "b"),
        ("y3", "y", "artillery", 1, "c", "b"),
        ("y4", "y", "cavalry", 2, "c", None),
        ("y5", "y", "infantry", 3, "c", None),
        ("y6", "y", "infantry", 2, "d", None),
    ]
    return {
        "format": "muster-scenario/1",
        "id": "small",
        "system": "area-locale",
        "title": "small",
        "turns": 6,
        "map": {
            "kind": "areas",
            "width": 40,
            "height": 10,
            "locales": [
                {
                    "id": loc,
                    "name": loc.upper(),
                    "capacity": 5,
                    "objective": 1,
                    "polygon": [[10 * i, 0], [10 * i + 10, 0], [10 * i + 10, 10]],
                }
                for i, loc in enumerate(ids)
            ],
            "approaches": approaches,
            "roads": [{"kind": "primary", "locales": ids}],
        },
        "sides": [{"id": "x", "name": "X"}, {"id": "y", "name": "Y"}],
        "units": [
            {"id": u, "side": side, "type": kind, "name": f"Unit {u}", "steps": n}
            | {"locale": loc, "approach": facing}
            for u, side, kind, n, loc, facing in units
        ],
    }


# == at the start ==================================================================================


def test_france_sees_austria_by_place_not_by_the_files_order():
    # Reversing Austria's units in the file changes nothing France sees; the labels count the
    # blocks standing together, and the list goes by place.
    data = copy.deepcopy(DEMO.data)
    austria = [u for u in data["units"] if u["side"] == "austria"]
    data["units"] = austria[::-1] + [u for u in data["units"] if u["side"] != "austria"]
    seen, again = view(session(DEMO.data), "france"), view(session(data), "france")
    assert seen == again
    hidden = [b for b in seen["state"]["blocks"] if b["side"] == "austria"]
    assert hidden and all(
        b["hidden"] and set(b) == {"side", "locale", "approach", "id", "hidden"} for b in hidden
    )
    places: dict[str, int] = {}
    for u in austria:
        places[u["locale"]] = places.get(u["locale"], 0) + 1
    labels = {f"hidden-{loc}-{k}" for loc, n in places.items() for k in range(1, n + 1)}
    assert {b["id"] for b in hidden} == labels
    order = [(b["locale"], b["approach"] or "") for b in seen["state"]["blocks"]]
    assert order == sorted(order)


def test_a_hidden_label_never_equals_a_real_id():
    # x has a unit whose id looks like a label (hidden-b-1): every label starts longer.
    sc = parse_scenario(small_map())
    state = Game.start(sc, RULES, 1).state
    x_sees = [b["id"] for b in RULES.view_for(sc, state, "x")["blocks"]]
    assert x_sees == ["x6", "x5", "hidden-b-1", "x2", "x3", "x4"] + [
        "hidden--c-1",
        "hidden--c-2",
        "hidden--c/b-1",
        "hidden--c/b-2",
        "hidden--c/b-3",
        "hidden--d-1",
    ]
    y_sees = [b["id"] for b in RULES.view_for(sc, state, "y")["blocks"]]
    assert y_sees[:6] == ["hidden--a-1", "hidden--b-1"] + [f"hidden--b/c-{k}" for k in (1, 2, 3, 4)]


# == the property over random games ================================================================


PRIVATE_WHY = ("why.al_must_move", "why.al_defend_guns", "why.al_follow")
SEEN = ("actions", "hidden", "revealed", "assault", "legal", "why", "choices", "markers", "arrows")


def mirror(data: dict[str, Any], side: str, seed: int) -> dict[str, int]:
    """Play ``data`` at random (the playout helper) and the same game in a copy where ``side``'s
    blocks are shuffled and renamed; after every action compare what the other side sees. What
    the comparisons went through: counts of actions, hidden and revealed blocks of ``side``
    seen, views during an assault, views with legal actions, prompts with a reason, choices,
    markers on ``side``'s blocks, arrows."""
    rng = random.Random(seed)
    twin_data, renaming = permuted(data, side, rng)
    back = {new: old for old, new in renaming.items()}
    viewer = next(s["id"] for s in data["sides"] if s["id"] != side)
    twin = session(twin_data, seed)
    here = Session()
    seen = dict.fromkeys(SEEN, 0)

    def check(game: Game) -> None:
        here.scenario, here.game = game.scenario, game
        # The same action in the twin: the renamed blocks, listed in any order.
        done = unordered(game.actions[-1])
        [same] = [a for a in twin.game.legal_actions() if unordered(renamed(a, back)) == done]
        acted = twin.call("act", {"action": same})
        assert acted["ok"], acted
        # The two games stay the same game: the same actions are open now.
        assert sorted(unordered(renamed(a, back)) for a in twin.game.legal_actions()) == sorted(
            unordered(a) for a in game.legal_actions()
        )
        # Only the blocks revealed now may show their ids: any other renamed id left in the
        # twin's view would differ from the first game's.
        pieces = game.state["pieces"]
        revealed = {renaming[pid]: pid for pid in renaming if pieces[pid]["revealed"]}
        mine, theirs = view(here, viewer), renamed(view(twin, viewer), revealed)
        assert mine == theirs, (seed, len(game.actions), difference(mine, theirs))
        blocks = [b for b in mine["state"]["blocks"] if b["side"] == side]
        seen["actions"] += 1
        seen["hidden"] += sum(b["hidden"] for b in blocks)
        seen["revealed"] += sum(not b["hidden"] for b in blocks)
        seen["assault"] += mine["state"]["assault"] is not None
        seen["legal"] += bool(mine["legal"])
        seen["why"] += "why" in (mine["prompt"] or {})
        seen["choices"] += len(mine["choices"])
        seen["markers"] += sum(
            bool(marks)
            for pid, marks in mine["markers"].items()
            if pid in game.scenario.units and game.scenario.units[pid]["side"] == side
        )
        seen["arrows"] += len(mine["arrows"])
        # A side that does not decide is offered nothing, and its prompt gives no reason only
        # the deciding side may read (the blocks that must move, guns that may fire).
        if not mine["legal"]:
            why = (mine["prompt"] or {}).get("why", {}).get("key")
            assert mine["choices"] == [] and why not in PRIVATE_WHY, mine["prompt"]

    random_playout(parse_scenario(data), RULES, seed, ("assault", "declare"), 0.6, check)
    return seen


@pytest.mark.parametrize("side, seed", [("austria", 1), ("france", 2), ("austria", 6)])
def test_the_demo_looks_the_same_whatever_the_ids_and_order(side, seed):
    # A few hundred actions a game; the property was put to the test: hidden and revealed
    # blocks, assaults, the viewer deciding.
    seen = mirror(DEMO.data, side, seed)
    assert seen["actions"] >= 200 and seen["hidden"] and seen["revealed"], seen
    assert seen["assault"] and seen["legal"], seen
    assert seen["why"] and seen["choices"] and seen["markers"] and seen["arrows"], seen


@pytest.mark.parametrize("side", ["x", "y"])
def test_a_small_map_looks_the_same_whatever_the_ids_and_order(side):
    # Short games of stacks facing each other on wide approaches: many assaults with two leading
    # blocks (which the enemy sees, and chooses among for losses).
    total = dict.fromkeys(SEEN, 0)
    for seed in range(8):
        for key, n in mirror(small_map(), side, seed).items():
            total[key] += n
    assert total["actions"] >= 200 and all(total.values()), total
