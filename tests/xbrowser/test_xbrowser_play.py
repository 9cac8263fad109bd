"""In WebKit and Firefox, at the tablet's size, by taps: a player turn of each demo through the
panel and the map, a fight's preview with its odds, a die, undo and redo, a reload that resumes
the saved game, and the settings, rules and keyboard dialogs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from xbapp import App

pytestmark = pytest.mark.xbrowser

ROOT = Path(__file__).resolve().parents[2]
ESCAPE = "\ue00c"  # WebDriver's Escape key


def scenario(name: str) -> dict:
    return json.loads((ROOT / "py" / "muster" / "scenarios" / f"{name}.json").read_text())


def answer_if_asked(app: App) -> None:
    """Go ahead at the question asked before a game in progress leaves the screen."""
    d = app.d
    d.settle()
    if d.count("#ask[open]"):
        d.press("#ask-ok")
        d.wait_gone("#ask[open]")


def new_game(app: App) -> None:
    app.d.press("#new-game")
    answer_if_asked(app)


def unit_at(app: App, unit: str) -> str | None:
    return app.d.attr(f"#map [data-unit='{unit}']", "data-at")


def wait_unit_at(app: App, unit: str, hex_: str) -> None:
    app.d.wait_for(
        "(u, h) => { const c = document.querySelector(`#map [data-unit='${u}']`);"
        " return !!c && c.dataset.at === h; }",
        unit,
        hex_,
        what=f"{unit} at {hex_}",
    )


def tap_map(app: App, selector: str) -> None:
    """A tap on the map at the centre of what ``selector`` finds there (a unit, a hex)."""
    app.d.press(selector, hit=False)


def odds_on_screen(app: App) -> list[float]:
    """The chance of each result in the preview, as percentages."""
    texts = app.d.call(
        "() => [...document.querySelectorAll('#preview .outcomes li.outcome .odds')]"
        ".map(e => e.textContent)"
    )
    return [float(t.strip().rstrip("%")) for t in texts]


def roll_out(app: App) -> None:
    """Roll (digitally) whatever dice the result still calls for."""
    d = app.d
    for _ in range(8):
        d.settle()
        if not d.count("#roll") or "marker" in d.text("#prompt"):
            return
        d.press("#roll")
    raise AssertionError("the dice never ended")


def test_valmont_a_cup_draw_a_move_by_the_map_undo_redo_and_a_fire_with_its_odds(app: App):
    d = app.d
    app.open("?scenario=demo-valmont&lang=en")
    new_game(app)
    d.wait_selector("#roll")
    # The cup: the marker drawn at the table, typed in on the panel.
    d.press("#play-panel button.face[data-value='fr-bde1']")
    d.wait_text("#prompt", "movement")  # no gun: its artillery fire passed by itself
    # 1/8e Ligne moves by taps on the map, then faces east on the panel.
    tap_map(app, "#map [data-unit='fr-1-1']")
    d.wait_selector("#map .hm-lit[data-lit='0604']")
    tap_map(app, "#map svg [data-hex='0604']")
    d.wait_text("#prompt", "choose its facing")
    d.press("#dock button.facing[data-facing='2']")
    d.wait_text("#log-panel", "1/8e Ligne faces east (hexside)")
    assert "1/8e Ligne moves 0404 → 0604 (2 MP)" in d.text("#log-panel")
    assert unit_at(app, "fr-1-1") == "0604"
    # Undo the facing, then the move; redo the move.
    d.press("#undo")
    d.wait_text("#prompt", "choose its facing")
    d.press("#undo")
    wait_unit_at(app, "fr-1-1", "0404")
    d.press("#redo")
    d.wait_text("#prompt", "choose its facing")
    assert unit_at(app, "fr-1-1") == "0604"
    # A new game, to a formation that can fire: its preview, its odds, then a die.
    new_game(app)
    d.wait_selector("#dock button.face")
    faces = d.call(
        "() => [...document.querySelectorAll('#dock button.face')].map(b => b.dataset.value)"
    )
    for face in faces:
        d.press(f"#dock button.face[data-value='{face}']")
        d.settle()
        if d.count("#dock button.fight"):
            break
        d.press("#undo")
    else:
        raise AssertionError("no formation could fire")
    d.press("#dock button.fight")
    d.wait_selector("#preview .outcomes")
    d.press("#preview .modifiers-fold > summary")  # folded under their total on the tablet
    d.wait_selector("#preview .modifiers-fold[open]")
    assert "Fire strength" in d.text("#preview table.modifiers")
    odds = odds_on_screen(app)
    assert len(odds) >= 2 and abs(sum(odds) - 100) < 0.5, odds
    d.press("#confirm")
    d.wait_selector("#roll")
    d.press("#roll")
    d.wait_text("#log-panel", "Fire: total ")
    assert "(digital)" in d.text("#log-panel")
    roll_out(app)
    d.assert_no_errors()


def test_hohenbrueck_a_move_by_the_map_and_a_bombardment_with_its_odds(app: App):
    d = app.d
    units = {u["id"]: u for u in scenario("demo-hohenbrueck")["units"]}
    app.open("?scenario=demo-hohenbrueck&lang=en")
    new_game(app)
    d.wait_text("#prompt", "movement")
    # IR 21 moves: a tap on it, a tap on the lit hex nearest it.
    tap_map(app, "#map [data-unit='pr-ir21']")
    d.wait_selector("#dock .selected-bar[data-unit='pr-ir21']")
    d.wait_selector("#map .hm-lit[data-lit]")
    to = d.call(
        """(from) => {
          const c = (e) => { const b = e.getBoundingClientRect();
                             return [b.x + b.width / 2, b.y + b.height / 2]; };
          const [x, y] = c(document.querySelector(`#map svg [data-hex='${from}']`));
          let best = null, dist = Infinity;
          for (const e of document.querySelectorAll('#map .hm-lit[data-lit]')) {
            const [ex, ey] = c(e), dd = (ex - x) ** 2 + (ey - y) ** 2;
            if (dd < dist) { dist = dd; best = e.dataset.lit; }
          }
          return best;
        }""",
        units["pr-ir21"]["hex"],
    )
    tap_map(app, f"#map svg [data-hex='{to}']")
    wait_unit_at(app, "pr-ir21", to)
    # The bombardment phase: the gun, its target, the preview with its odds, the die.
    d.press("#dock [data-action='end_phase']")
    d.wait_selector("#ask-unused-end")  # units have not moved: asked first, ended anyway
    d.press("#ask-unused-end")
    d.wait_text("#prompt", "bombardment phase")
    tap_map(app, "#map [data-unit='pr-art2']")
    d.wait_selector("#dock .selected-bar[data-unit='pr-art2']")
    tap_map(app, "#map svg [data-hex='0903']")
    d.wait_selector("#preview .outcomes")
    odds = odds_on_screen(app)
    assert len(odds) >= 2 and abs(sum(odds) - 100) < 0.5, odds
    d.press("#preview #confirm")
    d.wait_selector("#roll")
    d.press("#roll")
    d.wait_text("#log-panel", "bombards 0903")
    assert units["pr-art2"]["name"] + " bombards 0903" in d.text("#log-panel")
    roll_out(app)
    d.assert_no_errors()


def test_fontanella_the_tablet_handed_over_and_a_block_moved_by_the_map(app: App):
    d = app.d
    app.open("?scenario=demo-fontanella&lang=en")
    new_game(app)
    # The privacy screen: Austria takes the tablet.
    d.wait_selector("#curtain:not([hidden]) #curtain-go[data-side='austria']")
    assert d.count("[data-piece]") == 0
    d.press("#curtain-go")
    d.wait_text("#prompt", "Austria")
    tap_map(app, "#area-map [data-piece='a01']")
    d.settle()
    if d.count("#picker"):  # a01 stands with others: picked from the list
        d.press("#picker button.pick-row[data-unit='a01']")
    d.wait_selector("#area-map [data-lit='pontegallo']")
    tap_map(app, "#area-map [data-locale='pontegallo']")
    d.wait_text("#log-panel", "to Ponte Gallo")
    assert d.count("#curtain:not([hidden])") == 0  # Austria still acts
    d.assert_no_errors()


def test_a_reload_resumes_the_saved_game(app: App):
    d = app.d
    app.open("?scenario=demo-valmont&lang=en")
    new_game(app)
    d.press("#play-panel button.face[data-value='fr-bde1']")
    d.wait_text("#prompt", "movement")  # no gun: its artillery fire passed by itself
    log = d.count("#log-panel li")
    app.reload()
    # The game on screen comes back by itself.
    d.wait_text("#prompt", "movement")
    d.wait_text("#message", "Valmont, 1809 (demo) goes on where you left it.")
    assert d.count("#log-panel li") == log
    assert "Brigade Morand drawn (at the table)" in d.text("#log-panel")
    d.assert_no_errors()


def test_the_settings_rules_and_keyboard_dialogs_open_and_close(app: App):
    d = app.d
    app.open("?scenario=demo-valmont&lang=en")
    d.press("#settings-button")
    d.wait_selector("#settings-dialog[open]")
    assert d.count("#settings-dialog #lang option") == 4
    d.press("#settings-dialog .dialog-head button")
    d.wait_gone("#settings-dialog[open]")
    d.press("#help-button")
    d.wait_selector("#keys-dialog[open]")
    assert "Undo" in d.text("#keys-body")
    d.keys(ESCAPE)
    d.wait_gone("#keys-dialog[open]")
    new_game(app)
    d.press("#rules")
    d.wait_selector("#rules-dialog[open] #rules-body table")
    d.press("#rules-dialog .dialog-head button")
    d.wait_gone("#rules-dialog[open]")
    d.assert_no_errors()
