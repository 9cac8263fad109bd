"""A small synchronous WebDriver BiDi client for Firefox, which speaks the protocol itself: no
geckodriver, nothing downloaded. Firefox is started with ``--remote-debugging-port 0``; it says
on stderr where it listens ("WebDriver BiDi listening on ws://..."), and a websocket to
``<that>/session`` takes ``session.new`` and the commands of the W3C WebDriver BiDi spec."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import websocket

# Preferences of the throw-away profile: no first-run pages, no updates, no reports, nothing
# fetched in the background (Firefox's own "recommended" automation preferences, which the
# remote agent sets, cover the rest).
PREFS = {
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.startup.page": 0,
    "browser.aboutwelcome.enabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.disabledForTesting": True,
    "app.normandy.enabled": False,
    "messaging-system.rsexperimentloader.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "services.settings.server": "http://127.0.0.1:9/",
    "dom.serviceWorkers.enabled": True,
}

LISTENING = re.compile(r"WebDriver BiDi listening on (ws://\S+)")


class BidiError(RuntimeError):
    """A command Firefox answered with an error."""


class Firefox:
    """One headless Firefox with a fresh profile, driven over WebDriver BiDi."""

    def __init__(self, binary: str, timeout: float = 60.0) -> None:
        self.profile = Path(tempfile.mkdtemp(prefix="muster-firefox-"))
        (self.profile / "user.js").write_text(
            "".join(f'user_pref("{k}", {json.dumps(v)});\n' for k, v in PREFS.items())
        )
        self.process = subprocess.Popen(
            [
                binary,
                "--headless",
                "--no-remote",
                "--profile",
                str(self.profile),
                "--remote-debugging-port",
                "0",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "MOZ_CRASHREPORTER_DISABLE": "1"},
        )
        self.stderr: list[str] = []
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        self.ws: Any = None
        try:
            url = self._listening(timeout)
            # Firefox refuses a handshake that names an Origin (a page may not drive it).
            self.ws = websocket.create_connection(
                url + "/session", timeout=timeout, suppress_origin=True
            )
            self.capabilities = self.command(
                "session.new", {"capabilities": {"alwaysMatch": {"acceptInsecureCerts": True}}}
            )["capabilities"]
        except BaseException:
            self.close()
            raise

    def _listening(self, timeout: float) -> str:
        """The websocket address Firefox prints once its remote agent listens."""
        found: list[str] = []
        ready = threading.Event()

        def read() -> None:
            assert self.process.stderr is not None
            for line in self.process.stderr:
                self.stderr.append(line)
                match = LISTENING.search(line)
                if match and not found:
                    found.append(match.group(1))
                    ready.set()
            ready.set()

        threading.Thread(target=read, daemon=True).start()
        ready.wait(timeout)
        if not found:
            raise RuntimeError(
                "Firefox did not start its WebDriver BiDi server: " + "".join(self.stderr[-20:])
            )
        return found[0]

    def command(self, method: str, params: dict[str, Any], timeout: float = 120.0) -> Any:
        """Send one command and wait for its answer; events that arrive meanwhile are kept."""
        self._next_id += 1
        ident = self._next_id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        deadline = time.monotonic() + timeout
        while True:
            self.ws.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                message = json.loads(self.ws.recv())
            except websocket.WebSocketTimeoutException:
                raise BidiError(f"{method}: no answer in {timeout:.0f} s") from None
            if message.get("id") == ident:
                if message.get("type") == "error":
                    raise BidiError(f"{method}: {message.get('error')}: {message.get('message')}")
                return message["result"]
            if message.get("type") == "event":
                self.events.append(message)

    def close(self) -> None:
        """End the session and the browser, and remove the profile."""
        if self.ws is not None:
            with contextlib.suppress(Exception):  # the browser may be gone already
                self.command("session.end", {}, timeout=10)
            self.ws.close()
            self.ws = None
        stop(self.process, 20)
        shutil.rmtree(self.profile, ignore_errors=True)


def stop(process: subprocess.Popen, seconds: float) -> None:
    """End ``process`` (a browser, a display): asked first, killed after ``seconds``."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
