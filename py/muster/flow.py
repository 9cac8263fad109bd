"""The way on through a game, for every system alike: which item of the choices is the natural
next step (the screen's primary button), and what an ending would leave unused.

- An item a system marks ``"give_up": true`` abandons what is under way (an attack given up):
  it is never the primary item.
- ``mark_primary`` marks one item ``"primary": true``: the one the system marked, else the
  first item of the choice that ends the step, the phase or the turn that is no give-up; none
  when every way on is a give-up and the system named no other.
- An ending item may carry ``"unused": {key, params}``: what ending now leaves unused
  (commands, units that have not moved); the screen asks before taking it.
"""

from __future__ import annotations

from typing import Any

Choice = dict[str, Any]
Item = dict[str, Any]


def mark_primary(choices: list[Choice]) -> list[Choice]:
    """``choices`` with one item marked primary (at most one; never a give-up), in place.

    >>> end = {"end": True, "items": [{"key": "a", "give_up": True}, {"key": "b"}]}
    >>> [i.get("primary", False) for i in mark_primary([end])[0]["items"]]
    [False, True]
    >>> mark_primary([{"end": True, "items": [{"key": "a", "give_up": True}]}])[0]["items"]
    [{'key': 'a', 'give_up': True}]
    """
    items = [it for ch in choices for it in ch["items"]]
    chosen = [it for it in items if it.get("primary") and not it.get("give_up")]
    for it in items:
        it.pop("primary", None)
    if not chosen:
        chosen = [
            it for ch in choices if ch.get("end") for it in ch["items"] if not it.get("give_up")
        ]
    if chosen:
        chosen[0]["primary"] = True
    return choices


def unused_label(key: str, count: int) -> dict[str, Any] | None:
    """What an ending leaves unused, as a label (none when nothing is): ``key`` worded with
    ``count`` (commands left, units that have not moved)."""
    return {"key": key, "params": {"count": count}} if count > 0 else None
