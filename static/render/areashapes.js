// The area map's shapes and sizes (area.js, areacursor.js): a block's size and spacing, the
// approach bars', the locales' terrain tints and textures, the type symbol on a visible block,
// and the plane geometry they are drawn with (centroids, the border two locales share). Only
// drawing: no rule.
import { r1 } from "./svg.js";

// The colour of an objective nobody holds yet (drawn dashed too, whatever a side's colour).
export const NOBODY = "#c8c8c8";

export const FAR_ZOOM = 0.5; // below this the small texts (capacity) are hidden
export const BLOCK = 40; // block side in map units
export const PITCH = BLOCK + 4; // block spacing in rows and grids
export const PER_ROW = 3; // reserve blocks per row
export const BADGE_FS = 12; // marker badge text, map units
export const BADGE_H = 15;
// The default view is never farther than this: badge texts at 11 CSS px or more, and a
// block's hit area (PITCH) at least 44 CSS px, a finger's width.
export const READ_ZOOM = Math.max(11.1 / BADGE_FS, 44 / PITCH);
export const INSET = 14; // approach marker centre: this far from the border toward the locale
export const BAR_THICK = 8;
export const HIT = 46; // an approach's hit area is at least this many units each way
export const BAR_LEN = { narrow: 26, wide: 52 };

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

export function unit(x, y, fx, fy) {
  const len = Math.hypot(x, y);
  return len > 1e-9 ? [x / len, y / len] : [fx, fy];
}

// A rect of side w x h centred on (0, 0) plus extra attributes.
export function rect(w, h, rx, extra) {
  return `<rect x="${r1(-w / 2)}" y="${r1(-h / 2)}" width="${r1(w)}" height="${r1(h)}" rx="${rx}" ${extra}/>`;
}

// A lit outline: a yellow rect on a black casing.
export function litRect(w, h, rx) {
  return rect(w, h, rx, 'class="am-lit-casing"') + rect(w, h, rx, 'class="am-lit"');
}

export function pointsAttr(poly) {
  return poly.map((p) => r1(p[0]) + "," + r1(p[1])).join(" ");
}

// Area-weighted centroid of a simple polygon; the vertex mean if it has no area.
export function centroid(poly) {
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
export function sharedSegment(a, b) {
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
export function typeSymbol(type, c, cy) {
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
