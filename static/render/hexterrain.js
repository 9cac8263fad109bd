// Hex map drawing of the printed map: terrain, elevation, hexsides, roads, place names
// and hex numbers, as SVG text for the layers of HexMap (hex.js). Draws only.
// Plain ES2020 so it parses on older iPad Safari.

import { r1, esc, clamp, line } from "./svg.js";
import { SIZE, SQRT3, DIRECTIONS, edgeBetween, shifted } from "./hexgrid.js";

// Elevation tints, level 0 up: each step darker and warmer, like a contour map.
const LEVEL_COLORS = ["#eef0d6", "#e8d69c", "#d7b572", "#c19353", "#a6753d", "#875a2c", "#6a4322"];

// Hex terrains. bg/op: tint under the texture (base terrain only); art: texture tile
// of w x h units; symbol: drawn once at the hex centre; ring: a wall round the hex;
// dark: the hex number is printed light.
const TERRAIN = {
  clear: {},
  rough: {
    bg: "#c9aa68",
    op: 0.32,
    w: 22,
    h: 19,
    art:
      '<path d="M2 8l2.6-4.2 2.6 4.2M13 17.5l2.6-4.2 2.6 4.2" fill="none" stroke="#7a5d2a" stroke-width="1.2" stroke-linejoin="round"/>' +
      '<circle cx="16" cy="6" r="1" fill="#7a5d2a"/><circle cx="5" cy="15" r="1" fill="#7a5d2a"/>',
  },
  rugged: {
    bg: "#9c8467",
    op: 0.5,
    w: 24,
    h: 21,
    art:
      '<path d="M2 11l4.5-7.5 4.5 7.5zM14 20.5l4-6.5 4 6.5z" fill="#5e4a36"/>' +
      '<path d="M6.5 3.5l1.8 3M18 14l1.6 2.6" stroke="#d9ccb8" stroke-width="0.9"/>',
  },
  dry_lake: {
    bg: "#ebe0bd",
    op: 0.92,
    w: 30,
    h: 26,
    art: '<path d="M0 8l9-2 6 6 9-3 6 2M9 6L7 0M15 12l-2 8 7 6M24 9l3-9M13 20L0 22M20 26l10-8" fill="none" stroke="#b59c66" stroke-width="0.9"/>',
  },
  vineyard: {
    bg: "#c7a9d6",
    op: 0.42,
    w: 12,
    h: 12,
    art:
      '<path d="M3 1v6M9 7v6" stroke="#5b3473" stroke-width="0.9"/>' +
      '<circle cx="3" cy="4" r="1.7" fill="#6e3f8a"/><circle cx="9" cy="10" r="1.7" fill="#6e3f8a"/>',
  },
  garden: {
    bg: "#b6d98a",
    op: 0.5,
    w: 16,
    h: 16,
    art:
      '<path d="M0 0.6H16M0.6 0V16" stroke="#4f7f2e" stroke-width="1.2" stroke-dasharray="1.6 1"/>' +
      '<circle cx="5" cy="5" r="1.2" fill="#4f7f2e"/><circle cx="11" cy="11" r="1.2" fill="#4f7f2e"/><circle cx="11" cy="5" r="0.8" fill="#4f7f2e"/><circle cx="5" cy="11" r="0.8" fill="#4f7f2e"/>',
  },
  palm_grove: {
    bg: "#d3cb82",
    op: 0.45,
    w: 28,
    h: 24,
    art: '<path d="M7 9v7M7 9l-5 2M7 9l5 2M7 9l-4-4M7 9l4-4M7 9V3M21 21v2.5M21 21l-5 2M21 21l5 2M21 21l-4-4M21 21l4-4M21 21v-6" fill="none" stroke="#3c6b2b" stroke-width="1.4" stroke-linecap="round"/>',
  },
  woods: {
    bg: "#5c9a4c",
    op: 0.55,
    w: 24,
    h: 21,
    art: '<circle cx="6" cy="5.5" r="4.4" fill="#3b7434" stroke="#24501f" stroke-width="0.8"/><circle cx="18" cy="16" r="4.4" fill="#3b7434" stroke="#24501f" stroke-width="0.8"/>',
  },
  marsh: {
    bg: "#86bdb5",
    op: 0.5,
    w: 22,
    h: 18,
    art: '<path d="M2 8h9M4.5 8V4.5M6.5 8V3.5M8.5 8V4.5M12 17h9M14.5 17v-3.5M16.5 17v-4.5M18.5 17v-3.5" fill="none" stroke="#2b6a66" stroke-width="1"/>',
  },
  frozen_pond: {
    bg: "#e4f2fb",
    op: 0.95,
    w: 30,
    h: 26,
    art: '<path d="M0 10l8-3 7 5 8-4 7 1M8 7L6 0M15 12l-1 8 8 6M23 8l2-8M14 20L0 23" fill="none" stroke="#93bddb" stroke-width="1"/>',
  },
  river: {
    bg: "#4f8ccf",
    op: 1,
    w: 24,
    h: 12,
    dark: true,
    art: '<path d="M0 6q3-3 6 0t6 0 6 0 6 0" fill="none" stroke="#8dbbe9" stroke-width="1"/>',
  },
  lake: {
    bg: "#78acdf",
    op: 1,
    w: 26,
    h: 20,
    art: '<path d="M2 6q2-2 4 0t4 0M15 16q2-2 4 0t4 0" fill="none" stroke="#acd0f0" stroke-width="1"/>',
  },
  sea: {
    bg: "#3f79b8",
    op: 1,
    w: 28,
    h: 14,
    dark: true,
    art: '<path d="M0 4q3.5-3 7 0t7 0 7 0 7 0M-7 11q3.5-3 7 0t7 0 7 0 7 0 7 0" fill="none" stroke="#78a6d8" stroke-width="1"/>',
  },
  deep_water: {
    bg: "#2a5990",
    op: 1,
    w: 28,
    h: 14,
    dark: true,
    art: '<path d="M0 4q3.5-3 7 0t7 0 7 0 7 0M-7 11q3.5-3 7 0t7 0 7 0 7 0 7 0" fill="none" stroke="#5680b5" stroke-width="1.1"/>',
  },
  pond_river_hex: {
    bg: "#8fc4e8",
    op: 1,
    w: 22,
    h: 18,
    art: '<path d="M2 5q2-2 4 0t4 0M12 14q2-2 4 0t4 0" fill="none" stroke="#c2e0f5" stroke-width="1.1"/>',
  },
  town: {
    bg: "#cbbfb4",
    op: 0.75,
    w: 20,
    h: 20,
    art: '<path d="M2 2h7v5H2zM11.5 3h6v6h-6zM3 11h6v6H3zM12 12.5h6v5h-6z" fill="#9a4a3a" stroke="#5b281e" stroke-width="0.6"/>',
  },
  walled_town: {
    bg: "#cbbfb4",
    op: 0.75,
    w: 20,
    h: 20,
    ring: true,
    art: '<path d="M2 2h7v5H2zM11.5 3h6v6h-6zM3 11h6v6H3zM12 12.5h6v5h-6z" fill="#9a4a3a" stroke="#5b281e" stroke-width="0.6"/>',
  },
  village: {
    bg: "#ddd2bf",
    op: 0.55,
    w: 30,
    h: 26,
    art: '<path d="M4 9V6l3.5-3 3.5 3v3zM19 22v-3l3.5-3 3.5 3v3z" fill="#9a4a3a" stroke="#5b281e" stroke-width="0.7"/>',
  },
  ruins: {
    bg: "#c9c2b6",
    op: 0.5,
    w: 26,
    h: 22,
    art: '<path d="M3 10V4h5M3 10h3M10 4h1M15 20h6v-5M21 12v-1.5M13 20h-1" fill="none" stroke="#5f564c" stroke-width="1.7"/>',
  },
  castle: {
    bg: "#cbbfb4",
    op: 0.6,
    symbol:
      '<path d="M-15 14V-9h4.3v4h4.3v-4h4.3v4h4.2v-4h4.3v4h4.3v-4H15v23z" fill="#4e4a45" stroke="#1f1d1a" stroke-width="1"/>' +
      '<path d="M-4 14V6a4 4 0 0 1 8 0v8z" fill="#cbbfb4"/>',
  },
};

// Hexside features. Each draws on the shared edge; see hexsidesSvg.
const WATER_EDGES = {
  stream: { casing: null, fill: "#2f73c6", width: 4.5 },
  canal: { casing: "#22507f", fill: "#8cbce6", width: 4, casingWidth: 7.5 },
  pond: { casing: "#3c76ad", fill: "#8fc4e8", width: 9, casingWidth: 11.5 },
  mietzel_river: {
    casing: "#2a5d95",
    fill: "#5a96d6",
    width: 10,
    casingWidth: 13,
  },
  elbe_river: { casing: "#22508a", fill: "#4f8ccf", width: 16, casingWidth: 19.5 },
};

function crossingSvg(e, pontoon) {
  // A bridge across the edge (along n): a deck with parapets and flared wing ticks.
  // Drawn above the roads so a road reads as running over it.
  const L = SIZE * 0.34;
  const w = pontoon ? 4.2 : 5;
  const ink = "#2e261e";
  const end = (sn, st) => [
    e.mx + e.nx * L * sn + e.tx * w * st,
    e.my + e.ny * L * sn + e.ty * w * st,
  ];
  const p1 = end(-1, 1);
  const p2 = end(1, 1);
  const p3 = end(1, -1);
  const p4 = end(-1, -1);
  const pts = [p1, p2, p3, p4].map((p) => r1(p[0]) + "," + r1(p[1])).join(" ");
  let s = `<g class="hm-${pontoon ? "pontoon-bridge" : "bridge"}">`;
  s += `<polygon points="${pts}" fill="${pontoon ? "#d9c29a" : "#f3e4bd"}"/>`;
  const rail = pontoon ? 'stroke-dasharray="3 1.6"' : "";
  s += line(p1[0], p1[1], p2[0], p2[1], `stroke="${ink}" stroke-width="1.7" ${rail}`);
  s += line(p4[0], p4[1], p3[0], p3[1], `stroke="${ink}" stroke-width="1.7" ${rail}`);
  const wing = 4;
  const wings = [
    [p1, -1, 1],
    [p2, 1, 1],
    [p3, 1, -1],
    [p4, -1, -1],
  ];
  for (const wg of wings) {
    const p = wg[0];
    s += line(
      p[0],
      p[1],
      p[0] + (e.nx * wg[1] + e.tx * wg[2]) * wing,
      p[1] + (e.ny * wg[1] + e.ty * wg[2]) * wing,
      `stroke="${ink}" stroke-width="1.7" stroke-linecap="round"`,
    );
  }
  if (pontoon) {
    for (const k of [-0.55, 0, 0.55]) {
      s += `<rect x="${r1(e.mx + e.nx * L * k - 2.2)}" y="${r1(e.my + e.ny * L * k - 2.2)}" width="4.4" height="4.4" rx="2" fill="${ink}"/>`;
    }
  }
  return s + "</g>";
}

function zigzag(ax, ay, bx, by, e, amp, n) {
  let d = `M${r1(ax)} ${r1(ay)}`;
  for (let i = 1; i <= n; i++) {
    const f = i / n;
    const side = i === n ? 0 : i % 2 ? amp : -amp;
    d += `L${r1(ax + (bx - ax) * f + e.nx * side)} ${r1(ay + (by - ay) * f + e.ny * side)}`;
  }
  return d;
}

// ---- the map layers ----

// Texture patterns of every terrain, ids "<prefix>-b-<terrain>"
// (base terrain) and "<prefix>-o-<terrain>" (an overlay).
export function patternDefs(prefix) {
  let s = "";
  for (const id of Object.keys(TERRAIN)) {
    const t = TERRAIN[id];
    if (!t.art) continue;
    const head = `<pattern id="${prefix}-%-${id}" width="${t.w}" height="${t.h}" patternUnits="userSpaceOnUse">`;
    const bg = `<rect width="${t.w}" height="${t.h}" fill="${t.bg}" fill-opacity="${t.op}"/>`;
    s += head.replace("%", "b") + bg + t.art + "</pattern>";
    s += head.replace("%", "o") + t.art + "</pattern>";
  }
  return s;
}

// Terrain fills, symbols, contours and the grid of every hex: {svg, nums, bounds}; nums are
// the hex numbers, one <text> each, drawn apart (hex.js builds them when the view is near
// enough to read, a few at a time).
//
// whole (optional): the whole map's grid when grid is a part of it (a chunk of a big map,
// hex.js): the contours along the part's edge then look at the hexes beyond it.
export function terrainSvg(grid, map, prefix, whole) {
  // Hot path for big maps: plain loops, index arithmetic, few number-to-text steps.
  const hexes = map.hexes || {};
  const fallback = map.default_terrain || "clear";
  const cols = grid.columns;
  const rows = grid.rows;
  const c0 = grid.firstColumn;
  const r0 = grid.firstRow;
  const levels = new Int32Array(cols * rows);
  const cx = new Float64Array(cols * rows);
  const cy = new Float64Array(cols * rows);
  const base = LEVEL_COLORS.map(() => ""); // polygons grouped by level tint
  const fallbackList = [fallback];
  const textures = {}; // texture key -> path data, one <path> per texture
  const symbols = [];
  const nums = [];
  let gridPath = "";
  const c = grid.corners;
  const rel = grid.relOutline;
  const local = grid.points(0, 0);
  // Near the top of the hex, above a counter (counters.js COUNTER_DY).
  const numDy = grid.flat ? -SIZE * 0.866 + 11 : -SIZE * 0.64;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;

  let i = 0;
  for (let col = c0; col < c0 + cols; col++) {
    for (let row = r0; row < r0 + rows; row++, i++) {
      const a = grid.toAxial(col, row);
      const p = grid.pixel(a[0], a[1]);
      const x = p[0];
      const y = p[1];
      cx[i] = x;
      cy[i] = y;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      const label = grid.label(col, row);
      const data = hexes[label];
      const terrain =
        data && Array.isArray(data.terrain) && data.terrain.length ? data.terrain : fallbackList;
      const level = (data && data.level) || 0;
      levels[i] = level;
      const xs = r1(x);
      const ys = r1(y);
      const outline = "M" + r1(x + c[0][0]) + " " + r1(y + c[0][1]) + rel;
      const lv = clamp(level, 0, LEVEL_COLORS.length - 1);
      base[lv] +=
        `<polygon data-hex="${label}" points="${local}" transform="translate(${xs} ${ys})"/>`;
      gridPath += outline;
      const dark = paintTerrain(terrain, x, y, outline, c, textures, symbols);
      nums.push(
        `<text x="${xs}" y="${r1(y + numDy)}"${dark ? ' class="hm-num-light"' : ""}>${label}</text>`,
      );
    }
  }

  const contours = contoursPath(grid, levels, cx, cy, whole, hexes);
  const tex = texturesSvg(textures, prefix);
  const svg =
    `<g class="hm-base">${base
      .map((polys, lv) => (polys ? `<g fill="${LEVEL_COLORS[lv]}">${polys}</g>` : ""))
      .join("")}</g>` +
    `<g class="hm-texture">${tex}</g>` +
    `<g class="hm-symbols">${symbols.join("")}</g>` +
    `<path class="hm-contours" d="${contours}" fill="none" stroke="#7d5a2f" stroke-width="1.3" stroke-opacity="0.8" stroke-linecap="round"/>` +
    `<path class="hm-grid" d="${gridPath}" fill="none" stroke="#3a3128" stroke-opacity="0.38" stroke-width="1"/>`;

  // Bounds for fit and pan limits.
  const hw = grid.flat ? SIZE : (SIZE * SQRT3) / 2;
  const hh = grid.flat ? (SIZE * SQRT3) / 2 : SIZE;
  const bounds = { minX: minX - hw, minY: minY - hh, maxX: maxX + hw, maxY: maxY + hh };
  return { svg, nums, bounds };
}

// The box of a grid's hexes (map units), as terrainSvg gives it, without drawing them.
export function gridBounds(grid) {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let col = grid.firstColumn; col < grid.firstColumn + grid.columns; col++) {
    for (let row = grid.firstRow; row < grid.firstRow + grid.rows; row++) {
      const a = grid.toAxial(col, row);
      const p = grid.pixel(a[0], a[1]);
      if (p[0] < minX) minX = p[0];
      if (p[0] > maxX) maxX = p[0];
      if (p[1] < minY) minY = p[1];
      if (p[1] > maxY) maxY = p[1];
    }
  }
  const hw = grid.flat ? SIZE : (SIZE * SQRT3) / 2;
  const hh = grid.flat ? (SIZE * SQRT3) / 2 : SIZE;
  return { minX: minX - hw, minY: minY - hh, maxX: maxX + hw, maxY: maxY + hh };
}

// The terrains of one hex (centre x, y; outline its path data; c the grid's corners): each
// texture's path gets the outline, each symbol and ring is added to symbols. True when the
// base terrain is dark (its hex number is drawn light).
function paintTerrain(terrain, x, y, outline, c, textures, symbols) {
  let dark = false;
  for (let j = 0; j < terrain.length; j++) {
    const id = terrain[j];
    const t = TERRAIN[id];
    let key = null;
    if (!t) key = "unknown";
    else if (t.art) key = (j ? "o-" : "b-") + id;
    else if (t.bg && j === 0) key = "c-" + id;
    if (key) textures[key] = (textures[key] || "") + outline;
    if (!t) continue;
    if (j === 0 && t.dark) dark = true;
    if (t.symbol) {
      symbols.push(`<g transform="translate(${r1(x)} ${r1(y)})">${t.symbol}</g>`);
    }
    if (t.ring) {
      const ring = [];
      for (let k = 0; k < 6; k++) {
        ring.push(r1(x + c[k][0] * 0.8) + "," + r1(y + c[k][1] * 0.8));
      }
      const rp = ring.join(" ");
      symbols.push(
        `<polygon points="${rp}" fill="none" stroke="#3d3a36" stroke-width="2.4"/>` +
          `<polygon points="${rp}" fill="none" stroke="#3d3a36" stroke-width="6" stroke-dasharray="3 3"/>`,
      );
    }
  }
  return dark;
}

// Contour lines where neighbouring hexes differ in level: path data. levels, cx and cy are
// each hex's level and centre, column by column as terrainSvg counts them; a neighbour off
// grid but on whole (a part's edge) is looked up in hexes.
function contoursPath(grid, levels, cx, cy, whole, hexes) {
  const c = grid.corners;
  const cols = grid.columns;
  const rows = grid.rows;
  const c0 = grid.firstColumn;
  const r0 = grid.firstRow;
  let contours = "";
  const edges = grid.edgeCorners;
  const edgeRel = edges.map(
    (e) => "l" + r1(c[e[1]][0] - c[e[0]][0]) + " " + r1(c[e[1]][1] - c[e[0]][1]),
  );
  let i = 0;
  for (let col = c0; col < c0 + cols; col++) {
    for (let row = r0; row < r0 + rows; row++, i++) {
      const a = grid.toAxial(col, row);
      for (let d = 0; d < 3; d++) {
        const o = grid.fromAxial(a[0] + DIRECTIONS[d][0], a[1] + DIRECTIONS[d][1]);
        let other;
        if (grid.contains(o[0], o[1])) other = levels[(o[0] - c0) * rows + (o[1] - r0)];
        else if (whole && whole.contains(o[0], o[1])) {
          const data = hexes[whole.label(o[0], o[1])];
          other = (data && data.level) || 0;
        } else continue;
        if (other === levels[i]) continue;
        const e = edges[d];
        contours += "M" + r1(cx[i] + c[e[0]][0]) + " " + r1(cy[i] + c[e[0]][1]) + edgeRel[d];
      }
    }
  }
  return contours;
}

// One <path> per texture key ("b-"/"o-" a pattern on the base or added terrain, "c-" a plain
// tint, "unknown" magenta): the outlines of every hex it covers.
function texturesSvg(textures, prefix) {
  let tex = "";
  for (const key of Object.keys(textures)) {
    const id = key.slice(2);
    let fill;
    if (key === "unknown") fill = 'fill="#ff00ff" fill-opacity="0.25"';
    else if (key[0] === "c") fill = `fill="${TERRAIN[id].bg}" fill-opacity="${TERRAIN[id].op}"`;
    else fill = `fill="url(#${prefix}-${key})"`;
    tex += `<path class="hm-t-${key}" d="${textures[key]}" ${fill}/>`;
  }
  return tex;
}

// Hexside features: {svg, bridges}; the bridges go on top of the roads (roadsSvg).
export function hexsidesSvg(grid, map) {
  const casings = [];
  const waters = [];
  const slopes = [];
  const works = [];
  const crossings = [];
  const bridges = [];
  for (const side of map.hexsides || []) {
    const between = side.between || [];
    const features = side.features || [];
    let e = edgeBetween(grid, between[0], between[1]);
    if (!e) continue;
    // Orient n from the up (higher) hex towards the lower one.
    if (side.up && side.up === between[1]) {
      e = edgeBetween(grid, between[1], between[0]);
    }
    const hasUp = !!side.up && (side.up === between[0] || side.up === between[1]);
    for (const f of features) {
      const wtr = WATER_EDGES[f];
      if (wtr) {
        const cap = 'stroke-linecap="round"';
        if (wtr.casing) {
          casings.push(
            line(
              e.x1,
              e.y1,
              e.x2,
              e.y2,
              `stroke="${wtr.casing}" stroke-width="${wtr.casingWidth}" ${cap}`,
            ),
          );
        }
        waters.push(
          line(
            e.x1,
            e.y1,
            e.x2,
            e.y2,
            `class="hm-hs-${f}" stroke="${wtr.fill}" stroke-width="${wtr.width}" ${cap}`,
          ),
        );
      } else if (f === "slope" || f === "steep_slope" || f === "crest") {
        slopes.push(slopeSvg(e, f, hasUp));
      } else if (f === "ford") {
        const p = shifted(e, 0, 5);
        crossings.push(
          line(
            p[0],
            p[1],
            p[2],
            p[3],
            'class="hm-hs-ford" stroke="#f2dfa4" stroke-width="3.4" stroke-dasharray="2.6 2.6"',
          ),
        );
      } else if (f === "bridge" || f === "pontoon_bridge") {
        bridges.push(crossingSvg(e, f === "pontoon_bridge"));
      } else {
        works.push(worksSvg(e, f));
      }
    }
  }
  const svg =
    casings.join("") + waters.join("") + slopes.join("") + works.join("") + crossings.join("");
  return { svg, bridges: bridges.join("") };
}

// The works along hexside e: a wall, a fortification, a redoubt or an entrenchment; a feature
// the map does not know is drawn magenta, dashed.
function worksSvg(e, f) {
  if (f === "wall") {
    const p = shifted(e, 0, 1);
    return (
      line(p[0], p[1], p[2], p[3], 'stroke="#3b3b3b" stroke-width="2"') +
      line(p[0], p[1], p[2], p[3], 'stroke="#3b3b3b" stroke-width="5.5" stroke-dasharray="2.4 2.6"')
    );
  }
  if (f === "fortification") {
    const p = shifted(e, 0, 1);
    return `<path d="${zigzag(p[0], p[1], p[2], p[3], e, 3.6, 6)}" fill="none" stroke="#1f1f1f" stroke-width="2.6" stroke-linejoin="miter"/>`;
  }
  if (f === "redoubt") {
    const p = shifted(e, 0, 2);
    let d = "";
    for (const k of [-0.3, 0.3]) {
      const x = e.mx + e.tx * SIZE * k;
      const y = e.my + e.ty * SIZE * k;
      d +=
        `M${r1(x + e.tx * 4)} ${r1(y + e.ty * 4)}L${r1(x + e.nx * 5)} ${r1(y + e.ny * 5)}` +
        `L${r1(x - e.tx * 4)} ${r1(y - e.ty * 4)}L${r1(x - e.nx * 5)} ${r1(y - e.ny * 5)}Z`;
    }
    return (
      `<g class="hm-hs-redoubt">` +
      line(p[0], p[1], p[2], p[3], 'stroke="#6b4321" stroke-width="3.2" stroke-linecap="round"') +
      `<path d="${d}" fill="#6b4321" stroke="#3e2610" stroke-width="0.8"/></g>`
    );
  }
  if (f === "entrenchment") {
    const p = shifted(e, 0, 2);
    return (
      line(p[0], p[1], p[2], p[3], 'stroke="#5a3a1c" stroke-width="1.6"') +
      line(p[0], p[1], p[2], p[3], 'stroke="#5a3a1c" stroke-width="7" stroke-dasharray="1.4 2.6"')
    );
  }
  return line(
    e.x1,
    e.y1,
    e.x2,
    e.y2,
    `class="hm-hs-unknown" data-feature="${esc(f)}" stroke="#ff00ff" stroke-width="2" stroke-dasharray="4 3"`,
  );
}

// Slope: thin contour on the up side with hachures hanging downhill; steep slope:
// heavier and longer; crest: a thick ridge line on the up side with sparse ticks.
function slopeSvg(e, f, hasUp) {
  const spec =
    f === "steep_slope"
      ? { line: 2.4, tick: 9, dash: "1.7 2.1", color: "#5a3716" }
      : f === "crest"
        ? { line: 4, tick: 4.5, dash: "1.6 6", color: "#6b4120" }
        : { line: 1.5, tick: 6.5, dash: "1.3 2.8", color: "#8a5a2b" };
  const off = f === "crest" ? -2.6 : -1.2;
  if (!hasUp) {
    const p = shifted(e, 0, 3);
    return line(
      p[0],
      p[1],
      p[2],
      p[3],
      `class="hm-hs-${f}" stroke="${spec.color}" stroke-width="${spec.line}"`,
    );
  }
  const a = shifted(e, off, 3);
  const b = shifted(e, off + spec.tick / 2, 4);
  return (
    `<g class="hm-hs-${f}" stroke="${spec.color}">` +
    line(a[0], a[1], a[2], a[3], `stroke-width="${spec.line}" stroke-linecap="round"`) +
    line(b[0], b[1], b[2], b[3], `stroke-width="${spec.tick}" stroke-dasharray="${spec.dash}"`) +
    "</g>"
  );
}

// Roads and trails through hex centres, then the bridges of the hexsides on top.
export function roadsSvg(grid, map, bridges) {
  const casings = [];
  const fills = [];
  const crossings = [];
  for (const road of map.roads || []) {
    const kind = road.kind || "road";
    const pts = [];
    const labels = road.hexes || [];
    for (const label of labels) {
      const p = grid.center(label);
      if (p) pts.push(r1(p[0]) + "," + r1(p[1]));
    }
    if (pts.length < 2) continue;
    const points = pts.join(" ");
    if (kind === "trail") {
      fills.push(
        `<polyline class="hm-trail" points="${points}" stroke="#6b4a2b" stroke-width="2.4" stroke-dasharray="6 4"/>`,
      );
      continue;
    }
    casings.push(
      `<polyline class="hm-road-casing" points="${points}" stroke="#5e4023" stroke-width="6.2"/>`,
    );
    fills.push(
      `<polyline class="hm-road hm-road-${esc(kind)}" points="${points}" stroke="#f1d9a0" stroke-width="3.2"/>`,
    );
    if (kind === "bridge" || kind === "pontoon_bridge") {
      for (let i = 1; i < labels.length; i++) {
        const e = edgeBetween(grid, labels[i - 1], labels[i]);
        if (e) crossings.push(crossingSvg(e, kind === "pontoon_bridge"));
      }
    }
  }
  return (
    `<g fill="none" stroke-linecap="round" stroke-linejoin="round">${casings.join("")}${fills.join("")}</g>` +
    crossings.join("") +
    (bridges || "")
  );
}

// Place names, and an empty group for the hex numbers (the first child).
// The place names printed on the map (map.labels), in one group.
export function placeNamesSvg(grid, map) {
  const out = [];
  // At the foot of the hex, below a counter.
  const dy = grid.flat ? SIZE * 0.89 : SIZE * 0.92;
  for (const lab of map.labels || []) {
    const p = grid.center(lab.hex);
    if (!p || !lab.text) continue;
    out.push(`<text x="${r1(p[0])}" y="${r1(p[1] + dy)}">${esc(lab.text)}</text>`);
  }
  return `<g class="hm-place" font-size="12" text-anchor="middle">${out.join("")}</g>`;
}

export function labelsSvg(grid, map) {
  return (
    '<g class="hm-nums" font-size="10" text-anchor="middle" fill="#2f2a24"></g>' +
    placeNamesSvg(grid, map)
  );
}
