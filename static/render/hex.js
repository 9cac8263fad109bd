// Hex map renderer: draws a muster scenario map as SVG and reports taps.
// It only draws and reports; every rule lives in the Python core.
// Plain ES2020 so it parses on older iPad Safari. Pan, zoom and taps: PanZoomMap.
//
// Modules: hexgrid.js (geometry and numbering), hexterrain.js (the printed map),
// counters.js (counters, marker badges, stacks), arrows.js (attack arrows), hexcursor.js (the
// keyboard's cursor).
//
// Public API (see docs/play-view.md for what the core sends):
//   new HexMap(container, {onHexTap(label, info), unitLabel(u)?, unitRatings(u)?})
//   setScenario(scenario)          draw a scenario's map and its units; the default view
//   rename(scenario)               the same scenario in another language: place names
//   setUnits(units)                units: [{id, side, type, name, hex, ratings?, facing?,
//                                  markers?: [{id, sign, title}], status?}]
//   light({places, units, selected, costs}) | light(null)
//                                  what a tap may act on: places (hex labels) shaded, with
//                                  costs[place] printed in the hex; units ringed; selected
//                                  (a unit id or null) outlined and brought to the top
//   setObjectives([{at, points, holder}])
//                                  the scenario's objectives (setScenario draws them held by
//                                  nobody): a ring in the hex and a badge with its points in
//                                  a corner, clear of the counter, in the holder's colour
//                                  (a dashed grey one: nobody)
//   setArrows([{from, to, kind}]) | setArrows(null)
//                                  attacks in progress, hex to hex; kinds melee, fire,
//                                  bombard, assault, attack
//   select(label), selectUnit(id), highlight(marks), setLines(lines)   board tools
//   mark(labels) | mark(null)     shade the hexes a result card concerns
//   fit(), fitAll(), zoomBy(f), panBy(dx, dy), centerOn(label, {zoom}), zoom; framing
//                                  (PanZoomMap): frame(), toggleFit(), frameNextPieces(),
//                                  showPieces(unit ids), showPlaces(hex labels), onView
//   hexInfo(label), hexAtClientPoint(x, y), hexToClient(label), hasHex(label), destroy()
//   keyboard (PanZoomMap): focus(), keyboardActive, describe(what) (set by the app: words
//                                  for the live region), cursor, setCursor(label); Enter at
//                                  the cursor calls onHexTap as a tap on the top counter there
//                                  does, with pointerType "keyboard"
// A tap calls onHexTap(label, info): info = hexInfo(label) plus unit (the counter tapped,
// or null), stack (the unit ids in the hex, bottom of the stack first), pointerType,
// clientX, clientY.

import { PanZoomMap } from "./panzoom.js";
import { r1, esc, line, unique } from "./svg.js";
import { hexCursorMethods } from "./hexcursor.js";
import { hexChunkMethods } from "./hexchunks.js";
import { HexGrid, SIZE, DIRECTIONS } from "./hexgrid.js";
import {
  patternDefs,
  terrainSvg,
  hexsidesSvg,
  roadsSvg,
  labelsSvg,
  placeNamesSvg,
  gridBounds,
} from "./hexterrain.js";
import {
  COUNTER,
  counterSvg,
  haloSvg,
  stackOffsets,
  stackOrder,
  shortName,
  ratingsText,
  SMALLEST_FS,
} from "./counters.js";
import { arrowSvg, arrowShift } from "./arrows.js";

export { HexGrid };

// The colour of an objective nobody holds yet (drawn dashed too, whatever a side's colour).
const NOBODY = "#c8c8c8";
const FAR_ZOOM = 0.55; // below this the hex numbers are hidden
const TINY_ZOOM = 0.3; // below this the counter texts are hidden
const NUMS_PER_FRAME = 80; // hex numbers added to the map in one frame
// A map of more hexes than this is drawn by what is in view (hexchunks.js).
const CULL_HEXES = 1200;
// The default view is never farther than this: counter texts at 11 CSS px or more.
const READ_ZOOM = 11.1 / SMALLEST_FS;

let instances = 0;

// A cost badge: text on a dark plate, inside hex `label` (centre p) and clear of its hex
// number (at the top): in an empty hex at its centre; where counters stand, on the type
// symbol of the top counter, between its name and its ratings.
function costBadge(label, p, stack, text, cls) {
  const n = stack ? stack.length : 0;
  const at = n ? stackOffsets(n)[n - 1] : [0, 0];
  const x = p[0] + at[0];
  const y = p[1] + at[1];
  const w = Math.max(26, text.length * 10 + 12);
  return (
    `<g class="${cls}" data-cost="${label}"><rect x="${r1(x - w / 2)}" y="${r1(y - 11)}" width="${r1(w)}" height="22" rx="11"/>` +
    `<text x="${r1(x)}" y="${r1(y + 5.8)}">${esc(text)}</text></g>`
  );
}

export class HexMap extends PanZoomMap {
  constructor(container, options) {
    super(container, { prefix: "hm", farZoom: FAR_ZOOM, readZoom: READ_ZOOM });
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
    this._light = null;
    this._arrows = [];
    this._nums = [];
    this._numsBuilt = false;
    this._numsLayer = null;
    this._chunks = null; // a big map's chunks (_chunkMap), or null: the map is drawn whole
    this._chunkFrame = 0;

    // Only the counters take pointer events; a tap elsewhere resolves by position.
    const names = [
      "terrain",
      "hexsides",
      "roads",
      "offmap",
      "highlights",
      "marks",
      "lit",
      "labels",
      "objectives",
      "units",
      "objective-points",
      "arrows",
      "overlays",
      "costs",
      "cursor",
    ];
    for (const name of names) this._addLayer(name, "hm-layer hm-" + name, name === "units");
    this.layers.cursor.classList.add("pz-cursor");
    this._cursor = null; // the keyboard's cursor: a hex label
    // highlight()'s cost texts, beside light()'s in the costs layer.
    this._hlCosts = document.createElementNS("http://www.w3.org/2000/svg", "g");
    this._hlCosts.setAttribute("class", "hm-hl-costs");
    this._hlCosts.setAttribute("pointer-events", "none");
    this.layers.overlays.after(this._hlCosts);
  }

  // ---- drawing -------------------------------------------------------------------

  setScenario(scenario) {
    this._size = null;
    // Measure before the new drawing dirties layout, and read the counters' font while the
    // style is clean (after, it would restyle the whole drawing in the same task).
    this._dims();
    this._font();
    const map = scenario.map;
    const grid = new HexGrid(map);
    this._scenario = scenario;
    this._grid = grid;
    this._sides = {};
    for (const side of scenario.sides || []) this._sides[side.id] = side;
    this._selected = null;
    this._selectedUnit = null;
    this._lines = [];
    this._light = null;
    this._arrows = [];
    this._cursor = null;
    this.layers.cursor.innerHTML = "";
    this._defs.innerHTML = patternDefs(this._id);
    this._chunks = null;
    this.layers.labels.innerHTML = labelsSvg(grid, map);
    this._numsLayer = this.layers.labels.firstChild;
    if (grid.columns * grid.rows > CULL_HEXES) {
      this._bounds = gridBounds(grid);
      this._chunkMap(map);
    } else {
      const terrain = terrainSvg(grid, map, this._id);
      this.layers.terrain.innerHTML = terrain.svg;
      this._bounds = terrain.bounds;
      // Hex numbers go in the labels layer, built the first time they can be read
      // (a big map seen whole hides them, so its first draw skips them).
      this._nums = terrain.nums;
      this._numsBuilt = false;
      const sides = hexsidesSvg(grid, map);
      this.layers.hexsides.innerHTML = sides.svg;
      this.layers.roads.innerHTML = roadsSvg(grid, map, sides.bridges);
    }
    this._drawOffBoard(grid, map);
    this.layers.highlights.innerHTML = "";
    this._hlCosts.innerHTML = "";
    this.layers.marks.innerHTML = "";
    this.layers.overlays.innerHTML = "";
    this.layers.arrows.innerHTML = "";
    this._drawLit();
    this.setObjectives(
      (scenario.objectives || []).map((o) => ({ at: o.hex, points: o.points, holder: null })),
    );
    this._drawUnits(scenario.units || []);
    this._svg.setAttribute("data-map-drawn", "1");
    this._svg.setAttribute("data-orientation", grid.flat ? "flat" : "pointy");
    this.fit();
  }

  // The objectives: [{at, points, holder}]. Each hex gets a ring inside its edge (under the
  // counters) and a badge with its points on its lower left corner, where the counters of
  // the three hexes meeting there leave the map bare (above the counters): solid in the
  // holder's colour (its text colour for the number), dashed grey while nobody holds it.
  setObjectives(list) {
    const grid = this._grid;
    if (!grid) return;
    const ring = grid.corners.map((c) => [c[0] * 0.92, c[1] * 0.92]);
    const at = grid.corners.reduce((a, b) => (b[1] - b[0] > a[1] - a[0] ? b : a));
    const rings = [];
    const badges = [];
    for (const o of list || []) {
      const p = o && grid.has(o.at) ? grid.center(o.at) : null;
      if (!p) continue;
      const side = o.holder != null ? this._sides[o.holder] : null;
      const fill = side ? side.color || "#888888" : NOBODY;
      const ink = side ? side.text || "#111111" : "#111111";
      const pts = ring.map((c) => r1(p[0] + c[0]) + "," + r1(p[1] + c[1])).join(" ");
      const x = r1(p[0] + at[0]);
      const y = r1(p[1] + at[1]);
      const attrs =
        `class="hm-objective${side ? " held" : ""}" data-objective="${esc(o.at)}"` +
        ` data-points="${esc(o.points)}"` +
        (side ? ` data-holder="${esc(o.holder)}"` : "");
      rings.push(
        `<g ${attrs}><polygon class="hm-objective-casing" points="${pts}"/>` +
          `<polygon class="hm-objective-ring" points="${pts}" style="stroke:${esc(fill)}"/></g>`,
      );
      badges.push(
        `<g ${attrs}><circle class="hm-objective-badge" cx="${x}" cy="${y}" r="13.5"` +
          ` style="fill:${esc(fill)}"/><text class="hm-objective-points" x="${x}"` +
          ` y="${r1(p[1] + at[1] + 5.8)}" style="fill:${esc(ink)}">${esc(o.points)}</text></g>`,
      );
    }
    this.layers.objectives.innerHTML = rings.join("");
    this.layers["objective-points"].innerHTML = badges.join("");
  }

  // The same scenario in other words (another language): the place names printed on the
  // map and the sides' names; the view, the selection and the marks stay. The counters take
  // their new names at the next setUnits.
  rename(scenario) {
    if (!this._grid) return;
    this._scenario = scenario;
    this._sides = {};
    for (const side of scenario.sides || []) this._sides[side.id] = side;
    const old = this.layers.labels.querySelector(".hm-place");
    if (old) old.remove();
    this.layers.labels.insertAdjacentHTML("beforeend", placeNamesSvg(this._grid, scenario.map));
  }

  // Redraw only the counters. units: [{id, side, type, name, hex, ratings?, facing?,
  // markers?, status?}].
  setUnits(units) {
    this._drawUnits(units || []);
    this._piecesDrawn();
    this._cursorRefresh();
  }

  // The units on each hex, in the caller's order (the bottom of a stack first).
  _stacks() {
    const grid = this._grid;
    const byHex = new Map();
    for (const u of this._units) {
      if (!u || !u.hex || !grid.has(u.hex)) continue;
      if (!byHex.has(u.hex)) byHex.set(u.hex, []);
      byHex.get(u.hex).push(u);
    }
    return byHex;
  }

  _drawUnits(units) {
    this._units = units.slice();
    const grid = this._grid;
    if (!grid) return;
    const lit = new Set((this._light && this._light.units) || []);
    const selected = this._selectedId();
    const cells = [];
    this._stacks().forEach((list, label) => cells.push({ list, p: grid.center(label) }));
    // Right to left: the badges hanging off a counter's right side stay above its neighbour.
    cells.sort((a, b) => b.p[0] - a.p[0] || a.p[1] - b.p[1]);
    const out = [];
    const halos = [];
    let top = "";
    for (const cell of cells) {
      const drawn = this._stackSvg(cell.list, cell.p, lit, selected);
      out.push(...drawn.out);
      halos.push(...drawn.halos);
      if (drawn.top) top = drawn.top;
    }
    // The selected counter is drawn last, on top of its stack and its neighbours.
    // Halos of lit counters first, under them all.
    this.layers.units.innerHTML = halos.join("") + out.join("") + top;
  }

  // One stack's counters (its units in the caller's order) at point p: each counter's svg in
  // the order drawn, the lit ones' halos, and the selected one apart (drawn on top of all).
  _stackSvg(units, p, lit, selected) {
    const grid = this._grid;
    const n = units.length;
    const offs = stackOffsets(n);
    const list = stackOrder(units);
    const out = [];
    const halos = [];
    let top = "";
    for (let i = 0; i < n; i++) {
      const u = list[i];
      const isSel = selected != null && String(u.id) === selected;
      const isLit = lit.has(String(u.id));
      const x = p[0] + offs[i][0];
      const y = p[1] + offs[i][1];
      if (isLit) halos.push(haloSvg(u, x, y));
      const svg = counterSvg(u, x, y, {
        grid,
        side: this._sides[u.side],
        label: this.unitLabel ? this.unitLabel(u) : shortName(u.name || u.id, u.type),
        ratings: this.unitRatings ? this.unitRatings(u) : ratingsText(u.ratings),
        lit: isLit,
        selected: isSel,
        stackCount: i === n - 1 ? n : 0,
        covered: i < n - 1 && !isSel,
        font: this._font(),
      });
      if (isSel) top = svg;
      else out.push(svg);
    }
    return { out, halos, top };
  }

  // Only the counters of the stacks on hexes `labels` drawn again, each in its place, for
  // units (this._units) whose looks changed but not where they stand: a rename among two
  // thousand counters redraws one. False, with nothing changed, where such a stack holds
  // the selected or a lit counter (drawn apart) or a counter is not found: draw them all.
  _redrawStacks(labels) {
    const grid = this._grid;
    if (!grid) return false;
    const lit = new Set((this._light && this._light.units) || []);
    const selected = this._selectedId();
    const stacks = this._stacks();
    const byId = new Map();
    for (const el of this.layers.units.querySelectorAll("[data-unit]")) {
      byId.set(el.getAttribute("data-unit"), el);
    }
    const swaps = [];
    for (const label of labels) {
      const units = stacks.get(label);
      if (!units || !grid.has(label)) return false;
      const drawn = this._stackSvg(units, grid.center(label), lit, selected);
      if (drawn.top || drawn.halos.length) return false;
      const order = stackOrder(units);
      for (let i = 0; i < order.length; i++) {
        const el = byId.get(String(order[i].id));
        if (!el) return false;
        swaps.push([el, drawn.out[i]]);
      }
    }
    for (const [el, svg] of swaps) {
      el.insertAdjacentHTML("afterend", svg);
      el.remove();
    }
    return true;
  }

  // ---- framing (PanZoomMap's hooks) --------------------------------------------------

  _pieceIds() {
    const grid = this._grid;
    if (!grid) return [];
    return this._units.filter((u) => u && u.hex && grid.has(u.hex)).map((u) => String(u.id));
  }

  // A unit's box: the box of its hex's whole stack (its counters fanned, their badges and
  // facing arrows hanging a little out).
  _pieceBox(id) {
    const grid = this._grid;
    const u = grid && this._units.find((x) => x && String(x.id) === String(id));
    if (!u || !u.hex || !grid.has(u.hex)) return null;
    const p = grid.center(u.hex);
    const n = this._units.filter((x) => x && x.hex === u.hex).length;
    const offs = stackOffsets(n);
    const half = COUNTER / 2 + 8;
    return {
      minX: p[0] - half,
      maxX: p[0] + half,
      minY: p[1] + offs[0][1] - half,
      maxY: p[1] + offs[n - 1][1] + half,
    };
  }

  _placeBox(label) {
    const grid = this._grid;
    const p = grid && grid.has(label) ? grid.center(label) : null;
    if (!p) return null;
    return { minX: p[0] - SIZE, maxX: p[0] + SIZE, minY: p[1] - SIZE, maxY: p[1] + SIZE };
  }

  // The font family the counters are drawn in (measured once a map is in the page).
  _font() {
    if (!this._fontFamily && typeof getComputedStyle === "function" && this._svg.isConnected) {
      this._fontFamily = getComputedStyle(this._svg).fontFamily || "";
    }
    return this._fontFamily || "";
  }

  _selectedId() {
    const l = this._light;
    const id = l && l.selected != null ? l.selected : this._selectedUnit;
    return id == null ? null : String(id);
  }

  // ---- state shown on the map ---------------------------------------------------

  // Outline one hex (or none).
  select(label) {
    this._selected = label && this._grid && this._grid.has(label) ? label : null;
    this._drawOverlays();
  }

  // Mark one counter as selected (or none) and bring it to the top; survives setUnits.
  selectUnit(id) {
    this._selectedUnit = id || null;
    this._drawUnits(this._units);
  }

  // What a tap may act on: {places: [hex labels], units: [ids], selected: id|null,
  // costs: {label: text}}; null clears. Places are shaded (costs printed in them), units
  // ringed, the selected unit outlined and on top. Apart from highlight() and select().
  light(spec) {
    if (!spec) {
      this._light = null;
    } else {
      this._light = {
        places: unique(spec.places),
        units: unique(spec.units),
        selected: spec.selected == null ? null : String(spec.selected),
        costs: spec.costs || {},
      };
    }
    this._drawLit();
    this._drawUnits(this._units);
    this._cursorRefresh();
  }

  _drawLit() {
    const grid = this._grid;
    const l = this._light;
    if (!grid || !l) {
      this.layers.lit.innerHTML = "";
      this.layers.costs.innerHTML = "";
      return;
    }
    const polys = [];
    const costs = [];
    const inset = grid.corners.map((c) => [c[0] * 0.9, c[1] * 0.9]);
    const stacks = this._stacks();
    for (const label of l.places) {
      const p = grid.center(label);
      if (!p || !grid.has(label)) continue;
      const pts = inset.map((c) => r1(p[0] + c[0]) + "," + r1(p[1] + c[1])).join(" ");
      polys.push(
        `<polygon class="hm-lit-casing" points="${pts}"/>` +
          `<polygon class="hm-lit" data-lit="${label}" points="${pts}"/>`,
      );
      const text = l.costs[label];
      if (text != null && text !== "") {
        costs.push(costBadge(label, p, stacks.get(label), String(text), "hm-cost"));
      }
    }
    this.layers.lit.innerHTML = polys.join("");
    this.layers.costs.innerHTML = costs.join("");
  }

  // Attacks in progress: [{from, to, kind}] between hex labels; null clears.
  setArrows(arrows) {
    this._arrows = (arrows || []).filter((a) => a && a.from != null && a.to != null);
    this._drawArrows();
  }

  _drawArrows() {
    const grid = this._grid;
    if (!grid) return;
    const out = [];
    this._arrows.forEach((a, i) => {
      const p = grid.center(String(a.from));
      const q = grid.center(String(a.to));
      if (!p || !q) return;
      const len = Math.hypot(q[0] - p[0], q[1] - p[1]);
      if (len < 1) return;
      const ux = (q[0] - p[0]) / len;
      const uy = (q[1] - p[1]) / len;
      // Shifted to its right when an arrow runs the other way; from near the attacker's
      // centre to the defender's counter edge.
      const sh = arrowShift(this._arrows, i);
      const ox = -uy * sh;
      const oy = ux * sh;
      const a0 = Math.min(24, len * 0.25);
      const a1 = Math.max(len - 28, a0 + 20);
      out.push(
        arrowSvg(
          p[0] + ox + ux * a0,
          p[1] + oy + uy * a0,
          p[0] + ox + ux * a1,
          p[1] + oy + uy * a1,
          a,
        ),
      );
    });
    this.layers.arrows.innerHTML = out.join("");
  }

  // The hexes a result card concerns, shaded in their own layer (apart from highlight(),
  // which the board tools use); null clears.
  mark(labels) {
    const grid = this._grid;
    if (!grid || !labels) {
      this.layers.marks.innerHTML = "";
      return;
    }
    this.layers.marks.innerHTML = unique(labels)
      .filter((label) => grid.has(label))
      .map((label) => {
        const p = grid.center(label);
        return `<polygon class="hm-mark" data-mark="${esc(label)}" points="${grid.points(p[0], p[1])}"/>`;
      })
      .join("");
  }

  // Shade hexes: {label: "className"} or {label: {cls, text}}; null clears.
  highlight(marks) {
    const grid = this._grid;
    if (!grid || !marks) {
      this.layers.highlights.innerHTML = "";
      this._hlCosts.innerHTML = "";
      return;
    }
    const polys = [];
    const texts = [];
    const stacks = this._stacks();
    for (const label of Object.keys(marks)) {
      const p = grid.center(label);
      if (!p || !grid.has(label)) continue;
      const m = marks[label];
      const cls = typeof m === "string" ? m : (m && m.cls) || "";
      const text = m && typeof m === "object" && m.text != null ? String(m.text) : "";
      polys.push(
        `<polygon class="hm-hl ${esc(cls)}" data-hl="${label}" points="${grid.points(p[0], p[1])}"/>`,
      );
      if (text) texts.push(costBadge(label, p, stacks.get(label), text, "hm-cost hm-hl-text"));
    }
    this.layers.highlights.innerHTML = polys.join("");
    // Above the counters, like the costs of light().
    this._hlCosts.innerHTML = texts.join("");
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

  // ---- the keyboard's cursor (PanZoomMap's hooks): hexcursor.js ------------------------

  // The hex under the cursor (a label or null); setCursor puts it on a hex of the map.
  get cursor() {
    return this._cursor;
  }

  // ---- geometry helpers for callers ------------------------------------------------

  // Whether `label` is a hex of the map.
  hasHex(label) {
    return Boolean(this._grid && this._grid.has(label) && !(this._off && this._off.has(label)));
  }

  // The hex under a client (CSS pixel) point, or null.
  hexAtClientPoint(x, y) {
    if (!this._grid) return null;
    const p = this.clientToMap(x, y);
    const label = this._grid.labelAt(p.x, p.y);
    return label && this._off && this._off.has(label) ? null : label;
  }

  // Client (CSS pixel) coordinates of a hex centre, or null.
  hexToClient(label) {
    const p = this._grid && this._grid.center(label);
    if (!p) return null;
    const rect = this._svgRect();
    return {
      x: rect.left + rect.width / 2 + (p[0] - this._cx) * this._k,
      y: rect.top + rect.height / 2 + (p[1] - this._cy) * this._k,
    };
  }

  // {label, terrain, level, units}: units are the ids on the hex, the bottom of a stack first.
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
    if (opts && typeof opts.zoom === "number") this._k = opts.zoom;
    this.centerOnPoints([p]);
  }

  // Centre the view on the middle of several hexes (the units that act next), at this zoom.
  centerOnAll(labels) {
    this.centerOnPoints(
      (labels || []).map((l) => this._grid && this._grid.center(l)).filter(Boolean),
    );
  }

  // Tiny is also far: "hm-far hm-tiny" hides the hex numbers and the counter texts.
  _zoomClassOf(k) {
    return k < TINY_ZOOM ? "hm-far hm-tiny" : super._zoomClassOf(k);
  }

  // The hex numbers are built the first time the view is near enough to read them: from two
  // frames later, NUMS_PER_FRAME in each frame. A map's first drawing is laid out and painted
  // without them, and the layout of hundreds of texts never makes one long task.
  _viewApplied(zc) {
    if (this._chunks) {
      // The zoom class is swapped after this hook: numbers follow it in the next frame.
      this._cull();
      if (zc !== this._zoomClass && !this._chunkFrame) {
        this._chunkFrame = requestAnimationFrame(() => {
          this._chunkFrame = 0;
          this._cull();
        });
      }
      return;
    }
    if (zc !== "hm-near" || this._numsBuilt || !this._numsLayer) return;
    this._numsBuilt = true;
    const layer = this._numsLayer;
    const nums = this._nums;
    let next = 0;
    const step = () => {
      if (layer !== this._numsLayer) return; // another map was drawn since
      layer.insertAdjacentHTML("beforeend", nums.slice(next, next + NUMS_PER_FRAME).join(""));
      next += NUMS_PER_FRAME;
      if (next < nums.length) requestAnimationFrame(step);
    };
    requestAnimationFrame(() => requestAnimationFrame(step));
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
    this._tapHex(label, counter ? counter.unit : null, g.pointerType, g.x0, g.y0);
  }

  // A tap on hex `label` (a pointer's, or Enter at the cursor): the counter tapped or null.
  _tapHex(label, unit, pointerType, x, y) {
    const info = this.hexInfo(label);
    info.unit = unit;
    info.stack = info.units.slice();
    info.pointerType = pointerType;
    info.clientX = x;
    info.clientY = y;
    this.onHexTap(label, info);
  }

  destroy() {
    if (this._chunkFrame) cancelAnimationFrame(this._chunkFrame);
    this._chunkFrame = 0;
    this._chunks = null;
    super.destroy();
    this.onHexTap = null;
  }
}

// The keyboard's cursor: hexcursor.js.
Object.assign(HexMap.prototype, hexCursorMethods, hexChunkMethods);
