"""The legend on a tablet (820×1180, touch), for every demo: an entry for every marker the
rule system declares and every kind the map draws (the map's own marks read in the page, and
the scenario's kinds), each worded in every language, none a raw key."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_play_panel import open_demo, reveal_if_covered, tap

from muster.scenario import load_builtin
from muster.systems import game_rules

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
DEMOS = ("demo-valmont", "demo-hohenbrueck", "demo-fontanella")
LANGS = ("en", "pl", "fr", "ja")
WORDS = {lang: json.loads((ROOT / "static/i18n" / f"{lang}.json").read_text()) for lang in LANGS}
RAW_KEY = re.compile(r"^[a-z_]+(\.[a-z0-9_]+)+$")

# The map's marks in the page: the legend entry each class (or data attribute) stands for.
DRAWN = """() => {
  const out = new Set();
  const classes = (sel) => Array.from(document.querySelectorAll(sel)).flatMap(
    (n) => Array.from(n.classList));
  document.querySelectorAll('#map [data-marker], #area-map [data-marker]').forEach(
    (n) => out.add('marker:' + n.getAttribute('data-marker')));
  classes('#map [class*="hm-t-"]').forEach((c) => {
    const m = /^hm-t-[bco]-(.+)$/.exec(c);
    if (m) out.add('terrain:' + m[1]);
  });
  classes('#map [class*="hm-hs-"]').forEach((c) => {
    const m = /^hm-hs-(.+)$/.exec(c);
    if (m) out.add('hexside:' + m[1]);
  });
  classes('#map .hm-road, #map .hm-trail').forEach((c) => {
    const m = /^hm-road-(.+)$/.exec(c);
    if (m) out.add('road:' + m[1]);
    if (c === 'hm-trail') out.add('road:trail');
  });
  if (document.querySelector('#map .hm-facing')) out.add('counter:facing');
  if (document.querySelector('#map .hm-mark, #area-map .am-mark')) out.add('play:card');
  if (document.querySelector('#map .hm-objective, #map [data-objective]')) {
    out.add('map:objective');
  }
  classes('#area-map .am-locale').forEach((c) => {
    const m = /^am-t-(.+)$/.exec(c);
    if (m) out.add('locale:' + m[1]);
  });
  const area = {'.am-narrow': 'approach:narrow', '.am-wide': 'approach:wide',
    '.am-effect': 'approach:effect', '.am-impassable': 'approach:impassable',
    '.am-cav-obstructed': 'approach:cavalry_obstructed', '.am-objective': 'map:objective',
    '.am-road-primary': 'road:primary', '.am-road-secondary': 'road:secondary',
    '.am-cap': 'map:capacity'};
  Object.keys(area).forEach((sel) => {
    if (document.querySelector('#area-map ' + sel)) out.add(area[sel]);
  });
  return Array.from(out);
}"""


def expected(demo: str) -> set[str]:
    """The entries the legend owes the scenario: its system's markers and its map's kinds."""
    scenario = load_builtin(demo)
    data = scenario.data
    out = {f"marker:{m}" for m in game_rules(scenario.system).markers}
    out |= {f"type:{u['type']}" for u in data["units"]}
    m = data["map"]
    if m.get("kind") == "areas":
        out |= {f"locale:{loc.get('terrain', 'open')}" for loc in m["locales"]}
        out |= {f"road:{r['kind']}" for r in m.get("roads", [])}
        for a in m["approaches"]:
            flags = a.get("flags", [])
            if "impassable" in flags:
                out.add("approach:impassable")
                continue
            out.add(f"approach:{a['width']}")
            if a.get("effect", 0) > 0:
                out.add("approach:effect")
            if "cavalry_obstructed" in flags:
                out.add("approach:cavalry_obstructed")
        if any(loc.get("objective", 0) > 0 for loc in m["locales"]):
            out.add("map:objective")
        return out
    out.add(f"terrain:{m.get('default_terrain', 'clear')}")
    for h in m["hexes"].values():
        terrain = h.get("terrain", [])
        out |= {f"terrain:{t}" for t in ([terrain] if isinstance(terrain, str) else terrain)}
        if h.get("level"):
            out.add("map:level")
    out |= {f"hexside:{f}" for s in m.get("hexsides", []) for f in s["features"]}
    out |= {f"road:{r.get('kind', 'road')}" for r in m.get("roads", [])}
    if data.get("objectives"):
        out.add("map:objective")
    if any("facing" in u for u in data["units"]):
        out.add("counter:facing")
    return out


def open_legend(page) -> list[dict[str, str]]:
    """Open the legend and read its entries; closed again afterwards."""
    tap(page, page.locator("#legend"), wait=False)
    page.wait_for_selector("#legend-dialog[open] li[data-legend]")
    entries = page.evaluate(
        """() => Array.from(document.querySelectorAll('#legend-dialog li[data-legend]')).map(
          (li) => ({id: li.dataset.legend,
                    sign: (li.querySelector('.legend-sign') || {}).textContent || '',
                    text: li.querySelector('.legend-text').textContent}))"""
    )
    heads = page.locator("#legend-dialog .legend-head").all_inner_texts()
    page.locator("#legend-close").click()
    page.wait_for_selector("#legend-dialog[open]", state="detached")
    return entries + [{"id": "head", "sign": "", "text": h} for h in heads]


def set_language(page, lang: str) -> None:
    page.evaluate(
        "(lang) => { const s = document.getElementById('lang'); s.value = lang;"
        " s.dispatchEvent(new Event('change')); }",
        lang,
    )
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")


@pytest.mark.parametrize("demo", DEMOS)
def test_the_legend_explains_every_mark_in_every_language(browser, site_url, demo):
    app = open_demo(browser, site_url, demo)
    page = app.page
    try:
        tap(page, page.locator("#new-game"))
        reveal_if_covered(page)
        entries = open_legend(page)
        ids = [e["id"] for e in entries if e["id"] != "head"]
        assert len(ids) == len(set(ids)), ids
        # Every mark the map draws now, read in the page, has its entry ...
        drawn = set(page.evaluate(DRAWN))
        assert drawn, "nothing read off the map"
        assert drawn - set(ids) == set()
        # ... and every marker the system may send, and every kind of the scenario's map.
        assert expected(demo) - set(ids) == set()
        assert {"play:lit", "play:ring", "play:arrow", "play:card"} <= set(ids)
        for lang in LANGS:
            if lang != "en":
                set_language(page, lang)
                entries = open_legend(page)
                assert [e["id"] for e in entries if e["id"] != "head"] == ids
            for e in entries:
                for text in (e["text"], e["sign"]):
                    assert not RAW_KEY.match(text.strip()), (lang, e)
                    assert text not in WORDS[lang], (lang, e)  # a key shown as it is
                assert e["text"].strip(), (lang, e)
            # Marker signs are the language's own.
            for e in entries:
                if e["id"].startswith("marker:"):
                    m = e["id"].split(":", 1)[1]
                    assert e["sign"] == WORDS[lang][f"marker_sign.{m}"]
                    assert e["text"] == WORDS[lang][f"marker.{m}"]
        app.assert_no_errors()
    finally:
        app.context.close()
