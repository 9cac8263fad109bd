"""One small driver over the browsers Playwright cannot drive from Debian's packages.

WebKit is WebKitGTK's MiniBrowser (``--automation``) driven by Selenium through Debian's
``WebKitWebDriver``, on an X display of its own (Xvfb): it has no headless mode. Firefox (ESR) is
driven over WebDriver BiDi, which it speaks itself (``bidi.py``). Nothing is downloaded: the
driver's path is given to Selenium, so Selenium Manager is never asked for one (and is made to
fail loudly should it be).

Every call into the page is a JavaScript function's source with JSON arguments, and answers
JSON. Taps and drags are real input, W3C actions of a touch pointer, not ``element.click()`` from
a script: Firefox gives the page touch events and pointer events of type "touch"; WebKitGTK, a
desktop port with no touch input, plays them as the mouse (pointer type "mouse").

Console errors: Firefox reports each one over BiDi (``log.entryAdded`` at level "error":
console.error and uncaught errors of the page). WebKitGTK's driver has no log and no BiDi, and
its automation session is ephemeral, where WebKit writes no console message out; so WebKit is
shown a copy of the site whose index.html loads ``probe.js`` before anything else: it wraps
console.error and listens for uncaught errors and unhandled rejections, keeping each in
sessionStorage (so a reload loses none), which the driver reads and clears. What it cannot see
in WebKit: messages printed inside the Web Worker or the service worker themselves.
"""

from __future__ import annotations

import abc
import json
import os
import shutil
import struct
import subprocess
import time
from pathlib import Path
from typing import Any

from bidi import stop
from e2e.apppage import QUIET_MS, SETTLED  # when the play panel takes a tap again
from e2e.touch import along

WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
FIREFOX = "/usr/bin/firefox-esr"

# How long a wait lasts before a test fails (generous: the machines are shared and slow).
WAIT = 60.0

# The tablet the app is made for, in CSS pixels.
TABLET = (820, 1180)

# The centre of the first element matching a selector, in viewport CSS pixels, once it is
# scrolled into view; with ``hit``, only if a tap there lands on it (nothing covers it).
_CENTRE = """(selector, hit) => {
  const el = document.querySelector(selector);
  if (!el) return null;
  el.scrollIntoView({block: 'nearest', inline: 'nearest'});
  const box = el.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) return null;
  const x = box.x + box.width / 2, y = box.y + box.height / 2;
  if (hit) {
    const top = document.elementFromPoint(x, y);
    if (!top || !(el === top || el.contains(top))) return null;
  }
  return [x, y];
}"""


class BrowserMissing(RuntimeError):
    """A browser named by MUSTER_BROWSERS is not installed."""


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height of a PNG, from its header."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", png[16:24])


class Driver(abc.ABC):
    """What a test does in a page, the same in every browser; each browser's driver gives the
    abstract methods."""

    name = ""

    # ---- each browser's own ------------------------------------------------------------

    @abc.abstractmethod
    def _call(self, script: str, args_json: str) -> str:
        """Run ``(script)(...JSON.parse(args_json))`` in the page, awaited; its JSON."""

    @abc.abstractmethod
    def goto(self, url: str) -> None:
        """Open ``url`` in the page."""

    @abc.abstractmethod
    def reload(self) -> None:
        """Load the page again."""

    @abc.abstractmethod
    def set_viewport(self, width: int, height: int) -> None:
        """Size the window so that the viewport is ``width`` × ``height`` CSS pixels."""

    @abc.abstractmethod
    def _pointer(self, points: list[tuple[float, float]]) -> None:
        """One finger down on the first of ``points`` (viewport CSS pixels), moved through the
        others, up."""

    @abc.abstractmethod
    def keys(self, text: str) -> None:
        """Key presses to the focused element (WebDriver key codes for special keys)."""

    @abc.abstractmethod
    def screenshot(self) -> bytes:
        """A PNG of the viewport."""

    @abc.abstractmethod
    def errors(self) -> list[str]:
        """The console errors since the last call (then forgotten)."""

    @abc.abstractmethod
    def close(self) -> None:
        """End the session and the browser."""

    # ---- the same in every browser -----------------------------------------------------

    def call(self, script: str, *args: Any) -> Any:
        """The JSON value of the JavaScript function ``script`` applied to ``args``."""
        wrapped = (
            "(s, a) => Promise.resolve((0, eval)('(' + s + ')')(...JSON.parse(a)))"
            ".then(v => JSON.stringify(v === undefined ? null : v))"
        )
        return json.loads(self._call(wrapped, json.dumps([script, json.dumps(list(args))])))

    def value(self, expression: str) -> Any:
        """The JSON value of a JavaScript expression."""
        return self.call(f"() => ({expression})")

    def wait_for(self, script: str, *args: Any, timeout: float = WAIT, what: str = "") -> Any:
        """Poll the function ``script`` until it returns something truthy; that value."""
        deadline = time.monotonic() + timeout
        while True:
            got = self.call(script, *args)
            if got:
                return got
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"{self.name}: waited {timeout:.0f} s for {what or script} {args or ''}"
                    f" (last: {got!r})"
                )
            time.sleep(0.1)

    def wait_selector(self, selector: str, timeout: float = WAIT) -> None:
        self.wait_for(
            "(s) => !!document.querySelector(s)", selector, timeout=timeout, what=selector
        )

    def wait_gone(self, selector: str, timeout: float = WAIT) -> None:
        self.wait_for(
            "(s) => !document.querySelector(s)", selector, timeout=timeout, what="no " + selector
        )

    def wait_text(self, selector: str, text: str, timeout: float = WAIT) -> None:
        self.wait_for(
            "(s, t) => (document.querySelector(s) || {textContent: ''}).textContent.includes(t)",
            selector,
            text,
            timeout=timeout,
            what=f"{text!r} in {selector}",
        )

    def text(self, selector: str) -> str:
        return self.call(
            "(s) => { const e = document.querySelector(s); return e ? e.innerText : null; }",
            selector,
        )

    def count(self, selector: str) -> int:
        return self.call("(s) => document.querySelectorAll(s).length", selector)

    def attr(self, selector: str, name: str) -> str | None:
        return self.call(
            "(s, n) => { const e = document.querySelector(s); return e && e.getAttribute(n); }",
            selector,
            name,
        )

    def wait_ready(self, timeout: float = 120.0) -> None:
        """Until the page says the rules are ready (html[data-ready='1'])."""
        self.wait_for(
            "() => document.documentElement.dataset.ready === '1'",
            timeout=timeout,
            what="rules ready",
        )

    def settle(self) -> None:
        """Until the play panel takes taps again: nothing changed for a double tap's time."""
        self.wait_for(SETTLED, QUIET_MS + 50, what="a still page")

    def centre(self, selector: str, hit: bool = True, timeout: float = WAIT) -> tuple[float, float]:
        x, y = self.wait_for(_CENTRE, selector, hit, timeout=timeout, what=f"{selector} in sight")
        return x, y

    def tap_element(self, selector: str, hit: bool = True) -> None:
        """A tap at the centre of the first element matching ``selector``."""
        self.tap(*self.centre(selector, hit))

    def press(self, selector: str, hit: bool = True) -> None:
        """A tap on a control once the page has settled, as a player taps."""
        self.settle()
        self.tap_element(selector, hit)

    def viewport(self) -> tuple[int, int]:
        w, h = self.value("[window.innerWidth, window.innerHeight]")
        return w, h

    def tap(self, x: float, y: float) -> None:
        """A finger's tap at (x, y), viewport CSS pixels."""
        self._pointer([(x, y)])

    def drag(self, points: list[tuple[float, float]]) -> None:
        """One finger down on the first point, along the others (6 px apart at most), up."""
        self._pointer(along(points))

    def assert_no_errors(self) -> None:
        errors = self.errors()
        assert errors == [], f"{self.name}: console errors: {errors}"


# ---- WebKitGTK --------------------------------------------------------------------------


class XDisplay:
    """An Xvfb server on a free display number (Xvfb picks it: -displayfd)."""

    def __init__(self, width: int = 1600, height: int = 1600) -> None:
        xvfb = shutil.which("Xvfb")
        if not xvfb:
            raise BrowserMissing(
                "webkit: Xvfb is not installed (Debian's package xvfb): WebKitGTK's MiniBrowser"
                " needs an X display"
            )
        read, write = os.pipe()
        self.process = subprocess.Popen(
            [xvfb, "-displayfd", str(write), "-screen", "0", f"{width}x{height}x24"]
            + ["-nolisten", "tcp"],
            pass_fds=[write],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(write)
        try:
            number = b""
            while not number.endswith(b"\n"):
                chunk = os.read(read, 16)
                if not chunk:
                    raise RuntimeError("Xvfb ended before it gave its display number")
                number += chunk
        except BaseException:
            self.close()
            raise
        finally:
            os.close(read)
        self.display = ":" + number.decode().strip()

    def close(self) -> None:
        stop(self.process, 10)


def no_selenium_manager() -> None:
    """Selenium Manager downloads drivers and browsers: never here."""
    from selenium.webdriver.common import selenium_manager

    def refuse(*_args: Any, **_kw: Any) -> Any:
        raise RuntimeError("Selenium Manager was asked for a driver: give Selenium its path")

    selenium_manager.SeleniumManager.binary_paths = refuse  # type: ignore[method-assign]


class WebKitDriver(Driver):
    """WebKitGTK's MiniBrowser through Selenium and WebKitWebDriver, on ``display``."""

    name = "webkit"

    def __init__(self, display: str) -> None:
        for path in (WEBKIT_DRIVER, MINIBROWSER):
            if not Path(path).is_file():
                raise BrowserMissing(
                    f"webkit: {path} is missing (Debian's package webkit2gtk-driver); install"
                    " it, or leave webkit out of MUSTER_BROWSERS"
                )
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        no_selenium_manager()
        options = Options()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        service = Service(executable_path=WEBKIT_DRIVER, env={**os.environ, "DISPLAY": display})
        self.driver = webdriver.WebKitGTK(options=options, service=service)
        self.driver.set_script_timeout(120)
        self._errors: list[str] = []

    def _call(self, script: str, args_json: str) -> str:
        return self.driver.execute_script(
            f"return ({script}).apply(null, JSON.parse(arguments[0]));", args_json
        )

    def _collect(self) -> None:
        """Move the errors the probe kept in this page's sessionStorage to the driver's list."""
        try:
            kept = self.driver.execute_script(
                "const k = sessionStorage.getItem('muster-probe-errors');"
                " sessionStorage.removeItem('muster-probe-errors'); return k;"
            )
        except Exception:  # noqa: BLE001 - no page yet (about:blank has no storage)
            return
        if kept:
            self._errors += json.loads(kept)

    def goto(self, url: str) -> None:
        self._collect()
        self.driver.get(url)

    def reload(self) -> None:
        self._collect()
        self.driver.refresh()

    def set_viewport(self, width: int, height: int) -> None:
        """Size the window so that the viewport is ``width`` × ``height`` CSS pixels."""
        self.driver.set_window_rect(x=0, y=0, width=width, height=height)
        for _ in range(5):
            w, h = self._still_viewport()
            if (w, h) == (width, height):
                return
            rect = self.driver.get_window_rect()
            self.driver.set_window_rect(
                width=rect["width"] + width - w, height=rect["height"] + height - h
            )
        raise AssertionError(f"the viewport is {self._still_viewport()}, not {(width, height)}")

    def _still_viewport(self) -> tuple[int, int]:
        """The viewport once the window has stopped changing: a resize lands a little after the
        driver's answer, later on a busy machine (read while it lands, it is neither size)."""
        last = self.viewport()
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            time.sleep(0.25)
            now = self.viewport()
            if now == last:
                return now
            last = now
        return last

    def _pointer(self, points: list[tuple[float, float]]) -> None:
        from selenium.webdriver.common.actions import interaction
        from selenium.webdriver.common.actions.action_builder import ActionBuilder
        from selenium.webdriver.common.actions.pointer_input import PointerInput

        finger = PointerInput(interaction.POINTER_TOUCH, "finger")
        actions = ActionBuilder(self.driver, mouse=finger, duration=0)
        x, y = points[0]
        actions.pointer_action.move_to_location(round(x), round(y)).pointer_down()
        for x, y in points[1:]:
            actions.pointer_action.move_to_location(round(x), round(y))
        actions.pointer_action.pointer_up()
        actions.perform()

    def keys(self, text: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(self.driver).send_keys(text).perform()

    def screenshot(self) -> bytes:
        return self.driver.get_screenshot_as_png()

    def errors(self) -> list[str]:
        self._collect()
        errors, self._errors = self._errors, []
        return errors

    def close(self) -> None:
        self.driver.quit()


# ---- Firefox ----------------------------------------------------------------------------


class FirefoxDriver(Driver):
    """Firefox over WebDriver BiDi (bidi.py), headless."""

    name = "firefox"

    def __init__(self) -> None:
        chosen = os.environ.get("MUSTER_FIREFOX")  # another Firefox (one that speaks BiDi)
        binary = (
            shutil.which(chosen) if chosen else shutil.which(FIREFOX) or shutil.which("firefox-esr")
        )
        if not binary:
            raise BrowserMissing(
                f"firefox: {chosen or FIREFOX} is missing (Debian's package firefox-esr); install"
                " it, point MUSTER_FIREFOX at another Firefox, or leave firefox out of"
                " MUSTER_BROWSERS"
            )
        from bidi import Firefox

        self.browser = Firefox(binary)
        tree = self.browser.command("browsingContext.getTree", {})
        self.context = tree["contexts"][0]["context"]
        self.browser.command("session.subscribe", {"events": ["log.entryAdded"]})

    def _cmd(self, method: str, params: dict[str, Any]) -> Any:
        return self.browser.command(method, {"context": self.context, **params})

    def _call(self, script: str, args_json: str) -> str:
        result = self.browser.command(
            "script.callFunction",
            {
                "functionDeclaration": f"(j) => ({script}).apply(null, JSON.parse(j))",
                "arguments": [{"type": "string", "value": args_json}],
                "target": {"context": self.context},
                "awaitPromise": True,
                "resultOwnership": "none",
            },
        )
        if result["type"] == "exception":
            details = result["exceptionDetails"]
            raise RuntimeError(f"firefox: {details.get('text')}")
        return result["result"]["value"]

    def goto(self, url: str) -> None:
        self._cmd("browsingContext.navigate", {"url": url, "wait": "complete"})

    def reload(self) -> None:
        self._cmd("browsingContext.reload", {"wait": "complete"})

    def set_viewport(self, width: int, height: int) -> None:
        self._cmd("browsingContext.setViewport", {"viewport": {"width": width, "height": height}})
        assert self.viewport() == (width, height), self.viewport()

    def _pointer(self, points: list[tuple[float, float]]) -> None:
        x, y = points[0]
        steps: list[dict[str, Any]] = [
            {"type": "pointerMove", "x": round(x), "y": round(y)},
            {"type": "pointerDown", "button": 0},
        ]
        steps += [{"type": "pointerMove", "x": round(x), "y": round(y)} for x, y in points[1:]]
        steps.append({"type": "pointerUp", "button": 0})
        self._cmd(
            "input.performActions",
            {
                "actions": [
                    {
                        "type": "pointer",
                        "id": "finger",
                        "parameters": {"pointerType": "touch"},
                        "actions": steps,
                    }
                ]
            },
        )

    def keys(self, text: str) -> None:
        steps: list[dict[str, Any]] = []
        for ch in text:
            steps += [{"type": "keyDown", "value": ch}, {"type": "keyUp", "value": ch}]
        self._cmd(
            "input.performActions", {"actions": [{"type": "key", "id": "keys", "actions": steps}]}
        )

    def screenshot(self) -> bytes:
        import base64

        return base64.b64decode(self._cmd("browsingContext.captureScreenshot", {})["data"])

    def errors(self) -> list[str]:
        self.browser.command("session.status", {})  # read what arrived meanwhile
        errors = [
            e["params"].get("text") or ""
            for e in self.browser.events
            if e.get("method") == "log.entryAdded" and e["params"].get("level") == "error"
        ]
        self.browser.events.clear()
        return errors

    def close(self) -> None:
        self.browser.close()
