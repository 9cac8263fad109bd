// Promise API over the rules worker: await engine.call(method, params).
// Requests carry ids; answers are matched back; errors are structured ({key, params, message}).

export class EngineError extends Error {
  constructor(error) {
    super(error.message || error.key);
    this.name = "EngineError";
    this.key = error.key;
    this.params = error.params || {};
  }
}

export class Engine {
  constructor(workerUrl) {
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = { ready: [], fatal: [], log: [] };
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
    this.sendCompiledCore();
    this.worker.onmessage = function (event) {
      self.receive(event.data);
    };
    this.worker.onerror = function (event) {
      event.preventDefault();
      self.fail(event.message || "the rules worker could not start");
    };
  }

  // Compile Pyodide's WebAssembly here, where the browser caches compiled code between
  // visits (a worker's own compilation is not cached), and hand the module to the worker.
  sendCompiledCore() {
    const worker = this.worker;
    const url = new URL("../pyodide/pyodide.asm.wasm", import.meta.url);
    const compile =
      typeof WebAssembly.compileStreaming === "function"
        ? WebAssembly.compileStreaming(fetch(url))
        : Promise.resolve(null);
    compile.then(
      function (module) {
        worker.postMessage({ wasm: module });
      },
      function () {
        worker.postMessage({ wasm: null });
      },
    );
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
      this.info = message;
      this.resolveReady(message);
      this.emit("ready", message);
    } else if (message.type === "fatal") {
      this.fail(message.message);
    } else if (message.type === "log") {
      this.emit("log", message);
    }
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

  call(method, params) {
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
