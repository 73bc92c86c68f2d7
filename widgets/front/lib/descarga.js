// Pyodide's two big files (the interpreter and the standard library, ≈ 12 MB), fetched by the
// worker itself so that the page can show the real progress of the first download, and kept in
// the Cache API under a name that carries Pyodide's version: later starts read them from there
// and download nothing. Caches of other versions are deleted. When the Cache API is missing or
// full, everything still works (the browser's HTTP cache is all that helps then).
//
//   const { archivos, descargado } = await traerArchivos(base, version, ({cargado, total}) => …);
//   archivos: Map absolute URL → Blob (with its MIME type)

export const ARCHIVOS = {
  "pyodide.asm.wasm": "application/wasm",
  "python_stdlib.zip": "application/zip",
};
const PREFIJO = "bucle-pyodide-";

async function abrirCache(version) {
  try {
    if (!globalThis.caches) return null;
    const nombre = PREFIJO + version;
    for (const otro of await caches.keys()) {
      if (otro.startsWith(PREFIJO) && otro !== nombre) await caches.delete(otro);
    }
    return await caches.open(nombre);
  } catch {
    return null; // e.g. not a secure context, or storage disabled
  }
}

async function guardada(cache, url) {
  try {
    const respuesta = await cache?.match(url);
    return respuesta ? await respuesta.blob() : null;
  } catch {
    return null;
  }
}

async function leerConProgreso(respuesta, estado, avisar) {
  const trozos = [];
  const lector = respuesta.body.getReader();
  for (;;) {
    const { done, value } = await lector.read();
    if (done) break;
    trozos.push(value);
    estado.cargado += value.length;
    avisar();
  }
  return trozos;
}

/**
 * The big files of Pyodide under `base` (its folder's URL). `alProgreso({cargado, total})` is
 * called (at most every 100 ms, and once at the end) only when something is downloaded.
 */
export async function traerArchivos(base, version, alProgreso = () => {}) {
  const cache = await abrirCache(version);
  const archivos = new Map();
  const faltan = [];
  for (const [nombre, tipo] of Object.entries(ARCHIVOS)) {
    const url = new URL(nombre, base).href;
    const blob = await guardada(cache, url);
    if (blob) archivos.set(url, blob.type ? blob : new Blob([blob], { type: tipo }));
    else faltan.push({ url, tipo });
  }
  if (!faltan.length) return { archivos, descargado: false };

  const respuestas = await Promise.all(faltan.map(({ url }) => fetch(url)));
  const estados = respuestas.map((respuesta, i) => {
    if (!respuesta.ok) throw new Error(`no se pudo descargar ${faltan[i].url} (HTTP ${respuesta.status})`);
    return { cargado: 0, total: Number(respuesta.headers.get("Content-Length")) || 0 };
  });
  let ultimo = 0;
  const avisar = (final = false) => {
    const ahora = Date.now();
    if (!final && ahora - ultimo < 100) return;
    ultimo = ahora;
    const cargado = estados.reduce((n, e) => n + e.cargado, 0);
    // A compressed response's Content-Length counts fewer bytes than the body yields.
    const total = estados.reduce((n, e) => n + Math.max(e.total, e.cargado), 0);
    alProgreso({ cargado, total });
  };
  avisar(true);
  await Promise.all(respuestas.map(async (respuesta, i) => {
    const { url, tipo } = faltan[i];
    const blob = new Blob(await leerConProgreso(respuesta, estados[i], avisar), { type: tipo });
    archivos.set(url, blob);
    try {
      await cache?.put(url, new Response(blob, { headers: { "Content-Type": tipo } }));
    } catch {
      /* the cache is full: next time it downloads again */
    }
  }));
  avisar(true);
  return { archivos, descargado: true };
}

/**
 * A `fetch` that answers the given URLs from memory and passes every other request on: Pyodide
 * fetches its files itself (the wasm from its folder, with no option to hand it over).
 */
export function fetchDesde(archivos, original = globalThis.fetch) {
  return function fetchConArchivos(recurso, opciones) {
    const url = recurso instanceof Request ? recurso.url : new URL(String(recurso), globalThis.location?.href).href;
    const blob = archivos.get(url);
    if (!blob) return original(recurso, opciones);
    return Promise.resolve(new Response(blob, { headers: { "Content-Type": blob.type } }));
  };
}
