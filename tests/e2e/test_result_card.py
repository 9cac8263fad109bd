"""The result card on a tablet (820×1180, touch), for each demo: after each kind of chance
point (the die typed in from a real die) and of fight, the card is in view under the prompt
with the die's face and what happened to each unit, the same lines as the log; the units and
places it names are marked on the map; a tap on Continue puts it away and a reload does not
bring it back. In Fontanella the side that did not decide sees the card after the hand-over,
naming none of the other side's blocks.

Each position is reached by a saved game the core plays up to it (a random game, fights
preferred), opened from a file as a player opens a save."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from apppage import READY_TIMEOUT_MS, settle
from test_legend import DRAWN, open_legend
from test_play_panel import in_view, open_demo, reveal_if_covered, scenario, tap

from muster.game import Game
from muster.scenario import load_builtin, parse_scenario
from muster.systems import game_rules

pytestmark = pytest.mark.e2e

FIGHTS = ("fire", "melee", "bombard", "attack", "confirm", "assault", "lead", "declare", "rally")
LIMIT = 3000  # actions a game is played for at most to reach a position
SHOTS = None  # a folder path to keep a screenshot of each card while working on the UI


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png")


def as_js(value: Any) -> Any:
    """``value`` as the page's JSON reader gives it back: a whole float is a whole number."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: as_js(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_js(v) for v in value]
    return value


def position(demo: str, want, seeds=range(1, 40)) -> tuple[Game, dict[str, Any]]:
    """A game of ``demo`` played at random (fights preferred) until ``want(game)`` holds; the
    scenario as the page reads it from a file, so the save replays there to the same state."""
    sc = parse_scenario(as_js(load_builtin(demo).data))
    rules = game_rules(sc.system)
    for seed in seeds:
        game = Game.start(sc, rules, seed)
        rng = random.Random(seed)
        while not game.state.get("result") and len(game.actions) < LIMIT:
            if want(game):
                return game, json.loads(json.dumps(game.save()))  # a copy: play goes on
            legal = game.legal_actions()
            fights = [a for a in legal if a["type"] in FIGHTS]
            game.push(rng.choice(fights) if fights and rng.random() < 0.6 else rng.choice(legal))
    raise AssertionError(f"{demo}: no such position in the games played")


def at_die(purpose: str, head: str | None = None):
    """At a chance point for ``purpose`` (under a fight declared by ``head``, if given)."""

    def want(game: Game) -> bool:
        chance = game.state.get("chance")
        if not chance or chance.get("purpose") != purpose:
            return False
        return head is None or any(e["key"] == head for e in game.log[-12:])

    return want


def open_save(page, save: dict[str, Any], tmp_path: Path) -> None:
    """Open ``save`` as a player opens a saved game's file."""
    path = tmp_path / "game.save.json"
    path.write_text(json.dumps(save))
    settle(page)
    page.set_input_files("#save-file", str(path))
    page.wait_for_selector("#ask[open], #dock, #curtain:not([hidden]), #message")
    if page.locator("#ask[open]").count():
        page.click("#ask-ok")
    page.wait_for_selector("#dock, #curtain:not([hidden])")
    settle(page)


def card_text(page) -> str:
    return page.locator("#result-card").inner_text()


def marked(page) -> set[str]:
    """The places the map marks for the card."""
    marks = page.locator("#map [data-mark], #area-map [data-mark]")
    return {marks.nth(i).get_attribute("data-mark") for i in range(marks.count())}


def the_card_is_shown(page) -> None:
    """The card is under the prompt, in view, worded as the log words the same lines; its
    Continue is a finger's size; the map marks what it names."""
    card = page.locator("#result-card")
    in_view(page, card)
    prompt = page.locator("#prompt").bounding_box()
    assert card.bounding_box()["y"] >= prompt["y"] + prompt["height"] - 1  # under the prompt
    lines = page.locator("#result-card .card-line")
    assert lines.count() > 0
    log = page.locator("#log-panel").inner_text()
    for i in range(lines.count()):
        text = lines.nth(i).inner_text().strip()
        assert text and text in log, text  # the card and the log agree
    go = in_view(page, page.locator("#card-continue"))
    assert go["height"] >= 44 and go["width"] >= 44
    assert marked(page), "nothing marked on the map"


def put_away_and_reload(app) -> None:
    """Continue puts the card away and its marks; a reload of the game does not show it."""
    page = app.page
    key = page.locator("#result-card").get_attribute("data-card")
    tap(page, page.locator("#card-continue"))
    assert page.locator("#result-card").count() == 0
    assert not marked(page)
    page.reload()
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=READY_TIMEOUT_MS)
    settle(page)
    if page.locator("#resume").count():
        page.tap("#resume")
    page.wait_for_selector("#dock, #curtain:not([hidden])")
    reveal_if_covered(page)
    settle(page)
    assert page.locator("#prompt").count() == 1
    assert page.locator(f"#result-card[data-card='{key}']").count() == 0
    app.assert_no_errors()


# Each demo's kinds of chance point: the die's purpose, the line declaring the fight it settles.
DICE = [
    ("demo-valmont", "fire", "log.hf_fire"),
    ("demo-valmont", "melee", "log.hf_melee"),
    ("demo-valmont", "melee", "log.hf_charge"),
    ("demo-valmont", "cohesion", None),
    ("demo-valmont", "rally", None),
    ("demo-hohenbrueck", "bombard", "log.hh_bombard"),
    ("demo-hohenbrueck", "close_combat", "log.hh_attack"),
    ("demo-hohenbrueck", "rally", "log.hh_rally"),
    ("demo-hohenbrueck", "deep_charge", "log.hh_deep_charge"),
    ("demo-hohenbrueck", "leader_loss", None),
]


@pytest.mark.parametrize(("demo", "purpose", "head"), DICE)
def test_a_card_after_each_kind_of_die(browser, site_url, tmp_path, demo, purpose, head):
    game, save = position(demo, at_die(purpose, head))
    faces = [f["value"] for f in (game.view(None, 0)["chance"] or {}).get("faces", [])]
    face = faces[len(faces) // 2]
    game.apply({"type": "roll", "value": face})
    expected = game.view(None, 0)["card"]  # what the core says the card holds
    app = open_demo(browser, site_url, demo)
    page = app.page
    try:
        open_save(page, save, tmp_path)
        old = page.locator("#result-card")  # an earlier die's card, not yet put away
        before = old.get_attribute("data-card") if old.count() else None
        if before:
            tap(page, page.locator("#card-continue"))
        die = page.locator(f"#dock button.face[data-value='{face}']")
        die.evaluate("e => e.scrollIntoView({block: 'center'})")  # below the fold: a swipe up
        tap(page, die)
        shot(page, f"{demo}-{purpose}-{head}")
        the_card_is_shown(page)
        assert page.locator("#result-card").get_attribute("data-card") != before
        # The die and its face, what it was rolled for, the fight it settles.
        assert page.locator("#result-card .card-die").inner_text() == str(face)
        assert str(face) in page.locator("#result-card .card-roll").inner_text()
        if head:
            assert page.locator("#result-card .card-head").inner_text().strip()
        assert page.locator("#result-card .card-line").count() == len(expected["lines"])
        # Each unit named is marked where it stands, and each place on the map.
        units = scenario(demo)["units"]
        where = {u: s["hex"] for u, s in game.state["units"].items() if not s.get("out")}
        names = {u["id"]: u["name"] for u in units}
        for uid in expected["units"]:
            if uid in where:
                assert where[uid] in marked(page), uid
                assert names[uid] in card_text(page) or uid not in json.dumps(
                    expected["lines"] + [expected["head"]]
                )
        assert set(expected["places"]) <= marked(page) | {None}
        put_away_and_reload(app)
    finally:
        app.context.close()


def test_a_card_after_the_cup_draw_names_the_formation_and_marks_its_units(
    browser, site_url, tmp_path
):
    """Valmont's activation draw is a chance point: the marker typed in from the real cup makes
    a card saying which formation was drawn, and its units are marked where they stand."""
    game, save = position("demo-valmont", lambda g: len(g.actions) > 20 and at_die("activation")(g))
    fid = game.state["chance"]["options"][-1]
    game.apply({"type": "roll", "value": fid})
    expected = game.view(None, 0)["card"]
    app = open_demo(browser, site_url, "demo-valmont")
    page = app.page
    try:
        open_save(page, save, tmp_path)
        if page.locator("#card-continue").count():
            tap(page, page.locator("#card-continue"))
        marker = page.locator(f"#dock button.face[data-value='{fid}']")
        marker.evaluate("e => e.scrollIntoView({block: 'center'})")
        tap(page, marker)
        shot(page, "demo-valmont-activation")
        the_card_is_shown(page)
        assert page.locator("#result-card .card-die").count() == 0  # no die: a marker
        names = {f["id"]: f["name"]["en"] for f in scenario("demo-valmont")["formations"]}
        draw = page.locator("#result-card .card-draw").inner_text()
        assert names[fid] in draw and fid not in draw
        assert page.locator("#result-card .card-line").count() == len(expected["lines"])
        where = {u: s["hex"] for u, s in game.state["units"].items() if not s.get("out")}
        assert {where[u] for u in expected["units"]} <= marked(page)
        # The legend explains the shading, and the map's marks read in the page are all in it.
        ids = {e["id"] for e in open_legend(page)}
        assert "play:card" in page.evaluate(DRAWN) and set(page.evaluate(DRAWN)) <= ids
        put_away_and_reload(app)
    finally:
        app.context.close()


def resolves(keys: tuple[str, ...], kind: str):
    """Before the first legal action of type ``kind`` of an area game (its first button) that
    logs one of ``keys``, after which the other side decides."""

    def want(game: Game) -> bool:
        rules, sc = game.rules, game.scenario
        action = next((a for a in game.legal_actions() if a["type"] == kind), None)
        if action is None:
            return False
        decider = rules.decider(sc, game.state)
        events = game.push(action)
        after = rules.decider(sc, game.state)
        game.undo()
        game.redo_stack.clear()
        hit = any(e["key"] in keys for e in events)
        return hit and after is not None and after != decider

    return want


def other_names(demo: str, side: str) -> list[str]:
    return [u["name"] for u in scenario(demo)["units"] if u["side"] != side]


@pytest.mark.parametrize(
    ("keys", "kind"),
    [
        (("log.al_result",), "lead"),
        (("log.al_bombard",), "bombard"),
        (("log.al_blocked", "log.al_not_blocked"), "block"),
    ],
)
def test_fontanellas_fights_make_a_card_for_the_side_that_did_not_decide(
    browser, site_url, tmp_path, keys, kind
):
    demo = "demo-fontanella"
    game, save = position(demo, resolves(keys, kind), seeds=range(1, 60))
    decider = game.rules.decider(game.scenario, game.state)
    app = open_demo(browser, site_url, demo)
    page = app.page
    try:
        open_save(page, save, tmp_path)
        reveal_if_covered(page)
        if page.locator("#result-card").count():  # an earlier fight's card: put away
            tap(page, page.locator("#card-continue"))
        buttons = page.locator(f"#dock button.action[data-action='{kind}']")
        assert buttons.count() > 0, kind
        buttons.first.scroll_into_view_if_needed()
        tap(page, buttons.first)
        # The tablet goes to the other side: behind the curtain nothing, then its card.
        page.wait_for_selector("#curtain:not([hidden])")
        assert page.locator("#result-card").count() == 0
        side = page.locator("#curtain-go").get_attribute("data-side")
        assert side != decider
        reveal_if_covered(page)
        shot(page, f"{demo}-{kind}")
        the_card_is_shown(page)
        found = [page.locator(f"#result-card .card-line[data-key='{k}']").count() for k in keys]
        assert sum(found) >= 1, found
        text = card_text(page)
        # Nothing hidden: none of the other side's blocks is named (its losses by place only).
        for name in other_names(demo, side):
            assert name not in text, name
        put_away_and_reload(app)
    finally:
        app.context.close()
