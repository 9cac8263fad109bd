"""hex-hexside play: alternate player turns, one handler per action (``sequence.json``).

Player turn (defaults; the aid gives alternate player turns of about an hour):
  rally        the phasing player's disordered and routed units may try to rally
  movement     each unit moves once (terrain chart, ZOC exit table) or changes formation
  bombardment  artillery fires at range with the chart's Bomb column
  combat       close combats, each the aid's 12 steps (``closecombat.py``)
  end          the other side plays; after both, the turn ends (objectives, army morale)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...errors import ScenarioError
from ...hexgrid import hex_distance
from ...los import line_of_sight
from ...movement import Board, reachable
from ...ruleset import RulesBase, held_facts
from ...scenario import Scenario
from .. import common
from . import closecombat as cc
from . import combat, reference, views
from . import tables as T
from .combat import settings
from .movement import RULES as MOVEMENT

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]
PHASES = ("rally", "movement", "bombardment", "combat")
PREVIEWABLE = ("confirm", "bombard", "terrain", "rally", "deep_charge")


def sides(scenario: Scenario) -> list[str]:
    """The sides in scenario order: the first plays first each turn."""
    return [s["id"] for s in scenario.data["sides"]]


def board_for(scenario: Scenario, state: State) -> Board:
    """The map with the units where the state puts them, with the flags movement reads."""
    positions = {}
    flags: dict[str, dict[str, Any]] = {}
    stacks: dict[tuple[str, str], int] = {}
    for uid, u in state["units"].items():
        if u["out"]:
            flags[uid] = {"out": True}
            continue
        positions[uid] = u["hex"]
        spec = scenario.units[uid]
        if spec["type"] != "leader":
            key = (spec["side"], u["hex"])
            stacks[key] = stacks.get(key, 0) + 1
        flags[uid] = {
            "disordered": u["status"] == "disordered",
            "routed": u["status"] == "routed",
            "engaged": u["engaged"],
            "formation": u["formation"],
        }
        if u["moved"]:
            flags[uid]["allowance"] = 0
    for uid, f in flags.items():
        spec = scenario.units[uid]
        if not f.get("out") and spec["type"] != "leader":
            f["support"] = stacks[(spec["side"], state["units"][uid]["hex"])] > 1
    return Board(scenario, positions, flags)


def army_levels(scenario: Scenario) -> dict[str, dict[str, int]]:
    """Each side's army morale: points, demoralized and broken values (scenario or default)."""
    memo = scenario.memo.get("hh army")
    if memo is not None:
        return memo
    rule = settings(scenario)["army_morale"]["fallback"]
    out = {}
    for side in scenario.data["sides"]:
        own = side.get("army_morale")
        if own is None:
            steps = sum(
                int(u.get("steps", 1))
                for u in scenario.units.values()
                if u["side"] == side["id"] and u["type"] != "leader"
            )
            own = {
                "points": steps,
                "demoralized": int(steps * rule["demoralized_fraction"]),
                "broken": int(steps * rule["broken_fraction"]),
            }
            out[side["id"]] = own
            continue
        ok = isinstance(own, dict) and all(
            isinstance(own.get(k), int) and not isinstance(own.get(k), bool)
            for k in ("points", "demoralized", "broken")
        )
        if not ok or not own["points"] > own["demoralized"] > own["broken"] >= 0:
            raise ScenarioError(
                f"side {side['id']} army_morale",
                "expected whole numbers points > demoralized > broken >= 0",
            )
        out[side["id"]] = own
    scenario.memo["hh army"] = out
    return out


class HexHexsideRules(RulesBase):
    """The hex-hexside ruleset: states, legal actions and handlers."""

    system = "hex-hexside"
    previewable = PREVIEWABLE
    hidden_information = False
    options = frozenset({"crt"})  # an owner's combat results table (crt_info checks it)
    words = views.WORDS

    def board(self, scenario: Scenario, state: State) -> Board:
        """The map with the units where the state puts them."""
        return board_for(scenario, state)

    def decider(self, scenario: Scenario, state: State) -> str | None:
        """The side that decides now (the prompt's); none once the game is over."""
        prompt = views.prompt(scenario, state)
        return prompt["side"] if prompt else None

    def initial_state(self, scenario: Scenario, options: dict[str, Any]) -> State:
        """Units where the scenario sets them; the first side's rally phase.

        Raises:
            ScenarioError: the scenario's army morale is malformed.
            RulesError: the owner's CRT in ``options`` (or the scenario's) is malformed.
        """
        start = settings(scenario)["formation_change"]["start"]
        units = {
            uid: {
                "hex": spec["hex"],
                "lost": 0,
                "status": "formed",
                "engaged": False,
                "formation": start if spec["type"] == "infantry" else None,
                "out": False,
                "moved": False,
                "attacked": False,
                "bombarded": False,
                "extended": False,
                "wcm": None,
                "deep": 0,
                "must": False,
            }
            for uid, spec in scenario.units.items()
        }
        levels = army_levels(scenario)
        state: State = {
            "turn": 1,
            "turns": settings(scenario)["turns"],
            "side": sides(scenario)[0],
            "pturn": 1,
            "phase": "rally",
            "units": units,
            "army": {s: {"points": v["points"], "level": "normal"} for s, v in levels.items()},
            "held": {},
            "rallied": [],
            "combat": None,
            "queue": [],
            "decision": None,
            "chance": None,
            "result": None,
            "crt": crt_info(options, scenario),
        }
        self._update_held(scenario, state)
        self._start_player_turn(scenario, state)
        return state

    # -- sequence -------------------------------------------------------------------------------

    def _start_player_turn(self, scenario: Scenario, state: State) -> list[Event]:
        side = state["side"]
        board = board_for(scenario, state)
        zoc = board.enemy_zoc(side, MOVEMENT)
        events: list[Event] = []
        for uid, u in state["units"].items():
            if u["out"] or scenario.units[uid]["side"] != side:
                continue
            u.update(moved=False, attacked=False, bombarded=False, extended=False)
            if u["engaged"] and board.unit(uid).hex not in zoc:
                u["engaged"] = False
                events.append({"key": "log.hh_formed", "params": {"unit": uid}})
        state["rallied"] = []
        return events + self._enter(scenario, state, "rally")

    def _enter(self, scenario: Scenario, state: State, phase: str) -> list[Event]:
        """Begin ``phase``; a rally or bombardment phase with nothing to do passes by itself."""
        state["phase"] = phase
        events = [{"key": "log.hh_phase", "params": {"phase": phase}}]
        if phase == "rally" and not self._rally_actions(scenario, state):
            return events + self._enter(scenario, state, "movement")
        if phase == "bombardment" and not self._bombard_actions(scenario, state):
            return events + self._enter(scenario, state, "combat")
        return events

    def _end_player_turn(self, scenario: Scenario, state: State) -> list[Event]:
        side = state["side"]
        for uid, u in state["units"].items():
            if scenario.units[uid]["side"] != side:
                continue
            u["must"] = False
            if u["wcm"] is not None and u["wcm"] < state["pturn"]:
                u["wcm"] = None
        order = sides(scenario)
        index = order.index(side)
        events: list[Event] = []
        if index + 1 < len(order):
            state["side"] = order[index + 1]
        else:
            self._update_held(scenario, state)
            events.append({"key": "log.turn_end", "params": {"turn": state["turn"]}})
            if state["turn"] >= state["turns"]:
                return events + self._game_over(scenario, state, None)
            state["turn"] += 1
            state["side"] = order[0]
            events.append({"key": "log.turn_start", "params": {"turn": state["turn"]}})
        state["pturn"] += 1
        events.append({"key": "log.hh_player_turn", "params": {"side": state["side"]}})
        return events + self._start_player_turn(scenario, state)

    def _game_over(self, scenario: Scenario, state: State, broken: str | None) -> list[Event]:
        state["phase"] = "over"
        state["combat"] = None
        state["decision"] = None
        state["queue"] = []
        state["chance"] = None
        rule = settings(scenario)["victory"]
        points = {s: 0 for s in sides(scenario)}
        for objective in scenario.data.get("objectives", []):
            holder = state["held"].get(objective["hex"])
            if holder in points:
                points[holder] += objective["points"]
        for uid, u in state["units"].items():
            for side in points:
                if side != scenario.units[uid]["side"]:
                    points[side] += rule["enemy_step_points"] * u["lost"]
        if broken is not None:
            winner = next(s for s in points if s != broken)
        else:
            best = max(points.values())
            leaders = [s for s, p in points.items() if p == best]
            winner = leaders[0] if len(leaders) == 1 else None
        state["result"] = {"points": points, "winner": winner, "broken": broken}
        return [{"key": "log.game_over", "params": {"winner": winner, "points": points}}]

    def _update_held(self, scenario: Scenario, state: State) -> None:
        for objective in scenario.data.get("objectives", []):
            here = {
                scenario.units[uid]["side"]
                for uid, u in state["units"].items()
                if not u["out"]
                and u["hex"] == objective["hex"]
                and scenario.units[uid]["type"] != "leader"
            }
            if len(here) == 1:
                state["held"][objective["hex"]] = here.pop()

    def army_check(self, scenario: Scenario, state: State) -> list[Event]:
        """Army morale levels after losses; a broken army loses at once (default)."""
        levels = army_levels(scenario)
        events: list[Event] = []
        for side, army in state["army"].items():
            own = levels[side]
            if army["points"] >= own["points"]:
                continue  # no loss yet (a side with no steps has no army morale to lose)
            level = "normal"
            if army["points"] <= own["broken"]:
                level = "broken"
            elif army["points"] <= own["demoralized"]:
                level = "demoralized"
            if level != army["level"]:
                army["level"] = level
                events.append({"key": "log.hh_army", "params": {"side": side, "level": level}})
        broken = [s for s, a in state["army"].items() if a["level"] == "broken"]
        if broken and settings(scenario)["army_morale"]["broken_ends_game"]:
            events += self._game_over(scenario, state, broken[0])
        return events

    # -- legal actions --------------------------------------------------------------------------

    def legal_actions(self, scenario: Scenario, state: State) -> list[Action]:
        """Every action the player (or, at an interrupt, the other player) may take now."""
        if state["phase"] == "over":
            return []
        if state["decision"] is not None:
            return cc.decision_actions(scenario, state)
        if state["combat"] is not None:
            return cc.combat_actions(scenario, state)
        phase = state["phase"]
        actions: list[Action] = []
        if phase == "rally":
            actions = self._rally_actions(scenario, state)
        elif phase == "movement":
            actions = self._movement_actions(scenario, state)
        elif phase == "bombardment":
            actions = self._bombard_actions(scenario, state)
        elif phase == "combat":
            actions = cc.attack_actions(scenario, state)
            if cc.must_attack_targets(scenario, state):
                return actions
        return actions + [{"type": "end_phase"}]

    def _own(self, scenario: Scenario, state: State) -> list[str]:
        side = state["side"]
        return [
            uid
            for uid, u in state["units"].items()
            if not u["out"] and scenario.units[uid]["side"] == side
        ]

    def _rally_actions(self, scenario: Scenario, state: State) -> list[Action]:
        return [
            {"type": "rally", "unit": uid}
            for uid in self._own(scenario, state)
            if state["units"][uid]["status"] in ("disordered", "routed")
            and uid not in state["rallied"]
        ]

    def _movement_actions(self, scenario: Scenario, state: State) -> list[Action]:
        board = board_for(scenario, state)
        rule = settings(scenario)["formation_change"]
        actions: list[Action] = []
        for uid in self._own(scenario, state):
            u = state["units"][uid]
            if u["moved"]:
                continue
            here = board.unit(uid).hex
            reach = reachable(board, uid, MOVEMENT)
            actions += [
                {"type": "move", "unit": uid, "to": board.label(h)}
                for h in sorted(reach)
                if h != here
            ]
            if scenario.units[uid]["type"] in rule["who"]:
                other = [f for f in rule["formations"] if f != u["formation"]]
                actions += [{"type": "formation", "unit": uid, "to": f} for f in other]
        return actions

    def _bombard_actions(self, scenario: Scenario, state: State) -> list[Action]:
        rule = settings(scenario)["bombardment"]
        board = board_for(scenario, state)
        los_config = scenario.data.get("overrides", {}).get("los")
        enemy_hexes = sorted(
            {
                u["hex"]
                for uid, u in state["units"].items()
                if not u["out"]
                and scenario.units[uid]["side"] != state["side"]
                and scenario.units[uid]["type"] != "leader"
            }
        )
        actions: list[Action] = []
        for uid in self._own(scenario, state):
            u = state["units"][uid]
            spec = scenario.units[uid]
            if spec["type"] not in rule["who"] or u["bombarded"] or u["status"] == "routed":
                continue
            here = scenario.hex_at(u["hex"])
            if rule["not_adjacent_to_enemy"] and board.adjacent_to_enemy(here, state["side"]):
                continue
            reach = int(spec.get("ratings", {}).get("range", rule["range"]))
            for label in enemy_hexes:
                there = scenario.hex_at(label)
                if hex_distance(here, there) > reach:
                    continue
                if combat.bombard_parts(board, here, there).prohibited is not None:
                    continue
                if rule["needs_los"] and not line_of_sight(scenario, here, there, los_config).clear:
                    continue
                actions.append({"type": "bombard", "unit": uid, "target": label})
        return actions

    # -- handlers ------------------------------------------------------------------------------

    def apply(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """Carry out a legal action on ``state``."""
        return common.handler_for(action, HANDLERS, cc.HANDLERS)(self, scenario, state, action)

    def roll(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """A chance point settled: go on with what it was rolled for."""
        purpose = action["chance"]["purpose"]
        if purpose == "rally":
            return self._rally_result(scenario, state, action)
        return cc.roll(self, scenario, state, action)

    def end_phase(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """The phasing player ends the present phase."""
        index = PHASES.index(state["phase"])
        if index + 1 < len(PHASES):
            return self._enter(scenario, state, PHASES[index + 1])
        return self._end_player_turn(scenario, state)

    def move(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """Move a unit along its cheapest path."""
        board = board_for(scenario, state)
        uid = action["unit"]
        reach = reachable(board, uid, MOVEMENT)
        cost = reach[scenario.hex_at(action["to"])].cost
        unit = state["units"][uid]
        event = {
            "key": "log.move",
            "params": {"unit": uid, "from": unit["hex"], "to": action["to"], "cost": cost},
        }
        unit["hex"] = action["to"]
        unit["moved"] = True
        return [event]

    def formation(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """Infantry changes between line and column as its move (default)."""
        unit = state["units"][action["unit"]]
        unit["formation"] = action["to"]
        unit["moved"] = True
        params = {"unit": action["unit"], "formation": action["to"]}
        return [{"key": "log.hh_formation", "params": params}]

    def rally(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """Try to rally a unit: one d6 against its morale plus the aid's rally modifiers."""
        uid = action["unit"]
        state["rallied"].append(uid)
        parts = self.rally_parts(scenario, state, uid)
        target = combat.morale(scenario, uid) + sum(p.value for p in parts)
        state["chance"] = {"die": "d6", "purpose": "rally", "unit": uid, "target": int(target)}
        return [
            {"key": "log.hh_rally", "params": {"unit": uid, "need": int(target)}},
            *(cc.modifier_event(p) for p in parts),
        ]

    def rally_parts(self, scenario: Scenario, state: State, uid: str) -> list[Any]:
        """The rally modifiers that apply to ``uid`` now (rally modifiers table)."""
        u = state["units"][uid]
        side = scenario.units[uid]["side"]
        here = scenario.hex_at(u["hex"])
        leader = combat.leader_with(scenario, state, uid)
        nearest = None
        shaken = False
        for other, o in state["units"].items():
            if o["out"] or other == uid:
                continue
            d = hex_distance(here, scenario.hex_at(o["hex"]))
            if scenario.units[other]["side"] != side:
                nearest = d if nearest is None else min(nearest, d)
            elif d <= 1 and o["status"] in ("disordered", "routed"):
                shaken = True
        facts = T.RallyFacts(
            leader=None if leader is None else combat._mm(scenario, leader),
            enemy_distance=None if nearest is None else max(nearest, 1),
            unit_type=scenario.units[uid]["type"],
            terrain=scenario.hexes[here].terrain,
            friendly_shaken=shaken,
            army=state["army"][side]["level"],
        )
        return T.rally_modifiers(facts, combat.tables_of(state))

    def _rally_result(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        chance = action["chance"]
        uid = chance["unit"]
        unit = state["units"][uid]
        passed = action["value"] <= chance["target"]
        if passed:
            unit["status"] = "disordered" if unit["status"] == "routed" else "formed"
        key = "log.hh_rally_passed" if passed else "log.hh_rally_failed"
        params = {"unit": uid, "roll": action["value"], "need": chance["target"]}
        return [{"key": key, "params": {**params, "status": unit["status"]}}]

    # -- views ----------------------------------------------------------------------------------

    def preview(self, scenario: Scenario, state: State, action: Action) -> dict[str, Any]:
        """Modifiers and exact odds of an attack, bombardment, rally or deep charge."""
        if action["type"] == "rally":
            parts = self.rally_parts(scenario, state, action["unit"])
            target = combat.morale(scenario, action["unit"]) + sum(p.value for p in parts)
            return views.test_preview(state, parts, int(target), "rally")
        return views.preview(scenario, state, action)

    def reference(self, scenario: Scenario, state: State | None) -> dict[str, Any]:
        """The charts of hex-hexside for the scenario and the game's CRT (``reference.py``)."""
        return reference.reference(scenario, state)

    def prompt(self, scenario: Scenario, state: State) -> dict[str, Any] | None:
        """What is asked now, which side decides (pass-and-play hands the tablet over), and why
        when the choice is forced."""
        return views.prompt(scenario, state)

    def choices(self, scenario: Scenario, state: State, legal: list[Action]) -> list[Any]:
        """The legal actions in labelled choices (``views.choices``)."""
        return views.choices(self, scenario, state, legal)

    def chance_results(self, scenario: Scenario, state: State) -> list[Any]:
        """What each face of the die now rolled does (``views.chance_results``)."""
        return views.chance_results(scenario, state)

    def view_extra(
        self, scenario: Scenario, state: State, viewer: str | None = None
    ) -> dict[str, Any]:
        """What the screen shows beside the state: the combat (a close combat or a
        bombardment), the CRT, the Locked units, markers on units and arrows on the map."""
        locked = locked_units(scenario, state)
        return {
            "combat": views.combat_view(scenario, state),
            "crt": state["crt"],
            "previewable": list(PREVIEWABLE),
            "locked": locked,
            "markers": views.markers(scenario, state, locked),
            "arrows": views.arrows(scenario, state),
            # Each side's army morale (and its level) and objectives held, under the prompt.
            "facts": [
                {
                    "key": "fact.army_level",
                    "params": {"side": side, "morale": army["points"], "level": army["level"]},
                }
                for side, army in state["army"].items()
            ]
            + held_facts(state, sides(scenario)),
        }


def locked_units(scenario: Scenario, state: State) -> list[str]:
    """Units Locked in an enemy zone of control: the ZOC exit table lets them no way out."""
    board = board_for(scenario, state)
    out = []
    for uid, unit in board.units.items():
        if unit.type == "leader":
            continue
        zoc = board.enemy_zoc(unit.side, MOVEMENT)
        if unit.hex in zoc and MOVEMENT.exit_cost(board, unit, zoc[unit.hex]) is None:
            out.append(uid)
    return sorted(out)


def scenario_crt(scenario: Any) -> Any:
    """The scenario's own combat results table (``overrides.crt``), or None."""
    overrides = scenario.data.get("overrides") if scenario is not None else None
    return overrides.get("crt") if isinstance(overrides, dict) else None


def crt_info(options: dict[str, Any], scenario: Any = None) -> dict[str, Any]:
    """The CRT a game plays with: the one chosen at New game (``options``), else the scenario's
    own (``overrides.crt``, then ``source`` is "scenario"), else the stand-in.

    Raises:
        RulesError: the owner's table is malformed (``error.bad_crt``, naming the place), or not
            plain JSON within the limits (``error.too_large`` and the others of ``limits``).
    """
    from ...errors import RulesError

    own = options.get("crt")
    source = None
    if own is None:
        own = scenario_crt(scenario)
        source = "scenario" if own is not None else None
    if own is None:
        return {"key": None, "name": None, "stand_in": T.is_stand_in_crt()}
    try:
        _check_crt_limits(own, "crt")
        key, tables = combat.register_crt(own)
    except T.TableError as exc:
        raise RulesError(
            "error.bad_crt", "the combat results table: {detail}", detail=str(exc)
        ) from None
    name = own.get("name") if isinstance(own.get("name"), str) and own.get("name") else None
    if source is None:  # an owner's table from a file: named by its key when it has no name
        return {"key": key, "name": name or key, "stand_in": tables.stand_in}
    return {"key": key, "name": name, "stand_in": tables.stand_in, "source": source}


def _check_crt_limits(own: Any, place: str) -> None:
    """An owner's table as plain JSON within the limits, and a JSON object.

    Raises:
        InvalidActionError: over a limit (``muster.limits``), naming ``place``.
        TableError: not a JSON object.
    """
    from ...limits import MAX_CRT_CHARS, MAX_CRT_COLUMNS, check_count, check_plain, check_size

    check_plain(own, place)
    check_size(own, place, MAX_CRT_CHARS)
    if not isinstance(own, dict):
        raise T.TableError("crt", "must be a JSON object")
    check_count(own.get("columns"), f"{place}.columns", "columns", MAX_CRT_COLUMNS)
    check_count(own.get("codes"), f"{place}.codes", "codes", MAX_CRT_COLUMNS)


def check_scenario_crt(own: Any) -> None:
    """Check a scenario's own combat results table (``overrides.crt``): the table ``check_crt``
    takes, within the same limits.

    Raises:
        ScenarioError: the table is malformed, naming the place (``overrides.crt.rows[2]...``).
        InvalidActionError: over a limit (``error.too_large`` and the others), naming the place.
    """
    from ...errors import ScenarioError

    try:
        _check_crt_limits(own, "overrides.crt")
        combat.parse_own_crt(own)
    except T.TableError as exc:
        raise ScenarioError(f"overrides.{exc.at}", exc.problem) from None


HANDLERS: dict[str, Callable[..., list[Event]]] = {
    "roll": HexHexsideRules.roll,
    "end_phase": HexHexsideRules.end_phase,
    "move": HexHexsideRules.move,
    "formation": HexHexsideRules.formation,
    "rally": HexHexsideRules.rally,
}

RULES = HexHexsideRules()
