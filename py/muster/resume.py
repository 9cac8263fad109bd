"""A kept game back at once: resumed from its checkpoint, its replay checked afterwards.

The browser keeps every game with a checkpoint (``Game.save(checkpoint=True)``): its newest
state, one state before it and its log's newest lines (the older ones are
rebuilt by the check). ``resume_kept`` puts such a game in play without
replaying its actions; ``KeptCheck`` then replays them a few at a time, between the player's
own calls, and compares: when the replay agrees nothing is said and the states it kept are
given to the game (so undo far back needs no replay from the start); when it does not, the
replay is the game (its actions are the record), with the actions played since the resume
taken again as long as the rules allow them. A save without a checkpoint, or one whose
checkpoint does not fit, is replayed whole, as a file from elsewhere always is.

What a resume reads first does not grow with the game: the page sends the head of the kept
save (``resume_kept``'s ``held``: the actions since the checkpoint's older state, the log
lines the screen shows and those actions logged) and the rest right after it
(``KeptCheck.take_held``), read while the game is already on screen; the check starts once
it is here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import RulesError
from .game import PENDING, Game, Replay, _replayable

View = Callable[[Game], dict[str, Any]]


def resume_kept(
    data: Any, rules_for: Any, show: View, held: tuple[int, int] | None = None
) -> tuple[Game, dict[str, Any], KeptCheck | None]:
    """The game of a kept save, its view by ``show``, and the check to run after it (None when
    it was replayed whole: no checkpoint, or one refused).

    ``held``: ``data`` is the head of the kept save, its first actions and log marks left out
    (how many of each: ``Game.resume``); they follow (``KeptCheck.take_held``).

    Raises:
        RulesError: the save is refused as ``Game.load`` refuses it; a head whose checkpoint
            does not fit is refused (``error.bad_checkpoint``: the page sends the whole save).
    """
    if held is not None and held[0]:
        try:
            game = Game.resume(data, rules_for, *held)
        except RulesError:
            raise
        except Exception:  # noqa: BLE001  # any shape a head may come in
            raise _head_refused() from None
        return game, show(game), KeptCheck(game, data, held_marks=held[1])
    if isinstance(data, dict) and "checkpoint" in data:
        try:
            game = Game.resume(data, rules_for)
            check = KeptCheck(game, lambda: Replay(data, rules_for, checked=True))
            return game, show(game), check
        except Exception:  # noqa: BLE001  # a checkpoint that does not fit: replay instead
            pass
    game = Game.load(data, rules_for)
    return game, show(game), None


class KeptCheck:
    """The replay of a resumed game's save, compared with its checkpoint a step at a time.
    ``replay`` is the replay, or what makes it at the first step (so the resume itself does
    not check the save a second time), or the head of the save while the game's oldest
    actions are on their way (``take_held``; ``held_marks``: how many log marks it left out).
    """

    def __init__(
        self,
        game: Game,
        replay: Replay | Callable[[], Replay] | dict[str, Any],
        held_marks: int = 0,
    ) -> None:
        self.game = game
        self._replay = replay
        self.held_marks = held_marks
        self.finished = False

    @property
    def waiting(self) -> bool:
        """True while the game's oldest actions are not here: nothing to replay yet."""
        return isinstance(self._replay, dict)

    @property
    def replay(self) -> Replay:
        if isinstance(self._replay, dict):
            raise RuntimeError("the kept game's oldest actions are not here yet")
        if not isinstance(self._replay, Replay):
            self._replay = self._replay()
        return self._replay

    def take_held(self, actions: Any, log: Any, marks: Any, rules_for: Any) -> None:
        """The save's first actions, the log's lines and marks the head left out: into the
        game (``Game.take_held``), and the whole save into the replay that checks it.

        Raises:
            RulesError: they do not fit (``error.bad_checkpoint``), or the whole save is
                refused as ``Game.load`` refuses it; nothing changes.
        """
        head = self._replay
        if not isinstance(head, dict):
            raise _head_refused()
        try:
            point = head["checkpoint"]
            whole = {
                **head,
                "actions": [*actions, *head["actions"]],
                "checkpoint": {
                    **point,
                    "log": [*log, *point["log"]],
                    "log_from": point["log_from"] - len(log),
                    "log_marks": [*marks, *point["log_marks"]],
                },
            }
        except TypeError:
            raise _head_refused() from None
        replay = Replay(whole, rules_for, checked=True)  # the whole save's own checks
        self.game.take_held(actions, log, marks, self.held_marks)
        self._replay = replay

    def step(self, count: int) -> Game | None:
        """Replay ``count`` more actions. None while the replay agrees with the checkpoint (or
        the whole check is done and it agreed: ``finished``; or the oldest actions are not
        here yet: ``waiting``); the game replayed from the save's actions when it does not,
        with the actions played since the resume taken again."""
        if self.waiting:
            return None
        replay = self.replay
        try:
            replay.step(count)
        except RulesError:  # an action of the kept game does not replay
            return self._differs()
        if replay.differs is not None:
            return self._differs()
        if replay.done < replay.total:
            return None
        self.finished = True
        self._give_states()
        return None

    def _give_states(self) -> None:
        """The states the replay kept, to the resumed game where it still has the same past."""
        game, replayed = self.game, self.replay.game
        same = 0
        for mine, theirs in zip(game.actions, replayed.actions, strict=False):
            if mine != theirs:
                break
            same += 1
        for index in range(1, same + 1):
            if game.states[index] is None:
                game.states[index] = replayed.states[index]
        # The log lines the checkpoint did not keep, up to where the two pasts part.
        end = replayed.log_marks[same] if same < len(replayed.log_marks) else len(replayed.log)
        for index in range(min(end, len(game.log))):
            if game.log[index] is PENDING:
                game.log[index] = replayed.log[index]

    def _differs(self) -> Game:
        """The replayed game: the save's actions as far as they replay, then those played since
        the resume as far as the rules allow them."""
        self.finished = True
        replay, game = self.replay, self.game
        truth = replay.game
        kept = replay.actions
        try:
            while replay.done < replay.total:
                truth.apply(_replayable(kept[replay.done]))
        except RulesError:
            return truth
        if game.actions[: len(kept)] == kept:
            for action in game.actions[len(kept) :]:
                try:
                    truth.apply(_replayable(action))
                except RulesError:
                    break
        return truth


def _head_refused() -> RulesError:
    return RulesError("error.bad_checkpoint", "the checkpoint does not fit its save")
