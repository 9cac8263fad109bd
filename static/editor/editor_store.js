// The scenario editor's drafts kept on the device (methods of the editor in
// static/editor/editor.js): each change written, one write at a time; a storage failure in the
// status line; drafts opened, deleted, or put aside for a new one; pictures no draft names
// dropped.
import { storageDetail } from "../games.js";
import { newId } from "./draft.js";

export const storeMethods = {
  recordNow() {
    return {
      id: this.recordId,
      updated: Date.now(),
      scenario: this.draft.scenario,
      picture: this.picture.state(),
    };
  },

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
  },

  // Resolves once every change so far is kept (or refused).
  saved() {
    return this.writing || Promise.resolve();
  },

  storageFailed(error) {
    console.warn("editor storage:", (error && (error.message || error.name)) || error);
    this.storageProblem = error || new Error("storage");
    this.renderStatus();
  },

  storageText(error) {
    const missing = typeof indexedDB === "undefined" || !indexedDB;
    const detail = missing ? this.t("editor.storage_missing") : storageDetail(error, this.i18n);
    return this.t("editor.storage_failed", { detail: detail });
  },

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
        // A picture being kept, not yet under the map (picture.js prepare()).
        this.picture.keeping.forEach((id) => {
          used[id] = true;
        });
        return Promise.all(
          both[1].filter((id) => !used[id]).map((id) => this.store.deletePicture(id)),
        );
      })
      .catch(function () {});
  },

  openDraft(record) {
    return this.saved()
      .then(() => this.store.getDraft(record.id))
      .then((found) => {
        if (!found) return this.renderDrafts();
        return this.openRecord(found).then(() => {
          this.sayKey("editor.draft_opened", "info", {
            title: this.i18n.pick(found.scenario.title),
          });
          this.renderDrafts();
        });
      })
      .catch((error) => this.storageFailed(error));
  },

  deleteDraft(record) {
    const title =
      (record.scenario && this.i18n.pick(record.scenario.title)) || this.t("ui.untitled");
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
  },

  // Whether the draft on screen holds work a replacement would put aside.
  hasChanges() {
    return Boolean(this.draft && (this.draft.canUndo() || this.fromStore));
  },

  // A new draft on the device (the one on screen stays in the list), holding `scenario` as
  // one step of undo from what was on screen; the picture under the map kept when
  // `keepPicture` (its hexes lie where the new map's do), else taken away.
  replaceWith(scenario, what, keepPicture) {
    this.recordId = newId();
    this.fromStore = false;
    if (!keepPicture) this.picture.clear();
    this.renderPicture();
    this.draft.replace(scenario, what);
  },

  askReplace(question) {
    if (!this.hasChanges()) return Promise.resolve(true);
    const title = this.i18n.pick(this.draft.scenario.title) || this.t("ui.untitled");
    return this.host.ask(question, this.t("editor.ask_go"), [
      this.t("editor.ask_kept", { title: title }),
    ]);
  },
};
