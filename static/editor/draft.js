// The editor's document: one `muster-scenario/1` object, changed only through `change` and
// `replace`, each one step of undo; and the drafts kept on the device (IndexedDB), so a
// reload or a closed tab loses nothing. Nothing here decides what a valid scenario is: the
// core does (`scenario_check`).

// Steps of undo kept; the oldest beyond it are dropped.
export const MAX_STEPS = 200;
// The editor's own database: drafts and the pictures under their maps (never in a scenario).
const DB_NAME = "muster-editor";
const DB_VERSION = 1;
export const DRAFTS = "drafts";
export const PICTURES = "pictures";

function copy(value) {
  return JSON.parse(JSON.stringify(value));
}

export class Draft {
  constructor(scenario) {
    this._scenario = copy(scenario);
    this.past = []; // [{scenario, what}] the states before each step, oldest first
    this.future = []; // [{scenario, what}] the states undone, the next redo last
    this.listeners = [];
  }

  // The current scenario: read only, never mutate it (change() gives a copy to change).
  get scenario() {
    return this._scenario;
  }

  // fn(copy) changes a deep copy of the scenario: one step of undo, named by `what` (an i18n
  // key, for the undo button's title). A fn that throws changes nothing.
  change(fn, what) {
    const next = copy(this._scenario);
    fn(next);
    this.step(next, what, "change");
  }

  // A whole new scenario (an import, a new map): one step of undo.
  replace(scenario, what) {
    this.step(copy(scenario), what, "replace");
  }

  step(next, what, kind) {
    this.past.push({ scenario: this._scenario, what: what || null });
    if (this.past.length > MAX_STEPS) this.past.splice(0, this.past.length - MAX_STEPS);
    this.future = [];
    this._scenario = next;
    this.emit(kind, what);
  }

  canUndo() {
    return this.past.length > 0;
  }

  canRedo() {
    return this.future.length > 0;
  }

  // The name (i18n key) of the step undo would take back, or redo would do again; null if
  // that step has none.
  undoWhat() {
    return this.past.length ? this.past[this.past.length - 1].what : null;
  }

  redoWhat() {
    return this.future.length ? this.future[this.future.length - 1].what : null;
  }

  undo() {
    if (!this.past.length) return false;
    const back = this.past.pop();
    this.future.push({ scenario: this._scenario, what: back.what });
    this._scenario = back.scenario;
    this.emit("undo", back.what);
    return true;
  }

  redo() {
    if (!this.future.length) return false;
    const again = this.future.pop();
    this.past.push({ scenario: this._scenario, what: again.what });
    this._scenario = again.scenario;
    this.emit("redo", again.what);
    return true;
  }

  // cb(scenario, {kind, what}) after every change; returns a function that stops listening.
  listen(cb) {
    this.listeners.push(cb);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== cb);
    };
  }

  emit(kind, what) {
    const info = { kind: kind, what: what || null };
    this.listeners.slice().forEach((cb) => cb(this._scenario, info));
  }
}

// A new id for a draft or a picture: time and chance, unique enough for one device.
export function newId() {
  const random = crypto.getRandomValues(new Uint32Array(2));
  return Date.now().toString(36) + "-" + random[0].toString(36) + random[1].toString(36);
}

// The drafts and pictures kept on this device. Every method returns a promise; a refusal
// (no IndexedDB, a full storage) is passed on for the editor to say.
export class Store {
  constructor() {
    this.opening = null;
  }

  open() {
    if (!this.opening) {
      this.opening = new Promise(function (resolve, reject) {
        if (typeof indexedDB === "undefined" || !indexedDB) {
          reject(new Error("IndexedDB is not available"));
          return;
        }
        let request;
        try {
          request = indexedDB.open(DB_NAME, DB_VERSION);
        } catch (error) {
          reject(error);
          return;
        }
        request.onupgradeneeded = function () {
          const db = request.result;
          if (!db.objectStoreNames.contains(DRAFTS)) {
            db.createObjectStore(DRAFTS, { keyPath: "id" }).createIndex("updated", "updated");
          }
          if (!db.objectStoreNames.contains(PICTURES)) {
            db.createObjectStore(PICTURES, { keyPath: "id" });
          }
        };
        request.onsuccess = function () {
          resolve(request.result);
        };
        request.onerror = function () {
          reject(request.error || new Error("open"));
        };
        request.onblocked = function () {
          reject(new Error("the storage is in use by another tab"));
        };
      });
      this.opening.catch(() => {
        this.opening = null; // try again next time
      });
    }
    return this.opening;
  }

  // Run work(store) in one transaction of `name`; resolves with what the request it returned
  // gave, once the transaction is committed.
  run(name, mode, work) {
    return this.open().then(function (db) {
      return new Promise(function (resolve, reject) {
        let tx;
        try {
          tx = db.transaction(name, mode);
        } catch (error) {
          reject(error);
          return;
        }
        let request = null;
        tx.oncomplete = function () {
          resolve(request ? request.result : undefined);
        };
        tx.onabort = function () {
          reject(tx.error || new Error("aborted"));
        };
        tx.onerror = function (event) {
          event.preventDefault(); // the abort handler says it
        };
        try {
          request = work(tx.objectStore(name));
        } catch (error) {
          tx.abort();
          reject(error);
        }
      });
    });
  }

  // Every draft, newest first.
  drafts() {
    return this.run(DRAFTS, "readonly", (store) => store.getAll()).then(function (all) {
      return (all || []).sort(function (a, b) {
        return (b.updated || 0) - (a.updated || 0);
      });
    });
  }

  // The draft changed last, or null.
  latest() {
    return this.drafts().then((all) => all[0] || null);
  }

  getDraft(id) {
    return this.run(DRAFTS, "readonly", (store) => store.get(id)).then((r) => r || null);
  }

  // record: {id, updated, scenario, picture: {pictureId, opacity, transform} | null}
  putDraft(record) {
    return this.run(DRAFTS, "readwrite", (store) => store.put(record));
  }

  deleteDraft(id) {
    return this.run(DRAFTS, "readwrite", (store) => store.delete(id));
  }

  // picture: {id, blob, name, width, height}
  putPicture(picture) {
    return this.run(PICTURES, "readwrite", (store) => store.put(picture));
  }

  getPicture(id) {
    return this.run(PICTURES, "readonly", (store) => store.get(id)).then((r) => r || null);
  }

  pictureIds() {
    return this.run(PICTURES, "readonly", (store) => store.getAllKeys()).then((k) => k || []);
  }

  deletePicture(id) {
    return this.run(PICTURES, "readwrite", (store) => store.delete(id));
  }
}
