// Boots Pyodide with the project's wheel from our own lockfile (integrity-checked during
// Pyodide's start, which is faster than installing it with micropip afterwards).
// Used by the rules worker and by the in-browser test run of the core's unit tests.
import { loadPyodide } from "../pyodide/pyodide.mjs";

const SITE_ROOT = new URL("../", import.meta.url);

export const PYODIDE_URL = new URL("pyodide/", SITE_ROOT).href;
export const WHEELS_URL = new URL("wheels/", SITE_ROOT).href;

export function bootCore(options) {
  const lockFileContents = fetch(new URL("muster-lock.json", WHEELS_URL)).then(function (response) {
    if (!response.ok) {
      throw new Error("lockfile: HTTP " + response.status);
    }
    return response.text();
  });
  return loadPyodide(
    Object.assign(
      {
        indexURL: PYODIDE_URL,
        lockFileContents: lockFileContents,
        packageBaseUrl: WHEELS_URL,
        packages: ["muster"],
      },
      options || {},
    ),
  );
}

// Use a WebAssembly.Module compiled elsewhere (the page compiles pyodide.asm.wasm, where the
// browser's compiled-code cache makes a second visit fast, and hands the module to the worker)
// for Pyodide's instantiation. `modulePromise` resolves to the module, or to null to let
// Pyodide compile the file itself.
export function useCompiledModule(modulePromise) {
  const original = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = function (source, imports) {
    WebAssembly.instantiateStreaming = original;
    return modulePromise.then(function (module) {
      if (!module) return original.call(WebAssembly, source, imports);
      return WebAssembly.instantiate(module, imports).then(function (instance) {
        return { instance: instance, module: module };
      });
    });
  };
}
