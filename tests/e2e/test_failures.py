"""When Python cannot start, the map still shows and the page says why, plainly."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("boot", ["", "boot=normal&"])
@pytest.mark.parametrize("missing", ["python_stdlib.zip", "pyodide.asm.mjs"])
def test_an_error_screen_when_pyodide_fails_to_load(browser, site_url, boot, missing):
    context = browser.new_context()
    # The network fails for a file of Pyodide's, for the page and its worker alike.
    context.route(f"**/pyodide/{missing}", lambda route: route.abort())
    page = context.new_page()
    page.goto(site_url + "?" + boot + "nosw")
    page.wait_for_selector("html[data-failed='1']", state="attached", timeout=60_000)
    assert page.locator("#fatal").is_visible()
    assert page.locator("#fatal h2").inner_text() == "The rules could not start"
    assert (
        page.locator("#fatal-detail").inner_text().startswith("The rules engine could not start:")
    )
    assert page.locator("#status").get_attribute("data-state") == "failed"
    # The map is drawn from the scenario file all the same; the failure may come first when
    # the worker's loader is refused at once, so the map is waited for, not counted at once.
    page.wait_for_selector("svg[data-map-drawn='1']", state="attached", timeout=30_000)
    assert page.locator("svg[data-map-drawn='1']").count() == 1
    # Not the snapshot's fault: it is not remembered as refused.
    assert page.evaluate("localStorage.getItem('muster.snapshots-refused')") is None
    context.close()
