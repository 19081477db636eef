// The service worker (served as /sw.js, its scope the whole site): it keeps the page and its files for offline use,
// so that a table, the lobby or a replay opens without a network and says plainly that it is offline. The server
// fills in the two lines below when it starts (server/assets.py): the version of the set of files (a new version
// installs a new worker, which drops the old files) and the files (the page at "/", the static files under their
// content-hashed names, the rule book's style sheet with them). Never cached: the API, the websocket, the desk.
const VERSION = "dev";
const FILES = [];
const CACHE = "burraco-" + VERSION;

self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});
self.addEventListener("activate", (e) => {
  e.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("burraco-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// the network first (then kept for later), the copy kept when the network fails
async function networkFirst(request, fallback) {
  const cache = await caches.open(CACHE);
  try {
    const r = await fetch(request);
    if (r.ok) cache.put(fallback || request, r.clone());
    return r;
  } catch (err) {
    const kept = await cache.match(fallback || request);
    if (kept) return kept;
    throw err;
  }
}
self.addEventListener("fetch", (e) => {
  const req = e.request, url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== location.origin) return;
  if (req.mode === "navigate") {
    // every page (lobby, table, replay) is the same document: "/" kept stands for all of them; the rule book (where
    // "Why?" leads) is kept under its own address once read; any other page (the desk, a download) is not kept
    if (url.pathname === "/" || url.pathname.startsWith("/t/")) e.respondWith(networkFirst(req, "/"));
    else if (url.pathname.startsWith("/rules/")) e.respondWith(networkFirst(req));
    return;
  }
  if (url.pathname.startsWith("/static/")) {
    // a hashed name never changes: the copy kept, else the network
    e.respondWith(caches.open(CACHE).then((c) => c.match(req)).then((kept) => kept || fetch(req)));
  } else if (url.pathname.startsWith("/messages/")) {
    e.respondWith(networkFirst(req));
  }
});
