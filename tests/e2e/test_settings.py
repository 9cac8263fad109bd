"""The settings dialog: the theme (automatic, light, dark), remembered and on the page before
its first paint; keeping the screen awake while a game is open, with the browser's Screen Wake
Lock API stood in for so each request and release can be counted."""

from __future__ import annotations

import pytest
from apppage import READY_TIMEOUT_MS, AppPage, open_app, press, wait_text

pytestmark = pytest.mark.e2e

DESKTOP = {"viewport": {"width": 1280, "height": 800}}

# Records the theme on <html> at the moment <body> is first inserted: before anything of the
# page can be drawn.
THEME_AT_BODY = """
new MutationObserver((_, observer) => {
  if (!document.body) return;
  window.__themeAtBody = document.documentElement.dataset.theme || "auto";
  observer.disconnect();
}).observe(document, {childList: true, subtree: true});
"""

# A stand-in for navigator.wakeLock: MODE "grant" gives a lock, "refuse" refuses as a browser
# does (NotAllowedError), "none" takes the API away. window.__wake lists what happened;
# window.__setHidden(bool) hides or shows the page as switching apps does (the browser then
# drops the lock itself).
WAKE_LOCK = """
(() => {
  const MODE = "%s";
  window.__wake = [];
  let hidden = false;
  let held = null;
  function drop(sentinel, why) {
    if (sentinel.released) return;
    sentinel.released = true;
    window.__wake.push(why);
    sentinel.dispatchEvent(new Event("release"));
  }
  const api = {
    request(type) {
      window.__wake.push("request:" + type);
      if (MODE === "refuse") {
        return Promise.reject(new DOMException("Wake Lock permission denied", "NotAllowedError"));
      }
      const sentinel = new EventTarget();
      sentinel.released = false;
      sentinel.type = type;
      sentinel.release = () => { drop(sentinel, "release"); return Promise.resolve(); };
      held = sentinel;
      return Promise.resolve(sentinel);
    },
  };
  if (MODE === "none") delete Navigator.prototype.wakeLock;
  else Object.defineProperty(Navigator.prototype, "wakeLock", {get: () => api, configurable: true});
  Object.defineProperty(Document.prototype, "visibilityState", {
    get: () => (hidden ? "hidden" : "visible"), configurable: true});
  Object.defineProperty(Document.prototype, "hidden", {get: () => hidden, configurable: true});
  window.__setHidden = (value) => {
    hidden = value;
    if (hidden && held) drop(held, "dropped");
    document.dispatchEvent(new Event("visibilitychange"));
  };
})();
"""


def open_with(browser, site_url, mode: str):
    context = browser.new_context(**DESKTOP)
    context.add_init_script(WAKE_LOCK % mode)
    page = context.new_page()

    app = AppPage(context, page)
    app.warnings = []
    page.on("console", lambda m: app.errors.append(m.text) if m.type == "error" else None)
    page.on("console", lambda m: app.warnings.append(m.text) if m.type == "warning" else None)
    page.on("pageerror", lambda exc: app.errors.append(str(exc)))
    page.goto(site_url)
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=READY_TIMEOUT_MS)
    return app


def wake(page) -> list[str]:
    return page.evaluate("window.__wake.slice()")


def wait_wake(page, events: list[str]) -> None:
    page.wait_for_function("e => JSON.stringify(window.__wake) === JSON.stringify(e)", arg=events)


def settings(page, open_it: bool) -> None:
    if open_it:
        page.click("#settings-button")
        page.wait_for_selector("#settings-dialog[open]")
    else:
        page.click("#settings-dialog button:has-text('Close')")
        page.wait_for_selector("#settings-dialog:not([open])", state="attached")


def new_game(page) -> None:
    press(page, "#new-game")
    wait_text(page, "#prompt", "Prussia")


def test_the_theme_is_chosen_remembered_and_on_before_the_first_paint(browser, site_url):
    app = open_app(browser, site_url, **DESKTOP)
    page = app.page
    app.context.add_init_script(THEME_AT_BODY)
    page.emulate_media(color_scheme="light")
    background = "getComputedStyle(document.body).backgroundColor"
    light = page.evaluate(background)
    settings(page, True)
    assert page.locator("#theme").input_value() == "auto"
    assert [o.strip() for o in page.locator("#theme option").all_inner_texts()] == [
        "Automatic (as the device)",
        "Light",
        "Dark",
    ]
    assert page.evaluate("document.documentElement.dataset.theme") is None
    page.select_option("#theme", "dark")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    dark = page.evaluate(background)
    assert dark != light

    page.reload()
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=READY_TIMEOUT_MS)
    assert page.evaluate("window.__themeAtBody") == "dark"
    assert page.evaluate(background) == dark
    settings(page, True)
    assert page.locator("#theme").input_value() == "dark"
    # Light holds even where the device asks for dark.
    page.emulate_media(color_scheme="dark")
    page.select_option("#theme", "light")
    assert page.evaluate(background) == light
    # Automatic follows the device again, and leaves nothing behind.
    page.select_option("#theme", "auto")
    assert page.evaluate("document.documentElement.dataset.theme") is None
    assert page.evaluate(background) == dark
    assert page.evaluate("localStorage.getItem('muster.theme')") is None
    page.reload()
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=READY_TIMEOUT_MS)
    assert page.evaluate("window.__themeAtBody") == "auto"
    app.assert_no_errors()
    app.context.close()


def test_the_screen_is_kept_awake_while_a_game_is_open(browser, site_url):
    app = open_with(browser, site_url, "grant")
    page = app.page
    settings(page, True)
    box = page.locator("#wake-lock")
    assert box.is_checked() and box.is_enabled()
    assert page.locator("#wake-lock-note").is_hidden()
    row = page.locator("label.check-row[for='wake-lock']").bounding_box()
    assert row["height"] >= 44
    settings(page, False)
    # No game open: the screen may sleep.
    assert wake(page) == []
    new_game(page)
    wait_wake(page, ["request:screen"])
    # The page out of view: the browser drops the lock; back in view, it is asked again.
    page.evaluate("window.__setHidden(true)")
    page.evaluate("window.__setHidden(false)")
    wait_wake(page, ["request:screen", "dropped", "request:screen"])
    # Turned off: released at once; on again: asked again.
    settings(page, True)
    box.uncheck()
    wait_wake(page, ["request:screen", "dropped", "request:screen", "release"])
    box.check()
    wait_wake(page, ["request:screen", "dropped", "request:screen", "release", "request:screen"])
    box.uncheck()
    settings(page, False)
    # Play goes on, and the lock is not asked for again while the setting is off.
    before = page.locator("#prompt").inner_text()
    press(page, "#dock [data-action='end_phase']")
    page.wait_for_function("p => document.querySelector('#prompt').textContent !== p", arg=before)
    assert wake(page)[-1] == "release"
    # The choice is remembered.
    page.reload()
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=READY_TIMEOUT_MS)
    settings(page, True)
    assert not page.locator("#wake-lock").is_checked()
    app.assert_no_errors()
    app.context.close()


def test_a_refused_wake_lock_never_disturbs_play(browser, site_url):
    app = open_with(browser, site_url, "refuse")
    page = app.page
    new_game(page)
    wait_wake(page, ["request:screen"])
    before = page.locator("#prompt").inner_text()
    press(page, "#dock [data-action='end_phase']")
    page.wait_for_function("p => document.querySelector('#prompt').textContent !== p", arg=before)
    # Refused once: not asked again at every change of the game, only a warning said.
    assert wake(page) == ["request:screen"]
    assert any("NotAllowedError" in w for w in app.warnings), app.warnings
    app.assert_no_errors()
    app.context.close()


def test_without_the_api_the_setting_says_so(browser, site_url):
    app = open_with(browser, site_url, "none")
    page = app.page
    settings(page, True)
    assert page.locator("#wake-lock").is_disabled()
    assert not page.locator("#wake-lock").is_checked()
    assert page.locator("#wake-lock-note").inner_text() == (
        "This browser cannot keep the screen awake."
    )
    settings(page, False)
    new_game(page)
    app.assert_no_errors()
    app.context.close()


# What a Chromium browser sends when the app may be installed: a stand-in whose prompt() and
# userChoice the test can see.
INSTALL_OFFER = """(outcome) => {
  const event = new Event("beforeinstallprompt", {cancelable: true});
  window.__prompted = 0;
  event.prompt = () => { window.__prompted += 1; return Promise.resolve(); };
  event.userChoice = Promise.resolve({outcome: outcome});
  window.dispatchEvent(event);
  return event.defaultPrevented;
}"""


@pytest.mark.parametrize("outcome", ["accepted", "dismissed"])
def test_install_is_offered_in_settings_when_the_browser_allows_it(browser, site_url, outcome):
    app = open_app(browser, site_url, **DESKTOP)
    page = app.page
    try:
        page.click("#settings-button")
        # No offer from the browser yet: the settings say how to install from its menu.
        assert page.locator("#install-hint").is_visible()
        assert not page.locator("#install-app").is_visible()
        # The browser's own banner is held back: the app offers it here instead.
        assert page.evaluate(INSTALL_OFFER, outcome) is True
        page.wait_for_selector("#install-app", state="visible")
        assert not page.locator("#install-hint").is_visible()
        page.click("#install-app")
        page.wait_for_function("window.__prompted === 1")
        if outcome == "accepted":
            wait_text(page, "#install-done", "installed")
            assert page.locator("#install-done").is_visible()
        else:
            page.wait_for_selector("#install-hint", state="visible")
        assert not page.locator("#install-app").is_visible()
        app.assert_no_errors()
    finally:
        app.context.close()
