// The hex editor's map (static/editor/hexedit.js): HexMap with the editor's layers (a stroke's
// overlays, level numbers, the mark), drawn again layer by layer as the data changes; and the
// HexEditor's methods that draw the level numbers and the mark of a place.
import { HexMap } from "../render/hex.js";
import { edgeBetween } from "../render/hexgrid.js";
import { terrainSvg, hexsidesSvg, roadsSvg, placeNamesSvg } from "../render/hexterrain.js";
import { r1 } from "../render/svg.js";

const SVGNS = "http://www.w3.org/2000/svg";
// At most how many stacks a change of the units' looks alone (not where they stand) redraws
// one by one; more, and every counter is drawn again at once.
const RESTACK_MOST = 50;

// ---- the map: HexMap with the editor's layers ---------------------------------------------

export class EditMap extends HexMap {
  constructor(container, editor) {
    super(container, {});
    this._editor = editor;
    this.wholeAtFirst = true; // every edge hex within reach of a finger
    this.svg.classList.add("he-svg");
    // Overlays of a stroke in progress, each above the layer it stands for; level numbers;
    // the highlighted place on top.
    this._insertLayer("offmap", "he-layer he-offmap", this.layers.hexsides);
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
  // changed are drawn again (all of them when `full`), and the view stays. The hexes off the
  // map (map.off_map) are shaded over the terrain.
  draw(file, full) {
    this._drawMap(file, full);
    this._drawOffMap(file.map);
  }

  // Play covers the hexes off the map and ignores taps there; the editor shades them its own
  // way (_drawOffMap) and paints them back.
  _drawOffBoard() {
    this._off = null;
    this.layers.offmap.innerHTML = "";
  }

  _drawOffMap(map) {
    const grid = this._grid;
    const key = JSON.stringify([this._keys.geom, map.off_map || []]);
    if (!grid || key === this._offKey) return;
    this._offKey = key;
    let svg = "";
    for (const label of map.off_map || []) {
      const c = grid.has(label) ? grid.center(label) : null;
      if (c)
        svg += `<polygon class="he-off" data-off="${label}" points="${grid.points(c[0], c[1])}"/>`;
    }
    this.layers.offmap.innerHTML = svg;
  }

  _drawMap(file, full) {
    const scenario = this._worded(file);
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
      labels: JSON.stringify(map.labels || []), // in the editor's language (_worded)
    };
    const old = this._keys;
    this._keys = keys;
    // What the counters show: where each unit on the map stands (and the sides' colours), and
    // how each looks (a counter shows no formation). A change of looks alone (a name, a
    // rating) redraws only the stacks it touches.
    const placed = (scenario.units || []).filter((u) => u && u.hex);
    const noFormation = (k, v) => (k === "formation" ? undefined : v);
    const where = JSON.stringify([placed.map((u) => [u.id, u.hex]), scenario.sides || []]);
    const whereOld = this._whereKey;
    this._whereKey = where;
    const looksOld = this._looks || new Map();
    this._looks = new Map(placed.map((u) => [String(u.id), JSON.stringify(u, noFormation)]));
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
    if (this._chunks) {
      // A big map, drawn by what is in view: its chunks are drawn again as they come in view.
      if (keys.terrain !== old.terrain || keys.sides !== old.sides || keys.roads !== old.roads) {
        this._chunkMap(map);
      }
    } else if (keys.terrain !== old.terrain) {
      const terrain = terrainSvg(grid, map, this._id);
      this.layers.terrain.innerHTML = terrain.svg;
      this._nums = terrain.nums;
    }
    if (!this._chunks && (keys.sides !== old.sides || keys.roads !== old.roads)) {
      const sides = hexsidesSvg(grid, map);
      if (keys.sides !== old.sides) this.layers.hexsides.innerHTML = sides.svg;
      this.layers.roads.innerHTML = roadsSvg(grid, map, sides.bridges);
    }
    if (keys.labels !== old.labels) {
      // The place names only: the hex numbers (the layer's first group) stay.
      const place = this.layers.labels.querySelector(".hm-place");
      if (place) place.parentNode.removeChild(place);
      this.layers.labels.insertAdjacentHTML("beforeend", placeNamesSvg(grid, map));
    }
    // Two thousand counters drawn again are a long frame: only when they would look otherwise.
    this._units = (scenario.units || []).slice(); // as drawn, with their formations
    if (where === whereOld) {
      const hexes = new Set();
      for (const u of placed) {
        if (this._looks.get(String(u.id)) !== looksOld.get(String(u.id))) hexes.add(u.hex);
      }
      if (!hexes.size) return; // nothing the counters show changed
      if (hexes.size <= RESTACK_MOST && this._redrawStacks([...hexes])) return;
    }
    this._drawUnits(scenario.units || []);
  }

  // The scenario with its place names and units' names in the editor's language
  // (docs/scenario-format.md, "Texts in several languages").
  _worded(file) {
    const i18n = this._editor && this._editor.i18n;
    if (!i18n || !i18n.pick) return file;
    const named = (list, field) =>
      (list || []).map((x) => Object.assign({}, x, { [field]: i18n.pick(x[field]) }));
    const map = Object.assign({}, file.map, { labels: named(file.map.labels, "text") });
    if (!file.map.labels) delete map.labels;
    return Object.assign({}, file, { map, units: named(file.units, "name") });
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

// ---- level numbers and the mark (methods of HexEditor) -----------------------------------

export const overlayMethods = {
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
  },

  _levelText(label, level) {
    const p = this.map.grid.center(label);
    return `<text data-level-of="${label}" x="${r1(p[0])}" y="${r1(p[1] + 7)}">${level}</text>`;
  },

  _drawLevel(label, level) {
    const layer = this.map.layers.levels;
    const old = layer.querySelector(`[data-level-of="${label}"]`);
    if (old) old.parentNode.removeChild(old);
    if (level) layer.insertAdjacentHTML("beforeend", this._levelText(label, level));
  },

  // An outline round one hex (the one a name is being typed for).
  _markHex(label) {
    const grid = this.map.grid;
    const p = grid.center(label);
    if (!p) return;
    const pts = grid.points(p[0], p[1]);
    this.map.layers.mark.innerHTML =
      `<polygon class="he-mark-casing" points="${pts}"/>` +
      `<polygon class="he-mark" data-mark="hex" points="${pts}"/>`;
  },

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
  },
};
