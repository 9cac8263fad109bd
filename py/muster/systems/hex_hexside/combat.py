"""hex-hexside close combat and bombardment on the map: terrain DRM by the chart's combining
rule, odds, the other DRM (defaults in ``sequence.json``), and exact result distributions.

Terrain (chart, "how terrain combines"): the least favourable to the attacker of the
defender's hex terrain (plain numbers and ( )) and the attacker's hex terrain (( ) and [ ]),
plus the hexside between the two hexes; in a multi-hex attack the attacker chooses the pair
of hexes. ``*`` forbids cavalry shock into or from that terrain, ``P`` forbids the attack.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import ceil
from typing import Any

from ... import play
from ...errors import RulesError, ScenarioError
from ...hexgrid import Hex, Hexside, hex_distance, hex_ring
from ...hexmap import Scenario
from ...limits import MAX_CRT_CHARS, MAX_CRT_COLUMNS, check_count, check_plain, check_size
from ...los import line_of_sight, los_config, trace
from ...modifier import Modifier
from ...movement import Board
from ...parsing import show
from ...problems import english
from . import tables as T
from .movement import crossing
from .state import HexHexsideState

FOLDER = "hex_hexside"
State = HexHexsideState  # the state's shape (state.py)
TEC = "terrain effects chart"
INTO = ("into", "from_or_into")
FROM = ("from", "from_or_into")
# The chart's markings, named so each rule reference reads on its own (rule_ref.<slug>).
MARK = {"into": "", "from_or_into": " ( ) either hex", "from": " [ ] attacker's hex"}


def sequence_data() -> dict[str, Any]:
    """The turn sequence defaults (``sequence.json``)."""
    return play.sequence_data(FOLDER)


def settings(scenario: Scenario) -> dict[str, Any]:
    """The sequence defaults with the scenario's overrides and its own turn count."""
    return play.settings(scenario, FOLDER)


@dataclass(frozen=True, slots=True)
class TerrainDrm:
    """The terrain DRM of one pair of hexes: its parts, whether shock is allowed, or the ban."""

    parts: tuple[Modifier, ...]
    shock_allowed: bool
    prohibited: Modifier | None = None

    @property
    def value(self) -> int:
        """The sum of the parts."""
        return int(sum(p.value for p in self.parts))


def column_for(unit_type: str, bombard: bool = False) -> str:
    """The chart's combat column for an attack led by ``unit_type`` (or a bombardment)."""
    if bombard:
        return "bomb"
    return "cav" if unit_type == "cavalry" else "inf"


def hexside_names(scenario: Scenario, a: Hex, d: Hex) -> list[str]:
    """The chart rows of the hexside from ``a`` to ``d``: slope top when ``d`` is the up side;
    a feature a bridge or ford crosses left out (note 3, ``crossings`` in sequence.json)."""
    features = scenario.side_features.get((a, d), ())
    if not features:
        return []
    _, cancelled = crossing(scenario, features)
    names = []
    for f in features:
        if f == "slope":
            up = scenario.hexsides[Hexside.between(a, d)].up
            names.append("slope_top" if up == d else "slope_bottom")
        elif f not in cancelled:
            names.append(f)
    return names


def terrain_drm(board: Board, column: str, a: Hex, d: Hex, adjacent: bool = True) -> TerrainDrm:
    """The chart's DRM for an attack from ``a`` into ``d`` (hex least favourable + hexside)."""
    sc = board.scenario
    candidates: list[tuple[float, str, str]] = []
    shock = True
    for name in sc.hexes[d].terrain:
        cell = board.cell(name, column)
        if cell.prohibited:
            ban = Modifier(0, "drm.prohibited", board.rule(name, column, TEC), (("terrain", name),))
            return TerrainDrm((), False, ban)
        if cell.applies in INTO:
            candidates.append((cell.value or 0, name, cell.applies))
        shock = shock and "no_shock" not in board.cell(name, "cav").flags
    for name in sc.hexes[a].terrain:
        cell = board.cell(name, column)
        if cell.applies in FROM and not cell.prohibited:
            candidates.append((cell.value or 0, name, cell.applies))
        shock = shock and "no_shock" not in board.cell(name, "cav").flags
    parts: list[Modifier] = []
    if candidates:
        value, name, how = min(candidates, key=lambda c: c[0])
        if value:
            rule = board.rule(name, column, TEC + MARK[how])
            parts.append(Modifier(value, "drm.terrain", rule, (("terrain", name),)))
    if not adjacent:
        return TerrainDrm(tuple(parts), shock)
    side = hexside_drm(board, column, a, d)
    if side.prohibited is not None:
        return side
    return TerrainDrm(tuple(parts) + side.parts, shock and side.shock_allowed)


def hexside_drm(board: Board, column: str, a: Hex, d: Hex) -> TerrainDrm:
    """The chart's DRM of the hexside between adjacent ``a`` and ``d``, attacking into ``d``."""
    parts: list[Modifier] = []
    shock = True
    for name in hexside_names(board.scenario, a, d):
        cell = board.cell(name, column)
        if cell.prohibited:
            ban = Modifier(0, "drm.prohibited", board.rule(name, column, TEC), (("feature", name),))
            return TerrainDrm((), False, ban)
        shock = shock and "no_shock" not in board.cell(name, "cav").flags
        if cell.value:
            rule = board.rule(name, column, TEC)
            parts.append(Modifier(cell.value, "drm.hexside", rule, (("feature", name),)))
    return TerrainDrm(tuple(parts), shock)


def strength(scenario: Scenario, state: State, uid: str) -> int:
    """A unit's combat strength now (``strength.reduced``): full strength times steps left over
    steps, rounded up ("proportional_up") or down ("proportional_down"), or its full strength
    while it has a step left ("full")."""
    spec = scenario.units[uid]
    full = int(spec.get("ratings", {}).get("strength", 0))
    steps = int(spec.get("steps", 1)) or 1
    left = max(steps - int(state["units"][uid]["lost"]), 0)
    reduced = settings(scenario)["strength"]["reduced"]
    if reduced == "full":
        return full if left else 0
    if reduced == "proportional_down":
        return full * left // steps
    return ceil(full * left / steps)


def morale(scenario: Scenario, uid: str) -> int:
    """A unit's morale rating."""
    return int(scenario.units[uid].get("ratings", {}).get("morale", 0))


def leader_with(scenario: Scenario, state: State, uid: str) -> str | None:
    """A friendly leader stacked with ``uid`` (the best morale modifier), or None."""
    u = state["units"][uid]
    side = scenario.units[uid]["side"]
    best = None
    for lid, lu in state["units"].items():
        spec = scenario.units[lid]
        if lu["out"] or spec["type"] != "leader" or spec["side"] != side or lu["hex"] != u["hex"]:
            continue
        if best is None or _mm(scenario, lid) > _mm(scenario, best):
            best = lid
    return best


def _mm(scenario: Scenario, lid: str) -> int:
    return int(scenario.units[lid].get("ratings", {}).get("morale_modifier", 0))


def odds(
    scenario: Scenario, state: State, attackers: list[str], defenders: list[str]
) -> dict[str, Any]:
    """Step 3: the strengths of both sides and the CRT column (``odds`` in combat.json)."""
    t = tables_of(scenario, state)
    attack = sum(strength(scenario, state, u) for u in attackers)
    defence = sum(strength(scenario, state, u) for u in defenders)
    column = T.odds_column(attack, defence, t) if attack or defence else t.columns[0][0]
    return {"attack": attack, "defence": defence, "column": column}


def drm_parts(
    scenario: Scenario,
    state: State,
    board: Board,
    lead_a: str,
    lead_d: str | None,
    pair: tuple[Hex, Hex],
) -> tuple[list[Modifier], TerrainDrm]:
    """Step 5: every DRM of a close combat, one ``Modifier`` each (terrain, lead units, leaders)."""
    rule = settings(scenario)["drm"]
    a_spec = scenario.units[lead_a]
    terrain = terrain_drm(board, column_for(a_spec["type"]), *pair)
    parts = list(terrain.parts)
    ua = state["units"][lead_a]
    if lead_d is not None and rule["lead_morale_difference"]:
        diff = morale(scenario, lead_a) - morale(scenario, lead_d)
        if diff:
            parts.append(Modifier(diff, "drm.morale", "default", (("a", lead_a), ("d", lead_d))))
    for uid, sign in ((lead_a, 1), (lead_d, -1)):
        if uid is None:
            continue
        status = state["units"][uid]["status"]
        if status in ("disordered", "routed"):
            value = rule["disordered_lead"] if status == "disordered" else rule["routed_lead"]
            parts.append(
                Modifier(
                    sign * value, "drm.lead_status", "default", (("unit", uid), ("status", status))
                )
            )
        leader = leader_with(scenario, state, uid)
        if leader is not None and rule["leader_with_lead"]:
            value = sign * rule["leader_with_lead"]
            parts.append(Modifier(value, "drm.leader", "default", (("unit", leader),)))
    if ua.get("wcm") is not None and rule["winning_combat_marker"]:
        parts.append(
            Modifier(rule["winning_combat_marker"], "drm.wcm", "default", (("unit", lead_a),))
        )
    shock = int(a_spec.get("ratings", {}).get("shock", 0))
    if a_spec["type"] == "cavalry" and shock and rule["shock"] == "lead_cavalry_shock":
        needs = rule["shock_needs"]
        formed = ("formed" not in needs or ua["status"] == "formed") and (
            "not_engaged" not in needs or not ua["engaged"]
        )
        if terrain.shock_allowed and formed:
            parts.append(Modifier(shock, "drm.shock", "default", (("unit", lead_a),)))
        else:
            why = "terrain" if not terrain.shock_allowed else "state"
            ref = TEC + " (*) no shock" if why == "terrain" else "default"
            parts.append(Modifier(0, "drm.no_shock", ref, (("cause", why),)))
    return parts, terrain


def bombard_parts(board: Board, a: Hex, d: Hex) -> TerrainDrm:
    """The Bomb column DRM of a bombardment from ``a`` at ``d``: the hex terrain by the chart's
    markings, plus the hexside the line of fire enters ``d`` by (``bombardment.hexside``:
    "into_target"; "none" leaves hexsides out at range). A line entering ``d`` at a vertex
    or along a hexside has two such hexsides: the line of sight's vertex rule chooses
    ("both", the default: the one better for the gun, prohibited only when both are;
    "either": the worse)."""
    found = terrain_drm(board, "bomb", a, d, adjacent=False)
    sc = board.scenario
    if found.prohibited is not None or settings(sc)["bombardment"]["hexside"] == "none":
        return found
    sides = [hexside_drm(board, "bomb", f, d) for f in entry_hexes(sc, a, d)]
    vertex = los_config(sc.system, sc.data.get("overrides", {}).get("los")).vertex
    open_ = [s for s in sides if s.prohibited is None]
    if not open_ or (vertex == "either" and len(open_) < len(sides)):
        return next(s for s in sides if s.prohibited is not None)
    pick = min if vertex == "either" else max
    side = pick(open_, key=lambda s: s.value)  # the first of equal ones
    return TerrainDrm(found.parts + side.parts, found.shock_allowed and side.shock_allowed)


def bombard_reach(scenario: Scenario, uid: str) -> int:
    """How far a gun bombards: its own range rating, else ``bombardment.range``."""
    rule = settings(scenario)["bombardment"]
    return int(scenario.units[uid].get("ratings", {}).get("range", rule["range"]))


def targets_within(scenario: Scenario, here: str, reach: int, enemy: Collection[str]) -> list[str]:
    """The hexes of ``enemy`` at most ``reach`` from hex ``here``, in label order: the hexes a
    gun there may bombard are looked for among them. The hexes within reach are worked out
    once per scenario, and looked up where there are more enemy hexes than them (in a battle
    of 2,000 units a gun is not measured against every enemy hex)."""
    key = ("hh within", here, reach)
    near = scenario.memo.get(key)
    if near is None:
        h = scenario.hex_at(here)
        near = scenario.memo[key] = frozenset(
            scenario.label(x)
            for radius in range(reach + 1)
            for x in hex_ring(h, radius)
            if x in scenario.hexes
        )
    if len(enemy) < len(near):
        return sorted(label for label in enemy if label in near)
    return sorted(label for label in near if label in enemy)


def bombard_shot(board: Board, a: Hex, d: Hex, reach: int) -> TerrainDrm | None:
    """The Bomb column DRM of a bombardment from ``a`` at ``d`` (``bombard_parts``), or None
    where the map forbids it: beyond ``reach``, a hex or hexside the chart prohibits, or out
    of sight (``bombardment.needs_los``). Who fires, and when, the rules ask apart."""
    sc = board.scenario
    if hex_distance(a, d) > reach:
        return None
    parts = bombard_parts(board, a, d)
    if parts.prohibited is not None:
        return None
    needs_sight = settings(sc)["bombardment"]["needs_los"]
    if needs_sight and not line_of_sight(sc, a, d, sc.data.get("overrides", {}).get("los")).clear:
        return None
    return parts


def entry_hexes(scenario: Scenario, a: Hex, d: Hex) -> list[Hex]:
    """The hexes next to ``d`` that a line from the centre of ``a`` enters ``d`` from: one, or
    two when it comes in at a vertex or along a hexside (on the map, the nearer first)."""
    steps = trace(a, d)
    last, before = steps[-1], steps[-2].hex
    if not last.ambiguous:
        found = [before]
    elif len(last.alternatives) == 1:  # through the vertex of before, d and the other hex
        found = [before, last.alternatives[0]]
    else:  # along the side between the two alternatives
        found = list(last.alternatives)
    on_map = [h for h in found if h in scenario.hexes]
    return on_map or found


# -- the CRT, the owner's or the stand-in -------------------------------------------------------
#
# A game's table is named in its state (``state["crt"]``: key, name, stand_in, source) and comes
# from the game's options (the ``crt`` option, given at New game) or the scenario's own
# (``overrides.crt``); the parsed tables are kept in the scenario's memo under their key. There
# is no registry of tables outside the scenario: a save replays with its options, which put
# the table back in the memo of the scenario it is played on.

MEMO = "hh crt"  # scenario.memo[(MEMO, key)]: the tables with the owner's CRT of that key


def crt_key(crt: Any) -> str:
    """A short name for an owner's CRT: the hash of its canonical JSON."""
    text = json.dumps(crt, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def parse_own_crt(crt: Any) -> T.HexsideTables:
    """The system's tables with an owner's CRT in place of the stand-in.

    Raises:
        TableError: the table is malformed (``at`` names the place, from ``crt``).
    """
    data = T.raw_tables()
    data["crt"] = crt
    return T.parse_tables(data)


def scenario_crt(scenario: Any) -> Any:
    """The scenario's own combat results table (``overrides.crt``), or None."""
    overrides = scenario.data.get("overrides") if scenario is not None else None
    return overrides.get("crt") if isinstance(overrides, dict) else None


def crt_info(options: dict[str, Any], scenario: Scenario | None = None) -> dict[str, Any]:
    """The CRT a game plays with: the one chosen at New game (``options``), else the scenario's
    own (``overrides.crt``, then ``source`` is "scenario"), else the stand-in. With a
    ``scenario``, its parsed tables are kept in the scenario's memo for ``tables_of``.

    Raises:
        RulesError: the owner's table is malformed (``error.bad_crt``, naming the place), or not
            plain JSON within the limits (``error.too_large`` and the others of ``limits``).
    """
    own = options.get("crt")
    source = None
    if own is None:
        own = scenario_crt(scenario)
        source = "scenario" if own is not None else None
    if own is None:
        return {"key": None, "name": None, "stand_in": T.is_stand_in_crt()}
    try:
        _check_crt_limits(own, "crt")
        key = crt_key(own)
        tables = _memo(scenario).get((MEMO, key)) or parse_own_crt(own)
    except T.TableError as exc:
        raise bad_crt(exc.at, exc.problem, **exc.params) from None
    _memo(scenario)[(MEMO, key)] = tables
    name = own.get("name") if isinstance(own.get("name"), str) and own.get("name") else None
    if source is None:  # an owner's table from a file: named by its key when it has no name
        return {"key": key, "name": name or key, "stand_in": tables.stand_in}
    return {"key": key, "name": name, "stand_in": tables.stand_in, "source": source}


def _memo(scenario: Scenario | None) -> dict[Any, Any]:
    """The scenario's memo, or a throwaway one when there is no scenario (a table checked)."""
    return scenario.memo if scenario is not None else {}


def tables_of(scenario: Scenario, state: Mapping[str, Any]) -> T.HexsideTables:
    """The tables a game plays with: the system's, or with the CRT its state names (the one
    of the game's options or the scenario's own, kept in the scenario's memo at New game).

    Raises:
        RulesError: the state names a table that is neither this game's nor the scenario's.
    """
    key = (state.get("crt") or {}).get("key")
    if not key:
        return T.load_tables()
    found = scenario.memo.get((MEMO, key))
    if found is None:
        own = scenario_crt(scenario)
        if own is None or crt_key(own) != key:
            raise bad_crt("crt", "problem.unknown_crt", got=show(key))
        found = scenario.memo[(MEMO, key)] = parse_own_crt(own)
    return found


def _check_crt_limits(own: Any, place: str) -> None:
    """An owner's table as plain JSON within the limits, and a JSON object.

    Raises:
        InvalidActionError: over a limit (``muster.limits``), naming ``place``.
        TableError: not a JSON object.
    """
    check_plain(own, place)
    check_size(own, place, MAX_CRT_CHARS)
    if not isinstance(own, dict):
        raise T.TableError("crt", "problem.object")
    check_count(own.get("columns"), f"{place}.columns", "columns", MAX_CRT_COLUMNS)
    check_count(own.get("codes"), f"{place}.codes", "codes", MAX_CRT_COLUMNS)


def check_scenario_crt(own: Any) -> None:
    """Check a scenario's own combat results table (``overrides.crt``): the table ``check_crt``
    takes, within the same limits.

    Raises:
        ScenarioError: the table is malformed, naming the place (``overrides.crt.rows[2]...``).
        InvalidActionError: over a limit (``error.too_large`` and the others), naming the place.
    """
    try:
        _check_crt_limits(own, "overrides.crt")
        parse_own_crt(own)
    except T.TableError as exc:
        raise ScenarioError(f"overrides.{exc.at}", exc.problem, **exc.params) from None


def bad_crt(at: str, problem: str, **params: Any) -> RulesError:
    """The refusal of an owner's combat results table: ``error.crt_refused``, its place (``at``,
    from ``crt``) and its problem as a label (``muster.problems``), as a scenario's refusal."""
    error = RulesError(
        "error.crt_refused",
        "the combat results table, {place}: {text}",
        place=at,
        text=english(problem, params),
    )
    error.params = {"place": at, "problem": {"key": problem, "params": params}}
    return error


def result_effects(codes: tuple[str, ...], t: T.HexsideTables) -> dict[str, dict[str, Any]]:
    """What a CRT cell does to each side: loss points, "r" and "S"."""
    out = {s: {"loss": 0, "r": False, "S": False} for s in ("attacker", "defender")}
    for code in codes:
        entry = t.codes[code]
        sides = ("attacker", "defender") if entry["side"] == "both" else (entry["side"],)
        for s in sides:
            out[s]["loss"] += int(entry.get("steps", 0))
            if entry.get("result") in ("r", "S"):
                out[s][entry["result"]] = True
    return out


def distribution(scenario: Scenario, state: State, column: str, drm: int) -> list[dict[str, Any]]:
    """Exact chances of each result of a d6 on ``column`` with ``drm``, grouped by codes."""
    t = tables_of(scenario, state)
    found: dict[tuple[str, ...], Fraction] = {}
    rolls: dict[tuple[str, ...], list[int]] = {}
    for face in t.die.faces:
        codes = T.crt_result(column, face + drm, t)
        found[codes] = found.get(codes, Fraction(0)) + Fraction(1, len(t.die.faces))
        rolls.setdefault(codes, []).append(face)
    out = []
    for codes, p in found.items():
        effects = result_effects(codes, t)
        outcome = {side: effect_words(e) for side, e in effects.items()}
        out.append({"codes": list(codes), "rolls": rolls[codes], "p": float(p), "outcome": outcome})
    return out


def effect_words(e: dict[str, Any]) -> list[dict[str, Any]]:
    words: list[dict[str, Any]] = []
    if e["loss"]:
        words.append({"key": "effect.hh_loss", "params": {"n": e["loss"]}})
    if e["r"]:
        words.append({"key": "effect.hh_r", "params": {}})
    if e["S"]:
        words.append({"key": "effect.hh_S", "params": {}})
    return words
