// Many units edited at once in the order of battle (methods of OrderOfBattle,
// static/editor/oob.js): a box on every unit's row, all of a side or every unit (or those whose
// name holds a text) selected in one tap, then deleted or moved to another side in one change.
// The selection lives on the page, never in the scenario; the rows' boxes follow it without
// drawing a row again, so selecting among 2,000 units stays quick.

import { el } from "./forms.js";

export const bulkMethods = {
  // The bar above the units: what is selected, the ways to select, and what to do with them.
  drawBulkBar() {
    const sides = this.scenario.sides || [];
    if (!this.selected) this.selected = new Set();
    this.bulkCount = el("span", { class: "oob-bulk-count", role: "status" });
    this.bulkFind = el("input", {
      type: "search",
      class: "oob-bulk-find",
      "aria-label": this.t("editor.oob.bulk_find"),
      placeholder: this.t("editor.oob.bulk_find"),
    });
    this.bulkFind.addEventListener("keydown", (event) => {
      if (event.key === "Enter") this.selectNamed();
    });
    this.bulkSide = el(
      "select",
      { class: "oob-bulk-side", "aria-label": this.t("editor.oob.bulk_to_side") },
      sides.map((s) => el("option", { value: s.id, text: this.name(s.name) })),
    );
    const button = (cls, key, fn) =>
      el("button", { type: "button", class: cls, text: this.t(key), onclick: fn });
    this.bulkActs = [
      button("oob-bulk-move", "editor.oob.bulk_move", () => this.moveSelected(this.bulkSide.value)),
      button("oob-bulk-delete", "editor.oob.bulk_delete", () => this.deleteSelected()),
      button("oob-bulk-clear", "editor.oob.bulk_clear", () => this.select(() => false)),
    ];
    this.bulkEl.replaceChildren(
      el("div", { class: "oob-buttons" }, [
        button("oob-bulk-all", "editor.oob.bulk_all", () => this.select(() => true)),
        this.bulkFind,
        button("oob-bulk-named", "editor.oob.bulk_named", () => this.selectNamed()),
      ]),
      el("div", { class: "oob-buttons oob-bulk-acts" }, [
        this.bulkCount,
        this.bulkActs[0],
        el("label", { class: "oob-field" }, [
          el("span", { class: "oob-label", text: this.t("editor.oob.bulk_to_side") }),
          this.bulkSide,
        ]),
        this.bulkActs[1],
        this.bulkActs[2],
      ]),
    );
    this.showSelected();
  },

  // The box of a unit's row, following the selection.
  selectBox(id, name) {
    const box = el("input", {
      type: "checkbox",
      class: "oob-select",
      "data-field": "select",
      "aria-label": this.say("editor.oob.select_named", { name: name }),
      checked: this.selected && this.selected.has(id),
    });
    box.addEventListener("change", () => {
      if (box.checked) this.selected.add(id);
      else this.selected.delete(id);
      this.showSelected();
    });
    return box;
  },

  // Select the units for which test(unit) holds (and only them).
  select(test) {
    this.selected = new Set(
      (this.scenario.units || []).filter((u) => u && test(u)).map((u) => u.id),
    );
    this.showSelected();
  },

  // Add a side's units to the selection (or take them out when all already are).
  selectSide(side) {
    const mine = (this.scenario.units || []).filter((u) => u && u.side === side);
    const all = mine.length && mine.every((u) => this.selected.has(u.id));
    mine.forEach((u) => (all ? this.selected.delete(u.id) : this.selected.add(u.id)));
    this.showSelected();
  },

  // The units whose name holds the text typed in the find box.
  selectNamed() {
    const text = this.bulkFind.value.trim().toLowerCase();
    if (!text) return;
    this.select((u) => this.name(u.name).toLowerCase().includes(text));
    // A few found on a folded side: their groups are opened to show them.
    if (this.selected.size <= 20 && this.openGroupsOf(Array.from(this.selected))) {
      this.drawUnits();
      this.showSelected();
    }
  },

  // The boxes, the count and the buttons after the selection changed (or the units did).
  showSelected() {
    if (!this.bulkCount) return;
    const units = this.scenario.units || [];
    const present = new Set(units.map((u) => u && u.id));
    for (const id of Array.from(this.selected)) if (!present.has(id)) this.selected.delete(id);
    this.rows.forEach((row, id) => {
      const box = row.node.querySelector(".oob-select");
      if (box) box.checked = this.selected.has(id);
    });
    this.showSelectedInGroups();
    const count = this.selected.size;
    this.bulkCount.textContent = this.t("editor.oob.bulk_count", { count });
    this.bulkActs.forEach((b) => (b.disabled = count === 0));
    this.bulkSide.disabled = count === 0;
  },

  deleteSelected() {
    const gone = new Set(this.selected);
    if (!gone.size) return;
    this.selected.clear();
    this.change(function (s) {
      s.units = (s.units || []).filter((u) => !u || !gone.has(u.id));
    }, "editor.oob.bulk_delete");
  },

  // Move the selected units to `side`: a formation of their old side does not follow them.
  moveSelected(side) {
    const moving = new Set(this.selected);
    if (!moving.size || !side) return;
    this.change(function (s) {
      (s.units || []).forEach((u) => {
        if (!u || !moving.has(u.id) || u.side === side) return;
        u.side = side;
        delete u.formation;
      });
    }, "editor.oob.bulk_move");
  },
};
