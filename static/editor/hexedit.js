// The scenario editor's hex map (issue 14): paint terrain, elevation, hexside features, roads
// and place names on a muster-scenario/1 hex map, place units, show a place the core named.
// It draws and writes through ctx.draft.change only; the core decides what is valid.
// Plain ES2020 so it parses on older iPad Safari.
//
//   new HexEditor(ctx)   ctx: {draft, i18n, catalog, mapEl, toolsEl, message, ...}
//   mount(), update(scenario, info), highlight(place), setPicture(picture),
//   pickPoint(promptKey) -> Promise<{x, y} | null>, placeUnit(id), mapInfo(), destroy()
//
// Input: one finger (a pen, the mouse's left button) paints; two fingers pan and pinch, the
// mouse pans with its middle or right button or with Space held, the wheel zooms (PanZoomMap's
// strokes). A stroke is drawn as it goes in overlay layers, hex by hex, and written as ONE
// draft change when it ends; update() then redraws only the layers whose data changed.

import { HexMap } from "../render/hex.js";
import { HexGrid, SIZE, DIRECTIONS, edgeBetween } from "../render/hexgrid.js";
import { terrainSvg, hexsidesSvg, roadsSvg, labelsSvg } from "../render/hexterrain.js";
import { r1, esc, clamp } from "../render/svg.js";

const SVGNS = "http://www.w3.org/2000/svg";
const TOOLS = ["terrain", "level", "hexside", "road", "label"];
const BRUSHES = [
  { id: 0, key: "editor.hex.brush_1" },
  { id: 1, key: "editor.hex.brush_r1" },
  { id: 2, key: "editor.hex.brush_r2" },
  { id: "fill", key: "editor.hex.fill" },
];
// A hexside is picked this near its line (CSS px at the view's zoom, held within the hex) and
// away from its ends (a fraction of the hexside's half length).
const SIDE_PX = 22;
const SIDE_ALONG = 0.84;
// The places highlight() shows.
const OWN_PLACES = ["hex", "hexside", "road", "label", "unit"];

// ---- hex arithmetic on axial [q, r] ---------------------------------------------------

// Axial [q, r] of the hex under map point (x, y), on the map or not (hexgrid.js labelAt's
// rounding).
function axialAt(grid, x, y) {
  let fq;
  let fr;
  if (grid.flat) {
    fq = ((2 / 3) * x) / SIZE;
    fr = ((-1 / 3) * x + (Math.sqrt(3) / 3) * y) / SIZE;
  } else {
    fq = ((Math.sqrt(3) / 3) * x - (1 / 3) * y) / SIZE;
    fr = ((2 / 3) * y) / SIZE;
  }
  return roundAxial(fq, fr);
}

function roundAxial(fq, fr) {
  const fs = -fq - fr;
  let q = Math.round(fq);
  let r = Math.round(fr);
  const s = Math.round(fs);
  const dq = Math.abs(q - fq);
  const dr = Math.abs(r - fr);
  const ds = Math.abs(s - fs);
  if (dq > dr && dq > ds) q = -r - s;
  else if (dr > ds) r = -q - s;
  return [q, r];
}

function distance(a, b) {
  const dq = a[0] - b[0];
  const dr = a[1] - b[1];
  return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
}

// The hexes from a to b, both included, a straight line (endpoints nudged, as Red Blob's).
function hexLine(a, b) {
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
function around(grid, c, radius) {
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

function sideKey(a, b) {
  return a < b ? a + "/" + b : b + "/" + a;
}

function sameSide(h, a, b) {
  const w = h && h.between;
  return Boolean(w) && ((w[0] === a && w[1] === b) || (w[0] === b && w[1] === a));
}

// ---- the scenario's hex entries ----------------------------------------------------------

// The terrain list of a hex entry (the map's default when it lists none).
function terrainOf(entry, fallback) {
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
function cutRoads(map, gone) {
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
function addRoad(map, kind, chain) {
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

// ---- the map: HexMap with the editor's layers ---------------------------------------------

class EditMap extends HexMap {
  constructor(container, editor) {
    super(container, {});
    this._editor = editor;
    this.svg.classList.add("he-svg");
    // Overlays of a stroke in progress, each above the layer it stands for; level numbers;
    // the highlighted place on top.
    this._insertLayer("paint", "he-layer he-paint", this.layers.hexsides);
    this._insertLayer("sidesEdit", "he-layer he-sides", this.layers.roads);
    this._insertLayer("roadsEdit", "he-layer he-roads", this.layers.highlights);
    this._insertLayer("levels", "he-layer he-levels", this.layers.units);
    this._addLayer("mark", "he-layer he-marks", false);
    this._keys = {};
  }

  _insertLayer(name, className, before) {
    const g = document.createElementNS(SVGNS, "g");
    g.setAttribute("class", className);
    g.setAttribute("pointer-events", "none");
    this.svg.insertBefore(g, before);
    this.layers[name] = g;
  }

  get grid() {
    return this._grid;
  }

  get prefix() {
    return this._id;
  }

  // Draw `scenario`: a new geometry draws afresh and fits; else only the layers whose data
  // changed are drawn again (all of them when `full`), and the view stays.
  draw(scenario, full) {
    const map = scenario.map;
    const geom = JSON.stringify([
      map.orientation,
      map.stagger,
      map.first_column ?? 1,
      map.columns,
      map.first_row ?? 1,
      map.rows,
      map.column_digits ?? 2,
      map.row_digits ?? 2,
    ]);
    const keys = {
      geom,
      terrain: JSON.stringify([map.hexes || {}, map.default_terrain || "clear"]),
      sides: JSON.stringify(map.hexsides || []),
      roads: JSON.stringify(map.roads || []),
      labels: JSON.stringify(map.labels || []),
    };
    const old = this._keys;
    this._keys = keys;
    if (!this._grid || geom !== old.geom) {
      this.setScenario(scenario);
      return;
    }
    if (full) {
      const view = { cx: this._cx, cy: this._cy, k: this._k, fitted: this._fitted };
      this.setScenario(scenario);
      if (!view.fitted) {
        this._cx = view.cx;
        this._cy = view.cy;
        this._k = view.k;
        this._fitted = false;
        this._applyView();
      }
      return;
    }
    const grid = this._grid;
    this._scenario = scenario;
    this._sides = {};
    for (const side of scenario.sides || []) this._sides[side.id] = side;
    if (keys.terrain !== old.terrain) {
      const terrain = terrainSvg(grid, map, this._id);
      this.layers.terrain.innerHTML = terrain.svg;
      this._nums = terrain.nums;
    }
    if (keys.sides !== old.sides || keys.roads !== old.roads) {
      const sides = hexsidesSvg(grid, map);
      if (keys.sides !== old.sides) this.layers.hexsides.innerHTML = sides.svg;
      this.layers.roads.innerHTML = roadsSvg(grid, map, sides.bridges);
    }
    if (keys.labels !== old.labels) {
      // The place names only: the hex numbers (the layer's first group) stay.
      const place = this.layers.labels.querySelector(".hm-place");
      if (place) place.parentNode.removeChild(place);
      const s = labelsSvg(grid, map);
      this.layers.labels.insertAdjacentHTML("beforeend", s.slice(s.indexOf("</g>") + 4));
    }
    this._drawUnits(scenario.units || []);
  }

  // Taps go to the editor with their map point (a hexside is picked by where, in the hex).
  _reportTap(g) {
    this._editor._tapAt(this.clientToMap(g.x0, g.y0), g.pointerType);
  }

  // Enter at the keyboard's cursor: a tap on the middle of its hex.
  _cursorTap() {
    const p = this._cursorPoint();
    if (p) this._editor._tapAt({ x: p.x, y: p.y }, "keyboard");
  }
}

// ---- small drawings for the palette -------------------------------------------------------

const SWATCH_MAP = {
  orientation: "flat",
  stagger: "even",
  first_column: 0,
  columns: 2,
  first_row: 0,
  rows: 1,
};
const SWATCH_GRID = new HexGrid(Object.assign({}, SWATCH_MAP, { columns: 1 }));
const PAIR_GRID = new HexGrid(SWATCH_MAP);
const PAIR_EDGE = edgeBetween(PAIR_GRID, "0000", "0100");
const PAIR_BOX = `${r1(PAIR_EDGE.mx - 26)} ${r1(PAIR_EDGE.my - 26)} 52 52`;

function swatch(box, inner) {
  return `<svg class="he-swatch" viewBox="${box}" aria-hidden="true" focusable="false">${inner}</svg>`;
}

function terrainSwatch(id, level, prefix) {
  const entry = { level };
  if (id) entry.terrain = [id];
  const t = terrainSvg(SWATCH_GRID, { hexes: { "0000": entry } }, prefix);
  return swatch("-28 -28 56 56", t.svg);
}

function featureSwatch(feature) {
  const map = { hexsides: [{ between: ["0000", "0100"], features: [feature], up: "0000" }] };
  const s = hexsidesSvg(PAIR_GRID, map);
  return swatch(
    PAIR_BOX,
    `<rect x="-100" y="-100" width="300" height="300" fill="#eef0d6"/>${s.svg}${s.bridges}`,
  );
}

function roadSwatch(kind) {
  const map = { roads: [{ kind, hexes: ["0000", "0100"] }] };
  return swatch(
    PAIR_BOX,
    `<rect x="-100" y="-100" width="300" height="300" fill="#eef0d6"/>${roadsSvg(PAIR_GRID, map, "")}`,
  );
}

// ---- the editor ---------------------------------------------------------------------------

export class HexEditor {
  constructor(ctx) {
    this.ctx = ctx;
    this.draft = ctx.draft;
    this.i18n = ctx.i18n;
    const cat = (ctx.catalog && ctx.catalog.hex) || {};
    this.cat = {
      terrains: cat.terrains || ["clear"],
      features: cat.hexside_features || [],
      directional: new Set(cat.directional || []),
      roadKinds: cat.road_kinds || ["road"],
      levels: cat.levels || { min: 0, max: 3 },
    };
    this.facing = (ctx.catalog && ctx.catalog.units && ctx.catalog.units.facing) || null;
    this.tool = "terrain";
    this.erase = false;
    this.added = false; // terrain: added on top of the base, not the base
    this.brush = 0;
    const fallback = this._fallback();
    this.terrain = this.cat.terrains.find((t) => t !== fallback) || this.cat.terrains[0];
    this.level = clamp(1, this.cat.levels.min, this.cat.levels.max);
    this.feature = this.cat.features[0] || null;
    this.flip = false;
    this.roadKind = this.cat.roadKinds[0];
    this.map = null;
    this._stroke = null;
    this._pending = null; // {kind: "unit", id} | {kind: "point", resolve}
    this._place = null; // highlight()'s place
    this._form = null;
    this._onKeyBound = (e) => this._onKey(e);
  }

  t(key, params) {
    return this.i18n.t(key, params);
  }

  get scenario() {
    return this.draft.scenario;
  }

  _fallback() {
    const s = this.draft && this.draft.scenario;
    return (s && s.map && s.map.default_terrain) || "clear";
  }

  // ---- the interface ----------------------------------------------------------------------

  mount() {
    const mapEl = this.ctx.mapEl;
    mapEl.classList.add("he-map");
    this.map = new EditMap(mapEl, this);
    this.map.describe = (what) => this._describe(what);
    this.map.draw(this.scenario, true);
    this.toolsEl = this.ctx.toolsEl;
    this.toolsEl.classList.add("he-tools");
    this._syncStroke();
    this._renderTools();
    this._drawLevels();
    document.addEventListener("keydown", this._onKeyBound);
  }

  // Redraw after any change: the overlays of the last stroke go, the layers whose data
  // changed are drawn again (every layer on an import, a replace or a load).
  update(scenario, info) {
    if (!this.map) return;
    const kind = info && info.kind;
    const full = kind === "replace" || kind === "load";
    this._clearOverlays();
    this.map.draw(scenario || this.scenario, full);
    this._drawLevels();
    this._drawMark(false);
    if (full) this._renderTools();
  }

  highlight(place) {
    this._place = place && OWN_PLACES.indexOf(place.kind) >= 0 ? place : null;
    if (this.map) this._drawMark(true);
  }

  setPicture(picture) {
    if (!this.map) return;
    this.map.setPicture(picture || null);
    this.map.svg.classList.toggle("he-picture", Boolean(picture && picture.url));
  }

  pickPoint(promptKey) {
    return new Promise((resolve) => this._setPending({ kind: "point", resolve, key: promptKey }));
  }

  placeUnit(id) {
    this._setPending({ kind: "unit", id });
  }

  mapInfo() {
    const map = this.map;
    return {
      kind: "hex",
      center: (label) => {
        const p = map && map.grid ? map.grid.center(String(label)) : null;
        return p ? { x: p[0], y: p[1] } : null;
      },
      labelAt: (x, y) => (map && map.grid ? map.grid.labelAt(x, y) : null),
    };
  }

  destroy() {
    document.removeEventListener("keydown", this._onKeyBound);
    this._cancelPending();
    this._closeForm();
    if (this.map) this.map.destroy();
    this.map = null;
    if (this.toolsEl) {
      this.toolsEl.innerHTML = "";
      this.toolsEl.classList.remove("he-tools");
    }
    this.ctx.mapEl.classList.remove("he-map");
  }

  // ---- the palette ------------------------------------------------------------------------

  _button(id, label, pressed, onClick, art, extraClass) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "he-btn" + (extraClass ? " " + extraClass : "");
    b.setAttribute("data-tool", id);
    if (pressed !== null) b.setAttribute("aria-pressed", pressed ? "true" : "false");
    b.innerHTML = (art || "") + `<span class="he-btn-text">${esc(label)}</span>`;
    b.addEventListener("click", onClick);
    return b;
  }

  _group(labelKey, className) {
    const g = document.createElement("div");
    g.className = "he-group" + (className ? " " + className : "");
    g.setAttribute("role", "group");
    g.setAttribute("aria-label", this.t(labelKey));
    return g;
  }

  // The palette: the tools, the eraser, the current tool's choices and a line of help.
  // Drawn again on every choice; the focus stays on the button that had it.
  _renderTools() {
    const el = this.toolsEl;
    if (!el) return;
    const focused = document.activeElement;
    const focusId = focused && el.contains(focused) ? focused.getAttribute("data-tool") : null;
    el.innerHTML = "";
    const set = (fn) => () => {
      fn();
      this._syncStroke();
      this._renderTools();
      this._drawLevels();
    };

    const tools = this._group("editor.hex.tools", "he-tools-main");
    for (const tool of TOOLS) {
      tools.appendChild(
        this._button(
          "tool-" + tool,
          this.t("editor.hex.tool_" + tool),
          this.tool === tool,
          set(() => {
            this.tool = tool;
          }),
        ),
      );
    }
    tools.appendChild(
      this._button(
        "erase",
        this.t("editor.hex.erase"),
        this.erase,
        set(() => {
          this.erase = !this.erase;
        }),
        "",
        "he-erase",
      ),
    );
    el.appendChild(tools);

    const prefix = this.map ? this.map.prefix : "hm";
    if (this.tool === "terrain" || this.tool === "level") {
      if (this.tool === "terrain") {
        const layer = this._group("editor.hex.layer");
        layer.appendChild(
          this._button(
            "base",
            this.t("editor.hex.base"),
            !this.added,
            set(() => (this.added = false)),
          ),
        );
        layer.appendChild(
          this._button(
            "added",
            this.t("editor.hex.added"),
            this.added,
            set(() => (this.added = true)),
          ),
        );
        el.appendChild(layer);
      }
      const brush = this._group("editor.hex.brush");
      for (const b of BRUSHES) {
        brush.appendChild(
          this._button(
            "brush-" + b.id,
            this.t(b.key),
            this.brush === b.id,
            set(() => (this.brush = b.id)),
          ),
        );
      }
      el.appendChild(brush);
    }
    if (this.tool === "terrain") {
      const list = this._group("editor.hex.terrains", "he-swatches");
      for (const id of this.cat.terrains) {
        list.appendChild(
          this._button(
            "terrain-" + id,
            this.t("terrain." + id),
            !this.erase && this.terrain === id,
            set(() => {
              this.terrain = id;
              this.erase = false;
            }),
            terrainSwatch(id, 0, prefix),
          ),
        );
      }
      el.appendChild(list);
    } else if (this.tool === "level") {
      // The usual levels (0 to 5) as buttons, the chosen one beside them when it is beyond,
      // and a step down and up to reach every level the system allows.
      const lo = this.cat.levels.min;
      const hi = this.cat.levels.max;
      const shown = [];
      for (let n = Math.max(lo, 0); n <= Math.min(hi, 5); n++) shown.push(n);
      if (shown.indexOf(this.level) < 0) shown.push(this.level);
      shown.sort((a, b) => a - b);
      const list = this._group("editor.hex.levels", "he-swatches");
      const stepper = (id, key, d) => {
        const b = this._button(
          id,
          d < 0 ? "\u2212" : "+",
          null,
          set(() => {
            this.level = clamp(this.level + d, lo, hi);
            this.erase = false;
          }),
          "",
          "he-level-btn",
        );
        b.setAttribute("aria-label", this.t(key));
        b.setAttribute("title", this.t(key));
        b.disabled = d < 0 ? this.level <= lo : this.level >= hi;
        return b;
      };
      list.appendChild(stepper("level-down", "editor.hex.level_down", -1));
      for (const n of shown) {
        const b = this._button(
          "level-" + n,
          String(n),
          !this.erase && this.level === n,
          set(() => {
            this.level = n;
            this.erase = false;
          }),
          terrainSwatch(null, Math.max(0, n), prefix),
          "he-level-btn",
        );
        b.setAttribute("aria-label", this.t("editor.hex.level_n", { n }));
        list.appendChild(b);
      }
      list.appendChild(stepper("level-up", "editor.hex.level_up", 1));
      el.appendChild(list);
    } else if (this.tool === "hexside") {
      const list = this._group("editor.hex.features", "he-swatches");
      for (const f of this.cat.features) {
        list.appendChild(
          this._button(
            "feature-" + f,
            this.t("feature." + f),
            !this.erase && this.feature === f,
            set(() => {
              this.feature = f;
              this.erase = false;
            }),
            featureSwatch(f),
          ),
        );
      }
      el.appendChild(list);
      if (this.cat.directional.has(this.feature)) {
        const up = this._group("editor.hex.up_side");
        up.appendChild(
          this._button(
            "flip",
            this.t("editor.hex.flip"),
            this.flip,
            set(() => (this.flip = !this.flip)),
          ),
        );
        el.appendChild(up);
      }
    } else if (this.tool === "road") {
      const list = this._group("editor.hex.road_kinds", "he-swatches");
      for (const k of this.cat.roadKinds) {
        list.appendChild(
          this._button(
            "road-" + k,
            this.t("connection." + k),
            !this.erase && this.roadKind === k,
            set(() => {
              this.roadKind = k;
              this.erase = false;
            }),
            roadSwatch(k),
          ),
        );
      }
      el.appendChild(list);
    }

    const hint = document.createElement("p");
    hint.className = "he-hint";
    hint.textContent = this._hintText();
    el.appendChild(hint);
    if (this._pending) {
      const cancel = this._button("cancel-pick", this.t("ui.cancel"), null, () =>
        this._cancelPending(),
      );
      el.appendChild(cancel);
    }
    if (focusId) {
      const again = el.querySelector(`[data-tool="${focusId}"]`);
      if (again) again.focus();
    }
  }

  _hintText() {
    if (this._pending && this._pending.kind === "unit") return this.t("editor.hex.hint_unit");
    if (this._pending) return this.t(this._pending.key || "editor.hex.hint_point");
    if (this.erase) return this.t("editor.hex.hint_erase_" + this.tool);
    if (this.tool === "hexside" && this.cat.directional.has(this.feature)) {
      return this.t(this.flip ? "editor.hex.hint_up_far" : "editor.hex.hint_up_near");
    }
    return this.t("editor.hex.hint_" + this.tool);
  }

  // Strokes paint except with the names tool and while a tap is awaited (a drag then pans).
  _syncStroke() {
    if (!this.map) return;
    const on = !this._pending && this.tool !== "label";
    this.map.setStrokeHandler(on ? (ev) => this._onStroke(ev) : null);
  }

  // ---- taps ---------------------------------------------------------------------------------

  _tapAt(pt, pointerType) {
    const grid = this.map && this.map.grid;
    if (!grid) return;
    const label = grid.labelAt(pt.x, pt.y);
    const pending = this._pending;
    if (pending) {
      if (pending.kind === "point") {
        this._pending = null;
        this._afterPending();
        pending.resolve({ x: pt.x, y: pt.y });
      } else if (label) {
        this._pending = null;
        this._afterPending();
        this._placeAt(pending.id, label);
      }
      return;
    }
    if (this.tool === "terrain" || this.tool === "level") {
      this._strokeStart(pt);
      this._strokeEnd();
    } else if (this.tool === "hexside") {
      const e = this._edgeAt(pt.x, pt.y, 1.4);
      if (!e) {
        this.ctx.message(this.t("editor.hex.near_hexside"), "info");
        return;
      }
      this._changeSides([e], "toggle");
    } else if (this.tool === "road") {
      if (!label) return;
      if (this.erase) this._eraseRoads([label]);
      else this.ctx.message(this.t("editor.hex.hint_road"), "info");
    } else if (this.tool === "label" && label) {
      const labels = (this.scenario.map.labels || []).map((l, i) => ({ l, i }));
      const here = labels.filter((x) => x.l && x.l.hex === label);
      if (this.erase) {
        if (!here.length) return;
        this.draft.change((s) => {
          s.map.labels = (s.map.labels || []).filter((l) => !l || l.hex !== label);
        }, "editor.hex.step_label");
      } else {
        this._openForm(label, here.length ? here[0].i : -1);
      }
    }
  }

  _placeAt(id, label) {
    const unit = (this.scenario.units || []).find((u) => u && u.id === id);
    if (!unit) return;
    const turn = unit.hex === label && this.facing;
    this.draft.change(
      (s) => {
        const u = s.units.find((x) => x && x.id === id);
        if (turn) {
          const span = this.facing.max - this.facing.min + 1;
          const f = typeof u.facing === "number" ? u.facing : this.facing.min;
          u.facing = this.facing.min + ((f - this.facing.min + 1) % span);
        } else u.hex = label;
      },
      turn ? "editor.hex.step_facing" : "editor.hex.step_unit",
    );
  }

  _setPending(p) {
    this._cancelPending();
    this._closeForm();
    this._pending = p;
    this._afterPending();
  }

  _afterPending() {
    if (!this.map) return;
    this.map.svg.classList.toggle("he-picking", Boolean(this._pending));
    this._syncStroke();
    this._renderTools();
  }

  _cancelPending() {
    const p = this._pending;
    if (!p) return;
    this._pending = null;
    if (p.kind === "point") p.resolve(null);
    this._afterPending();
  }

  _onKey(e) {
    if (e.key !== "Escape" && e.key !== "Esc") return;
    if (this._form) {
      this._closeForm();
      e.preventDefault();
    } else if (this._pending) {
      this._cancelPending();
      e.preventDefault();
    }
  }

  // ---- strokes ------------------------------------------------------------------------------

  _onStroke(ev) {
    if (ev.phase === "start") this._strokeStart(ev);
    else if (ev.phase === "move") this._strokeMove(ev);
    else if (ev.phase === "end") {
      this._strokeMove(ev);
      this._strokeEnd();
    } else this._strokeCancel();
  }

  _strokeStart(pt) {
    this._strokeCancel();
    const tool = this.tool;
    if (tool === "terrain" || tool === "level") {
      this._stroke = { kind: "hexes", last: null, changes: new Map(), els: new Map() };
      if (this.brush === "fill") this._stroke.fillAt = pt;
      else this._paintAt(pt);
    } else if (tool === "hexside") {
      this._stroke = { kind: "sides", edges: new Map(), at: null };
      this._sidesAt(pt);
    } else if (tool === "road") {
      this._stroke = { kind: "road", chain: [], marks: new Map() };
      this._roadAt(pt);
    }
  }

  _strokeMove(pt) {
    const s = this._stroke;
    if (!s || !(isFinite(pt.x) && isFinite(pt.y))) return;
    if (s.kind === "hexes" && !s.fillAt) this._paintAt(pt);
    else if (s.kind === "sides") this._sidesAt(pt);
    else if (s.kind === "road") this._roadAt(pt);
  }

  _strokeCancel() {
    if (!this._stroke) return;
    this._stroke = null;
    this._clearOverlays();
  }

  // The stroke written as one change (the overlays stay until update() draws it).
  _strokeEnd() {
    const s = this._stroke;
    this._stroke = null;
    if (!s) return;
    if (s.kind === "hexes") {
      if (s.fillAt) {
        this._clearOverlays();
        this._fill(s.fillAt);
        return;
      }
      if (!s.changes.size) return;
      this.draft.change((sc) => {
        const hexes = sc.map.hexes || (sc.map.hexes = {});
        s.changes.forEach((entry, label) => {
          if (entry) hexes[label] = entry;
          else delete hexes[label];
        });
      }, this._stepKey());
    } else if (s.kind === "sides") {
      if (!s.edges.size) return;
      this._changeSides(Array.from(s.edges.values()), "add");
    } else if (s.kind === "road") {
      if (this.erase) {
        if (s.chain.length) this._eraseRoads(s.chain);
        else this._clearOverlays();
      } else if (s.chain.length >= 2) {
        const kind = this.roadKind;
        const chain = s.chain.slice();
        this.draft.change((sc) => addRoad(sc.map, kind, chain), "editor.hex.step_road");
      } else this._clearOverlays();
    }
  }

  _stepKey() {
    if (this.erase) return "editor.hex.step_erase";
    return this.tool === "level" ? "editor.hex.step_level" : "editor.hex.step_terrain";
  }

  _clearOverlays() {
    if (!this.map) return;
    const L = this.map.layers;
    L.paint.innerHTML = "";
    L.sidesEdit.innerHTML = "";
    L.roadsEdit.innerHTML = "";
  }

  // ---- painting hexes -----------------------------------------------------------------------

  // Paint the brush at map point pt, and along the line from the last hex painted (a fast
  // drag skips no hex).
  _paintAt(pt) {
    const s = this._stroke;
    const grid = this.map.grid;
    const a = axialAt(grid, pt.x, pt.y);
    if (s.last && s.last[0] === a[0] && s.last[1] === a[1]) return;
    const path = s.last ? hexLine(s.last, a).slice(1) : [a];
    s.last = a;
    const radius = typeof this.brush === "number" ? this.brush : 0;
    for (const c of path) {
      for (const label of around(grid, c, radius)) this._paintHex(label);
    }
  }

  // The entry a hex gets from the tool (null: nothing listed).
  _painted(old) {
    const fallback = this._fallback();
    let terrain = terrainOf(old, fallback);
    let level = (old && old.level) || 0;
    if (this.tool === "level") {
      level = this.erase ? 0 : this.level;
    } else if (this.erase) {
      terrain = this.added ? terrain.slice(0, 1) : [fallback];
    } else if (this.added) {
      if (terrain.indexOf(this.terrain) < 0) terrain.push(this.terrain);
    } else {
      terrain = [this.terrain].concat(terrain.slice(1).filter((t) => t !== this.terrain));
    }
    return makeEntry(old, terrain, level, fallback);
  }

  _paintHex(label) {
    const s = this._stroke;
    const hexes = this.scenario.map.hexes || {};
    const old = s.changes.has(label) ? s.changes.get(label) : hexes[label] || null;
    const next = this._painted(old);
    if (JSON.stringify(next) === JSON.stringify(old)) return;
    s.changes.set(label, next);
    this._drawHex(label, next);
  }

  // One hex drawn in the overlay as the terrain layer would draw it.
  _drawHex(label, entry) {
    const s = this._stroke;
    const map = this.scenario.map;
    const p = this.map.grid.parse(label);
    const one = new HexGrid(
      Object.assign({}, map, { first_column: p.col, columns: 1, first_row: p.row, rows: 1 }),
    );
    const hexes = {};
    if (entry) hexes[label] = entry;
    const t = terrainSvg(one, { hexes, default_terrain: map.default_terrain }, this.map.prefix);
    const layer = this.map.layers.paint;
    const old = s.els.get(label);
    if (old && old.parentNode) old.parentNode.removeChild(old);
    layer.insertAdjacentHTML("beforeend", `<g data-painted="${label}">${t.svg}</g>`);
    s.els.set(label, layer.lastChild);
    if (this.tool === "level") this._drawLevel(label, (entry && entry.level) || 0);
  }

  // Fill: the connected hexes of the same terrain (or level) as the one tapped.
  _fill(pt) {
    const grid = this.map.grid;
    const start = grid.labelAt(pt.x, pt.y);
    if (!start) return;
    const map = this.scenario.map;
    const hexes = map.hexes || {};
    const fallback = this._fallback();
    const keyOf =
      this.tool === "level"
        ? (label) => String((hexes[label] && hexes[label].level) || 0)
        : (label) => JSON.stringify(terrainOf(hexes[label], fallback));
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
    const changes = new Map();
    seen.forEach((label) => {
      const old = hexes[label] || null;
      const next = this._painted(old);
      if (JSON.stringify(next) !== JSON.stringify(old)) changes.set(label, next);
    });
    if (!changes.size) return;
    this.draft.change((sc) => {
      const out = sc.map.hexes || (sc.map.hexes = {});
      changes.forEach((entry, label) => {
        if (entry) out[label] = entry;
        else delete out[label];
      });
    }, this._stepKey());
  }

  // Level numbers printed in every hex off level 0 while the elevation tool is chosen.
  _drawLevels() {
    if (!this.map) return;
    const layer = this.map.layers.levels;
    if (this.tool !== "level" || !this.map.grid) {
      layer.innerHTML = "";
      return;
    }
    const grid = this.map.grid;
    const hexes = this.scenario.map.hexes || {};
    let s = "";
    for (const label of Object.keys(hexes)) {
      const lv = (hexes[label] && hexes[label].level) || 0;
      if (lv && grid.has(label)) s += this._levelText(label, lv);
    }
    layer.innerHTML = s;
  }

  _levelText(label, level) {
    const p = this.map.grid.center(label);
    return `<text data-level-of="${label}" x="${r1(p[0])}" y="${r1(p[1] + 7)}">${level}</text>`;
  }

  _drawLevel(label, level) {
    const layer = this.map.layers.levels;
    const old = layer.querySelector(`[data-level-of="${label}"]`);
    if (old) old.parentNode.removeChild(old);
    if (level) layer.insertAdjacentHTML("beforeend", this._levelText(label, level));
  }

  // ---- hexsides -----------------------------------------------------------------------------

  // The hexside near map point (x, y): {a, b, side} (side: the hex the point is in), or null
  // when the point is not near the middle part of a hexside between two hexes of the map.
  // `reach` widens the distance allowed (taps reach further than drags).
  _edgeAt(x, y, reach) {
    const grid = this.map.grid;
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
    const tol = clamp((SIDE_PX * reach) / (this.map.zoom || 1), SIZE * 0.15, SIZE * 0.45);
    if (off > tol || along > (SIZE / 2) * SIDE_ALONG) return null;
    return { a: la, b: lb, side: la };
  }

  // A drag along hexsides: each hexside it passes near (sampled between pointer events).
  _sidesAt(pt) {
    const s = this._stroke;
    const from = s.at || pt;
    const n = Math.max(1, Math.ceil(Math.hypot(pt.x - from.x, pt.y - from.y) / (SIZE / 6)));
    for (let i = s.at ? 1 : 0; i <= n; i++) {
      const x = from.x + ((pt.x - from.x) * i) / n;
      const y = from.y + ((pt.y - from.y) * i) / n;
      const e = this._edgeAt(x, y, 1);
      if (!e) continue;
      const key = sideKey(e.a, e.b);
      let rec = s.edges.get(key);
      if (!rec) {
        rec = { a: e.a, b: e.b, side: e.side, votes: {} };
        s.edges.set(key, rec);
        this._drawSide(rec);
      }
      rec.votes[e.side] = (rec.votes[e.side] || 0) + 1;
    }
    s.at = { x: pt.x, y: pt.y };
  }

  // The up hex of a hexside picked from `side` (the flip control takes the other).
  _upOf(rec) {
    let side = rec.side;
    if (rec.votes) {
      const va = rec.votes[rec.a] || 0;
      const vb = rec.votes[rec.b] || 0;
      if (va !== vb) side = va > vb ? rec.a : rec.b;
    }
    if (!this.flip) return side;
    return side === rec.a ? rec.b : rec.a;
  }

  _drawSide(rec) {
    const layer = this.map.layers.sidesEdit;
    if (this.erase || !this.feature) {
      const e = edgeBetween(this.map.grid, rec.a, rec.b);
      layer.insertAdjacentHTML(
        "beforeend",
        `<line class="he-erase-mark" x1="${r1(e.x1)}" y1="${r1(e.y1)}" x2="${r1(e.x2)}" y2="${r1(e.y2)}"/>`,
      );
      return;
    }
    const entry = { between: [rec.a, rec.b], features: [this.feature] };
    if (this.cat.directional.has(this.feature)) entry.up = this._upOf(rec);
    const s = hexsidesSvg(this.map.grid, { hexsides: [entry] });
    layer.insertAdjacentHTML("beforeend", s.svg + s.bridges);
  }

  // Write hexside picks: mode "toggle" (a tap: the feature on, or off; a directional one
  // tapped from its low side turns its up side there) or "add" (a drag); the eraser clears
  // every feature of the hexside.
  _changeSides(recs, mode) {
    const f = this.feature;
    const erase = this.erase || !f;
    const directional = this.cat.directional;
    const picks = recs.map((rec) => ({ a: rec.a, b: rec.b, up: this._upOf(rec) }));
    this.draft.change(
      (sc) => {
        const list = sc.map.hexsides || (sc.map.hexsides = []);
        for (const pick of picks) {
          const i = list.findIndex((h) => sameSide(h, pick.a, pick.b));
          if (erase) {
            if (i >= 0) list.splice(i, 1);
            continue;
          }
          let entry = i >= 0 ? list[i] : null;
          const has = Boolean(entry) && (entry.features || []).indexOf(f) >= 0;
          if (mode === "toggle" && has) {
            if (directional.has(f) && entry.up !== pick.up) {
              entry.up = pick.up;
              continue;
            }
            entry.features = entry.features.filter((x) => x !== f);
            if (!entry.features.some((x) => directional.has(x))) delete entry.up;
            if (!entry.features.length) list.splice(i, 1);
            continue;
          }
          if (!entry) {
            entry = { between: [pick.a, pick.b], features: [] };
            list.push(entry);
          }
          if (!has) entry.features = (entry.features || []).concat([f]);
          if (directional.has(f)) entry.up = pick.up;
        }
      },
      erase ? "editor.hex.step_erase" : "editor.hex.step_hexside",
    );
  }

  // ---- roads --------------------------------------------------------------------------------

  // A drag through hexes: the chain grows by each hex entered (the line between, when a fast
  // drag skips some); going back to the hex before takes the last one off.
  _roadAt(pt) {
    const s = this._stroke;
    const grid = this.map.grid;
    const a = axialAt(grid, pt.x, pt.y);
    const label = labelOf(grid, a);
    if (!label) return;
    const chain = s.chain;
    const last = chain[chain.length - 1];
    if (label === last) return;
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
    this._drawChain();
  }

  _drawChain() {
    const s = this._stroke;
    const layer = this.map.layers.roadsEdit;
    if (this.erase) {
      const grid = this.map.grid;
      layer.innerHTML = s.chain
        .map((l) => {
          const p = grid.center(l);
          return `<polygon class="he-erase-hex" points="${grid.points(p[0], p[1])}"/>`;
        })
        .join("");
      return;
    }
    const road = { kind: this.roadKind, hexes: s.chain };
    layer.innerHTML = roadsSvg(this.map.grid, { roads: [road] }, "");
  }

  _eraseRoads(labels) {
    const gone = new Set(labels);
    const touched = (this.scenario.map.roads || []).some((r) =>
      (r.hexes || []).some((h) => gone.has(h)),
    );
    if (!touched) {
      this._clearOverlays();
      return;
    }
    this.draft.change((sc) => cutRoads(sc.map, gone), "editor.hex.step_erase");
  }

  // ---- names on the map ---------------------------------------------------------------------

  _openForm(label, index) {
    this._closeForm();
    const existing = index >= 0 ? this.scenario.map.labels[index] : null;
    const form = document.createElement("form");
    form.className = "he-label-form";
    const field = document.createElement("label");
    const caption = document.createElement("span");
    caption.textContent = this.t("editor.hex.label_text", { hex: label });
    const input = document.createElement("input");
    input.type = "text";
    input.name = "text";
    input.autocomplete = "off";
    input.value = existing ? existing.text || "" : "";
    field.appendChild(caption);
    field.appendChild(input);
    form.appendChild(field);
    const row = document.createElement("div");
    row.className = "he-form-row";
    const save = document.createElement("button");
    save.type = "submit";
    save.className = "he-btn";
    save.textContent = this.t("editor.hex.label_save");
    row.appendChild(save);
    if (existing) {
      const remove = this._button("label-remove", this.t("editor.hex.label_remove"), null, () => {
        this._closeForm();
        this._writeLabel(label, index, "");
      });
      row.appendChild(remove);
    }
    const cancel = this._button("label-cancel", this.t("ui.cancel"), null, () => this._closeForm());
    row.appendChild(cancel);
    form.appendChild(row);
    // Keys typed in the box are the box's: not the map's (arrows, Enter) nor the page's.
    form.addEventListener("keydown", (e) => {
      e.stopPropagation();
      if (e.key === "Escape" || e.key === "Esc") {
        e.preventDefault();
        this._closeForm();
        if (this.map) this.map.focus();
      }
    });
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = input.value.trim();
      this._closeForm();
      this._writeLabel(label, index, text);
    });
    this.ctx.mapEl.appendChild(form);
    this._form = form;
    this._markHex(label);
    input.focus();
  }

  _closeForm() {
    const form = this._form;
    this._form = null;
    if (form && form.parentNode) form.parentNode.removeChild(form);
    if (this.map) this._drawMark(false);
  }

  // Write a name (index < 0: a new one); an empty text removes the name.
  _writeLabel(hex, index, text) {
    if (index < 0 && !text) return;
    this.draft.change((sc) => {
      const labels = sc.map.labels || (sc.map.labels = []);
      if (!text) labels.splice(index, 1);
      else if (index >= 0) labels[index].text = text;
      else labels.push({ hex, text });
      if (!labels.length) delete sc.map.labels;
    }, "editor.hex.step_label");
  }

  // ---- highlight ----------------------------------------------------------------------------

  // An outline round one hex (the one a name is being typed for).
  _markHex(label) {
    const grid = this.map.grid;
    const p = grid.center(label);
    if (!p) return;
    const pts = grid.points(p[0], p[1]);
    this.map.layers.mark.innerHTML =
      `<polygon class="he-mark-casing" points="${pts}"/>` +
      `<polygon class="he-mark" data-mark="hex" points="${pts}"/>`;
  }

  // The highlighted place outlined, and (centre) brought to the middle of the view.
  _drawMark(centre) {
    const layer = this.map.layers.mark;
    const place = this._place;
    const grid = this.map.grid;
    layer.innerHTML = "";
    if (!place || !grid) {
      if (this._markedUnit) this.map.selectUnit(null);
      this._markedUnit = null;
      return;
    }
    const map = this.scenario.map;
    const hexPoly = (label, kind) => {
      const p = grid.has(String(label)) ? grid.center(String(label)) : null;
      if (!p) return null;
      const pts = grid.points(p[0], p[1]);
      return {
        svg:
          `<polygon class="he-mark-casing" points="${pts}"/>` +
          `<polygon class="he-mark" data-mark="${kind}" points="${pts}"/>`,
        pts: [p],
      };
    };
    let out = null;
    if (place.kind === "hex") out = hexPoly(place.id, "hex");
    else if (place.kind === "hexside" && Array.isArray(place.id)) {
      const e = edgeBetween(grid, String(place.id[0]), String(place.id[1]));
      if (e) {
        const ln = `x1="${r1(e.x1)}" y1="${r1(e.y1)}" x2="${r1(e.x2)}" y2="${r1(e.y2)}"`;
        out = {
          svg: `<line class="he-mark-casing" ${ln}/><line class="he-mark" data-mark="hexside" ${ln}/>`,
          pts: [[e.mx, e.my]],
        };
      }
    } else if (place.kind === "road") {
      const road = (map.roads || [])[place.index];
      const pts = ((road && road.hexes) || [])
        .filter((l) => grid.has(String(l)))
        .map((l) => grid.center(String(l)));
      if (pts.length) {
        const ps = pts.map((p) => r1(p[0]) + "," + r1(p[1])).join(" ");
        out = {
          svg:
            `<polyline class="he-mark-casing" points="${ps}"/>` +
            `<polyline class="he-mark" data-mark="road" points="${ps}"/>`,
          pts,
        };
        if (pts.length === 1) out = hexPoly(road.hexes[0], "road");
      }
    } else if (place.kind === "label") {
      const lab = (map.labels || [])[place.index];
      if (lab) out = hexPoly(lab.hex, "label");
    } else if (place.kind === "unit") {
      const unit = (this.scenario.units || []).find((u) => u && u.id === place.id);
      if (unit) {
        out = hexPoly(unit.hex, "unit");
        if (this._markedUnit !== unit.id) this.map.selectUnit(unit.id);
        this._markedUnit = unit.id;
      }
    }
    if (place.kind !== "unit" && this._markedUnit) {
      this.map.selectUnit(null);
      this._markedUnit = null;
    }
    if (!out) return;
    layer.innerHTML = out.svg;
    if (centre) this.map.centerOnPoints(out.pts);
  }

  // ---- words for the keyboard's live region --------------------------------------------------

  _describe(what) {
    if (!what || what.kind !== "hex") return "";
    const parts = [this.t("ui.hex_title", { hex: what.hex })];
    parts.push((what.terrain || []).map((t) => this.t("terrain." + t)).join(", "));
    if (what.level) parts.push(this.t("editor.hex.level_n", { n: what.level }));
    return parts.join(". ");
  }
}
