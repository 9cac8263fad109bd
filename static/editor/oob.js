// The order of battle of the scenario editor: the sides (names, counter colours, army morale),
// the formations of hex-facing, and the units of each side with the ratings their type needs,
// where they stand, their facing and formation; rows pasted from a spreadsheet. Ranges and lists
// come from the core's catalog (editor_catalog); every write is one ctx.draft.change, and the
// core checks the whole scenario after it. Ids are made here and never shown.
//
// The panel is this class with its concerns beside it, mixed into its prototype: the sides and
// formations (oobsides.js), the units (oobunits.js), a side of many units folded in groups
// (oobfold.js), many units at once (oobbulk.js), the pieces
// of a VASSAL module (oobpieces.js), the paste from a spreadsheet (oobpaste.js);
// the DOM and form helpers are forms.js's (re-exported here for tables.js).

import { byId, cssId, drawInTurn, el, markInput, nextSerial, readNumber, say } from "./forms.js";
import { editedText, shownText } from "./editor_common.js";
import { bulkMethods } from "./oobbulk.js";
import { foldMethods } from "./oobfold.js";
import { pasteMethods } from "./oobpaste.js";
import { pieceMethods } from "./oobpieces.js";
import { sideMethods } from "./oobsides.js";
import { unitMethods } from "./oobunits.js";

export class OrderOfBattle {
  constructor(ctx, root) {
    this.ctx = ctx;
    this.root = root;
    this.scenario = null;
    this.pieceNames = [];
    this.pieceGroups = [];
    this.selected = new Set(); // the ids of the units selected for a change of many
    this.open = new Set(); // the keys of the groups open on a folded side (oobfold.js)
    this.rows = new Map(); // unit id -> {sig, node}
    this.frameSig = null;
    this.marked = null;
    this.listId = "oob-pieces-" + nextSerial();
    root.classList.add("oob");
    this.sidesEl = el("div", { class: "oob-sides" });
    this.formationsEl = el("div", { class: "oob-formations" });
    this.piecesEl = el("details", { class: "oob-module-pieces", hidden: true });
    this.bulkEl = el("div", { class: "oob-bulk" });
    this.unitsEl = el("div", { class: "oob-units" });
    this.pasteEl = el("details", { class: "oob-paste" });
    this.datalist = el("datalist", { id: this.listId });
    this.listenForPaste();
    root.replaceChildren(
      this.heading("h3", "editor.oob.sides"),
      this.sidesEl,
      this.formationsEl,
      this.heading("h3", "editor.oob.units"),
      this.piecesEl,
      this.bulkEl,
      this.unitsEl,
      this.pasteEl,
      this.datalist,
    );
  }

  heading(tag, key) {
    const node = el(tag, { "data-i18n": key, text: this.t(key) });
    return node;
  }

  t(key, params) {
    return this.ctx.i18n.t(key, params);
  }

  say(key, raw) {
    return say(this.ctx.i18n, key, raw);
  }

  // A name of the file (one text, or texts by language) as a field shows it.
  name(value) {
    return shownText(value, this.ctx.i18n);
  }

  // A name once its field was edited: the other languages it is given in are kept.
  renamed(old, text) {
    return editedText(old, text, this.ctx.i18n.lang);
  }

  get catalog() {
    return this.ctx.catalog || {};
  }

  get units() {
    return this.catalog.units || { types: [], ratings: {}, steps: {} };
  }

  // ---- the interface ---------------------------------------------------------------------

  update(scenario, info) {
    // A file opened or a new scenario: its units are not the ones selected, even where their
    // ids are the same (a delete of "the selected" would take units never chosen).
    // Its groups are folded again.
    if (info && info.kind === "replace") {
      this.selected.clear();
      this.open.clear();
      this.knownIds = null;
    }
    drawInTurn(this, scenario, info);
  }

  draw(scenario) {
    this.scenario = scenario;
    const map = scenario.map || {};
    const frame = JSON.stringify([
      this.ctx.i18n.lang,
      this.catalog.system,
      map.orientation,
      (map.locales || []).map(function (l) {
        return [l.id, l.name];
      }),
      scenario.sides,
      scenario.formations,
      this.pieceNames.length,
      this.pieceGroups.length,
    ]);
    const focus = this.focusKey();
    if (frame !== this.frameSig) {
      this.frameSig = frame;
      this.rows.clear();
      this.heads = null;
      this.spareRows = null;
      this.root.querySelectorAll("[data-i18n]").forEach((node) => {
        node.textContent = this.t(node.getAttribute("data-i18n"));
      });
      this.drawSides();
      this.drawFormations();
      this.drawPieceChooser();
      this.drawBulkBar();
      this.drawUnitFrame();
      this.drawPaste();
    }
    this.drawUnits();
    this.showSelected();
    this.restoreFocus(focus);
    if (this.marked) this.highlight(this.marked.place, true);
  }

  highlight(place, quiet) {
    this.root.querySelectorAll(".is-marked").forEach(function (node) {
      node.classList.remove("is-marked");
    });
    this.marked = null;
    if (!place) return;
    let node = null;
    const id = String(place.id);
    if (place.kind === "unit") {
      const row = () => this.root.querySelector(`.oob-unit[data-unit="${cssId(id)}"]`);
      node = row();
      // On a folded side, the unit's group is opened to show it.
      if (!node && !quiet && this.scenario && this.openGroupsOf([id])) {
        this.drawUnits();
        this.showSelected();
        node = row();
      }
    } else if (place.kind === "side")
      node = this.root.querySelector(`.oob-side[data-side="${cssId(id)}"]`);
    else if (place.kind === "formation")
      node = this.root.querySelector(`.oob-formation[data-formation="${cssId(id)}"]`);
    if (!node) return;
    this.marked = { place: place };
    node.classList.add("is-marked");
    if (!quiet && node.scrollIntoView) node.scrollIntoView({ block: "nearest" });
  }

  // The module's piece names (for the name fields' list, and one unit per name), and their
  // groups when the module gave them (ctx.pieceGroups, from vassal.js): then the chooser of
  // groups takes the place of one unit per name.
  setPieceNames(names) {
    this.setPieceGroups(this.ctx.pieceGroups);
    const seen = new Set();
    this.pieceNames = (names || [])
      .map(function (n) {
        return String(n).trim();
      })
      .filter(function (n) {
        if (!n || seen.has(n)) return false;
        seen.add(n);
        return true;
      });
    this.datalist.replaceChildren(
      ...this.pieceNames.map(function (n) {
        return el("option", { value: n });
      }),
    );
    if (this.scenario) {
      this.frameSig = null;
      this.update(this.scenario);
    }
  }

  // ---- keeping the focus across redraws -------------------------------------------------

  focusKey() {
    const active = document.activeElement;
    if (!active || !this.root.contains(active)) return null;
    const holder = active.closest("[data-key-scope]");
    const field = active.getAttribute("data-field");
    if (!holder || !field) return null;
    return { scope: holder.getAttribute("data-key-scope"), field: field };
  }

  restoreFocus(key) {
    if (!key) return;
    const active = document.activeElement;
    if (active && this.root.contains(active) && active !== document.body) return;
    const holder = Array.from(this.root.querySelectorAll("[data-key-scope]")).find(function (n) {
      return n.getAttribute("data-key-scope") === key.scope;
    });
    const field = holder && holder.querySelector(`[data-field="${cssId(key.field)}"]`);
    if (field) field.focus({ preventScroll: true });
  }

  // ---- one change to the draft ----------------------------------------------------------

  change(fn, what) {
    this.ctx.draft.change(fn, what);
  }

  changeUnit(id, fn, what) {
    this.change(function (s) {
      const unit = byId(s.units, id);
      if (unit) fn(unit, s);
    }, what);
  }

  changeSide(id, fn) {
    this.change(function (s) {
      const side = byId(s.sides, id);
      if (side) fn(side, s);
    }, "editor.oob.sides");
  }

  // An input that writes when its value is complete (change, Enter) and checks as typed.
  // check(text) -> {ok, message} ; write(text) is called once the text is valid and new.
  field(input, check, write) {
    let written = null; // the text written last: Enter, then leaving the field, write once
    const run = function (commit) {
      const verdict = check(input.value);
      markInput(input, verdict.ok ? null : verdict.message);
      if (commit && verdict.ok && !verdict.same && input.value !== written) {
        written = input.value;
        write(input.value);
      }
    };
    input.addEventListener("input", function () {
      run(false);
    });
    input.addEventListener("change", function () {
      run(true);
    });
    input.addEventListener("keydown", function (event) {
      if (event.key === "Enter" && input.tagName === "INPUT") run(true);
    });
    return input;
  }

  textField(attrs, value, write, required) {
    const input = el("input", Object.assign({ type: "text", value: value || "" }, attrs));
    const self = this;
    return this.field(
      input,
      function (text) {
        const clean = text.trim();
        if (required && !clean) return { ok: false, message: self.t("editor.oob.need_name") };
        return { ok: true, same: clean === (value || "") };
      },
      function (text) {
        write(text.trim());
      },
    );
  }

  // A number input held to spec {min, max}; optional ones may be emptied (write(null)).
  numberField(attrs, value, spec, write, optional) {
    const input = el(
      "input",
      Object.assign(
        {
          type: "number",
          inputmode: "numeric",
          step: "1",
          min: spec.min,
          max: spec.max,
          value: typeof value === "number" ? String(value) : "",
          placeholder:
            optional && typeof spec.default === "number" ? String(spec.default) : undefined,
        },
        attrs,
      ),
    );
    const self = this;
    return this.field(
      input,
      function (text) {
        const read = readNumber(text, spec, true);
        if (read.empty && optional) return { ok: true, same: typeof value !== "number" };
        if (!read.ok) {
          return {
            ok: false,
            message: self.say("editor.oob.range", { min: spec.min, max: spec.max }),
          };
        }
        return { ok: true, same: read.value === value };
      },
      function (text) {
        const read = readNumber(text, spec, true);
        write(read.empty ? null : read.value);
      },
    );
  }

  labelled(key, control, extra) {
    return el("label", { class: "oob-field" + (extra ? " " + extra : "") }, [
      el("span", { class: "oob-label", text: this.t(key) }),
      control,
    ]);
  }
}

Object.assign(
  OrderOfBattle.prototype,
  sideMethods,
  unitMethods,
  foldMethods,
  bulkMethods,
  pieceMethods,
  pasteMethods,
);
