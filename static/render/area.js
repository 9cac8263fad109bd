// Area map renderer: draws an AREA map (locales, approaches, roads, blocks) as SVG and
// reports taps. It only draws and reports; every rule lives in the Python core.
// Plain ES2020 so it parses on older iPad Safari. Pan, zoom and taps: PanZoomMap.

import { PanZoomMap } from "./panzoom.js";
import { r1, esc } from "./svg.js";

const FAR_ZOOM = 0.5; // below this the small texts (capacity) are hidden
const BLOCK = 24; // block side in map units
const PITCH = BLOCK + 3; // block spacing in rows and grids
const PER_ROW = 4; // reserve blocks per row
const INSET = 14; // approach marker centre: this far from the border toward the locale
const BAR_THICK = 8;
const BAR_LEN = { narrow: 26, wide: 52 };

// Locale fills by terrain: bg tint and an optional texture tile of w x h units.
const TERRAIN = {
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

// The type symbol of a visible block (the look of hex.js typeSymbol), centred on (0, cy).
function typeSymbol(type, c, cy) {
  const w = 8;
  const h = 5.2;
  const box = `<rect x="${-w}" y="${r1(cy - h)}" width="${2 * w}" height="${2 * h}" fill="none" stroke="${c}" stroke-width="1.3"/>`;
  const d = (x1, y1, x2, y2) => `M${x1} ${r1(cy + y1)}L${x2} ${r1(cy + y2)}`;
  if (type === "infantry") {
    return (
      box + `<path d="${d(-w, -h, w, h)}${d(-w, h, w, -h)}" stroke="${c}" stroke-width="1.1"/>`
    );
  }
  if (type === "cavalry")
    return box + `<path d="${d(-w, h, w, -h)}" stroke="${c}" stroke-width="1.2"/>`;
  if (type === "artillery") return box + `<circle cx="0" cy="${r1(cy)}" r="2.3" fill="${c}"/>`;
  return box;
}

export class AreaMap extends PanZoomMap {
  constructor(container, options) {
    super(container, { prefix: "am", farZoom: FAR_ZOOM });
    const opts = options || {};
    this.onTap = opts.onTap || null;
    this._id = "am" + ++instances;
    this._map = null;
    this._sides = {};
    this._locales = new Map(); // id -> {data, poly, c: centroid}
    this._approaches = new Map(); // "A/B" -> geometry, see _approachGeometry
    this._pieces = [];
    this._lit = null;
    this._selected = new Set();

    // Only locales, approaches and pieces take pointer events; taps resolve by element.
    const tappable = { locales: 1, approaches: 1, pieces: 1 };
    for (const name of ["locales", "roads", "lit", "labels", "approaches", "pieces"]) {
      this._addLayer(name, "am-layer am-layer-" + name, !!tappable[name]);
    }
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
    this._drawLocales();
    this._drawRoads(map.roads || []);
    this._drawApproaches();
    this._drawPieces();
    this._drawLit();
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
    const labels = [];
    this._locales.forEach((L, id) => {
      const d = L.data;
      const terrain = TERRAIN[d.terrain] ? d.terrain : "open";
      const t = TERRAIN[terrain];
      const fill = t.art ? `url(#${this._id}-${terrain})` : t.bg;
      polys.push(
        `<polygon class="am-locale am-t-${terrain}" data-locale="${esc(id)}" points="${pointsAttr(L.poly)}" fill="${fill}"><title>${esc(d.name || id)}</title></polygon>`,
      );
      const x = r1(L.c[0]);
      const y = r1(L.c[1]);
      let s = `<text class="am-name" x="${x}" y="${y}">${esc(d.name || id)}</text>`;
      if (d.capacity != null) {
        s += `<text class="am-cap" x="${x}" y="${r1(L.c[1] + 11)}">cap ${esc(d.capacity)}</text>`;
      }
      if (d.objective > 0) s += this._starSvg(L.c[0], L.c[1] - 22, d.objective, d.holder);
      labels.push(s);
    });
    this.layers.locales.innerHTML = polys.join("");
    this.layers.labels.innerHTML = labels.join("");
  }

  // Who holds each locale now ({locale id: side id}): objective stars take the holder's colour.
  setHolders(held) {
    this._locales.forEach((L, id) => {
      L.data = Object.assign({}, L.data, { holder: (held && held[id]) || null });
    });
    this._drawLocales();
  }

  // An objective: a five-point star (the holder's colour, else white) and its points.
  _starSvg(x, y, points, holder) {
    const side = holder != null ? this._sides[holder] : null;
    const fill = side && side.color ? side.color : "#ffffff";
    let d = "";
    for (let i = 0; i < 10; i++) {
      const rad = i % 2 ? 3.9 : 9;
      const a = -Math.PI / 2 + (i * Math.PI) / 5;
      d += (i ? "L" : "M") + r1(x - 6 + rad * Math.cos(a)) + " " + r1(y + rad * Math.sin(a));
    }
    const held = holder != null ? ` data-holder="${esc(holder)}"` : "";
    return (
      `<g class="am-objective"${held}><path class="am-star" d="${d}Z" fill="${esc(fill)}"/>` +
      `<text class="am-points" x="${r1(x + 5)}" y="${r1(y + 4)}">${esc(points)}</text></g>`
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
        `<title>${esc(id)}</title>` +
        // A finger-sized invisible hit area round the bar.
        rect(g.len + 16, 22, 0, 'fill="#000" fill-opacity="0"') +
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

  // Redraw the blocks: [{id, side, locale, approach, hidden, type, steps, name, revealed}].
  setPieces(pieces) {
    this._pieces = (pieces || []).filter((p) => p && this._locales.has(p.locale));
    this._drawPieces();
    this._drawLit();
  }

  // Map positions of the blocks, by piece id.
  _layout() {
    const groups = new Map(); // "A" (reserve) or "A/B" (approach) -> pieces, in order
    for (const p of this._pieces) {
      const ak = p.locale + "/" + p.approach;
      const key = p.approach && this._approaches.has(ak) ? ak : p.locale;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(p);
    }
    const pos = new Map();
    groups.forEach((list, key) => {
      const g = this._approaches.get(key);
      if (g) {
        // A row along the marker, pushed toward A's centroid clear of the marker.
        const half = (BLOCK / 2) * (Math.abs(g.u[0]) + Math.abs(g.u[1]));
        const off = BAR_THICK / 2 + 3 + half;
        list.forEach((p, i) => {
          const s = (i - (list.length - 1) / 2) * PITCH;
          pos.set(p.id, [g.x + g.u[0] * off + g.t[0] * s, g.y + g.u[1] * off + g.t[1] * s]);
        });
        return;
      }
      // Reserve (also a piece on an approach the map lacks): a grid below the name.
      const L = this._locales.get(list[0].locale);
      if (!L) return; // a piece of another map (the map changed under it): not drawn
      const top = L.c[1] + 16 + BLOCK / 2;
      list.forEach((p, i) => {
        const row = Math.floor(i / PER_ROW);
        const inRow = Math.min(PER_ROW, list.length - row * PER_ROW);
        const col = i % PER_ROW;
        pos.set(p.id, [L.c[0] + (col - (inRow - 1) / 2) * PITCH, top + row * PITCH]);
      });
    });
    return pos;
  }

  _drawPieces() {
    const pos = this._layout();
    const lit = new Set((this._lit && this._lit.pieces) || []);
    const plain = [];
    const marked = []; // lit or selected blocks go on top
    for (const p of this._pieces) {
      const at = pos.get(p.id);
      if (!at) continue;
      const isLit = lit.has(p.id);
      const isSel = this._selected.has(p.id);
      (isLit || isSel ? marked : plain).push(this._blockSvg(p, at[0], at[1], isLit, isSel));
    }
    this.layers.pieces.innerHTML = plain.join("") + marked.join("");
  }

  _blockSvg(p, x, y, isLit, isSel) {
    const side = this._sides[p.side] || {};
    const fill = esc(side.color || "#9a9a9a");
    const ink = esc(side.text || "#111111");
    const cls = "am-block" + (isSel ? " am-selected" : "") + (p.revealed ? " am-revealed" : "");
    const title = p.hidden
      ? side.name || p.side
      : (p.name || p.type || p.id) + (side.name ? " (" + side.name + ")" : "");
    let s =
      `<g class="${cls}" data-piece="${esc(p.id)}" data-side="${esc(p.side)}" data-hidden="${p.hidden ? "true" : "false"}" transform="translate(${r1(x)} ${r1(y)})">` +
      `<title>${esc(title)}</title>` +
      rect(BLOCK, BLOCK, 3.5, 'transform="translate(1.5 1.5)" fill="#000" fill-opacity="0.35"') +
      rect(BLOCK, BLOCK, 3.5, `class="am-block-body" fill="${fill}"`);
    if (p.hidden) {
      // The back of a block: wood grain and a bevel, nothing else.
      s +=
        `<path class="am-grain" d="M-9 -5q5 -2 9 0t9 0M-9 1q5 -2 9 0t9 0M-9 7q5 -2 9 0t9 0"/>` +
        rect(BLOCK - 5, BLOCK - 5, 2, 'class="am-bevel"');
    } else {
      s += typeSymbol(p.type, ink, -3.5);
      const steps = p.steps | 0;
      if (steps > 0 && steps <= 4) {
        // Steps as pips along the bottom edge.
        for (let i = 0; i < steps; i++) {
          s += `<circle cx="${r1((i - (steps - 1) / 2) * 4.6)}" cy="7.2" r="1.7" fill="${ink}"/>`;
        }
      } else if (steps > 4) {
        s += `<text class="am-steps" x="8" y="10" fill="${ink}">${steps}</text>`;
      }
    }
    if (p.revealed) s += rect(BLOCK + 3, BLOCK + 3, 4.5, 'class="am-reveal-ring"');
    if (isSel) {
      s += rect(BLOCK + 4, BLOCK + 4, 5, 'class="am-sel-casing"');
      s += rect(BLOCK + 4, BLOCK + 4, 5, 'class="am-sel-ring"');
    }
    if (isLit) s += litRect(BLOCK + 10, BLOCK + 10, 6);
    return s + "</g>";
  }

  // ---- state shown on the map ---------------------------------------------------

  // Light targets: {locales: [ids], approaches: ["A/B"], pieces: [ids]}; null clears.
  light(marks) {
    this._lit = marks || null;
    this._drawPieces();
    this._drawLit();
  }

  // Locales and approaches are lit in their own layer below the markers; pieces in place.
  _drawLit() {
    const m = this._lit;
    let s = "";
    if (m) {
      for (const id of m.locales || []) {
        const L = this._locales.get(id);
        if (!L) continue;
        const pts = pointsAttr(L.poly);
        s +=
          `<polygon class="am-lit-casing" data-lit="${esc(id)}" points="${pts}"/>` +
          `<polygon class="am-lit am-lit-locale" points="${pts}"/>`;
      }
      for (const id of m.approaches || []) {
        const g = this._approaches.get(id);
        if (!g) continue;
        s +=
          `<g data-lit="${esc(id)}" transform="translate(${r1(g.x)} ${r1(g.y)}) rotate(${r1(g.angle)})">` +
          litRect(g.len + 12, BAR_THICK + 12, 9) +
          "</g>";
      }
    }
    this.layers.lit.innerHTML = s;
  }

  // Outline the selected pieces; null clears. Survives setPieces.
  select(pieceIds) {
    this._selected = new Set(pieceIds || []);
    this._drawPieces();
  }

  // ---- taps: hooks of PanZoomMap ---------------------------------------------------

  // What a tap on element el reports: a piece, else an approach, else a locale, else null.
  _tapTarget(el) {
    if (!el || !el.closest) return null;
    const piece = el.closest("[data-piece]");
    if (piece) {
      const id = piece.getAttribute("data-piece");
      const p = this._pieces.find((q) => String(q.id) === id);
      if (p) return { kind: "piece", id: p.id, locale: p.locale, approach: p.approach || null };
    }
    const ap = el.closest("[data-approach]");
    if (ap) {
      const g = this._approaches.get(ap.getAttribute("data-approach"));
      if (g) {
        const d = g.data;
        return { kind: "approach", id: d.from + "/" + d.facing, locale: d.from, facing: d.facing };
      }
    }
    const loc = el.closest("[data-locale]");
    return loc ? { kind: "locale", id: loc.getAttribute("data-locale") } : null;
  }

  _reportTap(g) {
    if (g.target && this.onTap) this.onTap(g.target);
  }

  destroy() {
    super.destroy();
    this.onTap = null;
  }
}
