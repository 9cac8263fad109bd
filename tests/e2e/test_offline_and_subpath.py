"""Offline after one visit (service worker), and the build served under a sub-path."""

from __future__ import annotations

import pytest
from apppage import click_hex, open_app

pytestmark = pytest.mark.e2e


def _tap_answers(page, label: str, terrain: str) -> None:
    click_hex(page, label)
    page.wait_for_selector(f"#hex-panel .hex-number[data-hex='{label}']")
    assert page.locator("#hex-panel .terrain").inner_text() == terrain


def test_reload_with_the_network_cut_still_works(browser, site_url):
    app = open_app(browser, site_url)
    page = app.page
    # The service worker registers once the rules are ready, precaches every file and
    # takes control of the page.
    page.wait_for_function(
        "navigator.serviceWorker.controller !== null", timeout=60_000, polling=200
    )
    cached = page.evaluate(
        """async () => {
            const keys = await caches.keys();
            const cache = await caches.open(keys.find(k => k.startsWith('muster-')));
            return (await cache.keys()).map(r => new URL(r.url).pathname);
        }"""
    )
    for path in ["/", "/index.html", "/pyodide/pyodide.asm.wasm", "/static/worker.js"]:
        assert path in cached
    assert any(p.endswith(".whl") for p in cached)

    app.context.set_offline(True)
    page.reload()
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=60_000)
    _tap_answers(page, "0905", "Town")
    assert page.evaluate("navigator.onLine") is False
    app.assert_no_errors()
    app.context.close()


def test_the_site_works_under_a_sub_path(browser, subpath_url):
    app = open_app(browser, subpath_url)
    page = app.page
    failed: list[str] = []
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    assert page.url.endswith("/some-repo/")
    _tap_answers(page, "0302", "Woods")
    page.wait_for_function(
        "navigator.serviceWorker.controller !== null", timeout=60_000, polling=200
    )
    scope = page.evaluate("navigator.serviceWorker.controller.scriptURL")
    assert scope.endswith("/some-repo/sw.js")
    assert failed == []
    app.assert_no_errors()
    app.context.close()
