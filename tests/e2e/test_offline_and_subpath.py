"""Offline after one visit (service worker), under the sub-path the e2e tests serve the site on
(as GitHub Pages does), and the same build served at the root of its origin."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from apppage import click_hex, open_app

import build

pytestmark = pytest.mark.e2e

CACHED = """async () => {
    const cache = await caches.open('muster-precache');
    return (await cache.keys()).map(r => new URL(r.url).pathname + new URL(r.url).search);
}"""


def _tap_answers(page, label: str, terrain: str) -> None:
    click_hex(page, label)
    page.wait_for_selector(f"#hex-panel .hex-number[data-hex='{label}']")
    assert page.locator("#hex-panel .terrain").inner_text() == terrain


def _controlled(page) -> None:
    page.wait_for_function(
        "navigator.serviceWorker.controller !== null", timeout=60_000, polling=200
    )


def test_reload_with_the_network_cut_still_works(browser, site_url, dist):
    app = open_app(browser, site_url)
    page = app.page
    # The service worker registers once the rules are ready, keeps every file of the build
    # and takes control of the page.
    _controlled(page)
    prefix = urlsplit(site_url).path
    cached = page.evaluate(CACHED)
    # Each file of the build once, under its revision: its content hash, or Pyodide's version.
    wanted = {prefix + e["url"][2:] + "?__rev=" + e["rev"] for e in build.precache_list(dist)}
    assert sorted(cached) == sorted(wanted)
    paths = {c.split("?")[0] for c in cached}
    for path in [
        "",
        "index.html",
        "pyodide/pyodide.asm.wasm",
        "static/worker.js",
        "core/core.json",
        "core/snapshot.gz",
    ]:
        assert prefix + path in paths
    assert f"{prefix}pyodide/python_stdlib.zip?__rev=pyodide-{build.pyodide_version()}" in cached

    app.context.set_offline(True)
    page.reload()
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=60_000)
    # Offline, the rules start from the memory snapshot the service worker kept.
    assert page.evaluate("window.musterTiming.boot.boot") == "snapshot"
    _tap_answers(page, "0905", "Town")
    assert page.evaluate("navigator.onLine") is False
    # A link into the site the cache does not hold opens the app all the same.
    page.goto(site_url + "no-such-page")
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=60_000)
    app.assert_no_errors()
    app.context.close()


def test_the_site_works_at_the_root_and_under_a_sub_path(browser, site_url, root_url):
    for url, scope in ((root_url, "/"), (site_url, urlsplit(site_url).path)):
        app = open_app(browser, url)
        page = app.page
        failed: list[str] = []
        page.on("requestfailed", lambda r, failed=failed: failed.append(r.url))
        page.on(
            "response", lambda r, failed=failed: failed.append(r.url) if r.status >= 400 else None
        )
        assert urlsplit(page.url).path == scope
        _tap_answers(page, "0302", "Woods")
        _controlled(page)
        assert page.evaluate("navigator.serviceWorker.controller.scriptURL").endswith(
            scope + "sw.js"
        )
        assert failed == []
        app.assert_no_errors()
        app.context.close()
