// The scenario editor's shell: the editor object and its life (opened, shown, the draft on
// screen with undo and redo, each change drawn again, checked by the core with
// `scenario_check` and kept), its parts (the map editors, the order of battle and the tables,
// static/editor/*.js, loaded beside it: a part not there is left out), the status line and
// the hook the tests use. Its other concerns are modules of their own, their methods installed
// on the editor: the bar, tabs and Scenario tab (editor_layout.js), the New dialog
// (editor_new.js), the picture underneath and VASSAL boards (editor_picture.js), the drafts
// kept on the device (editor_store.js), opening, exporting and playing a file
// (editor_files.js). Nothing here decides what a valid scenario is.
import { fileReader } from "../files.js";
import { Draft, Store, newId } from "./draft.js";
import { Picture, similarity } from "./picture.js";
import { mapKind, load, systemsOf } from "./editor_common.js";
import { layoutMethods } from "./editor_layout.js";
import { newMethods } from "./editor_new.js";
import { pictureMethods } from "./editor_picture.js";
import { extentMethods } from "./editor_extent.js";
import { storeMethods } from "./editor_store.js";
import { fileMethods, fileName } from "./editor_files.js";

export { fileName };

// The core's answers to its checks kept, the newest (askCore).
const KEPT_ANSWERS = 8;

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

function typing(target) {
  if (!target || !target.closest) return false;
  return Boolean(target.closest("input, select, textarea, [contenteditable='true']"));
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
    this.checkTurn = Promise.resolve(null); // settles when the core's check in hand answers
    this.answers = new Map(); // the scenario's text -> the core's answer, the last few
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
        if (!map || typeof map.placeUnit !== "function") return;
        map.placeUnit(id);
        // Said in the status line too: the map's own hint is on the Map tab, maybe not shown.
        const unit = (this.draft.scenario.units || []).find((u) => u && u.id === id);
        const name = (unit && this.i18n.pick(unit.name)) || this.t("editor.place_unnamed");
        const units = (this.ctx.catalog && this.ctx.catalog.units) || {};
        let key = units.facing ? "editor.place_on_hex_facing" : "editor.place_on_hex";
        if (this.kind === "areas") key = "editor.place_in_locale";
        this.sayKey(key, "info", { name: name });
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

  // ---- opening, showing ---------------------------------------------------------------------

  show() {
    this.root.hidden = false;
    this.renderStatus();
    if (this.tab === "scenario") this.renderDrafts();
  }

  // The last draft kept on the device, else a new one of the core's template.
  // The system of the first draft, before the player chose one: that of the scenario in play,
  // else the first the core lists.
  firstSystem() {
    const playing = this.host.current ? this.host.current() : null;
    const ids = systemsOf(this.engine).map((x) => x.id);
    return playing && ids.indexOf(playing.system) >= 0 ? playing.system : ids[0];
  }

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
        return this.template(this.firstSystem()).then((scenario) => {
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
    const picture = this.picture.restore(record.picture || null).catch((error) => {
      if (error && error.key) this.say(this.errorText(error), "error");
      return false;
    });
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
    let built = null; // the draft a map editor was just mounted with (it has drawn it)
    this.building = this.building
      .then(() => {
        const scenario = this.draft.scenario;
        if (scenario.system === this.system && mapKind(scenario) === this.kind) return null;
        return this.buildParts(scenario).then(() => {
          built = scenario;
        });
      })
      .then(() => {
        const scenario = this.draft.scenario;
        ["map", "oob", "tables"].forEach((name) => {
          if (name === "map" && built === scenario) return;
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
      return found && found.name ? this.i18n.pick(found.name) : null;
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

  // Ask the core whether the draft loads. One check at a time: the changes made while the core
  // is busy are checked together once it answers, the newest draft only (quick changes do not
  // queue a check each), and an answer for an older draft than the newest is dropped. When the
  // draft needs its parts built anew, their catalog is asked first, so that the map is drawn
  // while the core checks (the worker answers one call at a time).
  check() {
    const seq = ++this.checkSeq;
    const scenario = this.draft.scenario;
    if (scenario.system !== this.system || mapKind(scenario) !== this.kind) {
      this.catalog(scenario.system);
    }
    const asked = this.checkTurn.then(() =>
      seq === this.checkSeq ? this.askCore(scenario) : null,
    );
    this.checkTurn = asked.then(
      () => null,
      () => null,
    );
    this.checking = asked.then((answer) => {
      // A newer change: its answer is the one to wait for.
      if (seq !== this.checkSeq) return this.checking;
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
    return this.checking;
  }

  // The core's answer for `scenario`: {ok, summary} | {ok: false, problem} | {ok: null} (no
  // check in this core). The last answers are kept by the scenario's text, so that a scenario
  // the core has answered for (an undo back to it, a file Open... has just checked) is not
  // checked again.
  askCore(scenario) {
    let text = null;
    try {
      text = JSON.stringify(scenario);
    } catch (error) {
      text = null;
    }
    const kept = text !== null ? this.answers.get(text) : undefined;
    if (kept) {
      this.answers.delete(text);
      this.answers.set(text, kept);
      return Promise.resolve(kept);
    }
    return this.engine.call("scenario_check", { scenario: scenario }).then(
      (answer) => {
        if (text !== null) {
          this.answers.set(text, answer);
          if (this.answers.size > KEPT_ANSWERS)
            this.answers.delete(this.answers.keys().next().value);
        }
        return answer;
      },
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
      return found && found.name ? this.i18n.pick(found.name) : null;
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

// The editor's other concerns, from their modules (see the head of this file).
Object.assign(
  Editor.prototype,
  layoutMethods,
  newMethods,
  pictureMethods,
  extentMethods,
  storeMethods,
  fileMethods,
);
