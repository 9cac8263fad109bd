// The scenario editor's page (methods of the editor in static/editor/editor.js): its bar, the
// status line, the map area and the side panel's tabs, and the Scenario tab (title, id,
// description, system, turns; the picture's name and opacity; the drafts kept on the device).
import { el } from "../panels.js";
import { button, editedText, kindOfSystem, shownText } from "./editor_common.js";

const TABS = ["map", "units", "tables", "scenario"];

export const layoutMethods = {
  build() {
    const root = this.root;
    root.classList.add("editor");
    const els = {};
    this.els = els;
    els.bar = this.buildBar(els);
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
    els.side = this.buildTabs(els);
    els.body = el("div", { class: "editor-body" }, [els.map, els.side]);
    root.replaceChildren(
      els.bar,
      els.status,
      els.body,
      this.newDialog(),
      this.hexDialog(),
      this.boardDialog(),
      this.cropDialog(),
    );
    this.showTab("map");
  },

  // The editor's bar: back, new, open, export, undo and redo, the picture, a VASSAL module,
  // play; and the hidden file inputs its buttons open.
  buildBar(els) {
    const bar = (key, id, onClick, extra) =>
      button(this.t(key), Object.assign({ id: id, "data-i18n": key }, extra || {}), onClick);
    // A hidden file input: the file chosen goes to `use`, the input emptied (the same file may
    // be chosen again).
    const fileInput = (id, accept, use) => {
      const input = el("input", { id: id, type: "file", accept: accept, hidden: "" });
      input.addEventListener("change", () => {
        const file = input.files[0];
        input.value = "";
        if (file) use(file);
      });
      return input;
    };
    els.fileOpen = fileInput("editor-open-file", ".json,application/json", (file) =>
      this.importFile(file),
    );
    els.filePicture = fileInput("editor-picture-file", "image/*", (file) => this.pictureFile(file));
    els.fileVassal = fileInput("editor-vassal-file", ".vmod,.zip", (file) => this.vassalFile(file));
    els.undo = bar("ui.undo", "editor-undo", () => this.undo());
    els.redo = bar("ui.redo", "editor-redo", () => this.redo());
    els.undo.setAttribute("aria-keyshortcuts", "Control+Z Meta+Z");
    els.redo.setAttribute("aria-keyshortcuts", "Control+Shift+Z Control+Y Meta+Shift+Z");
    return el("div", { class: "editor-bar", role: "toolbar" }, [
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
  },

  // The side's tabs (the map's tools, the units, the tables, the scenario) and their panels.
  buildTabs(els) {
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
    return el(
      "div",
      { class: "editor-side" },
      [tablist].concat(TABS.map((name) => els.panels[name])),
    );
  },

  showTab(name) {
    this.tab = name;
    TABS.forEach((n) => {
      const on = n === name;
      this.els.tabs[n].setAttribute("aria-selected", on ? "true" : "false");
      this.els.tabs[n].tabIndex = on ? 0 : -1;
      this.els.panels[n].hidden = !on;
    });
    if (name === "scenario") this.renderDrafts();
  },

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
  },

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
      this.setField("title", this.edited("title", els.title.value.trim()), "editor.step_title"),
    );
    els.id.addEventListener("change", () =>
      this.setField("id", els.id.value.trim(), "editor.step_id"),
    );
    els.description.addEventListener("change", () =>
      this.setField(
        "description",
        this.edited("description", els.description.value),
        "editor.step_description",
      ),
    );
    els.turns.addEventListener("change", () => {
      const text = els.turns.value.trim();
      this.setField("turns", text === "" ? undefined : Number(text), "editor.step_turns");
    });
    this.pictureFields(field);
    els.drafts = el("div", { id: "editor-drafts", class: "editor-drafts" });
    return el("div", { class: "editor-scenario" }, [
      field("editor.field_title", els.title),
      field("editor.field_id", els.id),
      field("editor.field_description", els.description),
      field("editor.field_system", els.system),
      field("editor.field_turns", els.turns),
      this.extentFields(field),
      el("h3", { "data-i18n": "editor.picture_head", text: this.t("editor.picture_head") }),
      els.pictureName,
      el("div", { class: "editor-row" }, [els.choosePicture]),
      els.pictureTools,
      el("h3", { "data-i18n": "editor.drafts_head", text: this.t("editor.drafts_head") }),
      els.drafts,
    ]);
  },

  // The picture's controls on the scenario's tab: its name, choose, opacity, align, remove
  // (in els); field(key, input) labels an input as the form does.
  pictureFields(field) {
    const els = this.els;
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
  },

  setField(name, value, what) {
    const s = this.draft.scenario;
    if (s[name] === value || (value === undefined && !(name in s))) return;
    this.draft.change(function (c) {
      if (value === undefined || (name === "description" && value === "")) delete c[name];
      else c[name] = value;
    }, what);
  },

  // Fill the Scenario tab from the draft (a field being typed in is left alone).
  // A text of the scenario (title, description) once edited in the editor's language: the
  // other languages it is given in are kept.
  edited(key, text) {
    const old = this.draft ? this.draft.scenario[key] : undefined;
    return editedText(old, text, this.i18n.lang);
  },

  renderForm() {
    const s = this.draft ? this.draft.scenario : {};
    const els = this.els;
    const put = (input, value) => {
      if (document.activeElement !== input)
        input.value = value === undefined || value === null ? "" : String(value);
    };
    put(els.title, shownText(s.title, this.i18n));
    put(els.id, s.id);
    put(els.description, s.description === undefined ? "" : shownText(s.description, this.i18n));
    put(els.turns, s.turns);
    const turns = this.ctx.catalog && this.ctx.catalog.turns;
    if (turns) {
      els.turns.min = String(turns.min);
      els.turns.max = String(turns.max);
      els.turns.placeholder = String(turns.default);
    }
    els.system.textContent = this.systemName(s.system);
    this.renderExtent();
  },

  systemName(system) {
    if (!kindOfSystem(this.engine, system)) return String(system || "");
    return this.t("editor.system_" + system.replace(/-/g, "_"));
  },

  renderPicture() {
    const p = this.picture.current;
    this.els.pictureTools.hidden = !p;
    this.els.pictureName.textContent = p
      ? this.t("editor.picture_named", { name: p.name || "—", width: p.width, height: p.height })
      : this.t("editor.picture_none");
    if (p) this.els.opacity.value = String(Math.round(p.opacity * 100));
  },

  // The drafts kept on the device, to open or delete (the one on screen is marked).
  renderDrafts() {
    const box = this.els.drafts;
    return this.store.drafts().then(
      (records) => {
        const rows = records.map((r) => {
          const here = r.id === this.recordId;
          const title = (r.scenario && this.i18n.pick(r.scenario.title)) || this.t("ui.untitled");
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
  },

  when(time) {
    try {
      return new Intl.DateTimeFormat(this.i18n.lang, {
        dateStyle: "medium",
        timeStyle: "short",
      }).format(new Date(time));
    } catch (error) {
      return new Date(time).toLocaleString();
    }
  },
};
