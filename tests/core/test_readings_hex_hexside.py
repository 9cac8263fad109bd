"""hex-hexside: a bombardment the aid allows but that cannot have an effect is still offered,
and its preview says why. Positions as in test_bombard_hex_hexside.py (gun in 0301, target
in 0304, the line of fire entering the target across 0303|0304)."""

from __future__ import annotations

from test_bombard_hex_hexside import BOMBARD, gun_and_target, offered, preview, side


def test_a_bombardment_that_cannot_have_an_effect_says_why():
    # The aid sets no floor to a bombardment's odds. At 1:1 with a town (-2) uphill across a
    # slope (-2), even a 6 is 2 on the column: no result. Offered, and the preview says so.
    g = gun_and_target([side("slope", up="0304")], hexes={"0304": ["town"]})
    assert offered(g)
    p = preview(g)
    assert (p["odds"]["column"], p["total"]) == ("1:1", -4)
    assert [o["outcome"] for o in p["outcomes"]] == [{"target": []}]
    assert p["notes"] == [
        {
            "key": "note.hh_bombard_no_result",
            "params": {"column": "1:1", "face": 6, "best": 2},
        }
    ]


def test_a_bombardment_that_may_have_an_effect_has_no_note():
    g = gun_and_target(hexes={"0304": ["town"]})  # -2: a 6 still gives "r"
    p = preview(g)
    assert any(o["outcome"]["target"] for o in p["outcomes"])
    assert "notes" not in p
    assert BOMBARD in g.legal_actions()
