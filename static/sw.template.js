// Service worker written by build.py: precaches every file of the build under a cache
// named for the build hash, serves them cache-first, and deletes older builds' caches.
const CACHE = "muster-__BUILD_HASH__";
const PRECACHE = __PRECACHE__;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches
      .open(CACHE)
      .then(function (cache) {
        return Promise.all(
          PRECACHE.map(function (url) {
            return fetch(new Request(url, { cache: "reload" })).then(function (response) {
              if (!response.ok) {
                throw new Error("precache " + url + ": HTTP " + response.status);
              }
              return cache.put(url, response);
            });
          }),
        );
      })
      .then(function () {
        return self.skipWaiting();
      }),
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches
      .keys()
      .then(function (keys) {
        return Promise.all(
          keys
            .filter(function (key) {
              return key.indexOf("muster-") === 0 && key !== CACHE;
            })
            .map(function (key) {
              return caches.delete(key);
            }),
        );
      })
      .then(function () {
        return self.clients.claim();
      }),
  );
});

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) {
    return;
  }
  event.respondWith(
    caches.open(CACHE).then(function (cache) {
      return cache.match(request, { ignoreSearch: true }).then(function (hit) {
        if (hit) return hit;
        if (request.mode === "navigate") {
          return fetch(request).catch(function () {
            return cache.match("./");
          });
        }
        return fetch(request);
      });
    }),
  );
});
