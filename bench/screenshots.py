#!/usr/bin/env python3
"""The web app manifest's screenshots: a demo battle in play, wide (1366x900) and on a tablet
held upright (820x1180), written to docs/screenshots/ (build.py copies them into the site).

Builds the site, serves it on localhost and plays the opening of *Valmont, 1809* in headless
Chromium: the cup draws a brigade, the movement step begins, and a battalion is selected with
every hex it can reach lit. The PNGs are squeezed with pngquant when it is installed
(``apt-get install pngquant``), else kept as Chromium writes them.

    python bench/screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "py"), str(ROOT / "tests" / "e2e")]

from apppage import settle, tap_center, valmont_to_movement  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

import build  # noqa: E402
from tests.conftest import chromium_launch_args  # noqa: E402

TIMEOUT_MS = 120_000
# name, viewport, whether it is a touch tablet
SHOTS = (
    ("wide.png", {"width": 1366, "height": 900}, False),
    ("narrow.png", {"width": 820, "height": 1180}, True),
)


def battle(page, url: str) -> None:
    """Open Valmont and play to a battalion selected in the movement step."""
    page.goto(url + "?scenario=demo-valmont&lang=en&nosw")
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=TIMEOUT_MS)
    valmont_to_movement(page)
    tap_center(page, "#map [data-unit='fr-1-1']")
    page.wait_for_selector("#map .hm-lit[data-lit='0604']", state="attached")
    settle(page)


def squeeze(path: Path) -> None:
    """Make a PNG smaller with pngquant (a palette of at most 256 colours), if installed."""
    if not shutil.which("pngquant"):
        return
    subprocess.run(
        ["pngquant", "--quality=75-95", "--speed=1", "--strip", "--force", "--output", path, path],
        check=True,
    )


def main() -> int:
    """Take the screenshots."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    dist = Path(tempfile.mkdtemp()) / "dist"
    build.build(dist)
    server = build.make_server(dist, 0, "/")
    build.serve_in_thread(server)
    host, port = server.server_address[:2]
    url = f"http://{host}:{port}/"
    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(**chromium_launch_args())
        for name, viewport, touch in SHOTS:
            context = browser.new_context(
                viewport=viewport, device_scale_factor=1, has_touch=touch, is_mobile=touch
            )
            page = context.new_page()
            battle(page, url)
            target = args.out / name
            page.screenshot(path=str(target))
            squeeze(target)
            width, height = build.png_size(target.read_bytes())
            print(f"{target.relative_to(ROOT)}: {width}x{height}, {target.stat().st_size} bytes")
            context.close()
        browser.close()
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
