"""The documented limits of every input (``docs/scenario-format.md``, "Limits"), and the checks
that hold any JSON value to them before the expensive work starts.

Printed games need far less: the largest hex maps have a few thousand hexes, an area map a few
dozen locales, a whole game a few thousand actions. Each limit leaves a wide margin above that
and stays small enough that the largest allowed input loads in well under two seconds.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from .errors import InvalidActionError
from .problems import english

MAX_DEPTH = 64  # nesting of lists and objects in any value (a scenario needs about 8)
MAX_INT = 2**53 - 1  # whole numbers a browser's JSON keeps exactly
MAX_TEXT = 100_000  # characters of one text value
MAX_REQUEST_CHARS = 16 * 2**20  # one request over the bridge (a save with its scenario)
MAX_SCENARIO_CHARS = 4 * 2**20  # a scenario file as compact JSON
MAX_SAVE_CHARS = 8 * 2**20  # a save file as compact JSON (its scenario included)
MAX_HEXES = 20_000  # hexes of one map (columns x rows)
MAX_HEXSIDE_ENTRIES = 60_000  # hexsides, roads and labels listed on one map
MAX_LOCALES = 1_000  # locales of one area map
MAX_APPROACHES = 10_000  # approaches of one area map
MAX_POLYGON_POINTS = 1_000  # corners of one locale
MAX_SIDES = 8
MAX_UNITS = 2_000  # units or blocks of one scenario
MAX_FORMATIONS = 1_000
MAX_OBJECTIVES = 1_000  # objective hexes of one hex map
MAX_CRT_CHARS = 2**20  # an owner's combat results table as compact JSON (the stand-in: 2 KB)
MAX_CRT_COLUMNS = 100  # odds columns, and result codes, of a combat results table (printed: ~12)
MAX_SAVE_ACTIONS = 20_000  # actions in one save
MAX_LOG = 100_000  # log lines one view may ask for


def too_large(place: str, what: str, count: int, limit: int) -> InvalidActionError:
    """The refusal of an input over a limit: where, what was counted, how many, the limit."""
    return InvalidActionError(
        "error.too_large",
        "{place}: {count} {what}, over the limit of {limit}",
        place=place,
        what=what,
        count=count,
        limit=limit,
    )


def check_count(items: Any, place: str, what: str, limit: int) -> None:
    """Refuse a list or object with more than ``limit`` entries.

    >>> check_count([1, 2, 3], "units", "units", 2)
    Traceback (most recent call last):
    ...
    muster.errors.InvalidActionError: units: 3 units, over the limit of 2
    """
    if isinstance(items, list | dict) and len(items) > limit:
        raise too_large(place, what, len(items), limit)


def check_plain(value: Any, place: str, depth: int = MAX_DEPTH) -> None:
    """Refuse anything in ``value`` that is not plain JSON within the limits: nesting deeper
    than ``MAX_DEPTH``, a number that is not finite or beyond ``MAX_INT``, a text longer than
    ``MAX_TEXT``, a key that is not text, or a value of no JSON type. Iterative, so no depth
    can break it.

    >>> check_plain({"a": [1, 2.5, "x", None, True]}, "params")
    >>> check_plain({"seed": float("inf")}, "params")
    Traceback (most recent call last):
    ...
    muster.errors.InvalidActionError: params.seed: not a finite number within ±9007199254740991
    >>> check_plain([[[[1]]]], "save", depth=3)
    Traceback (most recent call last):
    ...
    muster.errors.InvalidActionError: save[0][0][0]: nested more than 3 levels deep
    """
    if _plain(value, depth):
        return
    stack: list[tuple[Any, str, int]] = [(value, place, 0)]
    while stack:
        item, where, level = stack.pop()
        if isinstance(item, dict | list):
            if level >= depth:
                raise _too_deep(where, depth)
            if isinstance(item, dict):
                for key, sub in item.items():
                    if not isinstance(key, str):
                        raise _not_json(where, "problem.json_key")
                    stack.append((sub, f"{where}.{_short(key)}", level + 1))
            else:
                stack.extend((sub, f"{where}[{i}]", level + 1) for i, sub in enumerate(item))
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if not -MAX_INT <= item <= MAX_INT:
                raise _bad_number(where)
        elif isinstance(item, float):
            if not math.isfinite(item) or abs(item) > MAX_INT:
                raise _bad_number(where)
        elif isinstance(item, str):
            if len(item) > MAX_TEXT:
                raise too_large(where, "characters", len(item), MAX_TEXT)
        else:
            raise _not_json(where, "problem.json_value")


def _plain(value: Any, depth: int) -> bool:
    """True if ``value`` passes ``check_plain``, looked at fast: exact JSON types, no places.
    False sends ``check_plain`` the slow way, which names the place (a subclass of dict or
    str passes there too). Three times faster on a large scenario."""
    lo, hi, text = -MAX_INT, MAX_INT, MAX_TEXT
    stack: list[tuple[Any, int]] = [((value,), 0)]  # items, and the level they stand at
    pop, push = stack.pop, stack.append
    while stack:
        items, level = pop()
        for item in items:
            kind = type(item)
            if kind is str:
                if len(item) > text:
                    return False
            elif kind is dict:
                if level >= depth or {*map(type, item)} - {str}:
                    return False
                push((item.values(), level + 1))
            elif kind is list:
                if level >= depth:
                    return False
                push((item, level + 1))
            elif kind is int or kind is float:
                if not lo <= item <= hi:  # also refuses NaN and the infinities
                    return False
            elif item is not None and kind is not bool:
                return False
    return True


def json_chars(value: Any) -> int:
    """The length of ``value`` as compact JSON text (check it with ``check_plain`` first)."""
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


def check_size(value: Any, place: str, limit: int) -> None:
    """Refuse a value whose compact JSON is longer than ``limit`` characters."""
    size = json_chars(value)
    if size > limit:
        raise too_large(place, "characters", size, limit)


def loads(text: Any, place: str = "request") -> Any:
    """Parse JSON text within the limits: its length, its nesting, finite numbers only.

    >>> loads('{"a": [1, 2]}')
    {'a': [1, 2]}
    >>> loads('[-Infinity]')
    Traceback (most recent call last):
    ...
    muster.errors.InvalidActionError: request: not valid JSON (it holds a value JSON does not have)
    """
    if not isinstance(text, str):
        raise _bad_json(place, "problem.text")
    if len(text) > MAX_REQUEST_CHARS:
        raise too_large(place, "characters", len(text), MAX_REQUEST_CHARS)
    _check_nesting(text, place)
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise _too_deep(place, MAX_DEPTH) from None
    except json.JSONDecodeError as exc:
        raise _bad_json(place, "problem.json_at", line=exc.lineno, column=exc.colno) from None
    except ValueError:  # a constant (NaN, Infinity), a number of too many digits
        raise _bad_json(place, "problem.json_value") from None
    check_plain(value, place)
    return value


_TEXTS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_PLAIN_TEXTS = re.compile(r'"[^"]*"')  # the same when the text has no escapes (faster)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_INNERMOST = re.compile(r"\[\]|\{\}")


def _check_nesting(text: str, place: str) -> None:
    """Refuse JSON text nested deeper than ``MAX_DEPTH`` before the parser sees it: deep
    nesting can exhaust the browser's stack inside the parser, which no Python code catches.

    >>> _check_nesting('{"a": [[1], "[[[["]}', "request")
    >>> _check_nesting("[" * 70 + "]" * 70, "request")
    Traceback (most recent call last):
    ...
    muster.errors.InvalidActionError: request: nested more than 64 levels deep
    """
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    texts = _TEXTS if "\\" in text else _PLAIN_TEXTS
    brackets = _NOT_BRACKETS.sub("", texts.sub("", text))
    for _ in range(MAX_DEPTH):
        if not brackets:
            return
        peeled = _INNERMOST.sub("", brackets)
        if peeled == brackets:  # brackets that never close: not JSON, and maybe deep
            raise _bad_json(place, "problem.json_brackets")
        brackets = peeled
    if brackets:
        raise _too_deep(place, MAX_DEPTH)


def dumps(value: Any) -> str:
    """JSON text that a browser reads back: compact, no NaN or Infinity."""
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


def _short(key: str) -> str:
    return key if len(key) <= 40 else key[:40] + "…"


def _too_deep(place: str, limit: int) -> InvalidActionError:
    return InvalidActionError(
        "error.too_deep", "{place}: nested more than {limit} levels deep", place=place, limit=limit
    )


def _bad_number(place: str) -> InvalidActionError:
    return InvalidActionError(
        "error.bad_number",
        "{place}: not a finite number within ±{limit}",
        place=place,
        limit=MAX_INT,
    )


def _not_json(place: str, what: str) -> InvalidActionError:
    """``place`` holds what is not JSON: ``what``, a problem key (the screen words it)."""
    text = "{place}: not a JSON value (" + _braces(english(what, {})) + ")"
    return InvalidActionError("error.not_json", text, place=place, what={"key": what, "params": {}})


def _bad_json(place: str, detail: str, **params: Any) -> InvalidActionError:
    """The text at ``place`` is not valid JSON: ``detail``, a problem key with ``params``."""
    text = "{place}: not valid JSON (" + _braces(english(detail, params)) + ")"
    label = {"key": detail, "params": params}
    return InvalidActionError("error.bad_json", text, place=place, detail=label)


def _braces(text: str) -> str:
    """``text`` kept as it is by a later ``format``."""
    return text.replace("{", "{{").replace("}", "}}")
