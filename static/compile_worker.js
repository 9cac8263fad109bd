// The page's compiling worker (started by static/engine.js): compiles pyodide.asm.wasm off the
// page's main thread and posts the WebAssembly.Module back (null when it cannot: the rules
// worker then fetches and compiles the file itself).
//
// It compiles by streaming from the fetched response, so the browser may keep the compiled
// code for a later visit and load it here next time. The browser writes that code some time
// after the compile, through the context that compiled it: the page keeps this worker alive.
self.onmessage = function (event) {
  const url = event.data;
  if (typeof WebAssembly.compileStreaming !== "function") {
    self.postMessage(null);
    return;
  }
  WebAssembly.compileStreaming(fetch(url)).then(
    function (module) {
      self.postMessage(module);
    },
    function () {
      self.postMessage(null);
    },
  );
};
