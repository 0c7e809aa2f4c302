// Service worker of the static site (`wifodds site`), registered only by
// the page with the in-browser engine: it keeps the site's files so the
// page opens and computes offline after the first load. Network first,
// the copy only when the network fails, so an online page is never
// stale. The server's page (`wifodds serve`) does not register it.
const CACHE = 'wifodds-site';
const FILES = ['./', 'index.html', 'app.js', 'style.css', 'worker.js', 'wasm_exec.js', 'wifodds.wasm'];

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (e) => {
  if (e.request.method !== 'GET' || new URL(e.request.url).origin !== location.origin) return;
  e.respondWith(fetch(e.request).then((res) => {
    if (res.ok) {
      const copy = res.clone();
      e.waitUntil(caches.open(CACHE).then((c) => c.put(e.request, copy)));
    }
    return res;
  }).catch(async () => (await caches.match(e.request)) ?? Response.error()));
});
