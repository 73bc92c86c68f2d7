// The course's service worker: the whole site kept for offline use, and cross-origin isolation on
// any host. Bundled by empaquetar.mjs into _static/bucle/sw.js (a classic script); the build
// (widgets/construccion/sin_conexion.py, through manifiesto.mjs and Workbox's injectManifest) writes it at the
// site's root with the list of files the site publishes in place of `self.__WB_MANIFEST`:
// [{url, revision, integrity, bytes}], each URL relative to this script, each revision the
// file's hash, each integrity its SRI (a file that does not match it is never kept).
//
// - Install: Workbox's PrecacheController fetches every file not already cached with the same
//   revision, one after the other; the page (sin-conexion.js) hears the progress as messages
//   {tipo: "bucle:guardando", hechos, total, bytes, bytesTotal} and may cancel it
//   ({type: "CANCELAR"}): the next download throws, so the install fails and nothing is kept.
//   Then, where the browser has static routes, the files are copied for them (rutas.js): the
//   browser answers them itself, without starting this worker. Where it has none, or the copy
//   fails, this worker answers them as below.
// - Fetch: precached files come from the cache (a lesson's `?v=` ignored, `/` is index.html);
//   other requests of the site go to the network. Every page and worker script of the site gets
//   COOP/COEP, so that a page this worker serves is cross-origin isolated even where the host
//   sends no such headers (the other files are the site's own: they need no CORP). A page that
//   is not precached and cannot be fetched gets a short page in Spanish saying it needs a
//   connection. JupyterLite (lite/) is left to itself: it has its own service
//   worker and is not precached.
// - Update: a new build is a new script (the manifest changed); it installs next to the running
//   one and waits until the page asks it to take over ({type: "SKIP_WAITING"}).
// - The course's model: `POST <raíz>/modelo/v1/messages` (Python's urllib in the page's worker,
//   a synchronous XHR) is answered here with the JSON and status of a page that serves the model
//   (modelo/servidor.js): such a page announces itself ({tipo: "bucle:modelo:sirvo"}, and
//   "bucle:modelo:ya-no" when it stops); the request's parsed body goes to it as
//   {tipo: "bucle:modelo:peticion", peticion} with a MessageChannel port, on which it answers
//   {estado, cuerpo}. Of several, the focused one, then the one that announced itself last (a
//   dedicated worker's Client names no page of its own in Chromium). No page → 503 with a
//   protocol error saying how to load the model. A worker stopped and started again by the
//   browser has forgotten who serves: it asks the pages ({tipo: "bucle:modelo:quien"}) first.
import { clientsClaim } from "workbox-core";
import { PrecacheController, PrecacheRoute, cleanupOutdatedCaches } from "workbox-precaching";
import { Route, registerRoute } from "workbox-routing";
import { NetworkOnly } from "workbox-strategies";
import { PUENTE } from "../lib/textos.js";
import { PREFIJO as PREFIJO_RUTAS, SIN_EN_LA_COPIA, claves, huella, reglas } from "./rutas.js";

const ENTRADAS = self.__WB_MANIFEST;
const RAIZ = new URL("./", self.location.href).href;
const LITE = new URL("lite/", RAIZ).href;

const AISLAMIENTO = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
  "Cross-Origin-Resource-Policy": "same-origin",
};

/**
 * `respuesta` with the isolation headers, and without those named in `quitar` (an opaque
 * response cannot be changed, nor needs it).
 */
function aislada(respuesta, quitar = []) {
  if (!respuesta || respuesta.type === "opaque" || respuesta.type === "opaqueredirect") return respuesta;
  const cabeceras = new Headers(respuesta.headers);
  for (const nombre of quitar) cabeceras.delete(nombre);
  for (const [nombre, valor] of Object.entries(AISLAMIENTO)) cabeceras.set(nombre, valor);
  return new Response(respuesta.body, {
    status: respuesta.status,
    statusText: respuesta.statusText,
    headers: cabeceras,
  });
}

/**
 * Whether the isolation headers of a response to `peticion` take effect: those of a document or
 * of a worker's script only. Any other response goes out as the cache gave it, which Chromium
 * needs to keep V8's compiled code for a wasm (lib/descarga.js): a copy has lost its cache.
 */
const haceContexto = (peticion) =>
  peticion.mode === "navigate" || peticion.destination === "worker" || peticion.destination === "sharedworker";

const conAislamiento = {
  handlerWillRespond: async ({ event, request, response }) =>
    event?.type !== "install" && haceContexto(request) ? aislada(response) : response,
};

function paginaSinConexion(url) {
  const enLite = url.startsWith(LITE);
  const titulo = "Sin conexión";
  const explicacion = enLite
    ? "JupyterLite necesita conexión: sus cuadernos no se guardan para usarlos sin ella. Las " +
      "lecciones, sus celdas y sus desafíos sí funcionan sin conexión."
    : "Esta página no está guardada en este navegador y ahora no hay conexión para traerla.";
  const html = `<!doctype html><html lang="es"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${titulo}</title></head>` +
    `<body><main><h1>${titulo}</h1><p>${explicacion}</p>` +
    `<p><a href="${new URL("index.html", RAIZ).href}">Volver al curso</a></p></main></body></html>`;
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

const sinConexion = {
  handlerDidError: async ({ request }) => (request.mode === "navigate" ? paginaSinConexion(request.url) : undefined),
};

// Install: progress to the pages, and a way to stop.
const bytesDe = new Map(ENTRADAS.map(({ url, bytes }) => [new URL(url, RAIZ).href, bytes ?? 0]));
const bytesTotal = [...bytesDe.values()].reduce((a, b) => a + b, 0);
let hechos = 0;
let bytes = 0;
let cancelado = false;
let ultimoAviso = 0;

async function avisar(mensaje) {
  for (const cliente of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
    cliente.postMessage(mensaje);
  }
}

function avisarProgreso(final = false) {
  const ahora = Date.now();
  if (!final && ahora - ultimoAviso < 200) return;
  ultimoAviso = ahora;
  avisar({ tipo: "bucle:guardando", hechos, total: bytesDe.size, bytes, bytesTotal });
}

const progreso = {
  requestWillFetch: async ({ request, event }) => {
    if (cancelado && event?.type === "install") throw new Error("guardado cancelado por el lector");
    return request;
  },
  handlerDidComplete: async ({ request, event, error }) => {
    if (event?.type !== "install" || error) return;
    hechos += 1;
    bytes += bytesDe.get(request.url) ?? 0;
    avisarProgreso();
  },
};

const precache = new PrecacheController({ plugins: [progreso, conAislamiento] });
precache.addToCacheList(ENTRADAS.map(({ url, revision, integrity }) => ({ url, revision, integrity })));

// Static routes (rutas.js): this list's files, copied from the precache into a cache of this
// version's (a big wasm into one of its own revision, kept across versions); the rules are added
// once every copy is there, so that a route never names a file a cache lacks (the browser would
// then go to the network, which may be gone).
const RUTAS = huella(ENTRADAS);
const LISTA_DE_RUTAS = claves(ENTRADAS, RAIZ, RUTAS);

async function prepararRutas(evento) {
  if (typeof evento.addRoutes !== "function") return;
  try {
    for (const { url, clave, cache: nombre } of LISTA_DE_RUTAS) {
      const cache = await caches.open(nombre);
      // A copy in a cache of its own revision, kept by an earlier version, stays as it is.
      if (nombre !== RUTAS && (await cache.match(clave))) continue;
      const respuesta = await precache.matchPrecache(url);
      if (!respuesta) throw new Error(`${url} is not in the precache`);
      await cache.put(clave, aislada(respuesta, SIN_EN_LA_COPIA));
    }
    await evento.addRoutes(reglas(LISTA_DE_RUTAS));
  } catch (error) {
    console.warn("bucle: no static routes, the worker answers instead:", error);
    await caches.delete(RUTAS).catch(() => {});
  }
}

self.addEventListener("install", (evento) => {
  const instalado = precache.install(evento).then(() => prepararRutas(evento)).then(
    () => {
      avisarProgreso(true);
      return avisar({ tipo: "bucle:guardado", total: bytesDe.size, bytesTotal });
    },
    (error) => {
      avisar({ tipo: "bucle:no-guardado", cancelado, motivo: String(error?.message ?? error) });
      throw error;
    },
  );
  evento.waitUntil(instalado);
});
self.addEventListener("activate", (evento) => {
  precache.activate(evento);
  // The routes of an older version: this one's replace them now.
  const vigentes = new Set(LISTA_DE_RUTAS.map(({ cache }) => cache));
  evento.waitUntil(caches.keys().then((nombres) => Promise.all(
    nombres.filter((n) => n.startsWith(PREFIJO_RUTAS) && !vigentes.has(n)).map((n) => caches.delete(n)),
  )));
});
cleanupOutdatedCaches();
clientsClaim();

// The course's model: which pages serve it (window client id → when it said so).
const MODELO_URL = new URL("modelo/v1/messages", RAIZ).href;
const sirven = new Map();
let anunciados = []; // resolvers waiting for the next announcement

function errorDelModelo(estado, tipo, mensaje) {
  return respuestaDelModelo(estado, { type: "error", error: { type: tipo, message: mensaje } });
}

function respuestaDelModelo(estado, cuerpo) {
  const valido = Number.isInteger(estado) && estado >= 200 && estado <= 599;
  return new Response(JSON.stringify(cuerpo), {
    status: valido ? estado : 500,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}

async function queSirven() {
  const ventanas = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  return { ventanas, sirviendo: ventanas.filter((v) => sirven.has(v.id)) };
}

/** The page that will answer: focused first, then the latest to announce itself; or null. */
async function paginaDelModelo() {
  let { ventanas, sirviendo } = await queSirven();
  if (!sirviendo.length && ventanas.length) {
    const anuncio = new Promise((resolve) => {
      anunciados.push(resolve);
      setTimeout(resolve, 400);
    });
    for (const ventana of ventanas) ventana.postMessage({ tipo: "bucle:modelo:quien" });
    await anuncio;
    ({ sirviendo } = await queSirven());
  }
  sirviendo.sort((a, b) => Number(b.focused) - Number(a.focused) || sirven.get(b.id) - sirven.get(a.id));
  return sirviendo[0] ?? null;
}

async function atenderAlModelo({ request }) {
  let peticion;
  try {
    peticion = await request.json();
  } catch {
    return errorDelModelo(400, "invalid_request_error", PUENTE.noJSON);
  }
  const pagina = await paginaDelModelo();
  if (!pagina) return errorDelModelo(503, "api_error", PUENTE.sinModelo);
  const canal = new MessageChannel();
  let vigia = null;
  const { estado, cuerpo } = await new Promise((resolve) => {
    canal.port1.onmessage = ({ data }) => resolve(data ?? {});
    // A page closed while it generates never answers: look for it now and then.
    vigia = setInterval(async () => {
      if (await self.clients.get(pagina.id)) return;
      sirven.delete(pagina.id);
      resolve({ estado: 503, cuerpo: { type: "error", error: { type: "api_error", message: PUENTE.cerrada } } });
    }, 1000);
    pagina.postMessage({ tipo: "bucle:modelo:peticion", peticion }, [canal.port2]);
  });
  clearInterval(vigia);
  canal.port1.close();
  return respuestaDelModelo(estado, cuerpo);
}

self.addEventListener("message", (evento) => {
  if (evento.data?.type === "SKIP_WAITING") self.skipWaiting();
  if (evento.data?.type === "CANCELAR") cancelado = true;
  const cliente = evento.source;
  if (evento.data?.tipo === "bucle:modelo:sirvo" && cliente?.id) {
    sirven.set(cliente.id, Date.now());
    const esperando = anunciados;
    anunciados = [];
    esperando.forEach((resolve) => resolve());
  }
  if (evento.data?.tipo === "bucle:modelo:ya-no" && cliente?.id) sirven.delete(cliente.id);
});

// The model's endpoint first: POST is answered by a page; any other method is told it is not.
const delModelo = ({ url }) => url.origin + url.pathname === MODELO_URL;
registerRoute(new Route(delModelo, atenderAlModelo, "POST"));
registerRoute(new Route(delModelo, async ({ request }) =>
  errorDelModelo(405, "invalid_request_error", PUENTE.metodo(request.method)), "GET"));

// Fetch: the precache first, then the network; JupyterLite's own requests are not touched.
registerRoute(new PrecacheRoute(precache, {
  ignoreURLParametersMatching: [/^v$/, /^utm_/],
  directoryIndex: "index.html",
  cleanURLs: true,
}));
const delSitio = ({ url }) => url.href.startsWith(RAIZ);
registerRoute(new Route(
  ({ url, request }) => url.href.startsWith(LITE) && request.mode === "navigate",
  new NetworkOnly({ plugins: [sinConexion] }),
));
registerRoute(new Route(
  (opciones) => delSitio(opciones) && !opciones.url.href.startsWith(LITE),
  new NetworkOnly({ plugins: [conAislamiento, sinConexion] }),
));
