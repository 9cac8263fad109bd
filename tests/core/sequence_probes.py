"""Probes for ``test_sequence_keys.py``: games that read the rare keys of a ``sequence.json``.

``test_sequence_keys.py`` proves that every setting of each system's ``sequence.json`` (every
leaf that is not a note: ``why``, ``source``, ``system``, ``default``, ``aid``, ``closed``) is
read by the rules. It plays seeded random games of each demo and then calls every function of
this module named ``probe_<system>_<what>``, where ``<system>`` is the system's folder name
(``hex_facing``, ``hex_hexside``, ``area_locale``).

The convention, one function per case, each with a line saying which keys it reaches:

    def probe_area_locale_pursuit_by_winner(record) -> None:
        '''pursuit.by = "winner": the defender's cavalry pursues.'''
        scenario = record(parse_scenario(data))   # before anything reads the settings
        game = Game.start(scenario, game_rules(scenario.system), seed=1)
        for action in (...):
            game.apply(action)

``record(scenario) -> scenario`` installs the recording mapping in the scenario's cache of
``muster.play.settings`` (``scenario.memo[("settings", folder)]``); every setting the rules
look up through it from then on counts as read, whatever the scenario (its overrides are
merged first). Call it on each scenario the probe plays, before the game starts. A probe may
set any setting in the scenario's ``overrides.sequence`` to reach a branch; it should not call
``Ruleset.reference`` (which shows every setting, read or not).

Owners: GOLD writes the header and the helpers; each system owner appends its own probes at
the end, in its own section (``# -- hex_facing --`` and so on).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Record = Callable[[Any], Any]  # record(scenario) -> the same scenario, its settings recorded


# -- hex_facing ----------------------------------------------------------------------------


def _hex_facing_field(seq: dict | None = None, orders: bool = True) -> dict:
    """Two French units (one routed) with their leader next to them, an Austrian brigade
    (with or without orders) two hexes off, one objective, one turn."""

    def unit(uid: str, side: str, kind: str, label: str, facing: int, **more: Any) -> dict:
        return {
            "id": uid,
            "side": side,
            "type": kind,
            "name": uid,
            "hex": label,
            "facing": facing,
            "formation": side,
            "ratings": {"movement": 4, "strength": 4, "cohesion": 6},
            **more,
        }

    return {
        "format": "muster-scenario/1",
        "id": "probe",
        "system": "hex-facing",
        "title": "probe",
        "turns": 1,
        "map": {"orientation": "flat", "stagger": "even", "columns": 8, "rows": 5},
        "sides": [{"id": "fr", "name": "F"}, {"id": "au", "name": "A"}],
        "formations": [
            {"id": "fr", "side": "fr", "name": "F"},
            {"id": "au", "side": "au", "name": "A", "orders": orders},
        ],
        "objectives": [{"hex": "0603", "points": 1}],
        "units": [
            unit("f1", "fr", "infantry", "0203", 2, state={"routed": True}),
            unit("f2", "fr", "infantry", "0303", 2),
            unit("fl", "fr", "leader", "0202", 2),
            unit("a1", "au", "infantry", "0503", 8),
            unit("a2", "au", "cavalry", "0603", 8),
        ],
        # Every step ended by hand (empty_steps off): the probes walk the sequence.
        "overrides": {"sequence": {"empty_steps": {"passed": False}, **(seq or {})}},
    }


def _hex_facing_play(record: Record, data: dict, actions: list[dict]) -> Any:
    from muster.game import Game
    from muster.scenario import parse_scenario
    from muster.systems import game_rules

    scenario = record(parse_scenario(data))
    game = Game.start(scenario, game_rules(scenario.system), 1)
    for action in actions:
        game.apply(action)
    return game


def probe_hex_facing_without_orders(record: Record) -> None:
    """no_orders.movement_factor, no_orders.may_melee: the Austrians, without orders, move
    (at the factor) and reach their combat step (may they melee?)."""
    _hex_facing_play(
        record,
        _hex_facing_field(orders=False),
        [
            {"type": "roll", "value": "au"},
            {"type": "next_step"},  # fire -> move: the allowance times the factor
            {"type": "next_step"},  # move -> combat: no melee without orders (default)
        ],
    )


def probe_hex_facing_rally_and_victory(record: Record) -> None:
    """rally.* (not next to an enemy, the leader in range and its modifier), victory.* (the
    objective points, the routed unit's points): the routed f1 rallies beside its leader,
    then the one turn ends and the game is scored."""
    end_activation = [{"type": "next_step"}] * 3
    _hex_facing_play(
        record,
        _hex_facing_field(),
        [
            {"type": "roll", "value": "fr"},
            *end_activation,
            {"type": "roll", "value": "au"},
            *end_activation,
            {"type": "rally", "unit": "f1"},
            {"type": "roll", "value": 9},  # failed: f1 stays routed, a point for the Austrians
            {"type": "end_rally"},
            {"type": "end_rally"},
        ],
    )


def probe_hex_facing_countercharge_and_pursuit(record: Record) -> None:
    """hex-facing's combat defaults (combat.json, recorded by their dotted names):
    procedures.countercharge.* (who may countercharge, facing it, the charge bonus kept) and
    procedures.pursuit.failed: c1 charges k1, which countercharges; the result (10) has c1
    pursue and test its cohesion."""
    from test_countercharge_hex_facing import CHARGE, COUNTER, duel, retreat_first
    from test_fight_hex_facing import at_step

    g = at_step(record(duel()), "combat")
    g.apply(CHARGE)
    g.apply(COUNTER)
    g.apply({"type": "roll", "value": 8})  # 8 + 2 = 10: defender 1 + Z; c1 pursues
    retreat_first(g)
    g.apply({"type": "roll", "value": 9})  # the pursuer's test, failed


def probe_hex_facing_counterattack(record: Record) -> None:
    """procedures.counterattack.melee: a weak attacker's melee reads below 0, and the
    defender is offered its counterattack."""
    from test_fight_hex_facing import at_step, duel

    sc = record(duel({"strength": 2, "cohesion": 5}, {"strength": 8, "cohesion": 8}))
    g = at_step(sc, "combat")
    g.apply({"type": "melee", "target": "0403", "attackers": ["a1"]})
    g.apply({"type": "roll", "value": 0})  # below 0: counterattack
    while g.state["chance"]:
        g.apply({"type": "roll", "value": 0})
    g.legal_actions()


def probe_hex_facing_breakthrough(record: Record) -> None:
    """procedures.breakthrough.*: a strong attacker's melee reads 10 or more, the defender
    retreats, and the attacker is offered the hex it left."""
    from test_fight_hex_facing import at_step, duel

    sc = record(duel({"strength": 6, "cohesion": 7}, {"strength": 6, "cohesion": 5}))
    g = at_step(sc, "combat")
    melee = {"type": "melee", "target": "0403", "attackers": ["a1"]}
    g.apply(melee)
    g.apply({"type": "roll", "value": 9})  # modified 10 or more: the defender retreats
    while g.state["retreat"] or g.state["chance"]:
        g.apply(g.legal_actions()[0])
    g.legal_actions()


# -- hex_hexside ---------------------------------------------------------------------------


def _hex_hexside_game(
    record: Record, units: list[dict], cells: list[str], sequence: dict | None = None
) -> Any:
    """A game on an 8x6 flat map of hex-hexside, both sides without army_morale (so the
    fallback fractions count), every cell of the combat results table ``cells``, Prussia to
    move; ``units`` as ``"id:type:side:hex:steps:morale"`` strings."""
    import copy

    from muster.game import Game
    from muster.scenario import parse_scenario
    from muster.systems import game_rules
    from muster.systems.hex_hexside.tables import raw_tables

    specs = []
    for text in units:
        uid, kind, side, at, steps, morale = text.split(":")
        ratings = {"strength": 4, "morale": int(morale), "movement": 8}
        if kind == "leader":
            ratings = {"morale_modifier": 1, "movement": 8}
        spec = {"id": uid, "side": side, "type": kind, "name": uid, "hex": at, "ratings": ratings}
        if kind != "leader":
            spec["steps"] = int(steps)
        specs.append(spec)
    crt = copy.deepcopy(raw_tables()["crt"])
    crt.pop("why")
    crt["stand_in"] = False
    for row in crt["rows"]:
        row["cells"] = {k: list(cells) for k in row["cells"]}
    data = {
        "format": "muster-scenario/1",
        "id": "probe",
        "system": "hex-hexside",
        "title": "probe",
        "map": {"orientation": "flat", "stagger": "even", "columns": 8, "rows": 6},
        "sides": [{"id": "prussia", "name": "P"}, {"id": "austria", "name": "A"}],
        "units": specs,
        "overrides": {"sequence": sequence or {}},
    }
    scenario = record(parse_scenario(data))
    game = Game.start(scenario, game_rules("hex-hexside"), 1, {"crt": crt})
    while game.state["phase"] != "combat":
        game.apply({"type": "end_phase"})
    return game


def _hex_hexside_fight(game: Any, target: str, rolls: list[int]) -> None:
    """Attack ``target`` with every unit that may, choose what is asked first, roll ``rolls``."""
    game.apply({"type": "attack", "target": target})
    game.apply({"type": "confirm"})
    while rolls and not game.state.get("result"):
        if game.state.get("chance"):
            game.apply({"type": "roll", "value": rolls.pop(0)})
        elif game.state["combat"] is None:
            break
        else:
            game.apply(game.legal_actions()[0])


def probe_hex_hexside_surrender_boxed_in(record: Record) -> None:
    """results.S, results.no_retreat, drm.routed_lead, leader_loss.lost_on,
    army_morale.points_per_leader, army_morale.fallback: a routed morale 3 defender with a leader,
    boxed in by its own stacks, takes a loss, "S" and "r" (D1 + DS + Dr in every cell); its leader
    is lost."""
    units = ["a:infantry:prussia:0303:2:4", "d:infantry:austria:0403:3:3"]
    units += ["l:leader:austria:0403:1:0"]
    for i, at in enumerate(("0404", "0503", "0504")):
        units += [f"f{i}:infantry:austria:{at}:2:4", f"g{i}:infantry:austria:{at}:2:4"]
    game = _hex_hexside_game(record, units, ["D1", "DS", "Dr"])
    game.states[-1]["units"]["d"]["status"] = "routed"
    _hex_hexside_fight(game, "0403", [3, 6])


def probe_hex_hexside_extended_and_broken(record: Record) -> None:
    """extended_attack.once_per_turn, army_morale.broken_ends_game: cavalry takes out a lone
    one-step defender (D1 in every cell), advances, then the army of one step left breaks."""
    units = ["c:cavalry:prussia:0303:4:4", "d:infantry:austria:0403:1:4"]
    units += ["e:infantry:austria:0503:1:4"]
    game = _hex_hexside_game(record, units, ["D1"])
    _hex_hexside_fight(game, "0403", [3])
    if game.state["combat"] and game.state["combat"]["step"] == "advance":
        game.apply({"type": "advance", "unit": "c", "to": "0403"})
        game.apply({"type": "extended_attack", "target": "0503"})
        while game.state["combat"] and game.state["combat"]["step"] != "designate":
            game.apply(game.legal_actions()[-1])  # on to the extended attack
        game.apply({"type": "confirm"})
        game.apply({"type": "roll", "value": 3})


# -- area_locale ---------------------------------------------------------------------------


def _area_locale_strip(units: str, wide: bool = False, seq: dict | None = None) -> dict:
    """A strip a-b-c of area-locale with ``units`` ("id:KS@place", x moves first: see
    test_play_area_locale.scenario_data); narrow approaches of effect 0, or wide."""
    kinds = {"i": "infantry", "c": "cavalry", "g": "artillery"}
    locales = [
        {"id": k, "name": k.upper(), "capacity": 3, "polygon": [[i, 0], [i + 1, 0], [i, 1]]}
        for i, k in enumerate("abc")
    ]
    width = "wide" if wide else "narrow"
    approaches = [
        {"from": p, "facing": q, "width": width, "effect": 0}
        for a, b in (("a", "b"), ("b", "c"))
        for p, q in ((a, b), (b, a))
    ]
    specs = []
    for text in units.split():
        uid, rest = text.split(":")
        code, place = rest.split("@")
        locale, _, facing = place.partition("/")
        specs.append(
            {
                "id": uid,
                "side": uid[0],
                "type": kinds[code[0]],
                "name": uid,
                "steps": int(code[1:]),
                "locale": locale,
                "approach": facing or None,
            }
        )
    return {
        "format": "muster-scenario/1",
        "id": "probe",
        "system": "area-locale",
        "title": "probe",
        "map": {
            "kind": "areas",
            "width": 3,
            "height": 1,
            "locales": locales,
            "approaches": approaches,
            "roads": [],
        },
        "sides": [{"id": "x", "name": "X"}, {"id": "y", "name": "Y"}],
        "units": specs,
        "overrides": {"sequence": seq or {}},
    }


def _area_locale_play(record: Record, data: dict, actions: list[dict]) -> Any:
    from muster.game import Game
    from muster.scenario import parse_scenario
    from muster.systems import game_rules

    scenario = record(parse_scenario(data))
    game = Game.start(scenario, game_rules(scenario.system), 1)
    for action in actions:
        game.apply(action)
    return game


def probe_area_locale_pursuit_with_cavalry(record: Record) -> None:
    """losses.pursuer, pursuit.by: x wins an assault (3 - 0 - 2) and its
    cavalry x3, which did not lead, pursues y2 and loses a step."""
    data = _area_locale_strip("x1:i3@a/b x3:c2@a/b y1:i2@b/a y2:i3@b/a", wide=True)
    _area_locale_play(
        record,
        data,
        [
            {"type": "assault", "approach": "a/b"},
            {"type": "lead", "units": ["x1"]},
            {"type": "lead", "units": ["y1"]},
            {"type": "pursue", "units": ["x3"]},
        ],
    )


def probe_area_locale_bombard_a_reserve(record: Record) -> None:
    """reserve_effect.value: x's gun on a/b declares, then bombards the reserve of b (the
    approach it faces, b/a, is empty)."""
    data = _area_locale_strip("x1:g1@a/b x7:i1@c y2:i3@b y3:i3@b/c")
    game = _area_locale_play(
        record,
        data,
        [
            {"type": "end_phase"},  # movement (nothing to bombard or assault): on
            {"type": "declare", "unit": "x1"},
            {"type": "end_turn"},
        ],
    )
    while game.state["side"] == "y":  # y passes its turn
        ends = [a for a in game.legal_actions() if a["type"] in ("end_phase", "end_turn")]
        game.apply(ends[0])
    game.apply({"type": "bombard", "unit": "x1"})


def probe_area_locale_back_from_a_blocked_approach(record: Record) -> None:
    """costs.approach_blocked_back: x1 on a/b faces y1 on b/a, which blocks it; x1 goes back
    to a's reserve."""
    data = _area_locale_strip("x1:i3@a/b x9:i1@a y1:i3@b/a y9:i1@c")
    _area_locale_play(
        record,
        data,
        [
            {"type": "end_phase"},  # no assault: on to movement
            {"type": "select", "unit": "x1"},
            {"type": "move", "to": "a"},
        ],
    )


def probe_area_locale_defensive_fire(record: Record) -> None:
    """artillery_fire.per_step: x1 assaults b/a and y's gun in b's reserve fires."""
    data = _area_locale_strip("x1:i3@a/b x9:i1@a y1:i2@b/a yg:g1@b y9:i1@c")
    _area_locale_play(
        record,
        data,
        [
            {"type": "assault", "approach": "a/b"},
            {"type": "lead", "units": ["x1"]},
            {"type": "lead", "units": ["y1"], "fire": True},
        ],
    )
