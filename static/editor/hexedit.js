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
//
// Beside it: hexstroke.js (the strokes' hex arithmetic and writes, pure functions),
// hexpalette.js (the tool palette), hexeditmap.js (the map with the editor's layers, level
// numbers and the mark of a place).

import { HexGrid, SIZE, edgeBetween } from "../render/hexgrid.js";
import { terrainSvg, hexsidesSvg, roadsSvg } from "../render/hexterrain.js";
import { editedText, shownText } from "./editor_common.js";
import { r1, clamp } from "../render/svg.js";
import {
  axialAt,
  hexLine,
  around,
  sideKey,
  terrainOf,
  cutRoads,
  addRoad,
  painted,
  setHexes,
  setOffMap,
  region,
  edgeNear,
  upOf,
  setSides,
  extendChain,
} from "./hexstroke.js";
import { paletteMethods } from "./hexpalette.js";
import { EditMap, overlayMethods } from "./hexeditmap.js";

// The places highlight() shows.
const OWN_PLACES = ["hex", "hexside", "road", "label", "unit"];

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
        // Once a unit is placed the next one not placed yet is asked for: placing forty
        // units takes forty taps. A turn (a tap on the unit's own hex) ends the placing.
        this._pending = null;
        const placed = this._placeAt(pending.id, label);
        const next = placed ? this._nextUnplaced(pending.id) : null;
        if (next) this._pending = { kind: "unit", id: next.id };
        this._afterPending();
      }
      return;
    }
    if (this.tool === "terrain" || this.tool === "level" || this.tool === "offmap") {
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

  // Place the unit on the hex, or turn it when it stands there: true when it was placed.
  _placeAt(id, label) {
    const unit = (this.scenario.units || []).find((u) => u && u.id === id);
    if (!unit) return false;
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
    return !turn;
  }

  // The units not on the map yet (no hex, no locale), in the order of battle.
  _unplaced() {
    return (this.scenario.units || []).filter((u) => u && !u.hex && !u.locale);
  }

  // The first unit not placed after `id` in the order of battle (from the start again after
  // the last), or null when every other unit is placed.
  _nextUnplaced(id) {
    const units = this.scenario.units || [];
    const at = units.findIndex((u) => u && u.id === id);
    for (let k = 1; k <= units.length; k++) {
      const u = units[(at + k) % units.length];
      if (u && u.id !== id && !u.hex && !u.locale) return u;
    }
    return null;
  }

  // The words of the unit being placed: its name and how many are left after it.
  _placingText() {
    const p = this._pending;
    const unit = p && (this.scenario.units || []).find((u) => u && u.id === p.id);
    if (!unit) return "";
    const left = this._unplaced().filter((u) => u.id !== unit.id).length;
    // The count picks the plural form; the name goes in as it is (a name, not a core word).
    const name = shownText(unit.name, this.i18n) || unit.id;
    return this.t("editor.hex.placing", { count: left }).replace("{name}", () => name);
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
    } else if (tool === "offmap") {
      this._stroke = { kind: "off", last: null, labels: new Set() };
      if (this.brush === "fill") this._stroke.fillAt = pt;
      else this._offAt(pt);
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
    else if (s.kind === "off" && !s.fillAt) this._offAt(pt);
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
      this.draft.change((sc) => setHexes(sc.map, s.changes), this._stepKey());
    } else if (s.kind === "off") {
      if (s.fillAt) {
        // The connected hexes of the terrain tapped (a sea, a lake) at once.
        const grid = this.map.grid;
        const start = grid.labelAt(s.fillAt.x, s.fillAt.y);
        if (start) {
          const hexes = this.scenario.map.hexes || {};
          const fallback = this._fallback();
          const keyOf = (label) => JSON.stringify(terrainOf(hexes[label], fallback));
          region(grid, start, keyOf).forEach((label) => s.labels.add(label));
        }
      }
      const off = new Set(this.scenario.map.off_map || []);
      const labels = Array.from(s.labels).filter((l) => off.has(l) === Boolean(this.erase));
      if (!labels.length) {
        this._clearOverlays();
        return;
      }
      const erase = Boolean(this.erase);
      this.draft.change(
        (sc) => setOffMap(sc.map, labels, erase),
        erase ? "editor.hex.step_onmap" : "editor.hex.step_offmap",
      );
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

  // Mark the brush's hexes at map point pt (and along the line from the last) off the map, or
  // back on it with the eraser: drawn in the overlay until the stroke ends.
  _offAt(pt) {
    const s = this._stroke;
    const grid = this.map.grid;
    const a = axialAt(grid, pt.x, pt.y);
    if (s.last && s.last[0] === a[0] && s.last[1] === a[1]) return;
    const path = s.last ? hexLine(s.last, a).slice(1) : [a];
    s.last = a;
    const radius = typeof this.brush === "number" ? this.brush : 0;
    const layer = this.map.layers.paint;
    for (const c of path) {
      for (const label of around(grid, c, radius)) {
        if (s.labels.has(label)) continue;
        s.labels.add(label);
        const [x, y] = grid.center(label);
        const cls = this.erase ? "he-off-edit he-on" : "he-off-edit";
        layer.insertAdjacentHTML(
          "beforeend",
          `<polygon class="${cls}" data-off="${label}" points="${grid.points(x, y)}"/>`,
        );
      }
    }
  }

  // The entry a hex gets from the tool (null: nothing listed).
  _painted(old) {
    return painted(old, this, this._fallback());
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
    const changes = new Map();
    region(grid, start, keyOf).forEach((label) => {
      const old = hexes[label] || null;
      const next = this._painted(old);
      if (JSON.stringify(next) !== JSON.stringify(old)) changes.set(label, next);
    });
    if (!changes.size) return;
    this.draft.change((sc) => setHexes(sc.map, changes), this._stepKey());
  }

  // ---- hexsides -----------------------------------------------------------------------------

  // The hexside near map point (x, y) (hexstroke.js edgeNear); `reach` widens the distance
  // allowed (taps reach further than drags).
  _edgeAt(x, y, reach) {
    return edgeNear(this.map.grid, x, y, reach, this.map.zoom);
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
    if (this.cat.directional.has(this.feature)) entry.up = upOf(rec, this.flip);
    const s = hexsidesSvg(this.map.grid, { hexsides: [entry] });
    layer.insertAdjacentHTML("beforeend", s.svg + s.bridges);
  }

  // Write hexside picks (hexstroke.js setSides): mode "toggle" (a tap) or "add" (a drag); the
  // eraser clears every feature of the hexside.
  _changeSides(recs, mode) {
    const f = this.feature;
    const erase = this.erase || !f;
    const directional = this.cat.directional;
    const picks = recs.map((rec) => ({ a: rec.a, b: rec.b, up: upOf(rec, this.flip) }));
    this.draft.change(
      (sc) => setSides(sc.map, picks, f, erase, directional, mode),
      erase ? "editor.hex.step_erase" : "editor.hex.step_hexside",
    );
  }

  // ---- roads --------------------------------------------------------------------------------

  // A drag through hexes: the road's chain follows it (hexstroke.js extendChain).
  _roadAt(pt) {
    const grid = this.map.grid;
    if (extendChain(grid, this._stroke.chain, axialAt(grid, pt.x, pt.y))) this._drawChain();
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
    input.value = existing ? this.i18n.pick(existing.text) : "";
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
      else if (index >= 0)
        labels[index].text = editedText(labels[index].text, text, this.i18n.lang);
      else labels.push({ hex, text });
      if (!labels.length) delete sc.map.labels;
    }, "editor.hex.step_label");
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

// The palette and the overlays, from their modules (see the head of this file).
Object.assign(HexEditor.prototype, paletteMethods, overlayMethods);
