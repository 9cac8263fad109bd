"""An area-locale game passed between two players on one screen: an assault, then a maneuver
attack the defender blocks, with the privacy screen between the sides and each side's blocks
hidden from the other."""

from __future__ import annotations

import pytest
from apppage import open_app, open_scenario, press, settle, tap_center, wait_text

pytestmark = pytest.mark.e2e


def square(x: int, y: int, w: int = 200, h: int = 150) -> list[list[int]]:
    return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]


def pair(a: str, b: str, width: str = "narrow", effect_ab: int = 0, effect_ba: int = 0):
    return [
        {"from": a, "facing": b, "width": width, "effect": effect_ab},
        {"from": b, "facing": a, "width": width, "effect": effect_ba},
    ]


# West (Austria) and East (France) side by side, North below both: the assault goes from the
# west approach facing East (Kinsky) against the French approach blocking it (Légère, effect 1);
# then Wallis, from the west reserve, attacks North, where the French reserve can block.
SCENARIO = {
    "format": "muster-scenario/1",
    "id": "two-sides",
    "system": "area-locale",
    "title": "Two sides",
    "map": {
        "kind": "areas",
        "width": 400,
        "height": 300,
        "locales": [
            {"id": "w", "name": "West", "polygon": square(0, 0), "capacity": 4},
            {"id": "e", "name": "East", "polygon": square(200, 0), "capacity": 4, "objective": 2},
            {"id": "n", "name": "North", "polygon": square(0, 150, 400), "capacity": 4},
        ],
        "approaches": pair("w", "e", effect_ba=1) + pair("w", "n") + pair("e", "n"),
        "roads": [],
    },
    "sides": [
        {"id": "austria", "name": "Austria", "color": "#f3f0e2", "text": "#20242c"},
        {"id": "france", "name": "France", "color": "#2b4a8b", "text": "#ffffff"},
    ],
    "units": [
        {
            "id": "a1",
            "side": "austria",
            "type": "infantry",
            "name": "IR Kinsky",
            "steps": 3,
            "locale": "w",
            "approach": "e",
        },
        {
            "id": "a2",
            "side": "austria",
            "type": "infantry",
            "name": "IR Wallis",
            "steps": 3,
            "locale": "w",
            "approach": None,
        },
        {
            "id": "f1",
            "side": "france",
            "type": "infantry",
            "name": "9e Legere",
            "steps": 2,
            "locale": "e",
            "approach": "w",
        },
        {
            "id": "f2",
            "side": "france",
            "type": "infantry",
            "name": "40e Ligne",
            "steps": 2,
            "locale": "n",
            "approach": None,
        },
    ],
}


def prompt(page) -> str:
    return page.locator("#prompt").inner_text()


def wait_prompt(page, text: str) -> None:
    wait_text(page, "#prompt", text)


def hand_over(page, side: str) -> None:
    """The privacy screen covers everything; the named side takes the tablet."""
    page.wait_for_selector(f"#curtain:not([hidden]) #curtain-go[data-side='{side}']")
    assert page.locator("#play-panel").inner_text() == ""
    assert page.locator("#log-panel").inner_text() == ""
    assert page.locator("[data-piece]").count() == 0
    press(page, "#curtain-go")
    page.wait_for_selector("#curtain", state="hidden")


def press_text(page, selector: str, text: str) -> None:
    settle(page)
    page.locator(f"#dock {selector}", has_text=text).first.click()


def test_an_assault_and_a_blocked_maneuver_attack_passed_between_the_players(browser, site_url):
    app = open_app(browser, site_url + "?scenario=demo-fontanella")
    page = app.page
    open_scenario(page, SCENARIO)
    page.click("#new-game")
    # Whoever tapped New game, the first side to act takes the tablet behind the screen.
    page.wait_for_selector("#curtain:not([hidden]) #curtain-go, #prompt")
    covered_at_start = page.locator("#curtain:not([hidden])").count() == 1
    if covered_at_start:
        hand_over(page, "austria")
    wait_prompt(page, "Austria: assaults")
    # Austria sees its own blocks, the French ones as bare blocks: no name, no steps.
    assert page.locator("[data-piece='a1'][data-hidden='false']").count() == 1
    assert page.locator("[data-side='france'][data-hidden='true']").count() == 2
    assert "Legere" not in page.content() and "40e Ligne" not in page.content()
    # The objective East is France's: its star takes France's colour.
    assert page.locator("[data-holder='france']").count() == 1
    # Assault from West's approach facing East (1 command): a tap on the lit approach.
    page.wait_for_selector("#area-map [data-lit='w/e']", state="attached")
    tap_center(page, "#area-map [data-lit='w/e']")
    wait_prompt(page, "choose the leading blocks")
    press_text(page, "[data-action='lead']", "IR Kinsky")
    # France chooses its leading blocks: the tablet goes over.
    hand_over(page, "france")
    wait_prompt(page, "France: the assault from")
    assert page.locator("[data-piece='a1'][data-hidden='false']").count() == 1  # revealed
    assert "IR Wallis" not in page.content()  # Austria's other block stays hidden
    press_text(page, "[data-action='lead']", "9e Legere")
    # 3 - 0 artillery - 1 terrain - 2 = 0: the defender wins; losses 1 each.
    hand_over(page, "austria")
    log = page.locator("#log-panel").inner_text()
    assert "Assault: 3 - 0 - 1 - 2 = 0; France wins" in log
    assert page.locator("[data-piece='a1']").get_attribute("data-hidden") == "false"
    # The notes tie pursuit to no result: the attacker is asked even after a defeat.
    press_text(page, "[data-action='pursue']", "No pursuit")
    press(page, "#dock [data-action='end_phase']")
    wait_prompt(page, "Austria: movement, 2 commands left")
    # Wallis (tap) into North, held by France: a maneuver attack the French reserve may block.
    # Wallis stands beside Kinsky in West, not under it: the tap selects it, no list to pick.
    tap_center(page, "#area-map [data-piece='a2']")
    page.wait_for_selector("#area-map [data-lit='n']", state="attached")
    assert page.locator("#picker").count() == 0
    tap_center(page, "#area-map [data-locale='n']")
    hand_over(page, "france")
    wait_prompt(page, "France: block the attack from West into North?")
    press_text(page, "[data-action='block']", "40e Ligne")
    hand_over(page, "austria")
    log = page.locator("#log-panel").inner_text()
    assert "France blocks the attack from West at North" in log
    # The blocked group stops on West's approach facing North, face to face with the blocker.
    assert "Austria: movement, 1 command left" in prompt(page)
    app.assert_no_errors()
    assert covered_at_start, "a new private game shows the first side's blocks uncovered"
    app.context.close()
