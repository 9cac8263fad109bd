"""The way on, on a tablet (820×1180, touch): the green button is the natural next step and
never a give-up, over a turn of each demo and at a close combat's designation; ending
Fontanella's movement with commands left asks first (Keep playing keeps the turn, End anyway
passes it), and the settings turn the question off; undo reaches back over Hohenbrück's
hand-over; Valmont's infantry activation passes its empty artillery fire by itself."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from test_play_panel import DEMOS, H, W, in_view, open_demo, reveal_if_covered, side_to_act, tap

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))

from muster.game import Game  # noqa: E402
from muster.scenario import load_builtin  # noqa: E402
from muster.systems import game_rules  # noqa: E402

GIVE_UPS = ("cancel",)  # the action types that abandon what is under way


def green(page) -> list[dict]:
    """Every button of the dock drawn green (the end colour), with its action and classes."""
    return page.evaluate(
        """() => {
          const probe = document.createElement('button');
          probe.className = 'next';
          document.getElementById('dock').appendChild(probe);
          const colour = getComputedStyle(probe).backgroundColor;
          probe.remove();
          return [...document.querySelectorAll('#dock button')]
            .filter((b) => b.offsetParent !== null)
            .filter((b) => getComputedStyle(b).backgroundColor === colour)
            .map((b) => ({action: b.dataset.action || '', cls: b.className, text: b.innerText}));
        }"""
    )


def check_way_on(page) -> None:
    """At most one green button, the core's primary item, never a give-up; first under the
    prompt when there is one."""
    shown = green(page)
    assert len(shown) <= 1, shown
    for button in shown:
        assert "next" in button["cls"].split(), button
        assert button["action"] not in GIVE_UPS, button
    if shown and not page.locator("#ask-unused").count():
        first = page.locator("#dock .end-choice button").first
        assert "next" in (first.get_attribute("class") or "").split()


def take_the_green(page) -> None:
    """One step of a player who follows the way on: a die rolled, a preview committed, a
    facing picked, a question before an ending answered by ending, else the green button."""
    if page.locator("#preview").count():
        tap(page, page.locator("#confirm"))
    elif page.locator("#ask-unused").count():
        tap(page, page.locator("#ask-unused-end"))
    elif page.locator("#roll").count():
        tap(page, page.locator("#roll"))
    elif page.locator("#dock button.facing").count():
        tap(page, page.locator("#dock button.facing").first)
    elif page.locator("#dock button.next").count():
        tap(page, page.locator("#dock button.next"))
    else:
        tap(page, page.locator("#dock button.action").first)


@pytest.mark.parametrize("demo", DEMOS)
def test_over_a_turn_the_green_button_is_the_natural_next_step(browser, site_url, demo):
    app = open_demo(browser, site_url, demo)
    page = app.page
    try:
        tap(page, page.locator("#new-game"))
        reveal_if_covered(page)
        sides = []
        for _ in range(40):
            if page.locator("#curtain:not([hidden])").count():
                break  # the other side's turn, behind the privacy screen
            side = side_to_act(page)
            if side is not None:
                sides.append(side)
            if len(set(sides)) > 1:
                break  # the other side decides: the turn passed
            check_way_on(page)
            take_the_green(page)
        else:
            pytest.fail("the turn never passed")
        app.assert_no_errors()
    finally:
        app.context.close()


def designation_save() -> dict:
    """A Hohenbrück game at a close combat's designation, where the attack may be made or
    given up (a random game, found by the core)."""
    sc = load_builtin("demo-hohenbrueck")
    for seed in range(1, 20):
        g = Game.start(sc, game_rules(sc.system), seed)
        rng = random.Random(seed)
        for _ in range(600):
            types = {a["type"] for a in g.legal_actions()}
            if {"confirm", "cancel"} <= types:
                return g.save()
            if g.state.get("result"):
                break
            g.push(rng.choice(g.legal_actions()))
    raise AssertionError("no designation reached")


def test_at_a_designation_the_attack_is_green_and_giving_up_is_not(browser, site_url, tmp_path):
    app = open_demo(browser, site_url, "demo-hohenbrueck")
    page = app.page
    try:
        path = tmp_path / "designation.json"
        path.write_text(json.dumps(designation_save()))
        page.set_input_files("#save-file", str(path))
        page.wait_for_selector("#dock button[data-action='cancel']")
        check_way_on(page)
        attack = page.locator("#dock button.next")
        assert attack.get_attribute("data-action") == "confirm"
        assert attack.inner_text().startswith("Attack ")
        give_up = page.locator("#dock button[data-action='cancel']")
        assert give_up.inner_text().startswith("Give up this attack")
        assert "next" not in (give_up.get_attribute("class") or "").split()
        # The attack leads the way on, above the give-up, in view.
        assert in_view(page, attack)["y"] <= in_view(page, give_up)["y"]
        app.assert_no_errors()
    finally:
        app.context.close()


def fontanella_at_movement(browser, site_url):
    app = open_demo(browser, site_url, "demo-fontanella")
    page = app.page
    tap(page, page.locator("#new-game"))
    reveal_if_covered(page)
    page.wait_for_selector("#dock button.next")
    assert "3 commands left" in page.locator("#prompt").inner_text()
    return app, page


def test_ending_fontanellas_movement_with_commands_left_asks_first(browser, site_url):
    app, page = fontanella_at_movement(browser, site_url)
    try:
        side = side_to_act(page)
        end = page.locator("#dock button.next")
        assert end.get_attribute("data-action") == "end_phase"
        tap(page, end)
        ask = page.locator("#ask-unused")
        assert in_view(page, ask)
        assert page.locator("#ask-unused-text").inner_text() == "3 commands unused. End anyway?"
        for button in ("#ask-unused-end", "#ask-unused-keep"):
            box = in_view(page, page.locator(button))
            assert box["width"] >= 44 and box["height"] >= 44
        # Keep playing: the turn stays, nothing was taken.
        tap(page, page.locator("#ask-unused-keep"))
        assert not page.locator("#ask-unused").count()
        assert not page.locator("#curtain:not([hidden])").count()
        assert side_to_act(page) == side
        assert "3 commands left" in page.locator("#prompt").inner_text()
        # Asked again, and confirmed: the turn passes (the privacy screen for the other side).
        tap(page, page.locator("#dock button.next"))
        tap(page, page.locator("#ask-unused-end"))
        page.wait_for_selector("#curtain:not([hidden])")
        reveal_if_covered(page)
        assert side_to_act(page) != side
        app.assert_no_errors()
    finally:
        app.context.close()


def test_the_settings_turn_the_question_off(browser, site_url):
    app, page = fontanella_at_movement(browser, site_url)
    try:
        side = side_to_act(page)
        page.tap("#settings-button")
        page.wait_for_selector("#settings-dialog[open]")
        box = page.locator("#ask-unused-setting")
        assert box.is_checked()
        page.tap("label[for='ask-unused-setting']")
        assert not box.is_checked()
        page.tap("#settings-dialog button:has-text('Close')")
        page.wait_for_selector("#settings-dialog:not([open])", state="attached")
        assert page.evaluate("localStorage.getItem('muster.ask-unused')") == "off"
        tap(page, page.locator("#dock button.next"))
        page.wait_for_selector("#curtain:not([hidden])")
        reveal_if_covered(page)
        assert side_to_act(page) != side
        app.assert_no_errors()
    finally:
        app.context.close()


def test_undo_reaches_back_over_hohenbruecks_hand_over(browser, site_url):
    app = open_demo(browser, site_url, "demo-hohenbrueck")
    page = app.page
    try:
        tap(page, page.locator("#new-game"))
        first = side_to_act(page)
        for _ in range(8):
            if side_to_act(page) != first:
                break
            take_the_green(page)
        assert side_to_act(page) != first
        undo = page.locator("#undo")
        assert undo.is_enabled()
        tap(page, undo)
        assert side_to_act(page) == first
        app.assert_no_errors()
    finally:
        app.context.close()


def test_valmonts_infantry_activation_does_not_stop_at_artillery_fire(browser, site_url):
    app = open_demo(browser, site_url, "demo-valmont")
    page = app.page
    try:
        tap(page, page.locator("#new-game"))
        tap(page, page.locator("#dock button.face[data-value='fr-bde1']"))
        prompt = page.locator("#prompt").inner_text()
        assert prompt == "Brigade Morand (France): movement", prompt
        log = page.locator("#log-panel").inner_text()
        assert "Brigade Morand has nothing to do in its fire step: step passed" in log
        assert page.locator("#dock button.next").get_attribute("data-action") == "next_step"
        assert page.viewport_size == {"width": W, "height": H}
        app.assert_no_errors()
    finally:
        app.context.close()
