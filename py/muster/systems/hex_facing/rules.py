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
breakthrough or the pursuit the result calls for (8.7, 9.5, stand-ins). The handlers of a fight
up to its die are ``declare.py``'s, of what its dice do ``aftermath.py``'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ... import play, standing
from ...dice import chance_handler
from ...hexgrid import hex_distance
from ...hexmap import Scenario
from ...los import line_of_sight
from ...movement import Board
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
from . import aftermath, combat, declare, fighting, geometry, reference, screen
from . import tables as T
from .movement import reach as reach_of
from .position import (
    FOLDER,
    active_units,
    board_for,
    die_name,
    formation_of,
    formations,
    live_formations,
    rally_modifier,
    settings,
)
from .state import HexFacingState, ongoing, plain

State = HexFacingState  # the state's shape (state.py)
Event = dict[str, Any]
FACINGS = range(12)
PHASES = ("activation", "rally", "end")  # the phases a turn may list (sequence.json "turn")
MOVEMENT_TABLE = "terrain table"  # the rule a move's cost comes from
SIGHT_RULE = "7.4"  # line of sight, as the aid's note (f) names it


class HexFacingRules(RulesBase[HexFacingState, Action]):
    """The hex-facing ruleset: states, legal actions and handlers."""

    system = "hex-facing"
    previewable = ("fire", "melee", "reaction_fire", "countercharge", "no_countercharge")
    hidden_information = False
    options: frozenset[str] = frozenset()
    words = screen.WORDS
    # The result card (muster.cards): every die and every formation drawn from the cup (its
    # units marked, ``card_units``); a fight's die and the cohesion tests its
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
    card_keys = frozenset({"log.roll", "log.draw"})
    card_quiet = frozenset({"log.hf_step", "log.rally_phase", "log.face"})
    markers = screen.MARKERS

    def card_units(self, scenario: Scenario, state: State, card: dict[str, Any]) -> list[str]:
        """The units on the map of the formation a card's draw activated."""
        drawn = (card.get("draw") or {}).get("drawn")
        if drawn is None:
            return []
        return [
            uid
            for uid, unit in state["units"].items()
            if not unit["out"] and formation_of(scenario, uid) == drawn
        ]

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
                state, [s["id"] for s in scenario.data["sides"]], play.objectives(scenario)
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
            if scenario.hex_at(str(to)) in reach_of(board, uid):
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
            return events + play.game_over(plain(state), self._points(scenario, state))
        state["turn"] += 1
        state["rally"] = None
        events.append({"key": "log.turn_start", "params": {"turn": state["turn"]}})
        return events + self._enter(scenario, state, self._phases(scenario)[0])

    def _update_held(self, scenario: Scenario, state: State) -> None:
        """An objective is held by the last side to stand on it alone (its units on the map)."""
        places = [place for place, _ in play.objectives(scenario)]
        present = (
            (u["hex"], scenario.units[uid]["side"])
            for uid, u in state["units"].items()
            if not u["out"]
        )
        play.update_held(plain(state)["held"], places, present)

    def _points(self, scenario: Scenario, state: State) -> dict[str, int]:
        """Each side's points at the end: the sum of its ``score``."""
        return {side: sum(parts.values()) for side, parts in self.score(scenario, state).items()}

    def score(self, scenario: Scenario, state: State) -> dict[str, dict[str, int]]:
        """Each side's points now, by source: the objectives it holds (if the scenario counts
        them) and ``routed_unit_points`` for each enemy unit routed or out (if any)."""
        rule = settings(scenario)["victory"]
        sides = [s["id"] for s in scenario.data["sides"]]
        scored = play.objectives(scenario) if rule["objective_points"] else ()
        objectives = play.objective_points(sides, state["held"], scored)
        routed = dict.fromkeys(sides, 0)
        routed_n = rule["routed_unit_points"]
        for uid, u in state["units"].items():
            if u["out"] or u["status"] == "routed":
                side = scenario.units[uid]["side"]
                play.to_the_others(routed, side, routed_n)
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
                    for h in sorted(reach_of(board, uid))
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
        handler: Callable[..., list[Event]] = play.handler_for(action, HANDLERS)
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
        found = reach_of(board, uid)
        step = found[target].step
        unit = state["units"][uid]
        events: list[Event] = [
            {
                "key": "log.move",
                "params": {
                    "unit": uid,
                    "from": unit["hex"],
                    "to": action["to"],
                    "cost": found[target].cost,
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
        """The rally roll's modifier (``position.rally_modifier``)."""
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

    # -- fire and melee (declared: declare.py; what their dice do: aftermath.py) ---------------

    def preview(self, scenario: Scenario, state: State, action: Action) -> dict[str, Any]:
        """Modifiers and exact odds of a fire or melee action before it is taken."""
        return fighting.preview(scenario, state, board_for(scenario, state), action)


# What each chance point was rolled for, and its handler (``state["chance"]["purpose"]``).
CHANCE: dict[str, Callable[..., list[Event]]] = {
    "activation": HexFacingRules._activate,
    "rally": HexFacingRules._rally_result,
    "fire": aftermath.fire_result,
    "melee": aftermath.melee_result,
    "cohesion": aftermath.test_result,
}

HANDLERS: dict[str, Callable[..., list[Event]]] = {
    "roll": HexFacingRules.roll,
    "next_step": HexFacingRules.next_step,
    "move": HexFacingRules.move,
    "face": HexFacingRules.face,
    "rally": HexFacingRules.rally,
    "end_rally": HexFacingRules.end_rally,
    "fire": declare.fire,
    "square": HexFacingRules.square,
    "reaction_fire": declare.reaction_fire,
    "no_reaction": declare.no_reaction,
    "no_counterattack": declare.no_counterattack,
    "countercharge": declare.countercharge,
    "no_countercharge": declare.no_countercharge,
    "retreat": aftermath.retreat,
    "melee": declare.melee,
    "advance": aftermath.advance,
    "hold": aftermath.hold,
}

RULES = HexFacingRules()
