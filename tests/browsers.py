"""The browsers the tests run in, and MUSTER_BROWSERS, the comma list that narrows them (unset:
all of them). Chromium runs the Playwright tests of tests/e2e; WebKit and Firefox the
cross-browser tests of tests/xbrowser."""

from __future__ import annotations

import os

BROWSERS = ("chromium", "webkit", "firefox")


def wanted() -> list[str]:
    """The browsers to test: those MUSTER_BROWSERS names, or all of them when it is unset."""
    raw = os.environ.get("MUSTER_BROWSERS", "").strip()
    if not raw:
        return list(BROWSERS)
    names = [n.strip().lower() for n in raw.split(",") if n.strip()]
    unknown = [n for n in names if n not in BROWSERS]
    if unknown or not names:
        raise ValueError(
            f"MUSTER_BROWSERS={raw!r}: name some of {', '.join(BROWSERS)}, comma-separated"
        )
    return names
