#!/usr/bin/env python3
"""Muster's strength, published: each demo, each side, each level against a random player, a
greedy one-ply player and the level below; win/draw/loss per pairing.

The random player takes any legal action; the greedy one takes the action whose position
right after it is best by the system's evaluation (before its dice are rolled: one ply, no
odds). Games go in pairs (``n`` and ``n + 1``) from one opening, with sides swapped: the same
game seed (its dice) and the same first ``OPENING`` decisions, drawn at random (never an
ending while another action is legal), then the players. Without it a demo without dice
(area-locale) between two players that choose alike is one game played again: in
demo-fontanella 19 of 20 games of level 3 against level 2 as Austria were the same 133
actions. Each game's actions are kept as a hash, and the table counts the distinct games. A
95 % interval within ±7 points needs up to 196 games per pairing (p = 0.5; 1.96·√(p(1−p)/n) ≤
0.07), fewer near 0 % or 100 %: 37 at 95 %. A game is seeded by its number, so a run repeats.

    python bench/arena.py [--games 196] [--processes 2] [--scenario demo-valmont] [--level 2]

``--tweak 2:deepen=0,replies=1`` plays a level changed (``opponent.LEVELS``) to try a change
before making it; the table says so. ``--record FILE`` keeps each game's result (a line of
JSON) and plays only the games not kept yet for the same core (``core()``: the rules and
Muster's code and data, and the arena's players) and tweaks, so that a run cut short, or one
machine's spare hours after another's, add up to one table.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import inspect
import json
import math
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from muster.game import Game  # noqa: E402
from muster.opponent import LEVELS, advise, evaluation, seen_ages, this_turn  # noqa: E402
from muster.opponent.knowledge import searchable  # noqa: E402
from muster.opponent.search import ENDING, REPEAT, Search, escape, fingerprint  # noqa: E402
from muster.scenario import load_builtin  # noqa: E402
from muster.systems import game_rules  # noqa: E402

DEMOS = ("demo-valmont", "demo-hohenbrueck", "demo-fontanella")
LIMIT = 20_000
OPENING = 4  # how many decisions of each game's start are drawn at random (``opening``)


def greedy(game: Game, side: str, rng: random.Random) -> dict:
    """The action whose position right after it is best for ``side`` (dice not yet rolled)."""
    rules, sc = game.rules, game.scenario
    legal = game.legal_actions()
    evaluate = evaluation(sc.system)
    state = searchable(rules, sc, game.state, side, rng)
    seen = seen_ages(fingerprint(rules, sc, s, side) for s in this_turn(game))
    search = Search(rules, sc, side, evaluate, rng, LEVELS[1], seen=seen)
    best, value = 0, -math.inf
    for i, action in enumerate(legal):
        try:
            after = search.child(state, action)
            # as Muster, it does not go back to a position it has seen (or it would pick
            # and put back the same block for ever)
            v = evaluate(sc, after, side) - search.repeats(after, seen)
        except Exception:
            continue
        if v > value:
            best, value = i, v
    # and, as Muster, it takes the shortest way out where it is stuck (a block must move
    # first and nothing gains, or every action leads back)
    stuck = value <= -REPEAT / 2
    if not stuck and not any(a["type"] in ENDING for a in legal):
        stuck = value <= evaluate(sc, state, side)
    if stuck:
        out = escape(search, state, legal)
        best = best if out is None else out
    return legal[best]


def move(player: str, game: Game, side: str, rng: random.Random, seed: int) -> dict:
    if player == "random":
        return rng.choice(game.legal_actions())
    if player == "greedy":
        return greedy(game, side, rng)
    return advise(game, side, int(player), seed)["action"]


def tweak(text: str) -> None:
    """Change a level of ``LEVELS`` as ``--tweak`` says (``2:deepen=0,replies=1``)."""
    level, _, fields = text.partition(":")
    changes: dict[str, Any] = {k: int(v) for k, v in (f.split("=") for f in fields.split(","))}
    LEVELS[int(level)] = dataclasses.replace(LEVELS[int(level)], **changes)


Job = tuple[str, str, str, int, tuple[str, ...]]


Played = tuple[str, str, str, int, str, int, str, dict[str, int], str]


def roll_or_decider(game: Game) -> str | None:
    """The side to decide, once every die due is rolled by the game's own seeded stream (a
    player that chose among the faces typed in from a table's die would choose its own luck);
    None at the end."""
    rules, sc = game.rules, game.scenario
    while not game.state.get("result") and len(game.actions) < LIMIT:
        side = rules.decider(sc, game.state)
        if side is not None and not game.state.get("chance"):
            return side  # type: ignore[no-any-return]
        game.push({"type": "roll"})
    return None


def opening(game: Game, pair: int) -> None:
    """The first ``OPENING`` decisions of the game, whoever decides, drawn at random by the
    pair's own stream (the two games of a pair open alike): an action that ends a step,
    phase or turn only where nothing else is legal."""
    rng = random.Random(f"opening/{pair}")
    for _ in range(OPENING):
        if roll_or_decider(game) is None:
            return
        legal = game.legal_actions()
        going_on = [a for a in legal if a["type"] not in ENDING]
        game.apply(rng.choice(going_on or legal))


def play(job: Job) -> Played:
    """One game: ``first`` plays the scenario's first side when ``n`` is even, else the
    second; the pair of games ``n`` and ``n + 1`` has one seed and one ``opening``. The
    outcome for ``first`` (win, draw or loss), the game's length in actions, the side ``first``
    played, each side's points at the end (the score the rules count) and a hash of the
    game's actions (two games alike have the same)."""
    scenario_id, first, second, n, tweaks = job
    for text in tweaks:
        tweak(text)
    sc = load_builtin(scenario_id)
    rules = game_rules(sc.system)
    sides = [s["id"] for s in sc.data["sides"]]
    mine = sides[n % 2]
    game = Game.start(sc, rules, 1000 + n // 2)
    opening(game, n // 2)
    rng = random.Random(n)
    while (side := roll_or_decider(game)) is not None:
        player = first if side == mine else second
        game.apply(move(player, game, side, rng, n))
    winner = (game.state.get("result") or {}).get("winner")
    outcome = "draw" if winner is None else ("win" if winner == mine else "loss")
    points = {side: sum(parts.values()) for side, parts in rules.score(sc, game.state).items()}
    moves = hashlib.sha256(json.dumps(game.actions, sort_keys=True).encode()).hexdigest()[:12]
    return scenario_id, first, second, n, outcome, len(game.actions), mine, points, moves


def core() -> str:
    """What the games' results depend on, as a short hash: every file of the core
    (``py/muster``: the rules, Muster, their data) and the arena's own players."""
    digest = hashlib.sha256()
    folder = ROOT / "py" / "muster"
    for path in sorted(folder.rglob("*")):
        if path.suffix in (".py", ".json") and "__pycache__" not in path.parts:
            digest.update(path.relative_to(folder).as_posix().encode())
            digest.update(path.read_bytes())
    for function in (greedy, move, roll_or_decider, opening, play):
        digest.update(inspect.getsource(function).encode())
    digest.update(f"{LIMIT} {OPENING}".encode())
    return digest.hexdigest()[:16]


def kept(path: Path | None, key: dict[str, Any]) -> dict[tuple[str, str, str, int], dict]:
    """The games of ``path`` (``--record``) played with the same core and tweaks as ``key``,
    by pairing and number."""
    found: dict[tuple[str, str, str, int], dict] = {}
    if path is None or not path.exists():
        return found
    for line in path.read_text(encoding="utf-8").splitlines():
        game = json.loads(line)
        if all(game.get(k) == v for k, v in key.items()):
            found[(game["scenario"], game["muster"], game["against"], game["n"])] = game
    return found


def interval(k: int, n: int) -> tuple[float, float]:
    """The 95 % interval (Wilson) of the share won with ``k`` wins in ``n`` games, in points:
    its low and high ends (not centred on k / n: near 0 % or 100 % it leans inwards)."""
    if n == 0:
        return 0.0, 100.0
    p, z = k / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return 100 * max(0.0, centre - half), 100 * min(1.0, centre + half)


def table(
    pairings: list[tuple[str, str, str]], games: dict[tuple[str, str, str, int], dict], most: int
) -> list[str]:
    """The table of ``pairings`` from ``games`` (by pairing and number; those numbered under
    ``most``), as Markdown lines: win/draw/loss, the share won with its 95 % interval, the
    games' lengths, how many of them differ (by their actions' hash; "?" where a game kept
    has none), and by the side Muster played, its win-draw-loss (how much the scenario
    decides: a side that wins whoever plays it leaves the other little to gain) and its mean
    margin of points (the stronger player's edge where the scenario decides the winner)."""
    tally: dict[tuple[str, str, str], dict[str, int]] = {}
    by_side: dict[tuple[str, str, str], dict[str, list[int]]] = {}
    margins: dict[tuple[str, str, str], dict[str, list[int]]] = {}
    lengths: dict[tuple[str, str, str], list[int]] = {}
    kinds: dict[tuple[str, str, str], set[str | None]] = {}
    for (s, a, b, n), game in games.items():
        if (s, a, b) not in pairings or n >= most:
            continue
        outcome, side, points = game["outcome"], game["side"], game["points"]
        tally.setdefault((s, a, b), {"win": 0, "draw": 0, "loss": 0})[outcome] += 1
        counts = by_side.setdefault((s, a, b), {}).setdefault(side, [0, 0, 0])
        counts[("win", "draw", "loss").index(outcome)] += 1
        margin = 2 * points[side] - sum(points.values())  # the side's less the other's
        margins.setdefault((s, a, b), {}).setdefault(side, []).append(margin)
        lengths.setdefault((s, a, b), []).append(game["actions"])
        kinds.setdefault((s, a, b), set()).add(game.get("moves"))
    rows = [
        [
            "demo",
            "Muster",
            "against",
            "games",
            "win",
            "draw",
            "loss",
            "win % [95 % interval]",
            "actions (median, most)",
            "games that differ",
            "by Muster's side: win-draw-loss, mean margin of points",
        ]
    ]
    for s, a, b in pairings:
        t = tally.get((s, a, b), {"win": 0, "draw": 0, "loss": 0})
        n = sum(t.values())
        pct = 100 * t["win"] / n if n else 0
        against = b if not b.isdigit() else f"level {b}"
        long = sorted(lengths.get((s, a, b), [0]))
        lo, hi = interval(t["win"], n)
        found = kinds.get((s, a, b), set())
        differ = "?" if None in found else str(len(found))
        sides = ", ".join(
            f"{side} {w}-{d}-{lost}, {sum(m) / len(m):+.1f}"
            for side, (w, d, lost) in sorted(by_side.get((s, a, b), {}).items())
            for m in [margins[(s, a, b)][side]]
        )
        rows.append(
            [s, f"level {a}", against, str(n), str(t["win"]), str(t["draw"]), str(t["loss"])]
            + [f"{pct:.0f} [{lo:.0f}–{hi:.0f}]", f"{long[len(long) // 2]}, {long[-1]}"]
            + [differ, sides]
        )
    # the columns padded to their widest cell, as the README keeps its tables
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        "| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |"
        for row in rows
    ]
    lines.insert(1, "| " + " | ".join("-" * w for w in widths) + " |")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=196, help="games per pairing (even)")
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--scenario", action="append", help="a demo (default: all three)")
    ap.add_argument("--level", type=int, action="append", help="a level (default: all)")
    ap.add_argument("--against", action="append", help="random, greedy or below (default all)")
    ap.add_argument("--tweak", action="append", default=[], help="LEVEL:field=value,...")
    ap.add_argument("--record", type=Path, help="a file of JSON lines: each game's result")
    args = ap.parse_args()
    for text in args.tweak:
        tweak(text)  # here too, to fail early on a field that does not exist
        print(f"Levels changed for this run: {text}")
    pairings = []
    for scenario_id in args.scenario or DEMOS:
        for level in args.level or sorted(LEVELS):
            for against in args.against or ("random", "greedy", "below"):
                if against == "below":
                    if level == 1:
                        continue
                    against = str(level - 1)
                pairings.append((scenario_id, str(level), against))
    tweaks = tuple(args.tweak)
    key = {"core": core(), "tweaks": list(tweaks)}
    games = kept(args.record, key)
    if games:
        print(f"Kept in {args.record}: {len(games)} games of this core ({key['core']})")
    jobs = [
        (s, a, b, n, tweaks)
        for s, a, b in pairings
        for n in range(args.games)
        if (s, a, b, n) not in games
    ]
    start = time.monotonic()
    with multiprocessing.Pool(args.processes) as pool:
        for done, (s, a, b, n, outcome, length, side, points, moves) in enumerate(
            pool.imap_unordered(play, jobs), 1
        ):
            game = {"scenario": s, "muster": a, "against": b, "n": n, "outcome": outcome}
            game |= {"actions": length, "side": side, "points": points, "moves": moves}
            games[(s, a, b, n)] = game
            if args.record:
                with args.record.open("a", encoding="utf-8") as out:
                    out.write(json.dumps({**key, **game}) + "\n")
            took = time.monotonic() - start
            print(
                f"[{done}/{len(jobs)} games, {took:.0f} s] {s} level {a} vs {b} #{n}: "
                f"{outcome} in {length} actions as {side}, points {points}",
                file=sys.stderr,
                flush=True,
            )
    print("\n".join(table(pairings, games, args.games)))


if __name__ == "__main__":
    main()
