// What the live preview serves as sw.js: a service worker that removes itself. A browser that
// once installed the course's offline worker on this address would otherwise keep answering
// from its cache and never show an edit; this one replaces it, unregisters, and reloads the
// pages it controlled.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (evento) => {
  evento.waitUntil((async () => {
    await self.registration.unregister();
    for (const pagina of await self.clients.matchAll({ type: "window" })) pagina.navigate(pagina.url);
  })());
});
