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

from ... import play, standing
from ...dice import chance_handler
from ...errors import ScenarioError
from ...hexgrid import hex_distance
from ...hexmap import Scenario
from ...los import line_of_sight
from ...movement import Board
from ...ruleset import RulesBase, held_facts, place_words, refusal, unit_words
from ...shapes import Action, Refusal
from . import closecombat as cc
from . import combat, movement, reference, screen
from . import tables as T
from .combat import FOLDER, settings
from .combat import check_scenario_crt as check_scenario_crt  # the scenario loader's
from .combat import crt_info as crt_info  # the api's
from .movement import RULES as MOVEMENT
from .position import board_for, enemy_hexes, open_targets
from .state import HexHexsideState, phasing, plain

State = HexHexsideState  # the state's shape (state.py)
Event = dict[str, Any]
PREVIEWABLE = ("confirm", "bombard", "terrain", "rally", "deep_charge")
TEC = combat.TEC


def phases(scenario: Scenario) -> list[str]:
    """The phases of a player turn in order: sequence.json's ``player_turn`` up to its end.

    Raises:
        ScenarioError: the scenario's player turn has no phase before its end.
    """
    found = []
    for entry in settings(scenario)["player_turn"]:
        if entry["phase"] == "end":
            break
        found.append(entry["phase"])
    if not found:
        raise ScenarioError("overrides.sequence.player_turn", "problem.phase_before_end")
    return found


def sides(scenario: Scenario) -> list[str]:
    """The sides in scenario order: the first plays first each turn."""
    return [s["id"] for s in scenario.data["sides"]]


def army_levels(scenario: Scenario) -> dict[str, dict[str, int]]:
    """Each side's army morale: points, demoralized and broken values (scenario or default)."""
    memo: dict[str, dict[str, int]] | None = scenario.memo.get("hh army")
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
            raise ScenarioError(f"side {side['id']} army_morale", "problem.army_levels")
        out[side["id"]] = own
    scenario.memo["hh army"] = out
    return out


class HexHexsideRules(RulesBase[HexHexsideState, Action]):
    """The hex-hexside ruleset: states, legal actions and handlers."""

    system = "hex-hexside"
    previewable = PREVIEWABLE
    hidden_information = False
    options = frozenset({"crt"})  # an owner's combat results table (crt_info checks it)
    words = screen.WORDS
    # The result card (muster.cards): every die, under the line that declared what it settles.
    card_heads = {
        "close_combat": frozenset({"log.hh_attack"}),
        "leader_loss": frozenset({"log.hh_attack", "log.hh_bombard"}),
        "bombard": frozenset({"log.hh_bombard"}),
        "deep_charge": frozenset({"log.hh_deep_charge"}),
        "rally": frozenset({"log.hh_rally"}),
    }
    card_quiet = frozenset({"log.hh_phase", "log.hh_player_turn", "log.hh_formed"})
    markers = screen.MARKERS

    def board(self, scenario: Scenario, state: State) -> Board:
        """The map with the units where the state puts them."""
        return board_for(scenario, state)

    def decider(self, scenario: Scenario, state: State) -> str | None:
        """The side that decides now (the prompt's); none once the game is over."""
        prompt = screen.prompt(scenario, state)
        return prompt["side"] if prompt else None

    def initial_state(self, scenario: Scenario, options: dict[str, Any]) -> State:
        """Units where the scenario sets them; the first side's rally phase.

        Raises:
            ScenarioError: the scenario's army morale is malformed.
            RulesError: the owner's CRT in ``options`` (or the scenario's) is malformed.
        """
        change = settings(scenario)["formation_change"]
        units = {
            uid: {
                "hex": spec["hex"],
                "lost": 0,
                "status": "formed",
                "engaged": False,
                "formation": change["start"] if spec["type"] in change["who"] else None,
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
            "phase": phases(scenario)[0],
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
        side = phasing(state)
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
        state.pop("defended", None)  # designation.defend_many false: a new player turn
        return events + self._enter(scenario, state, phases(scenario)[0])

    def _enter(self, scenario: Scenario, state: State, phase: str) -> list[Event]:
        """Begin ``phase``; a rally or bombardment phase with nothing to do passes by itself,
        logged (sequence.json ``empty_steps``)."""
        state["phase"] = phase
        events = [{"key": "log.hh_phase", "params": {"phase": phase}}]
        if not settings(scenario)["empty_steps"]["passed"]:
            return events
        empty = (phase == "rally" and not self._rally_actions(scenario, state)) or (
            phase == "bombardment" and not self._bombard_actions(scenario, state)
        )
        if empty:
            passed = {
                "key": "log.hh_phase_passed",
                "params": {"phase": phase, "side": state["side"]},
            }
            return events + [passed] + self._next_phase(scenario, state)
        return events

    def _next_phase(self, scenario: Scenario, state: State) -> list[Event]:
        """The phase after the present one (sequence.json's order), or the next player turn."""
        order = phases(scenario)
        index = order.index(state["phase"])
        if index + 1 < len(order):
            return self._enter(scenario, state, order[index + 1])
        return self._end_player_turn(scenario, state)

    def _end_player_turn(self, scenario: Scenario, state: State) -> list[Event]:
        side = phasing(state)
        for uid, u in state["units"].items():
            if scenario.units[uid]["side"] != side:
                continue
            u["must"] = False
            if u["wcm"] is not None and u["wcm"] < state["pturn"]:
                lasts = settings(scenario)["winning_combat_marker"]["lasts"]
                if lasts == "until_used_or_next_own_turn_end":
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
        """The end: objective points (``victory.objective_points``) and
        ``victory.enemy_step_points`` per step each side lost to every other side; a broken
        army loses (``broken``), else the side alone with most points wins."""
        state["combat"] = None
        state["decision"] = None
        points = {side: sum(parts.values()) for side, parts in self.score(scenario, state).items()}
        winner = None if broken is None else next(s for s in points if s != broken)
        return play.game_over(plain(state), points, winner, broken=broken)

    def score(self, scenario: Scenario, state: State) -> dict[str, dict[str, int]]:
        """Each side's points now, by source: the objectives it holds (``victory.
        objective_points``) and ``victory.enemy_step_points`` per step the others lost."""
        rule = settings(scenario)["victory"]
        order = sides(scenario)
        scored = play.objectives(scenario) if rule["objective_points"] else ()
        objectives = play.objective_points(order, state["held"], scored)
        steps = dict.fromkeys(order, 0)
        for uid, u in state["units"].items():
            side = scenario.units[uid]["side"]
            play.to_the_others(steps, side, rule["enemy_step_points"] * u["lost"])
        parts = {"objectives": objectives, "steps": steps}
        counted = [
            k for k, n in (("objectives", scored), ("steps", rule["enemy_step_points"])) if n
        ]
        return {side: {k: parts[k][side] for k in counted} for side in order}

    def victory(self, scenario: Scenario) -> dict[str, Any]:
        """The turns, the objectives (if counted), the points per enemy step lost, a broken
        army's defeat (if it ends the game), most points wins."""
        return standing.victory(
            scenario,
            FOLDER,
            settings(scenario),
            [
                ("objectives", "victory", "objective_points"),
                ("steps", "victory", "enemy_step_points"),
                ("broken", "army_morale", "broken_ends_game"),
                ("most_points", "victory"),
            ],
        )

    def _update_held(self, scenario: Scenario, state: State) -> None:
        """Each objective where one side alone has units (leaders do not count) is its own."""
        play.update_held(
            plain(state)["held"],
            [place for place, _ in play.objectives(scenario)],
            (
                (u["hex"], scenario.units[uid]["side"])
                for uid, u in state["units"].items()
                if not u["out"] and scenario.units[uid]["type"] != "leader"
            ),
        )

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
        """Every action the player (or, at an interrupt, the other player) may take now; the
        board of the position built once for the listing."""
        if state["phase"] == "over":
            return []
        if state["decision"] is not None:
            return cc.decision_actions(scenario, state)
        phase = state["phase"]
        if phase == "rally" and state["combat"] is None:
            return self._rally_actions(scenario, state) + [{"type": "end_phase"}]
        board = board_for(scenario, state)
        if state["combat"] is not None:
            return cc.combat_actions(scenario, state, board)
        actions: list[Action] = []
        if phase == "movement":
            actions = self._movement_actions(scenario, state, board)
        elif phase == "bombardment":
            actions = self._bombard_actions(scenario, state, board)
        elif phase == "combat":
            actions = cc.attack_actions(scenario, state, board)
            if cc.must_attack_targets(scenario, state, board):
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

    def _movement_actions(
        self, scenario: Scenario, state: State, board: Board | None = None
    ) -> list[Action]:
        board = board or board_for(scenario, state)
        rule = settings(scenario)["formation_change"]
        actions: list[Action] = []
        for uid in self._own(scenario, state):
            u = state["units"][uid]
            if u["moved"]:
                continue
            ends = movement.reach(board, uid).labels
            actions += [{"type": "move", "unit": uid, "to": to} for to in ends]
            if scenario.units[uid]["type"] in rule["who"]:
                other = [f for f in rule["formations"] if f != u["formation"]]
                actions += [{"type": "formation", "unit": uid, "to": f} for f in other]
        return actions

    def _bombard_actions(
        self, scenario: Scenario, state: State, board: Board | None = None
    ) -> list[Action]:
        rule = settings(scenario)["bombardment"]
        board = board or board_for(scenario, state)
        enemy = {
            u["hex"]
            for uid, u in state["units"].items()
            if not u["out"]
            and scenario.units[uid]["side"] != state["side"]
            and scenario.units[uid]["type"] != "leader"
        }
        actions: list[Action] = []
        for uid in self._own(scenario, state):
            u = state["units"][uid]
            spec = scenario.units[uid]
            if spec["type"] not in rule["who"] or u["bombarded"] or u["status"] == "routed":
                continue
            here = scenario.hex_at(u["hex"])
            if rule["not_adjacent_to_enemy"] and board.adjacent_to_enemy(here, phasing(state)):
                continue
            reach = combat.bombard_reach(scenario, uid)
            for label in combat.targets_within(scenario, u["hex"], reach, enemy):
                if combat.bombard_shot(board, here, scenario.hex_at(label), reach) is None:
                    continue
                actions.append({"type": "bombard", "unit": uid, "target": label})
        return actions

    # -- refusals ------------------------------------------------------------------------------

    def refusal(self, scenario: Any, state: State, action: Action) -> Refusal:
        """Why ``action`` is not allowed, its rule named for the commonest cases: a move beyond
        the unit's reach (terrain effects chart) or by a unit that has moved; a bombardment out
        of range, of sight, from next to an enemy, or that the chart prohibits; an attack on a
        hex no unit may attack (terrain effects chart); else the core's words (the action, who,
        where, and what is asked now)."""
        found = None
        if isinstance(scenario, Scenario) and isinstance(action, dict) and _open(state):
            found = self._refusal(scenario, state, action)
        return found or super().refusal(scenario, state, action)

    def _refusal(self, scenario: Scenario, state: State, action: Action) -> Refusal | None:
        kind, phase = action.get("type"), state["phase"]
        if kind == "attack" and phase == "combat":
            target = action.get("target")
            place = place_words(scenario, target)
            if place is None or target not in open_targets(scenario, state):
                return None
            params = {"place": place, "rule": TEC}
            return refusal("error.hh_no_attacker", params, TEC, place)
        uid = action.get("unit")
        if kind not in ("move", "bombard") or not isinstance(uid, str):
            return None
        u, spec = state["units"].get(uid), scenario.units.get(uid)
        who = unit_words(scenario, uid)
        if u is None or spec is None or who is None or u["out"] or spec["side"] != state["side"]:
            return None
        if kind == "move" and phase == "movement":
            place = place_words(scenario, action.get("to"))
            if place is None:
                return None
            if u["moved"]:
                return refusal("error.hh_has_moved", {"who": who}, None, place)
            board = board_for(scenario, state)
            if scenario.hex_at(place) in movement.reach(board, uid).costs:
                return None
            allowance = board.unit(uid).allowance
            beyond: dict[str, Any] = {"who": who, "place": place, "allowance": allowance}
            beyond["rule"] = TEC
            return refusal("error.hh_out_of_reach", beyond, TEC, place)
        target = action.get("target")
        place = place_words(scenario, target)
        if kind != "bombard" or phase != "bombardment" or place is None:
            return None
        rule = settings(scenario)["bombardment"]
        if spec["type"] not in rule["who"] or u["bombarded"] or u["status"] == "routed":
            return None
        if target not in enemy_hexes(scenario, state, phasing(state)):
            return None
        board = board_for(scenario, state)
        here, there = scenario.hex_at(u["hex"]), scenario.hex_at(place)
        if rule["not_adjacent_to_enemy"] and board.adjacent_to_enemy(here, phasing(state)):
            return refusal("error.hh_bombard_adjacent", {"who": who}, None, place)
        distance = hex_distance(here, there)
        reach = combat.bombard_reach(scenario, uid)
        if distance > reach:
            far = {"who": who, "place": place, "distance": distance, "reach": reach}
            return refusal("error.hh_bombard_range", far, None, place)
        ban = combat.bombard_parts(board, here, there).prohibited
        if ban is not None:
            params = {"who": who, "place": place, "rule": ban.rule}
            return refusal("error.hh_bombard_prohibited", params, ban.rule, place)
        los = scenario.data.get("overrides", {}).get("los")
        if rule["needs_los"] and not line_of_sight(scenario, here, there, los).clear:
            return refusal("error.hh_bombard_sight", {"who": who, "place": place}, None, place)
        return None

    # -- handlers ------------------------------------------------------------------------------

    def apply(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """Carry out a legal action on ``state``."""
        handler: Callable[..., list[Event]] = play.handler_for(action, HANDLERS, cc.HANDLERS)
        return handler(self, scenario, state, action)

    def roll(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """A chance point settled: go on with what it was rolled for (``CHANCE``, a close
        combat's in ``closecombat.CHANCE``)."""
        return chance_handler(action, CHANCE, cc.CHANCE)(self, scenario, state, action)

    def end_phase(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """The phasing player ends the present phase."""
        return self._next_phase(scenario, state)

    def move(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """Move a unit along its cheapest path."""
        board = board_for(scenario, state)
        uid = action["unit"]
        cost = movement.reach(board, uid).costs[scenario.hex_at(action["to"])]
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
        return T.rally_modifiers(facts, combat.tables_of(scenario, state))

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
            return screen.test_preview(scenario, state, parts, int(target), "rally")
        return screen.preview(scenario, state, action)

    def reference(self, scenario: Scenario, state: State | None) -> dict[str, Any]:
        """The charts of hex-hexside for the scenario and the game's CRT (``reference.py``)."""
        return reference.reference(scenario, state)

    def prompt(self, scenario: Scenario, state: State) -> dict[str, Any] | None:
        """What is asked now, which side decides (pass-and-play hands the tablet over), and why
        when the choice is forced."""
        return screen.prompt(scenario, state)

    def choices(self, scenario: Scenario, state: State, legal: list[Action]) -> list[Any]:
        """The legal actions in labelled choices (``screen.choices``)."""
        return screen.choices(self, scenario, state, legal)

    def chance_results(self, scenario: Scenario, state: State) -> list[Any]:
        """What each face of the die now rolled does (``screen.chance_results``)."""
        return screen.chance_results(scenario, state)

    def view_extra(
        self, scenario: Scenario, state: State, viewer: str | None = None
    ) -> dict[str, Any]:
        """What the screen shows beside the state: the combat (a close combat or a
        bombardment), the CRT, the Locked units, markers on units and arrows on the map."""
        locked = locked_units(scenario, state)
        return {
            "combat": screen.combat_view(scenario, state),
            "crt": state["crt"],
            "previewable": list(PREVIEWABLE),
            "locked": locked,
            "markers": screen.markers(scenario, state, locked),
            "arrows": screen.arrows(scenario, state),
            # Each side's army morale (and its level) and objectives held, under the prompt.
            "facts": [
                {
                    "key": "fact.army_level",
                    "params": {"side": side, "morale": army["points"], "level": army["level"]},
                }
                for side, army in state["army"].items()
            ]
            + held_facts(state, sides(scenario), play.objectives(scenario)),
        }


def _open(state: State) -> bool:
    """True if the phasing side is between actions: no die, decision or combat pending."""
    pending = ("chance", "decision", "combat", "result")
    return not any(state.get(k) for k in pending) and isinstance(state.get("phase"), str)


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


# What each chance point of the turn was rolled for, and its handler.
CHANCE: dict[str, Callable[..., list[Event]]] = {"rally": HexHexsideRules._rally_result}

HANDLERS: dict[str, Callable[..., list[Event]]] = {
    "roll": HexHexsideRules.roll,
    "end_phase": HexHexsideRules.end_phase,
    "move": HexHexsideRules.move,
    "formation": HexHexsideRules.formation,
    "rally": HexHexsideRules.rally,
}

RULES = HexHexsideRules()
