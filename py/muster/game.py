"""A game in progress: actions, chance points, undo and redo, the log, saves and replay.

The state is plain JSON. A rule system supplies a ``Ruleset``: the first state of a scenario,
the legal actions in a state, and what an action does. This module holds what every system
shares: the checked entry point, dice at chance points (digital from the seeded RNG kept in
the state, or a physical die typed in), history, and saves that replay to the same state.
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from .dice import Die, roll
from .errors import IllegalActionError, InvalidActionError, RulesError
from .scenario import Scenario, parse_scenario

SAVE_FORMAT = "muster-save/1"
State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]
DICE = {"d10": Die(10, 0), "d6": Die(6, 1)}


class Ruleset(Protocol):
    """What a rule system gives the game."""

    system: str

    def initial_state(self, scenario: Scenario, options: dict[str, Any]) -> State:
        """The state at the start of play."""
        ...

    def legal_actions(self, scenario: Scenario, state: State) -> list[Action]:
        """Every action the player may take now (none at a chance point: the game adds rolls)."""
        ...

    def apply(self, scenario: Scenario, state: State, action: Action) -> list[Event]:
        """Carry out a legal action on ``state`` (a private copy) and return the log events."""
        ...


def state_hash(state: State) -> str:
    """A short fingerprint of a state: equal states, equal hashes."""
    text = json.dumps(state, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def canonical(action: Any) -> str:
    """An action as canonical JSON, for comparing with the legal ones."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


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

    scenario: Scenario
    rules: Ruleset
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[Action] = field(default_factory=list)
    redo_stack: list[Action] = field(default_factory=list)
    states: list[State] = field(default_factory=list)
    log: list[Event] = field(default_factory=list)
    log_marks: list[int] = field(default_factory=list)
    revision: int = 0  # bumped by every change of state, so views of it can be cached
    _legal: tuple[int, list[Action]] | None = None

    @classmethod
    def start(
        cls, scenario: Scenario, rules: Ruleset, seed: int, options: dict[str, Any] | None = None
    ) -> Game:
        """A new game at the scenario's start."""
        options = dict(options or {})
        first = rules.initial_state(scenario, options)
        first["rng"] = {"seed": seed, "counter": 0}
        return cls(scenario, rules, seed, options, states=[first])

    @property
    def state(self) -> State:
        """The current state (do not change it: every action makes a new one)."""
        return self.states[-1]

    def legal_actions(self) -> list[Action]:
        """Every action that may be taken now (worked out once per position)."""
        if self._legal is None or self._legal[0] != self.revision:
            self._legal = (self.revision, self._list_legal())
        return [dict(a) for a in self._legal[1]]

    def _list_legal(self) -> list[Action]:
        state = self.state
        if state.get("result"):
            return []
        if state.get("chance"):
            return chance_actions(state["chance"])
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
                action=canonical(action),
            )
        legal = {canonical(a) for a in self.legal_actions()}
        if canonical(action) not in legal:
            raise IllegalActionError(
                "error.illegal_action", "not allowed now: {action}", action=canonical(action)
            )
        events = self._apply(action)
        self.redo_stack.clear()
        return events

    def _apply(self, action: Action) -> list[Event]:
        state = copy.deepcopy(self.state)
        if action["type"] == "roll":
            action, events = self._roll(state, action)
        else:
            events = self.rules.apply(self.scenario, state, action)
        self.states.append(state)
        self.revision += 1
        self.actions.append(action)
        self.log_marks.append(len(self.log))
        self.log.extend(events)
        return events

    def _roll(self, state: State, action: Action) -> tuple[Action, list[Event]]:
        """Settle the chance point with a digital or a typed-in die, then let the rules go on."""
        chance = state["chance"]
        faces = chance_faces(chance)
        if "value" in action:
            value, how = action["value"], "physical"
        else:
            rng = state["rng"]
            index = roll(rng["seed"], rng["counter"], Die(len(faces), 0))
            value, how = faces[index], "digital"
            rng["counter"] += 1
        recorded = {"type": "roll", "value": value, "how": how}
        state["chance"] = None
        event = {
            "key": "log.roll",
            "params": {
                "die": chance.get("die", "cup"),
                "value": value,
                "how": how,
                "purpose": chance.get("purpose", ""),
            },
        }
        events = [event] + self.rules.apply(self.scenario, state, {**recorded, "chance": chance})
        return recorded, events

    def can_undo(self) -> bool:
        """True if there is an action to take back (strict play keeps rolls final)."""
        if not self.actions:
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

    def save(self) -> dict[str, Any]:
        """A save: format, system, the scenario itself, seed, options, actions and state hash."""
        return {
            "format": SAVE_FORMAT,
            "system": self.scenario.system,
            "scenario": self.scenario.data,
            "seed": self.seed,
            "options": self.options,
            "actions": self.actions,
            "hash": state_hash(self.state),
        }

    @classmethod
    def load(cls, data: Any, rules_for: Any) -> Game:
        """Replay a save into a game, checking that it ends in the saved state.

        ``rules_for(system)`` gives the ruleset.

        Raises:
            RulesError: the save is malformed, an action in it is not legal, or the
                replayed state differs from the saved one.
        """
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise RulesError("error.bad_save", "not a save file ({detail})", detail="format")
        for key, kind in (("seed", int), ("actions", list), ("options", dict), ("hash", str)):
            if not isinstance(data.get(key), kind):
                raise RulesError("error.bad_save", "not a save file ({detail})", detail=key)
        scenario = parse_scenario(data.get("scenario"))
        game = cls.start(scenario, rules_for(scenario.system), data["seed"], data["options"])
        for index, action in enumerate(data["actions"]):
            try:
                game.apply(_replayable(action))
                if game.actions[-1] != action:
                    raise RulesError(
                        "error.bad_save",
                        "not a save file ({detail})",
                        detail="a roll differs from the seed's",
                    )
            except RulesError as exc:
                raise RulesError(
                    "error.bad_save_action",
                    "action {index} of the save: {detail}",
                    index=index + 1,
                    detail=str(exc),
                ) from None
        if state_hash(game.state) != data["hash"]:
            raise RulesError("error.bad_save_hash", "the save does not replay to its saved state")
        return game


def _replayable(action: Any) -> Any:
    """The action to play again for a recorded one: a digital roll rolls the seeded RNG again."""
    if isinstance(action, dict) and action.get("type") == "roll":
        if action.get("how") == "digital":
            return {"type": "roll"}
        return {"type": "roll", "value": action.get("value")}
    return action
