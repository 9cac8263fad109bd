"""The play panel on a tablet (820×1180, touch), for every demo: a whole player turn taken
from the docked prompt without scrolling the panel, the stack picker, a preview with its bar
chart, a chance point with every face's result, the log's look-back and its text export, no
raw key, id or code on screen in any language, controls and counter text big enough."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from apppage import open_app, settle

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
W, H = 820, 1180
DEMOS = ("demo-valmont", "demo-hohenbrueck", "demo-fontanella")
LANGS = ("en", "pl", "fr", "ja")
TABLET = {
    "viewport": {"width": W, "height": H},
    "device_scale_factor": 1,
    "has_touch": True,
    "is_mobile": True,
}


def scenario(demo: str) -> dict:
    return json.loads((ROOT / "py" / "muster" / "scenarios" / f"{demo}.json").read_text())


def open_demo(browser, site_url, demo: str, lang: str = "en"):
    app = open_app(browser, f"{site_url}?scenario={demo}&lang={lang}", **TABLET)
    return app


def shown(page) -> int:
    return int(page.evaluate("document.documentElement.dataset.shown || '0'"))


def in_view(page, locator) -> dict:
    """The box of ``locator``, asserted wholly inside the viewport (nothing scrolled)."""
    box = locator.bounding_box()
    assert box is not None, "not drawn"
    assert box["y"] >= 0 and box["y"] + box["height"] <= H + 0.5, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= W + 0.5, box
    return box


def tap(page, locator, wait: bool = True) -> None:
    """A finger's tap on ``locator``, which must be on screen; wait for the panel's answer."""
    before = shown(page)
    box = in_view(page, locator)
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    if wait:
        page.wait_for_function(f"Number(document.documentElement.dataset.shown) > {before}")
        page.wait_for_timeout(500)  # the panel ignores a second tap this soon (a double tap)


def on_screen(page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    return (
        bool(box)
        and box["x"] >= 0
        and box["x"] + box["width"] <= W
        and box["y"] >= 0
        and (box["y"] + box["height"] <= H)
    )


def tap_map(page, selector: str) -> None:
    """A tap on the map at the centre of ``selector`` (it must be on screen)."""
    box = in_view(page, page.locator(selector).first)
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def panel_unscrolled(page) -> None:
    assert page.evaluate("document.getElementById('panel').scrollTop") == 0
    assert page.evaluate("document.scrollingElement.scrollTop") == 0


def side_to_act(page) -> str | None:
    chip = page.locator("#dock .side-chip")
    return chip.get_attribute("data-side") if chip.count() else None


def reveal_if_covered(page) -> bool:
    go = page.locator("#curtain-go")
    if go.count() and go.is_visible():
        tap(page, go)
        page.wait_for_selector("#dock")
        return True
    return False


def move_by_map(page, area: bool) -> bool:
    """Move one unit by touch: tap a unit that may move, then a lit place. False if none."""
    picks = page.locator("#dock button.unit-pick")
    if area:
        blocks = page.locator("#dock button.action[data-action='select']")
        if not blocks.count():
            return False
        unit = blocks.first.get_attribute("data-unit")
        before = shown(page)
        tap_map(page, f"#area-map [data-piece='{unit}']")
        page.wait_for_function(
            f"Number(document.documentElement.dataset.shown) > {before}"
            " || document.getElementById('picker')"
        )
        if page.locator("#picker").count():  # blocks standing together: pick from the list
            tap(page, page.locator(f"#picker .pick-row[data-unit='{unit}']"))
        page.wait_for_timeout(500)
        lit = page.locator("#area-map [data-lit]:not([data-lit*='/'])")
        # A lit locale wholly on screen (the map opens on every block: a locale at its edge
        # may run past the screen's side).
        targets = [lit.nth(i).get_attribute("data-lit") for i in range(lit.count())]
        targets = [t for t in targets if on_screen(page, f"#area-map [data-locale='{t}']")]
        if not targets:
            return False
        target = targets[0]
        before = shown(page)
        tap_map(page, f"#area-map [data-locale='{target}']")
        page.wait_for_function(f"Number(document.documentElement.dataset.shown) > {before}")
        page.wait_for_timeout(500)
        return True
    if not picks.count():
        return False
    for i in range(picks.count()):
        unit = picks.nth(i).get_attribute("data-unit")
        counter = page.locator(f"#map [data-unit='{unit}']").first
        box = counter.bounding_box()
        if not box or box["y"] < 0 or box["y"] + box["height"] > H:
            continue
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + 8)
        page.wait_for_selector("#dock .selected-bar, #picker")
        if page.locator("#picker").count():  # a stack: pick the unit from the list
            page.locator("#picker .pick-row").first.click()
            page.wait_for_selector("#dock .selected-bar")
        page.wait_for_selector("#map .hm-lit[data-lit]", state="attached")
        lit = page.locator("#map .hm-lit[data-lit]")
        for j in range(lit.count()):
            b = lit.nth(j).bounding_box()
            across = b and b["x"] >= 0 and b["x"] + b["width"] <= W
            if across and b["y"] >= 0 and b["y"] + b["height"] <= H * 0.5:
                before = shown(page)
                page.touchscreen.tap(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
                page.wait_for_function(f"Number(document.documentElement.dataset.shown) > {before}")
                page.wait_for_timeout(500)
                return True
        tap(page, page.locator("#unselect"), wait=False)
    return False


def play_a_turn(page, area: bool = False) -> list[str]:
    """Take a whole player turn from the dock, by touch, never scrolling; the prompts seen."""
    first = None
    prompts = []
    moved = False
    for _ in range(80):
        panel_unscrolled(page)
        if page.locator("#curtain:not([hidden])").count():
            break  # the privacy screen: the other side's turn
        side = side_to_act(page)
        if first is not None and side != first:
            break  # another side acts, or a die with no side (the next cup draw)
        first = first or side
        prompt = page.locator("#prompt")
        in_view(page, prompt)
        prompts.append(prompt.inner_text())
        if page.locator("#card-continue").count():
            tap(page, page.locator("#card-continue"))  # a result card: read, then put away
        elif page.locator("#preview").count():
            commit_in_view(page)  # the prompt and Commit in the panel, nothing scrolled
            tap(page, page.locator("#confirm"))
        elif page.locator("#picker").count():
            tap(page, page.locator("#picker .pick-row").first)
        elif page.locator("#roll").count():
            tap(page, page.locator("#roll"))
        elif not moved and move_by_map(page, area):
            moved = True
        elif page.locator("#dock button.facing").count():
            tap(page, page.locator("#dock button.facing").first)
        elif page.locator("#dock button.end").count():
            tap(page, page.locator("#dock button.end").first)
        else:
            action = page.locator("#dock button.action").first
            fight = "fight" in (action.get_attribute("class") or "").split()
            tap(page, action, wait=not fight)
            if fight:  # a fight is previewed first: its Commit is tapped next
                page.wait_for_selector("#preview")
    else:
        pytest.fail("the turn never ended: " + " | ".join(prompts[-5:]))
    assert moved, "no unit was moved by touch: " + " | ".join(prompts)
    return prompts


@pytest.mark.parametrize("demo", DEMOS)
def test_a_whole_turn_from_the_docked_prompt(browser, site_url, demo):
    app = open_demo(browser, site_url, demo)
    page = app.page
    try:
        tap(page, page.locator("#new-game"))
        reveal_if_covered(page)
        first = side_to_act(page)
        prompts = play_a_turn(page, area=demo == "demo-fontanella")
        assert len(prompts) >= 2
        # The turn passed: another side acts, or the tablet goes to it behind the curtain.
        reveal_if_covered(page)
        if demo != "demo-valmont":  # Valmont's next marker may be the same side's again
            assert side_to_act(page) != first
        app.assert_no_errors()
    finally:
        app.context.close()


def test_every_control_is_44_px_and_counter_text_11_px(browser, site_url):
    for demo in DEMOS:
        app = open_demo(browser, site_url, demo)
        page = app.page
        try:
            tap(page, page.locator("#new-game"))
            reveal_if_covered(page)
            small = page.evaluate(
                """() => [...document.querySelectorAll(
                    'button, select, summary, .file-button, input:not([hidden])')]
                  .filter((e) => e.offsetParent !== null)
                  .map((e) => [e.id || e.className || e.tagName, e.getBoundingClientRect()])
                  .filter(([, r]) => r.width > 0 && (r.width < 44 || r.height < 44))
                  .map(([n, r]) => n + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))"""
            )
            assert small == [], (demo, small)
            sizes = page.evaluate(
                """() => [...document.querySelectorAll(
                    '#map .hm-unit text, #area-map .am-name, #map .hm-badge text,' +
                    '#area-map .am-badge text')]
                  .filter((t) => t.getBoundingClientRect().width > 0)
                  .map((t) => {
                    const m = t.getScreenCTM();
                    const fs = parseFloat(getComputedStyle(t).fontSize);
                    return fs * Math.hypot(m.a, m.b);
                  })"""
            )
            assert sizes, demo
            # The map opens framed on the units, never farther than the readable zoom.
            assert min(sizes) >= 11 - 0.05, (demo, min(sizes))
        finally:
            app.context.close()


def test_the_stack_picker_lists_each_unit_of_a_hex(browser, site_url):
    # Hohenbrück: IR 15 and the general Arnstedt stand together (the general drawn under
    # it); both may move, so a tap on the hex asks which.
    app = open_demo(browser, site_url, "demo-hohenbrueck")
    page = app.page
    try:
        tap(page, page.locator("#new-game"))
        # to the movement phase: end the rally phase if it is offered
        for _ in range(3):
            if page.locator("#dock button.unit-pick").count():
                break
            tap(page, page.locator("#dock button.end").first)
        sc = scenario("demo-hohenbrueck")
        hexes: dict[str, list[str]] = {}
        for u in sc["units"]:
            hexes.setdefault(u["hex"], []).append(u["id"])
        side = side_to_act(page)
        movers = {
            page.locator("#dock button.unit-pick").nth(i).get_attribute("data-unit")
            for i in range(page.locator("#dock button.unit-pick").count())
        }
        stack = next(
            h
            for h, ids in hexes.items()
            if len([i for i in ids if i in movers]) >= 2
            and all(u["side"] == side for u in sc["units"] if u["hex"] == h)
        )
        ids = [i for i in hexes[stack] if i in movers]
        tap_map(page, f"#map [data-unit='{ids[0]}']")
        page.wait_for_selector("#picker")
        rows = page.locator("#picker .pick-row")
        assert rows.count() == len(ids)
        names = {u["id"]: u["name"] for u in sc["units"]}
        assert sorted(rows.nth(i).inner_text() for i in range(rows.count())) == sorted(
            names[i] for i in ids
        )
        for i in range(rows.count()):
            assert rows.nth(i).bounding_box()["height"] >= 48
        # Picking the second of the list selects it and lights where it may go.
        under = ids[-1]
        tap(page, page.locator(f"#picker .pick-row[data-unit='{under}']"), wait=False)
        page.wait_for_selector(f"#dock .selected-bar[data-unit='{under}']")
        page.wait_for_selector("#map .hm-lit[data-lit]", state="attached")
        app.assert_no_errors()
    finally:
        app.context.close()


def test_a_preview_bar_chart_and_every_face_of_the_die(browser, site_url):
    # Valmont: draw the artillery reserve's marker from the cup and preview its fire.
    app = open_demo(browser, site_url, "demo-valmont")
    page = app.page
    try:
        tap(page, page.locator("#new-game"))
        faces = page.locator("#dock button.face")
        assert faces.count() == 8
        for i in range(faces.count()):
            assert faces.nth(i).locator(".face-p").inner_text().startswith("12.5")
            assert faces.nth(i).locator(".face-value").inner_text()
        fights = page.locator("#dock button.fight")
        for value in [faces.nth(i).get_attribute("data-value") for i in range(faces.count())]:
            tap(page, page.locator(f"#dock button.face[data-value='{value}']"))
            if fights.count():
                break
            # no fire for this formation: take the turn back and draw another
            tap(page, page.locator("#undo"))
        assert fights.count(), "no formation could fire"
        before = page.locator("#dock").inner_text()
        fights.first.click()
        page.wait_for_selector("#preview")
        tap(page, page.locator("#preview .modifiers-fold summary"), wait=False)  # folded
        rows = page.locator("#preview table.modifiers tr.modifier")
        assert rows.count() >= 1
        for i in range(rows.count()):
            cells = rows.nth(i).locator("td")
            assert cells.count() == 3 and all(cells.nth(j).inner_text() for j in (0, 1))
        bars = page.locator("#preview .outcome")
        assert bars.count() >= 2
        total = sum(
            float(bars.nth(i).locator(".odds").inner_text().rstrip("%").strip())
            for i in range(bars.count())
        )
        assert abs(total - 100) < 0.6
        widths = [
            bars.nth(i).locator(".odds-bar-fill").bounding_box()["width"]
            for i in range(bars.count())
        ]
        assert max(widths) > 0
        in_view(page, page.locator("#confirm"))
        tap(page, page.locator("#confirm"))
        # The fire's die: each face says what it does, then the roll.
        page.wait_for_selector("#roll")
        faces = page.locator("#dock button.face")
        assert faces.count() == 10
        results = [faces.nth(i).locator(".face-result").inner_text() for i in range(10)]
        assert all(results), results
        tap(page, page.locator("#dock button.face").first)
        assert page.locator("#dock").inner_text() != before
        app.assert_no_errors()
    finally:
        app.context.close()


def test_the_log_looks_back_and_exports_as_text(browser, site_url):
    app = open_demo(browser, site_url, "demo-hohenbrueck")
    page = app.page
    try:
        tap(page, page.locator("#new-game"))
        prompts = play_a_turn(page)
        assert move_by_map(page, False)  # the other side moves a unit too
        entries = page.locator("#log-panel button.log-entry")
        assert entries.count() >= 3
        now = page.locator("#map .hm-unit").evaluate_all(
            "(gs) => gs.map((g) => g.dataset.unit + '@' + g.dataset.at).sort()"
        )
        oldest = entries.last
        oldest.scroll_into_view_if_needed()
        oldest.click()
        page.wait_for_selector("#past")
        then = page.locator("#map .hm-unit").evaluate_all(
            "(gs) => gs.map((g) => g.dataset.unit + '@' + g.dataset.at).sort()"
        )
        assert then != now, (oldest.get_attribute("data-at"), prompts)  # a unit moved since
        assert page.locator("#dock button.action").count() == 0  # read only
        assert page.locator("#undo").is_disabled()
        # The oldest line was scrolled to: the player scrolls the panel back up to its dock.
        page.evaluate("document.getElementById('panel').scrollTop = 0")
        tap(page, page.locator("#back-to-game"), wait=False)
        page.wait_for_selector("#past", state="detached")
        back = page.locator("#map .hm-unit").evaluate_all(
            "(gs) => gs.map((g) => g.dataset.unit + '@' + g.dataset.at).sort()"
        )
        assert back == now
        with page.expect_download() as info:
            page.click("#export-log")
        text = Path(info.value.path()).read_text(encoding="utf-8")
        lines = [line for line in text.splitlines() if line.strip()]
        assert lines[0] == scenario("demo-hohenbrueck")["title"]["en"]
        assert len(lines) > 3
        assert not re.search(r"\b(log|prompt|action)\.[a-z_]+", text)
        app.assert_no_errors()
    finally:
        app.context.close()


def texts_of(value) -> list[str]:
    """A text of a scenario in each language it is given in (one text, or texts by language)."""
    return [str(v) for v in value.values()] if isinstance(value, dict) else [str(value)]


def raw_codes(demo: str) -> list[re.Pattern]:
    """What must never be on screen: message keys, ids of units, locales and sides, codes."""
    sc = scenario(demo)
    ids = [u["id"] for u in sc["units"]] + [s["id"] for s in sc["sides"]]
    ids += [f["id"] for f in sc.get("formations", [])]
    ids += [loc["id"] for loc in sc["map"].get("locales", [])]
    named = sc["units"] + sc["sides"] + sc.get("formations", []) + sc["map"].get("locales", [])
    # A name is one text or texts by language (docs/scenario-format.md): every language's.
    names = " ".join(t for x in named for t in texts_of(x["name"]))
    # an id that is also a word of a name (e.g. a locale "prati" in "Prati del Rio") is
    # checked case-sensitively only
    patterns = [
        re.compile(r"\b[a-z]+(_[a-z]+)*\.[a-z_]+[a-z]\b"),  # message keys like ui.foo
        re.compile(r"\{[a-z_]+\}"),  # an unfilled parameter
        re.compile(r"\b(hf|hh|al)_[a-z_]+\b"),  # system-prefixed ids
        re.compile(r"\[object Object\]|\bundefined\b|\bnull\b|\bNaN\b"),
    ]
    for i in ids:
        if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", names):
            continue
        patterns.append(re.compile(rf"(?<![\w-]){re.escape(i)}(?![\w-])"))
    return patterns


@pytest.mark.parametrize("lang", LANGS)
def test_no_raw_key_id_or_code_after_a_turn(browser, site_url, lang):
    for demo in DEMOS:
        app = open_demo(browser, site_url, demo, lang)
        page = app.page
        try:
            tap(page, page.locator("#new-game"))
            reveal_if_covered(page)
            play_a_turn(page, area=demo == "demo-fontanella")
            reveal_if_covered(page)
            text = page.locator("body").inner_text()
            bad = []
            for pattern in raw_codes(demo):
                for m in pattern.finditer(text):
                    start = max(0, m.start() - 30)
                    bad.append(text[start : m.end() + 30].replace("\n", " "))
            assert bad == [], (demo, lang, bad[:10])
            app.assert_no_errors()
        finally:
            app.context.close()


def moves_after_the_taps(page, at_least: int) -> int:
    """The game's count of moves once the taps' first action is in and the panel has been still
    for longer than a double tap (so a second action, had one been sent, would be in too)."""
    page.wait_for_function("n => window.muster.play.view.moves >= n", arg=at_least)
    settle(page)
    return page.evaluate("window.muster.play.view.moves")


def test_a_double_tap_takes_one_action(browser, site_url):
    app = open_demo(browser, site_url, "demo-hohenbrueck")
    page = app.page
    try:
        tap(page, page.locator("#new-game"))
        # The ending asks nothing here (units unmoved): the second tap lands on the next phase.
        page.evaluate("localStorage.setItem('muster.ask-unused', 'off')")
        moves = page.evaluate("window.muster.play.view.moves")
        end = page.locator("#dock button.end").first
        box = in_view(page, end)
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.touchscreen.tap(x, y)
        page.touchscreen.tap(x, y)  # the next phase's button now stands in the same place
        assert moves_after_the_taps(page, moves + 1) == moves + 1
        page.mouse.dblclick(x, y)
        assert moves_after_the_taps(page, moves + 2) == moves + 2
        app.assert_no_errors()
    finally:
        app.context.close()


# ---- Commit in view: every kind of preview, docked on a portrait tablet --------------------

# The longest words of the four languages (French), and English.
PREVIEW_LANGS = ("en", "fr")


def in_panel(page, locator) -> dict:
    """The box of ``locator``, on screen and inside the panel under the map (not slid under
    the map, nor below the screen's edge)."""
    box = in_view(page, locator)
    panel = page.locator("#panel").bounding_box()
    assert box["y"] >= panel["y"] - 0.5, (box, panel)
    assert box["y"] + box["height"] <= panel["y"] + panel["height"] + 0.5, (box, panel)
    return box


def commit_in_view(page) -> None:
    """A preview is docked: its prompt, title, Commit and Cancel are all on screen in the panel,
    with the panel never scrolled."""
    page.wait_for_selector("#preview #confirm")
    settle(page)
    panel_unscrolled(page)
    for selector in ("#prompt", "#preview .preview-title", "#confirm", "#cancel"):
        in_panel(page, page.locator(selector))


def preview(page, button) -> None:
    """Tap a fight's button: its preview docks with Commit in view."""
    tap(page, button, wait=False)
    commit_in_view(page)


def cancel_preview(page) -> None:
    tap(page, page.locator("#cancel"), wait=False)
    page.wait_for_selector("#preview", state="detached")
    settle(page)


def every_modifier_behind_the_fold(page) -> None:
    """The modifiers are folded under one line (total and count, 44 px high); a tap opens the
    list, each modifier with its value, reason and rule; Commit and the prompt stay in view."""
    answer = page.evaluate("window.muster.play.pending.answer")
    assert answer["modifiers"], "a preview with no modifier: nothing to fold"
    fold = page.locator("#preview details.modifiers-fold")
    assert fold.get_attribute("open") is None  # folded on a portrait tablet
    summary = fold.locator("summary")
    assert summary.bounding_box()["height"] >= 44
    words = summary.inner_text()
    assert str(len(answer["modifiers"])) in words, words
    assert page.locator("#preview tr.modifier").first.is_hidden()
    tap(page, summary, wait=False)
    page.wait_for_selector("#preview details.modifiers-fold[open]")
    rows = page.locator("#preview tr.modifier")
    assert rows.count() == len(answer["modifiers"]) >= 1
    for i in range(rows.count()):
        row = rows.nth(i)
        row.scroll_into_view_if_needed()  # within the preview's own part, if it is taller
        in_panel(page, row)
        cells = row.locator("td")
        assert all(cells.nth(j).inner_text().strip() for j in range(3)), row.inner_text()
        in_panel(page, page.locator("#confirm"))
        in_panel(page, page.locator("#prompt"))
    panel_unscrolled(page)


def open_own(page, data: dict) -> None:
    """Open a scenario from a file, as Open scenario… does, in any language."""
    file = {"name": "s.json", "mimeType": "application/json", "buffer": json.dumps(data).encode()}
    page.set_input_files("#scenario-file", files=[file])
    page.wait_for_function(
        "id => document.querySelector('#ask[open]') || window.muster.state.scenario.id === id",
        arg=data["id"],
    )
    if page.locator("#ask[open]").count():  # a game in progress stays in Saved games: asked
        page.tap("#ask-ok")
    page.wait_for_function(
        "id => window.muster.state.scenario.id === id && !!document.querySelector('#new-game')",
        arg=data["id"],
    )


def to_button(page, selector: str, tries: int = 8):
    """End steps and phases until a button matching ``selector`` is in the dock. What the
    dice ask on the way is answered: a die rolled (a leader's loss check after a
    bombardment), a forced choice taken (the hex a unit the bombardment routed retreats to)."""
    for _ in range(tries):
        settle(page)
        if page.locator(selector).count():
            return page.locator(selector)
        for way in ("#roll", "#dock button.end", "#dock button.action"):
            if page.locator(way).count():
                tap(page, page.locator(way).first)
                break
        else:
            raise AssertionError(page.locator("#dock").inner_text())
    raise AssertionError(f"no {selector} in the dock: {page.locator('#prompt').inner_text()}")


@pytest.mark.parametrize("lang", PREVIEW_LANGS)
def test_commit_in_view_for_valmont_fire_melee_and_charge(browser, site_url, lang):
    app = open_demo(browser, site_url, "demo-valmont", lang)
    page = app.page
    try:
        # Fire: the first formation drawn from the cup that has a gun in range.
        tap(page, page.locator("#new-game"))
        faces = page.locator("#dock button.face")
        for value in [faces.nth(i).get_attribute("data-value") for i in range(faces.count())]:
            tap(page, page.locator(f"#dock button.face[data-value='{value}']"))
            if page.locator("#dock button.fight").count():
                break
            tap(page, page.locator("#undo"))
        fires = page.locator("#dock button.fight[data-action='fire']")
        assert fires.count()
        preview(page, fires.first)
        every_modifier_behind_the_fold(page)
        cancel_preview(page)
        # Melee and a charge: the cuirassiers start facing the Grenzer across the Aubach.
        sc = scenario("demo-valmont")
        sc["id"] = "valmont-contact"
        for unit in sc["units"]:
            if unit["id"] == "fr-c-1":
                unit["hex"], unit["facing"] = "0604", 2
        open_own(page, sc)
        tap(page, page.locator("#new-game"))
        tap(page, page.locator("#dock button.face[data-value='fr-cav']"))
        fights = to_button(page, "#dock button.fight[data-action='melee']")
        kinds = set()
        for i in range(page.locator("#dock button.fight").count()):
            button = page.locator("#dock button.fight").nth(i)
            kinds.add(button.inner_text())  # "… attack 0704 in melee", "… charge 0704"
            preview(page, button)
            # The list opened on an earlier preview stays open: Commit is still in view.
            assert page.locator("#preview details.modifiers-fold[open]").count() == 1
            cancel_preview(page)
        assert len(kinds) >= 2, kinds  # a melee and a charge
        preview(page, fights.first)
        tap(page, page.locator("#confirm"))
        page.wait_for_selector("#dock button.face")
        app.assert_no_errors()
    finally:
        app.context.close()


@pytest.mark.parametrize("lang", PREVIEW_LANGS)
def test_commit_in_view_for_hohenbrueck_bombardment_and_close_combat(browser, site_url, lang):
    app = open_demo(browser, site_url, "demo-hohenbrueck", lang)
    page = app.page
    try:
        # Kür. 5 and IR 15 with Arnstedt face IR 4 across open ground (test_close_combat).
        from test_close_combat import contact_scenario

        open_own(page, contact_scenario())
        tap(page, page.locator("#new-game"))
        bombard = to_button(page, "#dock button.fight[data-action='bombard']")
        preview(page, bombard.first)
        if page.evaluate("window.muster.play.pending.answer.modifiers.length") == 0:
            # No modifier: the line says so, and there is nothing to open.
            assert page.locator("#preview details.modifiers-fold").count() == 0
            assert "0" in page.locator("#preview .modifiers-summary").inner_text()
        tap(page, page.locator("#confirm"))
        page.wait_for_selector("#roll")
        tap(page, page.locator("#roll"))
        attack = to_button(page, "#dock button.action[data-action='attack']")
        tap(page, attack.first)
        # Step 1, the attack designated: previewed, committed.
        preview(page, page.locator("#dock button.fight[data-action='confirm']"))
        tap(page, page.locator("#confirm"))
        # Step 4, the lead unit; step 5, the terrain: previewed, committed.
        tap(page, page.locator("#dock [data-action='lead']").first)
        preview(page, page.locator("#dock button.fight[data-action='terrain']").first)
        every_modifier_behind_the_fold(page)
        tap(page, page.locator("#confirm"))
        page.wait_for_selector("#dock button.face")
        app.assert_no_errors()
    finally:
        app.context.close()


@pytest.mark.parametrize("lang", PREVIEW_LANGS)
def test_fontanella_assault_asks_in_view(browser, site_url, lang):
    """An area map previews no fight: its assault asks each side for its leading blocks, the
    prompt and every choice of it on screen in the panel, never scrolled."""
    from test_area_play import SCENARIO

    app = open_demo(browser, site_url, "demo-fontanella", lang)
    page = app.page
    try:
        open_own(page, SCENARIO)
        tap(page, page.locator("#new-game"))
        reveal_if_covered(page)
        tap_map(page, "#area-map [data-lit='w/e']")
        for _ in range(2):  # the attacker's lead, then the defender's behind the screen
            page.wait_for_selector("#dock [data-action='lead']")
            settle(page)
            panel_unscrolled(page)
            in_panel(page, page.locator("#prompt"))
            leads = page.locator("#dock [data-action='lead']")
            for i in range(leads.count()):
                in_panel(page, leads.nth(i))
            tap(page, leads.first)
            reveal_if_covered(page)
        app.assert_no_errors()
    finally:
        app.context.close()
