// Hex map renderer: draws a muster scenario map as SVG and reports taps.
// It only draws and reports; every rule lives in the Python core.
// Plain ES2020 so it parses on older iPad Safari. Pan, zoom and taps: PanZoomMap.

import { PanZoomMap } from "./panzoom.js";
import { r1, esc, clamp } from "./svg.js";

const SIZE = 50; // hex radius in SVG user units
const SQRT3 = Math.sqrt(3);
const FAR_ZOOM = 0.55; // below this the hex numbers are hidden
const TINY_ZOOM = 0.38; // below this the counter texts are hidden
const COUNTER = 50; // counter side in map units

// Axial neighbour directions, the same order as the Python core (hexgrid.HEX_DIRECTIONS).
const DIRECTIONS = [
  [1, -1],
  [1, 0],
  [0, 1],
  [-1, 1],
  [-1, 0],
  [0, -1],
];

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

// Hexside features. Each draws on the shared edge; see _hexsideSvg.
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

let instances = 0;

function line(ax, ay, bx, by, attrs) {
  return `<line x1="${r1(ax)}" y1="${r1(ay)}" x2="${r1(bx)}" y2="${r1(by)}" ${attrs}/>`;
}

// Hex geometry and the printed CCRR numbering of one map. Matches py/muster/hexgrid.py.
export class HexGrid {
  constructor(map) {
    this.flat = map.orientation !== "pointy";
    this.shift = map.stagger === "even" ? 1 : -1;
    this.columnDigits = map.column_digits ?? 2;
    this.rowDigits = map.row_digits ?? 2;
    this.firstColumn = map.first_column ?? 1;
    this.columns = map.columns;
    this.firstRow = map.first_row ?? 1;
    this.rows = map.rows;
    this.size = SIZE;
    this.corners = [];
    for (let i = 0; i < 6; i++) {
      const a = (Math.PI / 180) * (60 * i - (this.flat ? 0 : 30));
      this.corners.push([SIZE * Math.cos(a), SIZE * Math.sin(a)]);
    }
    // The outline after its first corner, as relative path commands.
    let rel = "";
    for (let i = 1; i < 6; i++) {
      const dx = this.corners[i][0] - this.corners[i - 1][0];
      const dy = this.corners[i][1] - this.corners[i - 1][1];
      rel += "l" + r1(dx) + " " + r1(dy);
    }
    this.relOutline = rel + "z";
    // For each direction, the two corners of the side facing that neighbour.
    this.edgeCorners = DIRECTIONS.map((d) => {
      const p = this.pixel(d[0], d[1]);
      const order = [0, 1, 2, 3, 4, 5].sort(
        (i, j) =>
          this.corners[j][0] * p[0] +
          this.corners[j][1] * p[1] -
          (this.corners[i][0] * p[0] + this.corners[i][1] * p[1]),
      );
      return [order[0], order[1]];
    });
  }

  label(col, row) {
    return String(col).padStart(this.columnDigits, "0") + String(row).padStart(this.rowDigits, "0");
  }

  // {col, row} of a printed label, or null when it is not a number of this map's width.
  parse(label) {
    if (typeof label !== "string") return null;
    if (label.length !== this.columnDigits + this.rowDigits) return null;
    if (!/^\d+$/.test(label)) return null;
    return {
      col: parseInt(label.slice(0, this.columnDigits), 10),
      row: parseInt(label.slice(this.columnDigits), 10),
    };
  }

  contains(col, row) {
    return (
      col >= this.firstColumn &&
      col < this.firstColumn + this.columns &&
      row >= this.firstRow &&
      row < this.firstRow + this.rows
    );
  }

  has(label) {
    const p = this.parse(label);
    return p !== null && this.contains(p.col, p.row);
  }

  toAxial(col, row) {
    if (this.flat) {
      return [col, row - Math.floor((col + this.shift * (col & 1)) / 2)];
    }
    return [col - Math.floor((row + this.shift * (row & 1)) / 2), row];
  }

  fromAxial(q, r) {
    if (this.flat) {
      return [q, r + Math.floor((q + this.shift * (q & 1)) / 2)];
    }
    return [q + Math.floor((r + this.shift * (r & 1)) / 2), r];
  }

  axialOf(label) {
    const p = this.parse(label);
    return p ? this.toAxial(p.col, p.row) : null;
  }

  pixel(q, r) {
    if (this.flat) return [SIZE * 1.5 * q, SIZE * SQRT3 * (r + q / 2)];
    return [SIZE * SQRT3 * (q + r / 2), SIZE * 1.5 * r];
  }

  center(label) {
    const a = this.axialOf(label);
    return a ? this.pixel(a[0], a[1]) : null;
  }

  // The printed label of the hex under map point (x, y), or null when off the map.
  labelAt(x, y) {
    let fq;
    let fr;
    if (this.flat) {
      fq = ((2 / 3) * x) / SIZE;
      fr = ((-1 / 3) * x + (SQRT3 / 3) * y) / SIZE;
    } else {
      fq = ((SQRT3 / 3) * x - (1 / 3) * y) / SIZE;
      fr = ((2 / 3) * y) / SIZE;
    }
    const fs = -fq - fr;
    let q = Math.round(fq);
    let r = Math.round(fr);
    const s = Math.round(fs);
    const dq = Math.abs(q - fq);
    const dr = Math.abs(r - fr);
    const ds = Math.abs(s - fs);
    if (dq > dr && dq > ds) q = -r - s;
    else if (dr > ds) r = -q - s;
    const o = this.fromAxial(q, r);
    return this.contains(o[0], o[1]) ? this.label(o[0], o[1]) : null;
  }

  points(x, y) {
    const c = this.corners;
    let s = "";
    for (let i = 0; i < 6; i++) {
      s += (i ? " " : "") + r1(x + c[i][0]) + "," + r1(y + c[i][1]);
    }
    return s;
  }

  // Direction 0-5 from axial a to its neighbour b, or -1.
  direction(a, b) {
    const dq = b[0] - a[0];
    const dr = b[1] - a[1];
    for (let i = 0; i < 6; i++) {
      if (DIRECTIONS[i][0] === dq && DIRECTIONS[i][1] === dr) return i;
    }
    return -1;
  }

  // Every on-map hex: {label, q, r, x, y}, column by column.
  *cells() {
    for (let col = this.firstColumn; col < this.firstColumn + this.columns; col++) {
      for (let row = this.firstRow; row < this.firstRow + this.rows; row++) {
        const a = this.toAxial(col, row);
        const p = this.pixel(a[0], a[1]);
        yield { label: this.label(col, row), q: a[0], r: a[1], x: p[0], y: p[1] };
      }
    }
  }
}

// The shared edge of two adjacent hexes: endpoints, midpoint, the unit vector n from
// hex a towards hex b, and the unit vector t along the edge.
function edgeBetween(grid, labelA, labelB) {
  const a = grid.axialOf(labelA);
  const b = grid.axialOf(labelB);
  if (!a || !b || grid.direction(a, b) < 0) return null;
  const pa = grid.pixel(a[0], a[1]);
  const pb = grid.pixel(b[0], b[1]);
  const mx = (pa[0] + pb[0]) / 2;
  const my = (pa[1] + pb[1]) / 2;
  const len = Math.hypot(pb[0] - pa[0], pb[1] - pa[1]);
  const nx = (pb[0] - pa[0]) / len;
  const ny = (pb[1] - pa[1]) / len;
  const tx = -ny;
  const ty = nx;
  const h = SIZE / 2;
  return {
    mx,
    my,
    nx,
    ny,
    tx,
    ty,
    x1: mx + tx * h,
    y1: my + ty * h,
    x2: mx - tx * h,
    y2: my - ty * h,
  };
}

// The edge moved by d along n and shortened by `trim` units at each end.
function shifted(e, d, trim) {
  const h = SIZE / 2 - (trim || 0);
  const cx = e.mx + e.nx * d;
  const cy = e.my + e.ny * d;
  return [cx + e.tx * h, cy + e.ty * h, cx - e.tx * h, cy - e.ty * h];
}

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

function shortName(name, type) {
  const n = String(name || "");
  if (n.length <= 11) return n;
  const words = n.split(/\s+/);
  if (type === "leader") return words[words.length - 1];
  if (words.length > 1 && (/\d/.test(words[1]) || /\d/.test(words[0]))) {
    return words.slice(0, 2).join(" ");
  }
  if (words.length > 1 && words[0].length <= 5) {
    return words.slice(0, 2).join(" ");
  }
  return words[words.length - 1];
}

function ratingsText(ratings) {
  if (!ratings) return "";
  const keys = Object.keys(ratings);
  const order = ["strength", "morale", "movement"];
  let shown;
  if (order.every((k) => k in ratings)) shown = order;
  else shown = keys;
  return shown
    .map((k) => {
      const v = ratings[k];
      return /modifier$/.test(k) && v > 0 ? "+" + v : String(v);
    })
    .join("-");
}

// The type symbol of a counter, drawn around (0, cy) in colour c.
function typeSymbol(type, c, cy) {
  if (type === "leader") {
    let d = "";
    for (let i = 0; i < 10; i++) {
      const rad = i % 2 ? 3.6 : 8.5;
      const a = -Math.PI / 2 + (i * Math.PI) / 5;
      d += (i ? "L" : "M") + r1(rad * Math.cos(a)) + " " + r1(cy + rad * Math.sin(a));
    }
    return `<path d="${d}Z" fill="${c}"/>`;
  }
  const w = 13;
  const h = 8.5;
  const box = `<rect x="${-w}" y="${cy - h}" width="${2 * w}" height="${2 * h}" fill="none" stroke="${c}" stroke-width="1.7"/>`;
  if (type === "infantry") {
    return (
      box +
      `<path d="M${-w} ${cy - h}L${w} ${cy + h}M${-w} ${cy + h}L${w} ${cy - h}" stroke="${c}" stroke-width="1.4"/>`
    );
  }
  if (type === "cavalry") {
    return box + `<path d="M${-w} ${cy + h}L${w} ${cy - h}" stroke="${c}" stroke-width="1.5"/>`;
  }
  if (type === "artillery") {
    return box + `<circle cx="0" cy="${cy}" r="3.6" fill="${c}"/>`;
  }
  return box;
}

export class HexMap extends PanZoomMap {
  constructor(container, options) {
    super(container, { prefix: "hm", farZoom: FAR_ZOOM });
    const opts = options || {};
    this.onHexTap = opts.onHexTap || null;
    this.unitLabel = opts.unitLabel || null;
    this.unitRatings = opts.unitRatings || null;
    this._id = "hm" + ++instances;
    this._grid = null;
    this._scenario = null;
    this._sides = {};
    this._units = [];
    this._selected = null;
    this._selectedUnit = null;
    this._bounds = { minX: -100, minY: -100, maxX: 100, maxY: 100 };
    this._lines = [];
    this._numsSvg = "";
    this._numsBuilt = false;
    this._numsLayer = null;
    this._bridgesSvg = "";

    // Only the counters take pointer events; a tap elsewhere resolves by position.
    const names = ["terrain", "hexsides", "roads", "highlights", "labels", "units", "overlays"];
    for (const name of names) this._addLayer(name, "hm-layer hm-" + name, name === "units");
  }

  // ---- drawing -------------------------------------------------------------------

  setScenario(scenario) {
    this._size = null;
    this._dims(); // measure before the new drawing dirties layout
    const map = scenario.map;
    const grid = new HexGrid(map);
    this._scenario = scenario;
    this._grid = grid;
    this._sides = {};
    for (const side of scenario.sides || []) this._sides[side.id] = side;
    this._selected = null;
    this._selectedUnit = null;
    this._lines = [];
    this._defs.innerHTML = this._patternDefs();
    this._drawTerrain(map);
    this._drawHexsides(map);
    this._drawRoads(map);
    this._drawLabels(map);
    this.layers.highlights.innerHTML = "";
    this.layers.overlays.innerHTML = "";
    this._drawUnits(scenario.units || []);
    this._svg.setAttribute("data-map-drawn", "1");
    this._svg.setAttribute("data-orientation", grid.flat ? "flat" : "pointy");
    this.fit();
  }

  _patternDefs() {
    let s = "";
    for (const id of Object.keys(TERRAIN)) {
      const t = TERRAIN[id];
      if (!t.art) continue;
      const head = `<pattern id="${this._id}-%-${id}" width="${t.w}" height="${t.h}" patternUnits="userSpaceOnUse">`;
      const bg = `<rect width="${t.w}" height="${t.h}" fill="${t.bg}" fill-opacity="${t.op}"/>`;
      s += head.replace("%", "b") + bg + t.art + "</pattern>";
      s += head.replace("%", "o") + t.art + "</pattern>";
    }
    return s;
  }

  _drawTerrain(map) {
    // Hot path for big maps: plain loops, index arithmetic, few number-to-text steps.
    const grid = this._grid;
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
    const numDy = grid.flat ? -SIZE * 0.866 + 10.5 : -SIZE * 0.5;
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
            symbols.push(`<g transform="translate(${xs} ${ys})">${t.symbol}</g>`);
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
        nums.push(
          `<text x="${xs}" y="${r1(y + numDy)}"${dark ? ' class="hm-num-light"' : ""}>${label}</text>`,
        );
      }
    }

    // Contour lines where neighbouring hexes differ in level.
    let contours = "";
    const edges = grid.edgeCorners;
    const edgeRel = edges.map(
      (e) => "l" + r1(c[e[1]][0] - c[e[0]][0]) + " " + r1(c[e[1]][1] - c[e[0]][1]),
    );
    i = 0;
    for (let col = c0; col < c0 + cols; col++) {
      for (let row = r0; row < r0 + rows; row++, i++) {
        const a = grid.toAxial(col, row);
        for (let d = 0; d < 3; d++) {
          const o = grid.fromAxial(a[0] + DIRECTIONS[d][0], a[1] + DIRECTIONS[d][1]);
          if (!grid.contains(o[0], o[1])) continue;
          if (levels[(o[0] - c0) * rows + (o[1] - r0)] === levels[i]) continue;
          const e = edges[d];
          contours += "M" + r1(cx[i] + c[e[0]][0]) + " " + r1(cy[i] + c[e[0]][1]) + edgeRel[d];
        }
      }
    }

    let tex = "";
    for (const key of Object.keys(textures)) {
      const id = key.slice(2);
      let fill;
      if (key === "unknown") fill = 'fill="#ff00ff" fill-opacity="0.25"';
      else if (key[0] === "c") fill = `fill="${TERRAIN[id].bg}" fill-opacity="${TERRAIN[id].op}"`;
      else fill = `fill="url(#${this._id}-${key})"`;
      tex += `<path class="hm-t-${key}" d="${textures[key]}" ${fill}/>`;
    }
    this.layers.terrain.innerHTML =
      `<g class="hm-base">${base
        .map((polys, lv) => (polys ? `<g fill="${LEVEL_COLORS[lv]}">${polys}</g>` : ""))
        .join("")}</g>` +
      `<g class="hm-texture">${tex}</g>` +
      `<g class="hm-symbols">${symbols.join("")}</g>` +
      `<path class="hm-contours" d="${contours}" fill="none" stroke="#7d5a2f" stroke-width="1.3" stroke-opacity="0.8" stroke-linecap="round"/>` +
      `<path class="hm-grid" d="${gridPath}" fill="none" stroke="#3a3128" stroke-opacity="0.38" stroke-width="1"/>`;
    // Hex numbers go in the labels layer, built the first time they can be read
    // (a big map fitted to the screen hides them, so its first draw skips them).
    this._numsSvg = nums.join("");
    this._numsBuilt = false;

    // Bounds for fit and pan limits.
    const hw = grid.flat ? SIZE : (SIZE * SQRT3) / 2;
    const hh = grid.flat ? (SIZE * SQRT3) / 2 : SIZE;
    this._bounds = { minX: minX - hw, minY: minY - hh, maxX: maxX + hw, maxY: maxY + hh };
  }

  _drawHexsides(map) {
    const grid = this._grid;
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
          slopes.push(this._slopeSvg(e, f, hasUp));
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
        } else if (f === "wall") {
          const p = shifted(e, 0, 1);
          works.push(
            line(p[0], p[1], p[2], p[3], 'stroke="#3b3b3b" stroke-width="2"') +
              line(
                p[0],
                p[1],
                p[2],
                p[3],
                'stroke="#3b3b3b" stroke-width="5.5" stroke-dasharray="2.4 2.6"',
              ),
          );
        } else if (f === "fortification") {
          const p = shifted(e, 0, 1);
          works.push(
            `<path d="${zigzag(p[0], p[1], p[2], p[3], e, 3.6, 6)}" fill="none" stroke="#1f1f1f" stroke-width="2.6" stroke-linejoin="miter"/>`,
          );
        } else if (f === "redoubt") {
          const p = shifted(e, 0, 2);
          let d = "";
          for (const k of [-0.3, 0.3]) {
            const x = e.mx + e.tx * SIZE * k;
            const y = e.my + e.ty * SIZE * k;
            d +=
              `M${r1(x + e.tx * 4)} ${r1(y + e.ty * 4)}L${r1(x + e.nx * 5)} ${r1(y + e.ny * 5)}` +
              `L${r1(x - e.tx * 4)} ${r1(y - e.ty * 4)}L${r1(x - e.nx * 5)} ${r1(y - e.ny * 5)}Z`;
          }
          works.push(
            `<g class="hm-hs-redoubt">` +
              line(
                p[0],
                p[1],
                p[2],
                p[3],
                'stroke="#6b4321" stroke-width="3.2" stroke-linecap="round"',
              ) +
              `<path d="${d}" fill="#6b4321" stroke="#3e2610" stroke-width="0.8"/></g>`,
          );
        } else if (f === "entrenchment") {
          const p = shifted(e, 0, 2);
          works.push(
            line(p[0], p[1], p[2], p[3], 'stroke="#5a3a1c" stroke-width="1.6"') +
              line(
                p[0],
                p[1],
                p[2],
                p[3],
                'stroke="#5a3a1c" stroke-width="7" stroke-dasharray="1.4 2.6"',
              ),
          );
        } else {
          works.push(
            line(
              e.x1,
              e.y1,
              e.x2,
              e.y2,
              `class="hm-hs-unknown" data-feature="${esc(f)}" stroke="#ff00ff" stroke-width="2" stroke-dasharray="4 3"`,
            ),
          );
        }
      }
    }
    this.layers.hexsides.innerHTML =
      casings.join("") + waters.join("") + slopes.join("") + works.join("") + crossings.join("");
    this._bridgesSvg = bridges.join(""); // drawn on top of the roads by _drawRoads
  }

  // Slope: thin contour on the up side with hachures hanging downhill; steep slope:
  // heavier and longer; crest: a thick ridge line on the up side with sparse ticks.
  _slopeSvg(e, f, hasUp) {
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

  _drawRoads(map) {
    const grid = this._grid;
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
    this.layers.roads.innerHTML =
      `<g fill="none" stroke-linecap="round" stroke-linejoin="round">${casings.join("")}${fills.join("")}</g>` +
      crossings.join("") +
      (this._bridgesSvg || "");
  }

  _drawLabels(map) {
    const grid = this._grid;
    const out = [];
    const dy = grid.flat ? SIZE * 0.81 : SIZE * 0.78;
    for (const lab of map.labels || []) {
      const p = grid.center(lab.hex);
      if (!p || !lab.text) continue;
      out.push(`<text x="${r1(p[0])}" y="${r1(p[1] + dy)}">${esc(lab.text)}</text>`);
    }
    this.layers.labels.innerHTML =
      '<g class="hm-nums" font-size="8.5" text-anchor="middle" fill="#2f2a24"></g>' +
      `<g class="hm-place" font-size="12" text-anchor="middle">${out.join("")}</g>`;
    this._numsLayer = this.layers.labels.firstChild;
  }

  // Redraw only the counters. units: [{id, side, type, name, hex, ratings?, facing?, ...}].
  setUnits(units) {
    this._drawUnits(units || []);
  }

  _drawUnits(units) {
    this._units = units.slice();
    const grid = this._grid;
    if (!grid) return;
    const byHex = new Map();
    for (const u of this._units) {
      if (!u || !u.hex || !grid.has(u.hex)) continue;
      if (!byHex.has(u.hex)) byHex.set(u.hex, []);
      byHex.get(u.hex).push(u);
    }
    const out = [];
    const yOff = grid.flat ? 5 : 6;
    byHex.forEach((list, label) => {
      const p = grid.center(label);
      const n = list.length;
      const step = n > 1 ? Math.min(5, 12 / (n - 1)) : 0;
      for (let i = 0; i < n; i++) {
        const off = (i - (n - 1) / 2) * step;
        out.push(
          this._counterSvg(list[i], p[0] + off, p[1] + yOff - off, i === n - 1 && n > 1 ? n : 0),
        );
      }
    });
    this.layers.units.innerHTML = out.join("");
    if (this._selectedUnit) this.selectUnit(this._selectedUnit);
  }

  _counterSvg(u, x, y, stackCount) {
    const side = this._sides[u.side] || {};
    const fill = side.color || "#9a9a9a";
    const ink = side.text || "#111111";
    const type = u.type || "";
    const h = COUNTER / 2;
    const label = this.unitLabel ? this.unitLabel(u) : shortName(u.name || u.id, type);
    const ratings = this.unitRatings ? this.unitRatings(u) : ratingsText(u.ratings);
    let s =
      `<g class="hm-unit hm-unit-${esc(type)}" data-unit="${esc(u.id)}" data-at="${esc(u.hex)}" transform="translate(${r1(x)} ${r1(y)})">` +
      `<title>${esc(u.name || u.id)}${side.name ? " (" + esc(side.name) + ")" : ""}</title>` +
      `<rect class="hm-unit-shadow" x="${-h + 1.8}" y="${-h + 1.8}" width="${COUNTER}" height="${COUNTER}" rx="4.5" fill="#000" fill-opacity="0.38"/>` +
      `<rect class="hm-unit-body" x="${-h}" y="${-h}" width="${COUNTER}" height="${COUNTER}" rx="4.5" fill="${esc(fill)}" stroke="#1c1c1c" stroke-opacity="0.75" stroke-width="1.2"/>` +
      typeSymbol(type, esc(ink), -11);
    const maxW = COUNTER - 5;
    const fs = 8.6;
    const est = label.length * fs * 0.56;
    const fit = est > maxW ? ` textLength="${maxW}" lengthAdjust="spacingAndGlyphs"` : "";
    s += `<g class="hm-unit-text" fill="${esc(ink)}" text-anchor="middle">`;
    s += `<text class="hm-unit-name" y="8.5" font-size="${fs}"${fit}>${esc(label)}</text>`;
    if (ratings) {
      s += `<text class="hm-unit-ratings" y="20.5" font-size="10">${esc(ratings)}</text>`;
    }
    s += "</g>";
    if (typeof u.facing === "number" && u.facing >= 0 && u.facing < 12) {
      s += this._facingSvg(u.facing, ink);
    }
    if (u.status === "disordered" || u.status === "routed") {
      // A status marker on the counter's corner: D disordered, R routed.
      const routed = u.status === "routed";
      s +=
        `<g class="hm-status ${routed ? "routed" : "disordered"}">` +
        `<rect x="${-h - 3}" y="${-h - 3}" width="13" height="13" rx="2" fill="${routed ? "#c0392b" : "#f1c40f"}" stroke="#1c1c1c" stroke-width="1"/>` +
        `<text x="${-h + 3.5}" y="${-h + 7}" font-size="10" font-weight="700" text-anchor="middle" fill="${routed ? "#fff" : "#1c1c1c"}">${routed ? "R" : "D"}</text></g>`;
    }
    if (u.marks && u.marks.length) {
      // Markers of the system's own states (e.g. E engaged, W winning combat, C column, -1 step).
      const text = u.marks.join(" ");
      const w = Math.max(13, text.length * 5.6 + 5);
      s +=
        `<g class="hm-marks" data-marks="${esc(u.marks.join(","))}">` +
        `<rect x="${-h - 3}" y="${h - 10}" width="${r1(w)}" height="13" rx="2" fill="#fdfdf8" stroke="#1c1c1c" stroke-width="1"/>` +
        `<text x="${r1(-h - 3 + w / 2)}" y="${h}" font-size="9" font-weight="700" text-anchor="middle" fill="#1c1c1c">${esc(text)}</text></g>`;
    }
    if (stackCount > 3) {
      s += `<circle cx="${h - 2}" cy="${-h + 2}" r="7" fill="#1c1c1c"/><text x="${h - 2}" y="${-h + 5.3}" font-size="9" fill="#fff" text-anchor="middle">${stackCount}</text>`;
    }
    return s + "</g>";
  }

  // Facing 0-11 (the core's convention): an even value 2d faces the hexside towards
  // direction d; an odd value 2d+1 faces the vertex between directions d and d+1.
  _facingSvg(facing, ink) {
    const d = DIRECTIONS[Math.floor(facing / 2)];
    const e = DIRECTIONS[(Math.floor(facing / 2) + (facing % 2)) % 6];
    const p = this._grid.pixel(d[0] + e[0], d[1] + e[1]);
    const len = Math.hypot(p[0], p[1]);
    const ux = p[0] / len;
    const uy = p[1] / len;
    const h = COUNTER / 2;
    const t = h / Math.max(Math.abs(ux), Math.abs(uy));
    const bx = ux * t;
    const by = uy * t;
    const w = 5;
    const pts = [
      [bx + ux * 6, by + uy * 6],
      [bx - ux * 1.5 - uy * w, by - uy * 1.5 + ux * w],
      [bx - ux * 1.5 + uy * w, by - uy * 1.5 - ux * w],
    ];
    return `<polygon class="hm-facing" points="${pts
      .map((q) => r1(q[0]) + "," + r1(q[1]))
      .join(" ")}" fill="${esc(ink)}" stroke="#1c1c1c" stroke-width="1"/>`;
  }

  // ---- state shown on the map ---------------------------------------------------

  // Outline one hex (or none).
  select(label) {
    this._selected = label && this._grid && this._grid.has(label) ? label : null;
    this._drawOverlays();
  }

  // Mark one counter as selected (or none); survives setUnits.
  selectUnit(id) {
    this._selectedUnit = id || null;
    const old = this.layers.units.querySelectorAll(".hm-unit-selected");
    for (let i = 0; i < old.length; i++) old[i].classList.remove("hm-unit-selected");
    if (!id) return;
    const g = this._unitElement(id);
    if (g) {
      g.classList.add("hm-unit-selected");
      g.parentNode.appendChild(g); // bring to front
    }
  }

  _unitElement(id) {
    const all = this.layers.units.querySelectorAll("[data-unit]");
    for (let i = 0; i < all.length; i++) {
      if (all[i].getAttribute("data-unit") === String(id)) return all[i];
    }
    return null;
  }

  // Shade hexes: {label: "className"} or {label: {cls, text}}; null clears.
  highlight(marks) {
    const grid = this._grid;
    if (!grid || !marks) {
      this.layers.highlights.innerHTML = "";
      return;
    }
    const polys = [];
    const texts = [];
    const dy = grid.flat ? SIZE * 0.6 : SIZE * 0.58;
    for (const label of Object.keys(marks)) {
      const p = grid.center(label);
      if (!p || !grid.has(label)) continue;
      const m = marks[label];
      const cls = typeof m === "string" ? m : (m && m.cls) || "";
      const text = m && typeof m === "object" && m.text != null ? String(m.text) : "";
      polys.push(
        `<polygon class="hm-hl ${esc(cls)}" data-hl="${label}" points="${grid.points(p[0], p[1])}"/>`,
      );
      if (text) {
        texts.push(
          `<text class="hm-hl-text ${esc(cls)}" x="${r1(p[0])}" y="${r1(p[1] + dy)}">${esc(text)}</text>`,
        );
      }
    }
    this.layers.highlights.innerHTML =
      polys.join("") + `<g text-anchor="middle" font-size="13">${texts.join("")}</g>`;
  }

  // Lines between hex centres, e.g. line of sight: [{from, to, cls}]; null clears.
  setLines(lines) {
    this._lines = lines || [];
    this._drawOverlays();
  }

  _drawOverlays() {
    const grid = this._grid;
    if (!grid) return;
    let s = "";
    for (const ln of this._lines || []) {
      if (ln.hexes) {
        // A path through hex centres.
        const pts = ln.hexes.map((label) => grid.center(label)).filter(Boolean);
        s += `<polyline class="hm-line ${esc(ln.cls || "")}" fill="none" points="${pts
          .map((q) => r1(q[0]) + "," + r1(q[1]))
          .join(" ")}"/>`;
        continue;
      }
      const a = grid.center(ln.from);
      const b = grid.center(ln.to);
      if (!a || !b) continue;
      // An optional stretch of the segment: t0..t1 as fractions of its length.
      const t0 = typeof ln.t0 === "number" ? ln.t0 : 0;
      const t1 = typeof ln.t1 === "number" ? ln.t1 : 1;
      const x0 = a[0] + (b[0] - a[0]) * t0;
      const y0 = a[1] + (b[1] - a[1]) * t0;
      const x1 = a[0] + (b[0] - a[0]) * t1;
      const y1 = a[1] + (b[1] - a[1]) * t1;
      s += line(x0, y0, x1, y1, `class="hm-line ${esc(ln.cls || "")}"`);
      if (ln.mark) {
        s += `<circle class="hm-line-mark ${esc(ln.cls || "")}" cx="${r1(x0)}" cy="${r1(y0)}" r="7"/>`;
      }
    }
    if (this._selected) {
      const p = grid.center(this._selected);
      const pts = grid.points(p[0], p[1]);
      s +=
        `<polygon class="hm-sel-casing" points="${pts}" fill="none" stroke="#151515" stroke-width="7" stroke-linejoin="round"/>` +
        `<polygon class="hm-sel" data-selected="${this._selected}" points="${pts}" fill="none" stroke="#ffd21f" stroke-width="3.6" stroke-linejoin="round"/>`;
    }
    this.layers.overlays.innerHTML = s;
  }

  // ---- geometry helpers for callers ------------------------------------------------

  // The hex under a client (CSS pixel) point, or null.
  hexAtClientPoint(x, y) {
    if (!this._grid) return null;
    const p = this.clientToMap(x, y);
    return this._grid.labelAt(p.x, p.y);
  }

  // Client (CSS pixel) coordinates of a hex centre, or null.
  hexToClient(label) {
    const p = this._grid && this._grid.center(label);
    if (!p) return null;
    const rect = this._svg.getBoundingClientRect();
    return {
      x: rect.left + rect.width / 2 + (p[0] - this._cx) * this._k,
      y: rect.top + rect.height / 2 + (p[1] - this._cy) * this._k,
    };
  }

  hexInfo(label) {
    if (!this._grid || !this._grid.has(label)) return null;
    const map = this._scenario.map;
    const data = (map.hexes || {})[label];
    const terrain =
      data && Array.isArray(data.terrain) && data.terrain.length
        ? data.terrain.slice()
        : [map.default_terrain || "clear"];
    return {
      label,
      terrain,
      level: (data && data.level) || 0,
      units: this._units.filter((u) => u && u.hex === label).map((u) => u.id),
    };
  }

  // ---- view and taps: hooks of PanZoomMap ------------------------------------------

  // Centre the view on a hex; opts.zoom sets the zoom (CSS px per map unit).
  centerOn(label, opts) {
    const p = this._grid && this._grid.center(label);
    if (!p) return;
    this._cx = p[0];
    this._cy = p[1];
    if (opts && typeof opts.zoom === "number") this._k = opts.zoom;
    this._fitted = false;
    this._applyView();
  }

  // Tiny is also far: "hm-far hm-tiny" hides the hex numbers and the counter texts.
  _zoomClassOf(k) {
    return k < TINY_ZOOM ? "hm-far hm-tiny" : super._zoomClassOf(k);
  }

  // The hex numbers are built the first time the view is near enough to read them.
  _viewApplied(zc) {
    if (zc === "hm-near" && !this._numsBuilt && this._numsLayer) {
      this._numsLayer.innerHTML = this._numsSvg;
      this._numsBuilt = true;
    }
  }

  // A pointerdown on a counter records its unit id and hex.
  _tapTarget(el) {
    const counter = el && el.closest ? el.closest("[data-unit]") : null;
    if (!counter) return null;
    return { unit: counter.getAttribute("data-unit"), hex: counter.getAttribute("data-at") };
  }

  _reportTap(g) {
    const counter = g.target;
    // A tap on a counter is a tap on its hex, even where the counter overhangs a neighbour.
    const label = (counter && counter.hex) || this.hexAtClientPoint(g.x0, g.y0);
    if (!label || !this.onHexTap) return;
    const info = this.hexInfo(label);
    info.unit = counter ? counter.unit : null;
    info.pointerType = g.pointerType;
    info.clientX = g.x0;
    info.clientY = g.y0;
    this.onHexTap(label, info);
  }

  destroy() {
    super.destroy();
    this.onHexTap = null;
  }
}
