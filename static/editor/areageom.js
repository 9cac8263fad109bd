// The geometry of an area map in the editor: snapping a tap to a neighbour's corner or border,
// keeping shared borders shared (a corner on a neighbour's edge goes into both polygons),
// finding the borders two locales share, and keeping the approach pairs, roads and blocks of
// a scenario in step with them. Plain data in, plain data out: no DOM, so it is tested fast.
// Nothing here decides whether a scenario is valid: the core does (scenario_check).
//
// A map here is the scenario's `map` ({width, height, locales, approaches, roads}); a point is
// [x, y] in its units. Functions named for changes mutate the copy they are given (the one
// Draft.change hands out); the others only read.

// How close (map units) a point must be to a line to lie on it, and how long a common stretch
// of two edges must be to make a border.
export const ON_LINE = 0.25;
// Corners are kept to a tenth of a map unit.
export function round1(v) {
  return Math.round(v * 10) / 10;
}

export function samePoint(p, q) {
  return Math.abs(p[0] - q[0]) < 1e-9 && Math.abs(p[1] - q[1]) < 1e-9;
}

// The point of segment p-q nearest to pt, with t (0 at p, 1 at q) and the distance.
export function nearestOnSegment(pt, p, q) {
  const dx = q[0] - p[0];
  const dy = q[1] - p[1];
  const len2 = dx * dx + dy * dy;
  let t = len2 > 0 ? ((pt[0] - p[0]) * dx + (pt[1] - p[1]) * dy) / len2 : 0;
  t = Math.max(0, Math.min(1, t));
  const x = p[0] + t * dx;
  const y = p[1] + t * dy;
  return { x, y, t, d: Math.hypot(pt[0] - x, pt[1] - y) };
}

// Where a tap at pt goes (radius in map units): onto the nearest corner of a locale within the
// radius, else onto the nearest border within it, else where it was, in whole map units.
// opts.skip(point) -> true leaves a corner out (the one being dragged); opts.extra: more
// corners to snap to ([x, y], the polygon being drawn).
// Returns {x, y, kind: "corner" | "edge" | "free"}.
export function snap(locales, pt, radius, opts) {
  const o = opts || {};
  const skip = o.skip || (() => false);
  let best = null;
  let bestD = radius;
  const corners = [];
  for (const loc of locales) for (const p of loc.polygon || []) corners.push(p);
  for (const p of o.extra || []) corners.push(p);
  for (const p of corners) {
    if (skip(p)) continue;
    const d = Math.hypot(p[0] - pt[0], p[1] - pt[1]);
    if (d <= bestD) {
      bestD = d;
      best = { x: p[0], y: p[1], kind: "corner" };
    }
  }
  if (best) return best;
  for (const loc of locales) {
    const poly = loc.polygon || [];
    for (let i = 0; i < poly.length; i++) {
      const p = poly[i];
      const q = poly[(i + 1) % poly.length];
      if (skip(p) || skip(q)) continue;
      const n = nearestOnSegment(pt, p, q);
      if (n.d <= bestD) {
        bestD = n.d;
        best = { x: round1(n.x), y: round1(n.y), kind: "edge" };
      }
    }
  }
  return best || { x: Math.round(pt[0]), y: Math.round(pt[1]), kind: "free" };
}

// True if pt lies on segment p-q, strictly between its ends.
function inside(pt, p, q) {
  if (samePoint(pt, p) || samePoint(pt, q)) return false;
  const n = nearestOnSegment(pt, p, q);
  return n.d <= ON_LINE && n.t > 0 && n.t < 1;
}

// Every corner of one locale that lies on an edge of another (strictly between its ends)
// becomes a corner of that edge too, so the border the two share has the same corners on both
// sides and moves together. Returns how many corners were put in.
export function weld(locales) {
  const all = [];
  for (const loc of locales) for (const p of loc.polygon || []) all.push(p);
  let added = 0;
  for (const loc of locales) {
    const poly = loc.polygon || [];
    for (let i = 0; i < poly.length; i++) {
      const p = poly[i];
      const q = poly[(i + 1) % poly.length];
      // The corners on this edge, in order from p to q (each once).
      const on = [];
      for (const v of all) {
        if (!inside(v, p, q)) continue;
        if (on.some((w) => samePoint(w.v, v))) continue;
        on.push({ v: [v[0], v[1]], t: nearestOnSegment(v, p, q).t });
      }
      if (!on.length) continue;
      on.sort((a, b) => a.t - b.t);
      poly.splice(i + 1, 0, ...on.map((w) => w.v));
      added += on.length;
      i += on.length;
    }
  }
  return added;
}

// How long edges p-q and r-s run together (0 when they only touch or are not on one line).
export function overlap(p, q, r, s) {
  const len = Math.hypot(q[0] - p[0], q[1] - p[1]);
  if (len < 1e-9) return 0;
  const ux = (q[0] - p[0]) / len;
  const uy = (q[1] - p[1]) / len;
  const ts = [];
  for (const v of [r, s]) {
    const across = (v[0] - p[0]) * uy - (v[1] - p[1]) * ux;
    if (Math.abs(across) > ON_LINE) return 0;
    ts.push((v[0] - p[0]) * ux + (v[1] - p[1]) * uy);
  }
  return Math.max(0, Math.min(len, Math.max(ts[0], ts[1])) - Math.max(0, Math.min(ts[0], ts[1])));
}

function box(poly) {
  const b = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of poly) {
    b[0] = Math.min(b[0], p[0]);
    b[1] = Math.min(b[1], p[1]);
    b[2] = Math.max(b[2], p[0]);
    b[3] = Math.max(b[3], p[1]);
  }
  return b;
}

// Whether two polygons share a border: an edge of each running along the other for more than
// ON_LINE (two locales touching at a corner only do not).
export function share(a, b) {
  const ba = box(a);
  const bb = box(b);
  const m = ON_LINE;
  if (ba[0] > bb[2] + m || bb[0] > ba[2] + m || ba[1] > bb[3] + m || bb[1] > ba[3] + m) {
    return false;
  }
  for (let i = 0; i < a.length; i++) {
    const p = a[i];
    const q = a[(i + 1) % a.length];
    for (let j = 0; j < b.length; j++) {
      if (overlap(p, q, b[j], b[(j + 1) % b.length]) > ON_LINE) return true;
    }
  }
  return false;
}

// The key of the border of locales a and b, the same both ways.
export function pairKey(a, b) {
  return a < b ? a + "/" + b : b + "/" + a;
}

// The borders of the map's locales: a Set of pairKey(a, b).
export function borders(locales) {
  const out = new Set();
  for (let i = 0; i < locales.length; i++) {
    for (let j = i + 1; j < locales.length; j++) {
      const a = locales[i];
      const b = locales[j];
      if ((a.polygon || []).length < 3 || (b.polygon || []).length < 3) continue;
      if (share(a.polygon, b.polygon)) out.add(pairKey(a.id, b.id));
    }
  }
  return out;
}

// A new approach: the editor's defaults.
export function newApproach(from, facing) {
  return { from, facing, width: "narrow", effect: 0, flags: [] };
}

// After the polygons changed: every border now shared gets both its approaches (new ones with
// the defaults; those already there keep their settings), and the approaches of a border
// that was shared before (`before`, from borders()) and is no longer go, with the roads
// through it and the blocks on them (back to their reserve). Approaches of a border that
// was never drawn as one (a map made elsewhere) are left alone. Returns {added, removed}.
export function reconcile(scenario, before) {
  const map = scenario.map;
  const ids = new Set((map.locales || []).map((l) => l.id));
  const now = borders(map.locales || []);
  const aps = (map.approaches || []).filter((ap) => {
    if (!ids.has(ap.from) || !ids.has(ap.facing)) return false;
    const key = pairKey(ap.from, ap.facing);
    return !(before.has(key) && !now.has(key));
  });
  const removed = (map.approaches || []).length - aps.length;
  const have = new Set(aps.map((ap) => ap.from + "/" + ap.facing));
  let added = 0;
  now.forEach((key) => {
    const cut = key.indexOf("/");
    const a = key.slice(0, cut);
    const b = key.slice(cut + 1);
    for (const [from, facing] of [
      [a, b],
      [b, a],
    ]) {
      if (have.has(from + "/" + facing)) continue;
      aps.push(newApproach(from, facing));
      have.add(from + "/" + facing);
      added++;
    }
  });
  map.approaches = aps;
  fixRoads(map);
  fixUnits(scenario);
  return { added, removed };
}

// Roads through a step with no approach (or a locale gone) are cut there; pieces shorter than
// two locales go.
export function fixRoads(map) {
  const have = new Set((map.approaches || []).map((ap) => ap.from + "/" + ap.facing));
  const ids = new Set((map.locales || []).map((l) => l.id));
  const out = [];
  for (const road of map.roads || []) {
    let piece = [];
    const flush = () => {
      if (piece.length >= 2) out.push(Object.assign({}, road, { locales: piece }));
      piece = [];
    };
    for (const id of road.locales || []) {
      if (!ids.has(id)) {
        flush();
        continue;
      }
      const last = piece[piece.length - 1];
      if (last !== undefined && !have.has(last + "/" + id)) flush();
      piece.push(id);
    }
    flush();
  }
  map.roads = out;
}

// Blocks on an approach that is gone go back to their locale's reserve.
export function fixUnits(scenario) {
  const have = new Set((scenario.map.approaches || []).map((ap) => ap.from + "/" + ap.facing));
  for (const u of scenario.units || []) {
    if (u.approach != null && !have.has(u.locale + "/" + u.approach)) u.approach = null;
  }
}

// Every space and corner kept: a polygon without two equal corners in a row.
function dedupe(poly) {
  const out = [];
  for (const p of poly) {
    if (!out.length || !samePoint(out[out.length - 1], p)) out.push(p);
  }
  while (out.length > 1 && samePoint(out[0], out[out.length - 1])) out.pop();
  return out;
}

// Move the corner at `from` to `to` in every locale that has it. Returns the ids of the locales
// moved, or null (nothing moved) when a polygon would fall under three corners.
export function moveCorner(locales, from, to) {
  const moved = [];
  const next = new Map();
  for (const loc of locales) {
    const poly = loc.polygon || [];
    if (!poly.some((p) => samePoint(p, from))) continue;
    const np = dedupe(poly.map((p) => (samePoint(p, from) ? [to[0], to[1]] : p)));
    if (np.length < 3) return null;
    next.set(loc, np);
    moved.push(loc.id);
  }
  next.forEach((poly, loc) => {
    loc.polygon = poly;
  });
  return moved;
}

// Delete the corner at pt from every locale that has it. Returns the ids changed, or null when
// a polygon would fall under three corners (nothing changed then).
export function deleteCorner(locales, pt) {
  const hit = locales.filter((l) => (l.polygon || []).some((p) => samePoint(p, pt)));
  if (!hit.length || hit.some((l) => l.polygon.length <= 3)) return null;
  for (const loc of hit) loc.polygon = loc.polygon.filter((p) => !samePoint(p, pt));
  return hit.map((l) => l.id);
}

// An id from a name: lower case, accents off, anything but letters and digits as "_" (never
// a "/"), and a number after it when taken. Ids are never shown; names are.
export function localeId(name, taken) {
  let base = String(name || "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 40);
  if (!base) base = "locale";
  let id = base;
  for (let n = 2; taken.has(id); n++) id = base + "_" + n;
  return id;
}

// Give locale `from` the id `to` everywhere: the locale, its approaches, the roads and blocks.
export function renameLocale(scenario, from, to) {
  if (from === to) return;
  const map = scenario.map;
  for (const l of map.locales || []) if (l.id === from) l.id = to;
  for (const ap of map.approaches || []) {
    if (ap.from === from) ap.from = to;
    if (ap.facing === from) ap.facing = to;
  }
  for (const road of map.roads || []) {
    road.locales = (road.locales || []).map((id) => (id === from ? to : id));
  }
  for (const u of scenario.units || []) {
    if (u.locale === from) u.locale = to;
    if (u.approach === from) u.approach = to;
  }
}

// Remove a locale: its approaches, and those facing it, go; the roads through it are cut;
// blocks facing it go back to their reserve. Blocks in it stay for the order of battle to
// place again (the core names them until then).
export function removeLocale(scenario, id) {
  const map = scenario.map;
  map.locales = (map.locales || []).filter((l) => l.id !== id);
  map.approaches = (map.approaches || []).filter((ap) => ap.from !== id && ap.facing !== id);
  fixRoads(map);
  fixUnits(scenario);
}

// Grow the map's drawing space to hold every corner (it never shrinks here).
export function growSpace(map) {
  let w = map.width || 0;
  let h = map.height || 0;
  for (const loc of map.locales || []) {
    for (const p of loc.polygon || []) {
      w = Math.max(w, Math.ceil(p[0]));
      h = Math.max(h, Math.ceil(p[1]));
    }
  }
  map.width = w;
  map.height = h;
}

// Whether pt is inside the polygon (even-odd).
export function contains(poly, pt) {
  let inPoly = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i];
    const b = poly[j];
    if (a[1] > pt[1] !== b[1] > pt[1]) {
      const x = ((b[0] - a[0]) * (pt[1] - a[1])) / (b[1] - a[1]) + a[0];
      if (pt[0] < x) inPoly = !inPoly;
    }
  }
  return inPoly;
}

// The nearest corner of the given locales within radius of pt: {point, locales: [ids]}, or null.
export function cornerNear(locales, pt, radius) {
  let best = null;
  let bestD = radius;
  for (const loc of locales) {
    for (const p of loc.polygon || []) {
      const d = Math.hypot(p[0] - pt[0], p[1] - pt[1]);
      if (d <= bestD) {
        bestD = d;
        best = p;
      }
    }
  }
  if (!best) return null;
  const ids = locales
    .filter((l) => (l.polygon || []).some((p) => samePoint(p, best)))
    .map((l) => l.id);
  return { point: [best[0], best[1]], locales: ids };
}
