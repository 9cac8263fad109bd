// The rules worker: boots Pyodide with our wheel and answers calls through one
// JSON-string facade, looked up once. Only strings cross the bridge, never proxies.
import { bootCore, useCompiledModule } from "./pyboot.js";

const started = performance.now();
let callJson = null;
let receiveModule = null;
// The page sends the compiled pyodide.asm.wasm first ({wasm: Module or null}); every other
// message is a JSON string request.
useCompiledModule(
  new Promise(function (resolve) {
    receiveModule = resolve;
  }),
);

function post(message) {
  self.postMessage(JSON.stringify(message));
}

const ready = bootCore({
  stdout: function () {},
  stderr: function (line) {
    post({ type: "log", level: "error", text: String(line) });
  },
})
  .then(function (pyodide) {
    const loaded = performance.now();
    callJson = pyodide.pyimport("muster.api").call_json;
    const imported = performance.now();
    const about = JSON.parse(callJson('{"method": "version"}')).result;
    post({
      type: "ready",
      version: about.version,
      limits: about.limits,
      python: pyodide.runPython("import sys; sys.version.split()[0]"),
      bootMs: Math.round(performance.now() - started),
      pyodideMs: Math.round(loaded - started),
      importMs: Math.round(imported - loaded),
    });
  })
  .catch(function (error) {
    post({ type: "fatal", message: String((error && error.message) || error) });
    throw error;
  });

self.onmessage = function (event) {
  if (typeof event.data !== "string") {
    receiveModule((event.data && event.data.wasm) || null);
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
