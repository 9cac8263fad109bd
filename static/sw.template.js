// Service worker written by build.py: keeps every file of the build for offline use, serves
// them cache-first, and downloads on an update only the files that changed.
//
// PRECACHE lists each file as {url, rev, sha256}: `rev` is the sha256 prefix of its bytes
// (Pyodide's files: "pyodide-<version>", so they are refetched only when Pyodide changes), and
// `sha256` the prefix every download is checked against. One cache, CACHE, holds every build's
// files, each under its URL with its revision in the query: "./static/app.js?__rev=<rev>".
//   install:  a file whose url + rev is in the cache already (kept by an earlier build) is
//             reused as it is; only the others are fetched, revalidated with the server rather
//             than downloaded again (the page registers this worker once the rules are ready,
//             so on a first visit the browser's HTTP cache holds what the page fetched: the
//             server answers "not modified" and nothing is downloaded twice), checked against
//             their hash (a stale copy from a CDN fails the install, which the browser
//             tries again later) and stored. A failed install leaves the files it stored, so
//             the next attempt fetches only the rest. No skipWaiting here: the new worker waits
//             until the page asks it to take over ({type: "skip-waiting"}), when the player
//             presses Update (static/update.js).
//   activate: entries of other revisions and the caches of older versions are deleted; the
//             worker then controls the open pages.
//   fetch:    a GET for a listed URL (its query ignored) is answered from the cache, else from
//             the network; a navigation the cache does not hold falls back to "./" offline.
const BUILD = "__BUILD_HASH__";
const CACHE = "muster-precache";
const PRECACHE = __PRECACHE__;

// Absolute URL (no query) -> the cache key of its current revision.
const KEYS = {};
PRECACHE.forEach(function (entry) {
  KEYS[new URL(entry.url, self.location).href] = keyOf(entry);
});

function keyOf(entry) {
  return new URL(entry.url, self.location).href + "?__rev=" + encodeURIComponent(entry.rev);
}

function hex(buffer) {
  return Array.prototype.map
    .call(new Uint8Array(buffer), function (byte) {
      return byte.toString(16).padStart(2, "0");
    })
    .join("");
}

// Fetch a file from the network, check its bytes and keep it under the key of each entry of
// `same` (the entries with these bytes: "./" and "./index.html" are one file).
function download(cache, same) {
  const entry = same[0];
  return fetch(new Request(entry.url, { cache: "no-cache" })).then(function (response) {
    if (!response.ok) {
      throw new Error("precache " + entry.url + ": HTTP " + response.status);
    }
    return response.arrayBuffer().then(function (bytes) {
      return crypto.subtle.digest("SHA-256", bytes).then(function (digest) {
        if (hex(digest).slice(0, entry.sha256.length) !== entry.sha256) {
          throw new Error("precache " + entry.url + ": not build " + BUILD + "'s file");
        }
        // The bytes alone, with the headers: a redirected response cannot answer a navigation.
        return Promise.all(
          same.map(function (each) {
            const kept = new Response(bytes, {
              status: response.status,
              headers: response.headers,
            });
            return cache.put(keyOf(each), kept);
          }),
        );
      });
    });
  });
}

self.addEventListener("install", function (event) {
  // The entries by content: one download for each file the cache does not hold yet.
  const groups = {};
  PRECACHE.forEach(function (entry) {
    (groups[entry.sha256] = groups[entry.sha256] || []).push(entry);
  });
  event.waitUntil(
    caches.open(CACHE).then(function (cache) {
      return Promise.all(
        Object.keys(groups).map(function (sha) {
          return Promise.all(
            groups[sha].map(function (entry) {
              return cache.match(keyOf(entry));
            }),
          ).then(function (hits) {
            const missing = groups[sha].filter(function (entry, i) {
              return !hits[i];
            });
            return missing.length ? download(cache, missing) : null;
          });
        }),
      );
    }),
  );
});

self.addEventListener("message", function (event) {
  if (event.data && event.data.type === "skip-waiting") self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  const wanted = {};
  Object.keys(KEYS).forEach(function (url) {
    wanted[KEYS[url]] = true;
  });
  event.waitUntil(
    caches
      .keys()
      .then(function (names) {
        return Promise.all(
          names
            .filter(function (name) {
              return name.indexOf("muster-") === 0 && name !== CACHE;
            })
            .map(function (name) {
              return caches.delete(name);
            }),
        );
      })
      .then(function () {
        return caches.open(CACHE);
      })
      .then(function (cache) {
        return cache.keys().then(function (requests) {
          return Promise.all(
            requests
              .filter(function (request) {
                return !wanted[request.url];
              })
              .map(function (request) {
                return cache.delete(request);
              }),
          );
        });
      })
      .then(function () {
        return self.clients.claim();
      }),
  );
});

self.addEventListener("fetch", function (event) {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  url.search = "";
  url.hash = "";
  const key = KEYS[url.href];
  const navigate = request.mode === "navigate";
  if (!key && !navigate) return; // not ours to keep: the network as usual
  event.respondWith(
    caches.open(CACHE).then(function (cache) {
      return (key ? cache.match(key) : Promise.resolve(null)).then(function (hit) {
        if (hit) return hit;
        if (!navigate) return fetch(request);
        return fetch(request).catch(function () {
          return cache.match(KEYS[new URL("./", self.location).href]).then(function (home) {
            if (home) return home;
            throw new TypeError("offline, and " + url.pathname + " is not kept");
          });
        });
      });
    }),
  );
});
