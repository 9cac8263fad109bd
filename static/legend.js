// The legend: every mark the map may show for the scenario in play, each with its sign drawn
// as the map draws it and what it means. Made from the markers the rule system declares
// (load_scenario's `markers`) and the map's own kinds (terrain, hexsides, roads, approaches,
// objectives, the units' types and ratings), so it never lacks a mark the map can show.
// Draws only, in its dialog (openLegend); every word is an i18n key. Plain ES2020 so it parses
// on older iPad Safari.

import { HexGrid } from "./render/hexgrid.js";
import { patternDefs, terrainSvg, hexsidesSvg, roadsSvg } from "./render/hexterrain.js";
import { TERRAIN as LOCALE_TERRAIN } from "./render/area.js";
import { ratingKeys, ratingsText, typeSymbol } from "./render/counters.js";
import { esc } from "./render/svg.js";
import { el } from "./panels.js";

let swatches = 0;

// A sign: an SVG of w x h CSS px showing the map units in `box` [x, y, w, h].
function svg(box, body, w, h) {
  return (
    `<svg class="legend-svg" viewBox="${box.join(" ")}" width="${w || 56}" height="${h || 36}" aria-hidden="true">` +
    body +
    "</svg>"
  );
}

// A piece of hex map drawn by the map's own renderer: hexes 0101 and 0201 (neighbours on
// either orientation), with `map` giving their terrain, hexsides and roads.
function hexSwatch(orientation, map) {
  const data = Object.assign(
    { orientation: orientation, stagger: "odd", columns: 2, rows: 1, hexes: {} },
    map,
  );
  const grid = new HexGrid(data);
  const prefix = "legend" + ++swatches;
  const terrain = terrainSvg(grid, data, prefix);
  const sides = hexsidesSvg(grid, data);
  const b = terrain.bounds;
  let box = [b.minX, b.minY, b.maxX - b.minX, b.maxY - b.minY];
  if (data.columns > 1) {
    // Two hexes: their shared hexside in the middle, at a size to read.
    const p = grid.center("0101");
    const q = grid.center("0201");
    box = [(p[0] + q[0]) / 2 - 45, (p[1] + q[1]) / 2 - 29, 90, 58];
  }
  box = box.map(Math.round);
  return svg(
    box,
    `<defs>${patternDefs(prefix)}</defs>${terrain.svg}${sides.svg}${roadsSvg(grid, data, sides.bridges)}`,
  );
}

// A locale's fill on an area map.
function localeSwatch(terrain) {
  const t = LOCALE_TERRAIN[terrain] || LOCALE_TERRAIN.open;
  const id = "legend" + ++swatches;
  const tile = t.art
    ? `<defs><pattern id="${id}" width="${t.w}" height="${t.h}" patternUnits="userSpaceOnUse">${t.art}</pattern></defs>` +
      `<rect width="56" height="36" fill="url(#${id})"/>`
    : "";
  return svg(
    [0, 0, 56, 36],
    `<rect width="56" height="36" fill="${esc(t.bg)}" stroke="#5a5040" stroke-width="1"/>` + tile,
  );
}

function star(fill) {
  let d = "";
  for (let i = 0; i < 10; i++) {
    const rad = i % 2 ? 4.2 : 10;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    d += (i ? "L" : "M") + (rad * Math.cos(a)).toFixed(1) + " " + (rad * Math.sin(a)).toFixed(1);
  }
  return `<path class="am-star" d="${d}Z" fill="${fill}"/>`;
}

// A counter's face, as small as the sign allows: a type symbol and a text row.
function counterSwatch(inner) {
  return svg(
    [-34, -34, 68, 68],
    `<rect x="-32" y="-32" width="64" height="64" rx="5" fill="#e9e4d4" stroke="#1c1c1c" stroke-width="1.3"/>` +
      inner,
    40,
    40,
  );
}

function textRow(text, y, size) {
  return `<text y="${y}" font-size="${size || 14.5}" font-weight="700" text-anchor="middle" fill="#111">${esc(text)}</text>`;
}

const AREA_BAR = {
  narrow: 26,
  wide: 52,
};

function bar(len) {
  return `<rect class="am-bar" x="${-len / 2}" y="-4" width="${len}" height="8" rx="4"/>`;
}

function unique(list) {
  return list.filter((x, i) => x != null && list.indexOf(x) === i);
}

// The sections of the legend: [{id, title, entries: [{id, sign, text}]}]; sign is SVG markup
// or a short text. t(key, params) words a key; scenario is the one in play; markers are the
// markers its rule system declares.
export function legendSections(t, scenario, markers) {
  const map = (scenario && scenario.map) || {};
  const units = (scenario && scenario.units) || [];
  const area = map.kind === "areas";
  const sections = [];

  sections.push({
    id: "markers",
    title: t("legend.markers"),
    entries: (markers || []).map((m) => ({
      id: "marker:" + m,
      sign: t("marker_sign." + m),
      text: t("marker." + m),
    })),
  });

  const pieces = [];
  unique(units.map((u) => u.type)).forEach((type) => {
    pieces.push({
      id: "type:" + type,
      sign: counterSwatch(typeSymbol(type, "#111", 0)),
      text: t("unit_type." + type),
    });
  });
  pieces.push.apply(pieces, area ? blockEntries(t) : counterEntries(t, units));
  sections.push({ id: "pieces", title: t("legend.pieces"), entries: pieces });

  sections.push({
    id: "map",
    title: t("legend.map"),
    entries: area ? areaEntries(t, map) : hexEntries(t, scenario, map),
  });

  sections.push({
    id: "play",
    title: t("legend.play"),
    entries: ["lit", "ring", "arrow", "card"].map((what) => ({
      id: "play:" + what,
      sign: "",
      cls: "legend-" + what,
      text: t("ui.legend_" + what),
    })),
  });
  return sections.filter((s) => s.entries.length);
}

// An area map's blocks: hidden (their back), their steps, revealed.
function blockEntries(t) {
  const pieces = [];
  pieces.push({
    id: "block:hidden",
    sign: counterSwatch(
      '<path d="M-22 -12q11 -4 22 0t22 0M-22 1q11 -4 22 0t22 0M-22 14q11 -4 22 0t22 0" fill="none" stroke="#8a6a3a" stroke-width="2"/>',
    ),
    text: t("legend.block_hidden"),
  });
  pieces.push({
    id: "block:steps",
    sign: counterSwatch(
      typeSymbol("infantry", "#111", -6) +
        [-10, 0, 10].map((x) => `<circle cx="${x}" cy="18" r="3.6" fill="#111"/>`).join(""),
    ),
    text: t("legend.block_steps"),
  });
  pieces.push({
    id: "block:revealed",
    sign: counterSwatch(
      '<rect x="-30" y="-30" width="60" height="60" rx="5" fill="none" stroke="#f0b400" stroke-width="5"/>',
    ),
    text: t("legend.block_revealed"),
  });
  return pieces;
}

// A hex map's counters: each set of ratings, the facing when units face, a stack and its count.
function counterEntries(t, units) {
  const pieces = [];
  const seen = [];
  units.forEach((u) => {
    const keys = ratingKeys(u.ratings);
    const id = "ratings:" + keys.join("-");
    if (!keys.length || seen.indexOf(id) >= 0) return;
    seen.push(id);
    pieces.push({
      id: id,
      sign: ratingsText(u.ratings),
      text: keys.map((k) => t("rating." + k)).join(" – "),
    });
  });
  if (units.some((u) => typeof u.facing === "number")) {
    pieces.push({
      id: "counter:facing",
      sign: svg(
        [-34, -34, 78, 68],
        '<rect x="-32" y="-32" width="64" height="64" rx="5" fill="#e9e4d4" stroke="#1c1c1c" stroke-width="1.3"/>' +
          '<polygon points="40,0 31,-6 31,6" fill="#111" stroke="#1c1c1c"/>',
        46,
        40,
      ),
      text: t("legend.facing"),
    });
  }
  pieces.push({
    id: "counter:stack",
    sign: svg(
      [-36, -50, 72, 96],
      `<rect x="-32" y="-46" width="64" height="64" rx="5" fill="#e9e4d4" stroke="#1c1c1c"/>` +
        `<g transform="translate(-23 -37) scale(0.6)">${star("#111")}</g>` +
        `<text x="6" y="-28" font-size="14" font-weight="700" text-anchor="middle">+1-8</text>` +
        `<rect x="-32" y="-22" width="64" height="64" rx="5" fill="#e9e4d4" stroke="#1c1c1c"/>` +
        textRow("7-5-4", 36),
      40,
      54,
    ),
    text: t("legend.stack"),
  });
  pieces.push({
    id: "counter:stack_count",
    sign: svg(
      [-12, -12, 24, 24],
      '<circle r="10" fill="#1c1c1c"/><text y="4.6" font-size="13" text-anchor="middle" fill="#fff">3</text>',
      28,
      28,
    ),
    text: t("legend.stack_count"),
  });
  return pieces;
}

// The kinds of a hex map: its terrains, the rise of the ground, hexside features, roads and
// objectives.
function hexEntries(t, scenario, map) {
  const orientation = map.orientation === "pointy" ? "pointy" : "flat";
  const hexes = map.hexes || {};
  const terrains = [map.default_terrain || "clear"];
  let levels = false;
  Object.keys(hexes).forEach((label) => {
    const h = hexes[label] || {};
    const list = Array.isArray(h.terrain) ? h.terrain : h.terrain ? [h.terrain] : [];
    list.forEach((id) => terrains.push(id));
    if (h.level) levels = true;
  });
  const out = unique(terrains).map((id) => ({
    id: "terrain:" + id,
    sign: hexSwatch(orientation, { columns: 1, hexes: { "0101": { terrain: [id] } } }),
    text: t("terrain." + id),
  }));
  if (levels) {
    out.push({
      id: "map:level",
      sign: hexSwatch(orientation, { hexes: { "0201": { level: 1 } } }),
      text: t("legend.level"),
    });
  }
  const features = [];
  (map.hexsides || []).forEach((side) => (side.features || []).forEach((f) => features.push(f)));
  unique(features).forEach((f) => {
    out.push({
      id: "hexside:" + f,
      sign: hexSwatch(orientation, {
        hexes: { "0101": { level: 1 } },
        hexsides: [{ between: ["0101", "0201"], features: [f], up: "0101" }],
      }),
      text: t("feature." + f),
    });
  });
  unique((map.roads || []).map((r) => r.kind || "road")).forEach((kind) => {
    out.push({
      id: "road:" + kind,
      sign: hexSwatch(orientation, { roads: [{ kind: kind, hexes: ["0101", "0201"] }] }),
      text: t("connection." + kind),
    });
  });
  if (((scenario && scenario.objectives) || []).length) {
    out.push({
      id: "map:objective",
      sign: svg([-12, -12, 24, 24], star("#fff"), 28, 28),
      text: t("legend.objective"),
    });
  }
  return out;
}

// The kinds of an area map: locale terrains, capacities, objectives, roads and the marks of
// approaches (width, terrain effect, impassable borders, cavalry obstructed).
function areaEntries(t, map) {
  const locales = map.locales || [];
  const approaches = map.approaches || [];
  const out = unique(locales.map((l) => l.terrain || "open")).map((id) => ({
    id: "locale:" + id,
    sign: localeSwatch(id),
    text: t("editor.area_terrain." + id),
  }));
  if (locales.some((l) => l.capacity != null)) {
    out.push({
      id: "map:capacity",
      sign: svg([-28, -12, 56, 24], '<text y="5" font-size="13" text-anchor="middle">cap 4</text>'),
      text: t("legend.capacity"),
    });
  }
  if (locales.some((l) => l.objective > 0)) {
    out.push({
      id: "map:objective",
      sign: svg(
        [-14, -12, 34, 24],
        star("#fff") + '<text x="11" y="4" font-size="11" font-weight="800">2</text>',
      ),
      text: t("legend.objective"),
    });
  }
  unique((map.roads || []).map((r) => r.kind)).forEach((kind) => {
    const line =
      kind === "primary"
        ? '<path d="M-26 0H26" stroke="#4a2c12" stroke-width="7"/><path d="M-26 0H26" stroke="#e9d6ac" stroke-width="2.6"/>'
        : '<path d="M-26 0H26" stroke="#7a5230" stroke-width="2.4" stroke-dasharray="7 4"/>';
    out.push({
      id: "road:" + kind,
      sign: svg([-28, -18, 56, 36], `<g fill="none">${line}</g>`),
      text: t("editor.area.road_kind." + kind),
    });
  });
  const passable = approaches.filter((a) => (a.flags || []).indexOf("impassable") < 0);
  unique(passable.map((a) => (a.width === "wide" ? "wide" : "narrow"))).forEach((w) => {
    out.push({
      id: "approach:" + w,
      sign: svg([-28, -18, 56, 36], bar(AREA_BAR[w])),
      text: t("legend.approach_" + w),
    });
  });
  if (passable.some((a) => a.effect > 0)) {
    out.push({
      id: "approach:effect",
      sign: svg(
        [-28, -18, 56, 36],
        bar(26) +
          '<g transform="translate(21 0)"><circle class="am-effect-disc" r="6.5"/><text class="am-effect" y="3.2">1</text></g>',
      ),
      text: t("legend.approach_effect"),
    });
  }
  if (approaches.some((a) => (a.flags || []).indexOf("impassable") >= 0)) {
    const x = "M-7 -7L7 7M-7 7L7 -7";
    out.push({
      id: "approach:impassable",
      sign: svg(
        [-28, -18, 56, 36],
        `<path d="${x}" stroke="#fff" stroke-width="6.5" stroke-linecap="round"/>` +
          `<path d="${x}" stroke="#d0151b" stroke-width="3.5" stroke-linecap="round"/>`,
      ),
      text: t("legend.approach_impassable"),
    });
  }
  if (passable.some((a) => (a.flags || []).indexOf("cavalry_obstructed") >= 0)) {
    out.push({
      id: "approach:cavalry_obstructed",
      sign: svg(
        [-28, -18, 56, 36],
        '<g transform="translate(8 0)">' +
          bar(26) +
          '<path class="am-cav-obstructed" d="M-30 -3l2 6 2-6 2 6 2-6 2 6"/></g>',
      ),
      text: t("legend.approach_cavalry_obstructed"),
    });
  }
  return out;
}

// The legend's dialog: each section a heading and its entries, a sign drawn as the map
// draws it and what it means.
export function openLegend(sections) {
  const dialog = document.getElementById("legend-dialog");
  const nodes = [];
  sections.forEach(function (section) {
    nodes.push(el("h3", { class: "legend-head", text: section.title }));
    nodes.push(
      el(
        "ul",
        { class: "legend-list", "data-section": section.id },
        section.entries.map(function (entry) {
          const sign = el("span", { class: "legend-sign " + (entry.cls || "") });
          if (/^<svg/.test(entry.sign)) {
            sign.classList.add("legend-drawn");
            sign.innerHTML = entry.sign;
          } else sign.textContent = entry.sign;
          return el("li", { "data-legend": entry.id }, [
            sign,
            el("span", { class: "legend-text", text: entry.text }),
          ]);
        }),
      ),
    );
  });
  const box = document.getElementById("legend-list");
  box.replaceChildren.apply(box, nodes);
  dialog.showModal();
}
