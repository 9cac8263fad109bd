"""In WebKit and Firefox, at the tablet's size: the rules start from the memory snapshot and the
normal way, the map answers a tap, and a reload with the server gone is served by the service
worker and reaches rules ready."""

from __future__ import annotations

import pytest
from drivers import TABLET, png_size
from xbapp import App

import build

pytestmark = pytest.mark.xbrowser

# The files the service worker keeps, as the page sees them in its cache.
CACHED = """async () => {
  const cache = await caches.open('muster-precache');
  return (await cache.keys()).length;
}"""


# The map's view fits its box: the same width to height (the fit that follows a resize).
FITTED = """() => {
  const box = document.querySelector('#map').getBoundingClientRect();
  const view = document.querySelector('#map svg').viewBox.baseVal;
  const aspect = box.width / box.height;
  return Math.abs(view.width / view.height - aspect) < 0.01 * aspect;
}"""


def tap_hex_answers(app: App, label: str, terrain: str) -> None:
    """A tap on hex ``label``: the panel names it and its terrain."""
    d = app.d
    d.settle()
    d.tap_element(f"#map svg [data-hex='{label}']", hit=False)
    d.wait_selector(f"#hex-panel .hex-number[data-hex='{label}']")
    assert d.text("#hex-panel .terrain") == terrain


def test_rules_ready_from_the_snapshot_at_the_tablet_size(app: App):
    d = app.d
    app.open()
    boot = d.value("window.musterTiming.boot")
    assert boot["boot"] == "snapshot" and "refused" not in boot, boot
    assert d.viewport() == TABLET
    assert d.value("window.devicePixelRatio") == 1
    assert png_size(d.screenshot()) == TABLET
    assert d.count("#map svg [data-hex]") > 100
    assert d.text("#status").strip() != ""
    tap_hex_answers(app, "0905", "Town")
    d.assert_no_errors()


def test_rules_ready_the_normal_way(app: App):
    d = app.d
    app.open("?boot=normal")
    boot = d.value("window.musterTiming.boot")
    assert boot["boot"] == "normal" and "refused" not in boot, boot
    tap_hex_answers(app, "0302", "Woods")
    d.assert_no_errors()


def test_the_map_follows_the_tablet_turned_without_an_error(app: App):
    """A turn of the tablet refits the map; the new size is applied in the next frame, not
    inside the ResizeObserver's callback, which WebKit reported as an uncaught error (a
    "ResizeObserver loop")."""
    d = app.d
    app.open()
    view_box = "() => document.querySelector('#map svg').getAttribute('viewBox')"
    portrait = d.call(view_box)
    try:
        d.set_viewport(TABLET[1], TABLET[0])
        d.wait_for(f"() => ({view_box})() !== {portrait!r}", what="the map refitted")
        d.wait_for(FITTED, what="the map fitted to its box")
    finally:
        d.set_viewport(*TABLET)
    d.wait_for(FITTED, what="the map fitted to its box again")
    tap_hex_answers(app, "0905", "Town")
    d.assert_no_errors()


def test_a_reload_with_the_server_gone_is_served_offline(app: App):
    d = app.d
    app.open()
    # The service worker registers once the rules are ready, keeps every file of the build and
    # takes control of the page.
    d.wait_for(
        "() => navigator.serviceWorker.controller !== null",
        timeout=60,
        what="the service worker in control",
    )
    files = len(build.precache_list(app.site.root))
    d.wait_for(f"async () => (await ({CACHED})()) === {files}", timeout=60, what="every file kept")
    app.site.stop()
    try:
        app.reload()
        assert d.value("window.musterTiming.boot.boot") == "snapshot"
        tap_hex_answers(app, "0905", "Town")
        d.assert_no_errors()
    finally:
        app.site.start()


def test_a_console_error_is_seen(app: App):
    """The check every test ends with can fail: an error printed, thrown or rejected in the page
    is reported by each browser's driver."""
    d = app.d
    app.open("?nosw")
    d.call(
        "() => { console.error('printed'); setTimeout(() => { throw new Error('thrown'); });"
        " Promise.reject(new Error('rejected')); }"
    )
    d.wait_for("() => new Promise(r => setTimeout(() => r(true), 200))")
    errors = " ".join(d.errors())
    assert "printed" in errors and "thrown" in errors and "rejected" in errors, errors
    assert d.errors() == []
