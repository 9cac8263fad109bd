"""The VASSAL harness page (vassal_harness.html) three ways: with the browser's own
DecompressionStream, without it (older iPads: the module is unpacked by inflate.js), and with
one that lacks deflate-raw (Chrome 80-102); shared by the module reader's tests."""

from __future__ import annotations

from collections.abc import Iterator

from apppage import AppPage, open_app

NO_DECOMPRESSION = "delete window.DecompressionStream;"

# A DecompressionStream that knows gzip and deflate but not deflate-raw (Chrome 80-102).
NO_DEFLATE_RAW = """(() => {
  const Native = window.DecompressionStream;
  window.DecompressionStream = class extends Native {
    constructor(format) {
      if (format === "deflate-raw") throw new TypeError("Unsupported compression format");
      super(format);
    }
  };
})();"""


def vassal_page(browser, site_url, init: str | None) -> AppPage:
    """The harness page, ``init`` run before its scripts, ready."""
    return open_app(
        browser,
        f"{site_url}__tests__/e2e/vassal_harness.html",
        init_script=init,
        viewport={"width": 1280, "height": 800},
    )


def three_pages(browser, site_url) -> Iterator[dict[str, AppPage]]:
    """The harness the three ways ("native", "none", "no-raw"), for a module's fixture; closed
    after."""
    opened = {
        "native": vassal_page(browser, site_url, None),
        "none": vassal_page(browser, site_url, NO_DECOMPRESSION),
        "no-raw": vassal_page(browser, site_url, NO_DEFLATE_RAW),
    }
    yield opened
    for page in opened.values():
        page.context.close()
