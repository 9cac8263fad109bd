"""A save's shape, checked before anything is replayed: its keys, its format, its checkpoint
(the states a kept game resumes from, each with its hash), and the hashes themselves. Every
refusal names the part of the save (``error.bad_save``, ``error.bad_checkpoint``).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from . import limits
from .errors import RulesError
from .shapes import State
from .systems import ids

SAVE_FORMAT = "muster-save/1"
SAVE_KEYS = ("format", "system", "scenario", "seed", "options", "actions", "hash", "checkpoint")
CHECKPOINT_KEYS = ("at", "states", "log", "log_from", "log_marks")
MAX_CHECKPOINT_STATES = 4
ECHO_CHARS = 200  # how much of a refused input an error message repeats


def echo(value: Any) -> str:
    """A refused input as an error message repeats it: JSON text, cut short if long.

    >>> echo({"type": "move"}), len(echo("x" * 300))
    ('{"type":"move"}', 201)
    """
    text = value if isinstance(value, str) else canonical(value)
    return text if len(text) <= ECHO_CHARS else text[:ECHO_CHARS] + "…"


def canonical(action: Any) -> str:
    """An action as canonical JSON, for comparing with the legal ones."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def state_hash(state: State) -> str:
    """A short fingerprint of a state: equal states, equal hashes."""
    return fingerprint(state)


def fingerprint(value: Any) -> str:
    """A short fingerprint of plain JSON data (a state, a log): equal data, equal prints."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def check_save(data: Any, whole: bool = True) -> None:
    """Check a save's shape and limits before anything is replayed. Not ``whole`` (a kept game
    resumed from its checkpoint): its actions are left to the replay that checks it after the
    resume, and only the checkpoint is looked at for plain JSON, so what a resume checks does
    not grow with the game."""
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise bad_save("format")
    if whole:
        limits.check_plain(data, "save")
        limits.check_size(data, "save", limits.MAX_SAVE_CHARS)
    else:
        limits.check_plain(data.get("checkpoint"), "save.checkpoint")
    for key in data:
        if key not in SAVE_KEYS:
            raise RulesError(
                "error.bad_save_key", "not a save file (unknown entry {name})", name=echo(key)
            )
    if data.get("system") not in ids():
        raise bad_save("system")
    if "scenario" not in data:  # its kind and fields are the scenario loader's to check
        raise bad_save("scenario")
    seed = data.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= limits.MAX_INT:
        raise bad_save("seed")
    for key, kind in (("actions", list), ("options", dict), ("hash", str)):
        if not isinstance(data.get(key), kind):
            raise bad_save(key)
    actions = data["actions"]
    limits.check_count(actions, "save.actions", "actions", limits.MAX_SAVE_ACTIONS)
    for index, action in enumerate(actions if whole else ()):
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise RulesError(
                "error.bad_save_entry",
                "not a save file (action {index} is not an action)",
                index=index + 1,
            )


def check_checkpoint(data: dict[str, Any], held: int = 0, held_marks: int = 0) -> dict[str, Any]:
    """A save's checkpoint, once it fits the save: its states after 1 to all of its actions in
    order, the newest after all of them, each with its own hash (the newest's the save's) and
    the save's seed, and a log mark for each action. Anything else: ``error.bad_checkpoint``,
    and the save is replayed instead.

    With ``held`` (the head of a save, ``Game.resume``): its actions and marks are the save's
    after the first ``held`` and ``held_marks``; its first state is after ``held`` actions and
    its log holds every line its actions logged."""
    point = data.get("checkpoint")
    at = held + len(data["actions"])
    if not isinstance(point, dict) or sorted(point) != sorted(CHECKPOINT_KEYS):
        raise bad_checkpoint()
    states, log, marks = point["states"], point["log"], point["log_marks"]
    start = point["log_from"]
    ok = (
        whole(point["at"])
        and point["at"] == at
        and isinstance(states, list)
        and (0 < len(states) <= MAX_CHECKPOINT_STATES if at else not states)
        and isinstance(log, list)
        and all(isinstance(e, dict) and isinstance(e.get("key"), str) for e in log)
        and whole(start)
        and start <= limits.MAX_LOG  # lines not kept, each rebuilt by the check
        and isinstance(marks, list)
        and len(marks) + held_marks == at
        and all(whole(m) and m <= start + len(log) for m in marks)
        and all(a <= b for a, b in zip(marks, marks[1:], strict=False))
    )
    if ok and held:  # a head: see above
        ok = (
            whole(held)
            and whole(held_marks)
            and held_marks <= held < at
            and isinstance(states[0], dict)
            and states[0].get("at") == held
            and (not marks or marks[0] >= start)
        )
    last = 0
    for kept in states if ok else ():
        ok = (
            isinstance(kept, dict)
            and sorted(kept) == ["at", "hash", "state"]
            and whole(kept["at"])
            and last < kept["at"] <= at
            and isinstance(kept["state"], dict)
            and isinstance(kept["state"].get("rng"), dict)
            and kept["state"]["rng"].get("seed") == data["seed"]
            and kept["hash"] == fingerprint(kept["state"])
        )
        if not ok:
            break
        last = kept["at"]
    if not ok or last != at or (states and states[-1]["hash"] != data["hash"]):
        raise bad_checkpoint()
    return point


def still_held() -> RulesError:
    """What reaches a resumed game's oldest actions before they are here (``Game.held``)."""
    return RulesError("error.kept_arriving", "the game's older actions are still being read")


def bad_checkpoint() -> RulesError:
    """A kept game's checkpoint that does not fit its save: never shown, the save is replayed."""
    return RulesError("error.bad_checkpoint", "the checkpoint does not fit its save")


def whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def bad_save(part: str) -> RulesError:
    """A save refused for one of its parts (format, system, scenario, seed, actions, options,
    hash, or a roll the seed does not give): the UI words the part."""
    return RulesError("error.bad_save", "not a save file ({part})", part=part)
