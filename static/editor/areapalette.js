// The area map editor's palette (methods of AreaEditor, static/editor/areaedit.js): its
// markup (the tools, what is being drawn or asked, the selected locale's or border's fields,
// the roads) and its events (a tool chosen, a field changed, a corner, locale or road deleted).
// FALLBACK holds the catalog's lists and ranges when the core gives none.

import { esc } from "../render/svg.js";
import * as geo from "./areageom.js";
import { editedText } from "./editor_common.js";

export const FALLBACK = {
  terrains: ["open", "town", "woods", "farm", "river_bank", "hills"],
  widths: ["narrow", "wide"],
  effect: { min: 0, max: 9 },
  flags: ["impassable", "cavalry_obstructed"],
  road_kinds: ["primary", "secondary"],
  capacity: { min: 1, max: 99 },
  objective: { min: 0, max: 99 },
};

export const paletteMethods = {
  _setMode(mode) {
    this.mode = mode;
    this.drawing = [];
    this.road.chain = [];
    this._drawOverlay();
    this._renderTools();
  },

  _deleteCorner() {
    const sel = this.sel;
    if (!sel || !sel.corner) return;
    const pt = sel.corner;
    const ok = this._commit((sc) => {
      const before = geo.borders(sc.map.locales);
      if (!geo.deleteCorner(sc.map.locales, pt)) return false;
      geo.reconcile(sc, before);
      return true;
    }, "editor.area.step_delete_corner");
    if (ok) {
      if (this.sel) this.sel.corner = null;
      this._drawOverlay();
      this._renderTools();
    } else {
      this.ctx.message(this.t("editor.area.too_few"), "error");
    }
  },

  _deleteLocale() {
    const sel = this.sel;
    if (!sel || sel.kind !== "locale") return;
    this.sel = null;
    this._commit((sc) => {
      geo.removeLocale(sc, sel.id);
    }, "editor.area.step_delete_locale");
    this._drawOverlay();
    this._renderTools();
  },

  _click(e) {
    const b = e.target.closest("[data-act]");
    if (!b || b.disabled) return;
    const act = b.getAttribute("data-act");
    if (act === "mode") this._setMode(b.getAttribute("data-mode"));
    else if (act === "done") this._closeLocale();
    else if (act === "undo-corner") {
      this.drawing.pop();
      this._drawOverlay();
      this._renderTools();
    } else if (act === "cancel-draw") this._cancelDrawing();
    else if (act === "road-kind") {
      this.road.kind = b.getAttribute("data-kind");
      this._drawOverlay();
      this._renderTools();
    } else if (act === "road-done") this._roadDone();
    else if (act === "cancel-road") this._cancelRoad();
    else if (act === "road-delete") {
      const i = Number(b.getAttribute("data-index"));
      this._commit((sc) => {
        sc.map.roads.splice(i, 1);
      }, "editor.area.step_delete_road");
    } else if (act === "delete-corner") this._deleteCorner();
    else if (act === "delete-locale") this._deleteLocale();
    else if (act === "cancel-pending") this._settlePending(null);
    else if (act === "approach-turn") {
      const parts = this.sel.id.split("/");
      this.sel = { kind: "approach", id: parts[1] + "/" + parts[0] };
      this._drawOverlay();
      this._renderTools();
    }
  },

  _change(e) {
    const el = e.target;
    const field = el.getAttribute && el.getAttribute("data-field");
    if (!field) return;
    const apId = el.getAttribute("data-ap");
    if (apId) this._changeApproach(apId, field, el);
    else this._changeLocale(field, el);
  },

  _number(el, range) {
    const v = Number(el.value);
    if (el.value === "" || !Number.isInteger(v)) return null;
    return Math.max(range.min, Math.min(range.max, v));
  },

  _changeLocale(field, el) {
    const sel = this.sel;
    if (!sel || sel.kind !== "locale") return;
    let id = sel.id;
    let value;
    if (field === "name") {
      value = el.value.trim();
      if (!value) {
        this._renderTools();
        return;
      }
    } else if (field === "capacity" || field === "objective") {
      value = this._number(el, this.cat[field] || FALLBACK[field]);
      if (value === null) {
        this._renderTools();
        return;
      }
    } else {
      value = el.value;
    }
    this._commit((sc) => {
      const loc = sc.map.locales.find((l) => l.id === sel.id);
      if (!loc) return false;
      loc[field] = field === "name" ? editedText(loc.name, value, this.i18n.lang) : value;
      if (field === "name") {
        const taken = new Set(sc.map.locales.filter((l) => l !== loc).map((l) => l.id));
        id = geo.localeId(value, taken);
        geo.renameLocale(sc, sel.id, id);
        // Before the draft tells the editor (update), so the selection follows the new id.
        if (this.sel === sel) sel.id = id;
      }
      return true;
    }, "editor.area.step_locale");
    if (this.place && this.place.kind === "locale" && this.place.id === sel.id) this.place = null;
    this._drawOverlay();
    this._renderTools();
  },

  _changeApproach(apId, field, el) {
    const parts = apId.split("/");
    let value;
    if (field === "effect") {
      value = this._number(el, this.cat.effect || FALLBACK.effect);
      if (value === null) {
        this._renderTools();
        return;
      }
    } else if (field === "width") {
      value = el.value;
    }
    this._commit((sc) => {
      const ap = sc.map.approaches.find((a) => a.from === parts[0] && a.facing === parts[1]);
      if (!ap) return false;
      if (field === "flag") {
        const flag = el.getAttribute("data-flag");
        const flags = (ap.flags || []).filter((f) => f !== flag);
        if (el.checked) flags.push(flag);
        ap.flags = (this.cat.flags || []).filter((f) => flags.indexOf(f) >= 0);
      } else {
        ap[field] = value;
      }
      return true;
    }, "editor.area.step_approach");
  },

  // The palette: the tools, what is being drawn or asked, the selection's fields, the roads.
  _renderTools() {
    if (!this.tools) return;
    const focus = document.activeElement;
    const refocus =
      focus && this.tools.contains(focus) && focus.getAttribute("data-field")
        ? [focus.getAttribute("data-field"), focus.getAttribute("data-ap")]
        : null;
    const t = (k, p) => esc(this.t(k, p));
    const btn = (act, label, extra) =>
      `<button type="button" class="ae-btn" data-act="${act}" ${extra || ""}>${label}</button>`;
    let s = `<div class="ae-modes" role="toolbar">`;
    for (const [mode, key] of [
      ["select", "editor.area.select"],
      ["draw", "editor.area.draw"],
      ["road", "editor.area.road"],
    ]) {
      s += btn("mode", t(key), `data-mode="${mode}" aria-pressed="${this.mode === mode}"`);
    }
    s += `</div>`;
    const p = this.pending;
    if (p) {
      const unit = p.kind === "place" ? this._unit(p.id) : null;
      const text =
        p.kind === "pick"
          ? t(p.key)
          : t("editor.area.place_hint", { block: unit ? unit.name || "" : "" });
      s +=
        `<div class="ae-prompt" role="status" data-pending="${p.kind}"><p>${text}</p>` +
        btn("cancel-pending", t("ui.cancel")) +
        `</div>`;
    }
    if (this.mode === "draw") {
      const n = this.drawing.length;
      s +=
        `<div class="ae-panel" data-panel="draw"><p class="ae-hint">${t("editor.area.draw_hint")}</p>` +
        `<p class="ae-count" data-corners="${n}">${t("editor.area.corners", { count: n })}</p>` +
        `<div class="ae-row">` +
        btn("done", t("editor.area.done"), n >= 3 ? "" : "disabled") +
        btn("undo-corner", t("editor.area.undo_corner"), n ? "" : "disabled") +
        btn("cancel-draw", t("ui.cancel"), n ? "" : "disabled") +
        `</div></div>`;
    } else if (this.mode === "road") {
      s += `<div class="ae-panel" data-panel="road"><p class="ae-hint">${t("editor.area.road_hint")}</p><div class="ae-row" role="group">`;
      for (const kind of this.cat.road_kinds || []) {
        s += btn(
          "road-kind",
          t("editor.area.road_kind." + kind),
          `data-kind="${esc(kind)}" aria-pressed="${this.road.kind === kind}"`,
        );
      }
      const names = this.road.chain.map((id) => esc(this._name(id))).join(" – ");
      s +=
        `</div><p class="ae-chain" data-chain="${esc(this.road.chain.join(","))}">${names}</p><div class="ae-row">` +
        btn("road-done", t("editor.area.road_add"), this.road.chain.length >= 2 ? "" : "disabled") +
        btn("cancel-road", t("ui.cancel"), this.road.chain.length ? "" : "disabled") +
        `</div></div>`;
    } else if (!this.sel) {
      s += `<p class="ae-hint">${t("editor.area.select_hint")}</p>`;
    }
    if (this.sel && this.sel.kind === "locale") s += this._localeFields();
    if (this.sel && this.sel.kind === "approach") s += this._approachFields();
    s += this._roadList();
    this.tools.innerHTML = s;
    if (refocus) {
      const sel =
        `[data-field="${refocus[0]}"]` + (refocus[1] ? `[data-ap="${esc(refocus[1])}"]` : "");
      const el = this.tools.querySelector(sel);
      if (el) el.focus({ preventScroll: true });
    }
  },

  _unit(id) {
    return ((this.scenario && this.scenario.units) || []).find((u) => u.id === id) || null;
  },

  _localeFields() {
    const loc = this.locales.find((l) => l.id === this.sel.id);
    if (!loc) return "";
    const t = (k, p) => esc(this.t(k, p));
    const cap = this.cat.capacity || FALLBACK.capacity;
    const obj = this.cat.objective || FALLBACK.objective;
    const num = (field, range, value) =>
      `<input type="number" inputmode="numeric" data-field="${field}" min="${range.min}" max="${range.max}" step="1" value="${esc(value)}"/>`;
    let terr = `<select data-field="terrain">`;
    for (const id of this.cat.terrains || []) {
      const on = (loc.terrain || "open") === id ? " selected" : "";
      terr += `<option value="${esc(id)}"${on}>${t("editor.area_terrain." + id)}</option>`;
    }
    terr += `</select>`;
    const corner = this.sel.corner;
    return (
      `<div class="ae-panel ae-fields" data-panel="locale" data-locale="${esc(loc.id)}">` +
      `<label><span>${t("editor.area.name")}</span><input type="text" data-field="name" value="${esc(this.i18n.pick(loc.name))}" autocomplete="off"/></label>` +
      `<label><span>${t("editor.area.capacity")}</span>${num("capacity", cap, loc.capacity != null ? loc.capacity : "")}</label>` +
      `<label><span>${t("editor.area.objective")}</span>${num("objective", obj, loc.objective || 0)}</label>` +
      `<label><span>${t("editor.area.terrain_label")}</span>${terr}</label>` +
      `<div class="ae-row">` +
      `<button type="button" class="ae-btn" data-act="delete-corner" ${corner ? "" : "disabled"}>${t("editor.area.delete_corner")}</button>` +
      `<button type="button" class="ae-btn ae-danger" data-act="delete-locale">${t("editor.area.delete_locale")}</button>` +
      `</div></div>`
    );
  },

  // Both directions of the selected border, the tapped one first.
  _approachFields() {
    const parts = this.sel.id.split("/");
    const aps = (this.scenario.map && this.scenario.map.approaches) || [];
    const t = (k, p) => esc(this.t(k, p));
    const eff = this.cat.effect || FALLBACK.effect;
    let s = `<div class="ae-panel ae-fields" data-panel="approach" data-approach="${esc(this.sel.id)}">`;
    for (const [a, b] of [
      [parts[0], parts[1]],
      [parts[1], parts[0]],
    ]) {
      const ap = aps.find((x) => x.from === a && x.facing === b);
      if (!ap) continue;
      const id = esc(a + "/" + b);
      let widths = "";
      for (const w of this.cat.widths || []) {
        const on = ap.width === w ? " selected" : "";
        widths += `<option value="${esc(w)}"${on}>${t("ref.al_width." + w)}</option>`;
      }
      let flags = "";
      for (const f of this.cat.flags || []) {
        const on = (ap.flags || []).indexOf(f) >= 0 ? " checked" : "";
        flags += `<label class="ae-check"><input type="checkbox" data-ap="${id}" data-field="flag" data-flag="${esc(f)}"${on}/><span>${t("ref.al_flag." + f)}</span></label>`;
      }
      s +=
        `<fieldset data-direction="${id}"><legend>${t("editor.area.direction", { first: this._name(a), second: this._name(b) })}</legend>` +
        `<label><span>${t("editor.area.width")}</span><select data-ap="${id}" data-field="width">${widths}</select></label>` +
        `<label><span>${t("editor.area.effect")}</span><input type="number" inputmode="numeric" data-ap="${id}" data-field="effect" min="${eff.min}" max="${eff.max}" step="1" value="${esc(ap.effect || 0)}"/></label>` +
        flags +
        `</fieldset>`;
    }
    return s + `</div>`;
  },

  _roadList() {
    const roads = (this.scenario.map && this.scenario.map.roads) || [];
    if (!roads.length) return "";
    const t = (k, p) => esc(this.t(k, p));
    let s = `<div class="ae-panel" data-panel="roads"><h3>${t("editor.area.roads")}</h3><ul class="ae-roads">`;
    roads.forEach((road, i) => {
      const names = (road.locales || []).map((id) => esc(this._name(id))).join(" – ");
      s +=
        `<li data-road="${i}"><span><b>${t("editor.area.road_kind." + road.kind)}</b> ${names}</span>` +
        `<button type="button" class="ae-btn" data-act="road-delete" data-index="${i}">${t("ui.delete")}</button></li>`;
    });
    return s + `</ul></div>`;
  },
};
