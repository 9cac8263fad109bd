// The game's own tables in the scenario editor: every value of the system a scenario may
// override (the core's catalog.tables), grouped by table, each with its default beside it, an
// input of its kind and a reset. A value equal to its default is no override: writing it
// removes the entry. Overrides live at scenario.overrides[table][path...], merged key by key
// (docs/scenario-format.md, "Overrides"); the core checks them after every change. An owner's
// combat results table (hex-hexside, kind "crt") is a whole table: its section is tables_crt.js.
import { drawInTurn, el, markInput, readNumber, say } from "./forms.js";
import { CrtSection } from "./tables_crt.js";

// Words of the tables the formats names; a table without words is shown by its own heading.
const TABLE_KEYS = {
  terrain: "editor.tables.terrain",
  movement: "editor.tables.movement",
  los: "editor.tables.los",
  sequence: "editor.tables.sequence",
  crt: "editor.tables.crt",
  combat: "editor.tables.combat",
};
// Words tried, in order, for a part of a path whose entry has no label of its own.
const PATH_WORDS = ["terrain.", "feature.", "connection.", "unit_type.", "rating."];

function clone(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function isObject(value) {
  return value !== null && typeof value === "object";
}

export function getAt(root, path) {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    if (!isObject(node)) return undefined;
    node = node[path[i]];
  }
  return node;
}

// Put `value` at `path` in `root`, making the objects on the way; a list on the way starts as a
// copy of its default (a list is overridden whole).
export function setAt(root, path, value, defaults) {
  let node = root;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i];
    if (!isObject(node[key])) {
      const model = getAt(defaults, path.slice(0, i + 1));
      node[key] = Array.isArray(model) ? clone(model) : {};
    }
    node = node[key];
  }
  node[path[path.length - 1]] = value;
}

// Take the override at `path` out of `root`, and every object it leaves empty (a list goes
// when it is back to its default).
export function removeAt(root, path, defaults) {
  const chain = [root];
  for (let i = 0; i < path.length - 1; i++) {
    const next = chain[i][path[i]];
    if (!isObject(next)) return;
    chain.push(next);
  }
  const last = chain[chain.length - 1];
  const leaf = path[path.length - 1];
  if (Array.isArray(last)) last[leaf] = clone(getAt(defaults, path));
  else delete last[leaf];
  for (let i = chain.length - 1; i > 0; i--) {
    const node = chain[i];
    const empty = Array.isArray(node)
      ? same(node, getAt(defaults, path.slice(0, i)))
      : Object.keys(node).length === 0;
    if (!empty) break;
    if (Array.isArray(chain[i - 1]))
      chain[i - 1][path[i - 1]] = clone(getAt(defaults, path.slice(0, i)));
    else delete chain[i - 1][path[i - 1]];
  }
}

// A terrain chart cell typed as text: a number, "P", "NE" or an object ({...} as JSON).
export function parseCell(text) {
  const raw = String(text).trim();
  if (/^[+-]?\d+([.,]\d+)?$/.test(raw)) return { ok: true, value: Number(raw.replace(",", ".")) };
  const upper = raw.toUpperCase();
  if (upper === "P" || upper === "NE") return { ok: true, value: upper };
  if (raw.charAt(0) === "{") {
    try {
      const value = JSON.parse(raw);
      if (isObject(value) && !Array.isArray(value)) return { ok: true, value: value };
    } catch (error) {
      // not JSON: refused below
    }
  }
  return { ok: false };
}

function norm(text) {
  return String(text || "").toLowerCase();
}

// An entry's path inside overrides[table]: the catalog writes it from overrides down, the table
// first (["terrain", "woods", "cav"]).
function inTable(entry) {
  return entry.path[0] === entry.table ? entry.path.slice(1) : entry.path;
}

export class TablesPanel {
  constructor(ctx, root) {
    this.ctx = ctx;
    this.root = root;
    this.scenario = null;
    this.rows = []; // {entry, key, node, input, reset, text, group}
    this.byKey = new Map();
    this.groups = [];
    this.builtFor = null;
    this.marked = null;
    this.crt = null; // the owner's combat results table (tables_crt.js), hex-hexside only
    root.classList.add("tables");
    const self = this;
    this.filter = el("input", {
      type: "search",
      class: "tables-filter",
      autocomplete: "off",
      spellcheck: "false",
    });
    this.filterLabel = el("label", { class: "tables-find" }, [el("span"), this.filter]);
    this.filter.addEventListener("input", function () {
      self.applyFilter();
    });
    this.none = el("p", { class: "hint tables-none", hidden: true });
    this.body = el("div", { class: "tables-body" });
    root.replaceChildren(this.filterLabel, this.none, this.body);
  }

  t(key, params) {
    return this.ctx.i18n.t(key, params);
  }

  get entries() {
    return (this.ctx.catalog && this.ctx.catalog.tables) || [];
  }

  // ---- the interface ---------------------------------------------------------------------

  update(scenario, info) {
    drawInTurn(this, scenario, info);
  }

  draw(scenario) {
    this.scenario = scenario;
    const built = [this.ctx.catalog, this.ctx.i18n.lang];
    if (!this.builtFor || this.builtFor[0] !== built[0] || this.builtFor[1] !== built[1]) {
      this.builtFor = built;
      this.build();
    }
    const overrides = isObject(scenario.overrides) ? scenario.overrides : {};
    if (this.crt) this.crt.update(scenario);
    const active = document.activeElement;
    this.rows.forEach(function (row) {
      const entry = row.entry;
      const current = getAt(overrides[entry.table], row.path);
      const changed = current !== undefined;
      const value = changed ? current : entry.default;
      row.node.classList.toggle("is-changed", changed);
      row.reset.disabled = !changed;
      row.state.hidden = !changed;
      if (row.input.type === "checkbox") row.input.checked = value === true;
      else if (!(row.input === active && row.input.getAttribute("aria-invalid"))) {
        row.input.value = row.show(value);
        markInput(row.input, null);
      }
    });
    if (this.marked) this.highlight(this.marked, true);
  }

  highlight(place, quiet) {
    this.root.querySelectorAll(".is-marked").forEach(function (node) {
      node.classList.remove("is-marked");
    });
    this.marked = null;
    if (!place || place.kind !== "overrides" || !Array.isArray(place.path)) return;
    let path = place.path.slice();
    if (path[0] === "overrides") path = path.slice(1);
    if (!path.length) return;
    if (path[0] === "crt" && this.crt) {
      // The owner's combat results table: the cell, column or code the core names.
      if (this.crt.node.hidden) {
        this.filter.value = "";
        this.applyFilter();
      }
      this.marked = place;
      const found = this.crt.highlight(path.slice(1));
      if (!quiet && found.scrollIntoView) found.scrollIntoView({ block: "center" });
      return;
    }
    const key = path.map(String);
    let best = null;
    let bestLength = 0;
    this.rows.forEach(function (row) {
      const full = [row.entry.table].concat(row.path).map(String);
      let n = 0;
      while (n < key.length && n < full.length && full[n] === key[n]) n++;
      if (n > bestLength) {
        best = row;
        bestLength = n;
      }
    });
    if (!best) return;
    this.marked = place;
    // The table alone: its heading; else the nearest row.
    const node = bestLength === 1 && key.length === 1 ? best.group.heading : best.node;
    if (node.hidden || best.node.hidden) {
      this.filter.value = "";
      this.applyFilter();
    }
    node.classList.add("is-marked");
    if (!quiet && node.scrollIntoView) node.scrollIntoView({ block: "center" });
  }

  // ---- building the rows (once per catalog and language) --------------------------------

  build() {
    const self = this;
    this.filterLabel.firstChild.textContent = this.t("editor.tables.filter");
    this.none.textContent = this.t("editor.tables.none");
    this.rows = [];
    this.defaults = {};
    const groups = new Map();
    this.columnWords = {};
    let crt = null;
    this.entries.forEach(function (entry) {
      if (!entry || typeof entry.table !== "string" || !Array.isArray(entry.path)) return;
      if (entry.kind === "crt") {
        crt = entry; // a whole table, entered in a grid of its own
        return;
      }
      const path = inTable(entry);
      if (!path.length) return;
      if (!self.defaults[entry.table]) self.defaults[entry.table] = {};
      setAt(self.defaults[entry.table], path, clone(entry.default), {});
      // The chart's column headings, to word the settings that name a column.
      const column = entry.label && entry.label.params && entry.label.params.column;
      if (entry.kind === "cell" && column) self.columnWords[path[path.length - 1]] = column;
      if (!groups.has(entry.table)) groups.set(entry.table, []);
      groups.get(entry.table).push(entry);
    });
    // Lists on the way of a path were built as objects: make them lists again.
    Object.keys(this.defaults).forEach(function (table) {
      self.defaults[table] = listsBack(self.defaults[table]);
    });
    const fragment = document.createDocumentFragment();
    this.groups = [];
    groups.forEach(function (entries, table) {
      const title = self.tableTitle(table);
      const heading = el("h3", { class: "tables-heading", text: title });
      const list = el("div", { class: "tables-list", role: "list" });
      const group = { table: table, node: null, heading: heading, rows: [] };
      entries.forEach(function (entry) {
        const row = self.row(entry, group, title);
        group.rows.push(row);
        self.rows.push(row);
        list.appendChild(row.node);
      });
      group.node = el("section", { class: "tables-group", "data-table": table }, [heading, list]);
      self.groups.push(group);
      fragment.appendChild(group.node);
    });
    // The combat results table first: the table an owner enters most often.
    this.crt = crt ? new CrtSection(this.ctx, crt, this.tableTitle("crt")) : null;
    if (this.crt) fragment.insertBefore(this.crt.node, fragment.firstChild);
    this.body.replaceChildren(fragment);
    this.applyFilter();
  }

  tableTitle(table) {
    const key = TABLE_KEYS[table] || "editor.tables." + table;
    return this.t(key, {}, table);
  }

  // A row's words: its label, else the parts of its path in words.
  label(entry) {
    const label = entry.label;
    if (label && typeof label.key === "string") {
      const text = this.t(label.key, label.params || {});
      if (text !== label.key) return text;
    }
    const self = this;
    return inTable(entry)
      .map(function (part) {
        if (typeof part === "number") return String(part + 1);
        for (let i = 0; i < PATH_WORDS.length; i++) {
          const text = self.ctx.i18n.text ? self.ctx.i18n.text(PATH_WORDS[i] + part) : undefined;
          if (text !== undefined) return text;
        }
        return String(part).replace(/_/g, " ");
      })
      .join(" › ");
  }

  // A choice, or an item of a list, in words: the setting's own words for it, a column of
  // the chart, a unit type or a terrain; else as it is.
  choiceWord(entry, value) {
    const i18n = this.ctx.i18n;
    const key = entry.label && entry.label.key;
    const own = key ? i18n.text(key + "_" + value) : undefined;
    if (own !== undefined) return own;
    const column = this.columnWords[value];
    if (column) return this.t(column.key, column.params || {});
    for (const kind of ["unit_type.", "terrain.", "feature."]) {
      const word = i18n.text ? i18n.text(kind + value) : undefined;
      if (word !== undefined) return word;
    }
    return String(value);
  }

  // How a value of this entry is shown and read back.
  reader(entry) {
    const self = this;
    const kind = entry.kind;
    const choices = Array.isArray(entry.choices) ? entry.choices : null;
    const show = function (value) {
      if (value === undefined || value === null) return "";
      if (typeof value === "boolean")
        return self.t(value ? "editor.tables.yes" : "editor.tables.no");
      if (kind === "list" && Array.isArray(value)) return value.map(String).join(", ");
      if (isObject(value)) return JSON.stringify(value);
      return String(value);
    };
    // The default beside the input: choices and list items in words.
    const showDefault = function (value) {
      if (choices && !Array.isArray(value) && value !== null) return self.choiceWord(entry, value);
      if (kind === "list" && Array.isArray(value)) {
        return value
          .map(function (v) {
            return self.choiceWord(entry, v);
          })
          .join(", ");
      }
      return show(value);
    };
    const read = this.textReader(entry, choices);
    return { show: show, showDefault: showDefault, read: read, choices: choices };
  }

  // A value of kind k (a number, a whole number, yes or no, or text) read from text:
  // {ok, value}.
  readScalar(text, k) {
    const self = this;
    if (k === "int" || k === "number") {
      const got = readNumber(text, null, k === "int");
      return got.ok ? { ok: true, value: got.value } : { ok: false };
    }
    if (k === "bool") {
      const t = norm(text).trim();
      if (t === "true" || t === norm(self.t("editor.tables.yes"))) return { ok: true, value: true };
      if (t === "false" || t === norm(self.t("editor.tables.no")))
        return { ok: true, value: false };
      return { ok: false };
    }
    return { ok: true, value: String(text).trim() };
  }

  // How the input's text of an entry is read: JSON for a structured value, a list of items
  // (among the choices, each once), a number, a table's cell, or text; each refusal worded.
  textReader(entry, choices) {
    const self = this;
    const kind = entry.kind;
    const structured =
      kind === "object" || (isObject(entry.default) && kind !== "list" && kind !== "cell");
    const item = entry.item || "text";
    const scalar = (text, k) => this.readScalar(text, k);
    let read;
    if (structured) {
      read = function (text) {
        try {
          const value = JSON.parse(text);
          if (isObject(value) && Array.isArray(value) === Array.isArray(entry.default)) {
            return { ok: true, value: value };
          }
        } catch (error) {
          // refused below
        }
        return { ok: false, message: self.t("editor.tables.bad_json") };
      };
    } else if (kind === "list") {
      read = function (text) {
        const parts = String(text)
          .split(/[,;\n]/)
          .map(function (p) {
            return p.trim();
          })
          .filter(Boolean);
        const value = [];
        for (let i = 0; i < parts.length; i++) {
          const got = scalar(parts[i], item);
          const known = !choices || choices.indexOf(got.value) >= 0;
          if (!got.ok || !known || (choices && value.indexOf(got.value) >= 0)) {
            return { ok: false, message: self.t("editor.tables.bad_list") };
          }
          value.push(got.value);
        }
        if (choices && !value.length)
          return { ok: false, message: self.t("editor.tables.bad_list") };
        return { ok: true, value: value };
      };
    } else if (kind === "int" || kind === "number") {
      read = function (text) {
        if (entry.nullable && !String(text).trim()) return { ok: true, value: null };
        const got = scalar(text, kind);
        if (got.ok) return got;
        const key = kind === "int" ? "editor.tables.bad_int" : "editor.tables.bad_number";
        return { ok: false, message: self.t(key) };
      };
    } else if (kind === "cell") {
      read = function (text) {
        const got = parseCell(text);
        return got.ok ? got : { ok: false, message: self.t("editor.tables.bad_cell") };
      };
    } else {
      read = function (text) {
        return { ok: true, value: String(text) };
      };
    }
    return read;
  }

  row(entry, group, title) {
    const text = this.label(entry);
    const { show, showDefault, read, choices } = this.reader(entry);
    const path = inTable(entry);
    const bool = entry.kind === "bool" && !isObject(entry.default);
    const input = this.rowInput(entry, bool, choices);
    const id = "tables-" + entry.table + "-" + path.join("-").replace(/[^\w-]/g, "_");
    input.id = id + "-" + this.rows.length;
    const reset = el("button", {
      type: "button",
      class: "tables-reset",
      text: this.t("editor.tables.reset"),
      "aria-label": say(this.ctx.i18n, "editor.tables.reset_named", { name: text }),
    });
    const state = el("span", { class: "tables-state", text: this.t("editor.tables.changed") });
    const node = el(
      "div",
      {
        class: "tables-row",
        role: "listitem",
        "data-table": entry.table,
        "data-path": JSON.stringify([entry.table].concat(path)),
      },
      [
        el("label", { class: "tables-label", for: input.id, text: text }),
        el("span", { class: "tables-default" }, [
          document.createTextNode(
            say(this.ctx.i18n, "editor.tables.default", { value: showDefault(entry.default) }),
          ),
        ]),
        el("span", { class: "tables-value" }, [input]),
        state,
        reset,
      ],
    );
    const row = {
      entry: entry,
      path: path,
      node: node,
      input: input,
      reset: reset,
      state: state,
      show: show,
      group: group,
      text: norm(title + " " + text),
    };
    this.listenToRow(row, bool, choices, read);
    return row;
  }

  // The input of an entry: a checkbox for a yes or no, a list for a choice, else a text field
  // (numeric keys for a number).
  rowInput(entry, bool, choices) {
    const self = this;
    if (bool) return el("input", { type: "checkbox", class: "tables-check" });
    if (choices && entry.kind !== "list") {
      return el(
        "select",
        { class: "tables-select" },
        choices.map(function (c) {
          return el("option", { value: String(c), text: self.choiceWord(entry, c) });
        }),
      );
    }
    const numeric = (entry.kind === "int" || entry.kind === "number") && !isObject(entry.default);
    return el("input", {
      type: "text",
      class: "tables-input",
      inputmode: numeric ? (entry.kind === "int" ? "numeric" : "decimal") : undefined,
      autocomplete: "off",
      spellcheck: "false",
    });
  }

  // A row's input written as the owner edits it (a text checked as typed, written when it
  // changes or Enter is pressed), and its reset to the default.
  listenToRow(row, bool, choices, read) {
    const self = this;
    const entry = row.entry;
    const path = row.path;
    const input = row.input;
    const reset = row.reset;
    const commit = function (value) {
      self.write(entry, value);
    };
    if (bool) {
      input.addEventListener("change", function () {
        commit(input.checked);
      });
    } else if (input.tagName === "SELECT") {
      input.addEventListener("change", function () {
        const value = choices.find(function (c) {
          return String(c) === input.value;
        });
        commit(value === undefined ? input.value : value);
      });
    } else {
      let written = null;
      const run = function (write) {
        const got = read(input.value);
        markInput(input, got.ok ? null : got.message);
        if (!write || !got.ok) return;
        const overrides = (self.scenario && self.scenario.overrides) || {};
        const current = getAt(overrides[entry.table], path);
        const shown = current === undefined ? entry.default : current;
        if (!same(got.value, shown) && input.value !== written) {
          written = input.value;
          commit(got.value);
        }
      };
      input.addEventListener("input", function () {
        run(false);
      });
      input.addEventListener("change", function () {
        run(true);
      });
      input.addEventListener("keydown", function (event) {
        if (event.key === "Enter") run(true);
      });
    }
    reset.addEventListener("click", function () {
      self.write(entry, clone(entry.default));
    });
  }

  // One change: the override at entry's path set to `value`, or removed when it is the default.
  write(entry, value) {
    const defaults = this.defaults[entry.table] || {};
    const path = inTable(entry);
    this.ctx.draft.change(function (s) {
      if (!isObject(s.overrides) || Array.isArray(s.overrides)) s.overrides = {};
      if (same(value, entry.default)) {
        if (!isObject(s.overrides[entry.table])) return;
        removeAt(s.overrides[entry.table], path, defaults);
        if (Object.keys(s.overrides[entry.table]).length === 0) delete s.overrides[entry.table];
        return;
      }
      if (!isObject(s.overrides[entry.table])) s.overrides[entry.table] = {};
      setAt(s.overrides[entry.table], path, value, defaults);
    }, "editor.tables.title");
  }

  applyFilter() {
    const words = norm(this.filter.value).trim().split(/\s+/).filter(Boolean);
    let shown = 0;
    this.groups.forEach(function (group) {
      let any = false;
      group.rows.forEach(function (row) {
        const hit = words.every(function (w) {
          return row.text.indexOf(w) >= 0;
        });
        if (row.node.hidden === hit) row.node.hidden = !hit;
        any = any || hit;
        if (hit) shown += 1;
      });
      group.node.hidden = !any;
    });
    if (this.crt) {
      const hit = words.every((w) => this.crt.text.indexOf(w) >= 0);
      this.crt.node.hidden = !hit;
      if (hit) shown += 1;
    }
    this.none.hidden = shown > 0 || (!this.rows.length && !this.crt);
  }
}

// An object whose keys are all whole numbers 0..n-1, made a list (the defaults tree is built
// key by key).
function listsBack(node) {
  if (!isObject(node) || Array.isArray(node)) return node;
  const keys = Object.keys(node);
  keys.forEach(function (k) {
    node[k] = listsBack(node[k]);
  });
  const list =
    keys.length > 0 &&
    keys.every(function (k, i) {
      return String(i) === k;
    });
  return list
    ? keys.map(function (k) {
        return node[k];
      })
    : node;
}
