// Area map renderer: draws an AREA map (locales, approaches, roads, blocks) as SVG and
// reports taps. It only draws and reports; every rule lives in the Python core.
// Plain ES2020 so it parses on older iPad Safari. Pan, zoom and taps: PanZoomMap.
//
// Public API (see docs/play-view.md for what the core sends):
//   new AreaMap(container, {onTap(target), capacity(n)?: a locale's capacity in words})
//   setMap(map, sides)             draw an AREA map (locales, approaches, roads)
//   rename(map, sides)             the same map in another language: names drawn again
//   setPieces(blocks)              [{id, side, locale, approach, hidden, type, steps, name,
//                                  revealed, markers?: [{id, sign, title}]}]
//   setHolders({locale: side})     who holds each objective
//   light({places, units, selected, costs}) | light(null)
//                                  what a tap may act on: places are locale ids or
//                                  approaches "a/b" (an id with "/"), lit with costs[place]
//                                  printed by them; units (block ids) ringed; selected (a
//                                  block id, or a list) outlined. The older form
//                                  {locales, approaches, pieces} is still read.
//   mark(places) | mark(null)      shade the places a result card concerns
//   setArrows([{from, to, kind}]) | setArrows(null)
//                                  attacks in progress between locales or approaches: an
//                                  arrow from approach "a/b" goes from a into b
//   select(blockIds), fit(), fitAll(), zoomBy(f), panBy(dx, dy), centerOn(place, {zoom}),
//   zoom, destroy(); framing (PanZoomMap): frame(), toggleFit(), frameNextPieces(),
//   showPieces(block ids), showPlaces(places), onView
//   keyboard (PanZoomMap): focus(), keyboardActive, describe(what), cursor (the target under
//                                  it), setCursor(id); the cursor stops at every locale,
//                                  approach and block, and Enter calls onTap with the target a
//                                  tap there reports
// A tap calls onTap(target): {kind: "piece", id, locale, approach, place, stack} (place:
// where the block stands, "a/b" on an approach; stack: the blocks drawn on top of one
// another at the block, itself among them, in drawing order), {kind: "approach", id:
// "a/b", locale, facing} or {kind: "locale", id}.

import { PanZoomMap } from "./panzoom.js";
import { r1, esc } from "./svg.js";
import { arrowSvg, arrowShift } from "./arrows.js";

// The colour of an objective nobody holds yet (drawn dashed too, whatever a side's colour).
const NOBODY = "#c8c8c8";

const FAR_ZOOM = 0.5; // below this the small texts (capacity) are hidden
const BLOCK = 40; // block side in map units
const PITCH = BLOCK + 4; // block spacing in rows and grids
const PER_ROW = 3; // reserve blocks per row
const BADGE_FS = 12; // marker badge text, map units
const BADGE_H = 15;
// The default view is never farther than this: badge texts at 11 CSS px or more, and a
// block's hit area (PITCH) at least 44 CSS px, a finger's width.
const READ_ZOOM = Math.max(11.1 / BADGE_FS, 44 / PITCH);
const INSET = 14; // approach marker centre: this far from the border toward the locale
const BAR_THICK = 8;
const HIT = 46; // an approach's hit area is at least this many units each way
const BAR_LEN = { narrow: 26, wide: 52 };

// Locale fills by terrain: bg tint and an optional texture tile of w x h units.
export const TERRAIN = {
  open: { bg: "#e4e8c6" },
  town: {
    bg: "#efcfc6",
    w: 8,
    h: 8,
    art: '<path d="M-2 2l4-4M0 8l8-8M6 10l4-4" stroke="#b0625a" stroke-width="1.1" stroke-opacity="0.7"/>',
  },
  woods: {
    bg: "#cfe2bd",
    w: 14,
    h: 14,
    art: '<circle cx="3.5" cy="3.5" r="2" fill="#4b8a3a" fill-opacity="0.75"/><circle cx="10.5" cy="10.5" r="2" fill="#4b8a3a" fill-opacity="0.75"/>',
  },
  farm: {
    bg: "#f7f0bd",
    w: 10,
    h: 10,
    art: '<path d="M0 2.5h10M0 7.5h10" stroke="#d6c266" stroke-width="1.6" stroke-opacity="0.8"/>',
  },
  river_bank: {
    bg: "#cbe7df",
    w: 24,
    h: 12,
    art: '<path d="M0 6q3-3 6 0t6 0 6 0 6 0" fill="none" stroke="#7db5bf" stroke-width="1"/>',
  },
  hills: {
    bg: "#e2cda2",
    w: 22,
    h: 18,
    art: '<path d="M3 8q4-6 8 0M13 17q4-6 8 0" fill="none" stroke="#a9885a" stroke-width="1.1"/>',
  },
};

let instances = 0;

function unit(x, y, fx, fy) {
  const len = Math.hypot(x, y);
  return len > 1e-9 ? [x / len, y / len] : [fx, fy];
}

// A rect of side w x h centred on (0, 0) plus extra attributes.
function rect(w, h, rx, extra) {
  return `<rect x="${r1(-w / 2)}" y="${r1(-h / 2)}" width="${r1(w)}" height="${r1(h)}" rx="${rx}" ${extra}/>`;
}

// A lit outline: a yellow rect on a black casing.
function litRect(w, h, rx) {
  return rect(w, h, rx, 'class="am-lit-casing"') + rect(w, h, rx, 'class="am-lit"');
}

function pointsAttr(poly) {
  return poly.map((p) => r1(p[0]) + "," + r1(p[1])).join(" ");
}

// Area-weighted centroid of a simple polygon; the vertex mean if it has no area.
function centroid(poly) {
  let a = 0;
  let x = 0;
  let y = 0;
  for (let i = 0; i < poly.length; i++) {
    const p = poly[i];
    const q = poly[(i + 1) % poly.length];
    const c = p[0] * q[1] - q[0] * p[1];
    a += c;
    x += (p[0] + q[0]) * c;
    y += (p[1] + q[1]) * c;
  }
  if (Math.abs(a) > 1e-9) return [x / (3 * a), y / (3 * a)];
  const n = Math.max(1, poly.length);
  return [0, 1].map((k) => poly.reduce((sum, p) => sum + p[k], 0) / n);
}

// The longest border segment of polygons a and b: an edge of either polygon whose two
// ends are both vertices of the other (exactly equal coordinates). This also finds a
// border where one side has an extra vertex the other lacks. Returns {p, q}, or
// {p: vertex} when they touch at one vertex only, or null when they share none.
function sharedSegment(a, b) {
  const key = (p) => p[0] + "," + p[1];
  const inA = new Set(a.map(key));
  const inB = new Set(b.map(key));
  let best = null;
  let bestLen = 0;
  let touch = null;
  const scan = (poly, other) => {
    for (let i = 0; i < poly.length; i++) {
      const p = poly[i];
      const q = poly[(i + 1) % poly.length];
      if (!other.has(key(p))) continue;
      if (!touch) touch = p;
      if (!other.has(key(q))) continue;
      const len = Math.hypot(q[0] - p[0], q[1] - p[1]);
      if (len > bestLen) {
        best = { p, q };
        bestLen = len;
      }
    }
  };
  scan(a, inB);
  scan(b, inA);
  return best || (touch ? { p: touch } : null);
}

// The type symbol of a visible block (the look of counters.js typeSymbol), centred on (0, cy).
function typeSymbol(type, c, cy) {
  const w = 12;
  const h = 7.8;
  const box = `<rect x="${-w}" y="${r1(cy - h)}" width="${2 * w}" height="${2 * h}" fill="none" stroke="${c}" stroke-width="1.6"/>`;
  const d = (x1, y1, x2, y2) => `M${x1} ${r1(cy + y1)}L${x2} ${r1(cy + y2)}`;
  if (type === "infantry") {
    return (
      box + `<path d="${d(-w, -h, w, h)}${d(-w, h, w, -h)}" stroke="${c}" stroke-width="1.4"/>`
    );
  }
  if (type === "cavalry")
    return box + `<path d="${d(-w, h, w, -h)}" stroke="${c}" stroke-width="1.5"/>`;
  if (type === "artillery") return box + `<circle cx="0" cy="${r1(cy)}" r="3.4" fill="${c}"/>`;
  return box;
}

export class AreaMap extends PanZoomMap {
  constructor(container, options) {
    super(container, { prefix: "am", farZoom: FAR_ZOOM, readZoom: READ_ZOOM });
    const opts = options || {};
    this.onTap = opts.onTap || null;
    // A locale's capacity in words, printed under its name.
    this.capacityText = opts.capacity || ((n) => "cap " + n);
    this._id = "am" + ++instances;
    this._map = null;
    this._sides = {};
    this._locales = new Map(); // id -> {data, poly, c: centroid}
    this._approaches = new Map(); // "A/B" -> geometry, see _approachGeometry
    this._pieces = [];
    this._lit = null;
    this._selected = new Set();
    this._arrows = [];
    this._marks = []; // places a result card concerns (mark())
    this._costAt = new Map(); // locale id -> where a cost is printed (see _drawLabels)

    // Only locales, approaches and pieces take pointer events; taps resolve by element.
    const tappable = { locales: 1, approaches: 1, pieces: 1 };
    const layers = [
      "locales",
      "roads",
      "marks",
      "lit",
      "labels",
      "approaches",
      "pieces",
      "arrows",
      "costs",
    ];
    for (const name of layers.concat(["cursor"])) {
      this._addLayer(name, "am-layer am-layer-" + name, !!tappable[name]);
    }
    this.layers.cursor.classList.add("pz-cursor");
    this._cursor = null; // the keyboard's cursor: a stop's key, see _stops
    this._pos = new Map(); // piece id -> where it is drawn (from _layout)
  }

  // ---- drawing -------------------------------------------------------------------

  setMap(map, sides) {
    this._size = null;
    this._dims(); // measure before the new drawing dirties layout
    this._map = map;
    this._sides = sides || {};
    this._pieces = []; // pieces belong to a map: a new map starts without them
    this._locales = new Map();
    let minX = 0;
    let minY = 0;
    let maxX = map.width || 0;
    let maxY = map.height || 0;
    for (const loc of map.locales || []) {
      const poly = loc.polygon || [];
      if (poly.length < 3) continue;
      for (const p of poly) {
        minX = Math.min(minX, p[0]);
        minY = Math.min(minY, p[1]);
        maxX = Math.max(maxX, p[0]);
        maxY = Math.max(maxY, p[1]);
      }
      this._locales.set(loc.id, { data: loc, poly, c: centroid(poly) });
    }
    this._bounds = { minX: minX - 10, minY: minY - 10, maxX: maxX + 10, maxY: maxY + 10 };
    this._approaches = new Map();
    for (const ap of map.approaches || []) {
      const g = this._approachGeometry(ap);
      if (g) this._approaches.set(ap.id || ap.from + "/" + ap.facing, g);
    }
    this._defs.innerHTML = this._patternDefs();
    this._arrows = [];
    this._cursor = null;
    this.layers.cursor.innerHTML = "";
    this._drawLocales();
    this._drawRoads(map.roads || []);
    this._drawApproaches();
    this._drawPieces();
    this._drawLit();
    this._drawMarks();
    this._drawArrows();
    this._svg.setAttribute("data-map-drawn", "1");
    this.fit();
  }

  _patternDefs() {
    let s = "";
    for (const id of Object.keys(TERRAIN)) {
      const t = TERRAIN[id];
      if (!t.art) continue;
      s +=
        `<pattern id="${this._id}-${id}" width="${t.w}" height="${t.h}" patternUnits="userSpaceOnUse">` +
        `<rect width="${t.w}" height="${t.h}" fill="${t.bg}"/>${t.art}</pattern>`;
    }
    return s;
  }

  _drawLocales() {
    const polys = [];
    this._locales.forEach((L, id) => {
      const d = L.data;
      const terrain = TERRAIN[d.terrain] ? d.terrain : "open";
      const t = TERRAIN[terrain];
      const fill = t.art ? `url(#${this._id}-${terrain})` : t.bg;
      polys.push(
        `<polygon class="am-locale am-t-${terrain}" data-locale="${esc(id)}" points="${pointsAttr(L.poly)}" fill="${fill}"><title>${esc(d.name || id)}</title></polygon>`,
      );
    });
    this.layers.locales.innerHTML = polys.join("");
  }

  // Names, capacities and objectives: above the blocks in reserve (layout.nameY), moved
  // up or down when blocks on an approach stand where the name would go.
  _drawLabels(layout) {
    const labels = [];
    const blocks = new Map(); // locale id -> centres of its blocks
    for (const p of this._pieces) {
      const at = layout.pos.get(p.id);
      if (!at) continue;
      if (!blocks.has(p.locale)) blocks.set(p.locale, []);
      blocks.get(p.locale).push(at);
    }
    const half = BLOCK / 2 + 2;
    this._locales.forEach((L, id) => {
      const d = L.data;
      const x = r1(L.c[0]);
      const y0 = layout.nameY.has(id) ? layout.nameY.get(id) : L.c[1];
      const hw = Math.max(20, String(d.name || id).length * 3.8);
      const below = d.capacity != null ? 13 : 3;
      const clear = (y) =>
        (blocks.get(id) || []).every(
          (b) =>
            Math.abs(b[0] - L.c[0]) > half + hw || b[1] + half < y - 11 || b[1] - half > y + below,
        );
      let y = y0;
      for (const dy of [0, -14, 14, -28, 28, -42, 42]) {
        if (clear(y0 + dy)) {
          y = y0 + dy;
          break;
        }
      }
      let s = `<text class="am-name" x="${x}" y="${r1(y)}">${esc(d.name || id)}</text>`;
      if (d.capacity != null) {
        const cap = esc(this.capacityText(d.capacity));
        s += `<text class="am-cap" x="${x}" y="${r1(y + 11)}">${cap}</text>`;
      }
      if (d.objective > 0) s += this._starSvg(id, L.c[0], y - 20, d.objective, d.holder);
      // A cost (light()) goes above the name, and above its star.
      this._costAt.set(id, y - (d.objective > 0 ? 40 : 22));
      labels.push(s);
    });
    this.layers.labels.innerHTML = labels.join("");
  }

  // Who holds each locale now ({locale id: side id}): objective stars take the holder's colour.
  setHolders(held) {
    this._locales.forEach((L, id) => {
      L.data = Object.assign({}, L.data, { holder: (held && held[id]) || null });
    });
    this._drawLabels(this._layout());
  }

  // An objective: a five-point star (the holder's colour; grey and dashed while nobody holds
  // it) and its points.
  _starSvg(id, x, y, points, holder) {
    const side = holder != null ? this._sides[holder] : null;
    const fill = side && side.color ? side.color : NOBODY;
    let d = "";
    for (let i = 0; i < 10; i++) {
      const rad = i % 2 ? 5.2 : 12;
      const a = -Math.PI / 2 + (i * Math.PI) / 5;
      d += (i ? "L" : "M") + r1(x - 8 + rad * Math.cos(a)) + " " + r1(y + 1 + rad * Math.sin(a));
    }
    const held = holder != null ? ` data-holder="${esc(holder)}"` : "";
    const cls = "am-objective" + (side ? " held" : "");
    return (
      `<g class="${cls}" data-objective="${esc(id)}"${held} data-points="${esc(points)}">` +
      `<path class="am-star" d="${d}Z"` +
      ` fill="${esc(fill)}"/><text class="am-points" x="${r1(x + 6)}" y="${r1(y + 6)}">` +
      `${esc(points)}</text></g>`
    );
  }

  _drawRoads(roads) {
    const out = [];
    for (const road of roads) {
      const pts = [];
      for (const id of road.locales || []) {
        const L = this._locales.get(id);
        if (L) pts.push(r1(L.c[0]) + "," + r1(L.c[1]));
      }
      if (pts.length < 2) continue;
      const p = pts.join(" ");
      if (road.kind === "primary") {
        // A double line: a dark casing with a pale core.
        out.push(
          `<polyline class="am-road-primary" points="${p}" stroke="#4a2c12" stroke-width="7"/>` +
            `<polyline points="${p}" stroke="#e9d6ac" stroke-width="2.6"/>`,
        );
      } else {
        out.push(
          `<polyline class="am-road-secondary" points="${p}" stroke="#7a5230" stroke-width="2.4" stroke-dasharray="7 4"/>`,
        );
      }
    }
    this.layers.roads.innerHTML = `<g fill="none" stroke-linecap="round" stroke-linejoin="round">${out.join("")}</g>`;
  }

  // Where approach A/B is drawn: centre (x, y), unit t along the border, unit u from the
  // centre toward A's centroid, and the rotation of t in degrees.
  _approachGeometry(ap) {
    const A = this._locales.get(ap.from);
    const B = this._locales.get(ap.facing);
    if (!A || !B) return null;
    const seg = sharedSegment(A.poly, B.poly);
    let x, y, t;
    if (seg && seg.q) {
      const mx = (seg.p[0] + seg.q[0]) / 2;
      const my = (seg.p[1] + seg.q[1]) / 2;
      t = unit(seg.q[0] - seg.p[0], seg.q[1] - seg.p[1], 1, 0);
      const toA = unit(A.c[0] - mx, A.c[1] - my, 0, 0);
      x = mx + toA[0] * INSET;
      y = my + toA[1] * INSET;
    } else {
      // No shared edge: a touching vertex, else 40% of the way from A's centroid to B's.
      const n = unit(B.c[0] - A.c[0], B.c[1] - A.c[1], 1, 0);
      t = [-n[1], n[0]];
      if (seg) {
        x = seg.p[0] - n[0] * INSET;
        y = seg.p[1] - n[1] * INSET;
      } else {
        x = A.c[0] + (B.c[0] - A.c[0]) * 0.4;
        y = A.c[1] + (B.c[1] - A.c[1]) * 0.4;
      }
    }
    // Keep the bar's text-bearing end to the right so rotated marks never read upside down.
    if (t[0] < 0 || (t[0] === 0 && t[1] < 0)) t = [-t[0], -t[1]];
    const u = unit(A.c[0] - x, A.c[1] - y, -t[1], t[0]);
    const angle = (Math.atan2(t[1], t[0]) * 180) / Math.PI;
    return { data: ap, x, y, t, u, angle, len: BAR_LEN[ap.width] || BAR_LEN.narrow };
  }

  // An approach in words: "A → B" by the locales' names.
  _approachName(ap) {
    const name = (id) => {
      const L = this._locales.get(id);
      return (L && L.data.name) || id;
    };
    return name(ap.from) + " → " + name(ap.facing);
  }

  // The invisible hit area of approach g: at least HIT units each way (44 CSS px at the
  // default zoom), from the border (INSET behind the bar) into A, along the border.
  _approachHit(g) {
    const w = Math.max(g.len + 18, HIT);
    // Which way A lies in the bar's turned frame: +y is (-t[1], t[0]).
    const towardA = g.u[0] * -g.t[1] + g.u[1] * g.t[0] >= 0 ? 1 : -1;
    const y = towardA > 0 ? -INSET : INSET - HIT;
    return `<rect class="am-approach-hit" x="${r1(-w / 2)}" y="${r1(y)}" width="${r1(w)}" height="${HIT}" fill="#000" fill-opacity="0"/>`;
  }

  _drawApproaches() {
    const out = [];
    this._approaches.forEach((g, id) => {
      const ap = g.data;
      const flags = ap.flags || [];
      const at = `transform="translate(${r1(g.x)} ${r1(g.y)}) rotate(${r1(g.angle)})"`;
      const attrs = `data-approach="${esc(id)}" ${at}`;
      if (flags.indexOf("impassable") >= 0) {
        // Not tappable: a tap here falls through to the locale.
        const x = "M-7 -7L7 7M-7 7L7 -7";
        out.push(
          `<g class="am-approach am-impassable" ${attrs} pointer-events="none">` +
            `<path d="${x}" stroke="#ffffff" stroke-width="6.5" stroke-linecap="round"/>` +
            `<path d="${x}" stroke="#d0151b" stroke-width="3.5" stroke-linecap="round"/></g>`,
        );
        return;
      }
      const h = g.len / 2;
      let s =
        `<g class="am-approach am-${ap.width === "wide" ? "wide" : "narrow"}" ${attrs}>` +
        `<title>${esc(this._approachName(ap))}</title>` +
        // A finger-sized invisible hit area round the bar, HIT across at the least: from
        // the border into its own locale, so it never takes a tap meant for the other side.
        this._approachHit(g) +
        rect(g.len, BAR_THICK, BAR_THICK / 2, 'class="am-bar"');
      if (ap.effect > 0) {
        // Counter-rotated so the number stays upright.
        s +=
          `<g transform="translate(${h + 8} 0) rotate(${r1(-g.angle)})">` +
          `<circle class="am-effect-disc" r="6.5"/><text class="am-effect" y="3.2">${esc(ap.effect)}</text></g>`;
      }
      if (flags.indexOf("cavalry_obstructed") >= 0) {
        s += `<path class="am-cav-obstructed" d="M${-h - 17} -3l2 6 2-6 2 6 2-6 2 6"/>`;
      }
      out.push(s + "</g>");
    });
    this.layers.approaches.innerHTML = out.join("");
  }

  // The same map in other words (another language): the locales' and the sides' names
  // (and the capacities) drawn again; the view, the pieces and the marks stay.
  rename(map, sides) {
    if (!this._map) return;
    this._map = map;
    this._sides = sides || {};
    for (const loc of map.locales || []) {
      const L = this._locales.get(loc.id);
      if (L) L.data = Object.assign({}, L.data, { name: loc.name });
    }
    this._drawLocales();
    this._drawPieces();
  }

  // Redraw the blocks: [{id, side, locale, approach, hidden, type, steps, name, revealed}].
  setPieces(pieces) {
    this._pieces = (pieces || []).filter((p) => p && this._locales.has(p.locale));
    this._drawPieces();
    this._drawLit();
    this._piecesDrawn();
    this._cursorRefresh();
  }

  // ---- framing (PanZoomMap's hooks) --------------------------------------------------

  _pieceIds() {
    return this._pieces.filter((p) => this._pos.has(p.id)).map((p) => String(p.id));
  }

  _pieceBox(id) {
    const at = this._pos.get(id);
    if (!at) return null;
    const half = PITCH / 2 + 2;
    return { minX: at[0] - half, maxX: at[0] + half, minY: at[1] - half, maxY: at[1] + half };
  }

  // A locale's polygon's box; an approach's marker with its blocks' row either side.
  _placeBox(place) {
    const g = this._approaches.get(place);
    if (g) {
      const r = PITCH;
      return { minX: g.x - r, maxX: g.x + r, minY: g.y - r, maxY: g.y + r };
    }
    const L = this._locales.get(place);
    if (!L) return null;
    const xs = L.poly.map((p) => p[0]);
    const ys = L.poly.map((p) => p[1]);
    return {
      minX: Math.min(...xs),
      maxX: Math.max(...xs),
      minY: Math.min(...ys),
      maxY: Math.max(...ys),
    };
  }

  // Where the blocks go: {pos: piece id -> [x, y], group: piece id -> its place ("A", or
  // "A/B" on an approach), nameY: locale id -> the baseline of its name, set above its
  // reserve}.
  _layout() {
    const groups = new Map(); // "A" (reserve) or "A/B" (approach) -> pieces, in order
    for (const p of this._pieces) {
      const ak = p.locale + "/" + p.approach;
      const key = p.approach && this._approaches.has(ak) ? ak : p.locale;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(p);
    }
    const pos = new Map();
    const group = new Map();
    const nameY = new Map();
    const rowsIn = new Map(); // locale id -> [{x, y, u}] of its blocks on approaches
    const reserves = [];
    groups.forEach((list, key) => {
      list.forEach((p) => group.set(p.id, key));
      const g = this._approaches.get(key);
      if (!g) {
        reserves.push(list);
        return;
      }
      // A row along the marker, pushed toward A's centroid clear of the marker.
      const half = (BLOCK / 2) * (Math.abs(g.u[0]) + Math.abs(g.u[1]));
      const off = BAR_THICK / 2 + 3 + half;
      const locale = list[0].locale;
      if (!rowsIn.has(locale)) rowsIn.set(locale, []);
      list.forEach((p, i) => {
        const s = (i - (list.length - 1) / 2) * PITCH;
        const at = [g.x + g.u[0] * off + g.t[0] * s, g.y + g.u[1] * off + g.t[1] * s];
        pos.set(p.id, at);
        rowsIn.get(locale).push({ x: at[0], y: at[1], u: g.u });
      });
    });
    for (const list of reserves) {
      // Reserve (also a piece on an approach the map lacks): a grid round the centroid,
      // a little below it, with the locale's name above; moved away from the border
      // while it runs into blocks on an approach.
      const L = this._locales.get(list[0].locale);
      if (!L) continue; // a piece of another map (the map changed under it): not drawn
      const rows = Math.ceil(list.length / PER_ROW);
      const top = L.c[1] + 14 - (rows * PITCH) / 2 + PITCH / 2;
      const cells = list.map((p, i) => {
        const row = Math.floor(i / PER_ROW);
        const inRow = Math.min(PER_ROW, list.length - row * PER_ROW);
        const col = i % PER_ROW;
        return [L.c[0] + (col - (inRow - 1) / 2) * PITCH, top + row * PITCH];
      });
      const onRows = rowsIn.get(list[0].locale) || [];
      let sx = 0;
      let sy = 0;
      for (let tries = 0; tries < 12; tries++) {
        const hit = onRows.find((r) =>
          cells.some(
            (c) => Math.abs(c[0] + sx - r.x) < PITCH - 2 && Math.abs(c[1] + sy - r.y) < PITCH - 2,
          ),
        );
        if (!hit) break;
        sx += hit.u[0] * 6;
        sy += hit.u[1] * 6;
      }
      nameY.set(list[0].locale, top + sy - PITCH / 2 - 16);
      list.forEach((p, i) => pos.set(p.id, [cells[i][0] + sx, cells[i][1] + sy]));
    }
    return { pos, group, nameY };
  }

  _selectedSet() {
    const sel = new Set(this._selected);
    const l = this._lit;
    if (l && l.selected != null) {
      for (const id of Array.isArray(l.selected) ? l.selected : [l.selected]) sel.add(String(id));
    }
    return sel;
  }

  _drawPieces() {
    const layout = this._layout();
    this._groupOf = layout.group;
    this._pos = layout.pos;
    const lit = new Set(((this._lit && this._lit.units) || []).map(String));
    const sel = this._selectedSet();
    const plain = [];
    const marked = []; // lit or selected blocks go on top
    for (const p of this._pieces) {
      const at = layout.pos.get(p.id);
      if (!at) continue;
      const isLit = lit.has(String(p.id));
      const isSel = sel.has(String(p.id));
      (isLit || isSel ? marked : plain).push(this._blockSvg(p, at[0], at[1], isLit, isSel));
    }
    this.layers.pieces.innerHTML = plain.join("") + marked.join("");
    this._drawLabels(layout);
  }

  // Marker badges in a row inside the block's top edge, from its right corner leftward.
  _badgesSvg(markers) {
    let x = BLOCK / 2 - 2;
    const y = -BLOCK / 2 + 2;
    let s = `<g class="am-badges" data-marks="${esc(markers.map((m) => m.id).join(","))}">`;
    for (const m of markers) {
      const sign = String(m.sign);
      const w = Math.max(BADGE_H, sign.length * BADGE_FS * 0.62 + 6);
      x -= w;
      s +=
        `<g class="am-badge" data-marker="${esc(m.id)}">` +
        (m.title ? `<title>${esc(m.title)}</title>` : "") +
        `<rect x="${r1(x)}" y="${y}" width="${r1(w)}" height="${BADGE_H}" rx="3.5"/>` +
        `<text x="${r1(x + w / 2)}" y="${r1(y + BADGE_H / 2 + BADGE_FS * 0.36)}" font-size="${BADGE_FS}">${esc(sign)}</text></g>`;
      x -= 1.5;
    }
    return s + "</g>";
  }

  _blockSvg(p, x, y, isLit, isSel) {
    const side = this._sides[p.side] || {};
    const fill = esc(side.color || "#9a9a9a");
    const ink = esc(side.text || "#111111");
    const cls = "am-block" + (isSel ? " am-selected" : "") + (p.revealed ? " am-revealed" : "");
    const title = p.hidden
      ? side.name || p.side
      : (p.name || p.type || p.id) + (side.name ? " (" + side.name + ")" : "");
    const markers = Array.isArray(p.markers) ? p.markers.filter((m) => m && m.sign != null) : [];
    let s =
      `<g class="${cls}" data-piece="${esc(p.id)}" data-side="${esc(p.side)}" data-hidden="${p.hidden ? "true" : "false"}" transform="translate(${r1(x)} ${r1(y)})">` +
      `<title>${esc(title)}</title>` +
      // A finger-sized hit area: the block and the gap round it.
      rect(PITCH, PITCH, 0, 'fill="#000" fill-opacity="0"');
    if (isLit) s += litRect(BLOCK + 9, BLOCK + 9, 7);
    s +=
      rect(BLOCK, BLOCK, 4.5, 'transform="translate(2 2)" fill="#000" fill-opacity="0.35"') +
      rect(BLOCK, BLOCK, 4.5, `class="am-block-body" fill="${fill}"`);
    // With badges along the top, the face sits lower.
    const dy = markers.length ? 4 : 0;
    if (p.hidden) {
      // The back of a block: wood grain and a bevel, nothing else.
      s +=
        `<path class="am-grain" d="M-15 -8q7.5 -3 15 0t15 0M-15 1q7.5 -3 15 0t15 0M-15 10q7.5 -3 15 0t15 0"/>` +
        rect(BLOCK - 7, BLOCK - 7, 3, 'class="am-bevel"');
    } else {
      s += typeSymbol(p.type, ink, -4 + dy);
      const steps = p.steps | 0;
      if (steps > 0 && steps <= 4) {
        // Steps as pips along the bottom edge.
        for (let i = 0; i < steps; i++) {
          s += `<circle cx="${r1((i - (steps - 1) / 2) * 7)}" cy="${12 + dy / 2}" r="2.5" fill="${ink}"/>`;
        }
      } else if (steps > 4) {
        s += `<text class="am-steps" x="17" y="18" fill="${ink}">${steps}</text>`;
      }
    }
    if (p.revealed) s += rect(BLOCK + 3, BLOCK + 3, 5.5, 'class="am-reveal-ring"');
    if (isSel) {
      s += rect(BLOCK + 4, BLOCK + 4, 6, 'class="am-sel-casing"');
      s += rect(BLOCK + 4, BLOCK + 4, 6, 'class="am-sel-ring"');
    }
    if (markers.length) s += this._badgesSvg(markers);
    return s + "</g>";
  }

  // ---- state shown on the map ---------------------------------------------------

  // What a tap may act on: {places: [locale ids and approaches "a/b"], units: [block ids],
  // selected: block id (or ids) | null, costs: {place: text}}; null clears. The older form
  // {locales, approaches, pieces} is read too.
  light(spec) {
    if (!spec) {
      this._lit = null;
    } else {
      const places = Array.isArray(spec.places)
        ? spec.places.map(String)
        : (spec.locales || []).concat(spec.approaches || []).map(String);
      this._lit = {
        locales: places.filter((p) => p.indexOf("/") < 0),
        approaches: places.filter((p) => p.indexOf("/") >= 0),
        units: (Array.isArray(spec.units) ? spec.units : spec.pieces || []).map(String),
        selected: spec.selected == null ? null : spec.selected,
        costs: spec.costs || {},
      };
    }
    this._drawPieces();
    this._drawLit();
    this._cursorRefresh();
  }

  // Locales and approaches are lit in their own layer below the markers; pieces in place;
  // costs in a top layer.
  _drawLit() {
    const m = this._lit;
    let s = "";
    let costs = "";
    if (m) {
      for (const id of m.locales) {
        const L = this._locales.get(id);
        if (!L) continue;
        const pts = pointsAttr(L.poly);
        s +=
          `<polygon class="am-lit-casing" data-lit="${esc(id)}" points="${pts}"/>` +
          `<polygon class="am-lit am-lit-locale" points="${pts}"/>`;
        const cy = this._costAt.has(id) ? this._costAt.get(id) : L.c[1] - 22;
        costs += this._costSvg(id, m.costs[id], L.c[0], cy);
      }
      for (const id of m.approaches) {
        const g = this._approaches.get(id);
        if (!g) continue;
        s +=
          `<g data-lit="${esc(id)}" transform="translate(${r1(g.x)} ${r1(g.y)}) rotate(${r1(g.angle)})">` +
          litRect(g.len + 12, BAR_THICK + 12, 9) +
          "</g>";
        costs += this._costSvg(id, m.costs[id], g.x - g.u[0] * 16, g.y - g.u[1] * 16);
      }
    }
    this.layers.lit.innerHTML = s;
    this.layers.costs.innerHTML = costs;
  }

  _costSvg(place, text, x, y) {
    if (text == null || text === "") return "";
    const t = String(text);
    const w = Math.max(18, t.length * 7.6 + 8);
    return (
      `<g class="am-cost" data-cost="${esc(place)}"><rect x="${r1(x - w / 2)}" y="${r1(y - 9)}" width="${r1(w)}" height="18" rx="9"/>` +
      `<text x="${r1(x)}" y="${r1(y + 4.5)}">${esc(t)}</text></g>`
    );
  }

  // The places a result card concerns (locale ids and approaches "a/b"), shaded under what
  // is lit; null clears.
  mark(places) {
    this._marks = (places || []).map(String);
    this._drawMarks();
  }

  _drawMarks() {
    let s = "";
    for (const id of this._marks || []) {
      const L = this._locales.get(id);
      if (L) {
        s += `<polygon class="am-mark" data-mark="${esc(id)}" points="${pointsAttr(L.poly)}"/>`;
        continue;
      }
      const g = this._approaches.get(id);
      if (!g) continue;
      s +=
        `<g data-mark="${esc(id)}" transform="translate(${r1(g.x)} ${r1(g.y)}) rotate(${r1(g.angle)})">` +
        rect(g.len + 12, BAR_THICK + 12, 9, 'class="am-mark"') +
        "</g>";
    }
    this.layers.marks.innerHTML = s;
  }

  // Outline the selected pieces; null clears. Survives setPieces.
  select(pieceIds) {
    this._selected = new Set((pieceIds || []).map(String));
    this._drawPieces();
    this._cursorRefresh();
  }

  // Attacks in progress: [{from, to, kind}], each place a locale id or an approach "a/b";
  // null clears.
  setArrows(arrows) {
    this._arrows = (arrows || []).filter((a) => a && a.from != null && a.to != null);
    this._drawArrows();
  }

  // The ends of an arrow. From an approach "a/b": its marker, on a's side; from a locale:
  // its centroid. To an approach: its marker; to a locale: halfway from the border it
  // shares with the source into it (its centroid when they share none).
  _arrowEnds(a) {
    const from = String(a.from);
    const to = String(a.to);
    let p = null;
    let src = null;
    if (from.indexOf("/") >= 0) {
      const g = this._approaches.get(from);
      const parts = from.split("/");
      src = parts[0];
      if (g) p = [g.x, g.y];
      else if (this._locales.has(src)) p = this._locales.get(src).c;
    } else if (this._locales.has(from)) {
      src = from;
      p = this._locales.get(from).c;
    }
    if (!p) return null;
    let q = null;
    if (to.indexOf("/") >= 0) {
      const g = this._approaches.get(to);
      if (g) q = [g.x, g.y];
      else if (this._locales.has(to.split("/")[0])) q = this._locales.get(to.split("/")[0]).c;
    } else if (this._locales.has(to)) {
      const T = this._locales.get(to);
      q = T.c;
      const S = src ? this._locales.get(src) : null;
      const seg = S ? sharedSegment(S.poly, T.poly) : null;
      if (seg) {
        const m = seg.q ? [(seg.p[0] + seg.q[0]) / 2, (seg.p[1] + seg.q[1]) / 2] : seg.p;
        q = [m[0] + (T.c[0] - m[0]) * 0.5, m[1] + (T.c[1] - m[1]) * 0.5];
      }
    }
    return q ? [p, q] : null;
  }

  _drawArrows() {
    const out = [];
    this._arrows.forEach((a, i) => {
      const ends = this._arrowEnds(a);
      if (!ends) return;
      const p = ends[0];
      const q = ends[1];
      const len = Math.hypot(q[0] - p[0], q[1] - p[1]);
      if (len < 1) return;
      const ux = (q[0] - p[0]) / len;
      const uy = (q[1] - p[1]) / len;
      const sh = arrowShift(this._arrows, i);
      const a0 = Math.min(10, len * 0.2);
      out.push(
        arrowSvg(
          p[0] - uy * sh + ux * a0,
          p[1] + ux * sh + uy * a0,
          q[0] - uy * sh,
          q[1] + ux * sh,
          a,
        ),
      );
    });
    this.layers.arrows.innerHTML = out.join("");
  }

  // Centre the view on a place (locale id or approach "a/b"); opts.zoom sets the zoom.
  centerOn(place, opts) {
    const id = String(place);
    const g = this._approaches.get(id);
    const L = this._locales.get(id);
    const p = g ? [g.x, g.y] : L ? L.c : null;
    if (!p) return;
    if (opts && typeof opts.zoom === "number") this._k = opts.zoom;
    this.centerOnPoints([p]);
  }

  // Centre the view on the middle of several places (the blocks that act next), at this zoom.
  centerOnAll(places) {
    this.centerOnPoints(
      (places || [])
        .map((id) => {
          const g = this._approaches.get(String(id));
          const L = this._locales.get(String(id));
          return g ? [g.x, g.y] : L ? L.c : null;
        })
        .filter(Boolean),
    );
  }

  // ---- the keyboard's cursor (PanZoomMap's hooks) ------------------------------------

  // Where the cursor may stand: every locale (at its centroid), every approach a tap may
  // take (at its marker) and every block (where it is drawn); each with the target a tap
  // there reports. Keys: "locale:<id>", "approach:<a/b>", "piece:<id>".
  _stops() {
    const out = [];
    this._locales.forEach((L, id) => {
      out.push({ key: "locale:" + id, x: L.c[0], y: L.c[1], target: this._localeTarget(id) });
    });
    this._approaches.forEach((g, id) => {
      if ((g.data.flags || []).indexOf("impassable") >= 0) return;
      out.push({ key: "approach:" + id, x: g.x, y: g.y, target: this._approachTarget(g) });
    });
    for (const p of this._pieces) {
      const at = this._pos.get(p.id);
      if (!at) continue;
      out.push({ key: "piece:" + p.id, x: at[0], y: at[1], target: this._pieceTarget(p) });
    }
    return out;
  }

  _stop(key) {
    return key ? this._stops().find((s) => s.key === key) || null : null;
  }

  // The stop under the cursor: {key, x, y, target}, or null (its block or place is gone).
  get cursor() {
    const s = this._stop(this._cursor);
    return s ? s.target : null;
  }

  // Put the cursor on a place (locale id or approach "a/b") or a block id.
  setCursor(id) {
    const key = ["piece:", "approach:", "locale:"].map((k) => k + id).find((k) => this._stop(k));
    if (!key) return;
    this._cursor = key;
    this._kbAxis = null;
    this._cursorShown(true);
  }

  _cursorPoint() {
    const s = this._stop(this._cursor);
    return s ? { x: s.x, y: s.y } : null;
  }

  _selectedKey() {
    const sel = Array.from(this._selectedSet());
    return sel.length ? "piece:" + sel[0] : null;
  }

  // The selected block, else the locale whose centre is nearest the middle of the view.
  _cursorStart() {
    const sel = this._selectedKey();
    let key = sel && this._stop(sel) ? sel : null;
    if (!key) {
      let best = Infinity;
      this._locales.forEach((L, id) => {
        const d = Math.hypot(L.c[0] - this._cx, L.c[1] - this._cy);
        if (d < best) {
          best = d;
          key = "locale:" + id;
        }
      });
    }
    this._cursor = key;
    this._kbAxis = null;
  }

  _cursorSelection() {
    return this._selectedKey();
  }

  // To the nearest stop within 60 degrees of the arrow: the distance along the arrow plus
  // twice the distance across it, so the straightest near stop wins.
  _cursorMove(step) {
    const from = this._cursorPoint();
    const next = this._toward(
      from,
      step,
      this._stops(),
      60,
      (d, cos) => d * cos + 2 * d * Math.sqrt(Math.max(0, 1 - cos * cos)),
    );
    if (next) this._cursor = next.key;
  }

  // What a tap may act on: the lit blocks, locales and approaches, in reading order.
  _litStops() {
    const m = this._lit;
    if (!m) return [];
    const keys = new Set(
      m.units
        .map((id) => "piece:" + id)
        .concat(m.locales.map((id) => "locale:" + id))
        .concat(m.approaches.map((id) => "approach:" + id)),
    );
    return this._stops()
      .filter((s) => keys.has(s.key))
      .sort((p, q) => p.y - q.y || p.x - q.x);
  }

  _cursorJump(dir) {
    const stops = this._litStops();
    if (!stops.length) return;
    const here = this._cursorPoint();
    let i = stops.findIndex((s) => s.key === this._cursor);
    if (i < 0 && here) {
      i = stops.findIndex(
        (s) => s.y > here.y + 1e-6 || (Math.abs(s.y - here.y) <= 1e-6 && s.x > here.x),
      );
      if (i < 0) i = stops.length;
      i = dir > 0 ? i - 1 : i;
    }
    this._cursor = stops[(((i + dir) % stops.length) + stops.length) % stops.length].key;
  }

  // Enter or Space: what a tap on the block, approach or locale under the cursor does.
  _cursorTap() {
    const s = this._stop(this._cursor);
    if (s && this.onTap) this.onTap(s.target);
  }

  _drawCursor() {
    const s = this._stop(this._cursor);
    let shape = "";
    if (s && s.target.kind === "locale") {
      const pts = pointsAttr(this._locales.get(s.target.id).poly);
      shape =
        `<polygon class="am-cursor-casing" points="${pts}"/>` +
        `<polygon class="am-cursor-ring" points="${pts}"/>` +
        `<polygon class="am-cursor-dash" points="${pts}"/>`;
    } else if (s) {
      const g = s.target.kind === "approach" ? this._approaches.get(s.target.id) : null;
      const w = g ? g.len + 20 : BLOCK + 14;
      const h = g ? BAR_THICK + 20 : BLOCK + 14;
      const turn = g ? ` rotate(${r1(g.angle)})` : "";
      shape =
        `<g transform="translate(${r1(s.x)} ${r1(s.y)})${turn}">` +
        rect(w, h, 8, 'class="am-cursor-casing"') +
        rect(w, h, 8, 'class="am-cursor-ring"') +
        rect(w, h, 8, 'class="am-cursor-dash"') +
        "</g>";
    }
    this.layers.cursor.innerHTML = s
      ? `<g data-cursor="${esc(s.key.slice(s.key.indexOf(":") + 1))}" data-cursor-kind="${s.target.kind}">${shape}</g>`
      : "";
  }

  // What the live region says: the target (as a tap reports it) with the locale's or the
  // block's data, whether a tap there acts, and whether the block is selected.
  _cursorWhat() {
    const s = this._stop(this._cursor);
    if (!s) return null;
    const t = s.target;
    const m = this._lit;
    const out = Object.assign({}, t);
    if (t.kind === "locale") {
      out.locale = this._locales.get(t.id).data;
      out.pieces = this._pieces.filter((p) => p.locale === t.id && !p.approach);
      out.lit = Boolean(m && m.locales.indexOf(String(t.id)) >= 0);
    } else if (t.kind === "approach") {
      const g = this._approaches.get(t.id);
      out.approach = g.data;
      out.name = this._approachName(g.data);
      out.pieces = this._pieces.filter((p) => p.locale + "/" + p.approach === t.id);
      out.lit = Boolean(m && m.approaches.indexOf(String(t.id)) >= 0);
    } else {
      out.piece = this._pieces.find((p) => String(p.id) === String(t.id));
      const L = this._locales.get(t.locale);
      out.localeName = L ? L.data.name : t.locale;
      const g = t.place !== t.locale ? this._approaches.get(t.place) : null;
      out.approachName = g ? this._approachName(g.data) : null;
      out.lit = Boolean(m && m.units.indexOf(String(t.id)) >= 0);
      out.selected = this._selectedSet().has(String(t.id));
    }
    return out;
  }

  _cursorMargin() {
    return PITCH * 1.2;
  }

  // ---- taps: hooks of PanZoomMap ---------------------------------------------------

  // What a tap on element el reports: a piece, else an approach, else a locale, else null.
  _tapTarget(el) {
    if (!el || !el.closest) return null;
    const piece = el.closest("[data-piece]");
    if (piece) {
      const id = piece.getAttribute("data-piece");
      const p = this._pieces.find((q) => String(q.id) === id);
      if (p) return this._pieceTarget(p);
    }
    const ap = el.closest("[data-approach]");
    if (ap) {
      const g = this._approaches.get(ap.getAttribute("data-approach"));
      if (g) return this._approachTarget(g);
    }
    const loc = el.closest("[data-locale]");
    return loc ? this._localeTarget(loc.getAttribute("data-locale")) : null;
  }

  // The targets a tap reports (the class comment): a block, an approach, a locale.
  _pieceTarget(p) {
    const place = (this._groupOf && this._groupOf.get(p.id)) || p.locale;
    return {
      kind: "piece",
      id: p.id,
      locale: p.locale,
      approach: p.approach || null,
      place: place,
      stack: this._overlapping(p),
    };
  }

  // The blocks drawn on top of one another where p is (p among them), in drawing order: a
  // tap there could mean any of them. Blocks side by side in a locale are not a stack.
  _overlapping(p) {
    const pos = this._pos;
    const at = pos && pos.get(p.id);
    if (!at) return [p.id];
    return this._pieces
      .filter((q) => {
        const b = pos.get(q.id);
        return b && Math.abs(b[0] - at[0]) < BLOCK && Math.abs(b[1] - at[1]) < BLOCK;
      })
      .map((q) => q.id);
  }

  _approachTarget(g) {
    const d = g.data;
    return { kind: "approach", id: d.from + "/" + d.facing, locale: d.from, facing: d.facing };
  }

  _localeTarget(id) {
    return { kind: "locale", id: id };
  }

  _reportTap(g) {
    if (g.target && this.onTap) this.onTap(g.target);
  }

  destroy() {
    super.destroy();
    this.onTap = null;
  }
}
