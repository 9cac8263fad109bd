"""The core's unit tests, run a second time inside Pyodide in Chromium (the real runtime)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_core_unit_tests_pass_inside_pyodide(browser, site_url, pyodide_wheels):
    wheels = sorted(p.name for p in pyodide_wheels.glob("*.whl"))
    micropip = next(name for name in wheels if name.startswith("micropip-"))
    others = [f"{site_url}__wheels__/{name}" for name in wheels if name != micropip]
    files = [
        {"url": f"{site_url}__tests__/core/{p.name}", "path": f"/home/pyodide/tests/core/{p.name}"}
        for p in sorted((ROOT / "tests" / "core").glob("*.py"))
    ]
    assert len(files) >= 4
    # The golden files and the script that writes them (tests/core/test_golden.py reads both).
    files += [
        {
            "url": f"{site_url}__tests__/{p.relative_to(ROOT / 'tests')}",
            "path": f"/home/pyodide/tests/{p.relative_to(ROOT / 'tests')}",
        }
        for p in [
            ROOT / "tests" / "regen_golden.py",
            *sorted((ROOT / "tests" / "golden").rglob("*.txt")),
        ]
    ]
    # The scenario format's docs (a test checks they list every setting a scenario may change).
    files += [
        {
            "url": f"{site_url}__docs__/scenario-format.md",
            "path": "/home/pyodide/docs/scenario-format.md",
        }
    ]
    # The words of the app: the core's tests check every message it emits has them; and the
    # app's file reader, which words a file that is not JSON with the core's problem keys.
    files += [
        {"url": f"{site_url}static/i18n/{p.name}", "path": f"/home/pyodide/static/i18n/{p.name}"}
        for p in sorted((ROOT / "static" / "i18n").glob("*.json"))
    ]
    files += [{"url": f"{site_url}static/files.js", "path": "/home/pyodide/static/files.js"}]
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{site_url}__tests__/e2e/pyodide_harness.html")
    page.wait_for_selector("html[data-harness='1']", state="attached")
    result = page.evaluate(
        "([micropip, wheels, files, args]) => window.runCoreTests(micropip, wheels, files, args)",
        [
            f"{site_url}__wheels__/{micropip}",
            others,
            files,
            [
                "-q",
                "-p",
                "no:cacheprovider",
                "--doctest-modules",
                "/home/pyodide/tests/core",
                "--pyargs",
                "muster",
            ],
        ],
    )
    context.close()
    print(result["output"][-3000:])
    assert result["python"].startswith("3.14"), result["python"]
    assert "pytest==9.0.3" in result["installed"]
    assert result["core"] == result["expected"]
    assert result["code"] == 0, result["output"][-3000:]
    summary = result["output"].strip().splitlines()[-1]
    assert " passed" in summary and "failed" not in summary and "error" not in summary, summary
    assert errors == []
