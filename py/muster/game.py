"""A game in progress: actions, chance points, undo and redo, the log, saves and replay.

The state is plain JSON. A rule system supplies a ``Ruleset``: the first state of a scenario,
the legal actions in a state, and what an action does. This module holds what every system
shares: the checked entry point, dice at chance points (digital from the seeded RNG kept in
the state, or a physical die typed in), history, and saves that replay to the same state.
"""

from __future__ import annotations

import bisect
import copy
from dataclasses import dataclass, field
from typing import Any

from . import flow
from .cards import QUIET, result_card
from .dice import Die, roll
from .errors import IllegalActionError, InvalidActionError, RulesError
from .ruleset import Ruleset, words_of
from .savefile import (
    SAVE_FORMAT,
    bad_checkpoint,
    bad_save,
    canonical,
    check_checkpoint,
    check_save,
    echo,
    state_hash,
    still_held,
    whole,
)
from .scenario import AnyScenario, parse_scenario
from .shapes import Action, Event, State
from .standing import objective_marks, view_part

__all__ = ["Action", "Event", "Game", "Ruleset", "State"]
DICE = {"d10": Die(10, 0), "d6": Die(6, 1)}
# A kept game's checkpoint (``Game.save(checkpoint=True)``): the newest state and one before
# it, each with its hash, and the newest lines of the log, so the game resumes without
# replaying its actions. The log's older lines (before ``log_from``) are not kept: the check
# that replays the save after the resume rebuilds them (``PENDING`` until then), so what a
# resume reads does not grow with the game.
LOG_KEPT = 1000  # log lines a checkpoint keeps: more than a view shows unless it asks for all
# A log line a resumed game has not rebuilt yet: no view shows it, no side reads it.
PENDING: Event = {"key": "log.pending", "params": {}, "to": ""}
# One of a resumed game's oldest actions, still on its way (``Game.resume``'s ``held``): never
# replayed, saved or looked back at; ``Game.take_held`` puts the real one in its place.
HELD: Action = {"type": "held"}
# Options of every system; a ruleset adds its own. ``muster``: the sides Muster plays, side id
# to level (the rules never read it; it is kept with the game so a save and a resume keep it).
GAME_OPTIONS = frozenset({"strict_undo", "muster"})
MUSTER_LEVELS = (1, 2, 3)
# A long game keeps its newest states for undo, and one state in CHECKPOINT before them; the
# states between are dropped and rebuilt by replay when undo reaches them. A game of N actions
# holds about KEEP_RECENT + N / CHECKPOINT states, whatever the size of the map.
KEEP_RECENT = 64
CHECKPOINT = 64


def chance_faces(chance: dict[str, Any]) -> list[Any]:
    """The possible results of a chance point: a die's faces, or the markers left in a cup."""
    if "options" in chance:
        return list(chance["options"])
    return list(DICE[chance["die"]].faces)


def chance_actions(chance: dict[str, Any]) -> list[Action]:
    """The actions at a chance point: a digital roll, or each face typed in from a real die."""
    return [{"type": "roll"}] + [{"type": "roll", "value": face} for face in chance_faces(chance)]


def chance_view(chance: dict[str, Any]) -> dict[str, Any]:
    """A chance point for the UI: what is rolled for, and each result's exact probability."""
    faces = chance_faces(chance)
    return {**chance, "faces": [{"value": v, "p": 1 / len(faces)} for v in faces]}


@dataclass
class Game:
    """A game: the scenario, the rules, the seed, and the actions played so far."""

    scenario: AnyScenario
    rules: Ruleset[Any, Any]
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[Action] = field(default_factory=list)
    redo_stack: list[Action] = field(default_factory=list)
    states: list[State | None] = field(default_factory=list)  # None: dropped, see KEEP_RECENT
    log: list[Event] = field(default_factory=list)
    log_marks: list[int] = field(default_factory=list)
    revision: int = 0  # bumped by every change of state, so views of it can be cached
    # How many of the oldest actions are not here yet (``resume`` with ``held``): undo, look
    # back and save stop short of them until ``take_held`` gives them.
    held: int = 0
    _legal: tuple[int, list[Action]] | None = None

    @classmethod
    def start(
        cls,
        scenario: AnyScenario,
        rules: Ruleset[Any, Any],
        seed: int,
        options: dict[str, Any] | None = None,
    ) -> Game:
        """A new game at the scenario's start.

        Raises:
            InvalidActionError: an option no rule reads, or one of the wrong kind.
        """
        options = check_options({} if options is None else options, rules)
        sides = {s["id"] for s in scenario.data["sides"]}
        if any(side not in sides for side in options.get("muster", {})):
            raise _bad_option("error.bad_option", "muster")
        first = rules.initial_state(scenario, options)
        first["rng"] = {"seed": seed, "counter": 0}
        return cls(scenario, rules, seed, options, states=[first])

    @property
    def state(self) -> State:
        """The current state (do not change it: every action makes a new one)."""
        newest = self.states[-1]
        if newest is None:  # never: the newest state is always kept
            raise RuntimeError("the game lost its current state")
        return newest

    def previous_state(self) -> State | None:
        """The state before the last action, if there was one."""
        if len(self.states) < 2:
            return None
        if self.states[-2] is None:
            self._rebuild(len(self.states) - 2)
        return self.states[-2]

    def legal_actions(self) -> list[Action]:
        """Every action that may be taken now (worked out once per position)."""
        if self._legal is None or self._legal[0] != self.revision:
            self._legal = (self.revision, self._list_legal())
        return [a.copy() for a in self._legal[1]]

    def _list_legal(self) -> list[Action]:
        state = self.state
        if state.get("result"):
            return []
        chance = state.get("chance")
        if chance:
            return chance_actions(chance)
        return self.rules.legal_actions(self.scenario, state)

    def apply(self, action: Any) -> list[Event]:
        """Take ``action`` if the rules allow it now; the events it logged.

        Raises:
            InvalidActionError: the action is not an object with a type.
            IllegalActionError: the rules do not allow it now (the message names the rule).
        """
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise InvalidActionError(
                "error.bad_action",
                "an action is an object with a type: {action}",
                action=echo(action),
            )
        legal = {canonical(a): a for a in self.legal_actions()}
        found = legal.get(canonical(action))
        if found is None:
            raise self.refused(action)  # type: ignore[arg-type]  # a dict with a text type
        return self.push(found)

    def push(self, action: Action) -> list[Event]:
        """Take ``action`` WITHOUT checking that it is legal now: the fast path for playouts
        and search (python-chess's ``push``), which skips listing the legal actions.

        Only for an action known to be legal (one of ``legal_actions()``, or a
        ``{"type": "roll"}`` at a chance point): anything else gives undefined results (the
        rules may raise any error, or take it and reach a state no game could). The game's
        bookkeeping is that of ``apply``: history, log, undo, and the redo stack cleared.
        """
        events = self._apply(action)
        self.redo_stack.clear()
        return events

    def refused(self, action: Action) -> IllegalActionError:
        """The error refusing ``action`` now (``Ruleset.refusal``): what the action is, the rule
        and the place in words for the screen, and in English with the action as sent."""
        found = self.rules.refusal(self.scenario, self.state, action)
        rule, place = found["rule"], found["place"]
        text = f"not allowed now: {echo(action)}"
        if rule is not None or place is not None:
            text += " (" + "; ".join(x for x in (rule and f"rule: {rule}", place) if x) + ")"
        return IllegalActionError.refused(found, text)

    def _apply(self, action: Action) -> list[Event]:
        state, action, events = self._next(self.state, action)
        self.states.append(state)
        old = len(self.states) - 1 - KEEP_RECENT
        if old > 0 and old % CHECKPOINT:
            self.states[old] = None
        self.revision += 1
        self.actions.append(action)
        self.log_marks.append(len(self.log))
        self.log.extend(events)
        return events

    def _next(self, before: State, action: Action) -> tuple[State, Action, list[Event]]:
        """The state after ``action`` (a private copy of ``before``), the action as recorded,
        and the log events."""
        state = copy.deepcopy(before)
        if action["type"] == "roll":
            action, events = self._roll(state, action)
        else:
            events = self.rules.apply(self.scenario, state, action)
        return state, action, events

    def _rebuild(self, index: int) -> None:
        """Replay from the last state kept before ``index`` to fill the dropped ones up to it."""
        start, state = self._kept_before(index)
        for i in range(start, index):
            state = self._next(state, _replayable(self.actions[i]))[0]
            self.states[i + 1] = state

    def _kept_before(self, index: int) -> tuple[int, State]:
        """The last state kept at or before ``index`` (the first is always kept), and where."""
        state = self.states[index]
        while state is None:
            index -= 1
            state = self.states[index]
        return index, state

    def _roll(self, state: State, action: Action) -> tuple[Action, list[Event]]:
        """Settle the chance point with a digital or a typed-in die, then let the rules go on."""
        chance = state.get("chance")
        if not chance:  # only push takes a roll unchecked
            raise IllegalActionError(
                "error.illegal_action", "not allowed now: {action}", action="roll"
            )
        faces = chance_faces(chance)
        if "value" in action:
            value, how = action["value"], "physical"
        else:
            rng = state["rng"]
            index = roll(rng["seed"], rng["counter"], Die(len(faces), 0))
            value, how = faces[index], "digital"
            rng["counter"] += 1
        recorded: Action = {"type": "roll", "value": value, "how": how}
        state["chance"] = None
        purpose = chance.get("purpose", "")
        event: Event
        if "die" in chance:
            params = {"die": chance["die"], "value": value, "how": how, "purpose": purpose}
            event = {"key": "log.roll", "params": params}
        else:  # a marker drawn from a cup: it names a formation
            event = {"key": "log.draw", "params": {"drawn": value, "how": how, "purpose": purpose}}
        settled: Action = {**recorded, "chance": chance}
        events = [event, *self.rules.apply(self.scenario, state, settled)]
        return recorded, events

    def can_undo(self) -> bool:
        """True if there is an action to take back (strict play keeps rolls final)."""
        if len(self.actions) <= self.held:  # nothing, or only actions not here yet
            return False
        return not (self.options.get("strict_undo") and self.actions[-1]["type"] == "roll")

    def undo(self) -> Action:
        """Take back the last action.

        Raises:
            IllegalActionError: nothing to undo, or the last action was a roll in strict play.
        """
        if not self.can_undo():
            raise IllegalActionError("error.cannot_undo", "there is nothing to undo")
        self.states.pop()
        if self.states[-1] is None:
            self._rebuild(len(self.states) - 1)
        self.revision += 1
        action = self.actions.pop()
        del self.log[self.log_marks.pop() :]
        self.redo_stack.append(action)
        return action

    def redo(self) -> list[Event]:
        """Play again the last action taken back.

        Raises:
            IllegalActionError: nothing to redo.
        """
        if not self.redo_stack:
            raise IllegalActionError("error.cannot_redo", "there is nothing to redo")
        return self._apply(_replayable(self.redo_stack.pop()))

    # -- what the screen shows --------------------------------------------------------------

    def view(self, viewer: str | None, log: int) -> dict[str, Any]:
        """The game as ``viewer``'s screen shows it: the state it may see, the prompt, the
        legal actions grouped into choices (only for the side that decides, when a side may
        not see everything), the chance point with what each face does, and the newest
        ``log`` lines it may read.

        Without hidden information every side sees everything and ``viewer`` changes nothing
        but the name in the view.
        """
        rules, sc, state = self.rules, self.scenario, self.state
        decider = rules.decider(sc, state)
        hidden = rules.hidden_information
        if hidden and viewer is None:
            viewer = decider
        mine = self._shown_to(viewer, decider)
        legal = self.legal_actions() if mine else []
        chance = state.get("chance")
        if hidden:
            kept = [i for i, e in enumerate(self.log) if e.get("to", viewer) == viewer]
        elif self.log and self.log[0] is PENDING:  # resumed, its older lines not rebuilt yet
            kept = [i for i, e in enumerate(self.log) if e is not PENDING]
        else:
            kept = list(range(len(self.log)))
        recent = kept[max(0, len(kept) - log) :] if log else []
        view: dict[str, Any] = {
            "state": rules.view_for(sc, state, viewer),
            "viewer": viewer,
            "decider": decider,
            # True if each side has its own screen: the UI hands the tablet over between them.
            "private": hidden,
            "prompt": rules.prompt(sc, state),
            "legal": legal,
            "choices": [] if chance or not legal else self.choices(legal),
            "chance": None,
            "log": [self.log[i] for i in recent],
            "can_undo": (mine or self._player(viewer)) and self.can_take_back(),
            "can_redo": mine and bool(self.redo_stack),
            "result": state.get("result"),
            "summary": self.summary(),
        }
        view["card"] = result_card(
            self.log,
            self.log_marks,
            (lambda e: e.get("to", viewer) == viewer) if hidden else (lambda e: e is not PENDING),
            rules.card_keys,
            rules.card_heads,
            QUIET | rules.card_quiet,
            words_of(rules),
        )
        if view["card"]:
            units = view["card"]["units"]
            units += [u for u in rules.card_units(sc, state, view["card"]) if u not in units]
        if not hidden and view["card"] and view["card"]["seq"] and self.log[0] is PENDING:
            # The lines before it that are not here yet count as read (``seq``: a card put
            # away stays away once they are here).
            view["card"]["seq"] += next(i for i, e in enumerate(self.log) if e is not PENDING)
        if hidden and view["card"]:
            del view["card"]["at"]  # the count would tell how often the other side decided
        if chance and mine:
            shown = chance_view(chance)
            results = rules.chance_results(sc, state)
            for face, result in zip(shown["faces"], results, strict=False):
                if result is not None:
                    face["result"] = result
            view["chance"] = shown
        if not hidden:
            # Counts and fingerprints would tell one side how often the other decided.
            view["moves"] = len(self.actions)
            view["log_size"] = len(self.log)  # lines not here yet too: every side reads them
            # After how many actions each line of ``log`` was logged (0: before the first), to
            # look back at the map as it was then. Not with hidden information: the counts would
            # tell one side how often the other decided.
            view["log_at"] = [bisect.bisect_right(self.log_marks, i) for i in recent]
            view["hash"] = state_hash(state)
        # The objectives and who holds them, each side's points now and the turns left.
        view.update(view_part(rules, sc, state))
        view.update(rules.view_extra(sc, state, viewer))
        return view

    def _shown_to(self, viewer: str | None, decider: str | None = None) -> bool:
        """True if ``viewer``'s screen shows the legal actions: every screen's without hidden
        information, else only the deciding side's (None: the side that decides), while the
        game goes on. ``decider``: the side that decides, where the caller has it already."""
        rules, sc, state = self.rules, self.scenario, self.state
        if not rules.hidden_information:
            return True
        if decider is None:
            decider = rules.decider(sc, state)
        return (viewer is None or viewer == decider) and not state.get("result")

    def legal_for(self, viewer: str | None) -> list[Action]:
        """The legal actions as ``viewer``'s screen shows them (``view``'s ``legal``), without
        the rest of the view (its choices are worked out for every action: seconds, for the
        65,000 moves of a battle of 2,000 units)."""
        return self.legal_actions() if self._shown_to(viewer) else []

    def choices(self, legal: list[Action]) -> list[dict[str, Any]]:
        """The legal actions in the rules' choices, the natural next step marked primary
        (``flow.mark_primary``: never a give-up)."""
        return flow.mark_primary(self.rules.choices(self.scenario, self.state, legal))

    def view_at(self, index: int, viewer: str | None) -> dict[str, Any]:
        """The position after the first ``index`` actions (0: the start) as ``viewer`` may
        see it, to look back over the game: the state, markers and arrows, read only (no legal
        actions, no choices). A state dropped from the history is replayed from the last kept
        before it and not kept.

        With hidden information it is ``viewer``'s view (by default the side deciding now).
        """
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError("index must be an int")
        if not 0 <= index <= len(self.actions):
            raise IndexError(index)
        if index < self.held:
            raise still_held()
        rules, sc = self.rules, self.scenario
        if rules.hidden_information and viewer is None:
            viewer = rules.decider(sc, self.state)
        start, state = self._kept_before(index)
        for i in range(start, index):
            state = self._next(state, _replayable(self.actions[i]))[0]
        extra = rules.view_extra(sc, state, viewer)
        return {
            "state": rules.view_for(sc, state, viewer),
            "viewer": viewer,
            "markers": extra.get("markers", {}),
            "arrows": extra.get("arrows", []),
            "objectives": objective_marks(sc, state),
            "at": index,
            "moves": len(self.actions),
        }

    def summary(self) -> dict[str, Any]:
        """What a list of saved games shows of this one: turn, side to act, moves, result."""
        rules, sc, state = self.rules, self.scenario, self.state
        return {
            "scenario": sc.id,
            "title": sc.data["title"],
            "turn": state.get("turn"),
            "turns": state.get("turns"),
            "side": None if state.get("result") else rules.decider(sc, state),
            # With hidden blocks the count of actions would tell one side how often the other
            # decided, and phases pass by themselves only for some hidden blocks: not shown.
            "moves": None if rules.hidden_information else len(self.actions),
            "over": bool(state.get("result")),
        }

    def can_take_back(self) -> bool:
        """True if the side on screen may undo now. With hidden information a side takes back
        only its own last action (the same side decided before and after it), so undo never
        shows one side what the other decided; against Muster, see ``_back_to_player``."""
        if not self.can_undo():
            return False
        if not self.rules.hidden_information:
            return True
        if self.options.get("muster"):
            return self._back_to_player()
        before = self.previous_state()
        if before is None:
            return False
        rules, sc = self.rules, self.scenario
        return rules.decider(sc, before) == rules.decider(sc, self.state)

    def _player(self, viewer: str | None) -> bool:
        """True if ``viewer`` is a side Muster does not play, in a game against Muster: its
        screen may take back Muster's reply while Muster decides (``_back_to_player``)."""
        muster = self.options.get("muster") or {}
        return bool(muster) and viewer is not None and viewer not in muster

    def _back_to_player(self) -> bool:
        """Against Muster with hidden blocks there is no other person to glimpse anything:
        undo takes back Muster's reply with the player's last decision, but never what the
        player learnt since. True if, back to the last action a player (a side Muster does
        not play) decided, no action settled a chance (a die or a draw) or showed the player
        a block of the other side it did not see by name before. Without a player, no undo."""
        rules, sc = self.rules, self.scenario
        players = [s["id"] for s in sc.data["sides"] if s["id"] not in self.options["muster"]]
        if not players:
            return False
        for index in range(len(self.actions) - 1, -1, -1):
            if index < self.held:  # not here yet: no undo back to it
                return False
            for at in (index + 1, index):  # dropped states are replayed (KEEP_RECENT)
                if self.states[at] is None:
                    self._rebuild(at)
            before, after = self.states[index], self.states[index + 1]
            if before is None or after is None or before.get("chance"):
                return False
            for side in players:
                seen = _named_blocks(rules.view_for(sc, before, side))
                if _named_blocks(rules.view_for(sc, after, side)) - seen:
                    return False
            if rules.decider(sc, before) in players:
                return True
        return False

    def save(self, checkpoint: bool = False) -> dict[str, Any]:
        """A save: format, system, the scenario itself, seed, options, actions and state hash;
        with ``checkpoint``, also the states and log to resume it at once (``checkpoint``).

        Raises:
            RulesError: its oldest actions are not here yet (``error.kept_arriving``).
        """
        if self.held:
            raise still_held()
        data = {
            "format": SAVE_FORMAT,
            "system": self.scenario.system,
            "scenario": self.scenario.data,
            "seed": self.seed,
            "options": self.options,
            "actions": self.actions,
            "hash": state_hash(self.state),
        }
        if checkpoint:
            data["checkpoint"] = self.checkpoint()
        return data

    def checkpoint(self) -> dict[str, Any]:
        """What resumes this game without a replay: the newest state, the state kept at the
        last multiple of ``CHECKPOINT`` before it (so undo rebuilds at most ``CHECKPOINT``
        states from it), each with its hash, the log's marks and its newest ``LOG_KEPT`` lines
        (from ``log_from``; the older ones are rebuilt by the check after a resume)."""
        at = len(self.actions)
        kept: list[dict[str, Any]] = []
        if at > 1:
            base, state = self._kept_before((at - 1) // CHECKPOINT * CHECKPOINT)
            if base:
                kept.append({"at": base, "state": state, "hash": state_hash(state)})
        if at:
            kept.append({"at": at, "state": self.state, "hash": state_hash(self.state)})
        start = max(0, len(self.log) - LOG_KEPT)
        while start < len(self.log) and self.log[start] is PENDING:
            start += 1
        return {
            "at": at,
            "states": kept,
            "log": self.log[start:],
            "log_from": start,
            "log_marks": self.log_marks,
        }

    @classmethod
    def load(cls, data: Any, rules_for: Any) -> Game:
        """Replay a save into a game, checking the whole save first and then that it ends in
        the saved state (a checkpoint in it is not read).

        ``rules_for(system)`` gives the ruleset.

        Raises:
            RulesError: the save is malformed, over a limit, of another system than its
                scenario, an action in it is not legal, or the replayed state differs from
                the saved one.
        """
        replay = Replay(data, rules_for)
        replay.step(replay.total)
        return replay.finish()

    @classmethod
    def resume(cls, data: Any, rules_for: Any, held: int = 0, held_marks: int = 0) -> Game:
        """A kept game back at once from its checkpoint, its actions NOT replayed: the states
        between the checkpoint's are rebuilt by replay when undo or a look back reaches them.
        ``Replay(data, rules_for, checked=True)`` checks it afterwards.

        ``held``, ``held_marks``: ``data`` is the head of the kept save, its first ``held``
        actions and ``held_marks`` log marks left out (they follow, ``take_held``), and with
        them the log's lines before the checkpoint's ``log_from``. Its checkpoint keeps the
        state after ``held`` actions (so undo back to it needs none of them), every line the
        actions it holds logged, and marks from ``log_from`` on (those left out are before).

        Raises:
            RulesError: the save is refused as ``load`` refuses its shape (its actions are
                the replay's to check, afterwards), or it has no checkpoint, or one that does
                not fit its actions and hash (``error.bad_checkpoint``).
        """
        check_save(data, whole=False)  # the rest by the check after it
        scenario = parse_scenario(data["scenario"])
        if scenario.system != data["system"]:
            raise bad_save("system")
        point = check_checkpoint(data, held, held_marks)
        game = cls.start(scenario, rules_for(scenario.system), data["seed"], data["options"])
        at = point["at"]
        game.states.extend([None] * at)
        for kept in point["states"]:
            game.states[kept["at"]] = kept["state"]
        start = point["log_from"]
        game.actions = [HELD] * held + list(data["actions"])
        game.log = [PENDING] * start + list(point["log"])
        # The marks left out are at or before the first line here: standing in for them,
        # that line keeps every line here after the action it came after (``log_at``).
        game.log_marks = [start] * held_marks + list(point["log_marks"])
        game.held = held
        game.revision = at
        return game

    def take_held(self, actions: Any, log: Any, marks: Any, held_marks: int) -> None:
        """The oldest actions a resume left out (``resume``'s ``held``), with the log lines
        just before the ones it kept (those the checkpoint kept; ``log`` may be empty) and
        the ``held_marks`` marks it left out: in their places, whatever was played since.

        Raises:
            RulesError: they do not fit the game (``error.bad_checkpoint``); nothing changes.
        """
        held = self.held
        start = next((i for i, e in enumerate(self.log) if e is not PENDING), len(self.log))
        ok = (
            held > 0
            and isinstance(actions, list)
            and len(actions) == held
            and all(isinstance(a, dict) and isinstance(a.get("type"), str) for a in actions)
            and isinstance(log, list)
            and len(log) <= start
            and all(isinstance(e, dict) and isinstance(e.get("key"), str) for e in log)
            and isinstance(marks, list)
            and len(marks) == held_marks
            and all(whole(m) and m <= start for m in marks)
            and all(a <= b for a, b in zip(marks, marks[1:], strict=False))
        )
        if not ok:
            raise bad_checkpoint()
        self.actions[:held] = actions
        self.log[start - len(log) : start] = log
        self.log_marks[:held_marks] = marks
        self.held = 0


class Replay:
    """A save replayed a few actions at a time (``step``), each taken with the checked
    ``Game.apply``: the whole check of ``Game.load``, spread over calls so a long game shows
    its progress, or is checked in the background after ``Game.resume``.

    With ``checked``, the save's checkpoint is compared too: each state it keeps with the
    replayed one (``differs`` names the first that is not the same), and its log's newest
    lines and marks at the end.

    Raises (the constructor): RulesError, the save refused as ``Game.load`` refuses it.
    """

    def __init__(self, data: Any, rules_for: Any, checked: bool = False) -> None:
        check_save(data)
        scenario = parse_scenario(data["scenario"])
        if scenario.system != data["system"]:
            raise bad_save("system")
        self.game = Game.start(scenario, rules_for(scenario.system), data["seed"], data["options"])
        self.actions: list[Action] = data["actions"]
        self.hash: str = data["hash"]
        self.expect: dict[int, str] = {}
        # The checkpoint's log, compared by value: a page's JSON writes a whole number 4.0 as 4,
        # so a fingerprint of its text would differ where the log does not.
        self.log_kept: dict[str, Any] | None = None
        self.log_from = 0
        if checked:
            point = check_checkpoint(data)
            self.expect = {kept["at"]: kept["hash"] for kept in point["states"]}
            self.log_from = point["log_from"]
            self.log_kept = {"log": point["log"], "marks": point["log_marks"]}
        self.differs: int | None = None  # the first action after which the states differ

    @property
    def total(self) -> int:
        """How many actions the save holds."""
        return len(self.actions)

    @property
    def done(self) -> int:
        """How many are replayed."""
        return len(self.game.actions)

    def step(self, count: int) -> None:
        """Replay up to ``count`` more actions (stopping at a difference from the checkpoint).

        Raises:
            RulesError: an action of the save is not legal (``error.bad_save_action``).
        """
        game = self.game
        end = min(self.total, self.done + count)
        while self.done < end and self.differs is None:
            index = self.done
            action = self.actions[index]
            try:
                game.apply(_replayable(action))
                if game.actions[-1] != action:
                    raise bad_save("roll")
            except RulesError as exc:
                raise RulesError(
                    "error.bad_save_action",
                    "action {index} of the save: {detail}",
                    index=index + 1,
                    why={"key": exc.key, "params": exc.params},  # worded by the UI
                    detail=echo(str(exc)),
                ) from None
            expected = self.expect.get(index + 1)
            if expected is not None and state_hash(game.state) != expected:
                self.differs = index + 1
        logged = {"log": game.log[self.log_from :], "marks": game.log_marks}
        ended = self.done == self.total and self.differs is None
        if ended and self.log_kept is not None and logged != self.log_kept:
            self.differs = self.total

    def finish(self) -> Game:
        """The replayed game, once every action is replayed and it ends in the saved state.

        Raises:
            RulesError: it does not (``error.bad_save_hash``).
        """
        if self.done != self.total or state_hash(self.game.state) != self.hash:
            raise RulesError("error.bad_save_hash", "the save does not replay to its saved state")
        return self.game


def _named_blocks(view: dict[str, Any]) -> set[str]:
    """The blocks a side's view shows by name (its own and the other side's revealed ones)."""
    return {b["id"] for b in view.get("blocks", ()) if not b.get("hidden")}


def check_options(options: Any, rules: Ruleset[Any, Any]) -> dict[str, Any]:
    """A game's options: an object of the options the rules read, each of its kind.

    Raises:
        InvalidActionError: not an object, an option nothing reads, or a wrong kind.
    """
    if not isinstance(options, dict):
        raise _bad_option("error.bad_option", "options")
    known = GAME_OPTIONS | rules.options
    for key in options:
        if key not in known:
            raise _bad_option("error.unknown_option", key)
    if not isinstance(options.get("strict_undo", False), bool):
        raise _bad_option("error.bad_option", "strict_undo")
    muster = options.get("muster", {})
    if not isinstance(muster, dict) or any(
        not isinstance(side, str) or isinstance(level, bool) or level not in MUSTER_LEVELS
        for side, level in muster.items()
    ):
        raise _bad_option("error.bad_option", "muster")
    return dict(options)


def _bad_option(key: str, name: str) -> InvalidActionError:
    template = {
        "error.bad_option": "game option {name}: not a value it takes",
        "error.unknown_option": "game option {name}: no rule of this game reads it",
    }[key]
    return InvalidActionError(key, template, name=echo(name))


def _replayable(action: Any) -> Any:
    """The action to play again for a recorded one: a digital roll rolls the seeded RNG again."""
    if isinstance(action, dict) and action.get("type") == "roll":
        if action.get("how") == "digital":
            return {"type": "roll"}
        return {"type": "roll", "value": action.get("value")}
    return action
