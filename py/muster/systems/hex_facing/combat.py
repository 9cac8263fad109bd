"""hex-facing combat: melee, charge and fire modifiers, the result tables, and exact odds.

Pure functions of plain facts (a ``MeleeSituation`` or ``FireSituation``) over ``combat.json``
(the aid's tables, and the defaults it leaves open, each marked) and the terrain chart's Fire
and Melee columns; one ``Modifier`` per modifier. ``level``: the attacker's (firer's) hex level
minus the target's, so -1 is an attack one level up (the terrain table's "+1 level" row).

>>> s = MeleeSituation((Combatant("infantry", 8, 5),), (Combatant("infantry", 4, 4),))
>>> [(p.key, p.value) for p in melee_modifiers(s)]
[('melee.force_ratio', 2), ('melee.cohesion', 1), ('melee.terrain', 1)]
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...dice import bind, distribution, map_outcomes
from ...errors import RulesError
from ...modifier import Modifier, total
from .tables import (
    FIRE_KINDS,
    LEVEL_ROWS,
    POSITIONS,
    TABLE,
    UNIT_TYPES,
    CombatTables,
    Dist,
    DrmRow,
    Effects,
    Outcomes,
    ResultCell,
    ResultRow,
    Side,
    Tables,
    level_row,
    load_tables,
    number,
)


class IllegalCombatError(RulesError):
    """A melee, charge or fire the rules forbid; the message names the rule and the place."""

    def __init__(self, what: str, rule: str, **params: Any) -> None:
        """The error ``combat.<what>`` broken under ``rule``, with where it happens."""
        template = f"illegal {what}" + "".join(f" {k}={{{k}}}" for k in params) + " ({rule})"
        super().__init__(f"combat.{what}", template, rule=rule, **params)


@dataclass(frozen=True, slots=True)
class Combatant:
    """A unit in a melee or fire: type, ratings, state, and the terrain of its own hex.

    An attacker's ``hexside``: the features it attacks across (works there protect the
    defender); ``works_held``: works on that hexside it attacks out of (note g).
    """

    type: str
    strength: int = 0
    cohesion: int = 0
    heavy: bool = False
    disordered: bool = False
    routed: bool = False
    in_square: bool = False
    terrain: tuple[str, ...] = ("clear",)
    hexside: tuple[str, ...] = ()
    works_held: tuple[str, ...] = ()
    level: int = 0
    fire_strength: int = 0
    effective_range: int = 0
    formation: str = ""

    def __post_init__(self) -> None:
        """Check the unit type."""
        if self.type not in UNIT_TYPES:
            raise ValueError(f"unit type must be one of {UNIT_TYPES}, got {self.type!r}")


@dataclass(frozen=True, slots=True)
class MeleeSituation:
    """A melee or charge: attackers, defenders, the defender's hex terrains, and how it is made.

    ``position``: "front", "rear" or "front_and_rear" (of the defender); ``rear_in_enemy_front``:
    an attacker's rear hex is in the front hex of enemy infantry or artillery not taking part;
    ``countercharge``: the defender's cavalry countercharged (9.4, a stand-in of combat.json).
    """

    attackers: tuple[Combatant, ...]
    defenders: tuple[Combatant, ...]
    terrain: tuple[str, ...] = ("clear",)
    charge: bool = False
    position: str = "front"
    rear_in_enemy_front: bool = False
    attackers_adjacent: bool = True
    countercharge: bool = False

    def __post_init__(self) -> None:
        """Check that both sides have units and the position is known."""
        if not self.attackers or not self.defenders or self.position not in POSITIONS:
            raise ValueError(f"a melee needs both sides and a position in {POSITIONS}: {self}")


@dataclass(frozen=True, slots=True)
class FireSituation:
    """A fire: its firers (one, or two of a formation in one hex), the target hex, the range.

    ``hexside``: the target hex's side features the fire crosses; ``kind``: one of FIRE_KINDS.
    """

    firers: tuple[Combatant, ...]
    targets: tuple[Combatant, ...]
    range: int = 1
    terrain: tuple[str, ...] = ("clear",)
    hexside: tuple[str, ...] = ()
    level: int = 0
    kind: str = "fire"

    def __post_init__(self) -> None:
        """Check the firers, the range and the kind of fire."""
        if not self.firers or not self.targets or self.range < 1 or self.kind not in FIRE_KINDS:
            raise ValueError(f"a fire needs both sides, range >= 1, a kind in {FIRE_KINDS}")


def force_ratio_drm(
    attack_strength: float, defense_strength: float, tables: Tables = None
) -> Modifier:
    """The force ratio line (8.6): the row at or below the ratio, in the defender's favour.

    >>> force_ratio_drm(29, 10).params
    (('ratio', '2:1'), ('attack', 29), ('defense', 10))

    Raises:
        ValueError: a strength is negative or not a number, or both are 0.
    """
    t = tables or load_tables()
    a, d = number(attack_strength), number(defense_strength)
    if a is None or d is None or a < 0 or d < 0 or a == d == 0:
        raise ValueError(f"bad strengths {attack_strength!r} : {defense_strength!r}")
    rows = t.force_ratio
    row = rows[0] if d == 0 else next((r for r in rows if r.value <= a / d), rows[-1])
    params = (("ratio", row.ratio), ("attack", attack_strength), ("defense", defense_strength))
    return Modifier(row.drm, "melee.force_ratio", t.melee["force_ratio"].rule, params)


def _quant(t: CombatTables, reading: str, facts: Iterable[bool]) -> bool:
    return (any if t.settings[f"readings.{reading}"] == "any" else all)(facts)


def _pick(t: CombatTables, combining: str, options: Sequence[Sequence[Modifier]]) -> list[Modifier]:
    """The option least (or most) favourable to the attacker, as combat.json chooses."""
    least = t.settings[f"combining.{combining}"] == "least_favourable"
    return list((min if least else max)(options, key=total))


def _six_front(t: CombatTables, terrain: Iterable[str]) -> bool:
    return any("six_front_hexes" in t.chart.row(n).flags for n in terrain)


def _bridge(t: CombatTables, names: Sequence[str]) -> tuple[list[str], list[str]]:
    """Note (h): (the names that count, the bridges ignored); over a river the bridge counts."""
    river = set(t.notes["h"]["river_rows"])
    bridges = [n for n in names if "river_bridge_only" in t.chart.row(n)["melee"].flags]
    water = [n for n in names if t.chart.row(n).id in river]
    if bridges and water:
        return [n for n in names if n not in water], []
    return [n for n in names if n not in bridges], bridges


def _hex_part(t: CombatTables, column: str, terrain: Sequence[str]) -> Modifier:
    """The line of the target hex: its least favourable terrain (OT skipped; note h)."""
    names = _bridge(t, [n for n in terrain if not t.chart.row(n)[column].other_terrain])[0]
    lines = []
    for n in names or ["clear"]:
        cell = t.chart.row(n)[column]
        if cell.prohibited:
            raise IllegalCombatError(f"{column}_terrain", TABLE, terrain=n)
        lines.append(
            [Modifier(int(cell.value or 0), f"{column}.terrain", TABLE, (("terrain", n),))]
        )
    return _pick(t, "hex_terrains", lines)[0]


def _side_parts(
    t: CombatTables, column: str, features: Sequence[str], level: int, close: bool
) -> tuple[list[Modifier], list[Modifier]]:
    """The lines of the hexside features crossed and of the level, as (works, others)."""
    names, ignored = _bridge(t, features)
    row = level_row(-level)
    names += [row] if row else []
    rule = t.notes["h"]["rule"]
    others = [Modifier(0, f"{column}.bridge_ignored", rule, (("feature", n),)) for n in ignored]
    works: list[Modifier] = []
    for n in names:
        cell = t.chart.row(n)[column]
        short, into = "close_range_fire" in cell.flags, "into_from" in cell.flags
        if short and not close:
            continue
        rule = TABLE + (" (f)" if short else "") + (" (g)" if into else "")
        kind = "works" if into else "level" if n in LEVEL_ROWS.values() else "hexside"
        if cell.prohibited:
            raise IllegalCombatError(f"{column}_{kind}", rule, feature=n)
        params = (("level", level),) if kind == "level" else (("feature", n),)
        (works if into else others).append(
            Modifier(int(cell.value or 0), f"{column}.{kind}", rule, params)
        )
    return works, others


def _approach(t: CombatTables, hex_part: Modifier, a: Combatant) -> list[Modifier]:
    """The terrain lines of one attacker as if it attacked alone (table; notes b, g, h)."""
    works, others = _side_parts(t, "melee", a.hexside, a.level, True)
    parts = _pick(t, "works", [[hex_part], *([w] for w in works)]) + others
    own: list[list[Modifier]] = []
    if _six_front(t, a.terrain):
        b = t.notes["b"]
        own.append([Modifier(b["attacking_from"], "melee.six_front_attacker", b["rule"])])
    for n in a.works_held:
        cell = t.chart.row(n)["melee"]
        if "into_from" not in cell.flags:
            raise ValueError(f"{n!r} is not a redoubt, wall or fortification")
        value = int(getattr(cell.attacking_from, "value", 0) or 0)
        own.append([Modifier(value, "melee.works_from", TABLE + " (g)", (("feature", n),))])
    return parts + _pick(t, "works", own) if own else parts


def _fixed_rows(
    t: CombatTables, s: MeleeSituation, att: list[Combatant], dfn: list[Combatant]
) -> list[Modifier]:
    """The melee rows with a printed value that apply, after the aid's combining rules."""
    square = _quant(t, "square", (d.in_square for d in dfn))
    heavy = any(a.heavy for a in att if a.type == "cavalry")
    lost = s.countercharge and t.settings["procedures.countercharge.charge_bonus"] == "lost"
    cavalry = _quant(t, "cavalry_melee", (a.type == "cavalry" for a in att))
    applies = {
        "routed": _quant(t, "routed_defender", (d.routed for d in dfn)),
        "rear": s.position == "rear",
        "front_and_rear": s.position == "front_and_rear",
        "rear_in_enemy_front": s.rear_in_enemy_front,
        "cavalry_melee": cavalry and not s.charge,
        "heavy_charge": s.charge and heavy and not lost,
        "charge": s.charge and not heavy and not lost,
        "charge_vs_square": s.charge and square,
        "infantry_vs_square": square and all(a.type == "infantry" for a in att),
    }
    chosen = [r for r in t.melee.values() if applies.get(r.id)]
    cancelled = {c for r in chosen for c in r.params.get("cancels", ())}
    chosen = [r for r in chosen if r.id not in cancelled]

    def beaten(i: int, r: DrmRow) -> bool:
        """Not combined with a row that beats it: a higher one, or an equal one printed first."""
        return any(
            (o.id in r.params.get("not_with", ()) or r.id in o.params.get("not_with", ()))
            and (int(o.value) > int(r.value) or o.value == r.value and j < i)
            for j, o in enumerate(chosen)
        )

    kept = [r for i, r in enumerate(chosen) if not beaten(i, r)]
    return [Modifier(int(r.value), f"melee.{r.id}", r.rule) for r in kept]


def melee_modifiers(situation: MeleeSituation, tables: Tables = None) -> list[Modifier]:
    """Every modifier of the aid's melee DRM table that applies, one line each, in table order.

    Raises:
        IllegalCombatError: a charge without cavalry or against, from or through note (e)
            terrain; a defender in prohibited terrain; front-and-rear attackers not adjacent;
            a disordered attacker where ``readings.disordered_attack`` bars it.
        ValueError: no combat unit on a side (UnknownTerrainError: a terrain not in the chart).
    """
    t, s = tables or load_tables(), situation
    kinds = t.settings["combat_types"]
    att, dfn = ([u for u in side if u.type in kinds] for side in (s.attackers, s.defenders))
    if not att or not dfn:
        raise ValueError("a melee needs a combat unit on each side")
    both = t.melee["front_and_rear"]
    if (
        s.position == "front_and_rear"
        and not s.attackers_adjacent
        and both.params["attackers_adjacent"]
    ):
        raise IllegalCombatError("attackers_not_adjacent", both.rule)
    barred = t.settings["readings.disordered_attack"]
    charge_barred = barred == "melee_only" and s.charge
    if any(a.disordered for a in att) and (barred == "may_not" or charge_barred):
        raise IllegalCombatError("disordered_attacker", "default")
    cavalry = [a for a in att if a.type == "cavalry"]
    if s.charge and not cavalry:
        raise IllegalCombatError("charge_without_cavalry", t.melee["charge"].rule)
    # Note (e): no charge from, through or against such terrain.
    places = [("against", n) for n in s.terrain] + [("from", n) for a in cavalry for n in a.terrain]
    places += [("through", n) for a in cavalry for n in (*a.hexside, *a.works_held)]
    for where, n in places if s.charge else ():
        if "no_charge" in t.chart.row(n)["melee"].flags:
            if where == "through":  # a hexside feature or works
                raise IllegalCombatError(
                    "charge_through", t.notes["e"]["rule"], where=where, feature=n
                )
            raise IllegalCombatError("charge", t.notes["e"]["rule"], where=where, terrain=n)
    parts = [force_ratio_drm(sum(a.strength for a in att), sum(d.strength for d in dfn), t)]
    best_a, best_d = max(a.cohesion for a in att), max(d.cohesion for d in dfn)
    params = (("attacker", best_a), ("defender", best_d))
    parts.append(Modifier(best_a - best_d, "melee.cohesion", t.melee["cohesion"].rule, params))
    hex_part = _hex_part(t, "melee", s.terrain)
    parts += _pick(t, "approaches", [_approach(t, hex_part, a) for a in att])
    b, cav = t.notes["b"], _quant(t, "six_front_cavalry", (d.type == "cavalry" for d in dfn))
    if cav and _six_front(t, s.terrain) and any(a.type == b["attacker_type"] for a in att):
        parts.append(Modifier(b["cavalry_defender"], "melee.six_front_cavalry", b["rule"]))
    return parts + _fixed_rows(t, s, att, dfn)


def fire_modifiers(situation: FireSituation, tables: Tables = None) -> list[Modifier]:
    """Every modifier of the aid's fire DRM table that applies, one line each, in table order.

    Raises:
        IllegalCombatError: a firer with no fire; firers not one combined fire of a formation;
            a crest or steep slope at close range (note f). UnknownTerrainError: as above.
    """
    t, s = tables or load_tables(), situation
    rows = t.fire
    for f in s.firers:
        if f.type not in t.settings["fire_modifiers.firer_types"]:
            raise IllegalCombatError("fire_by", rows["fire_strength"].rule, type=f.type)
    combined = rows["combined_fire"]
    one = len({f.formation for f in s.firers}) == 1
    if len(s.firers) > 1 and (len(s.firers) != combined.params["units"] or not one):
        raise IllegalCombatError("combined_fire", combined.rule, count=len(s.firers))

    def line(row: DrmRow, value: int | None = None, **params: Any) -> Modifier:
        v = int(row.value) if value is None else value
        return Modifier(v, f"fire.{row.id}", row.rule, tuple(params.items()))

    # Combined fire: the higher fire strength and the shorter effective range count.
    strength = max(f.fire_strength for f in s.firers)
    effective = min(f.effective_range for f in s.firers)
    parts = [line(rows["fire_strength"], strength, strength=strength)]
    if len(s.firers) > 1:
        parts.append(line(combined))
    if any(f.in_square or _six_front(t, f.terrain) for f in s.firers):
        parts.append(line(rows["six_front_firer"]))
    if s.kind != "fire":
        row = rows["reaction_or_counter_battery"]
        parts.append(Modifier(int(row.value), f"fire.{s.kind}", row.params["rules"][s.kind]))
    close = s.range <= t.notes["f"]["close_range"]
    works, others = _side_parts(t, "fire", s.hexside, s.level, close)
    parts += _pick(t, "works", [[_hex_part(t, "fire", s.terrain)], *([w] for w in works)])
    parts += others
    row = rows["concentrated"]
    kinds = [u.type for u in s.targets if u.type in t.settings["combat_types"]]
    count = sum(1 for k in kinds if k not in row.params["not_types"])
    if count >= row.params["min_units"]:
        parts.append(line(row, count=count))
    if any(u.in_square for u in s.targets):
        parts.append(line(rows["square"]))
    row = rows["adjacent"]
    if s.range == row.params["range"] and set(kinds) & set(row.params["target_types"]):
        parts.append(line(row))
    if s.range <= effective:
        parts.append(line(rows["effective_range"], range=s.range, effective=effective))
    else:
        row, beyond = rows["long_range"], s.range - effective
        parts.append(line(row, int(row.value) * beyond, hexes=beyond))
    return parts


def fire_result(roll: int, total: int, tables: Tables = None) -> ResultRow:
    """The fire table's row for die ``roll`` + ``total`` (fire strength and DRM)."""
    return next(r for r in (tables or load_tables()).fire_table if r.covers(roll + total))


def melee_result(roll_total: int, tables: Tables = None) -> ResultRow:
    """The melee results table's row for a modified die roll."""
    return next(r for r in (tables or load_tables()).melee_table if r.covers(roll_total))


def cohesion_test_passes(
    roll: int, cohesion: int, modifiers: int = 0, tables: Tables = None
) -> bool:
    """True if a cohesion test (PZw) passes with die ``roll`` (default: roll + mods <= cohesion)."""
    at_most = (tables or load_tables()).settings["cohesion_test.pass_if"] == "at_most"
    return roll + modifiers <= cohesion if at_most else roll + modifiers < cohesion


def _dedupe(effects: Iterable[str]) -> Effects:
    return tuple(dict.fromkeys(effects))


def _effects(t: CombatTables, cell: ResultCell, side: Side, met: bool) -> Dist:
    """The exact effects of a result cell on one side, with every cohesion test it calls for."""
    cavalry, cohesion, modifiers, can_retreat = side
    italic = cavalry and cell.cavalry is not None and (cell.when is None or met)
    codes = cell.cavalry if italic and cell.cavalry is not None else cell.codes
    test = map_outcomes(
        distribution(t.die), lambda f: cohesion_test_passes(f, cohesion, modifiers, t)
    )
    dist: Dist = {(): Fraction(1)}
    for name in codes:
        effects, failed = t.codes[name]

        def apply(done: Effects, e: Effects = effects, f: Effects = failed) -> Dist:
            done = _dedupe((*done, *e))
            return map_outcomes(test, lambda ok: done if ok else _dedupe((*done, *f)))

        dist = bind(dist, apply)
    swap = {} if can_retreat else {"retreat": t.settings["retreat_blocked.becomes"]}
    dist = map_outcomes(dist, lambda e: _dedupe(x for y in e for x in swap.get(y, (y,))))
    return {e: p for e, p in dist.items() if p}


def _listed(dist: Mapping[Any, Fraction], sides: tuple[str, ...]) -> Outcomes:
    out = [({s: list(e) for s, e in zip(sides, k, strict=True)}, p) for k, p in dist.items() if p]
    return sorted(out, key=lambda o: (-o[1], json.dumps(o[0])))


def fire_distribution(
    total_drm: int, target_cohesion: int, cohesion_modifiers: int = 0, tables: Tables = None
) -> Outcomes:
    """Every result of a fire with its exact probability, ``[({"target": [...]}, p)]``.

    >>> fire_distribution(5, 5)
    [({'target': []}, Fraction(16, 25)), ({'target': ['disorder']}, Fraction(9, 25))]
    """
    t = tables or load_tables()
    side = (False, target_cohesion, cohesion_modifiers, True)

    def after(face: int) -> dict[tuple[Effects], Fraction]:
        cell = fire_result(face, total_drm, t).cells["result"]
        return map_outcomes(_effects(t, cell, side, True), lambda e: (e,))

    return _listed(bind(distribution(t.die), after), ("target",))


def melee_distribution(
    total_drm: int,
    attacker_cohesion: int,
    defender_cohesion: int,
    attacker_is_cavalry: bool,
    defender_is_cavalry: bool = False,
    *,
    countercharge: bool = False,
    cohesion_modifiers: tuple[int, int] = (0, 0),
    can_retreat: tuple[bool, bool] = (True, True),
    tables: Tables = None,
) -> Outcomes:
    """Every result of a melee with its exact probability, cohesion tests included.

    Each outcome is ``{"defender": [...], "attacker": [...]}``, likeliest first. ``countercharge``:
    the defender countercharged (9.4), so its cavalry may pursue an attacker that retreats;
    ``cohesion_modifiers`` and ``can_retreat`` are (attacker, defender).

    >>> melee_distribution(5, 5, 5, False)[1]
    ({'defender': ['retreat'], 'attacker': []}, Fraction(3, 10))
    """
    t = tables or load_tables()
    blocked = set(t.settings["retreat_blocked.becomes"]) | {"retreat"}
    att = (attacker_is_cavalry, attacker_cohesion, cohesion_modifiers[0], can_retreat[0])
    dfn = (defender_is_cavalry, defender_cohesion, cohesion_modifiers[1], can_retreat[1])

    def after(face: int) -> dict[tuple[Effects, Effects], Fraction]:
        row = melee_result(face + total_drm, t)

        def defender(a: Effects) -> dict[tuple[Effects, Effects], Fraction]:
            met = countercharge and bool(blocked & set(a))
            return map_outcomes(_effects(t, row.cells["defender"], dfn, met), lambda d: (d, a))

        return bind(_effects(t, row.cells["attacker"], att, True), defender)

    return _listed(bind(distribution(t.die), after), ("defender", "attacker"))
