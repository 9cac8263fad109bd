// The Saved games list (in the start panel, and as a dialog during play): each game kept in
// this browser with its scenario, turn, side to act and when it was last played, to resume,
// rename, export to a file or delete. It shows what the core's summary says, nothing hidden.
// Also the modal question asked before a game leaves the screen.
import { el } from "./panels.js";
import { downloadSave, storageDetail } from "./games.js";

// How many games the start panel lists; the dialog lists them all.
const PANEL_GAMES = 3;

function button(text, onClick, attrs) {
  const node = el("button", Object.assign({ type: "button", text: text }, attrs || {}));
  node.addEventListener("click", onClick);
  return node;
}

// Ask `question` in a modal dialog, with `lines` below it and `go` on the button that goes
// ahead; resolves true if the player goes ahead, false on Cancel (or Escape).
export function ask(question, lines, go) {
  const dialog = document.getElementById("ask");
  if (!dialog || typeof dialog.showModal !== "function") {
    return Promise.resolve(window.confirm([question].concat(lines || []).join("\n\n")));
  }
  document.getElementById("ask-title").textContent = question;
  document.getElementById("ask-body").replaceChildren.apply(
    document.getElementById("ask-body"),
    (lines || []).map(function (text) {
      return el("p", { text: text });
    }),
  );
  document.getElementById("ask-ok").textContent = go;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise(function (resolve) {
    dialog.addEventListener(
      "close",
      function () {
        resolve(dialog.returnValue === "ok");
      },
      { once: true },
    );
  });
}

// Close a dialog with "cancel" from its Cancel button (a plain button: Enter in a field of
// the form goes ahead, never cancels).
function wireCancel(dialogId, buttonId) {
  const dialog = document.getElementById(dialogId);
  const cancel = document.getElementById(buttonId);
  if (dialog && cancel) {
    cancel.addEventListener("click", function () {
      dialog.close("cancel");
    });
  }
}

export class SavedGames {
  // opts: games (Games), i18n, onResume(record) -> Promise, onError(error),
  // currentSlot() -> the slot of the game on screen or null, onChange() after an edit.
  constructor(opts) {
    this.games = opts.games;
    this.i18n = opts.i18n;
    this.onResume = opts.onResume;
    this.onError = opts.onError;
    this.currentSlot = opts.currentSlot;
    this.onChange = opts.onChange;
    this.dialog = document.getElementById("saved-dialog");
    this.listRoot = document.getElementById("saved-list");
    document.getElementById("saved-close").addEventListener("click", () => this.close());
    wireCancel("ask", "ask-cancel");
    wireCancel("rename-dialog", "rename-cancel");
  }

  t(key, params) {
    return this.i18n.t(key, params);
  }

  isOpen() {
    return Boolean(this.dialog && this.dialog.open);
  }

  open() {
    this.refresh();
    if (!this.dialog.open) this.dialog.showModal();
  }

  close() {
    if (this.dialog.open) this.dialog.close();
  }

  // Draw the lists again after a change (a game kept, renamed or deleted; a new language).
  refresh() {
    const records = this.games.records;
    const nodes = records.length
      ? [
          el(
            "ul",
            { class: "saved-list" },
            records.map((r) => this.entry(r, false)),
          ),
        ]
      : [el("p", { class: "hint", text: this.t("ui.saved_none") })];
    this.listRoot.replaceChildren.apply(this.listRoot, nodes);
  }

  // The start panel's part: the newest games, the newest's Resume first and foremost.
  panel() {
    const records = this.games.records;
    if (!records.length) return null;
    const shown = records.slice(0, PANEL_GAMES);
    const nodes = [
      el("h2", { class: "saved-head", text: this.t("ui.saved_games") }),
      el(
        "ul",
        { class: "saved-list" },
        shown.map((r, i) => this.entry(r, i === 0)),
      ),
    ];
    if (records.length > shown.length) {
      nodes.push(
        button(this.t("ui.saved_all", { count: records.length }), () => this.open(), {
          id: "saved-all",
          class: "saved-all",
        }),
      );
    }
    return el("div", { class: "saved-panel" }, nodes);
  }

  // The name of a game in the list: the player's, or its scenario's title.
  title(record) {
    const summary = record.summary || {};
    const scenario = (record.save && record.save.scenario) || {};
    return this.i18n.pick(summary.title || scenario.title || "");
  }

  sideName(record, side) {
    const scenario = (record.save && record.save.scenario) || {};
    const found = (scenario.sides || []).find(function (s) {
      return s.id === side;
    });
    return found ? this.i18n.pick(found.name) : this.t("ui.saved_side_unknown");
  }

  when(time) {
    const date = new Date(time);
    try {
      return new Intl.DateTimeFormat(this.i18n.lang, {
        dateStyle: "medium",
        timeStyle: "short",
      }).format(date);
    } catch (error) {
      return date.toLocaleString();
    }
  }

  // One game: its name, scenario, turn and side to act, when; then what may be done with it.
  // `first`: the newest of the start panel, whose Resume is the primary button (#resume).
  entry(record, first) {
    const summary = record.summary || {};
    const title = this.title(record);
    const onScreen = record.id === this.currentSlot();
    const facts = [];
    if (summary.turn !== null && summary.turn !== undefined) {
      facts.push(this.t("ui.turn", { turn: summary.turn, turns: summary.turns }));
    } else {
      facts.push(this.t("ui.saved_moves", { moves: summary.moves || 0 }));
    }
    if (summary.over) facts.push(this.t("ui.saved_over"));
    else if (summary.side) {
      facts.push(this.t("ui.saved_to_act", { side: this.sideName(record, summary.side) }));
    }
    const nodes = [el("h3", { class: "saved-name", text: record.name || title })];
    if (record.name) nodes.push(el("p", { class: "saved-title", text: title }));
    nodes.push(
      el("p", { class: "saved-facts", text: facts.join(" · ") }),
      el("p", {
        class: "saved-when",
        text: this.t("ui.saved_when", { when: this.when(record.updated) }),
      }),
    );
    const tools = [];
    if (onScreen) {
      tools.push(el("span", { class: "saved-here", text: this.t("ui.saved_on_screen") }));
    } else {
      const attrs = { class: "saved-resume" + (first ? " primary" : "") };
      if (first) attrs.id = "resume";
      tools.push(button(this.t("ui.resume_game"), () => this.resume(record), attrs));
    }
    tools.push(
      button(this.t("ui.rename"), () => this.rename(record), { class: "saved-rename" }),
      button(this.t("ui.export"), () => downloadSave(record.save), { class: "saved-export" }),
    );
    if (!onScreen) {
      tools.push(button(this.t("ui.delete"), () => this.remove(record), { class: "saved-delete" }));
    }
    nodes.push(el("div", { class: "saved-tools" }, tools));
    return el("li", { class: "saved-game", "data-slot": record.id }, nodes);
  }

  resume(record) {
    return this.onResume(record);
  }

  rename(record) {
    const dialog = document.getElementById("rename-dialog");
    const input = document.getElementById("rename-input");
    input.value = record.name || "";
    input.placeholder = this.title(record);
    dialog.returnValue = "";
    dialog.showModal();
    input.focus();
    input.select();
    dialog.addEventListener(
      "close",
      () => {
        if (dialog.returnValue !== "ok") return;
        const name = input.value.trim().slice(0, 80);
        this.games.rename(record.id, name).then(() => this.changed(), this.storageError());
      },
      { once: true },
    );
  }

  remove(record) {
    const name = record.name || this.title(record);
    return ask(
      this.t("ui.ask_delete", { name: name }),
      [this.t("ui.ask_delete_note")],
      this.t("ui.delete"),
    ).then((yes) => {
      if (!yes) return null;
      return this.games.remove(record.id).then(() => this.changed(), this.storageError());
    });
  }

  changed() {
    this.refresh();
    this.onChange();
  }

  storageError() {
    return (error) =>
      this.onError({ key: "error.storage", params: { detail: storageDetail(error, this.i18n) } });
  }
}
