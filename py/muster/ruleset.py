"""The whole contract between the game model and a rule system, with its defaults in one place.

``Ruleset`` declares every method the game or the API calls on a system; nothing reaches a
system by ``getattr``. ``RulesBase`` gives the defaults a system inherits and overrides.

What the screen shows comes from here, for every system alike (``docs/play-view.md``):

- a **prompt** ``{"key", "params", "side", "why"?}``: who acts, what is asked, and, when a
  choice is forced, why (a key and params);
- **choices**: the legal actions grouped, each group with a label (key and params) and a kind
  (``buttons``, ``map`` or ``facing``), each item with the action, its own label, the unit it
  concerns and the place a tap takes it at, so the map can light them;
- what each face of a chance point does, the markers on units, and what is drawn on the map.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Generic, Protocol, TypeVar

from .areamap import AreaScenario
from .errors import IllegalActionError
from .scenario import Scenario
from .shapes import Action, Event, Refusal, State
from .texts import english

__all__ = ["Action", "Event", "Refusal", "Ruleset", "RulesBase", "State"]

Label = dict[str, Any]  # {"key": message key, "params": {...}}
Choice = dict[str, Any]
Item = dict[str, Any]
CHOICE_KINDS = ("buttons", "map", "facing")
# A choice may carry "end": true: it ends the step, the phase or the turn (the panel shows it
# within reach, under the prompt). An item may carry "give_up": true, "primary": true and, on
# an ending, "unused" (``muster.flow``: the natural next step, and what an ending leaves).
# Action fields that name the place a tap on the map takes an action at, in order of preference.
PLACE_FIELDS = ("at", "to", "target", "hex", "approach")
# How the screen words a message parameter, by its name (docs/play-view.md): the names every
# system shares. A system adds its own in ``Ruleset.words``; a parameter with no kind is shown
# as it is, so only numbers and names may go without one (tested over random games).
COMMON_WORDS: dict[str, str] = {
    "unit": "unit",
    "units": "units",
    "a": "unit",
    "d": "unit",
    "attackers": "units",
    "defenders": "units",
    "side": "side",
    "winner": "side",
    "points": "points",
    "hex": "place",
    "to": "place",
    "frm": "place",
    "from": "place",
    "into": "place",
    "at": "place",
    "locale": "place",
    "approach": "place",
    "target": "place",
    "targets": "places",
    "places": "places",
    "formation": "formation",
    "drawn": "formation",
    "facing": "facing",
    "rule": "rule",
    "terrain": "word:terrain.",
    # The rules reference's cells (docs/rules-reference.md).
    "names": "labels",
    "items": "labels",
    "unit_type": "word:unit_type.",
    "unit_types": "words:unit_type.",
    "first": "label",
    "second": "label",
    "feature": "word:feature.",
    "status": "word:status.",
    "die": "word:die.",
    "how": "word:ui.how_",
    "purpose": "word:purpose.",
    "why": "label",
    # Each side's standing (muster.standing): its points now and what they come from.
    "score": "number",
    "sources": "labels",
    "worth": "number",
    "count": "count",
    "n": "count",
    "turn": "number",
    "turns": "number",
    "value": "number",
    "roll": "number",
    "total": "number",
    "cost": "number",
    "name": "text",
    "morale": "number",
    # What an error repeats of a refused input, and where a file was refused: shown as they are.
    "action": "text",
    "method": "text",
    "detail": "text",
    "place": "text",
    "problem": "text",
    # The parameters of a refused file's problem (muster.problems): its values, ids and the
    # values a field takes, shown as they are; counts and bounds.
    "got": "text",
    "id": "text",
    "other": "text",
    "options": "text",
    "expected": "text",
    "faces": "text",
    "lo": "number",
    "hi": "number",
    "least": "number",
    "cap": "number",
    # A refusal (``Ruleset.refusal``): the action in words, its type, who and where, and what
    # is asked now (the prompt).
    "act": "word:act.",
    "who": "text",
    "now": "label",
}
# The state and action shapes a ruleset plays with: the shared ones of ``muster.shapes`` or a
# system's own that extend them.
S = TypeVar("S", bound=State)
A = TypeVar("A", bound=Action)
# An action type the refusal words as ``act.<type>`` (anything else is not repeated).
ACTION_TYPE = re.compile(r"[a-z][a-z0-9_]{0,39}")


class Ruleset(Protocol[S, A]):
    """What a rule system gives the game and the API (``RulesBase`` holds the defaults).

    ``S`` and ``A``: the shapes of its state and actions (``muster.shapes``, or the system's
    own that extend them).
    """

    system: str
    # Action types whose modifiers and odds ``preview`` shows before they are taken.
    previewable: tuple[str, ...]
    # True if a side may not see all of the state (the API then sends per-side views).
    hidden_information: bool
    # The game options the system reads beyond every game's (checked when a game starts).
    options: frozenset[str]
    # Parameter name -> kind for this system's messages, beyond ``COMMON_WORDS``.
    words: dict[str, str]
    # The result card (``muster.cards``): log keys that make an action's lines a card, the keys
    # of the line that declared the fight a card settles (by the die's purpose, "" without a
    # die), and the keys a card leaves out.
    card_keys: frozenset[str]
    card_heads: dict[str, frozenset[str]]
    card_quiet: frozenset[str]
    # Every marker word ``view_extra``'s ``markers`` may put on a unit, in the legend's order
    # (the screen's legend explains each; a marker sent that is not here is a defect, tested).
    markers: tuple[str, ...]

    def initial_state(self, scenario: Any, options: dict[str, Any]) -> S:
        """The state at the start of play."""
        ...

    def legal_actions(self, scenario: Any, state: S) -> list[A]:
        """Every action the player may take now (none at a chance point: the game adds rolls)."""
        ...

    def apply(self, scenario: Any, state: S, action: A) -> list[Event]:
        """Carry out a legal action on ``state`` (a private copy) and return the log events."""
        ...

    def decider(self, scenario: Any, state: S) -> str | None:
        """The side that decides now (none while a die decides, or at the end)."""
        ...

    def board(self, scenario: Any, state: S) -> Any:
        """The hex board with the units where the state puts them (none for area maps)."""
        ...

    def prompt(self, scenario: Any, state: S) -> dict[str, Any] | None:
        """What is asked now: ``{"key", "params", "side", "why"?}``; none once the game is over."""
        ...

    def choices(self, scenario: Any, state: S, legal: list[A]) -> list[Choice]:
        """The legal actions grouped into labelled choices (every legal action in exactly one)."""
        ...

    def chance_results(self, scenario: Any, state: S) -> list[Label | None]:
        """What each face of the chance point does, in the order of its faces (none: unknown)."""
        ...

    def view_for(self, scenario: Any, state: S, viewer: str | None) -> dict[str, Any]:
        """The state as ``viewer`` may see it (all of it without hidden information)."""
        ...

    def card_units(self, scenario: Any, state: S, card: dict[str, Any]) -> list[str]:
        """Units ``card`` concerns beyond those its lines name (a formation drawn: its units on
        the map), marked with them; only units the card's viewer may see."""
        ...

    def preview(self, scenario: Any, state: S, action: A) -> dict[str, Any]:
        """Modifiers (value, reason, rule) and exact odds of a legal previewable action."""
        ...

    def view_extra(self, scenario: Any, state: S, viewer: str | None) -> dict[str, Any]:
        """What the screen shows beside the state: the fight in progress, tables in use,
        ``markers`` (unit id -> marker words) and ``arrows`` drawn on the map."""
        ...

    def reference(self, scenario: Any, state: S | None) -> dict[str, Any]:
        """The system's charts for ``scenario`` (its overrides applied), read from the tables
        the rules read; ``state``: the game in play, if any (the tables it plays with)."""
        ...

    def score(self, scenario: Any, state: S) -> dict[str, dict[str, int]]:
        """Each side's points now, as the end of the game would count them, by source
        (``objectives``, and the system's own: ``routed``, ``steps``); every side listed, in
        the scenario's order. Empty for a system that scores nothing."""
        ...

    def victory(self, scenario: Any) -> dict[str, Any]:
        """The scenario's victory conditions: ``turns`` and ``conditions``, labels each with
        ``flags`` (``default``: Muster's own where the rules are silent; ``override``: this
        scenario's), read from the settings the end of the game reads."""
        ...

    def refusal(self, scenario: Any, state: S, action: A) -> Refusal:
        """Why ``action`` is not allowed in ``state``, in words: the message the checked
        ``Game.apply`` refuses it with, naming the action, the rule and the place.

        Asked only for an action that is not legal now: a dict with a text ``type``, the rest
        of it unchecked. Never raises, and never changes ``state``.
        """
        ...


class RulesBase(Generic[S, A]):
    """The defaults of every ``Ruleset`` method but the four a system must write."""

    system = ""
    previewable: tuple[str, ...] = ()
    hidden_information = False
    options: frozenset[str] = frozenset()
    words: dict[str, str] = {}
    card_keys: frozenset[str] = frozenset({"log.roll"})  # every die rolled or typed in
    card_heads: dict[str, frozenset[str]] = {}
    card_quiet: frozenset[str] = frozenset()
    markers: tuple[str, ...] = ()

    def decider(self, scenario: Any, state: S) -> str | None:
        """The side whose turn it is."""
        side = state.get("side")
        return None if state.get("result") or not isinstance(side, str) else side

    def board(self, scenario: Any, state: S) -> Any:
        """No board by default."""
        return None

    def prompt(self, scenario: Any, state: S) -> dict[str, Any] | None:
        """The phase of the side to act."""
        if state.get("result"):
            return None
        side = self.decider(scenario, state)
        return {"key": "prompt.act", "params": {"side": side}, "side": side}

    def choices(self, scenario: Any, state: S, legal: list[A]) -> list[Choice]:
        """One choice per action type, in the order the types first appear."""
        groups: dict[str, Choice] = {}
        for action in legal:
            kind = action["type"]
            if kind not in groups:
                groups[kind] = choice(f"choice.{kind}", {})
            groups[kind]["items"].append(
                item(action, f"action.{kind}", params_of(action), fight=kind in self.previewable)
            )
        return list(groups.values())

    def chance_results(self, scenario: Any, state: S) -> list[Label | None]:
        """Unknown by default: the prompt says what the die decides."""
        return []

    def card_units(self, scenario: Any, state: S, card: dict[str, Any]) -> list[str]:
        """None beyond the lines' own by default."""
        return []

    def view_for(self, scenario: Any, state: S, viewer: str | None) -> dict[str, Any]:
        """All of the state but the dice's inner workings."""
        return {k: v for k, v in state.items() if k not in ("rng", "chance")}

    def preview(self, scenario: Any, state: S, action: A) -> dict[str, Any]:
        """No previews by default (``previewable`` is empty, so the API never asks).

        Raises:
            IllegalActionError: always: this system previews nothing.
        """
        raise IllegalActionError(
            "error.illegal_action", "not allowed now: {action}", action=action.get("type", "")
        )

    def view_extra(self, scenario: Any, state: S, viewer: str | None) -> dict[str, Any]:
        """Nothing beside the state by default."""
        return {}

    def reference(self, scenario: Any, state: S | None) -> dict[str, Any]:
        """No charts by default (docs/rules-reference.md gives the shape)."""
        return {"system": self.system, "sections": []}

    def score(self, scenario: Any, state: S) -> dict[str, dict[str, int]]:
        """No points by default: no standing under the prompt."""
        return {}

    def victory(self, scenario: Any) -> dict[str, Any]:
        """No conditions said by default."""
        return {"turns": None, "conditions": []}

    def refusal(self, scenario: Any, state: S, action: A) -> Refusal:
        """The action's type in words, the unit it names (by name, if the side deciding may see
        it), the first place it names (``PLACE_FIELDS``, in words) and what is asked now (the
        prompt: the phase's rule in words; not with hidden information, nor at the end).
        ``rule`` is the phase (``state["phase"]``), ``place`` the place in words.

        >>> from muster.scenario import load_builtin
        >>> sc = load_builtin("demo-hohenbrueck")
        >>> state = {"side": "fr", "phase": "movement"}
        >>> r = RulesBase().refusal(sc, state, {"type": "move", "unit": "nobody", "to": "0101"})
        >>> r["key"], r["rule"], r["place"]
        ('error.refused', 'movement', '0101')
        >>> r["params"]["action"]
        {'key': 'refused.act_place', 'params': {'act': 'move', 'place': '0101'}}
        """
        kind = action.get("type")
        act = kind if isinstance(kind, str) and ACTION_TYPE.fullmatch(kind) else None
        uid = action.get("unit")
        if self.hidden_information:  # only a unit of the side deciding (none: no side decides)
            side = self.decider(scenario, state)
            who = None if side is None else unit_words(scenario, uid, side)
        else:
            who = unit_words(scenario, uid)
        spot = next((action.get(f) for f in PLACE_FIELDS if isinstance(action.get(f), str)), None)
        place = place_words(scenario, spot)
        parts = {"act": act, "who": who, "place": place}
        shown = {k: v for k, v in parts.items() if v is not None}
        what = "_".join(["act" if act else "some"] + [k for k in ("who", "place") if k in shown])
        words = {"key": f"refused.{what}", "params": shown}
        phase = state.get("phase")
        rule = phase if isinstance(phase, str) else None
        if state.get("result"):
            return refusal("error.refused_over", {"action": words}, rule, place)
        asked = None if self.hidden_information else self.prompt(scenario, state)
        if asked is None:
            return refusal("error.refused_plain", {"action": words}, rule, place)
        now = {"key": asked["key"], "params": asked.get("params", {})}
        return refusal("error.refused", {"action": words, "now": now}, rule, place)


def choice(key: str, params: dict[str, Any], kind: str = "buttons", **extra: Any) -> Choice:
    """A group of actions with its label; ``items`` are added with ``item``."""
    assert kind in CHOICE_KINDS, kind
    return {"key": key, "params": params, "kind": kind, "items": [], **extra}


def item(
    action: Mapping[str, Any],
    key: str,
    params: dict[str, Any] | None = None,
    unit: str | None = None,
    at: str | None = None,
    fight: bool = False,
) -> Item:
    """One action of a choice: its label, the unit it concerns and the place a tap takes it at
    (by default the action's own ``unit`` and first place field), and whether it is previewed.
    """
    if unit is None and isinstance(action.get("unit"), str):
        unit = action["unit"]
    if at is None:
        at = next((action[f] for f in PLACE_FIELDS if isinstance(action.get(f), str)), None)
    return {
        "action": action,
        "key": key,
        "params": params_of(action) if params is None else params,
        "unit": unit,
        "at": at,
        "preview": fight,
    }


def refusal(
    key: str, params: dict[str, Any], rule: str | None = None, place: str | None = None
) -> Refusal:
    """A refusal: its message (key and params: words only), the rule and the place."""
    return {"key": key, "params": params, "rule": rule, "place": place}


def unit_words(scenario: Any, uid: Any, side: str | None = None) -> str | None:
    """The name of the unit ``uid`` of ``scenario`` (its English), if it has one, and, when
    ``side`` is given, only if the unit is that side's (so a refusal never names a hidden enemy
    block).

    >>> from muster.scenario import load_builtin
    >>> sc = load_builtin("demo-hohenbrueck")
    >>> uid = next(iter(sc.units))
    >>> unit_words(sc, uid) == english(sc.units[uid]["name"]), unit_words(sc, "nobody")
    (True, None)
    """
    if not isinstance(scenario, Scenario | AreaScenario) or not isinstance(uid, str):
        return None
    spec = scenario.units.get(uid)
    if not isinstance(spec, dict) or "name" not in spec:
        return None
    if side is not None and spec.get("side") != side:
        return None
    return english(spec["name"])


def place_words(scenario: Any, value: Any) -> str | None:
    """A place of ``scenario`` in words: a hex's printed number, a locale's name, an approach
    ``"a/b"`` as ``"A → B"``; None if it is not a place of the map.

    >>> from muster.scenario import load_builtin
    >>> place_words(load_builtin("demo-hohenbrueck"), "0101"), place_words(None, "0101")
    ('0101', None)
    """
    if not isinstance(value, str):
        return None
    if isinstance(scenario, AreaScenario):
        names = [scenario.locales.get(part) for part in value.split("/")]
        if len(names) > 2 or any(n is None for n in names):
            return None
        return " → ".join(n.name for n in names if n is not None)
    if isinstance(scenario, Scenario):
        return value if value in scenario.at_label else None
    return None


def params_of(action: Mapping[str, Any]) -> dict[str, Any]:
    """An action's fields but its type, as the params of its label."""
    return {k: v for k, v in action.items() if k != "type"}


def held_facts(
    state: Mapping[str, Any], sides: list[str], objectives: Iterable[tuple[str, int]]
) -> list[Label]:
    """Which of the scenario's ``objectives`` (place, points) each side holds, with their
    points, as facts the panel lists (every side, in order). A place held that is no objective
    (an area map keeps who holds every locale) is not counted.

    >>> held_facts({"held": {"a": "x", "b": "x", "c": "y"}}, ["x", "y"], [("a", 2), ("c", 1)])
    [{'key': 'fact.held', 'params': {'side': 'x', 'count': 1, 'worth': 2, 'places': ['a']}}, \
{'key': 'fact.held', 'params': {'side': 'y', 'count': 1, 'worth': 1, 'places': ['c']}}]
    >>> held_facts({"held": {}}, ["x"], [("a", 2)])
    [{'key': 'fact.held_none', 'params': {'side': 'x'}}]
    """
    held = state.get("held") or {}
    objectives = list(objectives)
    facts: list[Label] = []
    for side in sides:
        mine = [(place, points) for place, points in objectives if held.get(place) == side]
        if not mine:
            facts.append({"key": "fact.held_none", "params": {"side": side}})
            continue
        params = {
            "side": side,
            "count": len(mine),
            "worth": sum(points for _, points in mine),
            "places": [place for place, _ in mine],
        }
        facts.append({"key": "fact.held", "params": params})
    return facts


def words_of(rules: Ruleset[Any, Any]) -> dict[str, str]:
    """How the screen words every message parameter of ``rules``: the common kinds and the
    system's own (which win)."""
    return {**COMMON_WORDS, **rules.words}
