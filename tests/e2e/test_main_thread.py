"""The main thread kept free, in what can be held without a clock: Pyodide's wasm is compiled
and instantiated off the page's main thread, and a map's hex numbers are laid out a few at a
time, one batch a frame, never all at once.

How long the page's tasks last is measured by bench/main_thread.py (figures in the README),
never asserted here: on these shared machines a duration fails at random.
"""

from __future__ import annotations

import pytest
from apppage import READY_TIMEOUT_MS, open_app, tablet

pytestmark = pytest.mark.e2e

# Every call the page's main thread makes to WebAssembly's compile and instantiate functions,
# in window.__wasmCalls, and every worker it starts, in window.__workers.
WATCH = """
window.__wasmCalls = [];
for (const name of ["compile", "compileStreaming", "instantiate", "instantiateStreaming"]) {
  const original = WebAssembly[name];
  if (typeof original !== "function") continue;
  WebAssembly[name] = function (...args) {
    window.__wasmCalls.push(name);
    return original.apply(this, args);
  };
}
window.__workers = [];
const PageWorker = window.Worker;
window.Worker = class extends PageWorker {
  constructor(url, options) {
    super(url, options);
    window.__workers.push(String(url));
  }
};
"""

# Each batch of hex numbers added to a map's number layer: [how many texts it added].
NUMBERS = """
window.__numberBatches = [];
new MutationObserver(function (records) {
  for (const record of records) {
    if (!(record.target instanceof Element) || !record.target.matches(".hm-nums")) continue;
    const added = [...record.addedNodes].filter((n) => n.nodeName.toLowerCase() === "text");
    if (added.length) window.__numberBatches.push(added.length);
  }
}).observe(document, { subtree: true, childList: true });
"""

NUMS_PER_FRAME = 80  # static/render/hex.js


@pytest.mark.parametrize("boot", ["snapshot", "normal"])
def test_the_wasm_is_compiled_off_the_main_thread(browser, site_url, boot):
    url = site_url if boot == "snapshot" else f"{site_url}?boot=normal"
    app = open_app(browser, url, init_script=WATCH, **tablet())
    page = app.page
    try:
        assert page.evaluate("window.musterTiming.boot.boot") == boot
        # The page made the compile worker and the rules worker, and never compiled or
        # instantiated a wasm module itself: on a cold visit (empty cache, no service worker)…
        workers = page.evaluate("window.__workers")
        assert any("compile_worker.js" in w for w in workers), workers
        assert any("worker.js" in w and "compile_worker" not in w for w in workers), workers
        assert page.evaluate("window.__wasmCalls") == []
        # …and on a warm one, once the service worker controls the page.
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
        page.reload()
        page.wait_for_selector("html[data-ready='1']", state="attached", timeout=READY_TIMEOUT_MS)
        assert page.evaluate("navigator.serviceWorker.controller !== null")
        assert page.evaluate("window.__wasmCalls") == []
        app.assert_no_errors()
    finally:
        app.context.close()


def test_hex_numbers_are_laid_out_a_few_at_a_time(browser, site_url):
    app = open_app(browser, f"{site_url}?scenario=demo-valmont", init_script=NUMBERS, **tablet())
    page = app.page
    try:
        hexes = page.locator("#map svg [data-hex]").count()
        assert hexes > 2 * NUMS_PER_FRAME  # a map that needs several batches
        # Near enough to read them, every hex gets its number, in batches of at most 80.
        page.wait_for_function(
            "n => document.querySelectorAll('#map .hm-nums text').length >= n",
            arg=hexes,
            timeout=30_000,
        )
        batches = page.evaluate("window.__numberBatches")
        assert sum(batches) == page.locator("#map .hm-nums text").count() >= hexes
        assert len(batches) >= hexes // NUMS_PER_FRAME
        assert max(batches) <= NUMS_PER_FRAME, batches
        app.assert_no_errors()
    finally:
        app.context.close()
