"""Area maps: locales and the approaches between them (format in docs/scenario-format.md).

A locale is an area with a reserve (its interior) and one approach per neighbouring locale:
the approach ``"A/B"`` is the border of A that faces B. Approaches are directed (A/B and B/A
are the two sides of one border), narrow or wide, with a terrain effect and flags. Roads
join locales. Every problem raises :class:`ScenarioError` naming the place.

>>> sc = parse_area_scenario(EXAMPLE)
>>> sc.neighbors["a"], sc.approach("a", "b").width, sc.road_kind("a", "b")
(('b',), 'narrow', 'primary')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import systems
from .errors import ScenarioError
from .limits import (
    MAX_APPROACHES,
    MAX_LOCALES,
    MAX_POLYGON_POINTS,
    MAX_UNITS,
    check_count,
    too_large,
)
from .overrides import check_overrides as _parse_overrides
from .parsing import (
    ScenarioFacts,
    brief,
    expect,
    is_chain,
    known_name,
    nonempty_text,
    optional_text,
    show,
    whole_number,
    worded_options,
)
from .texts import check_words, english

WIDTHS = ("narrow", "wide")
APPROACH_FLAGS = frozenset({"cavalry_obstructed", "impassable"})
ROAD_KINDS = ("primary", "secondary")
TERRAINS = ("open", "town", "woods", "farm", "river_bank", "hills")


@dataclass(frozen=True, slots=True)
class Locale:
    """An area of the map: its name, outline (for drawing), capacity and objective points."""

    id: str
    name: str
    polygon: tuple[tuple[float, float], ...]
    capacity: int
    objective: int = 0
    terrain: str = "open"


@dataclass(frozen=True, slots=True)
class Approach:
    """The border of ``locale`` facing ``facing``: width, terrain effect and flags."""

    locale: str
    facing: str
    width: str
    effect: int
    flags: frozenset[str] = frozenset()

    @property
    def id(self) -> str:
        """``"locale/facing"``."""
        return f"{self.locale}/{self.facing}"


@dataclass(slots=True)
class AreaScenario(ScenarioFacts):
    """A validated area-map scenario: the raw JSON plus its locales, approaches and roads."""

    data: dict[str, Any]
    locales: dict[str, Locale]
    approaches: dict[str, Approach]
    roads: list[tuple[str, tuple[str, ...]]]
    units: dict[str, dict[str, Any]] = field(default_factory=dict)
    neighbors: dict[str, tuple[str, ...]] = field(default_factory=dict)
    links: dict[tuple[str, str], str] = field(default_factory=dict)
    memo: dict[Any, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        found: dict[str, list[str]] = {k: [] for k in self.locales}
        for ap in self.approaches.values():
            found[ap.locale].append(ap.facing)
        self.neighbors = {k: tuple(sorted(v)) for k, v in found.items()}
        for kind, chain in self.roads:
            for a, b in zip(chain, chain[1:], strict=False):
                for pair in ((a, b), (b, a)):
                    if self.links.get(pair) != "primary":
                        self.links[pair] = kind

    def approach(self, locale: str, facing: str) -> Approach:
        """The approach of ``locale`` facing ``facing``.

        Raises:
            ScenarioError: the two locales are not neighbours.
        """
        found = self.approaches.get(f"{locale}/{facing}")
        if found is None:
            raise ScenarioError(f"approach {locale}/{facing}", "problem.no_such_approach")
        return found

    def passable(self, a: str, b: str) -> bool:
        """True if pieces may cross between ``a`` and ``b`` (neither side is impassable)."""
        there, back = self.approaches.get(f"{a}/{b}"), self.approaches.get(f"{b}/{a}")
        if there is None or back is None:
            return False
        return "impassable" not in (there.flags | back.flags)

    def road_kind(self, a: str, b: str) -> str | None:
        """The best road joining two neighbouring locales, or None."""
        return self.links.get((a, b))


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def parse_area_scenario(data: dict[str, Any]) -> AreaScenario:
    """Validate an area-map scenario (``map.kind`` "areas") and index it: the part of
    ``parse_scenario`` after the checks every scenario has (plain JSON within the limits, its
    format, id, title and system); call that one.

    Raises:
        ScenarioError: naming the first place that is wrong.
        InvalidActionError: a count over its limit (``error.too_large``).
    """
    m: Any = data.get("map")
    expect(isinstance(m, dict), "map", "problem.object")
    expect(
        m.get("kind") == "areas", "map.kind", "problem.one_of", options=worded_options(("areas",))
    )
    for key in ("width", "height"):
        expect(_number(m.get(key)) and m[key] > 0, f"map.{key}", "problem.positive_number")
    locales = _locales(m.get("locales"))
    approaches = _approaches(m.get("approaches"), locales)
    roads = _roads(m.get("roads", []), locales, approaches)
    sides = _sides(data.get("sides"))
    described = systems.get(str(data["system"]))
    units = _units(data.get("units", []), sides, locales, approaches, described.pieces)
    if "turns" in data:
        whole_number(data["turns"], "turns", 1, 99)
    _parse_overrides(data.get("overrides", {}), str(data["system"]))
    if described.sequence_problem is not None:
        _check_sequence(data.get("overrides", {}).get("sequence"), described.sequence_problem)
    return AreaScenario(data, locales, approaches, roads, units)


def _check_sequence(overrides: Any, problem: Callable[[Any], systems.Problem | None]) -> None:
    """Refuse sequence settings the rules cannot play (a negative count, a value outside its
    closed set, a phase twice: the system's ``problem``): the loader has checked their keys
    and kinds."""
    found = problem(overrides)
    if found:
        raise ScenarioError(f"overrides.sequence.{found[0]}", found[1], **found[2])


def _locales(items: Any) -> dict[str, Locale]:
    expect(isinstance(items, list) and bool(items), "map.locales", "problem.non_empty_list")
    check_count(items, "map.locales", "locales", MAX_LOCALES)
    out: dict[str, Locale] = {}
    for i, spec in enumerate(items):
        place = f"map.locales[{i}]"
        expect(isinstance(spec, dict), place, "problem.object")
        lid = nonempty_text(spec.get("id"), place + " id")
        place = f"locale {brief(lid)}"
        expect(lid not in out and "/" not in lid, place, "problem.locale_id")
        poly = spec.get("polygon")
        check_count(poly, place + " polygon", "points", MAX_POLYGON_POINTS)
        ok = isinstance(poly, list) and len(poly) >= 3
        ok = ok and all(isinstance(p, list) and len(p) == 2 and all(map(_number, p)) for p in poly)
        expect(ok, place + " polygon", "problem.polygon")
        terrain = spec.get("terrain", "open")
        ok = isinstance(terrain, str) and terrain in TERRAINS
        expect(ok, place + " terrain", "problem.one_of", options=worded_options(TERRAINS))
        check_words(spec.get("name"), place + " name")
        out[lid] = Locale(
            lid,
            english(spec["name"]),
            tuple((float(x), float(y)) for x, y in poly),
            whole_number(spec.get("capacity"), place + " capacity", 1, 99),
            whole_number(spec.get("objective", 0), place + " objective", 0, 99),
            terrain,
        )
    return out


def _approaches(items: Any, locales: dict[str, Locale]) -> dict[str, Approach]:
    expect(isinstance(items, list), "map.approaches", "problem.list")
    check_count(items, "map.approaches", "approaches", MAX_APPROACHES)
    out: dict[str, Approach] = {}
    for i, spec in enumerate(items):
        place = f"map.approaches[{i}]"
        expect(isinstance(spec, dict), place, "problem.object")
        a, b = spec.get("from"), spec.get("facing")
        ok = isinstance(a, str) and isinstance(b, str) and a in locales and b in locales
        expect(ok and a != b, place, "problem.approach_ends")
        place = f"approach {brief(a)}/{brief(b)}"
        expect(f"{a}/{b}" not in out, place, "problem.listed_twice")
        width = spec.get("width")
        ok = isinstance(width, str) and width in WIDTHS
        expect(ok, place + " width", "problem.one_of", options=worded_options(WIDTHS))
        flags = spec.get("flags", [])
        ok = isinstance(flags, list) and all(isinstance(f, str) for f in flags)
        ok = ok and set(flags) <= APPROACH_FLAGS
        options = worded_options(sorted(APPROACH_FLAGS))
        expect(ok, place + " flags", "problem.some_of", options=options)
        effect = whole_number(spec.get("effect", 0), place + " effect", 0, 9)
        out[f"{a}/{b}"] = Approach(a, b, spec["width"], effect, frozenset(flags))
    for key, ap in out.items():
        back = f"{ap.facing}/{ap.locale}"
        expect(back in out, f"approach {key}", "problem.other_side_missing", other=back)
    return out


def _roads(
    items: Any, locales: dict[str, Locale], approaches: dict[str, Approach]
) -> list[tuple[str, tuple[str, ...]]]:
    expect(isinstance(items, list), "map.roads", "problem.list")
    check_count(items, "map.roads", "roads", MAX_APPROACHES)
    chains = [s["locales"] for s in items if isinstance(s, dict) and is_chain(s, "locales")]
    steps = sum(len(chain) - 1 for chain in chains)
    if steps > MAX_APPROACHES:
        raise too_large("map.roads", "road_steps", steps, MAX_APPROACHES)
    out = []
    for i, spec in enumerate(items):
        place = f"map.roads[{i}]"
        expect(isinstance(spec, dict), place, "problem.object")
        kind = spec.get("kind")
        ok = isinstance(kind, str) and kind in ROAD_KINDS
        expect(ok, place + " kind", "problem.one_of", options=worded_options(ROAD_KINDS))
        chain = spec.get("locales")
        ok = is_chain(spec, "locales") and all(isinstance(c, str) and c in locales for c in chain)
        expect(ok, place + " locales", "problem.road_locales")
        for a, b in zip(chain, chain[1:], strict=False):
            expect(f"{a}/{b}" in approaches, place, "problem.not_neighbours", id=a, other=b)
        out.append((spec["kind"], tuple(chain)))
    return out


def _sides(items: Any) -> set[str]:
    expect(isinstance(items, list) and len(items) == 2, "sides", "problem.two_sides")
    ids: set[str] = set()
    for i, spec in enumerate(items):
        place = f"sides[{i}]"
        expect(isinstance(spec, dict), place, "problem.object")
        sid = nonempty_text(spec.get("id"), place + " id")
        expect(sid not in ids, place, "problem.side_twice", got=show(sid))
        check_words(spec.get("name"), place + " name")
        optional_text(spec, "color", place)
        optional_text(spec, "text", place)
        if "army_morale" in spec:
            whole_number(spec["army_morale"], f"side {brief(sid)} army_morale", 0, 999)
        ids.add(sid)
    return ids


def _units(
    items: Any,
    sides: set[str],
    locales: dict[str, Locale],
    approaches: dict[str, Approach],
    pieces: Mapping[str, int],
) -> dict[str, dict[str, Any]]:
    expect(isinstance(items, list), "units", "problem.list")
    check_count(items, "units", "units", MAX_UNITS)
    out: dict[str, dict[str, Any]] = {}
    held: dict[str, str] = {}
    count: dict[tuple[str, str], int] = {}
    for i, spec in enumerate(items):
        place = f"units[{i}]"
        expect(isinstance(spec, dict), place, "problem.object")
        uid = nonempty_text(spec.get("id"), place + " id")
        place = f"unit {brief(uid)}"
        expect(uid not in out, place, "problem.id_twice")
        side = known_name(spec.get("side"), sides, place, "problem.unknown_side")
        kind = spec.get("type")
        ok = isinstance(kind, str) and kind in pieces
        expect(ok, place, "problem.piece_type", options=worded_options(pieces))
        check_words(spec.get("name"), place + " name")
        whole_number(spec.get("steps"), place + " steps", 1, pieces[kind])
        where = known_name(spec.get("locale"), locales, place, "problem.unknown_locale")
        facing = spec.get("approach")
        ok = facing is None or (isinstance(facing, str) and f"{where}/{facing}" in approaches)
        if not ok:
            shown = brief(facing) if isinstance(facing, str) else show(facing)
            raise ScenarioError(place, "problem.no_approach", id=f"{brief(where)}/{shown}")
        expect(held.setdefault(where, side) == side, place, "problem.both_sides", id=where)
        count[(side, where)] = count.get((side, where), 0) + 1
        cap = locales[where].capacity
        expect(count[(side, where)] <= cap, place, "problem.over_capacity", id=where, cap=cap)
        out[uid] = spec
    return out


EXAMPLE: dict[str, Any] = {
    "format": "muster-scenario/1",
    "id": "ex",
    "system": "area-locale",
    "title": "ex",
    "map": {
        "kind": "areas",
        "width": 20,
        "height": 10,
        "locales": [
            {
                "id": "a",
                "name": "A",
                "polygon": [[0, 0], [10, 0], [10, 10], [0, 10]],
                "capacity": 3,
            },
            {
                "id": "b",
                "name": "B",
                "polygon": [[10, 0], [20, 0], [20, 10], [10, 10]],
                "capacity": 3,
            },
        ],
        "approaches": [
            {"from": "a", "facing": "b", "width": "narrow", "effect": 1},
            {"from": "b", "facing": "a", "width": "wide"},
        ],
        "roads": [{"kind": "primary", "locales": ["a", "b"]}],
    },
    "sides": [{"id": "x", "name": "X"}, {"id": "y", "name": "Y"}],
    "units": [],
}
