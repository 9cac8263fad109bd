"""What every rule system's play shares: its sequence defaults with a scenario's overrides
(and the check of those overrides), the lookup of the handler of an action, objectives held
and the score at the end, and the queue of steps waiting for a die or a decision.

A system names its sequence by its data folder's name (``muster.systems.folder``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any, TypeVar

from .errors import IllegalActionError, ScenarioError
from .parsing import check_like, expect, show
from .shapes import State
from .systems import home

# Keys of the data files that document a setting (why it is so, where it comes from, which
# entries are the aid's own, the closed sets), never a setting a scenario changes.
NOTES = frozenset({"why", "source", "system", "default", "aid", "closed"})
# A game's state: a system's own (muster.shapes.State extended), or a plain JSON object.
AnyState = State | dict[str, Any]


@cache
def sequence_data(folder: str) -> dict[str, Any]:
    """The turn sequence defaults of a system (``sequence.json`` of its data folder ``folder``)."""
    path = home(folder) / "sequence.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def closed_sets(folder: str) -> dict[str, list[Any]]:
    """The settings of ``sequence.json`` whose values come from a closed set: dotted path ->
    the values allowed (for a list setting, or a field of rows, the items allowed). The file's
    top-level ``"closed"`` object."""
    closed = sequence_data(folder).get("closed", {})
    return dict(closed) if isinstance(closed, dict) else {}


def check_sequence_overrides(folder: str, sequence: Any, place: str = "overrides.sequence") -> None:
    """Check a scenario's overrides of a system's sequence (``overrides.sequence``): no note is
    overridden, each setting is of its default's kind, and a setting of a closed set takes its
    values from the set.

    A list from a closed set (or the values a field takes over rows) holds each value once, and
    at least one where its default holds every value of the set (an ordering, as the steps of
    an activation); where the default leaves some out, it may be empty.

    Raises:
        ScenarioError: naming the place of the first problem.
    """
    refuse_notes(sequence, place)
    check_like(sequence_data(folder), sequence, place)
    check_closed(sequence_data(folder), closed_sets(folder), sequence, place)


def check_closed(
    defaults: Mapping[str, Any], closed: Mapping[str, list[Any]], value: Any, place: str
) -> None:
    """Check that each setting of ``value`` (an override of ``defaults``, a data file) named in
    ``closed`` (dotted path -> the values allowed, a file's ``"closed"`` object) takes its
    values from its set: one of them; or, for a list (or a field over rows), some of them,
    each once, and at least one where the default holds every value of the set.

    >>> check_closed({"a": {"b": "x"}}, {"a.b": ["x", "y"]}, {"a": {"b": "z"}}, "o")
    Traceback (most recent call last):
    ...
    muster.errors.ScenarioError: o.a.b: expected one of x, y

    Raises:
        ScenarioError: naming the place of the first problem.
    """
    for path, allowed in closed.items():
        parts = path.split(".")
        values, many = _at(value, parts, place)
        if not values and not many:
            continue  # not overridden
        if not many:
            at, one = values[0]
            expect(_one_of(one, allowed), at, "problem.one_of", options=_listed(allowed))
            continue
        items = _items(values)
        whole = all(_one_of(a, _items(_at(defaults, parts, "")[0])) for a in allowed)
        ok = all(_one_of(v, allowed) for v in items) and not (whole and items == [])
        ok = ok and all(not _one_of(v, items[:i]) for i, v in enumerate(items))
        at = values[0][0] if _listed_whole(values) else f"{place}.{parts[0]}"
        expect(ok, at, "problem.some_of_once", options=_listed(allowed))


def refuse_notes(value: Any, place: str) -> None:
    """Refuse an override of a note (``NOTES``) anywhere in ``value``.

    Raises:
        ScenarioError: ``<place>.why: a note of the rules, not a setting``.
    """
    if isinstance(value, dict):
        for key, inner in value.items():
            at = f"{place}.{key}" if len(str(key)) <= 40 else f"{place}.{str(key)[:40]}…"
            if key in NOTES:
                raise ScenarioError(at, "problem.note")
            refuse_notes(inner, at)
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            refuse_notes(inner, f"{place}[{i}]")


def _at(value: Any, parts: list[str], place: str) -> tuple[list[tuple[str, Any]], bool]:
    """The values ``value`` holds at the dotted path ``parts``, each with its place, and
    whether they are many (a list, or one field over rows); none where it holds none.

    >>> _at({"a": {"b": 1}}, ["a", "b"], "x")
    ([('x.a.b', 1)], False)
    >>> _at({"t": [{"p": 1}, {"q": 2}, {"p": 3}]}, ["t", "p"], "x")
    ([('x.t[0].p', 1), ('x.t[2].p', 3)], True)
    >>> _at({"s": ["m", "f"]}, ["s"], "x")
    ([('x.s', ['m', 'f'])], True)
    """
    if not parts:
        return [(place, value)], isinstance(value, list)
    if isinstance(value, list):
        found: list[tuple[str, Any]] = []
        for i, row in enumerate(value):
            found += _at(row, parts, f"{place}[{i}]")[0]
        return found, True
    if isinstance(value, dict) and parts[0] in value:
        return _at(value[parts[0]], parts[1:], f"{place}.{parts[0]}")
    return [], False


def _listed_whole(values: list[tuple[str, Any]]) -> bool:
    """True if ``values`` (from ``_at``) is one list setting, not one field over rows."""
    return len(values) == 1 and isinstance(values[0][1], list)


def _items(values: list[tuple[str, Any]]) -> list[Any]:
    """The items of a list setting, or the values of one field over rows (from ``_at``)."""
    return list(values[0][1]) if _listed_whole(values) else [v for _, v in values]


def _one_of(value: Any, allowed: list[Any]) -> bool:
    """True if ``value`` is one of ``allowed``, of the same kind (``True`` is not ``1``)."""
    return any(type(value) is type(a) and value == a for a in allowed)


def _listed(allowed: list[Any]) -> str:
    return ", ".join(a if isinstance(a, str) else show(a) for a in allowed)


def settings(scenario: Any, folder: str) -> dict[str, Any]:
    """The sequence defaults with the scenario's overrides (objects merged key by key) and its
    own turn count; worked out once per scenario (the rules ask often; do not change it)."""
    memo: dict[str, Any] | None = scenario.memo.get(("settings", folder))
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


# -- objectives, score and the end ------------------------------------------------------------
# Every system: a place is held by the last side to have stood there alone (units that count:
# the system's choice), objective points go to the side holding each objective, the side
# alone with most points wins, and the end is one state and one log line.

Place = str
Side = str


def objectives(scenario: Any) -> list[tuple[Place, int]]:
    """The objectives of a scenario and their points: ``objectives[]`` (hex, points) of a hex
    map, the locales with objective points of an area map, in the file's order.

    >>> objectives(_Data({"map": {}, "objectives": [{"hex": "0101", "points": 2}]}))
    [('0101', 2)]
    >>> objectives(_Data({"map": {"kind": "areas", "locales": [{"id": "a", "objective": 3},
    ...                                                        {"id": "b"}]}}))
    [('a', 3)]
    """
    data = scenario.data
    if data["map"].get("kind") == "areas":
        return [
            (loc["id"], loc["objective"]) for loc in data["map"]["locales"] if loc.get("objective")
        ]
    return [(o["hex"], o["points"]) for o in data.get("objectives", [])]


def update_held(
    held: dict[Place, Side], places: Iterable[Place], present: Iterable[tuple[Place, Side]]
) -> None:
    """Each of ``places`` where one side alone is ``present`` (place, side: one pair per unit
    that counts) is held by that side from now on; elsewhere who held it still does.

    >>> held = {"b": "x"}
    >>> update_held(held, ["a", "b", "c"], [("a", "x"), ("b", "x"), ("b", "y"), ("d", "y")])
    >>> held
    {'b': 'x', 'a': 'x'}
    """
    sides: dict[Place, set[Side]] = {}
    for place, side in present:
        sides.setdefault(place, set()).add(side)
    for place in places:
        here = sides.get(place)
        if here is not None and len(here) == 1:
            held[place] = next(iter(here))


def objective_points(
    sides: Iterable[Side], held: Mapping[Place, Any], scored: Iterable[tuple[Place, int]]
) -> dict[Side, int]:
    """Each side's points for the objectives it holds (``scored``: place, points), every side
    listed (0 when it holds none).

    >>> objective_points(["x", "y"], {"a": "x", "b": "z"}, [("a", 2), ("b", 5), ("c", 1)])
    {'x': 2, 'y': 0}
    """
    points = dict.fromkeys(sides, 0)
    for place, worth in scored:
        holder = held.get(place)
        if holder in points:
            points[holder] += worth
    return points


def to_the_others(points: dict[Side, int], side: Side, n: int) -> None:
    """``n`` points to every side but ``side`` (a unit of ``side`` lost, routed, a step gone).

    >>> points = {"x": 0, "y": 1, "z": 0}
    >>> to_the_others(points, "x", 2)
    >>> points
    {'x': 0, 'y': 3, 'z': 2}
    """
    for other in points:
        if other != side:
            points[other] += n


def leader(points: Mapping[Side, int]) -> Side | None:
    """The side alone with the most points, or None on a tie.

    >>> leader({"x": 3, "y": 1}), leader({"x": 2, "y": 2})
    ('x', None)
    """
    best = max(points.values(), default=0)
    first = [side for side, p in points.items() if p == best]
    return first[0] if len(first) == 1 else None


def game_over(
    state: AnyState, points: dict[Side, int], winner: Side | None = None, **more: Any
) -> list[dict[str, Any]]:
    """End the game: ``state["result"]`` holds the points, the winner (by default the side
    alone with most points, ``leader``) and ``more`` (why it ended); the phase is "over", no
    step is pending and no die is due. Returns the log line (``log.game_over``).

    >>> state = {"phase": "end", "queue": [{"do": "x"}], "chance": None}
    >>> game_over(state, {"x": 1, "y": 0})
    [{'key': 'log.game_over', 'params': {'winner': 'x', 'points': {'x': 1, 'y': 0}}}]
    >>> state["result"], state["phase"], state["queue"]
    ({'points': {'x': 1, 'y': 0}, 'winner': 'x'}, 'over', [])
    """
    if winner is None and "winner" not in more:
        winner = leader(points)
    state["result"] = {"points": points, "winner": winner, **more}
    state["phase"] = "over"
    state["queue"] = []
    state["chance"] = None
    return [{"key": "log.game_over", "params": {"winner": winner, "points": points}}]


# -- the queue of pending steps ---------------------------------------------------------------
# What an action sets going and a player or a die must finish (the effects of a combat
# result, one unit after another; losses to choose; retreats; a cohesion test) waits in
# ``state["queue"]``: a list of steps, each a JSON object naming what it does (``"do"``). The
# system's ``drain`` runs them in order until one needs a die or a decision.

DONE = "done"  # the step is over: it leaves the queue (wherever steps it added put it)
AGAIN = "again"  # the step stays first and runs again (it did one part of itself)
WAIT = "wait"  # a die or a decision is needed: the queue stops, the step stays first
DONE_WAIT = "done, wait"  # the step is over (it leaves the queue) and asked a die or a
# decision: the queue stops; the answer goes on from the next step
Step = dict[str, Any]
Outcome = tuple[str, list[dict[str, Any]]]  # (DONE | AGAIN | WAIT | DONE_WAIT, log events)
C = TypeVar("C")
S = TypeVar("S", bound=AnyState)


def drain(
    context: C,
    state: S,
    handlers: Mapping[str, Callable[[C, S, Step], Outcome]],
    gone: Callable[[Step], bool] | None = None,
) -> list[dict[str, Any]]:
    """Run the queued steps in order until one must wait (or the game is over, or none is
    left); the log events. Each step's handler, ``handlers[step["do"]](context, state,
    step)``, says whether the step is over, goes again, waits, or is over and waits. A step
    for which ``gone`` is true (its unit has left the map) is dropped unrun.

    >>> def loss(ctx, state, step):
    ...     step["n"] -= 1
    ...     return (DONE if step["n"] == 0 else AGAIN), [{"key": "log.turn_start", "params": {}}]
    >>> def ask(ctx, state, step):
    ...     return WAIT, []
    >>> state = {"queue": [{"do": "loss", "n": 2}, {"do": "ask"}, {"do": "loss", "n": 1}]}
    >>> len(drain(None, state, {"loss": loss, "ask": ask})), state["queue"][0]
    (2, {'do': 'ask'})
    >>> state = {"queue": [{"do": "offer"}, {"do": "loss", "n": 1}]}
    >>> drain(None, state, {"offer": lambda ctx, state, step: (DONE_WAIT, []), "loss": loss})
    []
    >>> state["queue"]
    [{'do': 'loss', 'n': 1}]
    """
    events: list[dict[str, Any]] = []
    queue: list[Step] = state["queue"]
    while queue and not state.get("result"):
        step = queue[0]
        if gone is not None and gone(step):
            queue.pop(0)
            continue
        verdict, logged = handlers[step["do"]](context, state, step)
        events += logged
        if verdict in (DONE, DONE_WAIT):
            _take_off(state["queue"], step)
        if verdict in (WAIT, DONE_WAIT):
            break
        queue = state["queue"]  # a handler may have put a new list in place
    return events


def _take_off(queue: list[Step], step: Step) -> None:
    """Remove ``step`` itself (not an equal one) from ``queue``, if it is still there."""
    for i, queued in enumerate(queue):
        if queued is step:
            del queue[i]
            return


def first(state: AnyState, *steps: Step) -> None:
    """Put ``steps`` at the head of the queue, in order (they run before what waits there).

    >>> state = {"queue": [{"do": "c"}]}
    >>> first(state, {"do": "a"}, {"do": "b"})
    >>> [s["do"] for s in state["queue"]]
    ['a', 'b', 'c']
    """
    state["queue"][0:0] = steps


def then(state: AnyState, *steps: Step) -> None:
    """Put ``steps`` at the end of the queue, in order.

    >>> state = {"queue": [{"do": "a"}]}
    >>> then(state, {"do": "b"})
    >>> [s["do"] for s in state["queue"]]
    ['a', 'b']
    """
    state["queue"].extend(steps)


class _Data:
    """A stand-in scenario for the examples above: only its ``data``."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
