"""Two tablets, one battle: the host's page keeps the game, the guest's page shows one side,
paired by their typed codes over a WebRTC data channel between two browser contexts (no
server). A Fontanella movement phase is played on each page with no hand-over; everything the
guest page received and its page hold none of the host side's hidden blocks; a dropped link is
said on both pages and the host's game goes on as pass-and-play; a new pairing resumes it. A
link interrupted and back resumes from the last agreed view; a view altered in transit is
healed; the guest's screen keeps only what is the guest's, and says where the game is kept
when the link is lost; "Pair again" on the host resumes the same game with nothing lost. A
guest whose link is lost for good leaves the paired game: its own engine and its own game come
back, nothing of the host's game kept, and it starts a new game of its own."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from apppage import open_app, press, settle, tablet, valmont_to_movement, wait_text

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
FONTANELLA = json.loads((ROOT / "py/muster/scenarios/demo-fontanella.json").read_text())
AUSTRIA = [u for u in FONTANELLA["units"] if u["side"] == "austria"]

# Every text the guest page's data channels receive, kept on the page for the test to read.
# While window.pairTamper is above 0, that many of the views received (the texts with a hash)
# are altered on their way in, their hash kept: a view corrupted in transit.
RECORD = """
window.pairReceived = [];
window.pairTamper = 0;
(function () {
  const add = RTCDataChannel.prototype.addEventListener;
  RTCDataChannel.prototype.addEventListener = function (kind, listener, options) {
    if (kind === "message") {
      const inner = listener;
      listener = function (event) {
        const text = String(event.data);
        window.pairReceived.push(text);
        const message = JSON.parse(text);
        if (window.pairTamper > 0 && message.hash) {
          window.pairTamper -= 1;
          const result = message.view ? message : message.result;
          (result.view || result).prompt = "altered in transit";
          return inner.call(this, { data: JSON.stringify(message) });
        }
        return inner.call(this, event);
      };
    }
    return add.call(this, kind, listener, options);
  };
})();
"""


def open_guest(browser, site_url):
    """A tablet to be the guest: its data channels' texts recorded on the page (RECORD)."""
    return open_app(browser, site_url, init_script=RECORD, **tablet())


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


def pair_up(host, guest, side="france", again=False):
    """The host shares its game for `side`; the codes are typed across, one each way.
    `again`: the link was lost, and the host pairs again for the same side from its privacy
    screen (the game goes on there as pass-and-play)."""
    if again:
        box = host.locator("#curtain #pair-again-curtain").bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44
        press(host, "#curtain #pair-again-curtain")
    else:
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
    host_app, guest_app = open_host(browser, site_url), open_guest(browser, site_url)
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


def host_actions(host):
    """How many actions the host's game holds (its own engine: the whole game)."""
    return host.evaluate(
        "window.muster.engine.call('save', {}).then((save) => save.actions.length)"
    )


def guest_view(page):
    """The view on the guest's screen now."""
    return page.evaluate("window.musterPair.current().view")


def host_view_for(host, side):
    """The view the host's game gives `side` now."""
    return host.evaluate(f"window.muster.engine.call('game_view', {{viewer: '{side}'}})")


def act_once(guest, host):
    """The guest takes one action of the game (the first choice offered, as often as it takes
    to be one): the host's game holds one more."""
    count = host_actions(host)
    for _ in range(6):
        press(guest, "#dock button.action")
        settle(guest)
        if host_actions(host) > count:
            break
    assert host_actions(host) == count + 1
    return count + 1


def test_a_link_resumed_healed_and_paired_again_with_nothing_lost(browser, site_url):
    host_app, guest_app = open_host(browser, site_url), open_guest(browser, site_url)
    host, guest = host_app.page, guest_app.page
    try:
        pair_up(host, guest)
        # The guest's screen: New game and the saves are the host's; it names its side.
        for selector in ("#new-game", "#save-game", "#saved-games"):
            assert host.locator(selector).is_visible(), selector
            assert not guest.locator(selector).is_visible(), selector
        assert "France" in guest.locator("#pair-chip").inner_text()
        assert guest.locator("#dock .viewer[data-side='france']").count() == 1
        assert guest.locator("#dock #undo").is_disabled()  # Austria decides
        # The link interrupted on both tablets (a tablet asleep): said, and waited for.
        for page in (host, guest):
            page.evaluate("window.musterPair.link.linkState('disconnected')")
            page.wait_for_selector("#pair-chip[data-state='paused']")
        received = guest.evaluate("window.pairReceived.length")
        # Austria's movement on the host meanwhile: nothing is sent to the guest.
        end_phase(host, "Austria")
        settle(host)
        assert guest.evaluate("window.pairReceived.length") == received
        assert "France" not in side_prompt(guest)
        # The link back by itself (the guest's end first): the guest asks its view from the
        # last agreed one, and gets the game as it is now.
        guest.evaluate("window.musterPair.link.linkState('connected')")
        guest.wait_for_selector("#pair-chip[data-state='guest']")
        guest.wait_for_function("document.documentElement.dataset.pairResumed === 'view'")
        host.evaluate("window.musterPair.link.linkState('connected')")
        host.wait_for_selector("#pair-chip[data-state='host']")
        guest.wait_for_function(
            "document.getElementById('prompt')"
            " && document.getElementById('prompt').innerText.includes('France')"
        )
        assert guest_view(guest)["state"] == host_view_for(host, "france")["state"]
        # Undo as the rules allow it for the side deciding: taken back on the host's game.
        count = act_once(guest, host)
        guest.wait_for_selector("#dock #undo:not([disabled])")
        press(guest, "#dock #undo")
        host.wait_for_function(
            "(n) => window.muster.engine.call('save', {}).then((s) => s.actions.length === n)",
            arg=count - 1,
        )
        press(guest, "#dock #redo")
        host.wait_for_function(
            "(n) => window.muster.engine.call('save', {}).then((s) => s.actions.length === n)",
            arg=count,
        )
        # A view altered in transit (the answer to the guest's action): detected, the whole
        # view asked again and put in its place; nothing said, and the next action accepted.
        guest.evaluate("window.pairTamper = 1")
        count = act_once(guest, host)
        guest.wait_for_function("document.documentElement.dataset.pairHealed === '1'")
        settle(guest)
        assert guest.evaluate("window.pairTamper") == 0
        assert "altered" not in side_prompt(guest)
        assert "set right" not in guest.locator("#message").inner_text()
        assert guest_view(guest)["state"] == host_view_for(host, "france")["state"]
        act_once(guest, host)
        # Altered every time: said plainly, once every try failed (pair again, it says).
        guest.evaluate("window.pairTamper = 1000")
        act_once(guest, host)
        guest.wait_for_function(
            "document.getElementById('message').innerText.includes('could not be set right')"
        )
        guest.evaluate("window.pairTamper = 0")
        # The link fails (the guest's connection closed): the host goes on alone; the guest
        # says where the game is kept and how to carry on.
        count = host_actions(host)
        before = host_view_for(host, "france")
        agreed = int(host.evaluate("document.documentElement.dataset.pairAgreed"))
        guest.evaluate(
            "window.musterPair.link.pc.close(); window.musterPair.link.linkState('failed')"
        )
        host.wait_for_selector("#pair-chip[data-state='lost']")
        guest.wait_for_selector("#pair-chip[data-state='lost']")
        assert "kept there" in guest.locator("#message").inner_text()
        press(guest, "#pair-chip")
        assert "kept on the host tablet" in guest.locator("#pair-alone").inner_text()
        assert not guest.locator("#new-game").is_visible()
        press(guest, "#pair-close")
        # Pair again on the host: the same game, on two tablets again, nothing lost; the
        # guest's view is the game's again, and play goes on on both.
        pair_up(host, guest, again=True)
        guest.wait_for_selector("#area-map [data-piece='f08']", state="attached")
        settle(guest)
        assert host_actions(host) == count
        assert host_view_for(host, "france") == before
        assert guest_view(guest)["state"] == before["state"]
        assert guest_view(guest)["log"] == before["log"]
        assert "altered" not in side_prompt(guest)
        assert int(host.evaluate("document.documentElement.dataset.pairAgreed")) > agreed
        end_phase(guest, "France")
        host.wait_for_function(
            "document.getElementById('prompt')"
            " && !document.getElementById('prompt').innerText.includes('France')"
        )
        assert host_actions(host) > count
        hidden_from_guest(guest)
        host_app.assert_no_errors()
        guest_app.assert_no_errors()
    finally:
        host_app.context.close()
        guest_app.context.close()


def own_game(page):
    """The scenario and the number of actions of the game in a page's engine (its own worker,
    or the host's when paired: a guest's save is refused)."""
    return page.evaluate(
        "window.muster.engine.call('save', {}).then("
        "(save) => [save.scenario.id, save.actions.length])"
    )


def kept_scenarios(page):
    """The scenario of every game the page keeps (its saved games)."""
    return page.evaluate(
        "window.muster.games.load().then((records) => records.map((r) => r.save.scenario.id))"
    )


def test_the_guest_leaves_a_lost_game_for_its_own_games(browser, site_url):
    host_app = open_host(browser, site_url)
    guest_app = open_app(
        browser, site_url + "?scenario=demo-valmont", init_script=RECORD, **tablet()
    )
    host, guest = host_app.page, guest_app.page
    try:
        # The guest tablet has a game of its own (Valmont) before it is paired.
        valmont_to_movement(guest)
        settle(guest)
        own = own_game(guest)
        assert own[0] == "demo-valmont" and own[1] >= 1
        pair_up(host, guest)
        assert not guest.locator("#new-game").is_visible()
        # The link lost for good: the guest may leave the host's game.
        count = host_actions(host)
        guest.evaluate(
            "window.musterPair.link.pc.close(); window.musterPair.link.linkState('failed')"
        )
        host.wait_for_selector("#pair-chip[data-state='lost']")
        guest.wait_for_selector("#pair-chip[data-state='lost']")
        press(guest, "#pair-chip")
        box = guest.locator("#pair-leave").bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44
        assert guest.locator("#pair-leave").inner_text() == "Leave the paired game"
        press(guest, "#pair-leave")
        # Its own engine and its own game again, as it left them; New game and the saves back.
        guest.wait_for_function("!document.documentElement.dataset.pairRole")
        guest.wait_for_selector("#map [data-unit='fr-1-1']", state="attached")
        wait_text(guest, "#message", "own games are back")
        assert guest.locator("#pair-chip").is_hidden()
        assert not guest.locator("#pair-dialog").is_visible()
        assert guest.evaluate("window.muster.engine.remote") is None
        assert own_game(guest) == own
        for selector in ("#new-game", "#save-game", "#saved-games"):
            assert guest.locator(selector).is_visible(), selector
        # Nothing of the host's game stays: not kept, not on the page, not in the address.
        assert kept_scenarios(guest) == ["demo-valmont"]
        assert guest.locator("#area-map [data-piece]").count() == 0
        html = guest.content()
        for unit in FONTANELLA["units"]:
            assert unit["name"] not in html, unit["name"]
        assert "fontanella" not in guest.url
        # A new game of its own starts (asked first: its game in progress is kept).
        press(guest, "#new-game")
        press(guest, "#ask-ok")
        guest.wait_for_selector("#roll")
        assert own_game(guest) == ["demo-valmont", 0]
        guest.wait_for_function(
            "window.muster.games.load().then((records) => records.length === 2)"
        )
        assert kept_scenarios(guest) == ["demo-valmont", "demo-valmont"]
        # The host's game goes on on its own tablet, untouched.
        assert host.locator("#pair-chip[data-state='lost']").count() == 1
        assert host_actions(host) == count
        host_app.assert_no_errors()
        guest_app.assert_no_errors()
    finally:
        host_app.context.close()
        guest_app.context.close()
