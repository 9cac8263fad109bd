"""hex-facing play: the turn sequence as data, one handler per action.

Sequence (``sequence.json`` "turn", documented defaults; the aid names the parts, not their
order; a scenario may reorder or drop phases, and the turn ends after the last one listed):
  activation  draw a formation marker from the cup (a chance point); that formation
              fires (artillery), moves (each unit once, then chooses its facing), and
              declares melee and charges; repeat until the cup is empty
  rally       each side, in scenario order, may test the cohesion of its disordered and
              routed units not next to an enemy (pass: the combat table's pass_if)
  end         next turn; after the last, objectives and routed enemies decide the winner

A melee or charge, once declared: the guns in the attacked hex may fire in reaction (8.3);
then its cavalry may countercharge (9.4, stand-in of combat.json); the die; the results
(defenders' then attackers' effects and tests, in order); then the counterattack, the
breakthrough or the pursuit the result calls for (8.7, 9.5, stand-ins).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ... import standing
from ...dice import chance_handler
from ...hexgrid import hex_distance
from ...hexmap import Scenario
from ...los import line_of_sight
from ...modifier import total
from ...movement import Board, reachable, reachable_hexes
from ...ruleset import (
    Choice,
    Label,
    Refusal,
    RulesBase,
    held_facts,
    place_words,
    refusal,
    unit_words,
)
from ...shapes import Action
from .. import common
from . import combat, fighting, geometry, reference, screen
from . import tables as T
from .movement import RULES as MOVEMENT
from .position import (
    FOLDER,
    NO_CODE,
    die_name,
    formation_of,
    formations,
    if_falls_back,
    melee_codes,
    rally_modifier,
    settings,
)
from .state import HexFacingState, ongoing, plain

State = HexFacingState  # the state's shape (state.py)
Event = dict[str, Any]
Step = dict[str, Any]  # a step of the queue (common.drain): "settle", "test", "effect"
FACINGS = range(12)
PROCEDURES = ("breakthrough", "pursuit", "counterattack")
PHASES = ("activation", "rally", "end")  # the phases a turn may list (sequence.json "turn")
MOVEMENT_TABLE = "terrain table"  # the rule a move's cost comes from
SIGHT_RULE = "7.4"  # line of sight, as the aid's note (f) names it


def board_for(scenario: Scenario, state: State) -> Board:
    """The map with the units where the state puts them."""
    positions = {uid: u["hex"] for uid, u in state["units"].items()}
    states = {}
    for uid, u in state["units"].items():
        flags: dict[str, Any] = {"facing": u["facing"], "out": u["out"], "square": u["square"]}
        flags["disordered"] = u["status"] == "disordered"
        flags["routed"] = u["status"] == "routed"
        states[uid] = flags
    active = state.get("active")
    if active and not active["orders"]:
        factor = settings(scenario)["no_orders"]["movement_factor"]
        for uid in active_units(scenario, state):
            rating = scenario.units[uid].get("ratings", {}).get("movement", 0)
            states[uid]["allowance"] = rating * factor
    return Board(scenario, positions, states)


def active_units(scenario: Scenario, state: State) -> list[str]:
    """The units of the formation now acting that are still on the map."""
    active = ongoing(state, "active")
    return [
        uid
        for uid, u in state["units"].items()
        if not u["out"] and formation_of(scenario, uid) == active["formation"]
    ]


def modifier_event(part: Any) -> Event:
    """A log line of one modifier of a fire or melee: its value, what it is, its rule."""
    reason = {"key": part.key, "params": dict(part.params)}
    return {
        "key": "log.hf_modifier",
        "params": {"value": part.value, "reason": reason, "rule": part.rule},
    }


def live_formations(scenario: Scenario, state: State) -> list[str]:
    """Formations with a unit still on the map, in scenario order."""
    out = []
    for fid in formations(scenario):
        if any(
            not u["out"] and formation_of(scenario, uid) == fid for uid, u in state["units"].items()
        ):
            out.append(fid)
    return out


class HexFacingRules(RulesBase[HexFacingState, Action]):
    """The hex-facing ruleset: states, legal actions and handlers."""

    system = "hex-facing"
    previewable = ("fire", "melee", "reaction_fire", "countercharge", "no_countercharge")
    hidden_information = False
    options: frozenset[str] = frozenset()
    words = screen.WORDS
    # The result card (muster.cards): every die; a fight's die and the cohesion tests its
    # results call for, under the line that declared the fight.
    card_heads = {
        "fire": frozenset({"log.hf_fire", "log.hf_reaction_fire"}),
        "melee": frozenset(
            {"log.hf_melee", "log.hf_charge", "log.hf_counterattack", "log.hf_countercharge"}
        ),
        "cohesion": frozenset(
            {
                "log.hf_fire",
                "log.hf_reaction_fire",
                "log.hf_melee",
                "log.hf_charge",
                "log.hf_counterattack",
                "log.hf_countercharge",
            }
        ),
    }
    card_quiet = frozenset({"log.hf_step", "log.rally_phase", "log.face"})
    markers = screen.MARKERS

    def board(self, scenario: Scenario, state: State) -> Board:
        """The map with the units where the state puts them."""
        return board_for(scenario, state)

    def decider(self, scenario: Scenario, state: State) -> str | None:
        """The side that decides now: a retreating unit's owner, the defender who may strike
        back, fire its guns first or countercharge, the side rallying, the active formation's
        side; none while a marker is drawn from the cup or once the game is over."""
        if state["result"]:
            return None
        unit = None
        if state["retreat"]:
            unit = state["retreat"]["unit"]
        elif state["counterattack"]:
            unit = state["counterattack"]["units"][0]
        elif state["reaction"]:
            unit = state["reaction"]["pairs"][0][0]
        elif state["countercharge"]:
            unit = state["countercharge"]["units"][0]
        if unit is not None:
            return str(scenario.units[unit]["side"])
        if state["phase"] == "rally" and state["rally"]:
            return str(state["rally"]["side"])
        return state["active"]["side"] if state["active"] else None

    # -- what the screen shows (screen.py) ---------------------------------------------------

    def prompt(self, scenario: Scenario, state: State) -> dict[str, Any] | None:
        """What is asked now, of whom (the decider, or the side whose turn it is while a die
        decides), and why when the choice is forced."""
        return screen.prompt(scenario, state, self.decider(scenario, state))

    def choices(self, scenario: Scenario, state: State, legal: list[Action]) -> list[Choice]:
        """Every legal action in one labelled item of one choice; the ending action last."""
        return screen.choices(scenario, state, legal)

    def chance_results(self, scenario: Scenario, state: State) -> list[Label | None]:
        """What each face of the chance point does (a formation drawn, a table's result, a
        test passed or failed), in the order of its faces."""
        from ...game import chance_faces

        return screen.chance_results(scenario, state, chance_faces(ongoing(state, "chance")))

    def view_extra(self, scenario: Scenario, state: State, viewer: str | None) -> dict[str, Any]:
        """The markers on the counters and the arrows of a fight in progress."""
        return {
            "markers": screen.markers(scenario, state),
            "arrows": screen.arrows(scenario, state),
            "facts": held_facts(
                state, [s["id"] for s in scenario.data["sides"]], common.objectives(scenario)
            ),
        }

    def reference(self, scenario: Scenario, state: State | None) -> dict[str, Any]:
        """The charts of hex-facing for the scenario (``reference.py``)."""
        return reference.reference(scenario, state)

    def refusal(self, scenario: Any, state: State, action: Action) -> Refusal:
        """Why ``action`` is not allowed, its rule named for the commonest cases: a move to a
        hex beyond the unit's movement this activation (terrain table), a fire at a hex out of
        range (fire DRM table), out of the front arc, or out of sight (7.4); else the core's
        words (the action, who, where, and what is asked now)."""
        found = None
        if isinstance(scenario, Scenario) and isinstance(action, dict):
            found = self._refusal(scenario, state, action)
        return found or super().refusal(scenario, state, action)

    def _refusal(self, scenario: Scenario, state: State, action: Action) -> Refusal | None:
        active, uid, to = state.get("active"), action.get("unit"), action.get("target")
        kind = action.get("type")
        if kind == "retreat" and state.get("retreat"):
            return self._retreat_refusal(scenario, state, action)
        pending = ("retreat", "reaction", "countercharge", "counterattack", "advance", "chance")
        if state.get("phase") != "formation" or not active or any(state.get(k) for k in pending):
            return None
        if active.get("facing_due") or not isinstance(uid, str) or uid in active["acted"]:
            return None
        if uid not in active_units(scenario, state) or state["units"][uid]["status"] == "routed":
            return None
        who = unit_words(scenario, uid)
        if kind == "move" and active["step"] == "move":
            to = action.get("to")
            place = place_words(scenario, to)
            if place is None or who is None:
                return None
            board = board_for(scenario, state)
            if scenario.hex_at(str(to)) in reachable_hexes(board, uid, MOVEMENT):
                return None
            params = {"who": who, "place": place, "allowance": board.unit(uid).allowance}
            params["rule"] = MOVEMENT_TABLE
            return refusal("error.hf_out_of_reach", params, MOVEMENT_TABLE, place)
        if kind != "fire" or active["step"] != "fire" or not isinstance(to, str):
            return None
        place = place_words(scenario, to)
        spec = scenario.units[uid]
        side = spec["side"]
        here = fighting.fighters(state, scenario, to)
        enemy = any(scenario.units[e]["side"] != side for e in here)
        if place is None or who is None or spec["type"] != "artillery" or not enemy:
            return None
        t = T.tables_for(scenario)
        board = board_for(scenario, state)
        unit, target = board.unit(uid), scenario.hex_at(to)
        distance = hex_distance(unit.hex, target)
        reach = int(spec.get("ratings", {}).get("range", 0))
        reach += t.settings["fire_modifiers.long_range_limit"]
        rule = t.fire["long_range"].rule
        if distance > reach:
            params = {"who": who, "place": place, "distance": distance, "reach": reach}
            return refusal("error.hf_out_of_range", {**params, "rule": rule}, rule, place)
        if not geometry.in_front_arc(board, unit, target):
            return refusal("error.hf_out_of_arc", {"who": who, "place": place}, None, place)
        if not line_of_sight(scenario, unit.hex, target).clear:
            params = {"who": who, "place": place, "rule": SIGHT_RULE}
            return refusal("error.hf_no_sight", params, SIGHT_RULE, place)
        return None

    def _retreat_refusal(self, scenario: Scenario, state: State, action: Action) -> Refusal | None:
        """A retreat into a hex not open to the unit: one no farther from a unit it retreats
        from names that unit's hex; any other names the hexes that are open."""
        retreat = ongoing(state, "retreat")
        uid, to = retreat["unit"], action.get("to")
        place, who = place_words(scenario, to), unit_words(scenario, uid)
        if action.get("unit") != uid or place is None or who is None:
            return None
        here = scenario.hex_at(state["units"][uid]["hex"])
        there = scenario.hex_at(str(to))
        for frm in retreat.get("away", []):
            threat = scenario.hex_at(frm)
            if there in scenario.neighbors[here] and (
                hex_distance(there, threat) <= hex_distance(here, threat)
            ):
                params = {"who": who, "place": place, "from": place_words(scenario, frm)}
                return refusal("error.hf_retreat_not_away", params, None, place)
        options = ", ".join(str(place_words(scenario, o)) for o in retreat["options"])
        params = {"who": who, "place": place, "options": options}
        return refusal("error.hf_retreat_elsewhere", params, None, place)

    def initial_state(self, scenario: Scenario, options: dict[str, Any]) -> State:
        """Units where and as the scenario sets them (its ``state`` flags: disordered, routed,
        square); the first phase of the turn begins (the activation draw, by default)."""

        def status(flags: dict[str, Any]) -> str:
            if flags.get("routed"):
                return "routed"
            return "disordered" if flags.get("disordered") else "good"

        units = {
            uid: {
                "hex": spec["hex"],
                "facing": spec.get("facing"),
                "status": status(spec.get("state", {})),
                "square": bool(spec.get("state", {}).get("square", False)),
                "out": False,
                "reacted": 0,
            }
            for uid, spec in scenario.units.items()
        }
        state: State = {
            "turn": 1,
            "turns": settings(scenario)["turns"],
            "phase": "activation",
            "cup": [],
            "active": None,
            "rally": None,
            "units": units,
            "held": {},
            "queue": [],
            "retreat": None,
            "advance": None,
            "counterattack": None,
            "reaction": None,
            "countercharge": None,
            "after": None,
            "chance": None,
            "result": None,
        }
        self._update_held(scenario, state)
        self._enter(scenario, state, self._phases(scenario)[0])
        return state

    # -- sequence ---------------------------------------------------------------------------

    def _phases(self, scenario: Scenario) -> list[str]:
        """The phases of a turn, in order (sequence.json "turn")."""
        return [str(p["phase"]) for p in settings(scenario)["turn"]]

    def _enter(self, scenario: Scenario, state: State, phase: str) -> list[Event]:
        """Begin ``phase`` of the turn."""
        if phase == "activation":
            state["cup"] = live_formations(scenario, state)
            return self._next_draw(scenario, state)
        if phase == "rally":
            return self._start_rally(scenario, state)
        return self._end_turn(scenario, state)

    def _after(self, scenario: Scenario, state: State, phase: str) -> list[Event]:
        """Begin the phase listed after ``phase``; the turn ends after the last one."""
        phases = self._phases(scenario)
        index = phases.index(phase) if phase in phases else len(phases)
        return self._enter(scenario, state, phases[index + 1] if index + 1 < len(phases) else "end")

    def _next_draw(self, scenario: Scenario, state: State) -> list[Event]:
        if state["cup"]:
            state["phase"] = "activation"
            state["active"] = None
            state["chance"] = {"options": list(state["cup"]), "purpose": "activation"}
            return []
        state["active"] = None
        return self._after(scenario, state, "activation")

    def _start_rally(self, scenario: Scenario, state: State) -> list[Event]:
        state["phase"] = "rally"
        state["active"] = None
        sides = [s["id"] for s in scenario.data["sides"]]
        state["rally"] = {"side": sides[0], "tried": []}
        events = [{"key": "log.rally_phase", "params": {"side": sides[0]}}]
        return events + self._pass_empty_rally(scenario, state)

    def _end_turn(self, scenario: Scenario, state: State) -> list[Event]:
        self._update_held(scenario, state)
        events: list[Event] = [{"key": "log.turn_end", "params": {"turn": state["turn"]}}]
        if state["turn"] >= state["turns"]:
            state["rally"] = None
            return events + common.game_over(plain(state), self._points(scenario, state))
        state["turn"] += 1
        state["rally"] = None
        events.append({"key": "log.turn_start", "params": {"turn": state["turn"]}})
        return events + self._enter(scenario, state, self._phases(scenario)[0])

    def _update_held(self, scenario: Scenario, state: State) -> None:
        """An objective is held by the last side to stand on it alone (its units on the map)."""
        places = [place for place, _ in common.objectives(scenario)]
        present = (
            (u["hex"], scenario.units[uid]["side"])
            for uid, u in state["units"].items()
            if not u["out"]
        )
        common.update_held(plain(state)["held"], places, present)

    def _points(self, scenario: Scenario, state: State) -> dict[str, int]:
        """Each side's points at the end: the sum of its ``score``."""
        return {side: sum(parts.values()) for side, parts in self.score(scenario, state).items()}

    def score(self, scenario: Scenario, state: State) -> dict[str, dict[str, int]]:
        """Each side's points now, by source: the objectives it holds (if the scenario counts
        them) and ``routed_unit_points`` for each enemy unit routed or out (if any)."""
        rule = settings(scenario)["victory"]
        sides = [s["id"] for s in scenario.data["sides"]]
        scored = common.objectives(scenario) if rule["objective_points"] else ()
        objectives = common.objective_points(sides, state["held"], scored)
        routed = dict.fromkeys(sides, 0)
        routed_n = rule["routed_unit_points"]
        for uid, u in state["units"].items():
            if u["out"] or u["status"] == "routed":
                side = scenario.units[uid]["side"]
                common.to_the_others(routed, side, routed_n)
        parts = {"objectives": objectives, "routed": routed}
        counted = [k for k, n in (("objectives", len(scored)), ("routed", routed_n)) if n]
        return {side: {k: parts[k][side] for k in counted} for side in sides}

    def victory(self, scenario: Scenario) -> dict[str, Any]:
        """The turns, the objectives (if counted), the points for routed enemies, most wins."""
        return standing.victory(
            scenario,
            FOLDER,
            settings(scenario),
            [
                ("objectives", "victory", "objective_points"),
                ("routed", "victory", "routed_unit_points"),
                ("most_points", "victory"),
            ],
        )

    # -- legal actions ----------------------------------------------------------------------

    def legal_actions(self, scenario: Scenario, state: State) -> list[Action]:
        """Every action the player may take now."""
        if state["phase"] == "formation":
            return self._formation_actions(scenario, state)
        if state["phase"] == "rally":
            return self._rally_actions(scenario, state)
        return []

    def _formation_actions(self, scenario: Scenario, state: State) -> list[Action]:
        if state["retreat"]:
            retreat = state["retreat"]
            return [
                {"type": "retreat", "unit": retreat["unit"], "to": to} for to in retreat["options"]
            ]
        if state["reaction"]:
            reaction = state["reaction"]
            fires: list[Action] = [
                {"type": "reaction_fire", "unit": g, "target": t} for g, t in reaction["pairs"]
            ]
            return fires + [{"type": "no_reaction"}]
        if state["countercharge"]:
            units = state["countercharge"]["units"]
            return [{"type": "countercharge", "units": list(units)}, {"type": "no_countercharge"}]
        if state["counterattack"]:
            counter = state["counterattack"]
            must = T.tables_for(scenario).settings["procedures.counterattack.melee"]
            melees: list[Action] = [
                {"type": "melee", "target": t, "attackers": counter["units"], "counter": True}
                for t in counter["targets"]
            ]
            return melees + ([] if must == "must" else [{"type": "no_counterattack"}])
        if state["advance"]:
            advance = state["advance"]
            moves: list[Action] = [
                {"type": "advance", "unit": u, "to": advance["hex"]} for u in advance["units"]
            ]
            return moves + [{"type": "hold"}]
        active = ongoing(state, "active")
        if active.get("facing_due"):
            uid = active["facing_due"]
            return [{"type": "face", "unit": uid, "facing": f} for f in FACINGS]
        actions: list[Action] = []
        step = active["step"]
        ready = [u for u in active_units(scenario, state) if u not in active["acted"]]
        if step == "fire":
            actions += fighting.fire_actions(scenario, state, board_for(scenario, state), ready)
        may_melee = active["orders"] or settings(scenario)["no_orders"]["may_melee"]
        if step == "combat" and may_melee:
            actions += fighting.melee_actions(scenario, state, board_for(scenario, state), ready)
        if step == "move":
            board = board_for(scenario, state)
            square = settings(scenario)["square"]["who"]
            for uid in active_units(scenario, state):
                if uid in active["acted"] or state["units"][uid]["status"] == "routed":
                    continue
                here = board.unit(uid).hex
                actions += [
                    {"type": "move", "unit": uid, "to": board.label(h)}
                    for h in sorted(reachable_hexes(board, uid, MOVEMENT))
                    if h != here
                ]
                actions += [{"type": "face", "unit": uid, "facing": f} for f in FACINGS]
                if scenario.units[uid]["type"] == square:
                    actions.append(
                        {"type": "square", "unit": uid, "form": not state["units"][uid]["square"]}
                    )
        actions.append({"type": "next_step"})
        return actions

    def _rally_actions(self, scenario: Scenario, state: State) -> list[Action]:
        rally = ongoing(state, "rally")
        board = board_for(scenario, state)
        not_near = settings(scenario)["rally"]["not_adjacent_to_enemy"]
        actions: list[Action] = []
        for uid, u in state["units"].items():
            if u["out"] or u["status"] == "good" or uid in rally["tried"]:
                continue
            if scenario.units[uid]["side"] != rally["side"]:
                continue
            if not_near and board.adjacent_to_enemy(board.unit(uid).hex, rally["side"]):
                continue
            actions.append({"type": "rally", "unit": uid})
        actions.append({"type": "end_rally"})
        return actions

    # -- handlers ---------------------------------------------------------------------------

    def apply(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """Carry out a legal action on ``state``."""
        handler: Callable[..., list[Event]] = common.handler_for(action, HANDLERS)
        return handler(self, scenario, state, action)

    def roll(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """A chance point settled: go on with what it was rolled for (``CHANCE``)."""
        return chance_handler(action, CHANCE)(self, scenario, state, action)

    def _activate(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        fid = action["value"]
        state["cup"].remove(fid)
        formation = formations(scenario)[fid]
        orders = bool(formation.get("orders", True))
        state["phase"] = "formation"
        state["active"] = {
            "formation": fid,
            "side": formation["side"],
            "orders": orders,
            "step": "fire",
            "acted": [],
            "facing_due": None,
        }
        steps = settings(scenario)["formation_steps"]
        ongoing(state, "active")["step"] = steps[0]
        key = "log.hf_activated" if orders else "log.hf_activated_no_orders"
        events = [{"key": key, "params": {"formation": fid, "side": formation["side"]}}]
        return events + self._pass_empty_step(scenario, state)

    def _pass_empty_step(self, scenario: Scenario, state: State) -> list[Event]:
        """A step just begun in which the active formation can do nothing but end it passes by
        itself, logged (sequence.json ``empty_steps``); so may the steps after it."""
        if not settings(scenario)["empty_steps"]["passed"]:
            return []
        if self._formation_actions(scenario, state) != [{"type": "next_step"}]:
            return []
        active = ongoing(state, "active")
        params = {"formation": active["formation"], "step": active["step"]}
        passed: list[Event] = [{"key": "log.hf_step_passed", "params": params}]
        return passed + self.next_step(scenario, state, {"type": "next_step"})

    def _pass_empty_rally(self, scenario: Scenario, state: State) -> list[Event]:
        """A side's rally just begun with no unit it may rally passes by itself, logged
        (sequence.json ``empty_steps``)."""
        if not settings(scenario)["empty_steps"]["passed"]:
            return []
        if self._rally_actions(scenario, state) != [{"type": "end_rally"}]:
            return []
        side = ongoing(state, "rally")["side"]
        passed: list[Event] = [{"key": "log.hf_rally_passed", "params": {"side": side}}]
        return passed + self.end_rally(scenario, state, {"type": "end_rally"})

    def next_step(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """The formation ends its present step (fire, move, combat)."""
        steps = settings(scenario)["formation_steps"]
        active = ongoing(state, "active")
        index = steps.index(active["step"])
        if index + 1 < len(steps):
            active["step"] = steps[index + 1]
            active["acted"] = []
            params = {"formation": active["formation"], "step": active["step"]}
            return [{"key": "log.hf_step", "params": params}] + self._pass_empty_step(
                scenario, state
            )
        return self._next_draw(scenario, state)

    def move(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """Move a unit along its cheapest path; it then chooses its facing."""
        board = board_for(scenario, state)
        uid = action["unit"]
        target = scenario.hex_at(action["to"])
        reach = reachable(board, uid, MOVEMENT)
        step = reach[target].step
        unit = state["units"][uid]
        events: list[Event] = [
            {
                "key": "log.move",
                "params": {
                    "unit": uid,
                    "from": unit["hex"],
                    "to": action["to"],
                    "cost": reach[target].cost,
                },
            }
        ]
        unit["hex"] = action["to"]
        if step is not None and "disorder" in step.flags and unit["status"] == "good":
            unit["status"] = "disordered"
            events.append({"key": "log.disordered", "params": {"unit": uid}})
        ongoing(state, "active")["acted"].append(uid)
        ongoing(state, "active")["facing_due"] = uid
        return events

    def face(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """Set a unit's facing (after its move, or as its whole move)."""
        uid = action["unit"]
        state["units"][uid]["facing"] = action["facing"]
        active = ongoing(state, "active")
        if active["facing_due"] == uid:
            active["facing_due"] = None
        else:
            active["acted"].append(uid)
        return [{"key": "log.face", "params": {"unit": uid, "facing": action["facing"]}}]

    def square(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """Infantry forms square, or leaves it, as its whole move (default: sequence.json)."""
        uid = action["unit"]
        state["units"][uid]["square"] = action["form"]
        ongoing(state, "active")["acted"].append(uid)
        key = "log.square_formed" if action["form"] else "log.square_left"
        return [{"key": key, "params": {"unit": uid}}]

    def rally(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """Test a unit's cohesion to rally it one step."""
        ongoing(state, "rally")["tried"].append(action["unit"])
        modifier = self._rally_modifier(scenario, state, action["unit"])
        state["chance"] = {
            "die": die_name(scenario),
            "purpose": "rally",
            "unit": action["unit"],
            "modifier": modifier,
        }
        return []

    def _rally_modifier(self, scenario: Scenario, state: State, uid: str) -> int:
        """The rally roll's modifier (``basics.rally_modifier``)."""
        return rally_modifier(scenario, state, uid)

    def _rally_result(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        chance = action["chance"]
        uid = chance["unit"]
        cohesion = scenario.units[uid].get("ratings", {}).get("cohesion", 0)
        total = action["value"] + chance["modifier"]
        unit = state["units"][uid]
        tables = T.tables_for(scenario)
        passed = combat.cohesion_test_passes(action["value"], cohesion, chance["modifier"], tables)
        if passed:
            unit["status"] = "disordered" if unit["status"] == "routed" else "good"
        return [
            {
                "key": "log.rally_passed" if passed else "log.rally_failed",
                "params": {
                    "unit": uid,
                    "total": total,
                    "cohesion": cohesion,
                    "status": unit["status"],
                },
            }
        ]

    # -- fire and melee -----------------------------------------------------------------------

    def preview(self, scenario: Scenario, state: State, action: Action) -> dict[str, Any]:
        """Modifiers and exact odds of a fire or melee action before it is taken."""
        return fighting.preview(scenario, state, board_for(scenario, state), action)

    def fire(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """Declare a fire: its modifiers are fixed now, the die decides."""
        situation = fighting.fire_situation(scenario, state, action)
        parts = combat.fire_modifiers(situation, T.tables_for(scenario))
        firers = [action["unit"]] + ([action["with"]] if "with" in action else [])
        if action.get("kind") != "reaction":
            ongoing(state, "active")["acted"] += firers
        state["chance"] = {
            "die": die_name(scenario),
            "purpose": "fire",
            "target": action["target"],
            "units": firers,
            "total": total(parts),
        }
        key = "log.hf_reaction_fire" if action.get("kind") == "reaction" else "log.hf_fire"
        return [
            {
                "key": key,
                "params": {
                    "units": firers,
                    "target": action["target"],
                    "total": total(parts),
                },
            },
            *(modifier_event(p) for p in parts),
        ]

    def _fire_result(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        chance = action["chance"]
        row = combat.fire_result(action["value"], chance["total"], T.tables_for(scenario))
        codes = list(row.cells["result"].codes)
        total = action["value"] + chance["total"]
        events: list[Event] = [
            {"key": "log.hf_fire_result", "params": {"total": total, "codes": codes or [NO_CODE]}}
        ]
        away = [state["units"][chance["units"][0]]["hex"]]
        for uid in fighting.fighters(state, scenario, chance["target"]):
            common.then(plain(state), *self._steps(scenario, uid, codes, away))
        return events + self._drain(scenario, state)

    def melee(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """Declare a melee or charge; guns in the defending hex may fire in reaction first."""
        if action.get("counter"):
            state["counterattack"] = None
        else:
            ongoing(state, "active")["acted"] += action["attackers"]
        chance, parts = self._melee_chance(scenario, state, action)
        key = "log.hf_charge" if action.get("charge") else "log.hf_melee"
        key = "log.hf_counterattack" if action.get("counter") else key
        events: list[Event] = [
            {
                "key": key,
                "params": {
                    "attackers": list(action["attackers"]),
                    "target": action["target"],
                    "total": chance["total"],
                },
            },
            *(modifier_event(p) for p in parts),
        ]
        guns = [
            g
            for g in fighting.fighters(state, scenario, action["target"])
            if scenario.units[g]["type"] == "artillery"
            and state["units"][g]["status"] != "routed"
            and state["units"][g]["reacted"] != state["turn"]
        ]
        targets = sorted({state["units"][a]["hex"] for a in action["attackers"]})
        pairs = [
            [g, t]
            for g in guns
            for t in targets
            if fighting.can_fire(
                scenario, state, {"type": "fire", "unit": g, "target": t, "kind": "reaction"}
            )
        ]
        if pairs:
            state["reaction"] = {"pairs": pairs, "melee": action}
            return events
        return events + self._await_roll(scenario, state, action, chance)

    def _await_roll(
        self, scenario: Scenario, state: State, melee: Action, chance: dict[str, Any] | None = None
    ) -> list[Event]:
        """After any reaction fire: the defender's cavalry may countercharge (9.4), else the
        melee's die is due."""
        chance = chance or self._melee_chance(scenario, state, melee)[0]
        units = fighting.countercharge_units(scenario, state, board_for(scenario, state), melee)
        if units:
            state["countercharge"] = {"units": units, "melee": melee}
            return []
        state["chance"] = chance
        return []

    def _melee_chance(
        self,
        scenario: Scenario,
        state: State,
        action: Action,
        countercharge: list[str] | None = None,
    ) -> tuple[dict[str, Any], list[Any]]:
        """The melee's die roll as a chance point, with its modifiers as things stand now;
        ``countercharge``: the defending units that countercharged."""
        board = board_for(scenario, state)
        situation = fighting.melee_situation(scenario, state, board, action, bool(countercharge))
        parts = combat.melee_modifiers(situation, T.tables_for(scenario))
        chance = {
            "die": die_name(scenario),
            "purpose": "melee",
            "target": action["target"],
            "units": list(action["attackers"]),
            "charge": bool(action.get("charge")),
            "counter": bool(action.get("counter")),
            "countercharge": list(countercharge or ()),
            "total": total(parts),
        }
        return chance, parts

    def countercharge(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """The defender's cavalry countercharges the charge (9.4, a stand-in of combat.json):
        if an attacker falls back on a roll of 0-4, it pursues (9.5)."""
        melee = ongoing(state, "countercharge")["melee"]
        units = list(ongoing(state, "countercharge")["units"])
        state["countercharge"] = None
        chance, parts = self._melee_chance(scenario, state, melee, units)
        state["chance"] = chance
        rule = T.raw_tables()["procedures"]["countercharge"]["rule"]
        params = {
            "units": units,
            "attackers": list(melee["attackers"]),
            "target": melee["target"],
            "total": chance["total"],
            "rule": rule,
        }
        return [{"key": "log.hf_countercharge", "params": params}]

    def no_countercharge(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """The defender's cavalry stands to receive the charge."""
        melee = ongoing(state, "countercharge")["melee"]
        state["countercharge"] = None
        state["chance"] = self._melee_chance(scenario, state, melee)[0]
        return []

    def reaction_fire(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """A gun in the attacked hex fires at an attacker before the melee (-1, rule 8.3)."""
        reaction = ongoing(state, "reaction")
        state["reaction"] = None
        state["after"] = reaction["melee"]
        state["units"][action["unit"]]["reacted"] = state["turn"]
        fire: Action = {
            "type": "fire",
            "unit": action["unit"],
            "target": action["target"],
            "kind": "reaction",
        }
        return self.fire(scenario, state, fire)

    def no_counterattack(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """The defender does not strike back."""
        state["counterattack"] = None
        return []

    def no_reaction(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """The defender lets the melee go ahead without reaction fire."""
        melee = ongoing(state, "reaction")["melee"]
        state["reaction"] = None
        return self._await_roll(scenario, state, melee)

    def _resume(self, scenario: Scenario, state: State) -> list[Event]:
        """After a reaction fire: the melee goes on with the attackers still able to attack."""
        melee = state["after"]
        assert melee is not None, "no melee held back"
        state["after"] = None
        able = [
            a
            for a in melee["attackers"]
            if not state["units"][a]["out"] and state["units"][a]["status"] != "routed"
        ]
        if not able:
            return [{"key": "log.melee_cancelled", "params": {"target": melee["target"]}}]
        melee = {**melee, "attackers": able}
        try:
            return self._await_roll(scenario, state, melee)
        except combat.IllegalCombatError:
            return [{"key": "log.melee_cancelled", "params": {"target": melee["target"]}}]

    def _melee_result(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """The melee table read; its effects, tests and advances queue up in order."""
        chance = action["chance"]
        tables = T.tables_for(scenario)
        row = combat.melee_result(action["value"] + chance["total"], tables)
        target = chance["target"]
        defenders = fighting.fighters(state, scenario, target)
        attacker_hexes = [state["units"][a]["hex"] for a in chance["units"]]
        d_codes, a_codes = melee_codes(scenario, state, chance, row)
        later = if_falls_back(chance, row)
        params: dict[str, Any] = {
            "total": action["value"] + chance["total"],
            "defender_codes": d_codes or [NO_CODE],
            "attacker_codes": a_codes or [NO_CODE],
        }
        key = "log.hf_melee_result"
        if later:
            key, params["cavalry_codes"] = "log.hf_melee_result_if_falls_back", later
        events: list[Event] = [{"key": key, "params": params}]
        for uid in defenders:
            common.then(plain(state), *self._steps(scenario, uid, d_codes, attacker_hexes))
        for uid in chance["units"]:
            common.then(plain(state), *self._steps(scenario, uid, a_codes, [target]))
        common.then(
            plain(state),
            {
                "do": "settle",
                "chance": chance,
                "defenders": defenders,
                "d_codes": d_codes,
                "a_codes": a_codes,
                "if_falls_back": later,
                "attacker_hexes": attacker_hexes,
                "fell_back": [],
            },
        )
        return events + self._drain(scenario, state)

    def _settle(self, scenario: Scenario, state: State, item: dict[str, Any]) -> list[Event]:
        """After a melee's effects: the defender's counterattack or pursuit, the winning
        attackers' breakthrough or pursuit (8.7, 9.5: stand-ins of combat.json)."""
        chance, target = item["chance"], item["chance"]["target"]
        events: list[Event] = []
        units = state["units"]
        able = [
            d
            for d in item["defenders"]
            if units[d]["status"] != "routed"
            and units[d]["hex"] == target
            and scenario.units[d]["type"] in ("infantry", "cavalry")
        ]
        here = scenario.hex_at(target)
        held = sorted(
            {
                units[a]["hex"]
                for a in chance["units"]
                if units[a]["status"] != "routed"
                and not units[a]["out"]
                and hex_distance(here, scenario.hex_at(units[a]["hex"])) == 1
            }
        )
        if "counterattack" in item["d_codes"] and not chance.get("counter") and able and held:
            state["counterattack"] = {"units": able, "targets": held}
        # The defender's pursuit: the italic result of a cavalry defender, or after a
        # countercharge (9.4) the 0-4 row's, if an attacker fell back.
        fell = [a for a in chance["units"] if a in item.get("fell_back", ())]
        d_codes = list(item["d_codes"]) + (item.get("if_falls_back", []) if fell else [])
        if "pursuit" in d_codes:
            chasers = chance.get("countercharge") or item["defenders"]
            chasers = [d for d in chasers if d in able and scenario.units[d]["type"] == "cavalry"]
            origins = item.get("attacker_hexes", [])
            left = [
                origins[i] for i, a in enumerate(chance["units"]) if a in fell and i < len(origins)
            ]
            vacated = [h for h in dict.fromkeys(left) if not fighting.units_in(state, scenario, h)]
            if chasers and vacated:
                events += self._follow(scenario, state, "pursuit", chasers, vacated[0])
        a_codes = item["a_codes"]
        vacated_target = not fighting.units_in(state, scenario, target)
        if vacated_target and any(c in ("breakthrough", "pursuit") for c in a_codes):
            movers = [u for u in chance["units"] if units[u]["status"] != "routed"]
            if "pursuit" in a_codes:
                movers = [u for u in movers if scenario.units[u]["type"] == "cavalry"]
                events += self._follow(scenario, state, "pursuit", movers, target)
            else:
                events += self._follow(scenario, state, "breakthrough", movers, target)
        return events

    def _follow(
        self, scenario: Scenario, state: State, procedure: str, movers: list[str], to: str
    ) -> list[Event]:
        """A winner's advance into a vacated hex (breakthrough or pursuit): offered when the
        procedure says "may", made by the first of ``movers`` when it says "must"."""
        t = T.tables_for(scenario).settings
        count = t[f"procedures.{procedure}.units"]
        if not movers:
            return []
        if t[f"procedures.{procedure}.advance"] == "may":
            state["advance"] = {"hex": to, "units": movers, "procedure": procedure, "left": count}
            return []
        events: list[Event] = []
        for uid in movers[:count]:
            events += self._move_in(scenario, state, uid, to, procedure)
        return events

    def _move_in(
        self, scenario: Scenario, state: State, uid: str, to: str, procedure: str
    ) -> list[Event]:
        """A unit advances by ``procedure``; the cohesion test of a pursuit is due next (before
        what else is queued, after the tests of the units that pursued before it)."""
        if procedure != "pursuit":
            return self._advance(scenario, state, uid, to)
        frm = state["units"][uid]["hex"]
        state["units"][uid]["hex"] = to
        rule = T.raw_tables()["procedures"]["pursuit"]["rule"]
        failed = T.tables_for(scenario).settings["procedures.pursuit.failed"]
        if failed:
            queue = state["queue"]
            at = next((i for i, q in enumerate(queue) if not q.get("pursuit")), len(queue))
            test = {"do": "test", "unit": uid, "failed": list(failed), "away": [], "pursuit": True}
            queue.insert(at, test)
        return [
            {"key": "log.hf_pursuit", "params": {"unit": uid, "from": frm, "to": to, "rule": rule}}
        ]

    def _steps(
        self, scenario: Scenario, uid: str, codes: list[str], away: list[str]
    ) -> list[dict[str, Any]]:
        """A result's codes on one unit, as queued steps: effects, then its cohesion test."""
        steps: list[dict[str, Any]] = []
        codes_table = T.tables_for(scenario).codes
        for code in codes:
            if code in PROCEDURES:
                continue  # they move or strike back: see _settle
            effects, failed = codes_table[code]
            steps += [{"do": "effect", "unit": uid, "effect": e, "away": away} for e in effects]
            if failed:
                steps.append({"do": "test", "unit": uid, "failed": list(failed), "away": away})
        return steps

    def _drain(self, scenario: Scenario, state: State) -> list[Event]:
        """Carry out the queued steps until a die or a decision is needed (``common.drain``;
        a step of a unit out is dropped); once none is left, the melee a reaction fire put
        off goes on."""
        units = state["units"]
        handlers: dict[str, Callable[[Scenario, Any, common.Step], common.Outcome]] = {
            "settle": self._settle_step,
            "test": self._test_step,
            "effect": self._effect_step,
        }
        events = common.drain(
            scenario,
            plain(state),
            handlers,
            gone=lambda step: step["do"] != "settle" and units[step["unit"]]["out"],
        )
        if not state["queue"] and state.get("after"):
            events += self._resume(scenario, state)
        return events

    def _settle_step(self, scenario: Scenario, state: State, step: Step) -> common.Outcome:
        """The melee settles (``_settle``); it waits on the winners' choice to advance."""
        events = self._settle(scenario, state, step)
        return (common.DONE_WAIT if state.get("advance") else common.DONE), events

    def _test_step(self, scenario: Scenario, state: State, step: Step) -> common.Outcome:
        """A cohesion test: its die is due."""
        state["chance"] = {
            "die": die_name(scenario),
            "purpose": "cohesion",
            "unit": step["unit"],
            "failed": step["failed"],
        }
        return common.WAIT, []

    def _effect_step(self, scenario: Scenario, state: State, step: Step) -> common.Outcome:
        """An effect on one unit: a retreat (its owner picks the hex where there is a choice:
        ``retreat``), else a worse status."""
        uid = step["unit"]
        if step["effect"] == "retreat":
            board = board_for(scenario, state)
            options = fighting.retreat_options(scenario, state, board, uid, step["away"])
            if len(options) > 1:
                state["retreat"] = {"unit": uid, "options": options, "away": list(step["away"])}
                return common.WAIT, []
            return common.DONE, self._retreat(state, uid, options[0] if options else None)
        again = T.tables_for(scenario).settings["disorder_again"]
        status = fighting.worsen(state, uid, step["effect"], again)
        return common.DONE, [{"key": "log.status", "params": {"unit": uid, "status": status}}]

    def _retreat(self, state: State, uid: str, to: str | None) -> list[Event]:
        """A unit retreats into ``to``, or routs where it has nowhere to go; either way it has
        fallen back (the melee waiting to settle notes it: 9.4)."""
        settle = next((q for q in state["queue"] if q["do"] == "settle"), None)
        if settle is not None:
            settle.setdefault("fell_back", []).append(uid)
        unit = state["units"][uid]
        if to is None:
            fighting.worsen(state, uid, "rout")
            return [{"key": "log.retreat_blocked", "params": {"unit": uid}}]
        frm = unit["hex"]
        unit["hex"] = to
        return [{"key": "log.retreat", "params": {"unit": uid, "from": frm, "to": to}}]

    def retreat(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """The owner picks the hex its unit retreats into."""
        state["retreat"] = None
        state["queue"].pop(0)
        return self._retreat(state, action["unit"], action["to"]) + self._drain(scenario, state)

    def _advance(self, scenario: Scenario, state: State, uid: str, to: str) -> list[Event]:
        frm = state["units"][uid]["hex"]
        state["units"][uid]["hex"] = to
        return [{"key": "log.advance", "params": {"unit": uid, "from": frm, "to": to}}]

    def _test_result(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        test = state["queue"].pop(0)
        uid = test["unit"]
        cohesion = int(scenario.units[uid].get("ratings", {}).get("cohesion", 0))
        tables = T.tables_for(scenario)
        passed = combat.cohesion_test_passes(action["value"], cohesion, tables=tables)
        events: list[Event] = [
            {
                "key": "log.test_passed" if passed else "log.test_failed",
                "params": {"unit": uid, "roll": action["value"], "cohesion": cohesion},
            }
        ]
        if not passed:
            away = test["away"]
            effects = [
                {"do": "effect", "unit": uid, "effect": e, "away": away} for e in test["failed"]
            ]
            common.first(plain(state), *effects)
        return events + self._drain(scenario, state)

    def advance(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """A winner advances into the hex the other side left (breakthrough, or a pursuit
        the procedure makes optional); others may follow while its count allows."""
        advance = ongoing(state, "advance")
        procedure = advance.get("procedure", "breakthrough")
        left = int(advance.get("left", 1)) - 1
        others = [u for u in advance["units"] if u != action["unit"]]
        state["advance"] = {**advance, "units": others, "left": left} if left and others else None
        events = self._move_in(scenario, state, action["unit"], action["to"], procedure)
        return events + self._drain(scenario, state)

    def hold(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """The winners stay where they are."""
        state["advance"] = None
        return self._drain(scenario, state)

    def end_rally(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """The side rallying is done; the next side rallies, or the turn ends."""
        sides = [s["id"] for s in scenario.data["sides"]]
        index = sides.index(ongoing(state, "rally")["side"])
        if index + 1 < len(sides):
            state["rally"] = {"side": sides[index + 1], "tried": []}
            events = [{"key": "log.rally_phase", "params": {"side": sides[index + 1]}}]
            return events + self._pass_empty_rally(scenario, state)
        state["rally"] = None
        return self._after(scenario, state, "rally")


# What each chance point was rolled for, and its handler (``state["chance"]["purpose"]``).
CHANCE: dict[str, Callable[..., list[Event]]] = {
    "activation": HexFacingRules._activate,
    "rally": HexFacingRules._rally_result,
    "fire": HexFacingRules._fire_result,
    "melee": HexFacingRules._melee_result,
    "cohesion": HexFacingRules._test_result,
}

HANDLERS: dict[str, Callable[..., list[Event]]] = {
    "roll": HexFacingRules.roll,
    "next_step": HexFacingRules.next_step,
    "move": HexFacingRules.move,
    "face": HexFacingRules.face,
    "rally": HexFacingRules.rally,
    "end_rally": HexFacingRules.end_rally,
    "fire": HexFacingRules.fire,
    "square": HexFacingRules.square,
    "reaction_fire": HexFacingRules.reaction_fire,
    "no_reaction": HexFacingRules.no_reaction,
    "no_counterattack": HexFacingRules.no_counterattack,
    "countercharge": HexFacingRules.countercharge,
    "no_countercharge": HexFacingRules.no_countercharge,
    "retreat": HexFacingRules.retreat,
    "melee": HexFacingRules.melee,
    "advance": HexFacingRules.advance,
    "hold": HexFacingRules.hold,
}

RULES = HexFacingRules()
