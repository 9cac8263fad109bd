// Units pasted from a spreadsheet into the order of battle (methods of OrderOfBattle,
// static/editor/oob.js): the box and its list of columns, rows pasted on the table itself,
// tab-separated rows read (with or without a header row) into units, and the report of the
// rows that could not be read, each with its reason. On a hex map a column named "Hex" places
// each unit at once: the hex's number as the map prints it, or its column and row.

import { HexGrid } from "../render/hexgrid.js";
import { el, freshId, readNumber } from "./forms.js";

function norm(text) {
  return String(text || "")
    .trim()
    .toLowerCase()
    .normalize("NFC");
}

export const pasteMethods = {
  // Rows pasted on the table itself (several cells or lines), as into the box.
  listenForPaste() {
    const self = this;
    this.unitsEl.addEventListener("paste", function (event) {
      const text = event.clipboardData ? event.clipboardData.getData("text/plain") : "";
      if (!/[\t\n]/.test(text.replace(/\n+$/, ""))) return;
      event.preventDefault();
      self.pasteBox.value = text;
      self.pasteEl.open = true;
      self.addPasted();
    });
  },

  // The columns a pasted row may have, in the documented order: name, side, type, steps, then
  // every rating of the system.
  columns() {
    const cols = [
      { id: "name", key: "editor.oob.unit_name" },
      { id: "side", key: "editor.oob.side" },
      { id: "type", key: "editor.oob.type" },
    ];
    const types = this.units.types || [];
    if (
      types.some((t) => {
        return this.stepSpec(t);
      })
    )
      cols.push({ id: "steps", key: "editor.oob.steps" });
    const seen = new Set();
    types.forEach((t) => {
      this.ratingSpecs(t).forEach(function (spec) {
        if (seen.has(spec.name)) return;
        seen.add(spec.name);
        cols.push({ id: "rating:" + spec.name, rating: spec.name, key: "rating." + spec.name });
      });
    });
    return cols;
  },

  // The hex column: on hex maps only, and only under its name in a header row (rows without
  // one keep the documented order).
  hexColumn() {
    const map = (this.scenario && this.scenario.map) || {};
    return typeof map.columns === "number" && typeof map.rows === "number"
      ? { id: "hex", key: "editor.oob.hex" }
      : null;
  },

  // The label of a pasted hex ("0412", "412", "4,12"), or null when it is no hex of the map.
  readHex(text) {
    const grid = new HexGrid(this.scenario.map);
    const value = String(text).trim();
    const pair = /^(\d+)\s*[,;/]\s*(\d+)$/.exec(value);
    if (pair) {
      const col = parseInt(pair[1], 10);
      const row = parseInt(pair[2], 10);
      return grid.contains(col, row) ? grid.label(col, row) : null;
    }
    if (!/^\d+$/.test(value)) return null;
    const label = value.padStart(grid.columnDigits + grid.rowDigits, "0");
    return grid.has(label) ? label : null;
  },

  drawPaste() {
    const self = this;
    const cols = this.columns();
    const open = this.pasteEl.open;
    const old = this.pasteBox ? this.pasteBox.value : "";
    this.pasteBox = el("textarea", {
      class: "oob-paste-box",
      rows: 5,
      spellcheck: "false",
      "aria-label": this.t("editor.oob.paste_box"),
    });
    this.pasteBox.value = old;
    this.pasteReport = el("div", { class: "oob-paste-report", role: "status" });
    this.pasteEl.replaceChildren(
      el("summary", { text: this.t("editor.oob.paste_title") }),
      el("p", { class: "hint", text: this.t("editor.oob.paste_help") }),
      el(
        "ol",
        { class: "oob-paste-columns" },
        cols.map(function (c) {
          return el("li", { text: self.t(c.key) });
        }),
      ),
      this.hexColumn()
        ? el("p", { class: "hint oob-paste-hex", text: this.t("editor.oob.paste_hex_help") })
        : null,
      this.pasteBox,
      el("button", {
        type: "button",
        class: "oob-paste-add",
        text: this.t("editor.oob.paste_add"),
        onclick: function () {
          self.addPasted();
        },
      }),
      this.pasteReport,
    );
    this.pasteEl.open = open;
  },

  // Read tab-separated rows: {units: [unit without id], bad: [{row, reason}]}.
  readRows(text) {
    const self = this;
    const cols = this.columns();
    const wordOf = new Map();
    cols.forEach(function (c) {
      wordOf.set(norm(self.t(c.key)), c);
      wordOf.set(norm(c.rating || c.id), c);
    });
    const hex = this.hexColumn();
    if (hex) {
      wordOf.set(norm(this.t(hex.key)), hex);
      wordOf.set("hex", hex);
    }
    const lines = String(text).replace(/\r\n?/g, "\n").split("\n");
    const rows = [];
    lines.forEach(function (line, i) {
      if (line.trim()) rows.push({ row: i + 1, cells: line.split("\t") });
    });
    const bad = [];
    let layout = cols;
    if (rows.length) {
      const first = rows[0].cells.filter(function (c) {
        return c.trim();
      });
      const known = first.filter(function (c) {
        return wordOf.has(norm(c));
      });
      if (known.length >= 2 || (first.length && known.length === first.length)) {
        const head = rows.shift();
        layout = head.cells.map(function (c) {
          const col = wordOf.get(norm(c));
          if (!col && c.trim()) {
            bad.push({ row: head.row, reason: self.say("editor.oob.paste_column", { value: c }) });
          }
          return col || null;
        });
      }
    }
    const sides = this.scenario.sides || [];
    const types = this.units.types || [];
    const units = [];
    rows.forEach(function (r) {
      const got = {};
      r.cells.forEach(function (cell, i) {
        const col = layout[i];
        if (col && cell.trim()) got[col.id] = cell.trim();
      });
      const reason = self.readUnit(got, sides, types, units);
      if (reason) bad.push({ row: r.row, reason: reason });
    });
    return { units: units, bad: bad };
  },

  // One pasted row read into `units`; a worded reason when it cannot be.
  readUnit(got, sides, types, units) {
    const self = this;
    if (!got.name) return this.t("editor.oob.paste_no_name");
    let side = sides[0];
    if (got.side) {
      side = sides.find(function (s) {
        return norm(s.id) === norm(got.side) || norm(self.name(s.name)) === norm(got.side);
      });
      if (!side) return this.say("editor.oob.paste_side", { value: got.side });
    }
    let type = types[0];
    if (got.type) {
      type = types.find(function (t) {
        return norm(t) === norm(got.type) || norm(self.t("unit_type." + t)) === norm(got.type);
      });
      if (!type) return this.say("editor.oob.paste_type", { value: got.type });
    }
    const unit = this.fresh(side.id, type, got.name);
    const specs = this.ratingSpecs(type);
    const ratingNames = new Set(
      specs.map(function (s) {
        return s.name;
      }),
    );
    const given = Object.keys(got).filter(function (k) {
      return k.slice(0, 7) === "rating:";
    });
    for (const key of given) {
      const name = key.slice(7);
      const word = this.t("rating." + name);
      if (!ratingNames.has(name)) {
        return this.say("editor.oob.paste_unused", {
          column: word,
          type: this.t("unit_type." + type),
        });
      }
      const spec = specs.find(function (s) {
        return s.name === name;
      });
      const read = readNumber(got[key], spec, true);
      if (!read.ok) return this.rangeReason(word, got[key], spec);
      unit.ratings = unit.ratings || {};
      unit.ratings[name] = read.value;
    }
    if (got.steps !== undefined) {
      const spec = this.stepSpec(type);
      const word = this.t("editor.oob.steps");
      if (!spec) {
        return this.say("editor.oob.paste_unused", {
          column: word,
          type: this.t("unit_type." + type),
        });
      }
      const read = readNumber(got.steps, spec, true);
      if (!read.ok) return this.rangeReason(word, got.steps, spec);
      unit.steps = read.value;
    }
    if (got.hex !== undefined) {
      const label = this.readHex(got.hex);
      if (!label) return this.say("editor.oob.paste_hex", { value: got.hex });
      unit.hex = label;
    }
    units.push(unit);
    return null;
  },

  rangeReason(column, value, spec) {
    if (!isFinite(Number(String(value).replace(",", ".")))) {
      return this.say("editor.oob.paste_number", { column: column, value: value });
    }
    return this.say("editor.oob.paste_range", {
      column: column,
      value: value,
      min: spec.min,
      max: spec.max,
    });
  },

  // Add the good pasted rows in one change, and list the bad ones.
  addPasted() {
    const self = this;
    const read = this.readRows(this.pasteBox.value);
    if (read.units.length) {
      this.change(function (s) {
        s.units = s.units || [];
        const taken = new Set(
          s.units.map(function (u) {
            return u.id;
          }),
        );
        read.units.forEach(function (unit) {
          unit.id = freshId(taken, "u");
          s.units.push(unit);
        });
      }, "editor.oob.paste_add");
    }
    const lines = read.bad.map(function (b) {
      return el("li", {
        class: "oob-paste-bad",
        "data-row": b.row,
        text: self.say("editor.oob.paste_row", { row: b.row, reason: b.reason }),
      });
    });
    this.pasteReport.replaceChildren(
      el("p", {
        class: "oob-paste-added",
        text: read.units.length
          ? this.t("editor.oob.paste_added", { count: read.units.length })
          : this.t("editor.oob.paste_none"),
      }),
      lines.length ? el("ul", {}, lines) : null,
    );
  },
};
