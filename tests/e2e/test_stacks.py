"""Stacks and targets on a tablet (820×1180, touch): every counter's ratings in a stack are in
sight (no other counter drawn over them), a tap on a Fontanella block selects it with no
"which one?" list when no other block is drawn over it, the list shows only where blocks are
drawn on top of one another, and every approach takes a finger's tap (44 px or more)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_play_panel import H, W, open_demo, reveal_if_covered, shown, tap

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
WORDS = json.loads((ROOT / "static/i18n/en.json").read_text())

# For every hex holding two counters or more, each counter whose ratings are in the viewport:
# the counter found at the centre of its ratings text (document.elementFromPoint).
RATINGS_SEEN = """() => {
  const byHex = {};
  document.querySelectorAll('#map g.hm-unit[data-unit]').forEach((g) => {
    (byHex[g.getAttribute('data-at')] = byHex[g.getAttribute('data-at')] || []).push(g);
  });
  const out = [];
  Object.keys(byHex).forEach((hex) => {
    if (byHex[hex].length < 2) return;
    byHex[hex].forEach((g) => {
      const text = g.querySelector('.hm-unit-ratings');
      if (!text) return;
      const r = text.getBoundingClientRect();
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      const map = document.getElementById('map').getBoundingClientRect();
      if (x < map.left || x > map.right || y < map.top || y > map.bottom) return;
      const hit = document.elementFromPoint(x, y);
      const owner = hit && hit.closest('[data-unit]');
      out.push({hex: hex, unit: g.getAttribute('data-unit'), text: text.textContent,
                found: owner ? owner.getAttribute('data-unit') : null});
    });
  });
  return out;
}"""


@pytest.mark.parametrize("demo", ["demo-hohenbrueck", "demo-valmont"])
def test_every_counter_of_a_stack_shows_its_ratings(browser, site_url, demo):
    app = open_demo(browser, site_url, demo)
    page = app.page
    try:
        tap(page, page.locator("#new-game"))
        seen = page.evaluate(RATINGS_SEEN)
        stacks = {s["hex"] for s in seen}
        assert len(stacks) >= 2, seen  # the demos open with leaders stacked with units
        for s in seen:
            assert s["found"] == s["unit"], s
        if demo == "demo-hohenbrueck":
            # The Garde's 7-5-4 under its general, and the general's own ratings.
            garde = [s for s in seen if s["hex"] == "0505"]
            assert sorted(s["text"] for s in garde) == ["+1-8", "7-5-4"]
        app.assert_no_errors()
    finally:
        app.context.close()


# Blocks of the side to act that may be selected, each with whether another block is drawn
# over it (their boxes overlap).
BLOCKS = """() => {
  const boxes = Array.from(document.querySelectorAll('#area-map [data-piece]')).map((g) => {
    const body = g.querySelector('.am-block-body').getBoundingClientRect();
    return {id: g.getAttribute('data-piece'), x: body.left, y: body.top, w: body.width,
            h: body.height};
  });
  return boxes.map((b) => Object.assign(b, {overlapped: boxes.some((o) => o.id !== b.id
    && Math.abs(o.x - b.x) < b.w && Math.abs(o.y - b.y) < b.h)}));
}"""


def test_a_block_tap_selects_it_and_approaches_take_a_finger(browser, site_url):
    app = open_demo(browser, site_url, "demo-fontanella")
    page = app.page
    try:
        tap(page, page.locator("#new-game"))
        reveal_if_covered(page)
        page.wait_for_selector("#dock button[data-action='select']")
        # Every approach's hit area is 44 CSS px or more each way, at the opening view.
        sizes = page.evaluate(
            """() => Array.from(document.querySelectorAll('#area-map .am-approach-hit')).map(
              (r) => { const m = r.getScreenCTM(); const s = Math.hypot(m.a, m.b);
                       return [r.width.baseVal.value * s, r.height.baseVal.value * s]; })"""
        )
        assert len(sizes) >= 10, sizes
        assert min(min(s) for s in sizes) >= 44, sizes
        # Blocks standing in one locale, side by side (the dock lists them under the
        # locale's name): a tap on one selects it.
        together = page.evaluate(
            """() => Array.from(document.querySelectorAll('#dock .choice')).map(
              (c) => Array.from(c.querySelectorAll("button[data-action='select']")).map(
                (b) => b.getAttribute('data-unit'))).filter((ids) => ids.length >= 2).flat()"""
        )
        blocks = [
            b
            for b in page.evaluate(BLOCKS)
            if b["id"] in together
            and not b["overlapped"]
            and b["y"] >= 0
            and b["y"] + b["h"] <= H * 0.55
            and b["x"] >= 0
            and b["x"] + b["w"] <= W
        ]
        assert blocks, together
        block = blocks[0]
        before = shown(page)
        page.touchscreen.tap(block["x"] + block["w"] / 2, block["y"] + block["h"] / 2)
        page.wait_for_function(f"Number(document.documentElement.dataset.shown) > {before}")
        # Selected in one tap: its button in the dock now leaves it out again.
        leave = WORDS["action.al_unselect"].split("{")[0]
        page.wait_for_function(
            "([id, t]) => Array.from(document.querySelectorAll("
            "`#dock button[data-action='select'][data-unit='${id}']`))"
            ".some((b) => b.textContent.startsWith(t))",
            arg=[block["id"], leave],
        )
        assert page.locator("#picker").count() == 0
        app.assert_no_errors()
    finally:
        app.context.close()
