// The games kept in this browser, each in its own slot: one IndexedDB object store keyed by
// the slot's id. A record: { id, save (what the core's `save` answers, with the checkpoint
// that resumes it at once: `{"checkpoint": true}`), summary (the view's
// `summary`: scenario, title, turn, turns, side, moves, over), updated (ms since 1970),
// name (optional, the player's) }. A copy of the records is kept in memory, newest first,
// so the lists draw at once. Storage errors are passed on: the caller says them.
const DB_NAME = "muster";
const STORE = "games";
// At most this many games are kept; the oldest beyond it are dropped (at least 20 are kept).
const MAX_GAMES = 50;
// The single slot of earlier versions, imported once into the list then removed.
const OLD_AUTOSAVE = "muster.autosave";
// Set once the browser has been asked to keep this site's storage (navigator.storage.persist).
const PERSIST_ASKED = "muster.persist-asked";

// A new slot id: time and chance, unique enough for one browser's games.
export function newSlot() {
  const random = crypto.getRandomValues(new Uint32Array(2));
  return Date.now().toString(36) + "-" + random[0].toString(36) + random[1].toString(36);
}

// Offer `save` (a save object) as a file, named after its scenario. A kept game's checkpoint
// stays on this device: the file holds what every version reads (a file is replayed whole).
export function downloadSave(save) {
  const file = Object.assign({}, save);
  delete file.checkpoint;
  const blob = new Blob([JSON.stringify(file, null, 1)], { type: "application/json" });
  const id = save && save.scenario && save.scenario.id ? String(save.scenario.id) : "game";
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = id + ".save.json";
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(function () {
    URL.revokeObjectURL(link.href);
  }, 10000);
}

// Log lines the first request of a resume carries: as many as a view shows (the core's 200),
// of those the viewer reads.
const HEAD_LINES = 200;

// A kept game in two parts, so it comes back on screen in about the same time however long
// it is: {head, held, rest}, or null when it is sent whole (no checkpoint with an older state:
// a short game, or one kept by an earlier version). The head is the save with only the
// actions since the checkpoint's older state, the log lines the screen shows and those
// actions logged, and their marks (load_save's `held` says how many of each were left out);
// the rest (kept_rest) holds what was left out. Slices only: nothing here grows with the game
// but the two slices of the rest. `viewer`: the side on screen, when a side hides its pieces.
export function keptHead(save, viewer) {
  const point = save && save.checkpoint;
  if (!point || !Array.isArray(save.actions) || !Array.isArray(point.states)) return null;
  const log = point.log;
  const marks = point.log_marks;
  if (!Array.isArray(log) || !Array.isArray(marks) || !Number.isInteger(point.log_from)) {
    return null;
  }
  const held = point.states.length > 1 && point.states[0] ? point.states[0].at : 0;
  if (!Number.isInteger(held) || held <= 0 || held >= save.actions.length) return null;
  if (marks.length !== save.actions.length) return null;
  let cut = log.length;
  let seen = 0;
  while (cut > 0 && seen < HEAD_LINES) {
    cut -= 1;
    const line = log[cut];
    if (!viewer || !line || line.to === undefined || line.to === viewer) seen += 1;
  }
  // From the first line shown, or the first its actions logged if that is older.
  const first = Math.min(point.log_from + cut, marks[held]);
  cut = first - point.log_from;
  if (!(cut >= 0)) return null; // lines of its actions not kept: sent whole
  let heldMarks = 0; // the marks at or before the head's first line, of the actions left out
  while (heldMarks < held && marks[heldMarks] <= first) heldMarks += 1;
  const head = Object.assign({}, save, {
    actions: save.actions.slice(held),
    checkpoint: Object.assign({}, point, {
      log: log.slice(cut),
      log_from: first,
      log_marks: marks.slice(heldMarks),
    }),
  });
  return {
    head: head,
    held: { actions: held, log_marks: heldMarks },
    rest: {
      actions: save.actions.slice(0, held),
      log: log.slice(0, cut),
      log_marks: marks.slice(0, heldMarks),
    },
  };
}

// What can be told of a save without the core (a game kept by an earlier version): the rest
// is filled in from the core's summary once the game is resumed.
function summaryOf(save) {
  const scenario = (save && save.scenario) || {};
  return {
    scenario: scenario.id,
    title: scenario.title,
    turn: null,
    turns: null,
    side: null,
    moves: save && Array.isArray(save.actions) ? save.actions.length : 0,
    over: false,
  };
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// The error of a failed request or transaction (a DOMException, or one of ours).
function failure(error, fallback) {
  return error || new Error(fallback);
}

// What a storage error says: a full storage plainly (a label, {key, params}), else the
// browser's message.
export function storageProblem(error) {
  if (error && error.name === "QuotaExceededError") return { key: "ui.storage_full", params: {} };
  return String((error && (error.message || error.name)) || error);
}

// What a storage error says, in words.
export function storageDetail(error, i18n) {
  const problem = storageProblem(error);
  return typeof problem === "string" ? problem : i18n.t(problem.key, problem.params);
}

export class Games {
  constructor() {
    this.opening = null;
    this.records = [];
  }

  open() {
    if (!this.opening) {
      this.opening = new Promise(function (resolve, reject) {
        if (typeof indexedDB === "undefined") {
          reject(new Error("IndexedDB is not available"));
          return;
        }
        const request = indexedDB.open(DB_NAME, 1);
        request.onupgradeneeded = function () {
          const store = request.result.createObjectStore(STORE, { keyPath: "id" });
          store.createIndex("updated", "updated");
        };
        request.onsuccess = function () {
          resolve(request.result);
        };
        request.onerror = function () {
          reject(failure(request.error, "open"));
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

  // Run `work(store)` in one transaction; resolves with what work returned, once committed.
  transaction(mode, work) {
    return this.open().then(function (db) {
      return new Promise(function (resolve, reject) {
        let tx;
        try {
          tx = db.transaction(STORE, mode);
        } catch (error) {
          reject(failure(error, "transaction"));
          return;
        }
        const out = { value: undefined };
        tx.oncomplete = function () {
          resolve(out.value);
        };
        tx.onabort = function () {
          reject(failure(tx.error, "aborted"));
        };
        tx.onerror = function (event) {
          event.preventDefault(); // the abort handler says it
        };
        work(tx.objectStore(STORE), out);
      });
    });
  }

  // Read every record into memory (newest first); imports the old single slot once.
  load() {
    return this.importOld()
      .then(() =>
        this.transaction("readonly", function (store, out) {
          const request = store.getAll();
          request.onsuccess = function () {
            out.value = request.result;
          };
        }),
      )
      .then((records) => {
        this.records = (records || []).sort(function (a, b) {
          return b.updated - a.updated;
        });
        return this.records;
      });
  }

  get(id) {
    return (
      this.records.find(function (r) {
        return r.id === id;
      }) || null
    );
  }

  // Keep `save` in slot `id` with its summary; a save and summary unchanged are not written
  // again (a resumed game keeps its time). Resolves with the record.
  keep(id, save, summary) {
    summary = summary || summaryOf(save);
    const old = this.get(id);
    if (old && same(old.save, save) && same(old.summary, summary)) return Promise.resolve(old);
    const record = { id: id, save: save, summary: summary, updated: Date.now() };
    if (old && old.name) record.name = old.name;
    return this.transaction("readwrite", function (store) {
      store.put(record);
      if (old) return;
      // A new game: drop the oldest beyond the limit.
      const count = store.count();
      count.onsuccess = function () {
        let extra = count.result - MAX_GAMES;
        if (extra <= 0) return;
        const cursor = store.index("updated").openCursor();
        cursor.onsuccess = function () {
          const at = cursor.result;
          if (!at || extra <= 0) return;
          if (at.primaryKey !== id) {
            at.delete();
            extra -= 1;
          }
          at.continue();
        };
      };
    }).then(() => {
      this.records = [record]
        .concat(
          this.records.filter(function (r) {
            return r.id !== id;
          }),
        )
        .slice(0, MAX_GAMES);
      this.askPersistence();
      return record;
    });
  }

  rename(id, name) {
    const old = this.get(id);
    if (!old) return Promise.resolve(null);
    const record = Object.assign({}, old);
    if (name) record.name = name;
    else delete record.name;
    return this.transaction("readwrite", function (store) {
      store.put(record);
    }).then(() => {
      this.records = this.records.map(function (r) {
        return r.id === id ? record : r;
      });
      return record;
    });
  }

  remove(id) {
    return this.transaction("readwrite", function (store) {
      store.delete(id);
    }).then(() => {
      this.records = this.records.filter(function (r) {
        return r.id !== id;
      });
    });
  }

  // Ask the browser, once, to keep this site's storage when space runs short.
  askPersistence() {
    try {
      if (!navigator.storage || !navigator.storage.persist) return;
      if (localStorage.getItem(PERSIST_ASKED)) return;
      localStorage.setItem(PERSIST_ASKED, "1");
      navigator.storage.persist().catch(function () {});
    } catch (error) {
      // No storage to note it in: asking again later does no harm.
    }
  }

  // The game kept by earlier versions in one localStorage slot, moved into the list once.
  importOld() {
    let save = null;
    try {
      const text = localStorage.getItem(OLD_AUTOSAVE);
      save = text ? JSON.parse(text) : null;
    } catch (error) {
      save = null;
    }
    if (!save || typeof save !== "object" || !save.scenario) {
      this.dropOld();
      return Promise.resolve();
    }
    const record = { id: newSlot(), save: save, summary: summaryOf(save), updated: Date.now() };
    return this.transaction("readwrite", function (store) {
      store.put(record);
    }).then(
      () => this.dropOld(),
      function () {
        // Kept where it was: the next start tries again.
      },
    );
  }

  dropOld() {
    try {
      localStorage.removeItem(OLD_AUTOSAVE);
    } catch (error) {
      // Nothing to drop.
    }
  }
}
