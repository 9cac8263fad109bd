// Area map renderer: draws an AREA map (locales, approaches, roads, blocks) as SVG and
// reports taps. It only draws and reports; every rule lives in the Python core.
// Plain ES2020 so it parses on older iPad Safari. Pan, zoom and taps: PanZoomMap.
//
// Modules: areashapes.js (sizes, terrain tints, the geometry of locales and borders),
// areacursor.js (the keyboard's cursor and what a tap reports), arrows.js (attack arrows).
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
import { areaCursorMethods } from "./areacursor.js";
import {
  NOBODY,
  FAR_ZOOM,
  BLOCK,
  PITCH,
  PER_ROW,
  BADGE_FS,
  BADGE_H,
  READ_ZOOM,
  INSET,
  BAR_THICK,
  HIT,
  BAR_LEN,
  TERRAIN,
  unit,
  rect,
  litRect,
  pointsAttr,
  centroid,
  sharedSegment,
  typeSymbol,
} from "./areashapes.js";

// The legend draws a locale's terrain as the map does.
export { TERRAIN };

let instances = 0;

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

  // The stop under the cursor: {key, x, y, target}, or null (its block or place is gone).
  get cursor() {
    const s = this._stop(this._cursor);
    return s ? s.target : null;
  }

  destroy() {
    super.destroy();
    this.onTap = null;
  }
}

// The keyboard's cursor and the taps: areacursor.js.
Object.assign(AreaMap.prototype, areaCursorMethods);
