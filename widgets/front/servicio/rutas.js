// The service worker's static routes (the Service Worker Static Routing API, Chromium 123 on):
// once the course is installed, the browser itself answers the site's files from caches of the
// worker's (`bucle-rutas-<huella>`, and one per big wasm: see TOPE), without starting the
// worker. A stopped worker (the browser stops it after some 30 s idle, so on most visits) took
// 100–200 ms to start and stream a page before its first byte came; a static route answers in a
// few (BENCHMARKS.md).
//
// What the routes hold is the precache's own copy of each file, with the isolation headers the
// worker would add (so a page they answer is cross-origin isolated on any host), under the URL
// the pages really ask for: the file's, the folder's for its index.html, and each query Sphinx
// links it with (`variantes`: «?v=<checksum>», listed by manifiesto.mjs). The condition names
// exactly those URLs: anything else (JupyterLite, the course's model, a page that is not kept, an
// unknown query) reaches the worker's fetch handler as before. No DOM, no worker globals:
// tested in Node (tests/front/).

export const PREFIJO = "bucle-rutas-";

/** Files larger than this are not copied (Pyodide's standard library, which the page's worker
 *  keeps in a cache of its own; the precache answers for it), but for WebAssembly: the page's
 *  worker fetches Pyodide's interpreter through this route, so that V8 keeps the code it
 *  compiles for it from one visit to the next (lib/descarga.js). That code is kept beside the
 *  copy's cache entry, so such a copy lives in a cache named by its own revision
 *  (`bucle-rutas-archivo-<revision>`), which a new build that leaves the file unchanged keeps. */
export const TOPE = 2 * 1024 * 1024;

/** Headers a copy leaves out: its body is the decoded one, and its key has no request headers. */
export const SIN_EN_LA_COPIA = ["content-encoding", "content-length", "vary"];

/** A name for this list of files (FNV-1a of each URL and revision): a new build, a new cache. */
export function huella(entradas) {
  let h = 0x811c9dc5;
  for (const { url, revision } of entradas) {
    for (const c of `${url} ${revision ?? ""}\n`) {
      h ^= c.codePointAt(0);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
  }
  return PREFIJO + h.toString(16).padStart(8, "0");
}

/** `texto` as a literal in a URLPattern (its syntax characters escaped). */
export function literal(texto) {
  return texto.replace(/[\\+*?():{}[\]]/g, "\\$&");
}

/**
 * What the routes answer: [{url, clave, cache}], `url` the file as the list names it (relative
 * to `raiz`, the worker's folder), `clave` an absolute URL a page requests it with, `cache` the
 * cache its copy is in: `nombre` (this list's: huella), or its own for a big wasm (see TOPE).
 */
export function claves(entradas, raiz, nombre) {
  const lista = [];
  for (const { url, revision, bytes, variantes } of entradas) {
    const grande = (bytes ?? 0) > TOPE;
    if (grande && !url.endsWith(".wasm")) continue;
    const cache = grande ? `${PREFIJO}archivo-${revision}` : nombre;
    const absoluta = new URL(url, raiz).href;
    lista.push({ url, clave: absoluta, cache });
    for (const consulta of variantes ?? []) lista.push({ url, clave: absoluta + consulta, cache });
    if (url === "index.html") lista.push({ url, clave: new URL("./", raiz).href, cache });
  }
  return lista;
}

/** The rules for addRoutes, one per cache: exactly the URLs of `claves` it holds. */
export function reglas(lista) {
  const porCache = new Map();
  for (const { clave, cache } of lista) {
    const { pathname, search } = new URL(clave);
    const condicion = { urlPattern: { pathname: literal(pathname), search: literal(search.slice(1)) } };
    if (!porCache.has(cache)) porCache.set(cache, []);
    porCache.get(cache).push(condicion);
  }
  return [...porCache].map(([cache, condiciones]) => ({
    condition: { or: condiciones },
    source: { cacheName: cache },
  }));
}
