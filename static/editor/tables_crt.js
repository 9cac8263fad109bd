// The owner's combat results table in the scenario editor (hex-hexside: the catalog entry of
// kind "crt", written at scenario.overrides.crt). The default is the stand-in the app ships,
// shown and worded as a stand-in of ours, never as the game's own. The owner's table is entered
// in a grid (odds columns, one row per die face, the result codes of each cell) or loaded from a
// table file (the one the play panel imports); each edit is one draft change, and "Back to the
// stand-in" takes the table out. The core checks every change (the shell's scenario_check names
// the cell it refuses), and a cell being typed is checked at once through check_crt.
import { fileReader } from "../files.js";
import { el, markInput, say } from "./forms.js";

const SIDES = ["attacker", "defender", "both"];
const RESULTS = ["", "r", "S"];
const RATIO = /^\s*(\d{1,6})\s*[:/]\s*(\d{1,6})\s*$/;
const CHECK_DELAY = 150; // ms of quiet typing before a cell is checked through the core

function clone(value) {
  return JSON.parse(JSON.stringify(value));
}

// Run `fn` when a typed value is finished: the input left, or Enter pressed.
function onCommit(input, fn) {
  input.addEventListener("change", fn);
  input.addEventListener("keydown", function (event) {
    if (event.key === "Enter") fn();
  });
}

function isTable(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

// A cell as typed: its codes, separated by spaces, commas or "+" (empty: no effect).
export function readCodes(text) {
  return String(text)
    .split(/[\s,+]+/)
    .filter(Boolean);
}

// Odds typed as "3:1" (or "3/1"): {label, attacker, defender}, or null.
export function readOdds(text) {
  const found = RATIO.exec(String(text));
  if (!found) return null;
  const a = Number(found[1]);
  const d = Number(found[2]);
  return a >= 1 && d >= 1 ? { label: a + ":" + d, attacker: a, defender: d } : null;
}

// A column of odds just above `last` ({attacker, defender}), its label not among `taken`.
export function nextOdds(last, taken) {
  let a = last ? last.attacker : 1;
  let d = last ? last.defender : 1;
  do {
    if (d > 1) d -= 1;
    else a += 1;
  } while (taken.indexOf(a + ":" + d) >= 0);
  return { label: a + ":" + d, attacker: a, defender: d };
}

// The owner's table to start from: the stand-in's columns, faces and codes, every cell empty
// (no effect), said to be the owner's: the owner types the printed cells in.
export function blankTable(standIn) {
  const columns = clone(standIn.columns || []);
  const codes = {};
  Object.keys(standIn.codes || {}).forEach(function (code) {
    const entry = Object.assign({}, standIn.codes[code]);
    delete entry.text; // the stand-in's own words
    codes[code] = entry;
  });
  return {
    stand_in: false,
    rule: "combat results table",
    roll_limits: { value: "clamp" },
    columns: columns,
    rows: (standIn.rows || []).map(function (row) {
      const cells = {};
      columns.forEach(function (c) {
        cells[c.label] = [];
      });
      return { roll: row.roll, cells: cells };
    }),
    codes: codes,
  };
}

export class CrtSection {
  constructor(ctx, entry, title) {
    this.ctx = ctx;
    this.entry = entry;
    this.title = title;
    this.own = null; // the scenario's table, or null (the stand-in)
    this.shape = null;
    this.inputs = new Map(); // place key -> input
    this.checkSeq = 0;
    this.readJson = fileReader(function () {
      return (ctx.engine && ctx.engine.info && ctx.engine.info.limits) || {};
    });
    this.heading = el("h3", { class: "tables-heading", text: title });
    this.status = el("p", { class: "crt-status", role: "status" });
    this.file = el("input", { type: "file", accept: ".json,application/json", hidden: true });
    this.file.addEventListener("change", () => {
      const file = this.file.files && this.file.files[0];
      this.file.value = "";
      if (file) this.load(file);
    });
    this.buttons = el("div", { class: "oob-buttons crt-actions" });
    this.editor = el("div", { class: "crt-editor" });
    // The core's word on the cell being typed (check_crt), under the grid.
    this.problem = el("p", { class: "oob-bad crt-problem", id: "crt-problem", role: "status" });
    this.problem.hidden = true;
    this.standIn = el("details", { class: "crt-default" });
    this.node = el("section", { class: "tables-group crt-section", "data-table": "crt" }, [
      this.heading,
      this.status,
      this.buttons,
      this.file,
      this.editor,
      this.standIn,
    ]);
    this.drawStandIn();
  }

  t(key, params) {
    return this.ctx.i18n.t(key, params);
  }

  // The words a filter finds the section by.
  get text() {
    return String(this.title + " " + this.t("editor.crt.stand_in_title")).toLowerCase();
  }

  // ---- drawing ---------------------------------------------------------------------------

  update(scenario) {
    const overrides = isTable(scenario.overrides) ? scenario.overrides : {};
    const own = overrides.crt === undefined ? null : overrides.crt;
    this.own = own;
    const tableShape = isTable(own) && Array.isArray(own.columns) && Array.isArray(own.rows);
    const shape = JSON.stringify(
      tableShape
        ? [
            own.columns.map((c) => (isTable(c) ? c.label : null)),
            own.rows.map((r) => (isTable(r) ? r.roll : null)),
            Object.keys(isTable(own.codes) ? own.codes : {}),
          ]
        : own === null
          ? "stand-in"
          : "other",
    );
    this.node.classList.toggle("is-changed", own !== null);
    this.node.dataset.crt = own === null ? "stand-in" : "scenario";
    this.drawStatus(own);
    if (shape !== this.shape) {
      this.shape = shape;
      const active = document.activeElement;
      const focus = active && active.dataset ? active.dataset.crtKey : null;
      this.drawEditor(tableShape ? own : null);
      const again = focus ? this.inputs.get(focus) : null;
      if (again) again.focus();
    }
    if (tableShape) this.fill(own);
    if (this.focusFirst && tableShape) {
      // Just entered: the first cell, ready for the printed table's first value.
      this.focusFirst = false;
      const first = this.inputs.get("rows/0/" + (own.columns[0] || {}).label);
      if (first) first.focus();
    }
  }

  drawStatus(own) {
    const name = isTable(own) && typeof own.name === "string" ? own.name.trim() : "";
    if (own === null) this.status.textContent = this.t("editor.crt.uses_stand_in");
    else if (name) this.status.textContent = say(this.ctx.i18n, "editor.crt.uses_own", { name });
    else this.status.textContent = this.t("editor.crt.uses_own_unnamed");
    const buttons = [];
    if (own === null) {
      buttons.push(this.button("editor.crt.enter", () => this.enter(), "crt-enter", "primary"));
    }
    buttons.push(this.button("editor.crt.load", () => this.file.click(), "crt-load"));
    if (own !== null) buttons.push(this.button("editor.crt.back", () => this.back(), "crt-back"));
    this.buttons.replaceChildren.apply(this.buttons, buttons);
  }

  button(key, action, cls, more) {
    const node = el("button", {
      type: "button",
      class: cls + (more ? " " + more : ""),
      text: this.t(key),
    });
    node.addEventListener("click", action);
    return node;
  }

  // The grid of the scenario's table: its name, its odds columns, a row per die face, its codes.
  drawEditor(own) {
    this.inputs.clear();
    if (!own) {
      this.editor.replaceChildren();
      this.standIn.open = this.own === null;
      return;
    }
    this.standIn.open = false;
    const name = this.field("name", el("input", { type: "text", class: "crt-name" }));
    onCommit(name, () => {
      const text = name.value.trim();
      if (text === (typeof this.own.name === "string" ? this.own.name : "")) return;
      this.write((t) => {
        if (text) t.name = text;
        else delete t.name;
      });
    });
    const head = [el("th", { scope: "col", text: this.t("ref.col.roll") })];
    own.columns.forEach((col, i) => head.push(this.columnHead(own, col, i)));
    const add = this.button("editor.crt.add_column", () => this.addColumn(), "crt-add-column");
    head.push(el("th", { class: "crt-add" }, [add]));
    const body = own.rows.map((row, r) => {
      const cells = [el("th", { scope: "row", class: "crt-roll", text: String(row.roll) })];
      own.columns.forEach((col) => cells.push(el("td", {}, [this.cellInput(own, r, col.label)])));
      return el("tr", { "data-roll": String(row.roll) }, cells);
    });
    const grid = el("table", { class: "crt-grid" }, [
      el("caption", { class: "hint", text: this.t("editor.crt.cells_hint") }),
      el("thead", {}, [el("tr", {}, head)]),
      el("tbody", {}, body),
    ]);
    this.editor.replaceChildren(
      el("label", { class: "oob-field oob-wide crt-name-field" }, [
        el("span", { class: "oob-label", text: this.t("editor.crt.name") }),
        name,
      ]),
      el("div", { class: "crt-scroll" }, [grid]),
      this.problem,
      el("h4", { class: "crt-codes-title", text: this.t("editor.crt.codes") }),
      this.codesTable(own),
      this.button("editor.crt.add_code", () => this.addCode(), "crt-add-code"),
    );
  }

  field(key, input) {
    input.dataset.crtKey = key;
    this.inputs.set(key, input);
    return input;
  }

  columnHead(own, col, i) {
    const input = this.field(
      "columns/" + i,
      el("input", {
        type: "text",
        class: "crt-odds",
        "aria-label": say(this.ctx.i18n, "editor.crt.odds_of", { n: i + 1 }),
        autocomplete: "off",
        spellcheck: "false",
      }),
    );
    onCommit(input, () => {
      const odds = readOdds(input.value);
      markInput(input, odds ? null : this.t("editor.crt.bad_odds"));
      if (!odds || odds.label === col.label) return;
      this.write((t) => {
        const at = t.columns[i];
        const old = at.label;
        t.columns[i] = Object.assign({}, at, odds);
        t.rows.forEach((row) => {
          if (!isTable(row.cells)) return;
          const cells = {};
          Object.keys(row.cells).forEach((k) => {
            cells[k === old ? odds.label : k] = row.cells[k];
          });
          row.cells = cells;
        });
      });
    });
    const remove = el("button", {
      type: "button",
      class: "crt-remove",
      text: "×",
      "aria-label": say(this.ctx.i18n, "editor.crt.remove_column", { column: col.label }),
    });
    remove.disabled = own.columns.length < 2;
    remove.addEventListener("click", () => {
      this.write((t) => {
        const label = t.columns[i].label;
        t.columns.splice(i, 1);
        t.rows.forEach((row) => {
          if (isTable(row.cells)) delete row.cells[label];
        });
      });
    });
    return el("th", { scope: "col", "data-column": String(col.label) }, [
      el("span", { class: "crt-odds-box" }, [input, remove]),
    ]);
  }

  cellInput(own, r, label) {
    const roll = own.rows[r].roll;
    const input = this.field(
      "rows/" + r + "/" + label,
      el("input", {
        type: "text",
        class: "crt-cell",
        "data-roll": String(roll),
        "data-column": String(label),
        "aria-label": say(this.ctx.i18n, "editor.crt.cell", { roll: roll, column: label }),
        autocomplete: "off",
        autocapitalize: "characters",
        spellcheck: "false",
      }),
    );
    const table = (codes) => {
      const t = clone(this.own);
      t.rows[r].cells[label] = codes;
      return t;
    };
    const place = "crt.rows[" + r + "].cells." + label;
    input.addEventListener("input", () => {
      this.checkSoon(input, table(readCodes(input.value)), place);
    });
    onCommit(input, () => {
      const codes = readCodes(input.value);
      if (JSON.stringify(codes) === JSON.stringify(this.own.rows[r].cells[label])) return;
      this.write((t) => {
        t.rows[r].cells[label] = codes;
      });
    });
    return el("span", { class: "crt-cell-box" }, [input]);
  }

  codesTable(own) {
    const codes = isTable(own.codes) ? own.codes : {};
    const head = ["ref.col.code", "ref.col.who", "ref.col.loss_points", "ref.col.result"].map(
      (key) => el("th", { scope: "col", text: this.t(key) }),
    );
    head.push(el("th", {}));
    const rows = Object.keys(codes).map((code) => this.codeRow(code, codes[code]));
    return el("table", { class: "crt-codes" }, [
      el("thead", {}, [el("tr", {}, head)]),
      el("tbody", {}, rows),
    ]);
  }

  // A code's name: renamed in the table's codes and in every cell that holds it; refused
  // when empty, with a space, comma or plus, or another code's.
  codeName(code) {
    const name = this.field(
      "codes/" + code,
      el("input", {
        type: "text",
        class: "crt-code",
        "aria-label": say(this.ctx.i18n, "editor.crt.code_name", { code: code }),
        autocomplete: "off",
        spellcheck: "false",
      }),
    );
    onCommit(name, () => {
      const next = name.value.trim();
      const bad = !next || /[\s,+]/.test(next) || (next !== code && this.own.codes[next]);
      markInput(name, bad ? this.t("editor.crt.bad_code_name") : null);
      if (bad || next === code) return;
      this.write((t) => {
        const codes = {};
        Object.keys(t.codes).forEach((k) => {
          codes[k === code ? next : k] = t.codes[k];
        });
        t.codes = codes;
        t.rows.forEach((row) => {
          Object.keys(isTable(row.cells) ? row.cells : {}).forEach((k) => {
            const cell = row.cells[k];
            if (Array.isArray(cell)) row.cells[k] = cell.map((c) => (c === code ? next : c));
          });
        });
      });
    });
    return name;
  }

  codeRow(code, entry) {
    const name = this.codeName(code);
    const side = this.field(
      "codes/" + code + "/side",
      el(
        "select",
        { class: "crt-side", "aria-label": say(this.ctx.i18n, "editor.crt.code_side", { code }) },
        SIDES.map((s) => el("option", { value: s, text: this.t("ref.side_role." + s) })),
      ),
    );
    side.addEventListener("change", () => this.write((t) => (t.codes[code].side = side.value)));
    const steps = this.field(
      "codes/" + code + "/steps",
      el("input", {
        type: "text",
        inputmode: "numeric",
        class: "crt-steps",
        "aria-label": say(this.ctx.i18n, "editor.crt.code_steps", { code }),
        autocomplete: "off",
      }),
    );
    onCommit(steps, () => {
      const value = Number(steps.value.trim());
      const ok = steps.value.trim() !== "" && Math.floor(value) === value;
      markInput(steps, ok ? null : this.t("editor.tables.bad_int"));
      if (ok && value !== (this.own.codes[code] || {}).steps) {
        this.write((t) => (t.codes[code].steps = value));
      }
    });
    const result = this.field(
      "codes/" + code + "/result",
      el(
        "select",
        {
          class: "crt-result",
          "aria-label": say(this.ctx.i18n, "editor.crt.code_result", { code }),
        },
        RESULTS.map((r) =>
          el("option", {
            value: r,
            text: r ? this.t("effect.hh_" + r) : this.t("editor.crt.none"),
          }),
        ),
      ),
    );
    result.addEventListener("change", () => {
      this.write((t) => {
        if (result.value) t.codes[code].result = result.value;
        else delete t.codes[code].result;
      });
    });
    const remove = el("button", {
      type: "button",
      class: "crt-remove",
      text: "×",
      "aria-label": say(this.ctx.i18n, "editor.crt.remove_code", { code: code }),
    });
    remove.addEventListener("click", () => this.write((t) => delete t.codes[code]));
    const cells = [name, side, steps, result, remove].map((n) =>
      el("td", {}, [el("span", { class: "crt-code-box" }, [n])]),
    );
    return el("tr", { "data-code": code }, cells);
  }

  // The scenario's values in the inputs, but for one being typed in.
  fill(own) {
    const active = document.activeElement;
    const put = (key, value) => {
      const input = this.inputs.get(key);
      if (!input || (input === active && input.getAttribute("aria-invalid"))) return;
      if (input.value !== value) input.value = value;
      if (input === active) return;
      if (input.classList.contains("crt-cell")) {
        if (input.getAttribute("aria-invalid")) this.markCell(input, null);
      } else markInput(input, null);
    };
    put("name", typeof own.name === "string" ? own.name : "");
    own.columns.forEach((col, i) => put("columns/" + i, isTable(col) ? String(col.label) : ""));
    own.rows.forEach((row, r) => {
      own.columns.forEach((col) => {
        const cell = isTable(row.cells) ? row.cells[col.label] : null;
        put("rows/" + r + "/" + col.label, Array.isArray(cell) ? cell.join(" ") : "");
      });
    });
    const codes = isTable(own.codes) ? own.codes : {};
    Object.keys(codes).forEach((code) => {
      const entry = isTable(codes[code]) ? codes[code] : {};
      put("codes/" + code, code);
      put("codes/" + code + "/side", String(entry.side || ""));
      put("codes/" + code + "/steps", entry.steps === undefined ? "" : String(entry.steps));
      put("codes/" + code + "/result", String(entry.result || ""));
    });
  }

  // The default, read only: the stand-in's cells and codes, worded as the stand-in.
  drawStandIn() {
    const t = this.entry.default || {};
    const columns = t.columns || [];
    const head = [el("th", { scope: "col", text: this.t("ref.col.roll") })].concat(
      columns.map((c) => el("th", { scope: "col", text: String(c.label) })),
    );
    const rows = (t.rows || []).map((row) =>
      el(
        "tr",
        {},
        [el("th", { scope: "row", text: String(row.roll) })].concat(
          columns.map((c) => {
            const codes = (row.cells || {})[c.label] || [];
            return el("td", { text: codes.length ? codes.join(" ") : "—" });
          }),
        ),
      ),
    );
    const codes = Object.keys(t.codes || {}).map((code) => {
      const entry = t.codes[code];
      const words = [this.t("ref.side_role." + entry.side), String(entry.steps || 0)];
      if (entry.result) words.push(this.t("effect.hh_" + entry.result));
      return el("li", { text: code + ": " + words.join(", ") });
    });
    this.standIn.replaceChildren(
      el("summary", { text: this.t("editor.crt.stand_in_title") }),
      el("p", { class: "hint", text: this.t("ui.crt_stand_in") }),
      el("div", { class: "crt-scroll" }, [
        el("table", { class: "crt-grid crt-stand-in" }, [
          el("thead", {}, [el("tr", {}, head)]),
          el("tbody", {}, rows),
        ]),
      ]),
      el("ul", { class: "crt-stand-in-codes" }, codes),
    );
  }

  // ---- the core's answers --------------------------------------------------------------

  // A cell being typed, checked through the core: its refusal beside the cell at once.
  checkSoon(input, table, place) {
    if (!this.ctx.engine) return;
    const seq = ++this.checkSeq;
    clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(() => {
      this.ctx.engine.call("check_crt", { crt: table }).then(
        () => {
          if (seq === this.checkSeq) this.markCell(input, null);
        },
        (error) => {
          if (seq !== this.checkSeq || !input.isConnected) return;
          // The cell is marked when the refusal names it; another place is the core's to mark.
          const detail = String((error && error.params && error.params.place) || "");
          this.markCell(input, this.errorText(error), detail.indexOf(place) < 0);
        },
      );
    }, CHECK_DELAY);
  }

  // A cell marked refused, the core's words in the line under the grid (a cell stays small).
  markCell(input, message, elsewhere) {
    this.problem.hidden = !message;
    this.problem.textContent = message || "";
    if (message && !elsewhere) {
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", this.problem.id);
    } else {
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
    }
  }

  errorText(error) {
    if (error && error.key) return this.ctx.i18n.t(error.key, error.params || {}, error.message);
    return String((error && error.message) || error);
  }

  // Mark the place the core names under overrides.crt: a cell, a column, a code, the name.
  highlight(path) {
    const key = path[0] === "rows" && path.length > 3 ? ["rows", path[1], path[3]].join("/") : "";
    const found =
      this.inputs.get(key) ||
      (path[0] === "columns" ? this.inputs.get("columns/" + path[1]) : null) ||
      (path[0] === "codes" ? this.inputs.get("codes/" + path[1]) : null) ||
      (path[0] === "name" ? this.inputs.get("name") : null);
    const node = found ? found.closest("td, th, label") || found : this.heading;
    node.classList.add("is-marked");
    return node;
  }

  // ---- writing ---------------------------------------------------------------------------

  // One draft change to the scenario's table.
  write(fn) {
    this.ctx.draft.change(function (s) {
      if (!isTable(s.overrides)) s.overrides = {};
      if (!isTable(s.overrides.crt)) return;
      fn(s.overrides.crt);
    }, "editor.tables.crt");
  }

  put(table) {
    this.ctx.draft.change(function (s) {
      if (!isTable(s.overrides)) s.overrides = {};
      s.overrides.crt = table;
    }, "editor.tables.crt");
  }

  enter() {
    this.focusFirst = true;
    this.put(blankTable(this.entry.default || {}));
  }

  back() {
    this.ctx.draft.change(function (s) {
      if (isTable(s.overrides)) delete s.overrides.crt;
    }, "editor.tables.crt");
  }

  addColumn() {
    this.write(function (t) {
      const labels = t.columns.map((c) => c.label);
      const odds = nextOdds(t.columns[t.columns.length - 1], labels);
      t.columns.push(odds);
      t.rows.forEach((row) => {
        if (isTable(row.cells)) row.cells[odds.label] = [];
      });
    });
  }

  addCode() {
    this.write(function (t) {
      if (!isTable(t.codes)) t.codes = {};
      let n = 1;
      while (t.codes["X" + n]) n += 1;
      t.codes["X" + n] = { side: "defender", steps: 1 };
    });
  }

  // A table file (the one the play panel imports): checked by the core, then the scenario's.
  load(file) {
    const message = this.ctx.message || function () {};
    return this.readJson(file, "crt")
      .then((table) =>
        this.ctx.engine.call("check_crt", { crt: table }).then(() => {
          this.put(table);
          message(say(this.ctx.i18n, "editor.crt.loaded", { name: file.name }), "info");
        }),
      )
      .catch((error) => {
        const problem = this.errorText(error);
        message(say(this.ctx.i18n, "editor.crt.refused", { name: file.name, problem }), "error");
      });
  }
}
