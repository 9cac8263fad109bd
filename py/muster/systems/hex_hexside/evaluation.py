"""How Muster weighs a position of hex-hexside for one side (``muster.opponent``): the weights
are data (``evaluation.json``), each term the side's own less the other's (``muster.worth``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ... import worth
from . import combat, screen
from . import rules as R
from .position import board_for, new_combat, pair_ok

SYSTEM = "hex-hexside"


def evaluate(scenario: Any, state: Any, side: str) -> float:
    """The worth of ``state`` to ``side``: more is better for it, the other side's worth is
    its opposite (the game is zero-sum)."""
    w = worth.weights(SYSTEM)
    over = worth.ended(state, side, w)
    if over is not None:
        return over
    total = worth.points(R.RULES.score(scenario, state), side, w)
    army = {s: a["points"] for s, a in state["army"].items()}
    total += w["morale"] * worth.signed(army, side)
    near: dict[str, list[Any]] = {}
    for uid, u in state["units"].items():
        if u["out"]:
            continue
        spec = scenario.units[uid]
        sign = 1 if spec["side"] == side else -1
        total += sign * w["steps"] * (spec.get("steps", 1) - u["lost"])
        if u["status"] != "formed":
            total += sign * w["disrupted"]
        near.setdefault(spec["side"], []).append(scenario.hex_at(u["hex"]))
    cap = int(w["advance_cap"])
    # (the advance's weight is 0 here: not worked out for nothing)
    caps = (int(w["reach_cap"]), cap if w["advance"] else None)
    reach, advance = worth.hex_objectives(scenario, near, side, caps)
    total += w["reach"] * reach
    if w["advance"]:
        total += w["advance"] * advance
    return total


def _board_once(scenario: Any, state: Any) -> Callable[[], Any]:
    """The rules' board of ``state``, built the first time it is asked: a reading whose every
    answer is kept (the map's alone) builds none."""
    built: list[Any] = []

    def board() -> Any:
        if not built:
            built.append(board_for(scenario, state))
        return built[0]

    return board


def _may_cross(scenario: Any, state: Any, uid: str, target: str, board: Callable[[], Any]) -> bool:
    """``pair_ok``: ``uid`` next to ``target`` across a hexside the chart lets it attack; the
    chart's answer (the map's alone) worked out once per unit type and pair of hexes."""
    here = state["units"][uid]["hex"]
    key = ("threat.cross", scenario.units[uid]["type"], here, target)
    found = scenario.memo.get(key)
    if found is None:
        found = scenario.memo[key] = pair_ok(scenario, state, board(), uid, target)
    return found  # type: ignore[no-any-return]


def threat(scenario: Any, state: Any, side: str) -> float:
    """What the guns threaten at their side's next bombardment, for the search that looks at
    the other side's turn (``Level.threats``): for each gun that may fire (not routed, not
    next to an enemy), the expected harm of its best target in range and sight (the steps it
    takes, "S" as a step, an "r" as a unit put out of order), ``side``'s guns less the
    other's, times ``w["threat"]``. A gun that has fired this turn still counts: its threat
    is the next turn's."""
    w = worth.weights(SYSTEM)
    if not w["threat"]:
        return 0.0
    rule = combat.settings(scenario)["bombardment"]
    step = _step_worth(scenario, w)
    units = state["units"]
    places: dict[str, dict[str, list[str]]] = {}  # side -> hex -> its combat units
    stands: dict[str, set[str]] = {}  # side -> the hexes of its units, leaders too
    for uid, u in units.items():
        if u["out"]:
            continue
        stands.setdefault(scenario.units[uid]["side"], set()).add(u["hex"])
        if scenario.units[uid]["type"] != "leader":
            places.setdefault(scenario.units[uid]["side"], {}).setdefault(u["hex"], []).append(uid)
    harm: dict[str, float] = {}
    board = _board_once(scenario, state)
    for gside, hexes in places.items():
        enemy = {h: us for s, hs in places.items() if s != gside for h, us in hs.items()}
        # next to an enemy: a leader alone too, as the rules' board counts it
        others = {h for s, hs in stands.items() if s != gside for h in hs}
        total = 0.0
        for here_label, uids in hexes.items():
            near = worth.neighbours(scenario, here_label)
            if rule["not_adjacent_to_enemy"] and not near.isdisjoint(others):
                continue
            for uid in uids:
                spec = scenario.units[uid]
                if spec["type"] not in rule["who"] or units[uid]["status"] == "routed":
                    continue
                reach = combat.bombard_reach(scenario, uid)
                best = 0.0
                for label in combat.targets_within(scenario, here_label, reach, enemy):
                    drm = _shot(scenario, here_label, label, reach, board)
                    if drm is None:
                        continue
                    best = max(best, _harm(scenario, state, uid, enemy[label], drm, step, w))
                total += best
        harm[gside] = total
    return w["threat"] * worth.signed(harm, side)


def _shot(scenario: Any, a: str, d: str, reach: int, board: Callable[[], Any]) -> int | None:
    """The Bomb column DRM of a gun at ``a`` firing at ``d`` (within ``reach``), or None where
    it may not (``combat.bombard_shot``): the map's alone, worked out once per scenario."""
    key = ("threat.shot", a, d, reach)
    memo = scenario.memo
    if key in memo:
        return memo[key]  # type: ignore[no-any-return]
    shot = combat.bombard_shot(board(), scenario.hex_at(a), scenario.hex_at(d), reach)
    found = None if shot is None else int(sum(p.value for p in shot.parts))
    memo[key] = found
    return found


def _step_worth(scenario: Any, w: Any) -> float:
    """What one step lost is worth, as ``evaluate`` counts it: the step, the army morale point
    it costs and the points it gives the enemy."""
    per_step = combat.settings(scenario)["victory"]["enemy_step_points"]
    return float(w["steps"] + w["morale"] + w["points"] * per_step)


def _hurt(effect: dict[str, Any], step: float, w: Any) -> float:
    """What one side's CRT effect costs it (``combat.result_effects``): its loss points and an
    "S" at the worth of a step, an "r" at that of a unit out of order."""
    lost = effect["loss"] + (1 if effect["S"] else 0)
    return float(lost * step - (1 if effect["r"] else 0) * w["disrupted"])


def _harm(
    scenario: Any, state: Any, gun: str, targets: list[str], drm: int, step: float, w: Any
) -> float:
    """The expected harm of ``gun`` bombarding the units ``targets`` (one hex) with ``drm``."""
    defenders = targets
    if combat.settings(scenario)["bombardment"]["defender_strength"] == "strongest_unit":
        defenders = [max(targets, key=lambda u: combat.strength(scenario, state, u))]
    odds = combat.odds(scenario, state, [gun], defenders)
    key = ("threat.harm", (state.get("crt") or {}).get("key"), odds["column"], drm)
    memo = scenario.memo
    found = memo.get(key)
    if found is None:
        t = combat.tables_of(scenario, state)
        found = memo[key] = sum(
            outcome["p"]
            * _hurt(combat.result_effects(tuple(outcome["codes"]), t)["defender"], step, w)
            for outcome in combat.distribution(scenario, state, odds["column"], drm)
        )
    return float(found)


ASSAULTS = "threat.assaults"  # the scenario's memo of close combats valued (``assault``)
ASSAULTS_KEPT = 5000  # at most how many it keeps before it starts again (a few MB)


def assault(scenario: Any, state: Any, side: str) -> float:
    """What each side's close combats could do at its next combat phase from where its units
    stand, for the level that looks at it (``Level.assaults``): for each enemy hex, every unit
    of the side that could attack it (of the types and states ``designation`` allows, next to
    it across a hexside the chart lets it attack), the combat's expected result by the rules'
    own preview (its odds, DRM and the CRT's exact chances): the defender's steps and "r" less
    the attacker's, counted where it gains. A unit counts in one combat only, the best first.
    ``side``'s less the other's, times ``w["assault"]``."""
    w = worth.weights(SYSTEM)
    if not w["assault"]:
        return 0.0
    rule = combat.settings(scenario)["designation"]
    step = _step_worth(scenario, w)
    units = state["units"]
    hexes: dict[str, list[str]] = {}  # hex -> every unit in it (leaders too)
    sides: dict[str, str] = {}  # hex -> the side of its combat units
    for uid, u in units.items():
        if u["out"]:
            continue
        hexes.setdefault(u["hex"], []).append(uid)
        if scenario.units[uid]["type"] != "leader":
            sides[u["hex"]] = scenario.units[uid]["side"]
    gain: dict[str, float] = {s: 0.0 for s in set(sides.values())}
    board = _board_once(scenario, state)
    for aside in gain:
        found: list[tuple[float, str, frozenset[str]]] = []
        able = [
            uid
            for uid, u in units.items()
            if not u["out"]
            and scenario.units[uid]["side"] == aside
            and scenario.units[uid]["type"] in rule["may_attack"]
            and u["status"] not in rule["not_states"]
        ]
        order = {uid: i for i, uid in enumerate(able)}
        at: dict[str, list[str]] = {}  # hex -> the units of ``able`` in it
        for uid in able:
            at.setdefault(units[uid]["hex"], []).append(uid)
        for target, tside in sides.items():
            if tside == aside:
                continue
            beside = [uid for h in worth.neighbours(scenario, target) for uid in at.get(h, ())]
            # in the order the rules' designation puts them (the provisional lead unit is the
            # first of the best morale)
            attackers = [
                uid
                for uid in sorted(beside, key=order.__getitem__)
                if _may_cross(scenario, state, uid, target, board)
            ]
            if not attackers:
                continue
            value = _assault(scenario, state, aside, attackers, target, hexes, step, w, board)
            if value > 0:
                found.append((value, target, frozenset(attackers)))
        used: set[str] = set()
        for value, _target, group in sorted(found, key=lambda f: (-f[0], f[1])):
            if group & used:
                continue
            used |= group
            gain[aside] += value
    return w["assault"] * worth.signed(gain, side)


def _assault(
    scenario: Any,
    state: Any,
    aside: str,
    attackers: list[str],
    target: str,
    hexes: dict[str, list[str]],
    step: float,
    w: Any,
    board: Callable[[], Any],
) -> float:
    """The expected result of ``attackers`` (of ``aside``) attacking ``target`` at the next
    combat phase, by ``screen.preview`` of the combat as designated (kept in the scenario's
    memo by what it reads: every unit of the hexes involved, its steps lost and state), on
    the rules' board of ``state`` (``board``: the combat's own state differs from it only
    where the board does not look)."""
    units = state["units"]
    involved = sorted({units[a]["hex"] for a in attackers} | {target})
    key = (
        (state.get("crt") or {}).get("key"),
        tuple(attackers),
        target,
        tuple(
            (
                uid,
                units[uid]["hex"],
                units[uid]["lost"],
                units[uid]["status"],
                units[uid]["engaged"],
            )
            for h in involved
            for uid in sorted(hexes.get(h, ()))
        ),
    )
    memo = scenario.memo.setdefault(ASSAULTS, {})
    found = memo.get(key)
    if found is not None:
        return float(found)
    if len(memo) >= ASSAULTS_KEPT:
        memo.clear()
    fresh = {
        uid: {**u, "attacked": False, "bombarded": False, "wcm": None, "must": False}
        for uid, u in units.items()
    }
    scratch: Any = {**state, "units": fresh, "side": aside, "phase": "combat", "decision": None}
    scratch["chance"] = None
    scratch["combat"] = new_combat(scratch, list(attackers), [target], None)
    shown = screen.preview(scenario, scratch, {"type": "confirm"}, board())
    t = combat.tables_of(scenario, state)
    value = 0.0
    for outcome in shown["outcomes"]:
        e = combat.result_effects(tuple(outcome["codes"]), t)
        value += outcome["p"] * (_hurt(e["defender"], step, w) - _hurt(e["attacker"], step, w))
    memo[key] = value
    return value
