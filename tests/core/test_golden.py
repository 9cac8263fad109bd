"""The golden files under tests/golden/ (reachable hexes of small fixture maps, seeded
playthroughs of the demos) match what the rules give now.

A failure means the rules changed what they answer: run ``python3 tests/regen_golden.py``,
then review ``git diff tests/golden`` and keep it only if every change is intended.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# The script sits in tests/ (beside tests/golden/), here and inside Pyodide alike.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import regen_golden as golden  # noqa: E402

ADVICE = (
    "the rules now give another answer than the golden file: run "
    "`python3 tests/regen_golden.py`, then review `git diff tests/golden` and keep the "
    "change only if it is intended"
)


@pytest.mark.parametrize("name", golden.names())
def test_golden_file_matches(name):
    path = golden.GOLDEN / name
    assert path.exists(), f"tests/golden/{name} is missing: {ADVICE}"
    old = path.read_text(encoding="utf-8")
    new = golden.render(name)
    if new != old:
        pytest.fail(f"tests/golden/{name}: {ADVICE}\n{golden.diff(name, old, new)}", False)


def test_no_stale_golden_files():
    left = [str(p.relative_to(golden.GOLDEN)) for p in golden.stale()]
    assert not left, f"golden files no fixture writes any more: {left}; {ADVICE}"


def test_the_diff_names_the_file_and_the_changed_line():
    text = golden.diff("reach/x.txt", "i 0101 1\ni 0102 2\n", "i 0101 1\ni 0102 3\n")
    assert "a/tests/golden/reach/x.txt" in text
    assert "-i 0102 2" in text and "+i 0102 3" in text
    old = '0 - - aa\n1 3 {"type":"x"} bb\n2 3 {"type":"y"} cc\n'
    assert golden.first_change(old, old.replace("cc", "dd")) == (
        "the same actions, first other state hash at 2"
    )
    other = old.replace("bb", "b2").replace('"y"', '"z"')
    assert golden.first_change(old, other) == "first other action at 2, first other state hash at 1"


def test_every_fixture_reaches_beyond_its_start_and_every_demo_is_played():
    # A fixture whose units cannot move, or a playthrough of no action, would prove nothing.
    for fixture in golden.FIXTURES:
        lines = golden.render(golden.reach_name(fixture)).splitlines()
        reached = [line.split()[0] for line in lines if not line.startswith("#")]
        own = {u["id"] for u in fixture.units if u.get("side", "a") != "b"}
        stuck = {uid for uid in own if reached.count(uid) < 2}  # its own hex, and one more
        assert set(reached) == own and not stuck, (fixture.name, own - set(reached), stuck)
    assert {golden.playthrough_name(d, 1) for d in golden.DEMOS} <= set(golden.names())
