// The scenario editor's shell: its bar (back to play, new, open, export, undo, redo, the
// picture, VASSAL, play this), the map area and the side panel's tabs, the status line, the
// draft (undo, redo, kept on the device after every change) and the check of every change by
// the core (`scenario_check`). The map editors, the order of battle and the tables are parts
// loaded beside it (static/editor/*.js): a part not there is left out. Nothing here decides
// what a valid scenario is.
import { el } from "../panels.js";
import { fileReader } from "../files.js";
import { storageDetail } from "../games.js";
import { Draft, Store, newId } from "./draft.js";
import { Picture, similarity, point } from "./picture.js";

// The rule systems a scenario may have, in the order the New dialog offers them.
export const SYSTEMS = ["hex-facing", "hex-hexside", "area-locale"];
// The system of the first draft, before the player chose one.
const FIRST_SYSTEM = "hex-hexside";
const TABS = ["map", "units", "tables", "scenario"];

let editor = null;

// Open the editor in host.root (the first time: build it and resume the last draft kept on
// the device); again later, show it as it was left. host = {root, engine, i18n,
// play(scenario) -> Promise<bool>, ask(question, okLabel, lines) -> Promise<bool>,
// message(text, kind), close(), current() -> the scenario in play or null}.
export function openEditor(host) {
  if (!editor) editor = new Editor(host);
  editor.show();
  return editor;
}

function mapKind(scenario) {
  return scenario && scenario.map && scenario.map.kind === "areas" ? "areas" : "hex";
}

function copy(value) {
  return JSON.parse(JSON.stringify(value));
}

// A module of the editor, or null when it is not there (yet).
function load(path) {
  return import(path).catch(function (error) {
    console.warn("editor part " + path + " not loaded:", (error && error.message) || error);
    return null;
  });
}

function typing(target) {
  if (!target || !target.closest) return false;
  return Boolean(target.closest("input, select, textarea, [contenteditable='true']"));
}

// A file name from a title: the characters file systems refuse taken out.
export function fileName(title) {
  const base = String(title || "")
    .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 80);
  return (base || "scenario") + ".json";
}

function download(name, text) {
  const blob = new Blob([text], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(function () {
    URL.revokeObjectURL(link.href);
  }, 10000);
}

function button(text, attrs, onClick) {
  const node = el("button", Object.assign({ type: "button" }, attrs || {}));
  node.textContent = text;
  if (onClick) node.addEventListener("click", onClick);
  return node;
}

class Editor {
  constructor(host) {
    this.host = host;
    // The app's words, with the kinds of the parameters of the editor's system of its own (set
    // from the catalog), so the game in play keeps those of its own scenario.
    this.i18n = Object.create(host.i18n);
    this.engine = host.engine;
    this.root = host.root;
    this.store = new Store();
    this.draft = null;
    this.unlisten = null;
    this.recordId = null; // the id of the draft on screen in the store
    this.fromStore = false; // the draft on screen was kept on the device
    this.parts = { map: null, oob: null, tables: null };
    this.system = null;
    this.kind = null;
    this.catalogs = {};
    this.building = Promise.resolve();
    this.checkSeq = 0;
    this.checks = 0; // answers of the core taken (tests wait on it)
    this.checking = Promise.resolve(null);
    this.checked = null; // the core's last answer: {ok, summary} | {ok: false, problem}
    this.problem = null;
    this.shownPlace = null;
    this.note = null; // {text, kind}: a message of the editor or a part, until the next change
    this.storageProblem = null;
    this.toWrite = {}; // draft id -> the record to keep, newest state
    this.writing = null;
    this.tidyPictures = false;
    this.tab = "map";
    this.readJson = fileReader(() => (this.engine.info && this.engine.info.limits) || {});
    this.ctx = {
      draft: null,
      i18n: this.i18n,
      engine: this.engine,
      catalog: null,
      mapEl: null,
      toolsEl: null,
      pieceNames: [],
      highlight: (place) => this.highlight(place),
      placeUnit: (id) => {
        const map = this.parts.map;
        if (map && typeof map.placeUnit === "function") map.placeUnit(id);
      },
      message: (text, kind) => this.say(text, kind),
    };
    this.build();
    this.ctx.mapEl = this.els.map;
    this.ctx.toolsEl = this.els.tools;
    this.picture = new Picture({
      store: this.store,
      target: () => this.parts.map,
      onChange: () => {
        this.tidyPictures = true;
        this.renderPicture();
        this.keep();
      },
    });
    document.addEventListener("keydown", (e) => this.onKey(e), true);
    this.ready = this.start();
    this.exposeForTests();
  }

  t(key, params) {
    return this.i18n.t(key, params || {});
  }

  // ---- the page --------------------------------------------------------------------------

  build() {
    const root = this.root;
    root.classList.add("editor");
    const els = {};
    this.els = els;
    const bar = (key, id, onClick, extra) =>
      button(this.t(key), Object.assign({ id: id, "data-i18n": key }, extra || {}), onClick);
    els.fileOpen = el("input", {
      id: "editor-open-file",
      type: "file",
      accept: ".json,application/json",
      hidden: "",
    });
    els.filePicture = el("input", {
      id: "editor-picture-file",
      type: "file",
      accept: "image/*",
      hidden: "",
    });
    els.fileVassal = el("input", {
      id: "editor-vassal-file",
      type: "file",
      accept: ".vmod,.zip",
      hidden: "",
    });
    els.undo = bar("ui.undo", "editor-undo", () => this.undo());
    els.redo = bar("ui.redo", "editor-redo", () => this.redo());
    els.undo.setAttribute("aria-keyshortcuts", "Control+Z Meta+Z");
    els.redo.setAttribute("aria-keyshortcuts", "Control+Shift+Z Control+Y Meta+Shift+Z");
    els.bar = el("div", { class: "editor-bar", role: "toolbar" }, [
      bar("editor.back", "editor-back", () => this.host.close()),
      el("h2", {
        id: "editor-name",
        class: "editor-name",
        "data-i18n": "editor.name",
        text: this.t("editor.name"),
      }),
      bar("editor.new", "editor-new", () => this.openNew()),
      bar("editor.open", "editor-open", () => els.fileOpen.click()),
      bar("editor.export", "editor-export", () => this.exportFile()),
      els.undo,
      els.redo,
      bar("editor.picture", "editor-picture", () => els.filePicture.click()),
      bar("editor.vassal", "editor-vassal", () => els.fileVassal.click()),
      bar("editor.play", "editor-play", () => this.playThis(), { class: "primary" }),
      els.fileOpen,
      els.filePicture,
      els.fileVassal,
    ]);
    els.say = el("span", { id: "editor-say", class: "editor-say" });
    els.storage = el("span", { id: "editor-storage", class: "editor-storage", hidden: "" });
    els.status = el(
      "p",
      { id: "editor-status", class: "editor-status", role: "status", "aria-live": "polite" },
      [els.say, els.storage],
    );
    els.map = el("div", { id: "editor-map", class: "editor-map" });
    els.tools = el("div", { id: "editor-tools", class: "editor-tools" });
    els.oob = el("div", { id: "editor-oob", class: "editor-oob" });
    els.tables = el("div", { id: "editor-tables", class: "editor-tables" });
    els.scenario = this.scenarioForm();
    const panels = { map: els.tools, units: els.oob, tables: els.tables, scenario: els.scenario };
    els.tabs = {};
    els.panels = {};
    const tablist = el("div", { class: "editor-tabs", role: "tablist" });
    TABS.forEach((name) => {
      const key = "editor.tab_" + name;
      const tab = button(this.t(key), {
        id: "editor-tab-" + name,
        role: "tab",
        "data-i18n": key,
        "aria-controls": "editor-panel-" + name,
        "aria-selected": "false",
        "data-tab": name,
      });
      tab.addEventListener("click", () => this.showTab(name));
      tab.addEventListener("keydown", (e) => this.tabKey(e, name));
      const panel = el(
        "div",
        {
          id: "editor-panel-" + name,
          class: "editor-panel",
          role: "tabpanel",
          "aria-labelledby": "editor-tab-" + name,
          hidden: "",
        },
        [panels[name]],
      );
      els.tabs[name] = tab;
      els.panels[name] = panel;
      tablist.appendChild(tab);
    });
    els.side = el(
      "div",
      { class: "editor-side" },
      [tablist].concat(TABS.map((name) => els.panels[name])),
    );
    els.body = el("div", { class: "editor-body" }, [els.map, els.side]);
    root.replaceChildren(
      els.bar,
      els.status,
      els.body,
      this.newDialog(),
      this.hexDialog(),
      this.boardDialog(),
    );
    els.fileOpen.addEventListener("change", () => {
      const file = els.fileOpen.files[0];
      els.fileOpen.value = "";
      if (file) this.importFile(file);
    });
    els.filePicture.addEventListener("change", () => {
      const file = els.filePicture.files[0];
      els.filePicture.value = "";
      if (file) this.pictureFile(file);
    });
    els.fileVassal.addEventListener("change", () => {
      const file = els.fileVassal.files[0];
      els.fileVassal.value = "";
      if (file) this.vassalFile(file);
    });
    this.showTab("map");
  }

  showTab(name) {
    this.tab = name;
    TABS.forEach((n) => {
      const on = n === name;
      this.els.tabs[n].setAttribute("aria-selected", on ? "true" : "false");
      this.els.tabs[n].tabIndex = on ? 0 : -1;
      this.els.panels[n].hidden = !on;
    });
    if (name === "scenario") this.renderDrafts();
  }

  // Arrow keys move along the tabs, as a tab list does.
  tabKey(e, name) {
    const at = TABS.indexOf(name);
    let next = null;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") next = TABS[(at + 1) % TABS.length];
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") {
      next = TABS[(at + TABS.length - 1) % TABS.length];
    } else if (e.key === "Home") next = TABS[0];
    else if (e.key === "End") next = TABS[TABS.length - 1];
    if (!next) return;
    e.preventDefault();
    this.showTab(next);
    this.els.tabs[next].focus();
  }

  // The Scenario tab: its title, id, description, system, turns; the picture; the drafts.
  scenarioForm() {
    const els = this.els;
    const field = (key, input) => {
      const id = input.id;
      return el("div", { class: "editor-field" }, [
        el("label", { for: id, "data-i18n": key, text: this.t(key) }),
        input,
      ]);
    };
    els.title = el("input", {
      id: "editor-title",
      type: "text",
      maxlength: "200",
      autocomplete: "off",
    });
    els.id = el("input", {
      id: "editor-id",
      type: "text",
      maxlength: "80",
      autocomplete: "off",
      spellcheck: "false",
    });
    els.description = el("textarea", { id: "editor-description", rows: "3" });
    els.system = el("output", { id: "editor-system", class: "editor-system" });
    els.turns = el("input", {
      id: "editor-turns",
      type: "number",
      inputmode: "numeric",
      min: "1",
      max: "99",
      step: "1",
    });
    els.title.addEventListener("change", () =>
      this.setField("title", els.title.value.trim(), "editor.step_title"),
    );
    els.id.addEventListener("change", () =>
      this.setField("id", els.id.value.trim(), "editor.step_id"),
    );
    els.description.addEventListener("change", () =>
      this.setField("description", els.description.value, "editor.step_description"),
    );
    els.turns.addEventListener("change", () => {
      const text = els.turns.value.trim();
      this.setField("turns", text === "" ? undefined : Number(text), "editor.step_turns");
    });
    els.opacity = el("input", {
      id: "editor-opacity",
      type: "range",
      min: "0",
      max: "100",
      step: "5",
    });
    els.opacity.addEventListener("input", () =>
      this.picture.setOpacity(Number(els.opacity.value) / 100),
    );
    els.pictureName = el("p", { id: "editor-picture-name", class: "hint" });
    els.align = button(
      this.t("editor.align"),
      { id: "editor-align", "data-i18n": "editor.align" },
      () => this.align(),
    );
    els.removePicture = button(
      this.t("editor.picture_remove"),
      { id: "editor-picture-remove", "data-i18n": "editor.picture_remove" },
      () => this.picture.remove(),
    );
    els.choosePicture = button(
      this.t("editor.picture_choose"),
      { id: "editor-picture-choose", "data-i18n": "editor.picture_choose" },
      () => els.filePicture.click(),
    );
    els.pictureTools = el("div", { class: "editor-picture-tools" }, [
      field("editor.picture_opacity", els.opacity),
      el("div", { class: "editor-row" }, [els.align, els.removePicture]),
    ]);
    els.drafts = el("div", { id: "editor-drafts", class: "editor-drafts" });
    return el("div", { class: "editor-scenario" }, [
      field("editor.field_title", els.title),
      field("editor.field_id", els.id),
      field("editor.field_description", els.description),
      field("editor.field_system", els.system),
      field("editor.field_turns", els.turns),
      el("h3", { "data-i18n": "editor.picture_head", text: this.t("editor.picture_head") }),
      els.pictureName,
      el("div", { class: "editor-row" }, [els.choosePicture]),
      els.pictureTools,
      el("h3", { "data-i18n": "editor.drafts_head", text: this.t("editor.drafts_head") }),
      els.drafts,
    ]);
  }

  setField(name, value, what) {
    const s = this.draft.scenario;
    if (s[name] === value || (value === undefined && !(name in s))) return;
    this.draft.change(function (c) {
      if (value === undefined || (name === "description" && value === "")) delete c[name];
      else c[name] = value;
    }, what);
  }

  // Fill the Scenario tab from the draft (a field being typed in is left alone).
  renderForm() {
    const s = this.draft ? this.draft.scenario : {};
    const els = this.els;
    const put = (input, value) => {
      if (document.activeElement !== input)
        input.value = value === undefined || value === null ? "" : String(value);
    };
    put(els.title, s.title);
    put(els.id, s.id);
    put(els.description, s.description);
    put(els.turns, s.turns);
    const turns = this.ctx.catalog && this.ctx.catalog.turns;
    if (turns) {
      els.turns.min = String(turns.min);
      els.turns.max = String(turns.max);
      els.turns.placeholder = String(turns.default);
    }
    els.system.textContent = this.systemName(s.system);
  }

  systemName(system) {
    if (SYSTEMS.indexOf(system) < 0) return String(system || "");
    return this.t("editor.system_" + system.replace(/-/g, "_"));
  }

  renderPicture() {
    const p = this.picture.current;
    this.els.pictureTools.hidden = !p;
    this.els.pictureName.textContent = p
      ? this.t("editor.picture_named", { name: p.name || "—", width: p.width, height: p.height })
      : this.t("editor.picture_none");
    if (p) this.els.opacity.value = String(Math.round(p.opacity * 100));
  }

  // The drafts kept on the device, to open or delete (the one on screen is marked).
  renderDrafts() {
    const box = this.els.drafts;
    return this.store.drafts().then(
      (records) => {
        const rows = records.map((r) => {
          const here = r.id === this.recordId;
          const title = (r.scenario && r.scenario.title) || this.t("ui.untitled");
          const tools = here
            ? [el("span", { class: "saved-here", text: this.t("editor.draft_here") })]
            : [
                button(this.t("editor.draft_open"), { class: "editor-draft-open" }, () =>
                  this.openDraft(r),
                ),
                button(this.t("ui.delete"), { class: "editor-draft-delete" }, () =>
                  this.deleteDraft(r),
                ),
              ];
          return el("li", { class: "editor-draft", "data-draft": r.id }, [
            el("span", { class: "editor-draft-title", text: String(title) }),
            el("span", { class: "editor-draft-when", text: this.when(r.updated) }),
            el("span", { class: "editor-row" }, tools),
          ]);
        });
        box.replaceChildren(
          rows.length
            ? el("ul", { class: "editor-draft-list" }, rows)
            : el("p", { class: "hint", text: this.t("editor.drafts_none") }),
        );
      },
      (error) => {
        box.replaceChildren(el("p", { class: "hint", text: this.storageText(error) }));
      },
    );
  }

  when(time) {
    try {
      return new Intl.DateTimeFormat(this.i18n.lang, {
        dateStyle: "medium",
        timeStyle: "short",
      }).format(new Date(time));
    } catch (error) {
      return new Date(time).toLocaleString();
    }
  }

  // ---- the dialogs -------------------------------------------------------------------------

  newDialog() {
    const n = {};
    this.newEls = n;
    const num = (id, min, max, value) =>
      el("input", {
        id: id,
        type: "number",
        inputmode: "numeric",
        min: String(min),
        max: String(max),
        step: "1",
        value: String(value),
      });
    const row = (key, input, wide) =>
      el("div", { class: "editor-field" + (wide ? " editor-wide" : "") }, [
        el("label", { for: input.id, "data-i18n": key, text: this.t(key) }),
        input,
      ]);
    const options = (id, values, prefix) =>
      el(
        "select",
        { id: id },
        values.map((v) =>
          el("option", {
            value: v,
            "data-i18n": prefix + v.replace(/-/g, "_"),
            text: this.t(prefix + v.replace(/-/g, "_")),
          }),
        ),
      );
    n.system = options("editor-new-system", SYSTEMS, "editor.system_");
    n.title = el("input", {
      id: "editor-new-title",
      type: "text",
      maxlength: "200",
      autocomplete: "off",
    });
    n.columns = num("editor-new-columns", 1, 200, 12);
    n.rows = num("editor-new-rows", 1, 200, 10);
    n.orientation = options("editor-new-orientation", ["flat", "pointy"], "editor.orientation_");
    n.firstColumn = num("editor-new-first-column", 0, 9999, 1);
    n.firstRow = num("editor-new-first-row", 0, 9999, 1);
    n.stagger = el("select", { id: "editor-new-stagger" }, [
      el("option", { value: "even" }),
      el("option", { value: "odd" }),
    ]);
    n.columnDigits = num("editor-new-column-digits", 1, 4, 2);
    n.rowDigits = num("editor-new-row-digits", 1, 4, 2);
    n.width = num("editor-new-width", 100, 100000, 1000);
    n.height = num("editor-new-height", 100, 100000, 700);
    n.hex = el("fieldset", { class: "editor-new-hex" }, [
      el("legend", { "data-i18n": "editor.new_hex", text: this.t("editor.new_hex") }),
      row("editor.new_columns", n.columns),
      row("editor.new_rows", n.rows),
      row("editor.new_orientation", n.orientation, true),
      row("editor.new_first_column", n.firstColumn),
      row("editor.new_first_row", n.firstRow),
      row("editor.new_stagger", n.stagger, true),
      row("editor.new_column_digits", n.columnDigits),
      row("editor.new_row_digits", n.rowDigits),
    ]);
    n.areas = el("fieldset", { class: "editor-new-areas", hidden: "" }, [
      el("legend", { "data-i18n": "editor.new_areas", text: this.t("editor.new_areas") }),
      row("editor.new_width", n.width),
      row("editor.new_height", n.height),
    ]);
    n.fromPlay = button("", { id: "editor-new-from-play", class: "editor-from-play" }, () => {
      n.dialog.close("play");
    });
    n.ok = el("button", {
      id: "editor-new-ok",
      value: "ok",
      class: "primary",
      "data-i18n": "editor.new_create",
      text: this.t("editor.new_create"),
    });
    n.cancel = button(
      this.t("ui.cancel"),
      { id: "editor-new-cancel", "data-i18n": "ui.cancel" },
      () => n.dialog.close("cancel"),
    );
    n.form = el("form", { method: "dialog" }, [
      el("h2", {
        id: "editor-new-head",
        "data-i18n": "editor.new_head",
        text: this.t("editor.new_head"),
      }),
      row("editor.new_system", n.system),
      row("editor.field_title", n.title),
      n.hex,
      n.areas,
      el("div", { class: "dialog-buttons" }, [n.cancel, n.ok]),
      el("p", { class: "hint", "data-i18n": "editor.new_or", text: this.t("editor.new_or") }),
      n.fromPlay,
    ]);
    n.dialog = el(
      "dialog",
      {
        id: "editor-new-dialog",
        class: "dialog editor-dialog",
        "aria-labelledby": "editor-new-head",
      },
      [n.form],
    );
    n.system.addEventListener("change", () => this.newShape());
    n.orientation.addEventListener("change", () => this.newShape());
    return n.dialog;
  }

  // The New dialog's fields follow its system (hexes or areas) and orientation (the stagger's
  // words name columns or rows).
  newShape() {
    const n = this.newEls;
    const areas = n.system.value === "area-locale";
    n.hex.hidden = areas;
    n.areas.hidden = !areas;
    const pointy = n.orientation.value === "pointy";
    Array.prototype.forEach.call(n.stagger.options, (option) => {
      option.textContent = this.t(
        "editor.stagger_" + option.value + (pointy ? "_rows" : "_columns"),
      );
    });
  }

  // A dialog asking the printed number of the hex just tapped (alignment).
  hexDialog() {
    const h = {};
    this.hexEls = h;
    h.input = el("input", {
      id: "editor-hex-input",
      inputmode: "numeric",
      autocomplete: "off",
      size: "6",
    });
    h.label = el("label", { id: "editor-hex-label", for: "editor-hex-input" });
    h.error = el("p", { id: "editor-hex-error", class: "editor-error", role: "alert", hidden: "" });
    h.dialog = el(
      "dialog",
      {
        id: "editor-hex-dialog",
        class: "dialog ask-dialog editor-dialog",
        "aria-labelledby": "editor-hex-label",
      },
      [
        el("form", { method: "dialog" }, [
          h.label,
          h.input,
          h.error,
          el("div", { class: "dialog-buttons" }, [
            button(this.t("ui.cancel"), { "data-i18n": "ui.cancel" }, () =>
              h.dialog.close("cancel"),
            ),
            el("button", {
              value: "ok",
              class: "primary",
              "data-i18n": "editor.align_ok",
              text: this.t("editor.align_ok"),
            }),
          ]),
        ]),
      ],
    );
    return h.dialog;
  }

  // A dialog listing a VASSAL module's boards.
  boardDialog() {
    const b = {};
    this.boardEls = b;
    b.list = el("div", { id: "editor-board-list", class: "editor-board-list" });
    b.dialog = el(
      "dialog",
      {
        id: "editor-board-dialog",
        class: "dialog editor-dialog",
        "aria-labelledby": "editor-board-head",
      },
      [
        el("div", { class: "dialog-head" }, [
          el("h2", {
            id: "editor-board-head",
            "data-i18n": "editor.vassal_pick",
            text: this.t("editor.vassal_pick"),
          }),
          button(this.t("ui.cancel"), { "data-i18n": "ui.cancel" }, () => b.dialog.close("")),
        ]),
        b.list,
      ],
    );
    return b.dialog;
  }

  // ---- opening, showing ---------------------------------------------------------------------

  show() {
    this.root.hidden = false;
    this.renderStatus();
    if (this.tab === "scenario") this.renderDrafts();
  }

  // The last draft kept on the device, else a new one of the core's template.
  start() {
    const kept = this.store.latest().catch((error) => {
      this.storageFailed(error);
      return null;
    });
    this.sayKey("editor.loading", "info");
    return Promise.all([this.engine.ready, kept])
      .then((both) => {
        const record = both[1];
        if (record && record.scenario) return this.openRecord(record);
        return this.template(FIRST_SYSTEM).then((scenario) => {
          this.recordId = newId();
          this.fromStore = false;
          return this.setDraft(new Draft(scenario));
        });
      })
      .catch((error) => {
        this.say(this.errorText(error), "error");
      });
  }

  openRecord(record) {
    this.recordId = record.id;
    this.fromStore = true;
    const shown = this.setDraft(new Draft(record.scenario));
    const picture = this.picture.restore(record.picture || null).catch(() => false);
    return Promise.all([shown, picture]).then(() => this.renderPicture());
  }

  // Another draft on screen: its parts, its check; nothing kept until it changes.
  setDraft(draft) {
    if (this.unlisten) this.unlisten();
    this.draft = draft;
    this.ctx.draft = draft;
    this.unlisten = draft.listen((scenario, info) => this.changed(info, true));
    return this.changed({ kind: "load", what: null }, false);
  }

  // After every change of the draft: the parts drawn again, the core's check, and the draft
  // kept on the device.
  changed(info, keep) {
    this.note = null;
    this.renderButtons();
    this.renderForm();
    const done = this.refreshParts(info);
    this.check();
    if (keep) this.keep();
    this.renderStatus();
    return done;
  }

  renderButtons() {
    const d = this.draft;
    const set = (node, can, what, key) => {
      node.disabled = !can;
      const label =
        can && what
          ? this.t(key, { what: this.t(what) })
          : this.t(key === "editor.undo_what" ? "ui.undo" : "ui.redo");
      node.title = label;
    };
    set(this.els.undo, d && d.canUndo(), d && d.undoWhat(), "editor.undo_what");
    set(this.els.redo, d && d.canRedo(), d && d.redoWhat(), "editor.redo_what");
  }

  undo() {
    if (this.draft && this.draft.canUndo()) this.draft.undo();
  }

  redo() {
    if (this.draft && this.draft.canRedo()) this.draft.redo();
  }

  onKey(e) {
    if (this.root.hidden || e.defaultPrevented || e.isComposing) return;
    if (document.querySelector("dialog[open]") || typing(e.target)) return;
    if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
    const k = (e.key || "").toLowerCase();
    if (k === "z" && !e.shiftKey) this.undo();
    else if ((k === "z" && e.shiftKey) || (k === "y" && !e.shiftKey)) this.redo();
    else return;
    e.preventDefault();
  }

  // ---- the parts ----------------------------------------------------------------------------

  // Draw the parts again; first build them anew when the system or the kind of map changed.
  refreshParts(info) {
    this.building = this.building
      .then(() => {
        const scenario = this.draft.scenario;
        if (scenario.system === this.system && mapKind(scenario) === this.kind) return null;
        return this.buildParts(scenario);
      })
      .then(() => {
        const scenario = this.draft.scenario;
        ["map", "oob", "tables"].forEach((name) => {
          const part = this.parts[name];
          if (part && typeof part.update === "function") {
            try {
              part.update(scenario, info);
            } catch (error) {
              console.warn("editor part " + name + ":", error);
            }
          }
        });
        this.renderForm();
      });
    return this.building;
  }

  // The draft's names of its things, for the words of the core's messages (i18n.setWords).
  names() {
    const scenario = () => (this.draft && this.draft.scenario) || {};
    const named = (list, id) => {
      const found = (list || []).find((x) => x && x.id === id);
      return found && found.name ? String(found.name) : null;
    };
    return {
      unit: (id) => named(scenario().units, id),
      place: (id) => named((scenario().map || {}).locales, id),
      side: (id) => named(scenario().sides, id),
      formation: (id) => named(scenario().formations, id),
    };
  }

  catalog(system) {
    if (!this.catalogs[system]) {
      this.catalogs[system] = this.engine
        .call("editor_catalog", { system: system })
        .catch((error) => {
          console.warn("editor_catalog:", (error && error.message) || error);
          delete this.catalogs[system];
          return null;
        });
    }
    return this.catalogs[system];
  }

  buildParts(scenario) {
    const system = scenario.system;
    const kind = mapKind(scenario);
    const mapPath = kind === "areas" ? "./areaedit.js" : "./hexedit.js";
    return Promise.all([
      this.catalog(system),
      load(mapPath),
      this.parts.oob ? null : load("./oob.js"),
      this.parts.tables ? null : load("./tables.js"),
    ]).then((got) => {
      this.ctx.catalog = got[0];
      if (got[0] && got[0].words) this.i18n.setWords(got[0].words, this.names());
      this.destroyParts();
      this.system = system;
      this.kind = kind;
      const make = (name, fn) => {
        try {
          return fn();
        } catch (error) {
          console.warn("editor part " + name + " failed:", error);
          return null;
        }
      };
      const Map = got[1] && (kind === "areas" ? got[1].AreaEditor : got[1].HexEditor);
      this.parts.map = Map
        ? make("map", () => {
            const part = new Map(this.ctx);
            part.mount();
            return part;
          })
        : null;
      this.els.map.dataset.editor = this.parts.map ? kind : "none";
      const Oob = got[2] && got[2].OrderOfBattle;
      if (Oob) this.parts.oob = make("oob", () => new Oob(this.ctx, this.els.oob));
      const Tables = got[3] && got[3].TablesPanel;
      if (Tables) this.parts.tables = make("tables", () => new Tables(this.ctx, this.els.tables));
      if (
        this.parts.oob &&
        this.ctx.pieceNames.length &&
        typeof this.parts.oob.setPieceNames === "function"
      ) {
        this.parts.oob.setPieceNames(this.ctx.pieceNames);
      }
      this.picture.draw();
      this.shownPlace = null;
      if (this.problem && this.problem.place) this.highlight(this.problem.place);
    });
  }

  // The map editor goes with its kind of map; the panels stay (they follow update()).
  destroyParts() {
    const map = this.parts.map;
    if (map && typeof map.destroy === "function") {
      try {
        map.destroy();
      } catch (error) {
        console.warn("editor map:", error);
      }
    }
    this.parts.map = null;
    this.els.map.replaceChildren();
    this.els.tools.replaceChildren();
  }

  // Show a place on the map and in the panels (each shows its own places).
  highlight(place) {
    ["map", "oob", "tables"].forEach((name) => {
      const part = this.parts[name];
      if (part && typeof part.highlight === "function") {
        try {
          part.highlight(place || null);
        } catch (error) {
          console.warn("editor part " + name + ":", error);
        }
      }
    });
  }

  // ---- the core's check -------------------------------------------------------------------

  // Ask the core whether the draft loads; an answer for an older draft than the newest is
  // dropped.
  check() {
    const seq = ++this.checkSeq;
    const scenario = this.draft.scenario;
    this.checking = this.engine.call("scenario_check", { scenario: scenario }).then(
      (answer) => answer,
      (error) => {
        if (error && error.key === "error.unknown_method") return { ok: null };
        return {
          ok: false,
          problem: {
            key: error && error.key,
            params: (error && error.params) || {},
            message: error && error.message,
            place: null,
          },
        };
      },
    );
    return this.checking.then((answer) => {
      if (seq !== this.checkSeq) return answer;
      this.checks += 1;
      this.checked = answer;
      this.problem = answer && answer.ok === false ? answer.problem || {} : null;
      const place = (this.problem && this.problem.place) || null;
      if (JSON.stringify(place) !== JSON.stringify(this.shownPlace)) {
        this.shownPlace = place;
        this.highlight(place);
      }
      this.root.dataset.checks = String(this.checks);
      this.root.dataset.loads =
        answer && answer.ok ? "yes" : answer && answer.ok === false ? "no" : "unknown";
      this.renderStatus();
      return answer;
    });
  }

  // The core's refusal in words: "hex 0412: hex 0412 is not on the map".
  // The core's refusal in words; a unit, side, formation, locale or approach it names by id is
  // named as the scenario names it (`scenario`: the one checked, by default the draft).
  problemText(problem, scenario) {
    if (!problem) return "";
    if (problem.key === "error.scenario") {
      const place = this.placeWords(problem.place, scenario || (this.draft && this.draft.scenario));
      const params = Object.assign({}, problem.params, place ? { place: place } : {});
      return this.t("editor.problem", params);
    }
    if (problem.key) return this.i18n.t(problem.key, problem.params || {}, problem.message);
    return String(problem.message || "");
  }

  placeWords(place, scenario) {
    if (!place || !scenario) return null;
    const named = (list, id) => {
      const found = (list || []).find((x) => x && x.id === id);
      return found && found.name ? String(found.name) : null;
    };
    const map = scenario.map || {};
    const lists = {
      unit: scenario.units,
      side: scenario.sides,
      formation: scenario.formations,
      locale: map.locales,
    };
    if (lists[place.kind]) {
      const name = named(lists[place.kind], place.id);
      return name ? this.t("editor.place." + place.kind, { name: name }) : null;
    }
    if (place.kind === "approach" && typeof place.id === "string") {
      const ends = place.id.split("/");
      const from = named(map.locales, ends[0]);
      const facing = named(map.locales, ends[1]);
      return from && facing
        ? this.t("editor.place.approach", { from: from, facing: facing })
        : null;
    }
    return null;
  }

  errorText(error) {
    if (error && error.key) return this.i18n.t(error.key, error.params || {}, error.message);
    return String((error && error.message) || error);
  }

  // ---- the status line -----------------------------------------------------------------------

  // A message of the editor or a part, shown until the next change ("" clears it).
  say(text, kind) {
    this.note = text ? { text: String(text), kind: kind || "info" } : null;
    this.renderStatus();
  }

  sayKey(key, kind, params) {
    this.say(this.t(key, params), kind);
  }

  renderStatus() {
    if (!this.els) return;
    let text;
    let kind;
    if (this.note) {
      text = this.note.text;
      kind = this.note.kind;
    } else if (!this.draft) {
      text = this.t("editor.loading");
      kind = "info";
    } else if (this.problem) {
      text = this.t("editor.status_problem", { problem: this.problemText(this.problem) });
      kind = "error";
    } else if (this.checked && this.checked.ok) {
      text = this.t("editor.status_ok");
      kind = "ok";
    } else if (this.checked && this.checked.ok === null) {
      text = this.t("editor.status_unchecked");
      kind = "info";
    } else {
      text = this.t("editor.status_checking");
      kind = "info";
    }
    this.els.say.textContent = text;
    this.els.status.dataset.kind = kind;
    this.els.storage.hidden = !this.storageProblem;
    this.els.storage.textContent = this.storageProblem ? this.storageText(this.storageProblem) : "";
  }

  // ---- kept on the device ---------------------------------------------------------------------

  recordNow() {
    return {
      id: this.recordId,
      updated: Date.now(),
      scenario: this.draft.scenario,
      picture: this.picture.state(),
    };
  }

  // Keep the draft after a change: one write at a time, each draft's newest state.
  keep() {
    if (!this.draft || !this.recordId) return Promise.resolve();
    this.toWrite[this.recordId] = this.recordNow();
    if (this.writing) return this.writing;
    const next = () => {
      const ids = Object.keys(this.toWrite);
      if (!ids.length) {
        this.writing = null;
        return null;
      }
      const record = this.toWrite[ids[0]];
      delete this.toWrite[ids[0]];
      return this.store
        .putDraft(record)
        .then(
          () => {
            if (record.id === this.recordId) this.fromStore = true;
            if (this.storageProblem) {
              this.storageProblem = null;
              this.renderStatus();
            }
            if (this.tidyPictures) {
              this.tidyPictures = false;
              return this.dropUnusedPictures();
            }
            return null;
          },
          (error) => this.storageFailed(error),
        )
        .then(next);
    };
    this.writing = next();
    return this.writing || Promise.resolve();
  }

  // Resolves once every change so far is kept (or refused).
  saved() {
    return this.writing || Promise.resolve();
  }

  storageFailed(error) {
    console.warn("editor storage:", (error && (error.message || error.name)) || error);
    this.storageProblem = error || new Error("storage");
    this.renderStatus();
  }

  storageText(error) {
    const missing = typeof indexedDB === "undefined" || !indexedDB;
    const detail = missing ? this.t("editor.storage_missing") : storageDetail(error, this.i18n);
    return this.t("editor.storage_failed", { detail: detail });
  }

  // Pictures no draft names any more leave the store.
  dropUnusedPictures() {
    return Promise.all([this.store.drafts(), this.store.pictureIds()])
      .then((both) => {
        const used = {};
        both[0].forEach((r) => {
          if (r.picture && r.picture.pictureId) used[r.picture.pictureId] = true;
        });
        const state = this.picture.state();
        if (state) used[state.pictureId] = true;
        return Promise.all(
          both[1].filter((id) => !used[id]).map((id) => this.store.deletePicture(id)),
        );
      })
      .catch(function () {});
  }

  openDraft(record) {
    return this.saved()
      .then(() => this.store.getDraft(record.id))
      .then((found) => {
        if (!found) return this.renderDrafts();
        return this.openRecord(found).then(() => {
          this.sayKey("editor.draft_opened", "info", { title: found.scenario.title || "" });
          this.renderDrafts();
        });
      })
      .catch((error) => this.storageFailed(error));
  }

  deleteDraft(record) {
    const title = (record.scenario && record.scenario.title) || this.t("ui.untitled");
    return this.host
      .ask(this.t("editor.ask_delete", { title: title }), this.t("ui.delete"), [
        this.t("editor.ask_delete_note"),
      ])
      .then((yes) => {
        if (!yes) return null;
        return this.store
          .deleteDraft(record.id)
          .then(() => this.dropUnusedPictures())
          .then(
            () => this.renderDrafts(),
            (error) => this.storageFailed(error),
          );
      });
  }

  // Whether the draft on screen holds work a replacement would put aside.
  hasChanges() {
    return Boolean(this.draft && (this.draft.canUndo() || this.fromStore));
  }

  // A new draft on the device (the one on screen stays in the list), holding `scenario` as
  // one step of undo from what was on screen.
  replaceWith(scenario, what) {
    this.recordId = newId();
    this.fromStore = false;
    this.picture.clear();
    this.renderPicture();
    this.draft.replace(scenario, what);
  }

  // ---- New ---------------------------------------------------------------------------------

  template(system) {
    return this.engine.call("scenario_template", { system: system });
  }

  openNew() {
    const n = this.newEls;
    const s = this.draft ? this.draft.scenario : null;
    if (s && SYSTEMS.indexOf(s.system) >= 0) n.system.value = s.system;
    const m = s && s.map && s.map.kind !== "areas" ? s.map : null;
    if (m) {
      n.orientation.value = m.orientation === "pointy" ? "pointy" : "flat";
      n.stagger.value = m.stagger === "odd" ? "odd" : "even";
    }
    n.title.value = "";
    n.title.placeholder = this.t("editor.new_title");
    const playing = this.host.current ? this.host.current() : null;
    n.fromPlay.hidden = !playing;
    n.fromPlay.textContent = playing
      ? this.t("editor.new_from_play", { title: playing.title || "" })
      : "";
    this.newShape();
    n.dialog.returnValue = "";
    n.dialog.showModal();
    n.dialog.addEventListener(
      "close",
      () => {
        if (n.dialog.returnValue === "ok") this.createNew(this.newValues());
        else if (n.dialog.returnValue === "play" && playing) this.editPlaying(playing);
      },
      { once: true },
    );
  }

  newValues() {
    const n = this.newEls;
    const int = (input, fallback) => {
      const v = parseInt(input.value, 10);
      return isFinite(v) ? v : fallback;
    };
    return {
      system: n.system.value,
      title: n.title.value.trim(),
      columns: int(n.columns, 12),
      rows: int(n.rows, 10),
      orientation: n.orientation.value,
      first_column: int(n.firstColumn, 1),
      first_row: int(n.firstRow, 1),
      stagger: n.stagger.value,
      column_digits: int(n.columnDigits, 2),
      row_digits: int(n.rowDigits, 2),
      width: int(n.width, 1000),
      height: int(n.height, 700),
    };
  }

  // The core's template of the system, its map set as asked.
  createNew(v) {
    return this.template(v.system)
      .then((scenario) => {
        const s = copy(scenario);
        if (v.title) s.title = v.title;
        if (s.map && s.map.kind === "areas") {
          // An empty drawing space: the player draws the printed map's locales (over its
          // picture), so the template's own squares would only be in the way.
          Object.assign(s.map, {
            width: v.width,
            height: v.height,
            locales: [],
            approaches: [],
            roads: [],
          });
          s.units = [];
        } else {
          s.map = Object.assign({}, s.map || {}, {
            orientation: v.orientation,
            stagger: v.stagger,
            first_column: v.first_column,
            columns: v.columns,
            first_row: v.first_row,
            rows: v.rows,
            column_digits: v.column_digits,
            row_digits: v.row_digits,
            hexes: {},
            hexsides: [],
            roads: [],
            labels: [],
          });
          if (Array.isArray(s.objectives)) s.objectives = [];
        }
        return this.askReplace(this.t("editor.ask_new")).then((yes) => {
          if (!yes) return;
          this.replaceWith(s, "editor.step_new");
          this.sayKey("editor.new_done", "info");
        });
      })
      .catch((error) => this.say(this.errorText(error), "error"));
  }

  askReplace(question) {
    if (!this.hasChanges()) return Promise.resolve(true);
    const title = this.draft.scenario.title || this.t("ui.untitled");
    return this.host.ask(question, this.t("editor.ask_go"), [
      this.t("editor.ask_kept", { title: title }),
    ]);
  }

  editPlaying(scenario) {
    return this.askReplace(this.t("editor.ask_edit_play", { title: scenario.title || "" })).then(
      (yes) => {
        if (!yes) return;
        this.replaceWith(copy(scenario), "editor.step_edit_play");
      },
    );
  }

  // ---- Open (import) and Export ------------------------------------------------------------------

  // A scenario file: checked by the core first; a refusal names the place and leaves the
  // draft as it was.
  importFile(file) {
    const refuse = (problem) => {
      this.say(this.t("editor.import_refused", { name: file.name, problem: problem }), "error");
      return false;
    };
    return this.readJson(file, "scenario").then(
      (scenario) =>
        this.engine.call("scenario_check", { scenario: scenario }).then(
          (answer) => {
            if (!answer.ok) return refuse(this.problemText(answer.problem, scenario));
            return this.askReplace(this.t("editor.ask_import", { name: file.name })).then((yes) => {
              if (!yes) return false;
              this.replaceWith(scenario, "editor.step_import");
              this.sayKey("editor.imported", "info", { name: file.name });
              return true;
            });
          },
          (error) =>
            refuse(
              this.problemText({ key: error.key, params: error.params, message: error.message }),
            ),
        ),
      (error) => {
        if (error && error.key === "error.bad_file") {
          return refuse(this.t("editor.not_json", error.params));
        }
        return refuse(this.errorText(error));
      },
    );
  }

  // The draft as a file, pretty-printed; exported even when it does not load yet (work kept),
  // with a word saying so.
  exportFile() {
    if (!this.draft) return Promise.resolve();
    const scenario = this.draft.scenario;
    const name = fileName(scenario.title);
    download(name, JSON.stringify(scenario, null, 2) + "\n");
    return this.checking.then((answer) => {
      if (this.draft.scenario !== scenario) return;
      if (answer && answer.ok === false) {
        this.sayKey("editor.exported_problem", "error", {
          name: name,
          problem: this.problemText(answer.problem),
        });
      } else this.sayKey("editor.exported", "info", { name: name });
    });
  }

  // ---- Play this -----------------------------------------------------------------------------

  playThis() {
    if (!this.draft) return Promise.resolve(false);
    const scenario = this.draft.scenario;
    return this.engine
      .call("scenario_check", { scenario: scenario })
      .catch((error) =>
        error && error.key === "error.unknown_method" ? { ok: true } : Promise.reject(error),
      )
      .then((answer) => {
        if (!answer.ok) {
          this.sayKey("editor.play_problem", "error", {
            problem: this.problemText(answer.problem),
          });
          if (answer.problem && answer.problem.place) this.highlight(answer.problem.place);
          return false;
        }
        return this.saved().then(() => this.host.play(copy(scenario)));
      })
      .catch((error) => {
        this.say(this.errorText(error), "error");
        return false;
      });
  }

  // ---- the picture -----------------------------------------------------------------------------

  pictureFile(file) {
    return this.picture
      .add(file, file.name, null, this.draft.scenario)
      .then(() => {
        this.sayKey("editor.picture_added", "info", { name: file.name });
      })
      .catch((error) => {
        if (error && error.key) this.say(this.errorText(error), "error");
        else this.storageFailed(error);
      });
  }

  // Two points of the picture whose places on the map are known: the picture turned, scaled
  // and moved so that both lie on them.
  align() {
    const map = this.parts.map;
    if (!this.picture.current) {
      this.sayKey("editor.align_no_picture", "info");
      return Promise.resolve(false);
    }
    if (!map || typeof map.pickPoint !== "function" || typeof map.mapInfo !== "function") {
      this.sayKey("editor.align_unavailable", "error");
      return Promise.resolve(false);
    }
    const info = map.mapInfo();
    const pick = (key) => {
      this.sayKey(key, "info");
      return Promise.resolve(map.pickPoint(key)).then((p) => (p ? point(p) : null));
    };
    const pairs = [];
    const areas = info.kind === "areas";
    const one = (n) =>
      pick(areas ? "editor.align_corner_" + n : "editor.align_hex_" + n).then((tapped) => {
        if (!tapped) return false;
        if (areas) {
          pairs.push([tapped, n === 1 ? { x: 0, y: 0 } : { x: info.width, y: info.height }]);
          return true;
        }
        return this.askHex(n, info).then((target) => {
          if (!target) return false;
          pairs.push([tapped, target]);
          return true;
        });
      });
    return one(1)
      .then((ok) => ok && one(2))
      .then((ok) => {
        if (!ok) {
          this.say("");
          return false;
        }
        return this.alignPairs(pairs[0][0], pairs[1][0], pairs[0][1], pairs[1][1]);
      });
  }

  // The picture aligned from two map points tapped on it (map units, where the picture lies
  // now) and the map points they should be: true when done.
  alignPairs(tapped1, tapped2, target1, target2) {
    const p1 = this.picture.toPicture(tapped1);
    const p2 = this.picture.toPicture(tapped2);
    const m = p1 && p2 ? similarity(p1, p2, target1, target2) : null;
    if (!m) {
      this.sayKey("editor.align_same", "error");
      return false;
    }
    this.picture.setTransform(m);
    this.sayKey("editor.aligned", "info");
    return true;
  }

  // The printed number of the hex tapped, typed in: resolves its centre, or null.
  askHex(n, info) {
    const h = this.hexEls;
    h.label.textContent = this.t("editor.align_which_" + n);
    h.input.value = "";
    h.error.hidden = true;
    h.dialog.returnValue = "";
    h.dialog.showModal();
    h.input.focus();
    return new Promise((resolve) => {
      const submit = (e) => {
        const label = h.input.value.trim();
        const c = label ? info.center(label) : null;
        if (!c) {
          e.preventDefault();
          h.error.textContent = this.t("editor.align_no_hex", { hex: label });
          h.error.hidden = false;
        }
      };
      const form = h.dialog.querySelector("form");
      form.addEventListener("submit", submit);
      h.dialog.addEventListener(
        "close",
        () => {
          form.removeEventListener("submit", submit);
          if (h.dialog.returnValue !== "ok") return resolve(null);
          resolve(point(info.center(h.input.value.trim())));
        },
        { once: true },
      );
    });
  }

  // ---- VASSAL ------------------------------------------------------------------------------------

  // A VASSAL module: one of its boards becomes this map's size and numbering, its image the
  // picture underneath (aligned by the module's own grid), its pieces names for the order of
  // battle.
  vassalFile(file) {
    this.sayKey("editor.vassal_reading", "info", { name: file.name });
    return load("./vassal.js")
      .then((vassal) => {
        if (!vassal || typeof vassal.readModule !== "function") {
          this.sayKey("editor.vassal_unavailable", "error");
          return null;
        }
        return vassal.readModule(file).then((module) => {
          const boards = (module && module.boards) || [];
          if (!boards.length) {
            this.sayKey("editor.vassal_no_board", "error", { name: file.name });
            return null;
          }
          const chosen = boards.length === 1 ? Promise.resolve(boards[0]) : this.pickBoard(boards);
          return chosen.then((board) => (board ? this.useBoard(vassal, module, board) : null));
        });
      })
      .catch((error) => this.say(this.errorText(error), "error"));
  }

  pickBoard(boards) {
    const b = this.boardEls;
    return new Promise((resolve) => {
      let picked = null;
      b.list.replaceChildren.apply(
        b.list,
        boards.map((board, i) =>
          button(
            board.name || board.map || String(i + 1),
            { class: "editor-board", "data-board": String(i) },
            () => {
              picked = board;
              b.dialog.close("ok");
            },
          ),
        ),
      );
      b.dialog.returnValue = "";
      b.dialog.showModal();
      b.dialog.addEventListener("close", () => resolve(picked), { once: true });
    });
  }

  useBoard(vassal, module, board) {
    if (mapKind(this.draft.scenario) === "areas") {
      this.sayKey("editor.vassal_areas", "error");
      return null;
    }
    return vassal.boardPicture(module, board).then((result) =>
      this.host
        .ask(this.t("editor.ask_vassal", { board: board.name || "" }), this.t("editor.vassal_go"), [
          this.t("editor.ask_vassal_note"),
        ])
        .then((yes) => {
          if (!yes) return null;
          this.draft.change(function (s) {
            Object.assign(s.map, result.map);
          }, "editor.step_vassal");
          const names = (module.pieces || []).slice();
          this.ctx.pieceNames = names;
          const oob = this.parts.oob;
          if (oob && typeof oob.setPieceNames === "function") oob.setPieceNames(names);
          return this.picture
            .add(result.blob, board.name || boardName(board), result.transform, this.draft.scenario)
            .then(() => {
              this.sayKey("editor.vassal_done", "info", {
                board: board.name || "",
                count: names.length,
              });
            });
        }),
    );
  }

  // ---- words again ----------------------------------------------------------------------------

  // After a change of language: what is drawn by code, again (data-i18n nodes are the app's).
  refreshText() {
    this.renderButtons();
    this.renderForm();
    this.renderPicture();
    this.renderStatus();
    this.newShape();
    if (this.tab === "scenario") this.renderDrafts();
    ["map", "oob", "tables"].forEach((name) => {
      const part = this.parts[name];
      if (part && typeof part.refreshText === "function") part.refreshText();
      else if (part && typeof part.update === "function" && this.draft) {
        part.update(this.draft.scenario, { kind: "load", what: null });
      }
    });
  }

  // window.musterEditor: what the tests read and drive.
  exposeForTests() {
    const self = this;
    window.musterEditor = {
      get draft() {
        return self.draft;
      },
      get parts() {
        return self.parts;
      },
      get ctx() {
        return self.ctx;
      },
      get problem() {
        return self.problem;
      },
      get checks() {
        return self.checks;
      },
      get recordId() {
        return self.recordId;
      },
      ready: this.ready,
      picture: this.picture,
      store: this.store,
      saved: () => this.saved(),
      checked: () => this.checking,
      alignPairs: (a, b, c, d) => this.alignPairs(a, b, c, d),
      similarity: similarity,
    };
  }
}

function boardName(board) {
  return String(board.image || board.map || "board");
}
