"""Muster's search: the value of each action for one side, by expectimax over the exact
chance outcomes with a budget.

A decision is scored in two passes. First every legal action is taken once and the position
after it valued, each chance point it reaches in turn settled by every face with its exact
probability (``game.chance_faces``), ``chances`` of them deep, beyond that by one face drawn
from Muster's own random stream. Then the best ``deepen`` actions are looked at further: the
side's next decisions after each (a turn is many unit moves: a *macro-move*) are played
greedily, each the best by the first pass's measure, ``plies`` of them, and the position at the
end valued in the same way. A position where the other side decides, or the end, or the budget
spent, is valued by the system's evaluation (``systems/<x>/evaluation.py``).

Muster never calls the checked ``Game.apply``: it takes actions it listed with the rules
themselves on its own copies of the state (``knowledge.clone``), as ``Game.push`` does.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..game import chance_faces
from ..shapes import Action, State
from .knowledge import clone

REPEAT = 500.0  # what going back to a position the side has seen costs: never, unless forced
# and, when every way leads back, the position seen longest ago costs least (by up to AGE):
# the side walks out of a loop (two blocks picked and put back in turn) rather than round it
AGE = 10.0
MAX_FACES = 12  # a chance point of more faces is settled by one face drawn, at every depth
ESCAPE = 2000  # at most how many positions the way out of a loop is looked for among
MAX_ANSWERS = 24  # a decision of more actions than this is not followed as a forced answer
# The actions that end the side's step, phase or turn: on a tie of values one of them is chosen
# (nothing gained by going on: the side stops, rather than wander among positions of one worth).
ENDING = frozenset({"next_step", "end_phase", "end_turn", "end_rally", "end_combat"})
STEP = 0.01  # what each action of a line costs: of two lines worth the same, the shorter wins
Evaluate = Callable[[Any, Any, str], float]


@dataclass(frozen=True)
class Level:
    """How hard Muster thinks: how many chance points deep it weighs every face, how many
    actions it looks at further and how many of the side's next decisions, how many
    determinizations of hidden blocks it averages over, a budget of actions taken (``nodes``)
    and how many forced answers of an exchange it follows (``replies``)."""

    key: str
    chances: int
    deepen: int
    plies: int
    worlds: int
    nodes: int
    replies: int = 0  # how many forced answers of an exchange it follows (``settle``)
    # how much it weighs what each side could do at its next turn (the system's ``threat``:
    # its fire, the objectives it could take; times this, added to every position's value;
    # 0: not at all)
    threats: float = 0.0
    # and what each side's close combats could do at its next turn (the system's ``assault``)
    assaults: float = 0.0


@dataclass
class Search:
    """One decision's search, for ``side``."""

    rules: Any
    scenario: Any
    side: str
    evaluate: Evaluate
    rng: random.Random
    level: Level
    deadline: float | None = None  # time.monotonic() past which it stops deepening
    budget: int = 0  # actions it may take (0: the level's)
    # the positions the side has seen (``fingerprint``), each with how long ago (0: the newest)
    seen: Mapping[str, int] = field(default_factory=dict)
    nodes: int = 0
    cap: int = 0  # actions it may take before it stops this pass (0: its whole budget)
    replies: int | None = None  # how many forced answers it follows now (None: the level's)
    cuts: int = 0  # how many times an exchange was left unfollowed for want of ``replies``

    def fingerprint(self, state: State) -> str:
        """The position as the side sees it, as text (to know a position seen before)."""
        return fingerprint(self.rules, self.scenario, state, self.side)

    def repeats(self, state: State, seen: Mapping[str, int]) -> float:
        """What going to ``state`` costs: nothing for a position the side has not seen (or one
        with a die due), else ``REPEAT`` (a block picked then put back gains nothing) and more
        the newer it is, so that where every action comes back to a position seen, the one
        seen longest ago is taken."""
        if state.get("chance"):
            return 0.0
        age = seen.get(self.fingerprint(state))
        return 0.0 if age is None else REPEAT + AGE / (1 + age)

    def spent(self) -> bool:
        """True once the budget of actions (or of time, if one was given) is spent, or the
        pass under way has taken its share (``cap``)."""
        if self.nodes >= (self.budget or self.level.nodes):
            return True
        if self.cap and self.nodes >= self.cap:
            return True
        return self.deadline is not None and time.monotonic() > self.deadline

    def late(self) -> bool:
        """True once the time given (if any) is past: the first pass's and ``escape``'s one
        bound, as they go on past a budget of actions."""
        return self.deadline is not None and time.monotonic() > self.deadline

    def child(self, state: State, action: Action) -> State:
        """The state after ``action`` (a legal one, or a roll with its value at a chance
        point) on a copy of ``state``."""
        self.nodes += 1
        after: Any = clone(state)
        if action["type"] == "roll":
            chance = after["chance"]
            after["chance"] = None
            settled = {"type": "roll", "value": action["value"], "how": "physical"}
            self.rules.apply(self.scenario, after, {**settled, "chance": chance})
        else:
            self.rules.apply(self.scenario, after, action)
        return after  # type: ignore[no-any-return]

    def settle(
        self, state: State, chances: int, replies: int | None = None, inside: bool = False
    ) -> float:
        """The value of ``state`` once its chance points are settled: every face weighed by
        its probability while ``chances`` lasts, then one face drawn. And once the exchange it
        is in is played out: where the other side must answer (no action of it ends its step:
        the leading pieces of an assault, a retreat, a block), the answer best for it (the
        worst for this side) is taken, and so on while the sides answer each other (``inside``
        the exchange), ``replies`` answers deep (the level's). The side's own steps are
        followed by ``deepen_one``, not here."""
        if state.get("result"):
            return self.evaluate(self.scenario, state, self.side)
        if replies is None:
            replies = self.level.replies if self.replies is None else self.replies
        chance = state.get("chance")
        if not chance:
            return self.answered(state, chances, replies, inside)
        faces = chance_faces(chance)
        if chances > 0 and len(faces) <= MAX_FACES and not self.spent():
            total = 0.0
            for face in faces:
                total += self.settle(
                    self.child(state, {"type": "roll", "value": face}),
                    chances - 1,
                    replies,
                    inside,
                )
            return total / len(faces)
        face = faces[self.rng.randrange(len(faces))]
        return self.settle(self.child(state, {"type": "roll", "value": face}), 0, replies, inside)

    def answered(self, state: State, chances: int, replies: int, inside: bool) -> float:
        """The value of ``state`` (no die due) after the forced answers that follow it: at
        most ``MAX_ANSWERS`` of each weighed, the best for the side that answers."""
        here = self.evaluate(self.scenario, state, self.side)
        if self.spent():
            return here
        decider = self.rules.decider(self.scenario, state)
        if decider is None:
            return here
        mine = decider == self.side
        if mine and not inside:
            return here  # the side's own next step: ``deepen_one`` follows it
        if replies <= 0:
            self.cuts += 1  # perhaps an answer not followed (a deeper pass would)
            return here
        legal = self.rules.legal_actions(self.scenario, state)
        if not legal or len(legal) > MAX_ANSWERS or any(a["type"] in ENDING for a in legal):
            return here  # a step of the side's own to play, not an answer
        best = float("-inf") if mine else float("inf")
        for action in legal:
            if self.spent():
                break
            try:
                after = self.child(state, action)
                value = self.settle(after, min(chances, 1), replies - 1, True)
            except Exception:  # an answer a determinization does not allow
                continue
            best = max(best, value) if mine else min(best, value)
        return best if math.isfinite(best) else here

    def first_pass(
        self,
        state: State,
        legal: list[Action],
        chances: int,
        seen: Mapping[str, int] | None = None,
        stop: bool = False,
    ) -> list[float]:
        """The value of each action of ``legal`` in ``state``, its chance points settled, less
        ``REPEAT`` for one that comes back to a position of ``seen``; with ``stop``, only of the
        actions looked at before the budget was spent (the others -inf)."""
        seen = self.seen if seen is None else seen
        values: list[float] = []
        for action in legal:
            if stop and self.spent():
                values.append(float("-inf"))
                continue
            try:
                after = self.child(state, action)
                back = self.repeats(after, seen)
                # a fight declared (an action the rules preview): the side's own answers in it
                # (its leading unit, the hexside it attacks across) are played out too
                fight = action["type"] in self.rules.previewable
                values.append(self.settle(after, chances, None, fight) - back)
            except Exception:  # an action a determinization does not allow: never chosen
                values.append(float("-inf"))
        return values

    def chancy(self, action: Action, after: State) -> bool:
        """True if ``after`` (the state after ``action``) waits on a die, or ``action`` starts a
        fight (its answers and dice follow): a line is not followed past it on one face drawn."""
        return bool(after.get("chance")) or action["type"] in self.rules.previewable

    def deepen_one(self, state: State, action: Action) -> float:
        """The value of ``action`` followed by the side's next ``plies`` decisions, each the
        best of a first pass (chance points settled one deep), less ``STEP`` for each action
        of the line. The side stops where no action gains on the position it has (it would
        end the step), and at a position it has seen. A line ends at an action that waits on
        a die or starts a fight, valued over every face as the first pass values it: followed
        on one face drawn, the lucky face of one line would outbid the others' true odds, the
        more so the more lines are looked at."""
        after = self.child(state, action)
        seen = dict(self.seen)
        back = self.repeats(after, seen)
        if self.chancy(action, after):
            fight = action["type"] in self.rules.previewable
            return self.settle(after, self.level.chances, None, fight) - back - STEP
        taken = 1
        for _ in range(self.level.plies):
            if after.get("result") or self.spent():
                break
            if self.rules.decider(self.scenario, after) != self.side:
                break
            legal = self.rules.legal_actions(self.scenario, after)
            if not legal:
                break
            seen = {key: age + 1 for key, age in seen.items()}
            seen[self.fingerprint(after)] = 0
            here = self.evaluate(self.scenario, after, self.side)
            values = self.first_pass(after, legal, min(1, self.level.chances), seen, True)
            if self.spent():
                break  # cut short: ``decide`` does not compare this line
            best = max(range(len(legal)), key=lambda i: (values[i], legal[i]["type"] in ENDING))
            if values[best] <= here or values[best] <= -REPEAT / 2:
                break  # nothing gains (or only positions seen before): the side stops here
            follow = legal[best]
            after = self.child(after, follow)
            taken += 1
            if self.chancy(follow, after):
                fight = follow["type"] in self.rules.previewable
                return self.settle(after, self.level.chances, None, fight) - back - STEP * taken
        return self.settle(after, self.level.chances) - back - STEP * taken


def escape(search: Search, state: State, legal: list[Action]) -> int | None:
    """Where the side is stuck (every action comes back to a position it has seen, or it may
    not end its step and nothing gains: a block that must move stands elsewhere than the
    blocks picked), the index in ``legal`` of the first action of the shortest way out:
    breadth first over the side's own positions, each once, to the nearest one it has not
    seen where it may end its step, or stands better, or the step is over. None if there is
    none within ``ESCAPE`` positions."""
    rules, scenario, side = search.rules, search.scenario, search.side
    here = search.evaluate(scenario, state, side)
    known = set(search.seen) | {search.fingerprint(state)}
    todo: deque[tuple[State, list[Action], int]] = deque([(state, legal, -1)])
    looked = 0
    while todo:
        before, actions, first = todo.popleft()
        for i, action in enumerate(actions):
            looked += 1
            if looked > ESCAPE or search.late():
                return None
            way = i if first < 0 else first
            try:
                after = search.child(before, action)
            except Exception:  # an action a determinization does not allow
                continue
            key = search.fingerprint(after)
            if key in known:
                continue
            known.add(key)
            if after.get("result") or after.get("chance"):
                return way  # the step is over, or a die decides
            if rules.decider(scenario, after) != side:
                return way
            nexts = rules.legal_actions(scenario, after)
            if any(a["type"] in ENDING for a in nexts):
                return way
            if search.evaluate(scenario, after, side) > here:
                return way
            todo.append((after, nexts, way))
    return None


def fingerprint(rules: Any, scenario: Any, state: State, side: str) -> str:
    """A position as ``side`` sees it (``Ruleset.view_for``), as canonical text; a list of
    names in any order is the same position (the blocks picked to move together)."""
    shown = _unordered(rules.view_for(scenario, state, side))
    return json.dumps(shown, sort_keys=True, separators=(",", ":"))


def _unordered(value: Any) -> Any:
    """``value`` with every list of texts sorted."""
    if type(value) is dict:
        return {k: _unordered(v) for k, v in value.items()}
    if type(value) is list:
        if all(type(v) is str for v in value):
            return sorted(value)
        return [_unordered(v) for v in value]
    return value


FIRST_SHARE = 0.5  # of a search's budget, at most what its first pass may take


def spread(legal: list[Action]) -> list[int]:
    """The indices of ``legal`` in the order a first pass with a time limit looks at them: the
    actions that end the step first, then one action of each unit in turn (its first listed,
    then its second...), so that a first pass cut short has looked at every unit's move, not
    at the many moves of the first units listed."""
    groups: dict[Any, list[int]] = {}
    ending = []
    for i, action in enumerate(legal):
        if action["type"] in ENDING:
            ending.append(i)
        else:
            groups.setdefault(action.get("unit", action["type"]), []).append(i)
    rows = list(groups.values())
    longest = max((len(row) for row in rows), default=0)
    return ending + [row[k] for k in range(longest) for row in rows if k < len(row)]


def first_values(searches: list[tuple[Search, State]], legal: list[Action]) -> list[float]:
    """Each action's value by the first pass, its mean over the determinizations: passes made
    deeper and deeper into the exchanges an action starts (0 forced answers followed, then
    1, up to the level's ``replies``) while a whole pass fits in ``FIRST_SHARE`` of the
    budget; the deepest whole pass counts, and the search goes on at that depth. A pass
    the budget cut short would value its first actions to their exchanges' end and the last
    ones at a glance, and the order of the list would decide. A deeper pass values again only
    the actions whose exchange the last one left unfollowed (a move that starts none is
    worth the same at every depth). The glance (0 answers) values every action, whatever the
    budget of actions, but not past the time given (if any): then the actions not yet looked
    at are never chosen, but for one that ends the step, and the determinizations not yet
    begun do not count (a battle of hundreds of units decides in its time, on fewer
    actions)."""
    n = len(searches)
    level = searches[0][0].level
    worlds = [[0.0] * len(legal) for _ in searches]
    todo = spread(legal) if searches[0][0].deadline is not None else list(range(len(legal)))
    for replies in range(level.replies + 1):
        again = [list(w) for w in worlds]
        cut: set[int] = set()
        whole = True
        for w, (search, state) in enumerate(searches):
            if not replies and w and search.late():
                n = w  # the time is up: the worlds glanced at so far count, no more
                break
            search.cap = search.nodes + int(FIRST_SHARE * (search.budget or level.nodes))
            search.replies = replies
            for i in todo:
                if not replies and search.late() and legal[i]["type"] not in ENDING:
                    again[w][i] = float("-inf")  # not looked at: never chosen
                    continue
                before = search.cuts
                again[w][i] = search.first_pass(state, [legal[i]], level.chances)[0]
                if search.cuts > before:
                    cut.add(i)
                if replies and search.spent():  # the glance (0) values every action
                    whole = False
                    break
            search.cap = 0
            if not whole:
                break
        if not whole:
            for search, _ in searches:
                search.replies = replies - 1
            break
        worlds = again
        todo = sorted(cut)
        if not todo:
            break
    return [sum(w[i] for w in worlds[:n]) / n for i in range(len(legal))]


def decide(searches: list[tuple[Search, State]], legal: list[Action]) -> tuple[int, list[float]]:
    """The index of the best action of ``legal`` over the determinizations (``searches``: one
    search and its state each; one for a game that hides nothing) and each action's value.

    Each action's value is its mean over the determinizations. The best ``deepen`` of them by
    the first pass (and the action that ends the step, if one is legal) are then valued again,
    each with the same follow-ups in every world, and the best of those is chosen: on a tie the
    action that ends the step, else the first listed.
    """
    n = len(searches)
    first = first_values(searches, legal)
    level = searches[0][0].level
    order = sorted(range(len(legal)), key=lambda i: (-first[i], i))
    chosen = order[: level.deepen] if level.deepen and level.plies and len(legal) > 1 else []
    if chosen:
        # and the actions tied with the best (picking a block is worth nothing by itself: its
        # worth is the move it leads to), while the budget lasts; the ending first: it is
        # cheap (the other side decides next)
        top = first[order[0]]
        tied = [i for i in order[level.deepen :] if first[i] >= top and top > -REPEAT / 2]
        ending = [i for i in order[level.deepen :] if legal[i]["type"] in ENDING]
        chosen = ending + chosen + [i for i in tied if i not in ending]
    deeper: dict[int, float] = {}
    for i in chosen:
        if first[i] == float("-inf"):
            continue
        if deeper and any(s.spent() for s, _ in searches):
            break
        total = 0.0
        for search, state in searches:
            try:
                total += search.deepen_one(state, legal[i]) / n
            except Exception:  # a follow-up a determinization does not allow
                total += first[i] / n
        if deeper and any(s.spent() for s, _ in searches):
            break  # the budget ran out inside this line: cut short, it is not compared
        deeper[i] = total
    values = first
    if len(deeper) > 1:  # the best is chosen among those valued again
        values = [deeper.get(i, float("-inf")) for i in range(len(legal))]
    index = max(range(len(legal)), key=lambda i: (values[i], legal[i]["type"] in ENDING, -i))
    search, state = searches[0]
    # Stuck: every action comes back to a position seen, or the side may not end its step
    # (a block must move first) and no action gains: the shortest way out is taken.
    loop = values[index] <= -REPEAT / 2
    if not loop and not any(a["type"] in ENDING for a in legal):
        here = sum(s.evaluate(s.scenario, st, s.side) for s, st in searches) / n
        loop = values[index] <= here
    if loop:
        out = escape(search, state, legal)
        if out is not None:
            index = out
    return index, values
