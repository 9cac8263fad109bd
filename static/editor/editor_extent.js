// The hex map's size and origin changed after it was made (methods of the editor in
// static/editor/editor.js, on the Scenario tab): its first printed column and row and how many
// of each. Every printed number stays where it is (render/hexgrid.js places a number by the
// orientation and stagger only), so the picture under the map stays aligned and whatever
// stands on a hex that is still on the map stays on it; a change that would leave a unit,
// terrain, a hexside, a road, a place name or an objective off the map is refused, naming them.
import { el } from "../panels.js";
import { button, mapKind } from "./editor_common.js";
import { HexGrid } from "../render/hexgrid.js";

const FIELDS = [
  ["first_column", "editor-extent-first-column", "editor.new_first_column"],
  ["columns", "editor-extent-columns", "editor.new_columns"],
  ["first_row", "editor-extent-first-row", "editor.new_first_row"],
  ["rows", "editor-extent-rows", "editor.new_rows"],
];
// How many of what would fall off the refusal names, before "and N more".
const NAMED = 6;

export const extentMethods = {
  // The fieldset (els.extent): four numbers and Apply, and a line for the refusal; field(key,
  // input) labels an input as the form does.
  extentFields(field) {
    const els = this.els;
    els.extentInputs = {};
    const rows = FIELDS.map(([name, id, key]) => {
      const input = el("input", {
        id: id,
        type: "number",
        inputmode: "numeric",
        min: name === "columns" || name === "rows" ? "1" : "0",
        max: "999",
        step: "1",
      });
      els.extentInputs[name] = input;
      return field(key, input);
    });
    els.extentError = el("p", {
      id: "editor-extent-error",
      class: "editor-error",
      role: "alert",
      hidden: "",
    });
    els.extentApply = button(
      this.t("editor.extent_apply"),
      { id: "editor-extent-apply", "data-i18n": "editor.extent_apply" },
      () => this.applyExtent(),
    );
    els.extent = el("div", { id: "editor-extent", class: "editor-extent" }, [
      el("h3", { "data-i18n": "editor.extent_head", text: this.t("editor.extent_head") }),
      el("p", {
        class: "hint",
        "data-i18n": "editor.extent_hint",
        text: this.t("editor.extent_hint"),
      }),
      el("div", { class: "editor-extent-fields" }, rows),
      els.extentError,
      el("div", { class: "editor-row" }, [els.extentApply]),
    ]);
    return els.extent;
  },

  // The fields from the draft's map (hidden for an area map); a field being typed in is left.
  renderExtent() {
    const els = this.els;
    if (!els.extent) return;
    const s = this.draft ? this.draft.scenario : null;
    const hex = s && s.map && mapKind(s) !== "areas";
    els.extent.hidden = !hex;
    if (!hex) return;
    const m = s.map;
    const values = {
      first_column: m.first_column ?? 1,
      columns: m.columns,
      first_row: m.first_row ?? 1,
      rows: m.rows,
    };
    FIELDS.forEach(([name]) => {
      const input = els.extentInputs[name];
      if (document.activeElement !== input) input.value = String(values[name]);
    });
  },

  // The map's new size and origin, or a refusal naming what would fall off.
  applyExtent() {
    const els = this.els;
    const s = this.draft.scenario;
    const shout = (text) => {
      els.extentError.textContent = text || "";
      els.extentError.hidden = !text;
    };
    const v = {};
    for (const [name] of FIELDS) {
      const n = Number(els.extentInputs[name].value);
      if (!Number.isInteger(n)) return shout(this.t("editor.extent_number"));
      v[name] = n;
    }
    const m = s.map;
    const cd = m.column_digits ?? 2;
    const rd = m.row_digits ?? 2;
    const fits =
      v.first_column >= 0 &&
      v.first_row >= 0 &&
      v.columns >= 1 &&
      v.rows >= 1 &&
      v.first_column + v.columns - 1 < 10 ** cd &&
      v.first_row + v.rows - 1 < 10 ** rd;
    if (!fits) {
      return shout(
        this.t("editor.extent_digits", {
          last_column: 10 ** cd - 1,
          last_row: 10 ** rd - 1,
        }),
      );
    }
    const grid = new HexGrid(Object.assign({}, m, v));
    const off = fallingOff(s, grid);
    if (off.length) {
      const named = off.slice(0, NAMED).map(([key, params]) => this.t(key, params));
      const more = off.length - named.length;
      const list =
        named.join(", ") + (more > 0 ? this.t("editor.extent_more", { count: more }) : "");
      return shout(this.t("editor.extent_refused", { list }));
    }
    shout("");
    const same = FIELDS.every(([name]) => (m[name] ?? 1) === v[name]);
    if (same) return;
    this.draft.change((c) => {
      Object.assign(c.map, v);
      // Hexes marked off a board that are now beyond its columns and rows are no longer listed.
      if (Array.isArray(c.map.off_map)) {
        c.map.off_map = c.map.off_map.filter((label) => grid.has(label));
        if (!c.map.off_map.length) delete c.map.off_map;
      }
    }, "editor.step_extent");
    this.sayKey("editor.extent_done", "info", {
      columns: v.columns,
      rows: v.rows,
      first: grid.label(v.first_column, v.first_row),
    });
  },
};

// What of the scenario would lie off a map of `grid`: [i18n key, params] each.
function fallingOff(s, grid) {
  const out = [];
  const m = s.map || {};
  const on = (label) => typeof label !== "string" || grid.has(label);
  for (const u of s.units || []) {
    if (u && u.hex && !on(u.hex))
      out.push(["editor.extent_unit", { name: u.name || u.id, hex: u.hex }]);
  }
  for (const label of Object.keys(m.hexes || {})) {
    if (!on(label)) out.push(["editor.extent_hex", { hex: label }]);
  }
  for (const side of m.hexsides || []) {
    const b = (side && side.between) || [];
    if (b.some((label) => !on(label))) {
      out.push(["editor.extent_hexside", { hexside: b.join("/") }]);
    }
  }
  for (const road of m.roads || []) {
    const gone = ((road && road.hexes) || []).find((label) => !on(label));
    if (gone) out.push(["editor.extent_road", { hex: gone }]);
  }
  for (const label of m.labels || []) {
    if (label && !on(label.hex)) out.push(["editor.extent_label", { hex: label.hex }]);
  }
  for (const o of s.objectives || []) {
    if (o && !on(o.hex)) out.push(["editor.extent_objective", { hex: o.hex }]);
  }
  return out;
}
