"""Cross-browser fixtures: the built site served on a port of its own per test module (a test
stops it for an offline reload and starts it again on the same port), and one browser session
per browser and module, at the tablet's 820×1180 CSS pixels (drivers.py).

The tests run in each browser MUSTER_BROWSERS names among WebKit and Firefox (all when it is
unset; Chromium is tested by tests/e2e). A browser named and not installed fails the test with
what to install: it is never skipped silently.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from browsers import wanted
from drivers import TABLET, BrowserMissing, Driver, FirefoxDriver, WebKitDriver, XDisplay
from xbapp import App, Site

import build

HERE = Path(__file__).resolve().parent
XBROWSERS = ("webkit", "firefox")


@pytest.fixture(scope="session")
def probe_dist(dist: Path, tmp_path_factory) -> Path:
    """The built site with probe.js as the first script of index.html (for WebKit, whose driver
    reports no console error), its service worker written again over it as a build does."""
    target = tmp_path_factory.mktemp("probe") / "dist"
    shutil.copytree(dist, target, copy_function=os.link)
    for name in ("index.html", "sw.js", "build.json"):
        (target / name).unlink()  # linked to the build's own files: written anew below
    html = (dist / "index.html").read_text(encoding="utf-8")
    first = '<script src="static/theme.js"></script>'
    assert first in html, "index.html's first script moved: put the probe before it"
    html = html.replace(first, '<script src="probe.js"></script>\n    ' + first)
    (target / "index.html").write_text(html, encoding="utf-8")
    shutil.copyfile(HERE / "probe.js", target / "probe.js")
    build.finish(target)
    return target


@pytest.fixture(scope="session")
def x_display() -> Iterator[str]:
    """An X display for WebKitGTK's MiniBrowser (no headless mode): Xvfb started here."""
    try:
        display = XDisplay()
    except BrowserMissing as missing:
        pytest.fail(str(missing), pytrace=False)
    yield display.display
    display.close()


def _driver(request: pytest.FixtureRequest, name: str) -> Driver:
    if name not in wanted():
        pytest.skip(f"MUSTER_BROWSERS leaves out {name}")
    try:
        if name == "webkit":
            driver: Driver = WebKitDriver(request.getfixturevalue("x_display"))
        else:
            driver = FirefoxDriver()
    except BrowserMissing as missing:
        pytest.fail(str(missing), pytrace=False)
    return driver


@pytest.fixture(scope="module", params=XBROWSERS)
def xb(request: pytest.FixtureRequest, dist: Path) -> Iterator[App]:
    """One browser session for the tests of a module, at the tablet's size, with a server of
    its own; the errors of one test are not those of the next."""
    name = request.param
    driver = _driver(request, name)
    site = Site(request.getfixturevalue("probe_dist") if name == "webkit" else dist)
    try:
        driver.goto(site.url + "__outside_prefix__")  # a page of the origin, to measure
        driver.set_viewport(*TABLET)
        driver.errors()
        yield App(driver, site)
    finally:
        driver.close()
        site.stop()


@pytest.fixture()
def app(xb: App) -> Iterator[App]:
    """The module's browser, with no console error in hand when the test starts."""
    xb.d.errors()
    yield xb
