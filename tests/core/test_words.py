"""Every message the core sends has words, and every parameter of it a kind the screen words
(docs/play-view.md, "Parameter kinds"): random games of each demo are played through the API
and every key and parameter the core emits is checked against static/i18n/<lang>.json and
the scenario's ``words`` table.

What is looked at: the log, prompts (and why a choice is forced), the labels of choices and of
their items, what each face of a chance point does, previews (modifiers with their rules,
outcomes), the system's extras in the view, and the errors of refused calls.

A failure lists each problem once, by system, with the first place it was seen.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from muster.api import Session
from muster.texts import english

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "pl", "fr", "ja")
WORDS = {
    lang: json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    for lang in LANGS
}
DEMOS = sorted(p.stem for p in (ROOT / "py" / "muster" / "scenarios").glob("demo-*.json"))
SEEDS = (11, 12)
FIGHT_BIAS = 0.6  # how often a fight is preferred when one is legal (to reach combat's corners)
PREVIEWS = 120  # previews asked per game at most
# Parameters static/i18n.js words by name whatever the table (its WORD_PARAMS).
APP_WORDS = {"part": "word:save_part.", "what": "word:what."}
RULE_NUMBER = re.compile(r"^\d+(\.\d+)*$")
# Fields of the view that are not the system's extras (the state is the rules' own data).
VIEW_FIELDS = {
    "state",
    "viewer",
    "decider",
    "private",
    "legal",
    "log",
    "log_at",
    "log_size",
    "can_undo",
    "can_redo",
    "result",
    "summary",
    "moves",
    "hash",
}


def rule_slug(text: str) -> str:
    """The key of a rule reference in words, as static/i18n.js makes it: rule_ref.<slug>."""
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def is_label(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("key"), str)


def labels_in(value: Any) -> Iterator[dict[str, Any]]:
    """Every label ({key, params}) in ``value``, at any depth (an action is data, not words)."""
    if isinstance(value, dict):
        if is_label(value):
            yield value
        for name, inner in value.items():
            if name != "action":
                yield from labels_in(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from labels_in(inner)


class Check:
    """The problems found in one system's messages, each with the first place it was seen."""

    def __init__(self, session: Session, table: dict[str, str]) -> None:
        data = session.scenario.data
        self.kinds = {**APP_WORDS, **table}
        # The scenario's names, each a text or texts by language (the core names in English).
        named = data.get("sides", []) + data.get("units", []) + data.get("formations", [])
        named += data["map"].get("locales", [])
        self.names = {english(x["name"]) for x in named if "name" in x}
        # group ("errors" for refused calls, else the system's) -> problem -> first seen where
        self.problems: dict[str, dict[str, str]] = {}
        self.group = "system"

    def problem(self, what: str, where: str, example: Any = None) -> None:
        """One problem, kept once per group with the first place (and value) it was seen."""
        seen = where if example is None else f"{_short(example)} at {where}"
        self.problems.setdefault(self.group, {}).setdefault(what, seen)

    def key(self, key: str, where: str) -> None:
        missing = [lang for lang in LANGS if key not in WORDS[lang]]
        if missing:
            self.problem(f"key {key}: no words in {', '.join(missing)}", where)

    def label(self, label: dict[str, Any], where: str) -> None:
        key = label["key"]
        self.key(key, where)
        params = label.get("params", {})
        if not isinstance(params, dict):
            self.problem(f"key {key}: params not an object", where)
            return
        for name, value in params.items():
            self.param(key, name, value, where)
        if "rule" in label and "rule" not in params:  # a modifier's rule, beside its label
            self.rule(key, label["rule"], where)

    def param(self, key: str, name: str, value: Any, where: str) -> None:
        kind = self.kinds.get(name)
        if is_label(value):  # a label is worded in turn, whatever its name
            self.label(value, where)
            return
        if kind is None:
            number = isinstance(value, int | float) and not isinstance(value, bool)
            if not number and not (isinstance(value, str) and value in self.names):
                self.problem(f"key {key}: parameter {name} has no kind", where, value)
            return
        if kind.startswith("word:"):
            self.word(key, name, kind[5:], value, where)
        elif kind.startswith("words:"):
            for one in value if isinstance(value, list) else [value]:
                self.word(key, name, kind[6:], one, where)
        elif kind == "label":
            self.problem(f"key {key}: parameter {name} is not a label", where, value)
        elif kind == "labels":
            for one in value if isinstance(value, list) else [value]:
                if is_label(one):
                    self.label(one, where)
                else:
                    self.problem(f"key {key}: parameter {name} holds a non-label", where)
        elif kind == "rule":
            self.rule(key, value, where)

    def word(self, key: str, name: str, prefix: str, value: Any, where: str) -> None:
        if value is None:
            return
        word = f"{prefix}{value}"
        missing = [lang for lang in LANGS if word not in WORDS[lang]]
        if missing:
            self.problem(
                f"key {key}: parameter {name} = {_short(value)}: no words {word}"
                f" in {', '.join(missing)}",
                where,
            )

    def rule(self, key: str, value: Any, where: str) -> None:
        ref = str(value)
        if RULE_NUMBER.match(ref) or ref == "default":
            return
        slug = "rule_ref." + rule_slug(ref)
        missing = [lang for lang in LANGS if slug not in WORDS[lang]]
        if missing:
            self.problem(
                f"key {key}: rule {ref!r} is not a number and {slug} has no words"
                f" in {', '.join(missing)}",
                where,
            )

    def view(self, view: dict[str, Any], where: str) -> None:
        for name, value in view.items():
            if name in VIEW_FIELDS:
                continue
            for label in labels_in(value):
                self.label(label, f"{where}, view.{name}")

    def preview(self, answer: dict[str, Any], where: str) -> None:
        for label in labels_in(answer):
            self.label(label, where)
        for outcome in answer.get("outcomes", []):
            for effects in (outcome.get("outcome") or {}).values():
                for effect in effects:
                    if isinstance(effect, str):  # an effect named by its word: effect.<id>
                        self.word("preview", "outcome", "effect.", effect, where)

    def error(self, answer: dict[str, Any], where: str) -> None:
        if answer["ok"]:
            self.problem("a call that should be refused was taken", where)
            return
        error = answer["error"]
        if error["key"] == "error.internal":
            self.problem(f"internal error: {error['message']}", where)
        self.group = "errors"  # the refusals of the API and the game, shared by every system
        try:
            self.label(error, where)
        finally:
            self.group = "system"


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:40] + "…"


def play(demo: str, seed: int, problems: dict[str, dict[str, str]]) -> None:
    """One random game of ``demo`` through the API, every message checked."""
    session = Session()
    loaded = session.call("load_scenario", {"id": demo})
    assert loaded["ok"], loaded
    system = loaded["result"]["system"]
    check = Check(session, loaded["result"]["words"])
    # Errors before any game.
    check.error(session.call("game_view", {}), f"{demo}: game_view before a game")
    check.error(session.call("undo", {}), f"{demo}: undo before a game")
    answer = session.call("new_game", {"seed": seed})
    assert answer["ok"], answer
    view = answer["result"]
    rng = random.Random(seed)
    previews = 0
    sides = [s["id"] for s in session.scenario.data["sides"]]
    check.error(session.call("undo", {}), f"{demo}: undo at the start")
    check.error(session.call("redo", {}), f"{demo}: redo with nothing taken back")
    while not view["result"]:
        moves = len(session.game.actions)
        where = f"{demo} seed {seed} after {moves} actions"
        check.view(view, where)
        fights = []
        for choice in view["choices"]:
            for item in choice["items"]:
                if item["preview"]:
                    fights.append(item["action"])
        rng.shuffle(fights)
        for action in fights[:2]:
            if previews >= PREVIEWS:
                break
            previews += 1
            answer = session.call("preview", {"action": action})
            if answer["ok"]:
                check.preview(answer["result"], f"{where}, preview of {action['type']}")
            else:
                check.error(answer, f"{where}, preview of {action['type']}")
        if moves % 97 == 5:  # now and then an action that is not allowed, and a bad one
            check.error(
                session.call("act", {"action": {"type": "move", "unit": "nobody"}}),
                f"{where}: an illegal action",
            )
            check.error(session.call("act", {"action": [1]}), f"{where}: not an action")
            check.error(
                session.call("preview", {"action": {"type": "roll"}}), f"{where}: bad preview"
            )
            check.error(session.call("look_back", {"at": moves + 1}), f"{where}: look_back too far")
            look = session.call("look_back", {"at": moves // 2, "viewer": sides[moves % 2]})
            if session.game.rules.hidden_information:
                check.error(look, f"{where}: no look_back with hidden blocks")
            else:
                assert look["ok"], look
                check.view(look["result"], f"{where}, look_back")
        legal = session.game.legal_actions()
        fights = [a for a in legal if a["type"] in session.game.rules.previewable]
        action = rng.choice(fights) if fights and rng.random() < FIGHT_BIAS else rng.choice(legal)
        answer = session.call("act", {"action": action, "log": 0})
        if not answer["ok"]:  # a bug of the system: said, and this game ends here
            check.problem(f"act refused a legal action: {answer['error']['message']}", where)
            break
        view = answer["result"]
    where = f"{demo} seed {seed} at the end"
    check.view(view, where)
    for index, line in enumerate(session.game.log):
        check.label(line, f"{demo} seed {seed}, log line {index}")
    if view["result"]:
        check.error(session.call("act", {"action": {"type": "roll"}}), f"{where}: act at the end")
    check.error(session.call("look_back", {"at": -1}), f"{where}: look_back -1")
    check.error(session.call("game_view", {"viewer": "nobody"}), f"{where}: unknown viewer")
    check.error(session.call("new_game", {"seed": -1}), f"{where}: bad seed")
    check.error(session.call("new_game", {"options": {"x": 1}}), f"{where}: unknown option")
    check.error(session.call("game_view", {"log": -1}), f"{where}: bad log count")
    save = session.game.save()
    check.error(session.call("load_save", {"save": {**save, "hash": 3}}), f"{where}: bad save")
    actions = [{"type": "move", "unit": "nobody"}]
    check.error(
        session.call("load_save", {"save": {**save, "actions": actions}}),
        f"{where}: a save with an illegal action",
    )
    if session.call("hex_info", {"hex": "0101"})["ok"] or system != "area-locale":
        check.error(session.call("hex_info", {"hex": "9999"}), f"{where}: unknown hex")
    else:
        check.error(session.call("hex_info", {"hex": "0101"}), f"{where}: no hexes")
    check.error(session.call("nothing", {}), f"{where}: unknown method")
    check.error(session.call("load_scenario", {"id": "nowhere"}), f"{where}: unknown scenario")
    for group, found in check.problems.items():
        into = problems.setdefault(system if group == "system" else group, {})
        for what, first in found.items():
            into.setdefault(what, first)


def test_every_message_of_random_games_has_words_and_kinds():
    problems: dict[str, dict[str, str]] = {}
    for demo in DEMOS:
        for seed in SEEDS:
            play(demo, seed, problems)
    report = [
        f"{system}: {what}  (first: {where})"
        for system, found in sorted(problems.items())
        for what, where in sorted(found.items())
    ]
    assert report == [], "\n" + "\n".join(report)
