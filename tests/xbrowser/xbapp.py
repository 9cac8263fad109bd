"""The app in one browser for the cross-browser tests: the site served on a port of its own,
and the driver that shows it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from drivers import Driver

import build

PREFIX = "/muster/"
# Rules ready: WebKit's normal boot (no snapshot) takes the longest, some 15 s here.
READY_TIMEOUT = 120.0


class Site:
    """The built site served under PREFIX on one localhost port, which ``stop`` and ``start``
    keep (the service worker's origin stays the same)."""

    def __init__(self, root: Path) -> None:
        self.root, self.port, self.server = root, 0, None
        self.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{PREFIX}"

    def start(self) -> None:
        self.server = build.make_server(self.root, self.port, PREFIX)
        self.port = self.server.server_address[1]
        build.serve_in_thread(self.server)

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None


@dataclass
class App:
    """A browser (``d``) and the site it is shown (``site``)."""

    d: Driver
    site: Site

    def open(self, query: str = "") -> None:
        """The app at ``query`` (e.g. ``?scenario=demo-valmont``), until the rules are ready."""
        self.d.goto(self.site.url + query)
        self.d.wait_ready(READY_TIMEOUT)
        # New game starts play at once, without the scenario's briefing over it (a setting;
        # read at New game).
        self.d.call("() => localStorage.setItem('muster.briefing', 'off')")

    def reload(self) -> None:
        self.d.reload()
        self.d.wait_ready(READY_TIMEOUT)
