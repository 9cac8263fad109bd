"""hex-hexside close combat and bombardment on the map: terrain DRM by the chart's combining
rule, odds, the other DRM (defaults in ``sequence.json``), and exact result distributions.

Terrain (chart, "how terrain combines"): the least favourable to the attacker of the
defender's hex terrain (plain numbers and ( )) and the attacker's hex terrain (( ) and [ ]),
plus the hexside between the two hexes; in a multi-hex attack the attacker chooses the pair
of hexes. ``*`` forbids cavalry shock into or from that terrain, ``P`` forbids the attack.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from math import ceil
from typing import Any

from ...hexgrid import Hex, Hexside
from ...movement import Board, Part
from ...scenario import Scenario
from .. import common
from . import tables as T

FOLDER = "hex_hexside"
State = dict[str, Any]
TEC = "terrain effects chart"
INTO = ("into", "from_or_into")
FROM = ("from", "from_or_into")
# The chart's markings, named so each rule reference reads on its own (rule_ref.<slug>).
MARK = {"into": "", "from_or_into": " ( ) either hex", "from": " [ ] attacker's hex"}


def sequence_data() -> dict[str, Any]:
    """The turn sequence defaults (``sequence.json``)."""
    return common.sequence_data(FOLDER)


def settings(scenario: Scenario) -> dict[str, Any]:
    """The sequence defaults with the scenario's overrides and its own turn count."""
    return common.settings(scenario, FOLDER)


@dataclass(frozen=True, slots=True)
class TerrainDrm:
    """The terrain DRM of one pair of hexes: its parts, whether shock is allowed, or the ban."""

    parts: tuple[Part, ...]
    shock_allowed: bool
    prohibited: Part | None = None

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
    """The chart rows of the hexside from ``a`` to ``d``: slope top when ``d`` is the up side."""
    features = scenario.side_features.get((a, d), ())
    names = []
    for f in features:
        if f == "slope":
            up = scenario.hexsides[Hexside.between(a, d)].up
            names.append("slope_top" if up == d else "slope_bottom")
        elif f == "stream" and "bridge" in features:
            continue  # note 3: a stream counts only where there is no bridge
        else:
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
            ban = Part(0, "drm.prohibited", board.rule(name, column, TEC), (("terrain", name),))
            return TerrainDrm((), False, ban)
        if cell.applies in INTO:
            candidates.append((cell.value or 0, name, cell.applies))
        shock = shock and "no_shock" not in board.cell(name, "cav").flags
    for name in sc.hexes[a].terrain:
        cell = board.cell(name, column)
        if cell.applies in FROM and not cell.prohibited:
            candidates.append((cell.value or 0, name, cell.applies))
        shock = shock and "no_shock" not in board.cell(name, "cav").flags
    parts: list[Part] = []
    if candidates:
        value, name, how = min(candidates, key=lambda c: c[0])
        if value:
            rule = board.rule(name, column, TEC + MARK[how])
            parts.append(Part(value, "drm.terrain", rule, (("terrain", name),)))
    if adjacent:
        for name in hexside_names(sc, a, d):
            cell = board.cell(name, column)
            if cell.prohibited:
                ban = Part(0, "drm.prohibited", board.rule(name, column, TEC), (("feature", name),))
                return TerrainDrm((), False, ban)
            shock = shock and "no_shock" not in board.cell(name, "cav").flags
            if cell.value:
                rule = board.rule(name, column, TEC)
                parts.append(Part(cell.value, "drm.hexside", rule, (("feature", name),)))
    return TerrainDrm(tuple(parts), shock)


def strength(scenario: Scenario, state: State, uid: str) -> int:
    """A unit's combat strength now: full strength times steps left over steps, rounded up."""
    spec = scenario.units[uid]
    full = int(spec.get("ratings", {}).get("strength", 0))
    steps = int(spec.get("steps", 1)) or 1
    left = steps - state["units"][uid]["lost"]
    return ceil(full * max(left, 0) / steps)


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


def odds(scenario: Scenario, state: State, attackers: list[str], defenders: list[str]) -> dict:
    """Step 3: the strengths of both sides and the CRT column (``odds`` in combat.json)."""
    t = tables_of(state)
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
) -> tuple[list[Part], TerrainDrm]:
    """Step 5: every DRM of a close combat, one ``Part`` each (terrain, lead units, leaders)."""
    rule = settings(scenario)["drm"]
    a_spec = scenario.units[lead_a]
    terrain = terrain_drm(board, column_for(a_spec["type"]), *pair)
    parts = list(terrain.parts)
    ua = state["units"][lead_a]
    if lead_d is not None and rule["lead_morale_difference"]:
        diff = morale(scenario, lead_a) - morale(scenario, lead_d)
        if diff:
            parts.append(Part(diff, "drm.morale", "default", (("a", lead_a), ("d", lead_d))))
    for uid, sign in ((lead_a, 1), (lead_d, -1)):
        if uid is None:
            continue
        status = state["units"][uid]["status"]
        if status in ("disordered", "routed"):
            value = rule["disordered_lead"] if status == "disordered" else rule["routed_lead"]
            parts.append(
                Part(
                    sign * value, "drm.lead_status", "default", (("unit", uid), ("status", status))
                )
            )
        leader = leader_with(scenario, state, uid)
        if leader is not None and rule["leader_with_lead"]:
            value = sign * rule["leader_with_lead"]
            parts.append(Part(value, "drm.leader", "default", (("unit", leader),)))
    if ua.get("wcm") is not None and rule["winning_combat_marker"]:
        parts.append(Part(rule["winning_combat_marker"], "drm.wcm", "default", (("unit", lead_a),)))
    shock = int(a_spec.get("ratings", {}).get("shock", 0))
    if a_spec["type"] == "cavalry" and shock:
        formed = ua["status"] == "formed" and not ua["engaged"]
        if terrain.shock_allowed and formed:
            parts.append(Part(shock, "drm.shock", "default", (("unit", lead_a),)))
        else:
            why = "terrain" if not terrain.shock_allowed else "state"
            rule = TEC + " (*) no shock" if why == "terrain" else "default"
            parts.append(Part(0, "drm.no_shock", rule, (("cause", why),)))
    return parts, terrain


def bombard_parts(board: Board, a: Hex, d: Hex) -> TerrainDrm:
    """The Bomb column DRM of a bombardment from ``a`` at ``d`` (not adjacent: no hexside)."""
    return terrain_drm(board, "bomb", a, d, adjacent=False)


# -- the CRT, the owner's or the stand-in -------------------------------------------------------

_OWN: dict[str, T.HexsideTables] = {}


def crt_key(crt: Any) -> str:
    """A short name for an owner's CRT: the hash of its canonical JSON."""
    import hashlib

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


def register_crt(crt: Any) -> tuple[str, T.HexsideTables]:
    """Check an owner's CRT and keep the tables that use it; their key.

    Raises:
        TableError: the table is malformed (the message names the place).
    """
    key = crt_key(crt)
    if key not in _OWN:
        _OWN[key] = parse_own_crt(crt)
    return key, _OWN[key]


def tables_of(state: State) -> T.HexsideTables:
    """The tables a game plays with: the system's, or with the owner's CRT."""
    key = state.get("crt", {}).get("key")
    return _OWN[key] if key else T.load_tables()


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


def distribution(state: State, column: str, drm: int) -> list[dict[str, Any]]:
    """Exact chances of each result of a d6 on ``column`` with ``drm``, grouped by codes."""
    t = tables_of(state)
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
