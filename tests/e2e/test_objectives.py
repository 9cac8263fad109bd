"""The objectives on every map, each side's standing under the prompt and the scenario's
briefing, on a tablet (820×1180, touch), for each demo: what a player checks to know how the
game is being won."""

from __future__ import annotations

import json
import random

import pytest
from apppage import open_app, settle, tablet

from muster import play
from muster.game import Game
from muster.scenario import load_builtin
from muster.systems import game_rules
from muster.texts import english

DEMOS = ("demo-valmont", "demo-hohenbrueck", "demo-fontanella")
# A random game of each demo in which an objective changes hands, and the seed of it.
SEEDS = {"demo-valmont": 8, "demo-hohenbrueck": 2, "demo-fontanella": 1}


def open_demo(browser, site_url: str, demo: str, briefing: bool = False):
    return open_app(browser, f"{site_url}?scenario={demo}&lang=en", briefing=briefing, **tablet())


def finger(page, selector: str) -> None:
    """A finger's tap on the first element matching ``selector``, which must be on screen."""
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= 1180.5, (selector, box)
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def start(page) -> None:
    """New game, past the privacy screen of a game with hidden blocks."""
    settle(page)
    finger(page, "#new-game")
    page.wait_for_selector("#curtain-go:visible, #prompt")
    if page.locator("#curtain-go").is_visible():
        finger(page, "#curtain-go")
    page.wait_for_selector("#prompt")
    settle(page)


def brief(page) -> dict:
    return page.evaluate("window.muster.engine.call('briefing', {})")


def marks(page) -> list[dict]:
    """The objectives the map draws: place, points, holder and the colour it is drawn in."""
    return page.evaluate(
        """() => [...document.querySelectorAll(
              '#map .hm-layer.hm-objective-points .hm-objective, #area-map .am-objective')]
            .filter(g => g.closest('section').hidden === false)
            .map(g => {
              const shape = g.querySelector('circle, path');
              return {at: g.dataset.objective, points: Number(g.dataset.points),
                      holder: g.dataset.holder || null,
                      fill: shape.style.fill || shape.getAttribute('fill')};
            })"""
    )


def colours(demo: str) -> dict:
    return {s["id"]: s["color"] for s in load_builtin(demo).data["sides"]}


def same_colour(page, css: str, hex_colour: str) -> bool:
    """True if the CSS colour ``css`` (as the browser reads it back) is ``hex_colour``."""
    return page.evaluate(
        """([a, b]) => { const x = document.createElement('i'), y = document.createElement('i');
             x.style.color = a; y.style.color = b;
             return x.style.color === y.style.color; }""",
        [css, hex_colour],
    )


def check_drawn(page, demo: str) -> list[dict]:
    """Every objective of the scenario drawn once, with its points, in its holder's colour
    (the core's view of who holds it), a grey one for nobody."""
    expected = brief(page)["objectives"]
    drawn = marks(page)
    assert [(m["at"], m["points"], m["holder"]) for m in drawn] == [
        (o["at"], o["points"], o["holder"]) for o in expected
    ]
    side_colour = colours(demo)
    for m in drawn:
        want = side_colour[m["holder"]] if m["holder"] else "#c8c8c8"
        assert same_colour(page, m["fill"], want), m
    return drawn


def changed_hands(demo: str) -> tuple[dict, dict, dict]:
    """A save of a random game just after an objective changed hands, with who held the
    objectives before and after."""
    scenario = load_builtin(demo)
    rules = game_rules(scenario.system)
    seed = SEEDS[demo]
    game = Game.start(scenario, rules, seed)
    rng = random.Random(seed)
    first = dict(game.state["held"])
    places = [p for p, _ in play.objectives(scenario)]
    while not game.state.get("result"):
        game.push(rng.choice(game.legal_actions()))
        held = game.state["held"]
        if any(held.get(p) != first.get(p) for p in places):
            return game.save(), {p: first.get(p) for p in places}, {p: held.get(p) for p in places}
    raise AssertionError("no objective changed hands")


@pytest.mark.parametrize("demo", DEMOS)
def test_objectives_are_drawn_with_their_points_in_the_holders_colour(browser, site_url, demo):
    app = open_demo(browser, site_url, demo)
    page = app.page
    if demo != "demo-fontanella":  # before a game: every objective drawn, held by nobody
        assert all(m["holder"] is None for m in check_drawn(page, demo))
    start(page)
    check_drawn(page, demo)
    # A game in which one is taken: the map draws it in its new holder's colour.
    save, before, after = changed_hands(demo)
    shown = {m["at"]: m["holder"] for m in marks(page)}
    assert shown == before
    file = {"name": "g.json", "mimeType": "application/json", "buffer": json.dumps(save).encode()}
    page.set_input_files("#save-file", files=[file])
    page.wait_for_selector("#ask[open]")  # the game on screen stays in Saved games
    finger(page, "#ask-ok")
    page.wait_for_function("document.querySelector('#message').textContent.includes('loaded')")
    if page.locator("#curtain-go").is_visible():
        finger(page, "#curtain-go")
    page.wait_for_selector("#prompt")
    settle(page)
    drawn = check_drawn(page, demo)
    assert {m["at"]: m["holder"] for m in drawn} == after != before
    # Each badge is big enough to read and sits clear of the counters' centres.
    box = page.locator(
        "#map .hm-objective-points circle, #area-map .am-objective path"
    ).first.bounding_box()
    assert box and box["width"] >= 16 and box["height"] >= 16
    app.assert_no_errors()


@pytest.mark.parametrize("demo", DEMOS)
def test_the_count_and_each_sides_standing_are_under_the_prompt(browser, site_url, demo):
    app = open_demo(browser, site_url, demo)
    page = app.page
    start(page)
    names = {s["id"]: english(s["name"]) for s in load_builtin(demo).data["sides"]}
    standing = page.locator("#dock #standing")
    assert standing.is_visible()
    prompt = page.locator("#prompt").bounding_box()
    box = standing.bounding_box()
    assert prompt and box and box["y"] >= prompt["y"] + prompt["height"] - 1
    assert box["height"] >= 44
    lines = standing.locator(".standing-line").all_inner_texts()
    assert len(lines) == len(names) + 1
    for line, name in zip(lines, names.values(), strict=False):
        assert line.startswith(f"{name}: score ")
    assert "turns left of" in lines[-1]
    # The count of objectives each side holds: objectives alone, with their points and places
    # (Fontanella keeps who holds every locale: the count is of its objective locales).
    held = brief(page)["objectives"]
    facts = page.locator("#play-panel .fact").all_inner_texts()
    for side, name in names.items():
        mine = [o for o in held if o["holder"] == side]
        fact = next(f for f in facts if f.startswith(name + " holds"))
        if not mine:
            assert fact == f"{name} holds no objective"
            continue
        n, worth = len(mine), sum(o["points"] for o in mine)
        word = "objective" if n == 1 else "objectives"
        assert fact.startswith(f"{name} holds {n} {word} (points: {worth}):")
    # A tap on the standing lists the objectives and who holds them.
    finger(page, "#standing")
    page.wait_for_selector("#briefing-dialog[open]")
    rows = page.locator("#briefing-dialog .brief-objectives li")
    assert rows.count() == len(held)
    assert page.locator("#briefing-close").inner_text() == "Close"
    finger(page, "#briefing-close")
    page.wait_for_selector("#briefing-dialog:not([open])", state="attached")
    app.assert_no_errors()


@pytest.mark.parametrize("demo", DEMOS)
def test_the_briefing_opens_at_new_game_and_from_the_scenario_button(browser, site_url, demo):
    app = open_demo(browser, site_url, demo, briefing=True)
    page = app.page
    data = load_builtin(demo).data
    settle(page)
    finger(page, "#new-game")
    page.wait_for_selector("#briefing-dialog[open]")
    dialog = page.locator("#briefing-dialog")
    assert page.locator("#briefing-title").inner_text() == english(data["title"])
    assert dialog.locator(".brief-description").inner_text() == english(data["description"])
    assert dialog.locator(".brief-sides li").all_inner_texts()[1:] == [
        english(s["name"]) for s in data["sides"][1:]
    ]
    assert dialog.locator(".brief-turns").inner_text() == f"Turns: {data['turns']}"
    victory = dialog.locator(".brief-victory li")
    assert victory.count() >= 3
    # The turns are the scenario's; the victory rules are Muster's assumptions, marked.
    assert "Muster's assumption" not in victory.first.inner_text()
    assert "Muster's assumption: the rules do not say" in victory.last.inner_text()
    tables = dialog.locator(".brief-tables button.brief-table")
    assert tables.count() >= 3
    assumed = dialog.locator(".brief-table[data-marks~='default']")
    assert assumed.count() >= 1
    assert "Muster's assumption" in assumed.first.inner_text()
    if demo == "demo-hohenbrueck":
        crt = dialog.locator(".brief-table[data-table='crt']")
        assert "Muster's substitute table, not the game's own" in crt.inner_text()
    close = page.locator("#briefing-close")
    assert close.inner_text() == "Begin"
    size = close.bounding_box()
    assert size and size["height"] >= 44 and size["y"] + size["height"] <= 1180
    finger(page, "#briefing-close")
    page.wait_for_selector("#briefing-dialog:not([open])", state="attached")
    if page.locator("#curtain-go").is_visible():
        finger(page, "#curtain-go")
    page.wait_for_selector("#prompt")
    settle(page)
    # Later, from the Scenario button: the same briefing, closed with Close; a table opens the
    # rules reference at that chart.
    finger(page, "#scenario-tab")
    page.wait_for_selector("#briefing-dialog[open]")
    assert close.inner_text() == "Close"
    first = tables.first.get_attribute("data-table")
    tables.first.scroll_into_view_if_needed()
    finger(page, ".brief-tables button.brief-table")
    page.wait_for_selector("#rules-dialog[open]")
    page.wait_for_selector(f"#ref-{first}.rules-hit", state="attached")
    app.assert_no_errors()


def test_the_briefing_at_new_game_is_a_setting(browser, site_url):
    app = open_demo(browser, site_url, "demo-valmont", briefing=True)
    page = app.page
    page.click("#settings-button")
    box = page.locator("#briefing-at-new-game")
    assert box.is_checked()
    box.uncheck()
    page.click("#settings-dialog button:has-text('Close')")
    settle(page)
    finger(page, "#new-game")
    page.wait_for_selector("#roll")
    settle(page)
    assert page.locator("#briefing-dialog[open]").count() == 0
    app.assert_no_errors()


@pytest.mark.parametrize("lang", ["pl", "fr", "ja"])
def test_the_standing_and_the_briefing_are_worded_in_each_language(browser, site_url, lang):
    app = open_app(
        browser, f"{site_url}?scenario=demo-hohenbrueck&lang={lang}", briefing=True, **tablet()
    )
    page = app.page
    settle(page)
    finger(page, "#new-game")
    page.wait_for_selector("#briefing-dialog[open]")
    text = page.locator("#briefing-dialog").inner_text()
    for word in ("Victory conditions", "Tables in use", "Muster's", "held by", "Begin"):
        assert word not in text
    finger(page, "#briefing-close")
    page.wait_for_selector("#briefing-dialog:not([open])", state="attached")
    settle(page)
    standing = page.locator("#standing").inner_text()
    for word in ("score", "turns left", "behind", "ahead", "objectives"):
        assert word not in standing
    app.assert_no_errors()
