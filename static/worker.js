// The rules worker: starts Python with the core (from the build's memory snapshot when it may,
// else by a normal start) and answers calls through one JSON-string facade, looked up once.
// Only strings cross the bridge, never proxies.
//
// The page's first message says how to boot: {boot: {mode: "snapshot" | "normal", skip}}
// ("skip": ids of snapshots this browser already refused, not to be fetched again); the next
// one brings the compiled pyodide.asm.wasm: {wasm: WebAssembly.Module or null}. Every other
// message is a JSON string request. The ready message says which boot was used and, when a
// snapshot was refused, why ("fetch", "unpack", "size", "header", "build", "restore", "check"
// or "skipped": refused before): the boot then went on the normal way, and a refused snapshot
// is dropped from the offline cache.
import {
  BootError,
  fetchCore,
  fetchSnapshot,
  fetchSnapshotInfo,
  loadPyodideCode,
  requestSnapshot,
  startPython,
} from "./pyboot.js";

const started = performance.now();
let callJson = null;
let pyodideApi = null;
let receiveBoot = null;
let receiveModule = null;
const bootWanted = new Promise(function (resolve) {
  receiveBoot = resolve;
});
const compiled = new Promise(function (resolve) {
  receiveModule = resolve;
});

function post(message) {
  self.postMessage(JSON.stringify(message));
}

const output = {
  stdout: function () {},
  stderr: function (line) {
    post({ type: "log", level: "error", text: String(line) });
  },
};

// Pyodide's script and the core's files load while the page's messages arrive.
const pyodideCode = loadPyodideCode();
pyodideCode.catch(function () {});
const core = fetchCore();

const ready = bootWanted
  .then(function (boot) {
    if (boot.mode !== "snapshot") {
      return core.then(function (files) {
        return normalStart(files, { boot: "normal" });
      });
    }
    const skip = boot.skip || [];
    // The snapshot's download starts at once, unless this browser has refused one before
    // (snapshot.json, small and read at once, says whether it is that one).
    const early = !skip.length ? requestSnapshot() : null;
    if (early) early.catch(function () {});
    return fetchSnapshotInfo().then(
      function (info) {
        return fromSnapshot(info, skip, early);
      },
      function () {
        return core.then(function (files) {
          return normalStart(files, { boot: "normal", refused: "fetch" });
        });
      },
    );
  })
  .then(function (booted) {
    // Pyodide goes on without its standard library when that file does not arrive; a restored
    // heap would even answer for a while. The rules do not start without it.
    const stdlib = pyodideApi.runPython(
      "import os, sys; all(os.path.exists(p) for p in sys.path if p.endswith('.zip'))",
    );
    if (!stdlib) throw new Error("Python's standard library could not be loaded");
    const about = JSON.parse(callJson('{"method": "version"}')).result;
    post(
      Object.assign(booted, {
        type: "ready",
        version: about.version,
        limits: about.limits,
        systems: about.systems,
        levels: about.levels,
        python: pyodideApi.runPython("import sys; sys.version.split()[0]"),
        heap: heapBytes(),
        bootMs: Math.round(performance.now() - started),
      }),
    );
  })
  .catch(function (error) {
    post({ type: "fatal", message: String((error && error.message) || error) });
    throw error;
  });

function options(files, extra) {
  return Object.assign(
    { core: files, wasm: compiled, createPyodideModule: pyodideCode },
    output,
    extra,
  );
}

function normalStart(files, report) {
  const begun = performance.now();
  return startPython(options(files, {})).then(function (started) {
    pyodideApi = started.pyodide;
    const loaded = performance.now();
    callJson = pyodideApi.pyimport("muster.api").call_json;
    return Object.assign(report, {
      pyodideMs: Math.round(loaded - begun),
      importMs: Math.round(performance.now() - loaded),
    });
  });
}

function fromSnapshot(info, skip, requested) {
  const id = info.id;
  if (skip.indexOf(id) >= 0) {
    // Refused before, perhaps before the offline cache kept it: not kept any longer.
    return dropSnapshot()
      .then(function () {
        return core;
      })
      .then(function (files) {
        return normalStart(files, { boot: "normal", refused: "skipped" });
      });
  }
  const begun = performance.now();
  let fetched = null;
  const snapshot = fetchSnapshot(info.bytes, info.page, requested);
  snapshot.filled.then(
    function () {
      fetched = performance.now();
    },
    function () {},
  );
  // Pyodide loads and instantiates while the snapshot and the core's files arrive.
  return startPython(options(core, { snapshot: snapshot }))
    .then(function (started) {
      return core.then(function (files) {
        const restored = performance.now();
        check(started.pyodide, files);
        pyodideApi = started.pyodide;
        callJson = started.pyodide.pyimport("muster.api").call_json;
        return {
          boot: "snapshot",
          fetchMs: Math.round(fetched - begun),
          pyodideMs: Math.round(restored - begun),
          checkMs: Math.round(performance.now() - restored),
        };
      });
    })
    .catch(function (error) {
      // Pyodide's own script or the core's files missing is no fault of the snapshot: neither
      // start can run.
      return Promise.all([pyodideCode, core]).then(function (loaded) {
        return fallBack(loaded[1], id, error);
      });
    });
}

function fallBack(files, id, error) {
  const reason = error instanceof BootError ? error.reason : "restore";
  post({ type: "log", level: "warn", text: "snapshot refused: " + error.message });
  // A failed download proves nothing against the file; a broken stream may be a cut download
  // or a broken copy: dropped from the offline cache, tried again next time. Any other
  // refusal is the file's own: dropped and remembered by the page.
  const report = { boot: "normal", refused: reason };
  if (reason === "fetch") return normalStart(files, report);
  if (reason !== "unpack") report.refusedId = id;
  return dropSnapshot().then(function () {
    return normalStart(files, report);
  });
}

// After a restore: the heap holds the core that was given, and it answers.
function check(pyodide, files) {
  let held;
  let answer;
  try {
    held = pyodide.globals.get("MUSTER_CORE");
    const api = pyodide.pyimport("muster.api");
    answer = JSON.parse(api.call_json('{"method": "scenario_list"}'));
    api.destroy();
  } catch (error) {
    throw new BootError("check", String((error && error.message) || error));
  }
  if (held !== files.fingerprint) {
    throw new BootError("check", "the snapshot holds another core");
  }
  if (!answer.ok || !answer.result.length) {
    throw new BootError("check", "the restored core does not answer");
  }
}

// Remove a refused snapshot from the offline cache (the service worker's), so it is not read
// again; the page also remembers it was refused (the boot message's "skip").
function dropSnapshot() {
  if (typeof caches === "undefined") return Promise.resolve();
  return caches
    .keys()
    .then(function (names) {
      return Promise.all(
        names.map(function (name) {
          return caches.open(name).then(function (cache) {
            return cache.keys().then(function (requests) {
              return Promise.all(
                requests
                  .filter(function (request) {
                    return /\/core\/snapshot\.gz(\?|$)/.test(request.url);
                  })
                  .map(function (request) {
                    return cache.delete(request);
                  }),
              );
            });
          });
        }),
      );
    })
    .catch(function () {});
}

function heapBytes() {
  return pyodideApi ? pyodideApi._module.HEAP8.length : 0;
}

self.onmessage = function (event) {
  if (typeof event.data !== "string") {
    const data = event.data || {};
    if (data.boot) receiveBoot(data.boot);
    if ("wasm" in data) receiveModule(data.wasm || null);
    if (data.stats) {
      ready.then(function () {
        post({ type: "stats", heap: heapBytes() });
      });
    }
    return;
  }
  // event.data is the JSON request string; "id" travels alongside method and params.
  const text = event.data;
  let id = null;
  try {
    id = JSON.parse(text).id;
  } catch (error) {
    post({ type: "reply", id: null, response: { ok: false, error: badRequest(error) } });
    return;
  }
  ready.then(
    function () {
      let answer;
      try {
        answer = callJson(text);
      } catch (error) {
        post({ type: "reply", id: id, response: { ok: false, error: crashed(error) } });
        return;
      }
      self.postMessage(
        '{"type":"reply","id":' + JSON.stringify(id) + ',"response":' + answer + "}",
      );
    },
    function (error) {
      post({ type: "reply", id: id, response: { ok: false, error: crashed(error) } });
    },
  );
};

function badRequest(error) {
  return {
    key: "error.bad_json",
    params: { place: "request", detail: String(error) },
    message: String(error),
  };
}

function crashed(error) {
  const detail = String((error && error.message) || error);
  return { key: "error.internal", params: { kind: "bridge", detail: detail }, message: detail };
}
