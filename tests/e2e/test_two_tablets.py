"""Two tablets, one battle: the host's page keeps the game, the guest's page shows one side,
paired by their typed codes over a WebRTC data channel between two browser contexts (no
server). A Fontanella movement phase is played on each page with no hand-over; everything the
guest page received and its page hold none of the host side's hidden blocks; a dropped link is
said on both pages and the host's game goes on as pass-and-play; a new pairing resumes it."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from apppage import open_app, press, settle, tablet

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
FONTANELLA = json.loads((ROOT / "py/muster/scenarios/demo-fontanella.json").read_text())
AUSTRIA = [u for u in FONTANELLA["units"] if u["side"] == "austria"]

# Every text the guest page's data channels receive, kept on the page for the test to read.
RECORD = """
window.pairReceived = [];
(function () {
  const add = RTCDataChannel.prototype.addEventListener;
  RTCDataChannel.prototype.addEventListener = function (kind, listener, options) {
    if (kind === "message") {
      const inner = listener;
      listener = function (event) {
        window.pairReceived.push(String(event.data));
        return inner.call(this, event);
      };
    }
    return add.call(this, kind, listener, options);
  };
})();
"""


def open_host(browser, site_url):
    app = open_app(browser, site_url + "?scenario=demo-fontanella", **tablet())
    page = app.page
    page.click("#new-game")
    page.wait_for_selector("#curtain:not([hidden]) #curtain-go, #prompt")
    if page.locator("#curtain:not([hidden])").count():
        press(page, "#curtain-go")
        page.wait_for_selector("#curtain", state="hidden")
    page.wait_for_selector("#prompt")
    return app


def pair_up(host, guest, side="france"):
    """The host shares its game for `side`; the codes are typed across, one each way."""
    press(host, "#pair-button")
    press(host, f"#pair-host-{side}")
    host.wait_for_selector("#pair-offer")
    offer = host.input_value("#pair-offer")
    assert offer.startswith("M1o") and len(offer) < 200
    press(guest, "#pair-button")
    for button in guest.locator("#pair-dialog button").all():
        box = button.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, button.inner_text()
    guest.fill("#pair-offer-input", offer)
    press(guest, "#pair-join")
    guest.wait_for_selector("#pair-answer")
    answer = guest.input_value("#pair-answer")
    assert answer.startswith("M1a") and len(answer) < 200
    host.fill("#pair-answer-input", answer)
    press(host, "#pair-connect")
    host.wait_for_selector("#pair-chip[data-state='host']")
    guest.wait_for_selector("#pair-chip[data-state='guest']")
    guest.wait_for_selector("#area-map [data-piece]", state="attached")


def qr_picture(page, selector):
    """The PNG of the QR code a page shows."""
    page.wait_for_selector(f"{selector}[src^='data:image/png']")
    src = page.locator(selector).get_attribute("src")
    return {"name": "code.png", "mimeType": "image/png", "buffer": base64.b64decode(src[22:])}


def pair_by_qr(host, guest, side="france"):
    """The same pairing, each tablet's QR code given to the other's camera input (a picture
    read by the same decoder as a photo)."""
    press(host, "#pair-button")
    press(host, f"#pair-host-{side}")
    offer = qr_picture(host, "#pair-offer-qr")
    press(guest, "#pair-button")
    guest.set_input_files("#pair-offer-photo", files=[offer])
    answer = qr_picture(guest, "#pair-answer-qr")
    host.set_input_files("#pair-answer-photo", files=[answer])
    host.wait_for_selector("#pair-chip[data-state='host']")
    guest.wait_for_selector("#pair-chip[data-state='guest']")


def side_prompt(page):
    prompt = page.locator("#prompt")
    return prompt.inner_text() if prompt.count() else ""


def end_phase(page, side_name, limit=40):
    """Take the side's movement phase on its own page: blocks that must move are moved (the
    first choice offered), then the phase ended, asked and confirmed."""
    for _ in range(limit):
        settle(page)
        if side_name not in side_prompt(page) or "movement" not in side_prompt(page).lower():
            return
        assert page.locator("#curtain:not([hidden])").count() == 0, "a hand-over was asked"
        if page.locator("#ask-unused").count():
            press(page, "#ask-unused button.end, #dock button.end")
        elif "must" not in page.locator("#dock").inner_text().lower():
            press(page, "#dock button.end")
        else:
            press(page, "#dock button.action")
    pytest.fail("the phase never ended: " + side_prompt(page))


def hidden_from_guest(guest):
    """Every message the guest page received, and its page: no Austrian block's id or name."""
    received = "\n".join(guest.evaluate("window.pairReceived"))
    html = guest.content()
    assert received, "the guest page received nothing"
    for unit in AUSTRIA:
        assert unit["name"] not in received, unit["name"]
        assert f'"{unit["id"]}"' not in received, unit["id"]
        assert unit["name"] not in html, unit["name"]
        assert f'data-piece="{unit["id"]}"' not in html, unit["id"]


def test_a_phase_on_each_tablet_hidden_blocks_kept_and_a_dropped_link(browser, site_url):
    host_app = open_host(browser, site_url)
    guest_app = open_app(browser, site_url, init_script=RECORD, **tablet())
    host, guest = host_app.page, guest_app.page
    try:
        pair_up(host, guest)
        # Who is connected, on both pages; the guest's screen names its side.
        assert "France" in host.locator("#pair-chip").inner_text()
        assert "You play France" in guest.locator("#pair-chip").inner_text()
        for page in (host, guest):
            box = page.locator("#pair-chip").bounding_box()
            assert box["height"] >= 44 and box["width"] >= 44
            # The header keeps its one row with the chip shown (floating under it).
            tops = page.evaluate(
                "Array.from(document.querySelectorAll("
                "'header.bar > button:not([hidden]):not(#pair-chip)'),"
                " (n) => n.getBoundingClientRect().top)"
            )
            assert max(tops) - min(tops) <= 1, tops
        # The guest sees France's blocks, Austria's as bare blocks.
        own = "#area-map [data-piece='f08'][data-hidden='false']"
        guest.wait_for_selector(own, state="attached")
        assert guest.locator("#area-map [data-side='austria'][data-hidden='true']").count() > 0
        hidden_from_guest(guest)
        # The guest may not act for Austria, nor ask for Austria's view or the save.
        refused = guest.evaluate(
            """async () => {
              const engine = window.muster.engine;
              const out = [];
              const asked = [["game_view", {viewer: "austria"}], ["save", {}],
                ["new_game", {seed: 1}], ["act", {action: {type: "end_phase"}}]];
              for (const [m, p] of asked) {
                try { await engine.call(m, p); out.push(m + ": answered"); }
                catch (e) { out.push(m + ": " + e.key); }
              }
              return out;
            }"""
        )
        assert refused == [
            "game_view: ui.pair_refused",
            "save: ui.pair_refused",
            "new_game: ui.pair_refused",
            "act: ui.pair_not_yours",
        ]
        # Austria's movement on the host's page, France's on the guest's: no hand-over.
        end_phase(host, "Austria")
        guest.wait_for_function(
            "document.getElementById('prompt')"
            " && document.getElementById('prompt').innerText.includes('France')"
        )
        assert host.locator("#curtain:not([hidden])").count() == 0
        end_phase(guest, "France")
        host.wait_for_function(
            "document.getElementById('prompt')"
            " && document.getElementById('prompt').innerText.includes('Austria')"
            " && !document.getElementById('prompt').innerText.includes('France')"
        )
        assert "France" in host.locator("#log-panel").inner_text()
        # Every view the guest had was acknowledged: the host agrees on the last.
        agreed = host.evaluate("document.documentElement.dataset.pairAgreed")
        assert agreed and int(agreed) >= 2
        hidden_from_guest(guest)
        # A view that arrives altered (its hash does not match) is noticed and asked again.
        shown = int(guest.evaluate("document.documentElement.dataset.shown || 0"))
        guest.evaluate(
            """() => window.musterPair.remote.receive(JSON.stringify({
              t: "view", view: {state: {blocks: []}}, seq: 999, hash: "00000000"}))"""
        )
        guest.wait_for_function(
            f"document.documentElement.dataset.pairHealed === '1'"
            f" && Number(document.documentElement.dataset.shown) > {shown}"
        )
        guest.wait_for_selector(own, state="attached")
        # The link dropped (the guest's end closed): said on both pages; the host plays on alone.
        guest.evaluate("window.musterPair.end()")
        host.wait_for_selector("#pair-chip[data-state='lost']")
        guest.wait_for_selector("#pair-chip[data-state='lost']")
        assert "lost" in host.locator("#message").inner_text()
        assert "lost" in guest.locator("#message").inner_text()
        # A new pairing, by the QR codes: the guest rejoins the game as the host has it.
        pair_by_qr(host, guest)
        guest.wait_for_selector("#area-map [data-piece='f08']", state="attached")
        hidden_from_guest(guest)
        host_app.assert_no_errors()
        guest_app.assert_no_errors()
    finally:
        host_app.context.close()
        guest_app.context.close()
