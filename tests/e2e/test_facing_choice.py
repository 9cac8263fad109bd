"""Valmont's choice of a facing on a tablet (820×1180, touch): twelve buttons, each worded
differently (a compass point, hexside or vertex) in every language, each with its arrow at a
different angle, finger-sized; the arrow the map then draws on the counter points the way
the button's did."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from apppage import settle, tap_center, tap_hex, valmont_to_movement, wait_text
from test_legend import set_language
from test_play_panel import open_demo, tap

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "pl", "fr", "ja")
WORDS = {lang: json.loads((ROOT / "static/i18n" / f"{lang}.json").read_text()) for lang in LANGS}


def facings(page) -> list[dict]:
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('#dock button.facing')).map((b) => {
          const r = b.getBoundingClientRect();
          const g = b.querySelector('svg g');
          return {facing: b.dataset.facing, text: b.textContent.trim(), w: r.width, h: r.height,
                  angle: g ? g.getAttribute('transform') : null};
        })"""
    )


def angle_of(transform: str) -> float:
    m = re.search(r"rotate\((-?[\d.]+)\)", transform)
    assert m, transform
    return float(m.group(1)) % 360


def test_twelve_facings_each_worded_and_drawn_apart(browser, site_url):
    app = open_demo(browser, site_url, "demo-valmont")
    page = app.page
    try:
        valmont_to_movement(page)
        tap_center(page, "#map [data-unit='fr-1-1']", touch=True)
        page.wait_for_selector("#map .hm-lit[data-lit='0604']", state="attached")
        tap_hex(page, "0604")
        wait_text(page, "#prompt", "choose its facing")
        settle(page)
        shown = facings(page)
        assert len(shown) == 12
        assert len({f["facing"] for f in shown}) == 12
        assert len({f["text"] for f in shown}) == 12
        assert len({angle_of(f["angle"]) for f in shown}) == 12
        for f in shown:
            assert f["w"] >= 44 and f["h"] >= 44, f
            kind = "facing.hexside" if int(f["facing"]) % 2 == 0 else "facing.vertex"
            assert WORDS["en"][kind].replace("{dir}", "").strip() in f["text"], f
        for lang in ("pl", "fr", "ja"):
            set_language(page, lang)
            worded = facings(page)
            texts = {f["text"] for f in worded}
            assert len(texts) == 12, (lang, texts)
            compass = [v for k, v in WORDS[lang].items() if k.startswith("compass.")]
            for f in worded:
                assert any(c in f["text"] for c in compass), (lang, f)
                assert "compass." not in f["text"] and "facing." not in f["text"]
        set_language(page, "en")
        # Facing 3 (a vertex): the map's arrow on the counter points as the button's did.
        button = next(f for f in facings(page) if f["facing"] == "3")
        tap(page, page.locator("#dock button.facing[data-facing='3']"))
        wait_text(page, "#log-panel", "1/8e Ligne faces")
        tip = page.evaluate(
            """() => { const p = document.querySelector("#map [data-unit='fr-1-1'] .hm-facing");
              const first = p.getAttribute('points').split(' ')[0].split(',').map(Number);
              return first; }"""
        )
        drawn = math.degrees(math.atan2(tip[1], tip[0])) % 360
        assert abs((drawn - angle_of(button["angle"]) + 180) % 360 - 180) < 2, (drawn, button)
        assert button["text"] in page.locator("#log-panel").inner_text()
        app.assert_no_errors()
    finally:
        app.context.close()
