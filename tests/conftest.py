"""Shared test setup: which Chromium Playwright drives."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

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
