"""End-to-end fixtures: serve the built site (``dist``, tests/conftest.py) on free localhost
ports, open pages.

Each cold start of Pyodide costs seconds, so pages are shared per test module.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from apppage import AppPage, open_app, tablet

import build

ROOT = Path(__file__).resolve().parents[2]

WHEEL_CACHE = ROOT / ".cache" / "pyodide-wheels"


@pytest.fixture(scope="session")
def pyodide_wheels() -> Path:
    """Pure-Python wheels for the in-Pyodide test run, downloaded from PyPI once and cached."""
    wanted = [
        line.strip()
        for line in (ROOT / "tests" / "pyodide-wheels.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    names = [w.split("==")[0].lower() for w in wanted]
    have = {p.name.split("-")[0].lower() for p in WHEEL_CACHE.glob("*.whl")}
    if not set(names) <= have:
        WHEEL_CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--only-binary=:all:",
                "--python-version",
                "3.14",
                "-d",
                str(WHEEL_CACHE),
                *wanted,
            ],
            check=True,
        )
    return WHEEL_CACHE


# Where the e2e tests serve the site by default: a sub-path, as GitHub Pages serves a project
# site (https://<user>.github.io/<repo>/), so nothing may assume the root.
PREFIX = "/muster/"


def _serve(root: Path, prefix: str, extra: dict[str, Path] | None = None) -> Iterator[str]:
    server = build.make_server(root, 0, prefix, extra)
    build.serve_in_thread(server)
    host, port = server.server_address[:2]
    try:
        yield f"http://{host}:{port}{prefix}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def site_url(dist, pyodide_wheels) -> Iterator[str]:
    """The site served under PREFIX, with the tests, the docs and test wheels mounted beside its
    files (``{site_url}__tests__/``, ``{site_url}__docs__/``, ``{site_url}__wheels__/``)."""
    extra = {
        PREFIX + "__tests__/": ROOT / "tests",
        PREFIX + "__docs__/": ROOT / "docs",
        PREFIX + "__wheels__/": pyodide_wheels,
    }
    yield from _serve(dist, PREFIX, extra)


@pytest.fixture(scope="session")
def root_url(dist) -> Iterator[str]:
    """The same site served at the root of its origin."""
    yield from _serve(dist, "/")


@pytest.fixture(scope="module")
def app(browser, site_url) -> Iterator[AppPage]:
    """The demo battle at desktop size, ready; shared by the tests of a module."""
    opened = open_app(browser, site_url, viewport={"width": 1280, "height": 800})
    yield opened
    opened.context.close()


@pytest.fixture(scope="module")
def tab(browser, site_url):
    """The editor's order of battle and tables on a page of their own (oob_harness.html), on
    the tablet: one page a test file, each test sets it up anew."""
    opened = open_app(
        browser, f"{site_url}__tests__/e2e/oob_harness.html", wait_ready=False, **tablet()
    )
    yield opened
    opened.context.close()
