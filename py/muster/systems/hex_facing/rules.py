"""hex-facing play: the turn sequence as data, one handler per action.

Sequence (``sequence.json``, documented defaults; the aid names the parts, not their order):
  activation  draw a formation marker from the cup (a chance point); that formation
              fires (artillery), moves (each unit once, then chooses its facing), and
              declares melee and charges; repeat until the cup is empty
  rally       each side, in scenario order, may test the cohesion of its disordered and
              routed units not next to an enemy (pass: d10 + modifiers <= cohesion)
  end         next turn; after the last, objectives and routed enemies decide the winner
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...errors import IllegalActionError
from ...hexgrid import hex_distance
from ...movement import Board, reachable
from ...ruleset import Choice, Label, RulesBase, held_facts
from ...scenario import Scenario
from .. import common
from . import combat, fighting, reference, screen
from .movement import RULES as MOVEMENT

FOLDER = "hex_facing"
State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]
FACINGS = range(12)
PROCEDURES = ("breakthrough", "pursuit", "counterattack")
NO_CODE = "none"  # the word logged for a result with no code (worded "no effect")


def sequence_data() -> dict[str, Any]:
    """The turn sequence defaults (``sequence.json``)."""
    return common.sequence_data(FOLDER)


def settings(scenario: Any) -> dict[str, Any]:
    """The sequence defaults with the scenario's overrides and its own turn count."""
    return common.settings(scenario, FOLDER)


def formations(scenario: Scenario) -> dict[str, dict[str, Any]]:
    """The scenario's formations by id; a unit without one forms its own."""
    found = {f["id"]: f for f in scenario.data.get("formations", [])}
    for uid, unit in scenario.units.items():
        fid = unit.get("formation", uid)
        found.setdefault(fid, {"id": fid, "side": unit["side"], "name": unit["name"]})
    return found


def formation_of(scenario: Scenario, uid: str) -> str:
    """The formation a unit belongs to."""
    return scenario.units[uid].get("formation", uid)


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
    active = state["active"]
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


def melee_codes(
    scenario: Scenario, state: State, chance: dict[str, Any], row: combat.ResultRow
) -> tuple[list[str], list[str]]:
    """The codes of a melee result row for the defenders now in the target hex and for the
    attackers (the italic cavalry codes for cavalry), as (defender's, attacker's)."""
    defenders = fighting.fighters(state, scenario, chance["target"])
    cav_attack = any(scenario.units[a]["type"] == "cavalry" for a in chance["units"])
    cav_defence = any(scenario.units[d]["type"] == "cavalry" for d in defenders)
    d_cell, a_cell = row.cells["defender"], row.cells["attacker"]
    d_codes = d_cell.cavalry if cav_defence and d_cell.cavalry and not d_cell.when else d_cell.codes
    a_codes = a_cell.cavalry if cav_attack and a_cell.cavalry else a_cell.codes
    return list(d_codes), list(a_codes)


def live_formations(scenario: Scenario, state: State) -> list[str]:
    """Formations with a unit still on the map, in scenario order."""
    out = []
    for fid in formations(scenario):
        if any(
            not u["out"] and formation_of(scenario, uid) == fid for uid, u in state["units"].items()
        ):
            out.append(fid)
    return out


class HexFacingRules(RulesBase):
    """The hex-facing ruleset: states, legal actions and handlers."""

    system = "hex-facing"
    previewable = ("fire", "melee", "reaction_fire")
    hidden_information = False
    options: frozenset[str] = frozenset()
    words = screen.WORDS

    def board(self, scenario: Scenario, state: State) -> Board:
        """The map with the units where the state puts them."""
        return board_for(scenario, state)

    def decider(self, scenario: Scenario, state: State) -> str | None:
        """The side that decides now: a retreating unit's owner, the defender who may strike
        back or fire its guns first, the side rallying, the active formation's side; none
        while a marker is drawn from the cup or once the game is over."""
        if state["result"]:
            return None
        unit = None
        if state["retreat"]:
            unit = state["retreat"]["unit"]
        elif state["counterattack"]:
            unit = state["counterattack"]["units"][0]
        elif state["reaction"]:
            unit = state["reaction"]["pairs"][0][0]
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

        return screen.chance_results(scenario, state, chance_faces(state["chance"]))

    def view_extra(self, scenario: Scenario, state: State, viewer: str | None) -> dict[str, Any]:
        """The markers on the counters and the arrows of a fight in progress."""
        return {
            "markers": screen.markers(scenario, state),
            "arrows": screen.arrows(scenario, state),
            "facts": held_facts(state, [s["id"] for s in scenario.data["sides"]]),
        }

    def reference(self, scenario: Scenario, state: State | None) -> dict[str, Any]:
        """The charts of hex-facing for the scenario (``reference.py``)."""
        return reference.reference(scenario, state)

    def initial_state(self, scenario: Scenario, options: dict[str, Any]) -> State:
        """Units where the scenario sets them; the first activation draw is due."""
        units = {
            uid: {
                "hex": spec["hex"],
                "facing": spec.get("facing"),
                "status": "good",
                "square": False,
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
            "after": None,
            "chance": None,
            "result": None,
        }
        self._update_held(scenario, state)
        self._refill_cup(scenario, state)
        return state

    # -- sequence ---------------------------------------------------------------------------

    def _refill_cup(self, scenario: Scenario, state: State) -> None:
        state["cup"] = live_formations(scenario, state)
        self._next_draw(scenario, state)

    def _next_draw(self, scenario: Scenario, state: State) -> list[Event]:
        if state["cup"]:
            state["phase"] = "activation"
            state["active"] = None
            state["chance"] = {"options": list(state["cup"]), "purpose": "activation"}
            return []
        return self._start_rally(scenario, state)

    def _start_rally(self, scenario: Scenario, state: State) -> list[Event]:
        state["phase"] = "rally"
        state["active"] = None
        sides = [s["id"] for s in scenario.data["sides"]]
        state["rally"] = {"side": sides[0], "tried": []}
        return [{"key": "log.rally_phase", "params": {"side": sides[0]}}]

    def _end_turn(self, scenario: Scenario, state: State) -> list[Event]:
        self._update_held(scenario, state)
        events: list[Event] = [{"key": "log.turn_end", "params": {"turn": state["turn"]}}]
        if state["turn"] >= state["turns"]:
            state["phase"] = "over"
            state["rally"] = None
            state["result"] = self._score(scenario, state)
            events.append({"key": "log.game_over", "params": dict(state["result"])})
            return events
        state["turn"] += 1
        state["rally"] = None
        self._refill_cup(scenario, state)
        events.append({"key": "log.turn_start", "params": {"turn": state["turn"]}})
        return events

    def _update_held(self, scenario: Scenario, state: State) -> None:
        for objective in scenario.data.get("objectives", []):
            here = {
                scenario.units[uid]["side"]
                for uid, u in state["units"].items()
                if not u["out"] and u["hex"] == objective["hex"]
            }
            if len(here) == 1:
                state["held"][objective["hex"]] = here.pop()

    def _score(self, scenario: Scenario, state: State) -> dict[str, Any]:
        rule = settings(scenario)["victory"]
        points = {s["id"]: 0 for s in scenario.data["sides"]}
        for objective in scenario.data.get("objectives", []):
            holder = state["held"].get(objective["hex"])
            if holder in points:
                points[holder] += objective["points"]
        for uid, u in state["units"].items():
            if u["out"] or u["status"] == "routed":
                for side in points:
                    if side != scenario.units[uid]["side"]:
                        points[side] += rule["routed_unit_points"]
        best = max(points.values())
        leaders = [s for s, p in points.items() if p == best]
        return {"points": points, "winner": leaders[0] if len(leaders) == 1 else None}

    # -- legal actions ----------------------------------------------------------------------

    def legal_actions(self, scenario: Scenario, state: State) -> list[Action]:
        """Every action the player may take now."""
        if state["phase"] == "formation":
            return self._formation_actions(scenario, state)
        if state["phase"] == "rally":
            return self._rally_actions(scenario, state)
        return []

    def _formation_actions(self, scenario: Scenario, state: State) -> list[Action]:
        active = state["active"]
        if state.get("retreat"):
            retreat = state["retreat"]
            return [
                {"type": "retreat", "unit": retreat["unit"], "to": to} for to in retreat["options"]
            ]
        if state.get("reaction"):
            reaction = state["reaction"]
            fires = [
                {"type": "reaction_fire", "unit": g, "target": t} for g, t in reaction["pairs"]
            ]
            return fires + [{"type": "no_reaction"}]
        if state.get("counterattack"):
            counter = state["counterattack"]
            return [
                {"type": "melee", "target": t, "attackers": counter["units"], "counter": True}
                for t in counter["targets"]
            ] + [{"type": "no_counterattack"}]
        if state.get("advance"):
            advance = state["advance"]
            moves = [{"type": "advance", "unit": u, "to": advance["hex"]} for u in advance["units"]]
            return moves + [{"type": "hold"}]
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
            for uid in active_units(scenario, state):
                if uid in active["acted"] or state["units"][uid]["status"] == "routed":
                    continue
                reach = reachable(board, uid, MOVEMENT)
                here = board.unit(uid).hex
                actions += [
                    {"type": "move", "unit": uid, "to": board.label(h)}
                    for h in sorted(reach)
                    if h != here
                ]
                actions += [{"type": "face", "unit": uid, "facing": f} for f in FACINGS]
                if scenario.units[uid]["type"] == "infantry":
                    actions.append(
                        {"type": "square", "unit": uid, "form": not state["units"][uid]["square"]}
                    )
        actions.append({"type": "next_step"})
        return actions

    def _rally_actions(self, scenario: Scenario, state: State) -> list[Action]:
        rally = state["rally"]
        board = board_for(scenario, state)
        actions: list[Action] = []
        for uid, u in state["units"].items():
            if u["out"] or u["status"] == "good" or uid in rally["tried"]:
                continue
            if scenario.units[uid]["side"] != rally["side"]:
                continue
            if board.adjacent_to_enemy(board.unit(uid).hex, rally["side"]):
                continue
            actions.append({"type": "rally", "unit": uid})
        actions.append({"type": "end_rally"})
        return actions

    # -- handlers ---------------------------------------------------------------------------

    def apply(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """Carry out a legal action on ``state``."""
        return common.handler_for(action, HANDLERS)(self, scenario, state, action)

    def roll(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """A chance point settled: go on with what it was rolled for."""
        purpose = action["chance"]["purpose"]
        if purpose == "activation":
            return self._activate(scenario, state, action["value"])
        if purpose == "rally":
            return self._rally_result(scenario, state, action)
        if purpose == "fire":
            return self._fire_result(scenario, state, action)
        if purpose == "melee":
            return self._melee_result(scenario, state, action)
        if purpose == "cohesion":
            return self._test_result(scenario, state, action)
        raise IllegalActionError(
            "error.illegal_action", "no roll is due for {purpose}", purpose=purpose
        )

    def _activate(self, scenario: Scenario, state: State, fid: str) -> list[Event]:
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
        state["active"]["step"] = steps[0]
        key = "log.hf_activated" if orders else "log.hf_activated_no_orders"
        return [{"key": key, "params": {"formation": fid, "side": formation["side"]}}]

    def next_step(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """The formation ends its present step (fire, move, combat)."""
        steps = settings(scenario)["formation_steps"]
        active = state["active"]
        index = steps.index(active["step"])
        if index + 1 < len(steps):
            active["step"] = steps[index + 1]
            active["acted"] = []
            params = {"formation": active["formation"], "step": active["step"]}
            return [{"key": "log.hf_step", "params": params}]
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
        state["active"]["acted"].append(uid)
        state["active"]["facing_due"] = uid
        return events

    def face(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """Set a unit's facing (after its move, or as its whole move)."""
        uid = action["unit"]
        state["units"][uid]["facing"] = action["facing"]
        active = state["active"]
        if active["facing_due"] == uid:
            active["facing_due"] = None
        else:
            active["acted"].append(uid)
        return [{"key": "log.face", "params": {"unit": uid, "facing": action["facing"]}}]

    def square(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """Infantry forms square, or leaves it, as its whole move (default: sequence.json)."""
        uid = action["unit"]
        state["units"][uid]["square"] = action["form"]
        state["active"]["acted"].append(uid)
        key = "log.square_formed" if action["form"] else "log.square_left"
        return [{"key": key, "params": {"unit": uid}}]

    def rally(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """Test a unit's cohesion to rally it one step."""
        state["rally"]["tried"].append(action["unit"])
        modifier = self._rally_modifier(scenario, state, action["unit"])
        state["chance"] = {
            "die": "d10",
            "purpose": "rally",
            "unit": action["unit"],
            "modifier": modifier,
        }
        return []

    def _rally_modifier(self, scenario: Scenario, state: State, uid: str) -> int:
        here = scenario.hex_at(state["units"][uid]["hex"])
        side = scenario.units[uid]["side"]
        for other, u in state["units"].items():
            spec = scenario.units[other]
            if u["out"] or spec["side"] != side or spec["type"] != "leader":
                continue
            if hex_distance(here, scenario.hex_at(u["hex"])) <= 1:
                return settings(scenario)["rally"]["modifier_adjacent_leader"]
        return 0

    def _rally_result(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        chance = action["chance"]
        uid = chance["unit"]
        cohesion = scenario.units[uid].get("ratings", {}).get("cohesion", 0)
        total = action["value"] + chance["modifier"]
        unit = state["units"][uid]
        passed = combat.cohesion_test_passes(action["value"], cohesion, chance["modifier"])
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
        parts = combat.fire_modifiers(situation, combat.tables_for(scenario))
        firers = [action["unit"]] + ([action["with"]] if "with" in action else [])
        if action.get("kind") != "reaction":
            state["active"]["acted"] += firers
        state["chance"] = {
            "die": "d10",
            "purpose": "fire",
            "target": action["target"],
            "units": firers,
            "total": combat.total(parts),
        }
        key = "log.hf_reaction_fire" if action.get("kind") == "reaction" else "log.hf_fire"
        return [
            {
                "key": key,
                "params": {
                    "units": firers,
                    "target": action["target"],
                    "total": combat.total(parts),
                },
            },
            *(modifier_event(p) for p in parts),
        ]

    def _fire_result(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        chance = action["chance"]
        row = combat.fire_result(action["value"], chance["total"])
        codes = list(row.cells["result"].codes)
        total = action["value"] + chance["total"]
        events: list[Event] = [
            {"key": "log.hf_fire_result", "params": {"total": total, "codes": codes or [NO_CODE]}}
        ]
        away = [state["units"][chance["units"][0]]["hex"]]
        for uid in fighting.fighters(state, scenario, chance["target"]):
            state["queue"] += self._steps(uid, codes, away)
        return events + self._drain(scenario, state)

    def melee(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """Declare a melee or charge; guns in the defending hex may fire in reaction first."""
        if action.get("counter"):
            state["counterattack"] = None
        else:
            state["active"]["acted"] += action["attackers"]
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
        state["chance"] = chance
        return events

    def _melee_chance(
        self, scenario: Scenario, state: State, action: Action
    ) -> tuple[dict[str, Any], list[Any]]:
        """The melee's die roll as a chance point, with its modifiers as things stand now."""
        board = board_for(scenario, state)
        situation = fighting.melee_situation(scenario, state, board, action)
        parts = combat.melee_modifiers(situation, combat.tables_for(scenario))
        chance = {
            "die": "d10",
            "purpose": "melee",
            "target": action["target"],
            "units": list(action["attackers"]),
            "charge": bool(action.get("charge")),
            "counter": bool(action.get("counter")),
            "total": combat.total(parts),
        }
        return chance, parts

    def reaction_fire(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """A gun in the attacked hex fires at an attacker before the melee (-1, rule 8.3)."""
        reaction = state["reaction"]
        state["reaction"] = None
        state["after"] = reaction["melee"]
        state["units"][action["unit"]]["reacted"] = state["turn"]
        fire = {
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
        melee = state["reaction"]["melee"]
        state["reaction"] = None
        state["chance"] = self._melee_chance(scenario, state, melee)[0]
        return []

    def _resume(self, scenario: Scenario, state: State) -> list[Event]:
        """After a reaction fire: the melee goes on with the attackers still able to attack."""
        melee = state["after"]
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
            state["chance"] = self._melee_chance(scenario, state, melee)[0]
        except combat.IllegalCombatError:
            return [{"key": "log.melee_cancelled", "params": {"target": melee["target"]}}]
        return []

    def _melee_result(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """The melee table read; its effects, tests and advances queue up in order."""
        chance = action["chance"]
        row = combat.melee_result(action["value"] + chance["total"])
        target = chance["target"]
        defenders = fighting.fighters(state, scenario, target)
        attacker_hexes = [state["units"][a]["hex"] for a in chance["units"]]
        d_codes, a_codes = melee_codes(scenario, state, chance, row)
        events: list[Event] = [
            {
                "key": "log.hf_melee_result",
                "params": {
                    "total": action["value"] + chance["total"],
                    "defender_codes": d_codes or [NO_CODE],
                    "attacker_codes": a_codes or [NO_CODE],
                },
            }
        ]
        for uid in defenders:
            state["queue"] += self._steps(uid, d_codes, attacker_hexes)
        for uid in chance["units"]:
            state["queue"] += self._steps(uid, a_codes, [target])
        state["queue"].append(
            {
                "do": "settle",
                "chance": chance,
                "defenders": defenders,
                "d_codes": d_codes,
                "a_codes": a_codes,
            }
        )
        return events + self._drain(scenario, state)

    def _settle(self, scenario: Scenario, state: State, item: dict[str, Any]) -> list[Event]:
        """After a melee's effects: the defender's counterattack, the winners' advance."""
        chance, target = item["chance"], item["chance"]["target"]
        events: list[Event] = []
        able = [
            d
            for d in item["defenders"]
            if state["units"][d]["status"] != "routed"
            and state["units"][d]["hex"] == target
            and scenario.units[d]["type"] in ("infantry", "cavalry")
        ]
        here = scenario.hex_at(target)
        held = sorted(
            {
                state["units"][a]["hex"]
                for a in chance["units"]
                if state["units"][a]["status"] != "routed"
                and not state["units"][a]["out"]
                and hex_distance(here, scenario.hex_at(state["units"][a]["hex"])) == 1
            }
        )
        if "counterattack" in item["d_codes"] and not chance.get("counter") and able and held:
            state["counterattack"] = {"units": able, "targets": held}
        a_codes = item["a_codes"]
        vacated = not fighting.units_in(state, scenario, target)
        if vacated and any(c in ("breakthrough", "pursuit") for c in a_codes):
            movers = [u for u in chance["units"] if state["units"][u]["status"] != "routed"]
            if "pursuit" in a_codes:
                movers = [u for u in movers if scenario.units[u]["type"] == "cavalry"][:1]
                for uid in movers:
                    events += self._advance(scenario, state, uid, target)
                    state["queue"].insert(
                        0, {"do": "test", "unit": uid, "failed": ["disorder"], "away": []}
                    )
            elif movers:
                state["advance"] = {"hex": target, "units": movers}
        return events

    def _steps(self, uid: str, codes: list[str], away: list[str]) -> list[dict[str, Any]]:
        """A result's codes on one unit, as queued steps: effects, then its cohesion test."""
        steps: list[dict[str, Any]] = []
        for code in codes:
            if code in PROCEDURES:
                continue  # they move or strike back: see _settle
            effects, failed = combat.load_tables().codes[code]
            steps += [{"do": "effect", "unit": uid, "effect": e, "away": away} for e in effects]
            if failed:
                steps.append({"do": "test", "unit": uid, "failed": list(failed), "away": away})
        return steps

    def _drain(self, scenario: Scenario, state: State) -> list[Event]:
        """Carry out the queued steps until a die or a decision is needed."""
        events: list[Event] = []
        queue = state["queue"]
        while queue:
            item = queue[0]
            if item["do"] == "settle":
                queue.pop(0)
                events += self._settle(scenario, state, item)
                if state.get("advance"):
                    return events
                continue
            if state["units"][item["unit"]]["out"]:
                queue.pop(0)
                continue
            if item["do"] == "test":
                state["chance"] = {
                    "die": "d10",
                    "purpose": "cohesion",
                    "unit": item["unit"],
                    "failed": item["failed"],
                }
                return events
            if item["effect"] == "retreat":
                board = board_for(scenario, state)
                options = fighting.retreat_options(
                    scenario, state, board, item["unit"], item["away"]
                )
                if len(options) > 1:
                    state["retreat"] = {"unit": item["unit"], "options": options}
                    return events
                queue.pop(0)
                events += self._retreat(state, item["unit"], options[0] if options else None)
                continue
            queue.pop(0)
            status = fighting.worsen(state, item["unit"], item["effect"])
            events.append({"key": "log.status", "params": {"unit": item["unit"], "status": status}})
        if state.get("after"):
            events += self._resume(scenario, state)
        return events

    def _retreat(self, state: State, uid: str, to: str | None) -> list[Event]:
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
        passed = combat.cohesion_test_passes(action["value"], cohesion)
        events: list[Event] = [
            {
                "key": "log.test_passed" if passed else "log.test_failed",
                "params": {"unit": uid, "roll": action["value"], "cohesion": cohesion},
            }
        ]
        if not passed:
            state["queue"][0:0] = [
                {"do": "effect", "unit": uid, "effect": e, "away": test["away"]}
                for e in test["failed"]
            ]
        return events + self._drain(scenario, state)

    def advance(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """A winning attacker advances into the hex the defender left (breakthrough)."""
        state["advance"] = None
        return self._advance(scenario, state, action["unit"], action["to"])

    def hold(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """The winners stay where they are."""
        state["advance"] = None
        return []

    def end_rally(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """The side rallying is done; the next side rallies, or the turn ends."""
        sides = [s["id"] for s in scenario.data["sides"]]
        index = sides.index(state["rally"]["side"])
        if index + 1 < len(sides):
            state["rally"] = {"side": sides[index + 1], "tried": []}
            return [{"key": "log.rally_phase", "params": {"side": sides[index + 1]}}]
        return self._end_turn(scenario, state)


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
    "retreat": HexFacingRules.retreat,
    "melee": HexFacingRules.melee,
    "advance": HexFacingRules.advance,
    "hold": HexFacingRules.hold,
}

RULES = HexFacingRules()
