"""area-locale play: the player turn (``sequence.json``), one handler per action, and the
view of one side, which never holds the other side's hidden blocks.

Player turn (the notes' order, ``player_turn`` of sequence.json):
  bombardment  artillery that declared last turn may fire, by target priority
  assault      from an approach against the enemy approach blocking it (1 command)
  movement     groups for commands (reserve / approach cases), roads, maneuver attacks
  declaration  artillery reveals itself and declares a bombardment for next turn
Two player turns a game turn, the first side first; 16 turns; no dice. Every number and every
reading a scenario may change is a setting of sequence.json (``position.settings``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ... import play, standing
from ...areamap import AreaScenario
from ...ruleset import Action, Refusal, RulesBase, held_facts, place_words, refusal
from . import assault as A
from . import position as P
from . import reference, screen
from .state import AreaLocaleState, asked, phasing, plain

State = AreaLocaleState  # the state's shape (state.py)
Event = dict[str, Any]


class AreaLocaleRules(RulesBase[AreaLocaleState, Action]):
    """The area-locale ruleset."""

    system = "area-locale"
    previewable = ()
    hidden_information = True
    options: frozenset[str] = frozenset()
    words = screen.WORDS
    # The result card (muster.cards): no dice; a fight resolved (an assault, a bombardment, a
    # maneuver attack blocked or not) and every loss and retreat, under the attack's line.
    card_keys = frozenset(
        {
            "log.al_result",
            "log.al_bombard",
            "log.al_blocked",
            "log.al_not_blocked",
            "log.al_artillery_fire",
            "log.al_pursuit",
            "log.al_step_lost",
            "log.al_eliminated",
            "log.al_guns_lost",
            "log.al_retreat",
            "log.al_no_retreat",
        }
    )
    card_heads = {"": frozenset({"log.al_assault", "log.al_maneuver"})}
    card_quiet = frozenset({"log.al_phase"})
    markers = screen.MARKERS

    def board(self, scenario: AreaScenario, state: State) -> None:
        """No hex board: area maps have their own queries."""
        return None

    def reference(self, scenario: AreaScenario, state: State | None) -> dict[str, Any]:
        """The charts of area-locale for the scenario (``reference.py``)."""
        return reference.reference(scenario, state)

    def initial_state(self, scenario: AreaScenario, options: dict[str, Any]) -> State:
        """Blocks where the scenario sets them; the first side's turn."""
        pieces = {
            pid: {
                "locale": spec["locale"],
                "approach": spec.get("approach"),
                "steps": int(spec["steps"]),
                "out": False,
                "revealed": False,
                "moved": False,
                "assaulted": False,
                "bombarded": P.NEVER_BOMBARDED,
                "declared": False,
                "road": False,
            }
            for pid, spec in scenario.units.items()
        }
        state: State = {
            "turn": 1,
            "turns": P.settings(scenario)["turns"],
            "side": scenario.data["sides"][0]["id"],
            "phase": P.phases(scenario)[0],
            "commands": 0,
            "pieces": pieces,
            "selection": [],
            "roads_used": 0,
            "road_steps": [],
            "won": [],
            "army": P.army_start(scenario),
            "held": {},
            "pending": None,
            "assault": None,
            "queue": [],
            "chance": None,
            "result": None,
        }
        P.update_held(scenario, state)
        self._start_player_turn(scenario, state)
        return state

    # -- sequence -------------------------------------------------------------------------------

    def _start_player_turn(self, scenario: AreaScenario, state: State) -> list[Event]:
        state["commands"] = P.settings(scenario)["commands"]["per_turn"]
        state["selection"], state["roads_used"], state["road_steps"], state["won"] = [], 0, [], []
        for pid, p in state["pieces"].items():
            if P.side_of(scenario, pid) == state["side"]:
                p.update(moved=False, assaulted=False, road=False)
        return self._enter(scenario, state, P.phases(scenario)[0])

    def _enter(self, scenario: AreaScenario, state: State, phase: str) -> list[Event]:
        """Begin ``phase``; one with nothing to do passes by itself, logged for its side
        (sequence.json ``empty_steps``)."""
        if state["phase"] == "bombardment" and phase != "bombardment":
            for pid in self._own(scenario, state):  # a declaration not fired lapses
                state["pieces"][pid]["declared"] = False
        state["phase"] = phase
        events = [{"key": "log.al_phase", "params": {"phase": phase, "side": state["side"]}}]
        empty = {
            "bombardment": not self._bombard_actions(scenario, state),
            "assault": not self._assault_actions(scenario, state),
            "declaration": not self._declare_actions(scenario, state),
        }
        if empty.get(phase) and P.settings(scenario)["empty_steps"]["passed"]:
            # Its own side's log only: the other side is not told it had nothing to do.
            side = state["side"]
            passed = {"key": "log.al_phase_passed", "params": {"phase": phase, "side": side}}
            return events + [{**passed, "to": side}] + self._next_phase(scenario, state)
        return events

    def _next_phase(self, scenario: AreaScenario, state: State) -> list[Event]:
        """On to the next phase of the player turn, or the other side's turn after the last."""
        phases = P.phases(scenario)
        at = phases.index(state["phase"])
        if at == len(phases) - 1:
            return self._end_player_turn(scenario, state)
        return self._enter(scenario, state, phases[at + 1])

    def _end_player_turn(self, scenario: AreaScenario, state: State) -> list[Event]:
        P.update_held(scenario, state)
        order = [s["id"] for s in scenario.data["sides"]]
        events: list[Event] = []
        if P.settings(scenario)["reveal"]["until"] == "end_of_player_turn":
            self._hide_again(state)
        if state["side"] == order[0]:
            state["side"] = order[1]
        else:
            events.append({"key": "log.turn_end", "params": {"turn": state["turn"]}})
            self._hide_again(state)
            if state["turn"] >= state["turns"]:
                return events + self._game_over(scenario, state)
            state["turn"] += 1
            state["side"] = order[0]
            events.append({"key": "log.turn_start", "params": {"turn": state["turn"]}})
        return events + self._start_player_turn(scenario, state)

    def _hide_again(self, state: State) -> None:
        """Revealed blocks are hidden again (``reveal.until``), but for guns still declared."""
        for p in state["pieces"].values():
            p["revealed"] = p["declared"] and not p["out"]

    def _game_over(self, scenario: AreaScenario, state: State) -> list[Event]:
        """The last turn is over: the side alone with most objective points wins."""
        state["pending"] = None
        return play.game_over(plain(state), A.score(scenario, state))

    # -- legal actions ----------------------------------------------------------------------------

    def decider(self, scenario: AreaScenario, state: State) -> str:
        """The side that acts now: the phasing side, or the other at an interrupt."""
        pending = state["pending"]
        return pending["side"] if pending else phasing(state)

    def legal_actions(self, scenario: AreaScenario, state: State) -> list[Action]:
        """Every action the deciding side may take now."""
        if state["phase"] == "over":
            return []
        pending = state["pending"]
        if pending:
            return _decision_actions(pending)
        phase = state["phase"]
        last = phase == P.phases(scenario)[-1]
        end: Action = {"type": "end_turn" if last else "end_phase"}
        if phase == "bombardment":
            return self._bombard_actions(scenario, state) + [end]
        if phase == "assault":
            return self._assault_actions(scenario, state) + [end]
        if phase == "declaration":
            return self._declare_actions(scenario, state) + [end]
        actions = self._movement_actions(scenario, state)
        if not self._compulsory(scenario, state):
            actions.append(end)
        return actions

    def _own(self, scenario: AreaScenario, state: State) -> list[str]:
        return sorted(pid for pid in P.live(state) if P.side_of(scenario, pid) == state["side"])

    def _bombard_actions(self, scenario: AreaScenario, state: State) -> list[Action]:
        return [
            {"type": "bombard", "unit": pid}
            for pid in self._own(scenario, state)
            if state["pieces"][pid]["declared"] and self._target(scenario, state, pid)
        ]

    def _assault_actions(self, scenario: AreaScenario, state: State) -> list[Action]:
        places = {
            P.position(state["pieces"][pid])
            for pid in self._own(scenario, state)
            if state["pieces"][pid]["approach"] is not None
        }
        return [
            {"type": "assault", "approach": ap}
            for ap in sorted(places)
            if A.can_assault(scenario, state, ap)
        ]

    def _declare_actions(self, scenario: AreaScenario, state: State) -> list[Action]:
        return [
            {"type": "declare", "unit": pid}
            for pid in self._own(scenario, state)
            if P.kind(scenario, pid) == "artillery"
            and not state["pieces"][pid]["declared"]
            and state["pieces"][pid]["bombarded"] != state["turn"]
            and self._target(scenario, state, pid)
        ]

    def _target(self, scenario: AreaScenario, state: State, gun: str) -> list[str] | None:
        """A bombardment's target by the notes' priority: the approach the gun faces, else that
        locale's reserve, else another of its approaches; None if nothing is there."""
        p = state["pieces"][gun]
        a, n = p["locale"], p["approach"]
        if n is None:
            return None
        enemy = P.other(scenario, phasing(state))
        order = [(n, a), (n, None)] + [(n, m) for m in scenario.neighbors[n] if m != a]
        for where in order:
            found = P.at(state, where[0], where[1], enemy, scenario)
            if found:
                return found
        return None

    def _compulsory(self, scenario: AreaScenario, state: State) -> list[str]:
        """Pieces on an approach with no enemy beyond, that must still move this turn."""
        return [
            pid
            for pid in self._own(scenario, state)
            if not state["pieces"][pid]["moved"]
            and state["pieces"][pid]["approach"] is not None
            and not P.enemy_in(scenario, state, state["pieces"][pid]["approach"], phasing(state))
        ]

    def _movement_actions(self, scenario: AreaScenario, state: State) -> list[Action]:
        selection = state["selection"]
        actions: list[Action] = []
        together = P.group_place
        where = together(scenario, state["pieces"][selection[0]]) if selection else None
        for pid in self._own(scenario, state):
            p = state["pieces"][pid]
            if p["moved"] or p["bombarded"] == state["turn"]:
                continue
            if where is None or together(scenario, p) == where or pid in selection:
                actions.append({"type": "select", "unit": pid})
        if selection:
            for to, cost, attack in self.destinations(scenario, state, selection):
                if cost <= state["commands"]:
                    move: Action = {"type": "move", "to": to}
                    if attack:
                        move["attack"] = True
                    actions.append(move)
        if len(selection) == 1:
            actions += [
                {"type": "road", "unit": selection[0], "path": path}
                for path in self.road_paths(scenario, state, selection[0])
            ]
        return actions

    def destinations(
        self, scenario: AreaScenario, state: State, group: list[str]
    ) -> list[tuple[str, int, bool]]:
        """Where a group may move, what it costs in commands, and whether it is a maneuver
        attack: every case of the notes from a reserve and from an approach. A group standing
        in several places of one locale (``group.from`` "locale") goes where each of its places
        may go, for the dearest of their costs."""
        places: dict[str, dict[str, Any]] = {}
        for pid in group:
            p = state["pieces"][pid]
            places.setdefault(P.position(p), p)
        found: dict[str, tuple[int, bool]] | None = None
        for p in places.values():
            here = self._destinations_from(scenario, state, p["locale"], p["approach"], len(group))
            if found is None:
                found = here
                continue
            found = {
                to: (max(cost, here[to][0]), attack or here[to][1])
                for to, (cost, attack) in found.items()
                if to in here
            }
        return [(to, cost, attack) for to, (cost, attack) in (found or {}).items()]

    def _destinations_from(
        self, scenario: AreaScenario, state: State, a: str, facing: str | None, count: int
    ) -> dict[str, tuple[int, bool]]:
        """Where ``count`` pieces in the reserve of ``a`` (or on its approach facing ``facing``)
        may move: place -> (cost in commands, a maneuver attack)."""
        side = phasing(state)
        enemy = P.other(scenario, side)
        out: dict[str, tuple[int, bool]] = {}
        cost = P.settings(scenario)["costs"]
        if facing is None:
            through = P.settings(scenario)["maneuver"]["through_blocked_border"]
            for n in scenario.neighbors[a]:
                if not scenario.passable(a, n):
                    continue
                if P.enemy_in(scenario, state, n, side):
                    # to the approach facing the enemy
                    out[f"{a}/{n}"] = (cost["reserve_to_approach"], False)
                    # the enemy on the approach facing it blocks the border: it is assaulted
                    # from the approach ("when the enemy does not block it" is the notes' only
                    # way through), unless a scenario lets a maneuver attack go through
                    blocked = not through and P.at(state, n, a, enemy, scenario)
                    if not blocked and P.room(scenario, state, n, side) >= count:
                        out[n] = (cost["reserve_attack"], True)  # a maneuver attack
                elif n not in state["won"] and P.room(scenario, state, n, side) >= count:
                    out[n] = (cost["reserve_to_locale"], False)
            return out
        n = facing
        if P.at(state, n, a, enemy, scenario):  # the enemy blocks it: back to the reserve
            out[a] = (cost["approach_blocked_back"], False)
        elif P.enemy_in(scenario, state, n, side):  # not blocked: into the locale, an attack
            if P.room(scenario, state, n, side) >= count:
                out[n] = (cost["approach_attack"], True)
        else:  # no enemy beyond: it must move, to the reserve for free, or on
            out[a] = (cost["approach_free_back"], False)
            if n not in state["won"] and P.room(scenario, state, n, side) >= count:
                out[n] = (cost["approach_on"], False)
        return out

    def road_paths(self, scenario: AreaScenario, state: State, pid: str) -> list[list[str]]:
        """Road moves of one piece from its reserve: up to 3 areas, never into the enemy, not
        where another piece entered at the same step count, 3 pieces a turn."""
        rule = P.settings(scenario)["road"]
        p = state["pieces"][pid]
        side = phasing(state)
        if p["approach"] is not None or state["roads_used"] >= rule["pieces_per_turn"]:
            return []
        taken = {(loc, k) for loc, k in state["road_steps"]}
        paths: list[list[str]] = []

        def walk(path: list[str]) -> None:
            here = path[-1]
            for n in scenario.neighbors[here]:
                if n in path or scenario.road_kind(here, n) is None:
                    continue
                if not scenario.passable(here, n) or P.enemy_in(scenario, state, n, side):
                    continue
                if n in state["won"] or (n, len(path)) in taken:
                    continue
                step = path + [n]
                if P.room(scenario, state, n, side) >= 1:
                    paths.append(step[1:])
                if len(step) - 1 < rule["areas"]:
                    walk(step)

        walk([p["locale"]])
        return [
            path
            for path in paths
            if self._road_cost(scenario, p["locale"], path) <= state["commands"]
        ]

    def _road_cost(self, scenario: AreaScenario, start: str, path: list[str]) -> int:
        rule = P.settings(scenario)["road"]
        chain = [start] + path
        primary = all(
            scenario.road_kind(a, b) == "primary" for a, b in zip(chain, chain[1:], strict=False)
        )
        return int(rule["primary_cost"] if primary else rule["secondary_cost"])

    # -- handlers ---------------------------------------------------------------------------------

    def apply(self, scenario: AreaScenario, state: State, action: Action) -> list[Event]:
        """Carry out a legal action on ``state``."""
        handler: Callable[..., list[Event]] = play.handler_for(action, HANDLERS)
        events = handler(self, scenario, state, action)
        if state["phase"] != "over" and not state["result"]:
            P.update_held(scenario, state)
        return events

    def end_phase(self, scenario: AreaScenario, state: State, action: Action) -> list[Event]:
        """The phasing player ends the present phase."""
        state["selection"] = []
        return self._next_phase(scenario, state)

    def end_turn(self, scenario: AreaScenario, state: State, action: Action) -> list[Event]:
        """The last phase done (declarations): the other side plays."""
        state["selection"] = []
        return self._end_player_turn(scenario, state)

    def select(self, scenario: AreaScenario, state: State, action: Action) -> list[Event]:
        """Add a piece to the group about to move, or take it out."""
        sel = state["selection"]
        if action["unit"] in sel:
            sel.remove(action["unit"])
        else:
            sel.append(action["unit"])
        return []

    def move(self, scenario: AreaScenario, state: State, action: Action) -> list[Event]:
        """The selected group moves for its cost; into the enemy it is a maneuver attack."""
        group = list(state["selection"])
        state["selection"] = []
        pieces = state["pieces"]
        frm = pieces[group[0]]["locale"]
        # "the attacker moved from a reserve": a group with a piece from the reserve
        from_reserve = any(pieces[pid]["approach"] is None for pid in group)
        counts: dict[str, int] = {}
        for pid in group:
            place = P.position(pieces[pid])
            counts[place] = counts.get(place, 0) + 1
        cost = next(
            c for to, c, _ in self.destinations(scenario, state, group) if to == action["to"]
        )
        state["commands"] -= cost
        for pid in group:
            pieces[pid]["moved"] = True
        side = state["side"]
        to = action["to"]
        if action.get("attack"):  # where it ends is logged once the attack is settled
            own = {"key": "log.al_attack_own", "params": {"units": group, "to": to}, "to": side}
            return [own] + A.maneuver(scenario, state, group, frm, to, from_reserve)
        locale, _, beyond = to.partition("/")  # "locale" (its reserve) or "locale/facing"
        facing = beyond or None
        for pid in group:
            pieces[pid].update(locale=locale, approach=facing)
        events: list[Event] = []
        if facing is not None:  # from the reserve up to one of its approaches
            params = {"side": side, "at": to, "count": len(group), "cost": cost}
            events.append({"key": "log.al_move_up", "params": params})
        elif locale == frm:  # from its approaches back to its own reserve, a line a place
            for place, count in sorted(counts.items()):
                params = {"side": side, "frm": place, "to": to, "count": count, "cost": cost}
                events.append({"key": "log.al_move_back", "params": params})
                cost = 0  # the group's command is told once
        else:
            params = {"side": side, "frm": frm, "to": to, "count": len(group), "cost": cost}
            events.append({"key": "log.al_move", "params": params})
        events.append({"key": "log.al_move_own", "params": {"units": group, "to": to}, "to": side})
        if facing is None and locale != frm:
            events += A.offer_follow(scenario, state, group, locale)
        return events

    def road(self, scenario: AreaScenario, state: State, action: Action) -> list[Event]:
        """One piece moves along a road (free on a primary road)."""
        pid, path = action["unit"], action["path"]
        p = state["pieces"][pid]
        cost = self._road_cost(scenario, p["locale"], path)
        state["commands"] -= cost
        state["roads_used"] += 1
        state["road_steps"] += [[loc, k + 1] for k, loc in enumerate(path)]
        state["selection"] = []
        frm = p["locale"]
        p.update(locale=path[-1], approach=None, moved=True, road=True)
        return [
            {
                "key": "log.al_road",
                "params": {"side": state["side"], "frm": frm, "to": path[-1], "cost": cost},
            },
            {
                "key": "log.al_move_own",
                "params": {"units": [pid], "to": path[-1]},
                "to": state["side"],
            },
        ]

    def assault(self, scenario: AreaScenario, state: State, action: Action) -> list[Event]:
        """Assault the enemy approach facing ``approach``."""
        return A.start_assault(scenario, state, action["approach"])

    def declare(self, scenario: AreaScenario, state: State, action: Action) -> list[Event]:
        """Artillery reveals itself and declares a bombardment for next turn."""
        p = state["pieces"][action["unit"]]
        p.update(declared=True, revealed=True)
        own = {"key": "log.al_declare_own", "params": {"unit": action["unit"]}}
        return [
            {"key": "log.al_declare", "params": {"side": state["side"], "locale": p["locale"]}},
            {**own, "to": state["side"]},
        ]

    def bombard(self, scenario: AreaScenario, state: State, action: Action) -> list[Event]:
        """Declared artillery fires: its steps less the target's terrain effect, in steps."""
        gun = action["unit"]
        p = state["pieces"][gun]
        targets = self._target(scenario, state, gun) or []
        t = state["pieces"][targets[0]]
        effect = (
            scenario.approach(t["locale"], t["approach"]).effect
            if t["approach"] is not None
            else P.settings(scenario)["reserve_effect"]["value"]
        )
        loss = max(0, p["steps"] - effect)
        p.update(declared=False, bombarded=state["turn"], moved=True)
        owner = P.other(scenario, phasing(state))
        play.first(
            plain(state),
            {
                "do": "loss",
                "n": loss,
                "lead": [],
                "rest": targets,
                "owner": owner,
                "enemy": state["side"],
                "why": "bombardment",
            },
        )
        event = {
            "key": "log.al_bombard",
            "params": {"side": state["side"], "at": P.position(t), "loss": loss, "effect": effect},
        }
        return [event] + A.drain(scenario, state)

    # decisions

    def lead(self, scenario: AreaScenario, state: State, action: Action) -> list[Event]:
        """A side's leading pieces in the assault (step 1, or 3 with step 2: the defender's
        artillery fires or holds, ``fire``, when it may fire)."""
        state["pending"] = None
        return A.choose_lead(scenario, state, action["units"], bool(action.get("fire")))

    def take_step(self, scenario: AreaScenario, state: State, action: Action) -> list[Event]:
        """The chooser names the piece that loses the next step."""
        kind = asked(state)["kind"]
        if kind == "group_loss":
            return A.group_loss(scenario, state, action["unit"])
        return A.take_loss(scenario, state, action["unit"]) + A.drain(scenario, state)

    def retreat(self, scenario: AreaScenario, state: State, action: Action) -> list[Event]:
        """The owner chooses where a retreating group goes."""
        return A.retreat_to(scenario, state, action["to"])

    def pursue(self, scenario: AreaScenario, state: State, action: Action) -> list[Event]:
        """The winner's cavalry pursues, or not."""
        if action["units"]:
            return A.pursue(scenario, state, action["units"])
        return A.no_pursuit(scenario, state)

    def block(self, scenario: AreaScenario, state: State, action: Action) -> list[Event]:
        """The defender blocks the maneuver attack with a reserve piece, or does not."""
        return A.block(scenario, state, action.get("unit"))

    def follow(self, scenario: AreaScenario, state: State, action: Action) -> list[Event]:
        """Cavalry moves on to an approach, or stays; then what was queued goes on."""
        return A.follow(scenario, state, action.get("to")) + A.drain(scenario, state)

    # -- refusals ---------------------------------------------------------------------------------

    def refusal(self, scenario: AreaScenario, state: State, action: Action) -> Refusal:
        """Why an action is refused (``Ruleset.refusal``): for a move and an assault, the reason
        in words with the locale or approach it names (``refusal.al_*``); else the default.
        It reads only what the deciding side sees: its own blocks, where the other side's
        stand, the locales won this turn."""
        found = super().refusal(scenario, state, action)
        why = None
        if state["phase"] != "over" and not state["pending"] and isinstance(action, dict):
            if action.get("type") == "move" and state["phase"] == "movement":
                why = self._why_no_move(scenario, state, action.get("to"))
            elif action.get("type") == "assault" and state["phase"] == "assault":
                why = self._why_no_assault(scenario, state, action.get("approach"))
        if why is None:
            return found
        key, params, place = why
        words = {"action": found["params"]["action"], "why": {"key": key, "params": params}}
        return refusal("error.al_refused", words, found["rule"], place)

    def _why_no_move(
        self, scenario: AreaScenario, state: State, to: Any
    ) -> tuple[str, dict[str, Any], str | None] | None:
        there = place_words(scenario, to)
        if there is None:
            return None
        group = state["selection"]
        if not group:
            return "refusal.al_no_group", {}, there
        cost = {t: c for t, c, _ in self.destinations(scenario, state, group)}
        if to in cost:
            if cost[to] > state["commands"]:
                return "refusal.al_commands", {"cost": cost[to], "count": state["commands"]}, there
            return None  # the attack mark is wrong: the default says what was sent
        here = state["pieces"][group[0]]["locale"]
        locale = to.split("/")[0]
        side = phasing(state)
        if locale != here and not (
            locale in scenario.neighbors[here] and scenario.passable(here, locale)
        ):
            return (
                "refusal.al_not_next",
                {"place": there, "here": place_words(scenario, here)},
                there,
            )
        if "/" in to and locale == here and not P.enemy_in(scenario, state, to.split("/")[1], side):
            return "refusal.al_no_enemy_beyond", {"place": there}, there
        if "/" not in to and locale in state["won"]:
            return "refusal.al_won", {"place": there}, there
        if locale != here and P.room(scenario, state, locale, side) < len(group):
            return "refusal.al_no_room", {"place": there, "count": len(group)}, there
        enemy = P.other(scenario, side)
        if "/" not in to and P.at(state, locale, here, enemy, scenario):
            blocked = place_words(scenario, f"{locale}/{here}")
            through = P.settings(scenario)["maneuver"]["through_blocked_border"]
            stands = [state["pieces"][pid]["approach"] for pid in group]
            if locale in stands or (None in stands and not through):
                return "refusal.al_blocked", {"place": blocked}, there
        return "refusal.al_not_from_here", {"place": there}, there

    def _why_no_assault(
        self, scenario: AreaScenario, state: State, approach: Any
    ) -> tuple[str, dict[str, Any], str | None] | None:
        if not isinstance(approach, str) or approach not in scenario.approaches:
            return None
        there = place_words(scenario, approach)
        a, n = approach.split("/")
        side = phasing(state)
        mine = P.at(state, a, n, side, scenario)
        if not mine:
            return "refusal.al_none_there", {"place": there}, there
        if P.demoralized(scenario, state, side):
            return "refusal.al_demoralized", {}, there
        cost = P.cost(scenario, "assault")
        if state["commands"] < cost:
            return "refusal.al_commands", {"cost": cost, "count": state["commands"]}, there
        if not P.at(state, n, a, P.other(scenario, side), scenario):
            blocker = place_words(scenario, f"{n}/{a}")
            return "refusal.al_no_blocker", {"place": blocker}, there
        if any(state["pieces"][pid]["assaulted"] for pid in mine):
            return "refusal.al_assaulted", {"place": there}, there
        if not A.leading_options(scenario, state, approach, "attacker"):
            steps = P.settings(scenario)["leading"]["strong_steps"]
            return "refusal.al_no_leader", {"place": there, "steps": steps}, there
        return None

    # -- views ------------------------------------------------------------------------------------

    def prompt(self, scenario: AreaScenario, state: State) -> dict[str, Any] | None:
        """What is asked now, of which side, and why when a choice is forced: the prompt both
        sides may read (``view_extra`` gives the deciding side its own, see ``screen``)."""
        return screen.prompt(self, scenario, state)

    def choices(self, scenario: AreaScenario, state: State, legal: list[Action]) -> list[Any]:
        """The legal actions grouped into labelled choices (``screen.choices``)."""
        return screen.choices(self, scenario, state, legal)

    def view_extra(
        self, scenario: AreaScenario, state: State, viewer: str | None
    ) -> dict[str, Any]:
        """Beside the state: the prompt of ``viewer``'s own screen (the deciding side's names
        its blocks; the other side's is the one both may read), the markers on the blocks it
        sees, and the attacks in progress drawn as arrows."""
        side = viewer if viewer is not None else self.decider(scenario, state)
        return {
            "prompt": screen.prompt_for(self, scenario, state, side),
            "markers": screen.markers(self, scenario, state, side),
            "arrows": screen.arrows(self, scenario, state, side),
            # Each side's army morale and objectives held: public on the map and the track.
            "facts": [
                {"key": "fact.army", "params": {"side": s, "morale": n}}
                for s, n in state["army"].items()
            ]
            + held_facts(
                state, [s["id"] for s in scenario.data["sides"]], play.objectives(scenario)
            ),
        }

    def score(self, scenario: AreaScenario, state: State) -> dict[str, dict[str, int]]:
        """Each side's objective points now (none counted if ``victory.objectives`` is off)."""
        if not P.settings(scenario)["victory"]["objectives"]:
            return {}
        return {side: {"objectives": n} for side, n in A.score(scenario, state).items()}

    def victory(self, scenario: AreaScenario) -> dict[str, Any]:
        """The turns, the objective locales (if counted), a side with no piece left loses,
        most points wins."""
        return standing.victory(
            scenario,
            P.FOLDER,
            P.settings(scenario),
            [
                ("objectives", "victory", "objectives"),
                ("wiped", "victory"),
                ("most_points", "victory"),
            ],
        )

    def view_for(self, scenario: AreaScenario, state: State, viewer: str | None) -> dict[str, Any]:
        """What ``viewer`` may see: its own blocks whole, the enemy's revealed ones whole, the
        rest as bare blocks of a colour on the map. Never the hidden steps, types or names."""
        from .sideview import side_view

        return side_view(self, scenario, state, viewer)


def _decision_actions(pending: dict[str, Any]) -> list[Action]:
    kind = pending["kind"]
    if kind == "lead":
        if pending.get("fire"):  # the defender's guns may fire: hold or fire with each choice
            both: list[Action] = [
                {"type": "lead", "units": o, "fire": fire}
                for fire in (False, True)
                for o in pending["options"]
            ]
            return both
        return [{"type": "lead", "units": o} for o in pending["options"]]
    if kind in ("loss", "group_loss"):
        return [{"type": "take_step", "unit": u} for u in pending["options"]]
    if kind == "retreat":
        return [{"type": "retreat", "to": t} for t in pending["options"]]
    if kind == "pursuit":
        pursuits: list[Action] = [{"type": "pursue", "units": o} for o in pending["options"]]
        return pursuits + [{"type": "pursue", "units": []}]
    if kind == "block":
        blocks: list[Action] = [{"type": "block", "unit": u} for u in pending["options"]]
        return blocks + [{"type": "block"}]
    follows: list[Action] = [{"type": "follow", "to": t} for t in pending["options"]]
    return follows + [{"type": "follow"}]


HANDLERS: dict[str, Callable[..., list[Event]]] = {
    "end_phase": AreaLocaleRules.end_phase,
    "end_turn": AreaLocaleRules.end_turn,
    "select": AreaLocaleRules.select,
    "move": AreaLocaleRules.move,
    "road": AreaLocaleRules.road,
    "assault": AreaLocaleRules.assault,
    "declare": AreaLocaleRules.declare,
    "bombard": AreaLocaleRules.bombard,
    "lead": AreaLocaleRules.lead,
    "take_step": AreaLocaleRules.take_step,
    "retreat": AreaLocaleRules.retreat,
    "pursue": AreaLocaleRules.pursue,
    "block": AreaLocaleRules.block,
    "follow": AreaLocaleRules.follow,
}

RULES = AreaLocaleRules()
