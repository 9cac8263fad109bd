"""A countercharge (hex-facing rule 9.4) played on the tablet, by touch: the French hussars
charge cavalry that faces them, the Austrian player is asked in words whether to
countercharge, sees the modifiers and the odds of each answer, and the melee is rolled
digitally; a second game declines and the charge goes on as before (the hussars pursue, 9.5);
a third, with the die typed in, has the countercharging cavalry pursue hussars that fall back
(9.5)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from apppage import open_app, open_scenario, settle, tablet, wait_text
from touch import Fingers

pytestmark = pytest.mark.e2e

W, H = 820, 1180

# The charge: 7e Hussards in 0604 facing east charge 0704 across the Aubach, where
# Chevaulegers 3 (cavalry in good order) face west at them; the Grenzer who stood in 0704
# take the Chevaulegers' place far away.
CHARGER, CHARGER_NAME, FROM = "fr-c-2", "7e Hussards", "0604"
DEFENDER, DEFENDER_NAME, TARGET = "au-c-2", "Chevaulegers 3", "0704"
PLACES = {CHARGER: (FROM, 2), DEFENDER: (TARGET, 8), "au-1-4": ("1409", 8)}

QUESTION = (
    f"Defender: do {DEFENDER_NAME} countercharge the charge of {CHARGER_NAME} on {TARGET}?"
    " (rule: 9.4; the aid names it without the details: the app assumes them)"
)
COUNTERCHARGE = (
    f"{DEFENDER_NAME} countercharge from {TARGET} (rule: 9.4; procedure assumed by the app)"
)
DECLINE = f"{DEFENDER_NAME} stand to receive the charge on {TARGET}"
PURSUIT_RULE = "(rule: 9.5; procedure assumed by the app)"
PURSUIT = "pursuit (cavalry must advance, then tests its cohesion)"
LOGGED = (
    f"{DEFENDER_NAME} countercharge the charge of {CHARGER_NAME} on {TARGET}"
    " (rule: 9.4; procedure assumed by the app; modifiers 1)"
)

# What must never reach the screen: unit, formation and side ids; message keys; an unfilled
# parameter; a value the page could not word.
RAW = [
    re.compile(r"(?<![\w-])(fr|au)-[a-z0-9-]+"),
    re.compile(r"\b(act|action|choice|prompt|log|chance|why|ui|error|ref|purpose)\.[a-z_]+"),
    re.compile(r"\b[a-z]+(_[a-z]+)*\.[a-z_]+[a-z]\b"),
    re.compile(r"\b(hf|hh|al)_[a-z_]+\b"),
    re.compile(r"\{[a-z_]+\}"),
    re.compile(r"\[object Object\]|\bundefined\b|\bnull\b|\bNaN\b"),
    re.compile(r"(?<![\w-])(france|austria|no_countercharge)(?![\w-])"),
]


@pytest.fixture(scope="module")
def app(browser, site_url):
    opened = open_app(browser, site_url + "?scenario=demo-valmont", **tablet())
    page = opened.page
    scenario = json.loads(page.evaluate("JSON.stringify(window.muster.state.scenario)"))
    for unit in scenario["units"]:
        if unit["id"] in PLACES:
            unit["hex"], unit["facing"] = PLACES[unit["id"]]
    open_scenario(page, scenario)
    opened.fingers = Fingers(page)
    yield opened
    opened.context.close()


# -- a finger on the tablet -------------------------------------------------------------------


def on_screen(app, locator, within: str | None = "#panel") -> dict:
    """The box of ``locator`` (in the panel), brought into the panel's visible part first as
    a player does: a finger drags the panel up when it lies below the bottom of the screen,
    down when it has scrolled up under the map."""
    page = app.page
    panel = page.locator(within).bounding_box() if within else {"y": 0, "height": H}
    top, bottom = panel["y"], min(H, panel["y"] + panel["height"])
    box = locator.bounding_box()
    assert box is not None, "not drawn"
    for _ in range(4):
        if box["y"] + box["height"] > bottom:
            by = box["y"] + box["height"] - bottom + 60
            app.fingers.drag([(W - 40, bottom - 40), (W - 40, max(top + 10, bottom - 40 - by))])
        elif box["y"] < top:
            by = top - box["y"] + 60
            app.fingers.drag([(W - 40, top + 40), (W - 40, min(bottom - 10, top + 40 + by))])
        else:
            break
        settle(page)
        box = still(page, locator)
    assert top <= box["y"] and box["y"] + box["height"] <= bottom, (box, top, bottom)
    assert box["x"] >= 0 and box["x"] + box["width"] <= W, box
    return box


def still(page, locator) -> dict:
    """The box of ``locator`` once the panel has stopped scrolling (a flick glides on)."""
    box = locator.bounding_box()
    for _ in range(20):
        page.wait_for_timeout(100)
        now = locator.bounding_box()
        if now == box:
            return now
        box = now
    raise AssertionError(f"still scrolling: {box}")


def tap(app, locator, within: str | None = "#panel") -> None:
    """A finger's tap on ``locator`` once the panel has settled (it ignores a second tap of a
    double tap)."""
    settle(app.page)
    box = on_screen(app, locator, within)
    app.page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def tap_at(app, selector: str, within: str | None = "#panel") -> None:
    tap(app, app.page.locator(selector).first, within)


def tap_map(app, label: str) -> None:
    """A tap on hex ``label`` of the map, which must be on screen."""
    settle(app.page)
    box = app.page.locator(f"#map [data-hex='{label}']").first.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    board = app.page.locator("#map").bounding_box()
    assert 0 <= x <= W and board["y"] <= y <= board["y"] + board["height"], (label, x, y)
    app.page.touchscreen.tap(x, y)


# -- what the player reads --------------------------------------------------------------------


def no_raw_text(page, where: str = "#panel") -> None:
    """No id, message key or unfilled parameter in ``where``: the player reads words."""
    text = page.locator(where).inner_text()
    bad = [
        text[max(0, m.start() - 30) : m.end() + 30].replace("\n", " ")
        for pattern in RAW
        for m in pattern.finditer(text)
    ]
    assert bad == [], bad


def prompt(page) -> str:
    return page.locator("#prompt").inner_text()


def log_text(page) -> str:
    return page.locator("#log-panel").inner_text()


def outcomes(page) -> list[tuple[str, float]]:
    """Each result of the preview with its chance, as a percentage."""
    rows = page.locator("#preview .outcomes li.outcome")
    texts = rows.locator(".outcome-text").all_inner_texts()
    odds = [float(x.rstrip("% ")) for x in rows.locator(".odds").all_inner_texts()]
    assert len(texts) == len(odds) >= 2 and abs(sum(odds) - 100) < 0.5
    return list(zip(texts, odds, strict=True))


def modifiers(page) -> list[tuple[str, str]]:
    """The preview's modifiers: value and why, each with where it comes from; the total last.
    Folded under their total on the tablet, they are opened first, as a player taps to."""
    folded = page.locator("#preview details.modifiers-fold:not([open]) > summary")
    if folded.count():
        settle(page)
        folded.tap()
        page.wait_for_selector("#preview details.modifiers-fold[open]")
    table = page.locator("#preview table.modifiers")
    rows = table.locator("tr.modifier")
    assert rows.count() >= 2
    assert all(r.strip() for r in rows.locator("td.rule").all_inner_texts())
    values = rows.locator(".part-value").all_inner_texts()
    whys = rows.locator(".part-text").all_inner_texts()
    return [
        *zip(values, whys, strict=True),
        ("total", table.locator("tr.total .part-value").inner_text()),
    ]


def faces(page) -> dict[str, str]:
    """What each face of the die does, read on its button before the roll."""
    said = {}
    for button in page.locator("#dock button.face").all():
        said[button.get_attribute("data-value")] = button.locator(".face-result").inner_text()
    return said


# -- the game up to the question --------------------------------------------------------------


def to_the_charge(app) -> tuple[list, list]:
    """A new game: the cup draws the French cavalry, its fire and movement are passed, and the
    charge on 0704 is tapped on the map, picked and previewed; the preview's modifiers and
    outcomes. The charge is not committed yet."""
    page = app.page
    tap_at(app, "#new-game")
    page.wait_for_timeout(300)
    if page.locator("#ask[open]").count():  # the game before is left: asked first
        tap_at(app, "#ask-ok", within=None)
    page.wait_for_selector("#roll")
    tap_at(app, "#dock button.face[data-value='fr-cav']")
    wait_text(page, "#prompt", "movement")  # no artillery fire: the step passed by itself
    tap_at(app, "#dock [data-action='next_step']")
    page.wait_for_selector("#ask-unused-end")  # the hussars have not moved: asked first
    tap_at(app, "#ask-unused-end")
    wait_text(page, "#prompt", "melee and charges")
    # The hussars may fight 0704 two ways: a tap on it asks which.
    tap_map(app, TARGET)
    page.wait_for_selector("#picker")
    assert page.locator("#picker h3").inner_text() == f"Several choices at {TARGET}: which one?"
    rows = page.locator("#picker .pick-row").all_inner_texts()
    assert sorted(rows) == sorted(
        [f"{CHARGER_NAME} attack {TARGET} in melee", f"{CHARGER_NAME} charge {TARGET}"]
    )
    no_raw_text(page)
    tap(app, page.locator("#picker .pick-row", has_text="charge"))
    page.wait_for_selector("#preview .outcomes")
    assert page.locator("#preview .preview-title").inner_text() == f"{CHARGER_NAME} charge {TARGET}"
    return modifiers(page), outcomes(page)


def to_the_question(app) -> tuple[list, list]:
    """The charge committed: the defender is asked whether to countercharge."""
    page = app.page
    charge = to_the_charge(app)
    tap_at(app, "#confirm")
    wait_text(page, "#prompt", "countercharge")
    settle(page)
    return charge


def the_question_is_asked(page) -> None:
    assert prompt(page) == QUESTION
    # The Austrian player decides now, and is told so.
    chip = page.locator("#dock .side-chip")
    assert chip.get_attribute("data-side") == "austria" and chip.inner_text() == "Austria to act"
    assert (
        page.locator("#dock .handover").inner_text() == "Hand the tablet to Austria: it decides now"
    )
    # Two answers in words: countercharge, or stand to receive the charge (the way on).
    assert page.locator("#dock .choice-label").all_inner_texts() == [f"Countercharge at {TARGET}"]
    assert (
        page.locator("#dock button.action[data-action='countercharge']").inner_text()
        == COUNTERCHARGE
    )
    assert page.locator("#dock button.end[data-action='no_countercharge']").inner_text() == DECLINE
    assert page.locator("#dock button.action").count() == 2
    # The charge waits on the answer: no die yet, and nothing logged of a countercharge.
    assert page.locator("#roll").count() == 0
    assert "countercharge" not in log_text(page)
    no_raw_text(page)


def the_melee_result(page, before: dict[str, str]) -> tuple[str, str]:
    """The face rolled (from the log) and the log's line of the melee result, checked against
    what that face said it would do."""
    wait_text(page, "#log-panel", "Melee: total")
    log = log_text(page)
    face = re.search(r"melee: (\d+) \(digital\)", log)
    assert face, log
    line = next(x for x in log.splitlines() if x.strip().startswith("Melee: total"))
    said = before[face.group(1)]
    total = re.match(r"total (-?\d+): ", said).group(1)
    assert line.strip() == "Melee: " + said.replace(f"total {total}: ", f"total {total} → ", 1)
    return face.group(1), line.strip()


def shown(page) -> int:
    """How many views the panel has shown (it counts them for the tests)."""
    return int(page.evaluate("document.documentElement.dataset.shown || '0'"))


def play_out(app, dice: tuple[str, ...] = ()) -> None:
    """Whatever the melee result asks next, by touch: the die of each cohesion test (a face
    typed in from ``dice`` in turn, else rolled digitally), the first lit hex of each
    retreat, the first pursuit or advance offered; until the hussars' brigade is asked for its
    melee and charges again."""
    page = app.page
    dice = list(dice)
    for _ in range(12):
        settle(page)
        asked = prompt(page)
        if "melee and charges" in asked:
            return
        no_raw_text(page)
        before = shown(page)
        if page.locator("#roll").count():
            tap_at(app, f"#dock button.face[data-value='{dice.pop(0)}']" if dice else "#roll")
        elif "retreats into" in asked:
            tap_map(app, page.locator("#map .hm-lit[data-lit]").first.get_attribute("data-lit"))
        else:
            tap_at(app, "#dock button.action:not(.end)")
        page.wait_for_function(f"Number(document.documentElement.dataset.shown) > {before}")
    raise AssertionError(f"the melee did not end: {prompt(page)}")


# -- the tests --------------------------------------------------------------------------------


def test_the_defender_countercharges(app):
    page = app.page
    charge_modifiers, charge_outcomes = to_the_question(app)
    # The charge's own preview: +1 in all, and the hussars' charge bonus among the reasons.
    assert charge_modifiers[-1] == ("total", "+1")
    assert ("+1", "Charge by cavalry that is not heavy") in charge_modifiers
    # The question comes into view at its top, with who acts, though the finger left the
    # panel scrolled down to reach Commit: no drag needed to read it.
    settle(page)
    panel, head = (
        page.locator("#panel").bounding_box(),
        still(page, page.locator("#dock .dock-head")),
    )
    assert panel["y"] <= head["y"] and head["y"] + head["height"] <= min(
        H, panel["y"] + panel["height"]
    )
    the_question_is_asked(page)
    if os.environ.get("MUSTER_SHOTS"):
        page.screenshot(path=str(Path(os.environ["MUSTER_SHOTS"]) / "countercharge.png"))

    tap_at(app, "#dock button.action[data-action='countercharge']")
    page.wait_for_selector("#preview .outcomes")
    assert page.locator("#preview .preview-title").inner_text() == COUNTERCHARGE
    # The charge keeps its bonus (procedures.countercharge.charge_bonus: kept): the same
    # modifiers; the results differ where the Chevaulegers may pursue hussars that fall back.
    assert modifiers(page) == charge_modifiers
    odds = outcomes(page)
    assert odds != charge_outcomes
    pursue = [(text, p) for text, p in odds if text.startswith("defender: pursuit")]
    assert pursue and all("attacker: disordered, retreats" in text for text, _ in pursue)
    assert not [t for t, _ in charge_outcomes if t.startswith("defender: pursuit")]
    no_raw_text(page)

    tap_at(app, "#confirm")
    wait_text(page, "#log-panel", LOGGED)
    page.wait_for_selector("#roll")
    settle(page)
    assert prompt(page) == (
        f"Charge of {CHARGER_NAME} against {TARGET}, countercharged by {DEFENDER_NAME}:"
        " roll the die (modifiers 1)"
    )
    # Each face says what it does; on 0-4 the countercharging cavalry pursues hussars that
    # fall back.
    before = faces(page)
    assert len(before) == 10 and all(before.values())
    later = {f: r for f, r in before.items() if "countercharging cavalry" in r}
    totals = sorted(int(re.match(r"total (-?\d+)", r).group(1)) for r in later.values())
    assert totals == [1, 2, 3, 4]
    assert all(
        r.endswith(
            "; if the attacker falls back, the countercharging cavalry: pursuit"
            " (cavalry must advance, then tests its cohesion)"
        )
        for r in later.values()
    )
    no_raw_text(page)

    tap_at(app, "#roll")  # rolled digitally
    face, line = the_melee_result(page, before)
    assert (face in later) == ("if the attacker falls back, the countercharging cavalry" in line)
    play_out(app)
    log = log_text(page)
    assert LOGGED in log
    if re.search(rf"{CHARGER_NAME} retreats {FROM} → \d{{4}}", log) and face in later:
        # The hussars fell back: the Chevaulegers pursued them (9.5).
        assert f"{DEFENDER_NAME} advances {TARGET} → {FROM} in pursuit {PURSUIT_RULE}" in log
    no_raw_text(page)
    app.assert_no_errors()


def test_the_defender_stands_to_receive_the_charge(app):
    page = app.page
    charge_modifiers, charge_outcomes = to_the_question(app)
    the_question_is_asked(page)

    tap_at(app, "#dock button.end[data-action='no_countercharge']")
    page.wait_for_selector("#preview .outcomes")
    assert page.locator("#preview .preview-title").inner_text() == DECLINE
    # Standing, the melee is the charge as it was declared: the same modifiers and odds.
    assert modifiers(page) == charge_modifiers
    assert outcomes(page) == charge_outcomes
    no_raw_text(page)

    tap_at(app, "#confirm")
    page.wait_for_selector("#roll")
    settle(page)
    assert prompt(page) == f"Charge of {CHARGER_NAME} against {TARGET}: roll the die (modifiers 1)"
    before = faces(page)
    assert not [r for r in before.values() if "countercharging" in r]
    assert before["9"] == f"total 10: defender retreat 1 hex, disordered; attacker {PURSUIT}"
    no_raw_text(page)

    tap_at(app, "#dock button.face[data-value='9']")  # a real die showing 9: total 10
    wait_text(page, "#log-panel", "Melee: total")
    assert f"Melee: total 10 → defender retreat 1 hex, disordered; attacker {PURSUIT}" in log_text(
        page
    )
    # The Chevaulegers' owner picks where they retreat; the hussars pursue into 0704.
    wait_text(page, "#prompt", f"Choose the hex {DEFENDER_NAME} retreats into")
    assert page.locator("#dock .side-chip").get_attribute("data-side") == "austria"
    to = page.locator("#map .hm-lit[data-lit]").first.get_attribute("data-lit")
    tap_map(app, to)
    wait_text(page, "#log-panel", f"{DEFENDER_NAME} retreats {TARGET} → {to}")
    play_out(app)
    log = log_text(page)
    assert f"{CHARGER_NAME} advances {FROM} → {TARGET} in pursuit {PURSUIT_RULE}" in log
    assert page.locator(f"#map [data-unit='{CHARGER}']").first.get_attribute("data-at") == TARGET
    assert "countercharge" not in log
    no_raw_text(page)
    app.assert_no_errors()


def test_the_countercharging_cavalry_pursues_hussars_that_fall_back(app):
    page = app.page
    to_the_question(app)
    tap_at(app, "#dock button.action[data-action='countercharge']")
    page.wait_for_selector("#preview .outcomes")
    tap_at(app, "#confirm")
    page.wait_for_selector("#roll")
    # A real die showing 0: total 1, the hussars are disordered and test their cohesion; a 9
    # fails it, they fall back one hex and the Chevaulegers pursue (9.5), then test theirs.
    tap_at(app, "#dock button.face[data-value='0']")
    wait_text(page, "#prompt", f"Cohesion test of {CHARGER_NAME}: passes on 7 or less")
    tap_at(app, "#dock button.face[data-value='9']")
    wait_text(page, "#prompt", f"Choose the hex {CHARGER_NAME} retreats into")
    assert page.locator("#dock .side-chip").get_attribute("data-side") == "france"
    to = page.locator("#map .hm-lit[data-lit]").first.get_attribute("data-lit")
    tap_map(app, to)
    wait_text(page, "#log-panel", f"{CHARGER_NAME} retreats {FROM} → {to}")
    wait_text(page, "#prompt", f"Cohesion test of {DEFENDER_NAME}")
    play_out(app, ("0",))
    log = [x.strip() for x in log_text(page).splitlines()]
    pursued = f"{DEFENDER_NAME} advances {TARGET} → {FROM} in pursuit {PURSUIT_RULE}"
    assert log[2 : log.index(LOGGED) + 1] == [
        f"{DEFENDER_NAME} passes its cohesion test (0 ≤ 7)",
        "cohesion test: 0 (at the table)",
        pursued,
        f"{CHARGER_NAME} retreats {FROM} → {to}",
        f"{CHARGER_NAME} fails its cohesion test (9 > 7)",
        "cohesion test: 9 (at the table)",
        f"{CHARGER_NAME} is now disordered",
        "Melee: total 1 → defender no effect; attacker disordered, cohesion test (if failed,"
        " retreat 1 hex); if the attacker falls back, the countercharging cavalry: " + PURSUIT,
        "melee: 0 (at the table)",
        LOGGED,
    ]
    assert page.locator(f"#map [data-unit='{DEFENDER}']").first.get_attribute("data-at") == FROM
    assert page.locator(f"#map [data-unit='{CHARGER}']").first.get_attribute("data-at") == to
    no_raw_text(page)
    app.assert_no_errors()
