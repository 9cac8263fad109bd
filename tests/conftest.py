"""Shared test setup: the built site (for the browser tests of tests/e2e and tests/xbrowser),
which Chromium Playwright drives, and the browsers MUSTER_BROWSERS leaves out."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import build

ROOT = Path(__file__).resolve().parent.parent

# Debian's Chromium, when present; MUSTER_CHROMIUM points elsewhere; otherwise (None)
# Playwright launches its own downloaded browser.
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_executable() -> str | None:
    """The Chromium binary to launch, or None for Playwright's own browser."""
    chosen = os.environ.get("MUSTER_CHROMIUM")
    if chosen:
        return shutil.which(chosen) or chosen
    for candidate in CHROMIUM_CANDIDATES:
        if Path(candidate).exists():
            return candidate
    return None


def chromium_launch_args() -> dict:
    """Launch options for Playwright's Chromium."""
    options: dict = {"args": list(CHROMIUM_ARGS)}
    executable = chromium_executable()
    if executable:
        options["executable_path"] = executable
    return options


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """pytest-playwright's launch options, with our Chromium and flags."""
    return {**browser_type_launch_args, **chromium_launch_args()}


@pytest.fixture(scope="session")
def dist(tmp_path_factory) -> Path:
    """The built site, written once per test session."""
    out = tmp_path_factory.mktemp("site") / "dist"
    build.build(out)
    return out


def pytest_collection_modifyitems(config, items) -> None:
    """MUSTER_BROWSERS without chromium leaves out the Playwright tests (all in Chromium)."""
    from browsers import wanted

    try:
        names = wanted()
    except ValueError as bad:
        raise pytest.UsageError(str(bad)) from None
    if "chromium" in names:
        return
    skip = pytest.mark.skip(reason="MUSTER_BROWSERS leaves out chromium")
    for item in items:
        if item.get_closest_marker("e2e"):
            item.add_marker(skip)
