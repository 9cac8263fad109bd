"""The arena's bookkeeping (``bench/arena.py``): a kept game counts only for the core and the
tweaks it was played with, the core's hash follows every file of the core, and a tweak changes
the fields it names of one level."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("arena", ROOT / "bench" / "arena.py")
assert _spec and _spec.loader
arena = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(arena)


def game(core: str, n: int, outcome: str = "win", tweaks: list[str] | None = None) -> dict:
    return {
        "core": core,
        "tweaks": tweaks or [],
        "scenario": "demo-fontanella",
        "muster": "2",
        "against": "greedy",
        "n": n,
        "outcome": outcome,
        "actions": 100,
        "side": "france",
        "points": {"france": 5, "austria": 0},
    }


def test_a_kept_game_counts_only_for_the_core_and_tweaks_it_was_played_with(tmp_path):
    path = tmp_path / "arena.jsonl"
    lines = [game("a", 0), game("b", 1), game("a", 2, tweaks=["2:deepen=0"]), game("a", 3)]
    path.write_text("".join(json.dumps(g) + "\n" for g in lines), encoding="utf-8")
    found = arena.kept(path, {"core": "a", "tweaks": []})
    assert sorted(n for _, _, _, n in found) == [0, 3]
    tweaked = arena.kept(path, {"core": "a", "tweaks": ["2:deepen=0"]})
    assert sorted(n for _, _, _, n in tweaked) == [2]
    assert arena.kept(tmp_path / "none.jsonl", {"core": "a", "tweaks": []}) == {}
    assert arena.kept(None, {"core": "a", "tweaks": []}) == {}


def test_the_core_hash_follows_every_file_of_the_core_and_nothing_else(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "py" / "muster", tmp_path / "py" / "muster")
    monkeypatch.setattr(arena, "ROOT", tmp_path)
    first = arena.core()
    assert arena.core() == first
    (tmp_path / "py" / "muster" / "__pycache__").mkdir(exist_ok=True)
    (tmp_path / "py" / "muster" / "__pycache__" / "x.json").write_text("{}")
    (tmp_path / "py" / "muster" / "notes.txt").write_text("not the core")
    assert arena.core() == first
    data = tmp_path / "py" / "muster" / "systems" / "hex_facing" / "evaluation.json"
    data.write_text(data.read_text().replace('"points": 10.0', '"points": 11.0'))
    assert arena.core() != first


def test_a_tweak_changes_the_fields_it_names_of_one_level(monkeypatch):
    monkeypatch.setattr(arena, "LEVELS", dict(arena.LEVELS))
    before = dict(arena.LEVELS)
    arena.tweak("2:deepen=0,replies=1")
    assert (arena.LEVELS[2].deepen, arena.LEVELS[2].replies) == (0, 1)
    assert arena.LEVELS[2].nodes == before[2].nodes
    assert arena.LEVELS[1] == before[1] and arena.LEVELS[3] == before[3]
    with pytest.raises(TypeError):
        arena.tweak("2:depth=3")  # no such field: refused before any game is played


def test_the_two_games_of_a_pair_open_alike_and_pairs_differ():
    """A pair of games (sides swapped) starts from one opening: the same seed and the same
    first decisions, drawn at random, never an ending while another action is legal; the next
    pair opens otherwise (a demo without dice is not one game played again)."""
    from muster.game import Game
    from muster.scenario import load_builtin
    from muster.systems import game_rules

    sc = load_builtin("demo-fontanella")
    rules = game_rules(sc.system)
    openings = []
    for pair in (0, 0, 1):
        game = Game.start(sc, rules, 1000 + pair)
        arena.opening(game, pair)
        openings.append(game.actions)
    assert openings[0] == openings[1]
    assert openings[0] != openings[2]
    decided = [a for a in openings[0] if a["type"] != "roll"]
    assert len(decided) == arena.OPENING
    assert not any(a["type"] in arena.ENDING for a in decided)


def test_the_table_counts_the_games_that_differ_and_each_sides_margin():
    """The table says how many of a pairing's games differ (a pairing of one game played
    again is no sample) and, by the side Muster played, its win-draw-loss and mean margin."""
    pairing = ("demo-fontanella", "2", "greedy")
    games = {}
    for n, (side, points, moves) in enumerate(
        [
            ("austria", {"austria": 1, "france": 9}, "aaa"),
            ("france", {"austria": 2, "france": 8}, "bbb"),
            ("austria", {"austria": 1, "france": 9}, "aaa"),
            ("france", {"austria": 5, "france": 5}, "ccc"),
        ]
    ):
        outcome = "draw" if points["austria"] == points["france"] else None
        outcome = outcome or ("win" if points[side] > 5 else "loss")
        games[(*pairing, n)] = {
            "outcome": outcome,
            "side": side,
            "points": points,
            "actions": 100 + n,
            "moves": moves,
        }
    row = arena.table([pairing], games, 4)[2]
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[3:7] == ["4", "1", "1", "2"]  # games, win, draw, loss
    assert cells[9] == "3"  # the games that differ
    assert cells[10] == "austria 0-0-2, -8.0, france 1-1-0, +3.0"
    # a game kept before the hash was: how many differ is not known
    del games[(*pairing, 0)]["moves"]
    assert arena.table([pairing], games, 4)[2].split("|")[10].strip() == "?"
    # every row as wide as the others, each column padded to its widest cell (the README's)
    lines = arena.table([pairing], games, 4)
    assert len({len(line) for line in lines}) == 1
    assert [line.index("| 4 ") for line in lines[2:]] == [lines[0].index("| games")]
    # games numbered past the run's count are left out
    assert arena.table([pairing], games, 2)[2].split("|")[4].strip() == "2"
