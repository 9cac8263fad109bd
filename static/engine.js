// Promise API over the rules worker: await engine.call(method, params).
// Requests carry ids; answers are matched back; errors are structured ({key, params, message}).
//
// The worker boots from the build's memory snapshot unless told otherwise ({mode: "normal"});
// a snapshot it refused once (not for a failed download) is remembered here, in the page's
// storage, and not fetched again: the next build brings another.
const REFUSED_KEY = "muster.snapshots-refused";

export class EngineError extends Error {
  constructor(error) {
    super(error.message || error.key);
    this.name = "EngineError";
    this.key = error.key;
    this.params = error.params || {};
  }
}

// The page's one compile of pyodide.asm.wasm: a promise of the WebAssembly.Module, or of
// null when it cannot (each rules worker then compiles the file itself). Its worker is kept
// here, alive with the page.
let compiling = null;
let compiler = null;

function compiledCore() {
  if (compiling) return compiling;
  compiling = new Promise(function (resolve) {
    const url = new URL("../pyodide/pyodide.asm.wasm", import.meta.url);
    try {
      compiler = new Worker(new URL("./compile_worker.js", import.meta.url));
    } catch (error) {
      resolve(null);
      return;
    }
    compiler.onmessage = function (event) {
      resolve(event.data);
    };
    compiler.onerror = function (event) {
      event.preventDefault();
      resolve(null);
    };
    compiler.postMessage(url.href);
  });
  return compiling;
}

export class Engine {
  constructor(workerUrl, boot) {
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = { ready: [], fatal: [], log: [], stats: [] };
    this.info = null;
    this.failure = null;
    const self = this;
    this.ready = new Promise(function (resolve, reject) {
      self.resolveReady = resolve;
      self.rejectReady = reject;
    });
    this.ready.catch(function () {});
    const url = workerUrl || new URL("./worker.js", import.meta.url);
    try {
      this.worker = new Worker(url, { type: "module" });
    } catch (error) {
      this.fail(String(error));
      return;
    }
    this.worker.postMessage({
      boot: { mode: (boot && boot.mode) || "snapshot", skip: refusedSnapshots() },
    });
    this.sendCompiledCore();
    this.worker.onmessage = function (event) {
      self.receive(event.data);
    };
    this.worker.onerror = function (event) {
      event.preventDefault();
      self.fail(event.message || "the rules worker could not start");
    };
  }

  // Compile Pyodide's WebAssembly as soon as the page starts, beside the rules worker's own
  // start, and hand the module to it. The compile runs in a worker of its own
  // (static/compile_worker.js): on the page's main thread, streaming in and finishing the
  // module took tasks of 50-150 ms. That worker streams from the response as the page did, so
  // the browser's compiled-code cache serves it as well; it stays alive with the page, since
  // the browser writes that cache through it. Without it the rules worker compiles the file.
  // The page compiles once: a later worker (Muster's, muster.js) gets the same module.
  sendCompiledCore() {
    const worker = this.worker;
    compiledCore().then(function (module) {
      worker.postMessage({ wasm: module || null });
    });
  }

  on(kind, listener) {
    this.listeners[kind].push(listener);
  }

  emit(kind, value) {
    this.listeners[kind].forEach(function (listener) {
      listener(value);
    });
  }

  receive(text) {
    const message = JSON.parse(text);
    if (message.type === "reply") {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.response.ok) {
        waiting.resolve(message.response.result);
      } else {
        waiting.reject(new EngineError(message.response.error));
      }
    } else if (message.type === "ready") {
      if (message.refusedId) rememberRefused(message.refusedId);
      this.info = message;
      this.resolveReady(message);
      this.emit("ready", message);
    } else if (message.type === "fatal") {
      this.fail(message.message);
    } else if (message.type === "log") {
      this.emit("log", message);
    } else if (message.type === "stats") {
      this.emit("stats", message);
    }
  }

  // The worker's figures once it is ready: {heap} (bytes of Python's WebAssembly memory).
  stats() {
    const self = this;
    return new Promise(function (resolve) {
      const listener = function (message) {
        self.listeners.stats.splice(self.listeners.stats.indexOf(listener), 1);
        resolve({ heap: message.heap });
      };
      self.on("stats", listener);
      self.worker.postMessage({ stats: true });
    });
  }

  fail(reason) {
    if (this.failure) return;
    this.failure = reason;
    const error = new EngineError({
      key: "error.engine_failed",
      params: { detail: reason },
      message: reason,
    });
    this.rejectReady(error);
    this.pending.forEach(function (waiting) {
      waiting.reject(error);
    });
    this.pending.clear();
    this.emit("fatal", error);
  }

  // Two tablets (pair.js): once paired, every call goes to the host's tablet instead.
  route(remote) {
    this.remote = remote;
  }

  call(method, params) {
    if (this.remote) return this.remote.call(method, params);
    if (this.failure) {
      return Promise.reject(
        new EngineError({ key: "error.engine_failed", params: { detail: this.failure } }),
      );
    }
    const id = this.nextId++;
    const self = this;
    return new Promise(function (resolve, reject) {
      let text;
      try {
        text = JSON.stringify({ id: id, method: method, params: params || {} });
      } catch (error) {
        // Only a structure too deep for the browser's own JSON writer gets here.
        reject(new EngineError({ key: "error.too_deep", params: { place: "request", limit: 64 } }));
        return;
      }
      self.pending.set(id, { resolve: resolve, reject: reject });
      self.worker.postMessage(text);
    });
  }
}

function refusedSnapshots() {
  try {
    const kept = JSON.parse(localStorage.getItem(REFUSED_KEY) || "[]");
    return Array.isArray(kept) ? kept.filter((id) => typeof id === "string") : [];
  } catch (error) {
    return [];
  }
}

function rememberRefused(id) {
  try {
    const kept = refusedSnapshots().filter((known) => known !== id);
    // The newest few: each build has its own snapshot.
    localStorage.setItem(REFUSED_KEY, JSON.stringify(kept.concat([id]).slice(-4)));
  } catch (error) {
    // No storage: the worker checks the snapshot again next time, and refuses it again.
  }
}
