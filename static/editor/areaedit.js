// The area map editor (area-locale): locales drawn as polygons by tapping their corners
// (snapped to the neighbours' corners and borders, so shared borders stay shared), their
// fields, the approach pairs of every shared border (made and dropped with the borders,
// edited direction by direction), roads, and blocks placed by tap. The map is the play
// view's AreaMap with an editing layer on top; every change goes through ctx.draft.change,
// and the core alone says whether the scenario is valid.
//
// Interface (static/editor/CONTRACT of the map editors): new AreaEditor(ctx), mount(),
// update(scenario, info), highlight(place), setPicture(picture), setPictureOpacity(o),
// pickPoint(promptKey), placeUnit(id), mapInfo(), destroy().
//
// Touch: one finger taps and drags corners (a drag off a corner pans), two fingers pan and
// pinch. Mouse: the left button taps and drags, the right or middle button (or Space with
// the left) pans, the wheel zooms. Keys: Escape drops what is being drawn or asked, Delete
// removes the selected corner, Enter closes the locale being drawn.
//
// The map (EditMap) is areaeditmap.js's, the palette's markup and events areapalette.js's
// (mixed into AreaEditor), the geometry areageom.js's.

import { esc, r1 } from "../render/svg.js";
import * as geo from "./areageom.js";
import { EditMap } from "./areaeditmap.js";
import { FALLBACK, paletteMethods } from "./areapalette.js";

const SNAP_PX = 22; // how near (CSS px) a tap must be to a corner or border to snap to it
const HANDLE_PX = 9; // corner handles' radius, CSS px
const DEFAULT_CAPACITY = 4;

function copy(value) {
  return JSON.parse(JSON.stringify(value));
}

export class AreaEditor {
  constructor(ctx) {
    this.ctx = ctx;
    this.draft = ctx.draft;
    this.i18n = ctx.i18n;
    const areas = (ctx.catalog && ctx.catalog.areas) || {};
    this.cat = Object.assign({}, FALLBACK, areas);
    this.mode = "select"; // "select" | "draw" | "road"
    this.sel = null; // {kind: "locale", id, corner: [x, y] | null} | {kind: "approach", id}
    this.drawing = []; // the corners of the locale being drawn
    this.road = { kind: this.cat.road_kinds[0] || "primary", chain: [] };
    this.pending = null; // {kind: "pick", resolve, key} | {kind: "place", id}
    this.place = null; // the place highlight() shows
    this.drag = null; // a corner being moved, or a one-finger pan
    this.picture = null;
    this.map = null;
    this._raf = 0;
  }

  t(key, params) {
    return this.i18n.t(key, params);
  }

  get scenario() {
    return this.draft.scenario;
  }

  get locales() {
    const m = this.scenario && this.scenario.map;
    return (m && m.locales) || [];
  }

  // ---- the interface -------------------------------------------------------------

  mount() {
    const el = this.ctx.mapEl;
    this.box = document.createElement("div");
    this.box.className = "ae-map";
    el.appendChild(this.box);
    this.map = new EditMap(this.box, this);
    if (typeof this.map.setStrokeHandler === "function") {
      this.map.setStrokeHandler((s) => this._stroke(s));
    }
    this._onKey = (e) => this._key(e);
    this.box.addEventListener("keydown", this._onKey);

    this.tools = document.createElement("div");
    this.tools.className = "ae-tools";
    this.ctx.toolsEl.appendChild(this.tools);
    this._onClick = (e) => this._click(e);
    this._onChange = (e) => this._change(e);
    this.tools.addEventListener("click", this._onClick);
    this.tools.addEventListener("change", this._onChange);
    this._redraw(true);
    this._renderTools();
  }

  update(scenario, info) {
    const kind = info && info.kind;
    const fresh = kind === "replace" || kind === "load";
    if (fresh) {
      this.drawing = [];
      this.road.chain = [];
    }
    this._keepSelection();
    this._redraw(fresh);
    this._renderTools();
  }

  highlight(place) {
    const ok = place && ["locale", "approach", "unit"].indexOf(place.kind) >= 0;
    this.place = ok ? place : null;
    this._light();
    if (!this.place) return;
    const at = this._placeOf(this.place);
    if (at) this.map.centerOn(at);
  }

  setPicture(picture) {
    this.picture = picture || null;
    if (this.map && typeof this.map.setPicture === "function") this.map.setPicture(this.picture);
    if (this.box) this.box.classList.toggle("ae-with-picture", !!this.picture);
  }

  setPictureOpacity(o) {
    if (this.picture) this.picture = Object.assign({}, this.picture, { opacity: o });
    if (this.map && typeof this.map.setPictureOpacity === "function") {
      this.map.setPictureOpacity(o);
    }
  }

  pickPoint(promptKey) {
    this._settlePending(null);
    return new Promise((resolve) => {
      this.pending = { kind: "pick", resolve, key: promptKey };
      this._renderTools();
    });
  }

  placeUnit(id) {
    this._settlePending(null);
    this.pending = { kind: "place", id };
    this._renderTools();
  }

  mapInfo() {
    const m = (this.scenario && this.scenario.map) || {};
    return { kind: "areas", width: m.width || 0, height: m.height || 0 };
  }

  destroy() {
    this._settlePending(null);
    if (this._raf) cancelAnimationFrame(this._raf);
    if (this.map) this.map.destroy();
    if (this.box) {
      this.box.removeEventListener("keydown", this._onKey);
      this.box.remove();
    }
    if (this.tools) {
      this.tools.removeEventListener("click", this._onClick);
      this.tools.removeEventListener("change", this._onChange);
      this.tools.remove();
    }
    this.map = null;
  }

  // ---- drawing -------------------------------------------------------------------

  _sides() {
    const out = {};
    for (const s of (this.scenario && this.scenario.sides) || []) {
      out[s.id] = Object.assign({}, s, { name: this.i18n.pick(s.name) });
    }
    return out;
  }

  _pieces(scenario) {
    return ((scenario && scenario.units) || [])
      .filter((u) => u && u.locale != null)
      .map((u) => ({
        id: u.id,
        side: u.side,
        locale: u.locale,
        approach: u.approach || null,
        type: u.type,
        steps: u.steps,
        name: this.i18n.pick(u.name),
        hidden: false,
      }));
  }

  _mapOf(scenario) {
    const m = (scenario && scenario.map) || {};
    return {
      kind: "areas",
      width: m.width || 100,
      height: m.height || 100,
      locales: (m.locales || [])
        .filter((l) => Array.isArray(l.polygon))
        .map((l) => Object.assign({}, l, { name: this.i18n.pick(l.name) })),
      approaches: m.approaches || [],
      roads: m.roads || [],
    };
  }

  _redraw(fit, mapOverride) {
    if (!this.map) return;
    const map = mapOverride || this._mapOf(this.scenario);
    this.map.draw(map, this._sides(), this._pieces(this.scenario), fit);
    this._light();
    this._drawOverlay();
  }

  _keepSelection() {
    const s = this.sel;
    if (!s) return;
    if (s.kind === "locale") {
      const loc = this.locales.find((l) => l.id === s.id);
      if (!loc) this.sel = null;
      else if (s.corner && !loc.polygon.some((p) => geo.samePoint(p, s.corner))) s.corner = null;
    } else if (s.kind === "approach") {
      const aps = (this.scenario.map && this.scenario.map.approaches) || [];
      if (!aps.some((ap) => ap.from + "/" + ap.facing === s.id)) this.sel = null;
    }
  }

  _placeOf(place) {
    if (place.kind === "unit") {
      const u = ((this.scenario && this.scenario.units) || []).find((x) => x.id === place.id);
      if (!u) return null;
      return u.approach ? u.locale + "/" + u.approach : u.locale;
    }
    return String(place.id);
  }

  _light() {
    if (!this.map) return;
    const p = this.place;
    if (!p) {
      this.map.light(null);
      return;
    }
    if (p.kind === "unit") this.map.light({ places: [], units: [], selected: p.id });
    else this.map.light({ places: [String(p.id)] });
  }

  // The editing layer: the selection with its corner handles, the locale being drawn, the
  // road being drawn, the corner being dragged.
  _drawOverlay() {
    if (!this.map) return;
    const k = this.map.zoom || 1;
    const hr = HANDLE_PX / k;
    const sw = 2.5 / k;
    const handle = (p, cls) =>
      `<circle class="${cls}" cx="${r1(p[0])}" cy="${r1(p[1])}" r="${r1(hr)}" stroke-width="${r1(sw)}"/>`;
    const pts = (poly) => poly.map((p) => r1(p[0]) + "," + r1(p[1])).join(" ");
    let s = "";
    const sel = this.sel;
    const d = this.drag && this.drag.corner ? this.drag : null;
    const locales = d ? d.map.locales : this.locales;
    if (sel && sel.kind === "locale") {
      const loc = locales.find((l) => l.id === sel.id);
      if (loc) {
        s += `<polygon class="ae-sel-casing" points="${pts(loc.polygon)}" stroke-width="${r1(6 / k)}"/>`;
        s += `<polygon class="ae-sel" points="${pts(loc.polygon)}" stroke-width="${r1(3 / k)}" data-selected-locale="${esc(loc.id)}"/>`;
        for (const p of loc.polygon) s += handle(p, "ae-corner");
        if (sel.corner) s += handle(sel.corner, "ae-corner ae-corner-sel");
      }
    } else if (sel && sel.kind === "approach") {
      const parts = sel.id.split("/");
      for (const id of [sel.id, parts[1] + "/" + parts[0]]) {
        const g = this.map.geometryOf(id);
        if (!g) continue;
        const w = g.len + 16;
        s +=
          `<g class="${id === sel.id ? "ae-ap-sel" : "ae-ap-sel ae-ap-other"}" data-selected-approach="${esc(id)}" transform="translate(${r1(g.x)} ${r1(g.y)}) rotate(${r1(g.angle)})">` +
          `<rect x="${r1(-w / 2)}" y="-11" width="${r1(w)}" height="22" rx="8" stroke-width="${r1(sw)}"/></g>`;
      }
    }
    if (d) s += handle(d.to, "ae-corner ae-corner-sel");
    if (this.mode === "draw" && this.drawing.length) {
      const poly = this.drawing;
      s += `<polyline class="ae-drawing" points="${pts(poly)}" stroke-width="${r1(3 / k)}"/>`;
      poly.forEach((p, i) => {
        s += handle(p, i === 0 && poly.length >= 3 ? "ae-corner ae-first" : "ae-corner");
      });
    }
    if (this.mode === "road" && this.road.chain.length) {
      const c = this.road.chain.map((id) => this.map.centreOf(id)).filter(Boolean);
      s += `<polyline class="ae-road ae-road-${esc(this.road.kind)}" points="${pts(c)}" stroke-width="${r1(5 / k)}"/>`;
      for (const p of c) s += handle(p, "ae-corner ae-road-stop");
    }
    this.map.layers.edit.innerHTML = s;
  }

  // ---- taps and strokes ----------------------------------------------------------

  _radius() {
    return SNAP_PX / ((this.map && this.map.zoom) || 1);
  }

  _at(clientX, clientY) {
    const p = this.map.clientToMap(clientX, clientY);
    return [p.x, p.y];
  }

  // What a tap at map point pt is on: {kind: "approach", id} | {kind: "locale", id} | null.
  _hit(pt, target) {
    const ap = this.map.approachAt(pt, this._radius());
    if (ap) return { kind: "approach", id: ap };
    if (target && target.kind === "piece") {
      const place = target.place || target.locale;
      return place.indexOf("/") >= 0
        ? { kind: "approach", id: place }
        : { kind: "locale", id: place };
    }
    const locs = this.locales;
    for (let i = locs.length - 1; i >= 0; i--) {
      if (geo.contains(locs[i].polygon || [], pt)) return { kind: "locale", id: locs[i].id };
    }
    if (target && target.kind === "locale") return { kind: "locale", id: target.id };
    return null;
  }

  _tap(g) {
    if (!this.map) return;
    const pt = this._at(g.x0, g.y0);
    const p = this.pending;
    if (p && p.kind === "pick") {
      this._settlePending({ x: r1(pt[0]), y: r1(pt[1]) });
      return;
    }
    if (p && p.kind === "place") {
      const hit = this._hit(pt, g.target);
      if (hit) this._placeAt(p.id, hit);
      return;
    }
    if (this.place) {
      this.place = null;
      this._light();
    }
    if (this.mode === "draw") this._addCorner(pt);
    else if (this.mode === "road") this._roadTap(pt, g.target);
    else this._selectAt(pt, g.target);
  }

  // The keyboard's Enter on a locale, an approach or a block (the map's cursor).
  _keyTap(target) {
    if (!this.map || !target) return;
    let hit = null;
    if (target.kind === "approach") hit = { kind: "approach", id: target.id };
    else if (target.kind === "locale") hit = { kind: "locale", id: target.id };
    else if (target.kind === "piece") {
      const place = target.place || target.locale;
      hit = { kind: place.indexOf("/") >= 0 ? "approach" : "locale", id: place };
    }
    if (!hit) return;
    const p = this.pending;
    if (p && p.kind === "place") {
      this._placeAt(p.id, hit);
    } else if (this.mode === "road") {
      const L = this.map.centreOf(hit.kind === "approach" ? hit.id.split("/")[0] : hit.id);
      if (L) this._roadTap(L, null);
    } else if (this.mode === "select" && !p) {
      this.sel =
        hit.kind === "approach"
          ? { kind: "approach", id: hit.id }
          : { kind: "locale", id: hit.id, corner: null };
      this._drawOverlay();
      this._renderTools();
    }
  }

  _selectAt(pt, target) {
    const r = this._radius();
    const sel = this.sel;
    if (sel && sel.kind === "locale") {
      const loc = this.locales.find((l) => l.id === sel.id);
      const c = loc ? geo.cornerNear([loc], pt, r) : null;
      if (c) {
        sel.corner = c.point;
        this._drawOverlay();
        this._renderTools();
        return;
      }
    }
    const hit = this._hit(pt, target);
    if (!hit) this.sel = null;
    else if (hit.kind === "approach") this.sel = { kind: "approach", id: hit.id };
    else this.sel = { kind: "locale", id: hit.id, corner: null };
    this._drawOverlay();
    this._renderTools();
  }

  _stroke(s) {
    if (!this.map) return;
    const pt = [s.x, s.y];
    if (s.phase === "start") {
      this.drag = this._startDrag(pt);
      return;
    }
    const d = this.drag;
    if (!d) return;
    if (d.pan) {
      // One finger off a corner: the map follows the finger (the point first under it stays).
      if (s.phase === "move") {
        const k = this.map.zoom;
        this.map.panBy((pt[0] - d.anchor[0]) * k, (pt[1] - d.anchor[1]) * k);
      } else {
        this.drag = null;
      }
      return;
    }
    if (s.phase === "move") {
      d.to = [Math.max(0, pt[0]), Math.max(0, pt[1])];
      d.map = this._mapOf(this.scenario);
      d.map.locales = copy(d.map.locales);
      geo.moveCorner(d.map.locales, d.from, d.to);
      this._frame(() => this._redraw(false, d.map));
    } else if (s.phase === "end") {
      this.drag = null;
      this._dropCorner(d.from, pt);
    } else {
      this.drag = null;
      this._redraw(false);
    }
  }

  // A stroke starts on a corner (select mode: of the selected locale first, else of any):
  // that corner moves; anywhere else the one finger pans.
  _startDrag(pt) {
    if (this.mode === "select" && !this.pending) {
      const r = this._radius();
      const sel = this.sel;
      const own = sel && sel.kind === "locale" ? this.locales.filter((l) => l.id === sel.id) : [];
      const c = geo.cornerNear(own, pt, r) || geo.cornerNear(this.locales, pt, r);
      if (c) {
        if (!(sel && sel.kind === "locale" && c.locales.indexOf(sel.id) >= 0)) {
          this.sel = { kind: "locale", id: c.locales[0], corner: null };
        }
        this.sel.corner = c.point;
        this._renderTools();
        return { corner: true, from: c.point, to: c.point, map: this._mapOf(this.scenario) };
      }
    }
    return { pan: true, anchor: pt };
  }

  _frame(fn) {
    this._next = fn;
    if (this._raf) return;
    this._raf = requestAnimationFrame(() => {
      this._raf = 0;
      const f = this._next;
      this._next = null;
      if (f) f();
    });
  }

  _flushFrame() {
    if (this._raf) cancelAnimationFrame(this._raf);
    this._raf = 0;
    this._next = null;
  }

  _dropCorner(from, pt) {
    this._flushFrame();
    const r = this._radius();
    const s = geo.snap(this.locales, [Math.max(0, pt[0]), Math.max(0, pt[1])], r, {
      skip: (p) => geo.samePoint(p, from),
    });
    const to = [s.x, s.y];
    if (geo.samePoint(to, from)) {
      this._redraw(false);
      return;
    }
    const ok = this._commit((sc) => {
      const before = geo.borders(sc.map.locales);
      if (!geo.moveCorner(sc.map.locales, from, to)) return false;
      geo.weld(sc.map.locales);
      geo.growSpace(sc.map);
      geo.reconcile(sc, before);
      return true;
    }, "editor.area.step_move");
    if (ok && this.sel && this.sel.kind === "locale") this.sel.corner = to;
    if (!ok) {
      this.ctx.message(this.t("editor.area.too_few"), "error");
      this._redraw(false);
    }
  }

  // Change the scenario through a working copy: mutate(copy) -> false changes nothing.
  _commit(mutate, what) {
    const work = copy(this.scenario);
    if (!work.map) work.map = { kind: "areas", width: 1000, height: 700 };
    for (const key of ["locales", "approaches", "roads"]) {
      if (!Array.isArray(work.map[key])) work.map[key] = [];
    }
    if (mutate(work) === false) return false;
    this.draft.change((sc) => {
      sc.map = work.map;
      if (work.units !== undefined) sc.units = work.units;
    }, what);
    return true;
  }

  // ---- drawing a locale ------------------------------------------------------------

  _addCorner(pt) {
    const r = this._radius();
    const poly = this.drawing;
    if (poly.length >= 3 && Math.hypot(pt[0] - poly[0][0], pt[1] - poly[0][1]) <= r) {
      this._closeLocale();
      return;
    }
    const s = geo.snap(this.locales, [Math.max(0, pt[0]), Math.max(0, pt[1])], r);
    const p = [s.x, s.y];
    if (poly.some((q) => geo.samePoint(q, p))) return;
    poly.push(p);
    this._drawOverlay();
    this._renderTools();
  }

  _closeLocale() {
    const poly = this.drawing;
    if (poly.length < 3) return;
    let made = null;
    this._commit((sc) => {
      const locs = sc.map.locales;
      const before = geo.borders(locs);
      const names = new Set(locs.map((l) => this.i18n.pick(l.name)));
      let n = locs.length + 1;
      while (names.has(this.t("editor.area.new_name", { number: n }))) n++;
      const name = this.t("editor.area.new_name", { number: n });
      const id = geo.localeId(name, new Set(locs.map((l) => l.id)));
      const terrains = this.cat.terrains || [];
      const cap = this.cat.capacity || FALLBACK.capacity;
      locs.push({
        id,
        name,
        polygon: poly.map((p) => [p[0], p[1]]),
        capacity: Math.min(cap.max, Math.max(cap.min, DEFAULT_CAPACITY)),
        objective: 0,
        terrain: terrains.indexOf("open") >= 0 ? "open" : terrains[0] || "open",
      });
      geo.weld(locs);
      geo.growSpace(sc.map);
      geo.reconcile(sc, before);
      made = id;
      return true;
    }, "editor.area.step_draw");
    this.drawing = [];
    if (made) this.sel = { kind: "locale", id: made, corner: null };
    this._drawOverlay();
    this._renderTools();
  }

  // ---- roads ---------------------------------------------------------------------

  _neighbours(a, b) {
    const aps = (this.scenario.map && this.scenario.map.approaches) || [];
    return aps.some((ap) => ap.from === a && ap.facing === b);
  }

  _name(id) {
    const loc = this.locales.find((l) => l.id === id);
    return loc ? this.i18n.pick(loc.name) || id : id;
  }

  _roadTap(pt, target) {
    const hit = this._hit(pt, target);
    if (!hit) return;
    const id = hit.kind === "approach" ? hit.id.split("/")[0] : hit.id;
    const chain = this.road.chain;
    const last = chain[chain.length - 1];
    if (last === id) {
      chain.pop();
    } else if (last !== undefined && !this._neighbours(last, id)) {
      this.ctx.message(
        this.t("editor.area.not_neighbours", { first: this._name(last), second: this._name(id) }),
        "error",
      );
      return;
    } else {
      chain.push(id);
    }
    this._drawOverlay();
    this._renderTools();
  }

  _roadDone() {
    const chain = this.road.chain.slice();
    if (chain.length < 2) return;
    this._commit((sc) => {
      sc.map.roads.push({ kind: this.road.kind, locales: chain });
    }, "editor.area.step_road");
    this.road.chain = [];
    this._drawOverlay();
    this._renderTools();
  }

  // ---- blocks and pending questions ------------------------------------------------

  _placeAt(id, hit) {
    const parts = hit.kind === "approach" ? hit.id.split("/") : [hit.id, null];
    this.pending = null;
    this._commit((sc) => {
      const u = (sc.units || []).find((x) => x.id === id);
      if (!u) return false;
      u.locale = parts[0];
      u.approach = parts[1];
      return true;
    }, "editor.area.step_place");
    this._renderTools();
  }

  _settlePending(value) {
    const p = this.pending;
    this.pending = null;
    if (p && p.kind === "pick") p.resolve(value);
    if (p && this.tools) this._renderTools();
  }

  // ---- keys ----------------------------------------------------------------------

  _key(e) {
    if (e.key === "Escape") {
      if (this.pending) this._settlePending(null);
      else if (this.drawing.length) this._cancelDrawing();
      else if (this.road.chain.length) this._cancelRoad();
      else return;
    } else if (e.key === "Delete" || e.key === "Backspace") {
      if (!(this.sel && this.sel.corner)) return;
      this._deleteCorner();
    } else if (e.key === "Enter" && this.mode === "draw" && this.drawing.length >= 3) {
      this._closeLocale();
    } else {
      return;
    }
    e.preventDefault();
    e.stopPropagation();
  }

  _cancelDrawing() {
    this.drawing = [];
    this._drawOverlay();
    this._renderTools();
  }

  _cancelRoad() {
    this.road.chain = [];
    this._drawOverlay();
    this._renderTools();
  }
}

Object.assign(AreaEditor.prototype, paletteMethods);
