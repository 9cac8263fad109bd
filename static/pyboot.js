// Starts Pyodide with the rules core: from a memory snapshot of the imported and warmed core
// when one is given, else by a normal start. Used by the rules worker, by the in-browser test
// run of the core's unit tests and, in Node, by the build (tools/snapshot.mjs) that makes the
// snapshot. Pyodide's snapshot API is private (314: the _loadSnapshot and _makeSnapshot options
// and makeMemorySnapshot): startPython below is the one place that touches it.
//
// The core travels as one file, core/core.json (build.py writes it): its .py and .json files
// as text, written into site-packages before Python starts (fsInit), in a normal start and
// after a snapshot's restore alike (the snapshot holds the heap, not the files, and the core
// reads its tables from its own folder). No package is installed: Pyodide refuses to snapshot
// a heap that has loaded one.
import { loadPyodide } from "../pyodide/pyodide.mjs";

const SITE_ROOT = new URL("../", import.meta.url);

export const PYODIDE_URL = new URL("pyodide/", SITE_ROOT).href;
export const CORE_URL = new URL("core/core.json", SITE_ROOT).href;
export const SNAPSHOT_URL = new URL("core/snapshot.gz", SITE_ROOT).href;
export const SNAPSHOT_INFO_URL = new URL("core/snapshot.json", SITE_ROOT).href;
const WASM_NAME = "pyodide.asm.wasm";

// Python's hash seed, fixed: a snapshot keeps the seed it was made with, so a normal start
// uses the same one and both give the same answers, byte for byte.
export const PYTHON_ENV = { PYTHONHASHSEED: "0" };

// A Pyodide snapshot starts with this number (its header, 314).
const SNAPSHOT_MAGIC = 1886286592;
const SNAPSHOT_HEADER = 48;

export class BootError extends Error {
  // reason: "fetch", "unpack", "size", "header", "build", "restore" or "check": which step
  // refused.
  constructor(reason, detail) {
    super(reason + ": " + detail);
    this.name = "BootError";
    this.reason = reason;
  }
}

// Start loading Pyodide's JavaScript (pyodide.asm.mjs, the largest script to parse) at once,
// before the rest of the boot needs it: a promise of its module factory, for startPython's
// `createPyodideModule`.
export function loadPyodideCode() {
  return import(PYODIDE_URL + "pyodide.asm.mjs").then(function (module) {
    return module.default;
  });
}

// core/snapshot.json: {bytes, page, id} of the build's snapshot (a refused fetch is a
// BootError "fetch").
export function fetchSnapshotInfo() {
  return fetch(SNAPSHOT_INFO_URL).then(
    function (response) {
      if (!response.ok) throw new BootError("fetch", "snapshot.json: HTTP " + response.status);
      return response.json();
    },
    function (error) {
      throw new BootError("fetch", String(error));
    },
  );
}

export function fetchCore() {
  return fetch(CORE_URL).then(function (response) {
    if (!response.ok) throw new Error("core.json: HTTP " + response.status);
    return response.json();
  });
}

// A memory snapshot on its way: {bytes, filled}. `bytes` is a buffer of the size core.json
// gives, `filled` a promise that resolves once the file (the response of requestSnapshot when
// given), stored by pages of `pageSize` bytes, is unpacked into it and checked. Refusals are BootErrors: "fetch" (no file, no
// DecompressionStream), "unpack" (a stream that breaks off or is not gzip), "size" (more or
// fewer bytes than expected) or "header" (not a Pyodide snapshot).
export function fetchSnapshot(expected, pageSize, requested) {
  const bytes = new Uint8Array(expected);
  const filled =
    typeof DecompressionStream !== "function"
      ? Promise.reject(new BootError("fetch", "no DecompressionStream"))
      : (requested || requestSnapshot())
          .then(function (response) {
            if (!response.ok || !response.body) {
              throw new BootError("fetch", "HTTP " + response.status);
            }
            const stream = response.body.pipeThrough(new DecompressionStream("gzip"));
            return unpack(stream, bytes, pageSize);
          })
          .then(function () {
            checkHeader(bytes);
          });
  filled.catch(function () {});
  return { bytes: bytes, filled: filled };
}

// Start downloading the snapshot (before its expected size is known: fetchSnapshot's last
// argument).
export function requestSnapshot() {
  return fetch(SNAPSHOT_URL).catch(function (error) {
    throw new BootError("fetch", String(error));
  });
}

// Unpack the stream of core/snapshot.gz into `bytes` (zeros): the page map first, then each
// page it names, written at its place (build.py's pack_snapshot says how the file is made).
function unpack(stream, bytes, pageSize) {
  const size = bytes.length;
  const pages = Math.ceil(size / pageSize);
  const map = new Uint8Array(Math.ceil(pages / 8));
  let mapFilled = 0;
  let spans = null; // [start, end) of each run of kept pages, in order
  let span = 0;
  let offset = 0; // bytes written into spans[span]
  const reader = stream.getReader();
  function write(chunk) {
    let at = 0;
    if (mapFilled < map.length) {
      at = Math.min(map.length - mapFilled, chunk.length);
      map.set(chunk.subarray(0, at), mapFilled);
      mapFilled += at;
      if (mapFilled === map.length) spans = spansOf(map, pages, pageSize, size);
    }
    while (at < chunk.length) {
      if (span >= spans.length) throw new BootError("size", "more bytes than its pages");
      const start = spans[span][0];
      const length = spans[span][1] - start;
      const count = Math.min(length - offset, chunk.length - at);
      bytes.set(chunk.subarray(at, at + count), start + offset);
      at += count;
      offset += count;
      if (offset === length) {
        span += 1;
        offset = 0;
      }
    }
  }
  function next() {
    return reader.read().then(
      function (chunk) {
        if (chunk.done) {
          if (!spans || span !== spans.length) {
            throw new BootError("size", "fewer bytes than its pages");
          }
          return bytes;
        }
        try {
          write(chunk.value);
        } catch (error) {
          reader.cancel();
          throw error;
        }
        return next();
      },
      function (error) {
        throw error instanceof BootError ? error : new BootError("unpack", String(error));
      },
    );
  }
  return next();
}

function spansOf(map, pages, pageSize, size) {
  const spans = [];
  for (let i = 0; i < pages; i++) {
    if (!((map[i >> 3] >> (i & 7)) & 1)) continue;
    const start = i * pageSize;
    const end = Math.min(start + pageSize, size);
    const last = spans[spans.length - 1];
    if (last && last[1] === start) last[1] = end;
    else spans.push([start, end]);
  }
  return spans;
}

function checkHeader(bytes) {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, SNAPSHOT_HEADER / 4);
  const heapStart = words[1];
  const jsonLength = words[2];
  if (
    words[0] !== SNAPSHOT_MAGIC ||
    heapStart % 16 !== 0 ||
    heapStart < SNAPSHOT_HEADER + jsonLength ||
    heapStart >= bytes.length
  ) {
    throw new BootError("header", "not a Pyodide memory snapshot");
  }
}

// Start Python with the core. options:
//   core      core.json's contents, or a promise of them (required): Pyodide starts loading
//             before they arrive
//   snapshot  a memory snapshot to restore, from fetchSnapshot: Pyodide loads its code,
//             instantiates its WebAssembly and writes its files while the snapshot arrives, and
//             restores it once it is there
//   make      a function (pyodide) => Promise, run after the core is imported (it warms the
//             core); the answer then holds `snapshot`, the bytes of a memory snapshot taken
//             after it (the build's use, in Node)
//   wasm      a promise of the compiled pyodide.asm.wasm (a WebAssembly.Module), or of null to
//             let Pyodide fetch and compile the file itself
//   createPyodideModule  a promise of Pyodide's module factory, from loadPyodideCode
//   any other option of loadPyodide (indexURL, stdout, stderr, ...)
// Resolves to {pyodide, snapshot}. A snapshot refused on its way keeps its BootError; one
// Pyodide refuses is a BootError too: "build" for another Pyodide build's, "restore" for any
// other failure.
export function startPython(options) {
  const core = Promise.resolve(options.core);
  const coming = options.snapshot || null;
  const settings = Object.assign(
    {
      indexURL: PYODIDE_URL,
      lockFileContents: core.then(function (files) {
        return JSON.stringify(files.lock);
      }),
      env: Object.assign({}, PYTHON_ENV),
      fsInit: function (FS, info) {
        return core.then(function (files) {
          writeCore(FS, info.sitePackages, files.files);
          // Python's start waits here, its files written, until the snapshot is unpacked. One
          // refused on its way loses its first word: Pyodide refuses it before the restore.
          if (!coming) return null;
          return coming.filled.catch(function () {
            coming.bytes.fill(0, 0, 4);
          });
        });
      },
    },
    options,
  );
  ["core", "snapshot", "make", "wasm"].forEach(function (key) {
    delete settings[key];
  });
  if (coming) settings._loadSnapshot = coming.bytes;
  if (options.make) settings._makeSnapshot = true;
  const release = options.wasm ? useCompiledModule(options.wasm, settings.indexURL) : null;
  const started = loadPyodide(settings).finally(function () {
    if (release) release();
  });
  if (coming) {
    return started.then(
      function (pyodide) {
        return { pyodide: pyodide, snapshot: null };
      },
      function (error) {
        return coming.filled.then(function () {
          const detail = String((error && error.message) || error);
          throw new BootError(/build id/i.test(detail) ? "build" : "restore", detail);
        });
      },
    );
  }
  return started.then(function (pyodide) {
    if (!options.make) return { pyodide: pyodide, snapshot: null };
    return Promise.resolve(options.make(pyodide)).then(function () {
      zeroFreeMemory(pyodide._module);
      return { pyodide: pyodide, snapshot: pyodide.makeMemorySnapshot() };
    });
  });
}

// Before a snapshot is taken: zeros in the heap's free memory, which holds what was freed (the
// warming's games) and would otherwise ship, to be unpacked at every start. The allocator's
// free chunks are taken in blocks from large to small while the heap has room (it must not
// grow: the snapshot is the whole heap), zeroed and given back; above the break, zeroed too.
function zeroFreeMemory(module) {
  const held = [];
  const room = function (size) {
    return module._sbrk(0) + size + 65536 <= module.HEAP8.length;
  };
  [1 << 20, 1 << 16, 1 << 12, 256, 32].forEach(function (size) {
    while (room(size)) {
      const block = module._malloc(size);
      if (!block) break;
      module.HEAP8.fill(0, block, block + size);
      held.push(block);
    }
  });
  held.forEach(function (block) {
    module._free(block);
  });
  module.HEAP8.fill(0, module._sbrk(0), module.HEAP8.length);
}

// Write the core's files (path under site-packages -> text) before Python starts.
export function writeCore(FS, sitePackages, files) {
  Object.keys(files).forEach(function (name) {
    const path = sitePackages + "/" + name;
    FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    FS.writeFile(path, files[name]);
  });
}

// While Pyodide starts, have it use a WebAssembly.Module compiled elsewhere (the page compiles
// pyodide.asm.wasm, where the browser's compiled-code cache makes a later visit fast, and hands
// the module over) instead of fetching and compiling the file again. Pyodide starts fetching
// the file as soon as it is called: that fetch waits for the module and is made only if there
// is none. Returns the function that puts fetch and instantiateStreaming back.
function useCompiledModule(modulePromise, indexURL) {
  const wasmUrl = new URL(WASM_NAME, indexURL).href;
  const originalFetch = self.fetch;
  const originalInstantiate = WebAssembly.instantiateStreaming;
  self.fetch = function (input, init) {
    // Pyodide passes a URL object; a Request has its url.
    const url = input instanceof Request ? input.url : String(input);
    if (url && new URL(url, self.location.href).href === wasmUrl) {
      return modulePromise.then(function (module) {
        return module ? new Response(null, { status: 204 }) : originalFetch.call(self, input, init);
      });
    }
    return originalFetch.call(self, input, init);
  };
  WebAssembly.instantiateStreaming = function (source, imports) {
    return modulePromise.then(function (module) {
      if (!module) return originalInstantiate.call(WebAssembly, source, imports);
      return WebAssembly.instantiate(module, imports).then(function (instance) {
        return { instance: instance, module: module };
      });
    });
  };
  return function () {
    self.fetch = originalFetch;
    WebAssembly.instantiateStreaming = originalInstantiate;
  };
}
