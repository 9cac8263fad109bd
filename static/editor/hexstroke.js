// The hex editor's strokes as pure functions (static/editor/hexedit.js draws and writes them):
// hex arithmetic on axial [q, r] (the hex under a point, lines, brushes, neighbours), the
// entries a brush paints, fill's region, hexsides picked near a point and written, roads cut
// and extended. Nothing here touches the page.
import { SIZE, DIRECTIONS, edgeBetween, roundAxial } from "../render/hexgrid.js";
import { clamp } from "../render/svg.js";

// A hexside is picked this near its line (CSS px at the view's zoom, held within the hex) and
// away from its ends (a fraction of the hexside's half length).
const SIDE_PX = 22;
const SIDE_ALONG = 0.84;

// ---- hex arithmetic on axial [q, r] ---------------------------------------------------

// Axial [q, r] of the hex under map point (x, y), on the map or not.
export function axialAt(grid, x, y) {
  return grid.axialAt(x, y);
}

function distance(a, b) {
  const dq = a[0] - b[0];
  const dr = a[1] - b[1];
  return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
}

// The hexes from a to b, both included, a straight line (endpoints nudged, as Red Blob's).
export function hexLine(a, b) {
  const n = distance(a, b);
  const out = [a];
  for (let i = 1; i <= n; i++) {
    const t = i / n;
    const q = a[0] + 1e-6 + (b[0] - a[0]) * t;
    const r = a[1] + 2e-6 + (b[1] - a[1]) * t;
    out.push(roundAxial(q, r));
  }
  return out;
}

// The label of axial a, or null off the map.
function labelOf(grid, a) {
  const o = grid.fromAxial(a[0], a[1]);
  return grid.contains(o[0], o[1]) ? grid.label(o[0], o[1]) : null;
}

// The on-map labels within `radius` of axial c.
export function around(grid, c, radius) {
  const out = [];
  for (let dq = -radius; dq <= radius; dq++) {
    for (let dr = Math.max(-radius, -dq - radius); dr <= Math.min(radius, -dq + radius); dr++) {
      const label = labelOf(grid, [c[0] + dq, c[1] + dr]);
      if (label) out.push(label);
    }
  }
  return out;
}

function neighbours(grid, label) {
  const a = grid.axialOf(label);
  const out = [];
  for (const d of DIRECTIONS) {
    const n = labelOf(grid, [a[0] + d[0], a[1] + d[1]]);
    if (n) out.push(n);
  }
  return out;
}

export function sideKey(a, b) {
  return a < b ? a + "/" + b : b + "/" + a;
}

function sameSide(h, a, b) {
  const w = h && h.between;
  return Boolean(w) && ((w[0] === a && w[1] === b) || (w[0] === b && w[1] === a));
}

// ---- the scenario's hex entries ----------------------------------------------------------

// The terrain list of a hex entry (the map's default when it lists none).
export function terrainOf(entry, fallback) {
  return entry && Array.isArray(entry.terrain) && entry.terrain.length
    ? entry.terrain.slice()
    : [fallback];
}

// A hex entry with this terrain and level, or null when it says nothing (the map's default
// terrain at level 0); other keys of the old entry kept.
function makeEntry(old, terrain, level, fallback) {
  const out = {};
  if (old) for (const k of Object.keys(old)) if (k !== "terrain" && k !== "level") out[k] = old[k];
  if (terrain.length && !(terrain.length === 1 && terrain[0] === fallback)) out.terrain = terrain;
  if (level) out.level = level;
  return Object.keys(out).length ? out : null;
}

// Remove the hexes of `gone` (a Set of labels) from every road: a road is cut where a hex
// leaves it, and its pieces of two or more hexes stay, the first in its place.
export function cutRoads(map, gone) {
  const roads = map.roads || [];
  const out = [];
  for (const road of roads) {
    const hexes = road.hexes || [];
    if (!hexes.some((h) => gone.has(h))) {
      out.push(road);
      continue;
    }
    let run = [];
    const runs = [];
    for (const h of hexes) {
      if (gone.has(h)) {
        if (run.length >= 2) runs.push(run);
        run = [];
      } else run.push(h);
    }
    if (run.length >= 2) runs.push(run);
    for (const r of runs) out.push(Object.assign({}, road, { hexes: r }));
  }
  map.roads = out;
}

// Add `chain` (adjacent labels) as a road of `kind`: it extends a road of that kind that ends
// where the chain begins or ends, else it is a new road.
export function addRoad(map, kind, chain) {
  const roads = map.roads || (map.roads = []);
  const first = chain[0];
  const last = chain[chain.length - 1];
  for (const road of roads) {
    if ((road.kind || "road") !== kind || !road.hexes || road.hexes.length < 2) continue;
    const h = road.hexes;
    const rev = chain.slice().reverse();
    if (h[h.length - 1] === first) road.hexes = h.concat(chain.slice(1));
    else if (h[0] === last) road.hexes = chain.concat(h.slice(1));
    else if (h[0] === first) road.hexes = rev.concat(h.slice(1));
    else if (h[h.length - 1] === last) road.hexes = h.concat(rev.slice(1));
    else continue;
    return;
  }
  roads.push({ kind, hexes: chain.slice() });
}

// The entry a hex gets from the tool (null: nothing listed): `choice` is the palette's
// {tool, erase, added, terrain, level}; `fallback` the map's default terrain.
export function painted(old, choice, fallback) {
  let terrain = terrainOf(old, fallback);
  let level = (old && old.level) || 0;
  if (choice.tool === "level") {
    level = choice.erase ? 0 : choice.level;
  } else if (choice.erase) {
    terrain = choice.added ? terrain.slice(0, 1) : [fallback];
  } else if (choice.added) {
    if (terrain.indexOf(choice.terrain) < 0) terrain.push(choice.terrain);
  } else {
    terrain = [choice.terrain].concat(terrain.slice(1).filter((t) => t !== choice.terrain));
  }
  return makeEntry(old, terrain, level, fallback);
}

// Write `changes` (label -> entry, null: none) into map.hexes.
export function setHexes(map, changes) {
  const hexes = map.hexes || (map.hexes = {});
  changes.forEach((entry, label) => {
    if (entry) hexes[label] = entry;
    else delete hexes[label];
  });
}

// Mark `labels` off the map (map.off_map, docs/scenario-format.md), or back on it when
// `erase`: a hex that leaves the map takes its terrain, the hexsides along it, its place names
// and its part of every road with it (the core refuses them off the map); units stay, for the
// check to name.
export function setOffMap(map, labels, erase) {
  const off = new Set(map.off_map || []);
  labels.forEach((label) => (erase ? off.delete(label) : off.add(label)));
  if (!erase) {
    const gone = new Set(labels);
    if (map.hexes) gone.forEach((label) => delete map.hexes[label]);
    if (map.hexsides) {
      map.hexsides = map.hexsides.filter(
        (side) => !(side && Array.isArray(side.between) && side.between.some((h) => gone.has(h))),
      );
    }
    if (map.roads) cutRoads(map, gone);
    if (map.labels) map.labels = map.labels.filter((l) => !l || !gone.has(l.hex));
  }
  if (off.size) map.off_map = Array.from(off).sort();
  else delete map.off_map;
}

// Fill's region: the hexes connected to `start` whose keyOf(label) is the start's (a Set).
export function region(grid, start, keyOf) {
  const want = keyOf(start);
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length) {
    const h = queue.pop();
    for (const n of neighbours(grid, h)) {
      if (seen.has(n) || keyOf(n) !== want) continue;
      seen.add(n);
      queue.push(n);
    }
  }
  return seen;
}

// ---- hexsides -----------------------------------------------------------------------------

// The hexside near map point (x, y): {a, b, side} (side: the hex the point is in), or null
// when the point is not near the middle part of a hexside between two hexes of the map.
// `reach` widens the distance allowed (taps reach further than drags) at the view's `zoom`.
export function edgeNear(grid, x, y, reach, zoom) {
  const a = axialAt(grid, x, y);
  const la = labelOf(grid, a);
  if (!la) return null;
  const p = grid.pixel(a[0], a[1]);
  let best = -1;
  let bestDot = -Infinity;
  for (let d = 0; d < 6; d++) {
    const q = grid.pixel(a[0] + DIRECTIONS[d][0], a[1] + DIRECTIONS[d][1]);
    const len = Math.hypot(q[0] - p[0], q[1] - p[1]);
    const dot = ((x - p[0]) * (q[0] - p[0]) + (y - p[1]) * (q[1] - p[1])) / len;
    if (dot > bestDot) {
      bestDot = dot;
      best = d;
    }
  }
  const nb = [a[0] + DIRECTIONS[best][0], a[1] + DIRECTIONS[best][1]];
  const lb = labelOf(grid, nb);
  if (!lb) return null;
  const e = edgeBetween(grid, la, lb);
  const off = Math.abs((x - e.mx) * e.nx + (y - e.my) * e.ny);
  const along = Math.abs((x - e.mx) * e.tx + (y - e.my) * e.ty);
  const tol = clamp((SIDE_PX * reach) / (zoom || 1), SIZE * 0.15, SIZE * 0.45);
  if (off > tol || along > (SIZE / 2) * SIDE_ALONG) return null;
  return { a: la, b: lb, side: la };
}

// The up hex of a hexside picked from `side` (the flip control takes the other).
export function upOf(rec, flip) {
  let side = rec.side;
  if (rec.votes) {
    const va = rec.votes[rec.a] || 0;
    const vb = rec.votes[rec.b] || 0;
    if (va !== vb) side = va > vb ? rec.a : rec.b;
  }
  if (!flip) return side;
  return side === rec.a ? rec.b : rec.a;
}

// Write hexside picks ({a, b, up}) into map.hexsides: mode "toggle" (a tap: the feature on, or
// off; a directional one tapped from its low side turns its up side there) or "add" (a drag);
// `erase` clears every feature of the hexside.
export function setSides(map, picks, feature, erase, directional, mode) {
  const list = map.hexsides || (map.hexsides = []);
  for (const pick of picks) {
    const i = list.findIndex((h) => sameSide(h, pick.a, pick.b));
    if (erase) {
      if (i >= 0) list.splice(i, 1);
      continue;
    }
    let entry = i >= 0 ? list[i] : null;
    const has = Boolean(entry) && (entry.features || []).indexOf(feature) >= 0;
    if (mode === "toggle" && has) {
      if (directional.has(feature) && entry.up !== pick.up) {
        entry.up = pick.up;
        continue;
      }
      entry.features = entry.features.filter((x) => x !== feature);
      if (!entry.features.some((x) => directional.has(x))) delete entry.up;
      if (!entry.features.length) list.splice(i, 1);
      continue;
    }
    if (!entry) {
      entry = { between: [pick.a, pick.b], features: [] };
      list.push(entry);
    }
    if (!has) entry.features = (entry.features || []).concat([feature]);
    if (directional.has(feature)) entry.up = pick.up;
  }
}

// ---- roads ---------------------------------------------------------------------------------

// A road's chain of labels after a drag entered axial `a`: it grows by each hex entered (the
// line between, when a fast drag skips some); going back to the hex before takes the last one
// off. False when the chain stays as it was.
export function extendChain(grid, chain, a) {
  const label = labelOf(grid, a);
  if (!label) return false;
  const last = chain[chain.length - 1];
  if (label === last) return false;
  if (chain.length >= 2 && label === chain[chain.length - 2]) {
    chain.pop();
  } else {
    const from = last ? grid.axialOf(last) : null;
    const path = from ? hexLine(from, a).slice(1) : [a];
    for (const c of path) {
      const l = labelOf(grid, c);
      if (l) chain.push(l);
    }
  }
  return true;
}
