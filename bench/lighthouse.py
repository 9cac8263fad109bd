#!/usr/bin/env python3
"""Lighthouse audit of the built site, served under a sub-path as GitHub Pages serves it:
accessibility, best practices, SEO and performance scores and the layout shift, on the
desktop and the mobile presets, medians of several runs, with every audit that is not
passed named.

Lighthouse (npm, pinned below) is a measuring tool, not a dependency of the app: it is
installed on first use into .cache/lighthouse. Chromium is Debian's, MUSTER_CHROMIUM's, or
Playwright's own, as for the tests.

    python bench/lighthouse.py [--runs 3] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "py")]

import build  # noqa: E402
from tests.conftest import CHROMIUM_ARGS, chromium_executable  # noqa: E402

LIGHTHOUSE = "lighthouse@13.5.0"
TOOL_DIR = ROOT / ".cache" / "lighthouse"
CATEGORIES = ("accessibility", "best-practices", "seo", "performance")
PRESETS = ("desktop", "mobile")


def lighthouse_bin() -> Path:
    """The pinned Lighthouse command, installed into .cache/lighthouse when missing."""
    binary = TOOL_DIR / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists():
        TOOL_DIR.mkdir(parents=True, exist_ok=True)
        if not (TOOL_DIR / "package.json").exists():
            (TOOL_DIR / "package.json").write_text('{"private": true}\n')
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", LIGHTHOUSE],
            cwd=TOOL_DIR,
            check=True,
        )
    return binary


def chrome_path() -> str:
    """The Chromium Lighthouse drives: ours, or Playwright's own."""
    found = chromium_executable()
    if found:
        return found
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        return p.chromium.executable_path


def audit(url: str, preset: str, out: Path) -> dict:
    """One Lighthouse run; returns its JSON report."""
    flags = " ".join(CHROMIUM_ARGS + ["--headless=new"])
    command = [
        str(lighthouse_bin()),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={out}",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--chrome-flags={flags}",
        "--max-wait-for-load=90000",
    ]
    if preset == "desktop":
        command.append("--preset=desktop")
    env = dict(os.environ, CHROME_PATH=chrome_path())
    subprocess.run(command, check=True, env=env, timeout=600)
    return json.loads(out.read_text())


def summary(report: dict) -> dict:
    """Scores (0-100), the layout shift, and the audits that were not passed."""
    scores = {c: round(report["categories"][c]["score"] * 100) for c in CATEGORIES}
    audits = report["audits"]
    failed = sorted(
        {
            f"{c}: {ref['id']} ({audits[ref['id']]['score']})"
            for c in CATEGORIES
            if c != "performance"
            for ref in report["categories"][c]["auditRefs"]
            if ref.get("weight")
            and audits[ref["id"]].get("score") is not None
            and audits[ref["id"]]["score"] < 1
        }
    )
    cls = audits["cumulative-layout-shift"]["numericValue"]
    return {"scores": scores, "cls": cls, "failed": failed}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        dist = Path(tmp) / "dist"
        build.build(dist)
        server = build.make_server(dist, 0, "/muster/")
        build.serve_in_thread(server)
        host, port = server.server_address[:2]
        # Lighthouse treats localhost as a secure origin (as GitHub Pages' https is).
        url = f"http://localhost:{port}/muster/"
        results: dict = {}
        for preset in PRESETS:
            runs = [
                summary(audit(url, preset, Path(tmp) / f"{preset}-{i}.json"))
                for i in range(args.runs)
            ]
            results[preset] = {
                "scores": {c: statistics.median(r["scores"][c] for r in runs) for c in CATEGORIES},
                "cls": statistics.median(r["cls"] for r in runs),
                "failed": sorted({f for r in runs for f in r["failed"]}),
                "runs": args.runs,
            }
        server.shutdown()
    print(f"Lighthouse {LIGHTHOUSE.split('@')[1]}, medians of {args.runs} runs")
    print(f"{'':10}" + "".join(f"{c:>16}" for c in CATEGORIES) + f"{'layout shift':>14}")
    for preset, r in results.items():
        row = "".join(f"{r['scores'][c]:>16g}" for c in CATEGORIES)
        print(f"{preset:10}{row}{r['cls']:>14.3f}")
        for line in r["failed"]:
            print(f"    not passed: {line}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
