"""Opening the app in a fresh browser context and watching its console."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

READY_TIMEOUT_MS = 60_000


def tablet(scale: int = 1) -> dict[str, Any]:
    """Browser context options of the tablet the app is made for: 820×1180 CSS pixels, touch,
    ``scale`` device pixels to a CSS pixel."""
    return {
        "viewport": {"width": 820, "height": 1180},
        "device_scale_factor": scale,
        "has_touch": True,
        "is_mobile": True,
    }


@dataclass
class AppPage:
    """A page of the app with the console errors it has printed."""

    context: Any
    page: Any
    errors: list[str] = field(default_factory=list)

    def assert_no_errors(self) -> None:
        """Fail on any console error or uncaught exception seen so far."""
        assert self.errors == [], self.errors


# The setting that opens the scenario's briefing at New game, turned off: a test that is not
# about the briefing plays at once.
NO_BRIEFING = "try { localStorage.setItem('muster.briefing', 'off'); } catch (e) {}"


def open_app(
    browser,
    url: str,
    wait_ready: bool = True,
    init_script: str | None = None,
    briefing: bool = False,
    **context_args,
) -> AppPage:
    """Open ``url`` in a fresh context (``init_script`` run before the page's own scripts) and
    wait until the rules are ready (``html[data-ready='1']``, which harness pages set too).
    ``briefing``: New game opens the scenario's briefing, as it does for a player (off by
    default, so that a test plays at once)."""
    context = browser.new_context(**context_args)
    if not briefing:
        context.add_init_script(NO_BRIEFING)
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    app = AppPage(context, page)
    page.on("console", lambda m: app.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: app.errors.append(str(exc)))
    page.goto(url)
    if wait_ready:
        page.wait_for_selector("html[data-ready='1']", state="attached", timeout=READY_TIMEOUT_MS)
    return app


def hex_center(page: Any, label: str) -> tuple[float, float]:
    """The screen centre of hex ``label`` on the map."""
    box = page.locator(f"svg [data-hex='{label}']").first.bounding_box()
    assert box is not None, f"hex {label} is not drawn"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def click_hex(page: Any, label: str) -> None:
    """Click the centre of hex ``label`` as a player would (the map takes the pointer)."""
    x, y = hex_center(page, label)
    page.mouse.click(x, y)


def open_file(page: Any, name: str, content: str) -> None:
    """Give **Open scenario…** a file, as a player picks one (any text: tests send bad ones)."""
    file = {"name": name, "mimeType": "application/json", "buffer": content.encode()}
    page.set_input_files("#scenario-file", files=[file])


def open_scenario(page: Any, scenario: dict[str, Any]) -> None:
    """Open a scenario as a player does with **Open scenario…**, and wait until it is loaded."""
    open_file(page, f"{scenario['id']}.json", json.dumps(scenario))
    page.wait_for_function("document.querySelector('#message').textContent.includes('loaded')")


# The play panel (static/panel.js, QUIET_MS) takes a tap this soon after it changed for the
# second half of a double tap, and ignores it: a player's next tap comes once it is still.
QUIET_MS = 450

# True once nothing on the page has changed for `quiet` ms and no request is under way; the
# first call starts watching (from then on).
SETTLED = """(quiet) => {
  if (window.__musterChanged === undefined) {
    window.__musterChanged = performance.now();
    new MutationObserver(() => { window.__musterChanged = performance.now(); }).observe(
      document, {subtree: true, childList: true, attributes: true, characterData: true});
  }
  return !document.querySelector('#play-panel.busy')
    && performance.now() - window.__musterChanged >= quiet;
}"""


def settle(page: Any) -> None:
    """Wait until the play panel takes taps again: nothing changed for a double tap's time."""
    page.wait_for_function(SETTLED, arg=QUIET_MS + 50)


def press(page: Any, selector: str) -> None:
    """Click a control of the play panel as a player does: once it has settled. An ending
    that asks first (commands unused, units not moved) is confirmed: the player pressed it
    meaning it (tests/e2e/test_way_on.py taps the question itself)."""
    settle(page)
    page.locator(selector).first.click()
    ask = page.locator("#ask-unused-end")
    if selector != "#ask-unused-end" and ask.count():
        settle(page)
        ask.click()


def tap_center(page: Any, selector: str, touch: bool = False) -> None:
    """A tap at the centre of the first element matching ``selector`` (on the map), once the
    panel has settled."""
    settle(page)
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not drawn"
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y) if touch else page.mouse.click(x, y)


def tap_hex(page: Any, label: str) -> None:
    """Click hex ``label`` on the map once the panel has settled."""
    settle(page)
    click_hex(page, label)


def wait_text(page: Any, selector: str, text: str) -> None:
    """Wait until the first element matching ``selector`` holds ``text``."""
    page.wait_for_function(
        "([s, t]) => (document.querySelector(s) || {textContent: ''}).textContent.includes(t)",
        arg=[selector, text],
    )


def valmont_to_movement(page: Any) -> None:
    """A new Valmont game to its first movement: the cup draws Morand's brigade (the face
    typed in, as from a real cup); it has no gun, so its artillery fire passes by itself."""
    press(page, "#new-game")
    page.wait_for_selector("#roll")
    press(page, "#play-panel button.face[data-value='fr-bde1']")
    wait_text(page, "#prompt", "movement")


def play_valmont(page: Any) -> None:
    """A new Valmont game: the cup draws Morand's brigade, 1/8e Ligne moves to 0604 and faces
    east."""
    valmont_to_movement(page)
    tap_center(page, "#map [data-unit='fr-1-1']")
    page.wait_for_selector("#map .hm-lit[data-lit='0604']", state="attached")
    tap_hex(page, "0604")
    wait_text(page, "#prompt", "choose its facing")
    press(page, "#dock button.facing[data-facing='2']")
    wait_text(page, "#log-panel", "1/8e Ligne faces east (hexside)")


def draw_a_formation_that_fires(page: Any, tap: Any = None) -> None:
    """At a new Valmont game's cup: type in each marker in turn (undoing the draw when its
    formation has no fire) until a formation that can fire is activated. ``tap(locator)``
    presses a control (default: a click once the panel has settled)."""

    def click(locator: Any) -> None:
        settle(page)
        locator.click()

    tap = tap or click
    faces = page.locator("#dock button.face")
    fights = page.locator("#dock button.fight")
    for value in [faces.nth(i).get_attribute("data-value") for i in range(faces.count())]:
        tap(page.locator(f"#dock button.face[data-value='{value}']"))
        settle(page)
        if fights.count():
            return
        tap(page.locator("#undo"))
    raise AssertionError("no formation could fire")
