"""Every field of every file the core reads, missing or of the wrong kind, is refused by name.

The files: a scenario (each demo, with overrides of every table its system ships), a save,
an owner's combat results table, and an editor's draft (``scenario_check``). Each is walked
field by field, recursively: every key of an object and the first and last item of a list
(the others are alike; so is an object of many entries of one kind, hexes by number). Each
field is deleted, then replaced by a value of each kind (null, a list, an object, a number, a
text, true, a number beyond any limit, a deep nesting), and the file given to the API as a
player's file is.

A refusal has a key with words in every language and names its place (a path into the file, a
part of a save); the game in progress is as it was. A file that is taken (a field that may be
left out, a text where any text will do) then plays: a hex, a unit's reach, a new game and its
view, never an internal error.
"""

from __future__ import annotations

import gc
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_bad_input import OVERRIDES, RULES_CRT, nest
from test_trust import fork, position, snapshot

from muster.api import Session
from muster.scenario import SCENARIO_DIR

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "pl", "fr", "ja")
WORDS = {
    lang: json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    for lang in LANGS
}
DEMOS = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in SCENARIO_DIR.glob("*.json")}
MISSING = object()  # the field deleted
# A value of each kind, instead of the field's own.
WRONG: list[Any] = [None, [], {"x": 1}, 1.5, "x", True, 10**30, nest(80)]
# An object with more keys than this, all of one kind, is a table of alike entries.
ALIKE = 8
# The parameters a refusal names its place by.
PLACE_PARAMS = ("place", "part", "name", "index")
# Refusals of a whole file: a save that replays, field by field, to another position than its
# own (a field changed that the save's fingerprint holds, such as an objective's points).
WHOLE = {"error.bad_save_hash"}
NAME = re.compile(r"\{(\w+)\}")


def fields(tree: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every field in ``tree``, below its root: each key of an object (of an
    object of many alike entries, its first and last), the first and last item of a list."""
    if isinstance(tree, dict):
        keys = list(tree)
        if len(keys) > ALIKE and len({type(v) for v in tree.values()}) == 1:
            keys = [keys[0], keys[-1]]  # a table of alike entries (hexes by number, columns)
        for key in keys:
            yield (*prefix, key)
            yield from fields(tree[key], (*prefix, key))
    elif isinstance(tree, list) and tree:
        for i in sorted({0, len(tree) - 1}):
            yield (*prefix, i)
            yield from fields(tree[i], (*prefix, i))


def changed(tree: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A copy of ``tree`` with the field at ``path`` replaced by ``value`` (or deleted)."""
    copy = json.loads(json.dumps(tree))
    here = copy
    for key in path[:-1]:
        here = here[key]
    if value is MISSING:
        del here[path[-1]]
    else:
        here[path[-1]] = value
    return copy


def variants(tree: Any) -> Iterator[tuple[str, Any]]:
    """Every field of ``tree`` deleted, then of each wrong kind: (what was done, the file)."""
    for path in fields(tree):
        shown = ".".join(str(p) for p in path)
        yield f"{shown} deleted", changed(tree, path, MISSING)
        for value in WRONG:
            yield f"{shown} = {json.dumps(value)[:20]}", changed(tree, path, value)


def names(text: Any) -> set[str]:
    forms = text.values() if isinstance(text, dict) else [text]
    return {n for form in forms for n in NAME.findall(form)}


def worded(label: dict[str, Any], where: str) -> None:
    """The key has words in every language, each with the parameters it is given."""
    key, params = label["key"], label.get("params", {})
    for lang in LANGS:
        assert key in WORDS[lang], (where, lang, key)
        assert names(WORDS[lang][key]) <= set(params), (where, lang, key, params)
    for value in params.values():
        if isinstance(value, dict) and "key" in value:
            worded(value, where)


def refused_by_place(answer: dict[str, Any], where: str) -> None:
    """A clean refusal: a real key worded in every language, naming its place."""
    assert answer["ok"] is False, where
    error = answer["error"]
    assert error["key"] != "error.internal", (where, error)
    worded(error, where)
    params = error["params"]
    named = any(params.get(p) not in (None, "") for p in PLACE_PARAMS)
    assert named or error["key"] in WHOLE, (where, error)
    if error["key"] in ("error.scenario", "error.crt_refused"):
        assert isinstance(params["problem"], dict), (where, error)
        assert params["problem"]["key"].startswith("problem."), (where, error)


def plays(session: Session, where: str, data: dict[str, Any]) -> None:
    """A taken scenario plays: a hex and a unit's reach before play (a hex map), a new game,
    its view and, for a changed override, the rules reference (the tables with the scenario's
    overrides), or a refusal (never internal)."""
    calls: list[tuple[str, dict[str, Any]]] = []
    unit = (data.get("units") or [{}])[0]
    if "hex" in unit:
        calls += [("hex_info", {"hex": unit["hex"]}), ("reachable", {"unit": unit["id"]})]
        calls += [("los", {"from": unit["hex"], "to": unit["hex"]})]
    calls += [("new_game", {"seed": 3}), ("game_view", {})]
    if where.startswith("overrides"):
        calls.append(("rules_reference", {}))
    for method, params in calls:
        answer = session.call(method, params)
        if not answer["ok"]:
            assert answer["error"]["key"] != "error.internal", (where, method, answer)
            worded(answer["error"], where)
            return


def with_tables(demo: str) -> dict[str, Any]:
    """The demo with overrides of every table its system ships (an owner's table, read by the
    same check as a scenario's own, is walked below)."""
    data = json.loads(json.dumps(DEMOS[demo]))
    data["overrides"] = json.loads(json.dumps(OVERRIDES[data["system"]]))
    return data


@pytest.mark.parametrize("demo", sorted(DEMOS))
def test_every_field_of_a_scenario_missing_or_mistyped_is_refused_by_place(demo):
    base = position(demo, 4)
    data = with_tables(demo)
    assert Session().call("load_scenario", {"scenario": data})["ok"]
    session = fork(base)
    taken = 0
    for where, bad in variants(data):
        before = snapshot(session)
        answer = session.call("load_scenario", {"scenario": bad})
        if answer["ok"]:  # a field that may be left out, or any text will do
            taken += 1
            plays(session, where, bad)
            session = fork(base)
            gc.unfreeze()  # the loader froze the map of a game dropped now: let it go
            continue
        refused_by_place(answer, where)
        assert snapshot(session) == before, where
    assert taken > 0  # optional fields exist, and the walk reached them


def test_every_field_of_a_save_missing_or_mistyped_is_refused_by_place():
    base = position("demo-valmont", 6)
    session = fork(base)
    save = position("demo-hohenbrueck", 3).game.save()
    assert Session().call("load_save", {"save": save})["ok"]
    refused = 0
    for where, bad in variants(save):
        before = snapshot(session)
        answer = session.call("load_save", {"save": bad})
        if answer["ok"]:
            session = fork(base)
            continue
        refused += 1
        refused_by_place(answer, where)
        assert snapshot(session) == before, where
    assert refused > 100


def test_a_save_without_its_scenario_is_refused_by_name():
    session = position("demo-valmont", 6)
    before = snapshot(session)
    save = position("demo-hohenbrueck", 3).game.save()
    del save["scenario"]
    answer = session.call("load_save", {"save": save})
    assert answer["error"]["key"] == "error.bad_save", answer
    assert answer["error"]["params"] == {"part": "scenario"}
    assert snapshot(session) == before


def test_every_field_of_an_owner_crt_missing_or_mistyped_is_refused_by_place():
    base = position("demo-hohenbrueck", 4)
    session = fork(base)
    refused = taken = 0
    for where, bad in variants(RULES_CRT):
        before = snapshot(session)
        checked = session.call("check_crt", {"crt": bad})
        assert snapshot(session) == before, where
        answer = session.call("new_game", {"seed": 3, "options": {"crt": bad}})
        assert checked["ok"] == answer["ok"], (where, checked, answer)  # the same check
        if answer["ok"]:  # a field that may be left out (a name, a why)
            taken += 1
            view = session.call("game_view", {})
            assert view["ok"], (where, view)
            session = fork(base)
            continue
        refused += 1
        refused_by_place(checked, f"check_crt {where}")
        refused_by_place(answer, f"new_game {where}")
        assert snapshot(session) == before, where
    assert refused > 100 and taken > 0


def a_draft(session: Session, system: str) -> dict[str, Any]:
    """A new draft of ``system`` as the editor makes it, with a hex, a road, a name and a unit
    of each side (a locale's units on an area map)."""
    draft: dict[str, Any] = session.call("scenario_template", {"system": system})["result"]
    demo = {"hex-hexside": "demo-hohenbrueck", "hex-facing": "demo-valmont"}.get(system)
    units = json.loads(json.dumps(DEMOS[demo or "demo-fontanella"]["units"]))
    sides = [s["id"] for s in draft["sides"]]
    picked = [units[0], next(u for u in units if u["side"] != units[0]["side"])]
    for unit, side, where in zip(picked, sides, ("0101", "0305"), strict=True):
        unit["side"] = side
        unit.pop("formation", None)
        if demo:
            unit["hex"] = where
        else:
            unit["locale"] = draft["map"]["locales"][0 if side == sides[0] else -1]["id"]
            unit.pop("approach", None)
    draft["units"] = picked
    if demo:
        draft["map"]["hexes"] = {"0203": {"terrain": ["woods"], "level": 1}}
        draft["map"]["roads"] = [{"kind": "road", "hexes": ["0101", "0102"]}]
        draft["map"]["labels"] = [{"hex": "0101", "text": "Mill"}]
    return draft


@pytest.mark.parametrize("system", ["hex-hexside", "hex-facing", "area-locale"])
def test_every_field_of_an_editor_draft_missing_or_mistyped_is_refused_by_place(system):
    session = position("demo-valmont", 2)
    before = snapshot(session)
    draft = a_draft(session, system)
    assert session.call("scenario_check", {"scenario": draft})["result"]["ok"], draft
    for where, bad in variants(draft):
        answer = session.call("scenario_check", {"scenario": bad})
        if not answer["ok"]:  # beyond plain JSON: the call itself is refused
            refused_by_place(answer, where)
            continue
        result = answer["result"]  # else the problem is in the check's answer
        if not result["ok"]:
            problem = result["problem"]
            refused_by_place({"ok": False, "error": problem}, where)
            assert problem["place"] is not None, where
    assert snapshot(session) == before
