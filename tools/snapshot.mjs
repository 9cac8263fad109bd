// Make the memory snapshot the rules worker boots from, in Node, with the site's own boot code:
//   node tools/snapshot.mjs <dist> <out>
// Starts Pyodide from <dist>/pyodide with the core of <dist>/core/core.json (no snapshot),
// imports muster.api, warms the core (muster.warm), notes which core the heap holds, and writes
// the raw snapshot to <out>. build.py compresses it and ships it as core/snapshot.gz.
import { createRequire, syncBuiltinESMExports } from "node:module";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dist, out] = process.argv.slice(2).map(function (path) {
  return resolve(path);
});
if (!dist || !out) {
  console.error("usage: node tools/snapshot.mjs <dist> <out>");
  process.exit(2);
}
// Emscripten takes the program's name from Node's command line (Python's sys.executable and
// argv[0]): the browser's name instead, so the snapshot holds no path of the machine that made
// it and is the same wherever the build runs.
process.argv.length = 1;
// The same inputs make the same snapshot, byte for byte (an update then downloads it only when
// the core or Pyodide changed): the clock stands still and the random bytes Python's start
// draws (its random module's seed, the file times it caches) come from a fixed sequence.
const FIXED_TIME = Date.UTC(2020, 0, 1);
Date.now = function () {
  return FIXED_TIME;
};
const nodeCrypto = createRequire(import.meta.url)("node:crypto");
let counter = 0;
nodeCrypto.randomFillSync = function (view) {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  for (let i = 0; i < bytes.length; i++) {
    counter = (counter * 1103515245 + 12345) >>> 0;
    bytes[i] = counter >>> 24;
  }
  return view;
};
syncBuiltinESMExports();
globalThis.crypto.getRandomValues = nodeCrypto.randomFillSync;
performance.now = function () {
  return 0;
};
const { startPython } = await import(pathToFileURL(join(dist, "static", "pyboot.js")).href);
const core = JSON.parse(readFileSync(join(dist, "core", "core.json"), "utf8"));
const started = process.hrtime.bigint();
const { snapshot } = await startPython({
  core: core,
  indexURL: join(dist, "pyodide") + "/",
  stdout: function () {},
  stderr: function (line) {
    console.error(line);
  },
  make: function (pyodide) {
    pyodide.runPython(
      "import muster.api, muster.warm\n" +
        "muster.warm.warm()\n" +
        // The worker checks after a restore that the heap holds the core it was given.
        "MUSTER_CORE = " +
        JSON.stringify(core.fingerprint) +
        "\n" +
        "del muster\n",
    );
  },
});
writeFileSync(out, snapshot);
console.log(
  "snapshot: " +
    snapshot.length +
    " bytes in " +
    (process.hrtime.bigint() - started) / 1000000n +
    " ms",
);
