"""The ford of note 3 of the hex-hexside terrain chart, as a hexside feature.

The aid (seeds/003, "Notes sur la Table d'effets du Terrain"): "3 S'il n'y a pas de pont ou de
passage" (rules/hex-hexside.md: "If there is no bridge or ford"). The chart prints no ford row;
what the note gives is that where a bridge or a ford crosses it, the terrain the note is on does
not count. The engine reads the note on the stream (``crossings`` in sequence.json: features
bridge and ford, cancel stream); the ford's own row is 0 in every column (a default). A scenario
may carry the note to the rivers.

Map: flat hexes, even columns half a hex lower, so row 02 runs straight east:
0102 - 0202 - 0302 - 0402 (each adjacent to the next).
"""

from __future__ import annotations

from typing import Any

import pytest
from movement_maps import make_board, parts, step
from test_play_hex_hexside import U, scenario

from muster import editor
from muster.errors import ScenarioError
from muster.game import Game
from muster.los import line_of_sight
from muster.movement import Board
from muster.scenario import hexside_features
from muster.systems.hex_hexside import combat
from muster.systems.hex_hexside.rules import RULES

HH = "hex-hexside"
TEC = "terrain effects chart"


def crossing(*features: str) -> list[dict[str, Any]]:
    return [{"between": ["0102", "0202"], "features": list(features)}]


def test_the_ford_is_a_hexside_feature_the_editor_offers():
    assert "ford" in hexside_features(HH)
    assert "ford" in editor.catalog(HH)["hex"]["hexside_features"]


@pytest.mark.parametrize(
    ("features", "unit", "cost"),
    [
        (["stream"], "infantry", 2),  # clear 1 + stream 1
        (["stream", "ford"], "infantry", 1),  # note 3: the ford cancels the stream
        (["stream", "ford"], "cavalry", 1),
        (["ford"], "infantry", 1),  # a ford alone: +0 (no row printed: the default 0)
        (["ford"], "cavalry", 1),
    ],
)
def test_a_ford_crossing_a_stream_costs_the_hex_only(features, unit, cost):
    b = make_board(HH, [{"id": "u", "hex": "0102", "type": unit}], hexsides=crossing(*features))
    assert step(b, "u", "0102", "0202").cost == cost


def test_the_cancelled_stream_is_said_with_note_3():
    b = make_board(HH, [{"id": "u", "hex": "0102"}], hexsides=crossing("stream", "ford"))
    assert [p[1:] for p in parts(b, "u", "0102", "0202")] == [
        ("move.terrain", {"terrain": "clear"}),
        ("move.cancelled", {"feature": "stream", "by": "ford"}),
        ("move.hexside", {"feature": "ford"}),
    ]
    found = step(b, "u", "0102", "0202").parts
    assert found[1].rule == TEC + " (3)" and found[2].rule == TEC


@pytest.mark.parametrize(
    ("column", "features", "value"),
    [
        ("inf", ["stream"], -1),
        ("inf", ["stream", "ford"], 0),  # the stream does not count, the ford is 0
        ("cav", ["stream", "ford"], 0),
        ("bomb", ["stream", "ford"], 0),
        ("inf", ["ford"], 0),
    ],
)
def test_an_attack_across_a_ford_has_no_stream_drm(column, features, value):
    sc = scenario([], crossing(*features))
    found = combat.terrain_drm(Board(sc), column, sc.hex_at("0102"), sc.hex_at("0202"))
    assert found.prohibited is None and found.value == value
    assert found.shock_allowed  # the ford has no *


def test_a_close_combat_across_a_ford_shows_no_stream_in_its_preview():
    g = Game.start(
        scenario([U("a", "0102"), U("d", "0202", side="austria")], crossing("stream", "ford")),
        RULES,
        7,
    )
    while g.state["phase"] != "combat":
        g.apply({"type": "end_phase"})
    g.apply({"type": "attack", "target": "0202"})
    p = RULES.preview(g.scenario, g.state, {"type": "confirm"})
    assert [m for m in p["modifiers"] if m["key"] == "drm.hexside"] == []


def test_a_ford_does_not_block_the_line_of_sight():
    sc = scenario([], crossing("stream", "ford"))
    assert line_of_sight(sc, "0102", "0302").clear


# -- note 3 carried to the rivers (a scenario's reading) -----------------------------------------

MIETZEL = {"crossings": {"cancel": ["stream", "mietzel_river"]}}


@pytest.mark.parametrize(("by", "sequence", "line_may_cross"), [
    ("bridge", None, False),  # the default: the note is on the stream only
    ("ford", None, False),
    ("bridge", MIETZEL, True),
    ("ford", MIETZEL, True),
])  # fmt: skip
def test_a_scenario_may_let_a_bridge_or_ford_cancel_the_mietzel(by, sequence, line_may_cross):
    extra = {"overrides": {"sequence": sequence}} if sequence else {}
    sc = scenario([U("i", "0102")], crossing("mietzel_river", by), **extra)
    board = Board(sc)
    # Infantry in line may not cross the Mietzel (column only, all MP) unless the note cancels it.
    found = step(board, "i", "0102", "0202")
    assert (found.prohibited is None) is line_may_cross
    if line_may_cross:
        assert found.cost == 1 and found.stop is None  # the hex, and no "all MP"
    attack = combat.terrain_drm(board, "inf", sc.hex_at("0102"), sc.hex_at("0202"))
    assert (attack.prohibited is None) is line_may_cross  # Mietzel Inf P


def test_a_scenario_may_let_a_bridge_cancel_the_elbe():
    sequence = {"crossings": {"cancel": ["stream", "elbe_river"]}}
    sc = scenario([], crossing("elbe_river", "bridge"), overrides={"sequence": sequence})
    b = Board(sc)
    assert combat.terrain_drm(b, "inf", sc.hex_at("0102"), sc.hex_at("0202")).value == -1  # bridge
    plain = scenario([], crossing("elbe_river", "bridge"))
    found = combat.terrain_drm(Board(plain), "inf", plain.hex_at("0102"), plain.hex_at("0202"))
    assert found.prohibited is not None


@pytest.mark.parametrize(
    ("sequence", "place"),
    [
        ({"crossings": {"features": ["tunnel"]}}, "overrides.sequence.crossings.features"),
        ({"crossings": {"cancel": ["woods"]}}, "overrides.sequence.crossings.cancel"),
    ],
)
def test_crossings_take_their_values_from_the_chart(sequence, place):
    with pytest.raises(ScenarioError) as found:
        scenario([], overrides={"sequence": sequence})
    assert found.value.params["place"] == place
