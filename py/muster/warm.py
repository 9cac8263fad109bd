"""Warm the core before a memory snapshot is taken of it: the first calls run once, in a session
of their own, so the tables are read and the code paths taken before the snapshot keeps them.

The worker boots from that snapshot (``static/pyboot.js``); warmed, the first ``load_scenario``
of a visit takes a fraction of its cold time. Nothing of the warming session survives it: the
page's session (``muster.api``) is untouched, and the collector runs before the snapshot.

>>> from muster.warm import warm
>>> sorted(warm(actions=2))
['demo-fontanella', 'demo-hohenbrueck', 'demo-valmont']
"""

from __future__ import annotations

import gc

from .api import Session
from .scenario import builtin_scenarios

# Actions played into each demo: its first moves, a fight's preview and its dice. More would
# warm little more, and leave more freed memory behind in the snapshot, which ships.
ACTIONS = 10


def warm(actions: int = ACTIONS) -> list[str]:
    """Play the first ``actions`` legal actions of each shipped scenario in a throwaway session
    (the first listed each time, a chance point's first outcome included), with its views, the
    previews of its fights, its rules reference and a save; returns the scenarios' ids."""
    played = []
    for entry in builtin_scenarios():
        session = Session()
        session.call("load_scenario", {"id": entry["id"]})
        session.call("rules_reference", {})
        view = session.call("new_game", {"seed": 1})["result"]
        for _ in range(actions):
            legal = view.get("legal") or []
            if view.get("result") or not legal:
                break
            for action in legal[:3]:
                session.call("preview", {"action": action})
            answer = session.call("act", {"action": legal[0]})
            if not answer["ok"]:
                break
            view = session.call("game_view", {})["result"]
        session.call("save", {})
        played.append(entry["id"])
    # load_scenario froze the warming maps out of the collector's sweeps: free them for good.
    gc.unfreeze()
    gc.collect()
    return played
