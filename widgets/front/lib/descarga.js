// @ts-check
// Pyodide's two big files (the interpreter and the standard library, ≈ 12 MB), fetched by the
// worker itself so that the page can show the real progress of the first download, and kept in
// the Cache API under a name that carries Pyodide's version: later starts read them from there
// and download nothing. Caches of other versions are deleted. When the Cache API is missing or
// full, everything still works (the browser's HTTP cache is all that helps then).
//
// A file cut short (a host's truncated copy, an interrupted upload) or an HTML page served in
// its place is refused with a clear error before Pyodide sees it (Pyodide waits forever on a
// wasm cut short) and never cached, so that once the host is fixed a retry downloads it again.
//
//   const { archivos, descargado, guardado } = await traerArchivos(base, version, ({cargado, total}) => …);
//   archivos: Map absolute URL → Blob (with its MIME type); guardado: settles once a download is
//   in the cache (it is written while Python starts, not before)
//
// A worker whose requests go through the course's service worker asks for the interpreter as a
// response (`{comoRespuesta: ["pyodide.asm.wasm"]}`): the service worker answers it out of its
// own cache (servicio/rutas.js), and V8 keeps the code it compiles for a wasm streamed from such
// a response (Chromium's code cache, kept beside the cache's entry) for the next visit; it keeps
// none for bytes handed over. `archivos` then maps that URL to the Response itself, read once.
// Where the answer is not a wasm (an error, the wrong MIME type, no network) the file is read
// from this worker's cache or downloaded, as always.

import { PYTHON } from "./textos.js";

export const ARCHIVOS = {
  "pyodide.asm.wasm": "application/wasm",
  "python_stdlib.zip": "application/zip",
};
const PREFIJO = "bucle-pyodide-";
/**
 * Small files Pyodide fetches as it starts (its lock file): requested beside the big ones, so
 * that its start does not wait for them after the interpreter, and handed over as that response
 * (once). Not kept here: the browser's HTTP cache and the service worker keep them.
 */
export const ACOMPANANTES = ["pyodide-lock.json"];

/** @typedef {Map<string, Blob | Response | Promise<Response | null>>} Archivos  by URL */

/** @param {string} version */
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

/**
 * @param {Cache | null} cache
 * @param {string} url
 */
async function guardada(cache, url) {
  try {
    const respuesta = await cache?.match(url);
    return respuesta ? await respuesta.blob() : null;
  } catch {
    return null;
  }
}

const WASM = [0x00, 0x61, 0x73, 0x6d]; // "\0asm"
const ZIP = [0x50, 0x4b, 0x03, 0x04]; // "PK\3\4", a local file header
const FIN_ZIP = [0x50, 0x4b, 0x05, 0x06]; // "PK\5\6", the end of the central directory

/** @type {(bytes: Uint8Array, firma: number[], desde?: number) => boolean} */
const empiezaCon = (bytes, firma, desde = 0) => firma.every((b, i) => bytes[desde + i] === b);

/**
 * Whether a wasm module's sections add up to exactly its length (one cut short does not). Only
 * the few bytes of each section's header are read, not the megabytes between them.
 * @param {Blob} blob
 */
async function wasmEntero(blob) {
  let i = 8; // magic and version
  while (i < blob.size) {
    const cabecera = new Uint8Array(await blob.slice(i + 1, i + 6).arrayBuffer()); // id, then size
    let tamano = 0;
    let leidos = 0;
    for (;;) {
      if (leidos >= cabecera.length) return false;
      const b = cabecera[leidos];
      tamano += (b & 0x7f) * 2 ** (7 * leidos++);
      if (!(b & 0x80)) break;
    }
    i += 1 + leidos + tamano;
  }
  return i === blob.size;
}

/**
 * Whether a zip ends with its central directory, right where the directory says it is.
 * @param {Blob} blob
 */
async function zipEntero(blob) {
  const cola = new Uint8Array(await blob.slice(Math.max(0, blob.size - 65_557)).arrayBuffer());
  const inicio = blob.size - cola.length;
  for (let i = cola.length - 22; i >= 0; i--) {
    if (!empiezaCon(cola, FIN_ZIP, i)) continue;
    const vista = new DataView(cola.buffer, i);
    const tamano = vista.getUint32(12, true);
    const desde = vista.getUint32(16, true);
    return desde === 0xffffffff || desde + tamano === inicio + i; // (zip64: not checked)
  }
  return false;
}

/**
 * null if `blob` may be the file `nombre`, else why not (in the reader's words).
 * @param {string} nombre
 * @param {Blob} blob
 */
export async function defecto(nombre, blob) {
  const principio = new Uint8Array(await blob.slice(0, 8).arrayBuffer());
  if (principio[0] === 0x3c) return PYTHON.paginaWeb; // "<": HTML, not the file
  if (nombre.endsWith(".wasm") && empiezaCon(principio, WASM)) {
    return (await wasmEntero(blob)) ? null : PYTHON.incompleto;
  }
  if (nombre.endsWith(".zip") && empiezaCon(principio, ZIP)) {
    return (await zipEntero(blob)) ? null : PYTHON.incompleto;
  }
  return null; // nothing known is wrong with it: Pyodide judges
}

/**
 * @param {Response} respuesta
 * @param {{ cargado: number }} estado
 * @param {() => void} avisar
 */
async function leerConProgreso(respuesta, estado, avisar) {
  /** @type {Uint8Array<ArrayBuffer>[]} */
  const trozos = [];
  // (a body is null only for a 204 or 205: no file either)
  if (!respuesta.body) throw new Error(PYTHON.http(respuesta.url, respuesta.status));
  const lector = respuesta.body.getReader();
  for (;;) {
    const { done, value } = await lector.read();
    if (done) break;
    trozos.push(/** @type {Uint8Array<ArrayBuffer>} */ (value)); // (a body's chunks are never shared memory)
    estado.cargado += value.length;
    avisar();
  }
  return trozos;
}

/**
 * `fetch(url)`'s answer if it is a good response of type `tipo`, else null (its body dropped).
 * @param {string} url
 * @param {string} tipo
 */
async function respuestaBuena(url, tipo) {
  try {
    const respuesta = await fetch(url);
    if (respuesta.ok && respuesta.headers.get("Content-Type") === tipo) return respuesta;
    respuesta.body?.cancel().catch(() => {});
  } catch {
    // offline and not kept: read or downloaded below, with a clear error if that fails too
  }
  return null;
}

/**
 * The big files of Pyodide under `base` (its folder's URL). `alProgreso({cargado, total})` is
 * called (at most every 100 ms, and once at the end) only when something is downloaded.
 * `comoRespuesta`: names of files wanted as responses (see the header).
 * @param {string | URL} base
 * @param {string} version
 * @param {(progreso: { cargado: number, total: number }) => void} [alProgreso]
 * @param {{ comoRespuesta?: string[] }} [opciones]
 */
export async function traerArchivos(base, version, alProgreso = () => {}, { comoRespuesta = [] } = {}) {
  /** @type {Archivos} */
  const archivos = new Map();
  for (const nombre of ACOMPANANTES) {
    const url = new URL(nombre, base).href;
    archivos.set(url, fetch(url).catch(() => null)); // a failure: Pyodide asks the network itself
  }
  const cache = await abrirCache(version);
  /** @type {{ nombre: string, url: string, tipo: string }[]} */
  const faltan = [];
  for (const [nombre, tipo] of Object.entries(ARCHIVOS)) {
    const url = new URL(nombre, base).href;
    const respuesta = comoRespuesta.includes(nombre) ? await respuestaBuena(url, tipo) : null;
    if (respuesta) {
      archivos.set(url, respuesta);
      continue;
    }
    const blob = await guardada(cache, url);
    if (blob && !(await defecto(nombre, blob))) {
      archivos.set(url, blob.type ? blob : new Blob([blob], { type: tipo }));
    } else {
      if (blob) await cache?.delete(url).catch(() => {}); // a bad copy kept by an older version
      faltan.push({ nombre, url, tipo });
    }
  }
  if (!faltan.length) return { archivos, descargado: false, guardado: Promise.resolve() };

  const respuestas = await Promise.all(faltan.map(({ url }) => fetch(url)));
  const estados = respuestas.map((respuesta, i) => {
    if (!respuesta.ok) throw new Error(PYTHON.http(faltan[i].url, respuesta.status));
    return { cargado: 0, total: Number(respuesta.headers.get("Content-Length")) || 0 };
  });
  let ultimo = 0;
  /** @type {(Promise<void> | undefined)[]} */
  const guardando = [];
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
    const { nombre, url, tipo } = faltan[i];
    const blob = new Blob(await leerConProgreso(respuesta, estados[i], avisar), { type: tipo });
    const problema = await defecto(nombre, blob);
    if (problema) throw new Error(PYTHON.defectuoso(url, problema, blob.size));
    archivos.set(url, blob);
    // Kept for later visits while Python starts, not before: writing 12 MB takes a while.
    guardando.push(
      cache?.put(url, new Response(blob, { headers: { "Content-Type": tipo } })).catch(() => {
        /* the cache is full: next time it downloads again */
      }),
    );
  }));
  avisar(true);
  return { archivos, descargado: true, guardado: Promise.all(guardando) };
}

/**
 * A `fetch` that answers the given URLs from memory and passes every other request on: Pyodide
 * fetches its files itself (the wasm from its folder, with no option to hand it over). A
 * Response in `archivos` (or a promise of one: ACOMPANANTES) is handed over once; the next
 * request for it goes to the network, as does one whose early request failed.
 * @param {Archivos} archivos
 * @param {typeof fetch} [original]
 * @returns {typeof fetch}
 */
export function fetchDesde(archivos, original = globalThis.fetch) {
  return function fetchConArchivos(recurso, opciones) {
    const url = recurso instanceof Request ? recurso.url : new URL(String(recurso), globalThis.location?.href).href;
    const archivo = archivos.get(url);
    if (!archivo) return original(recurso, opciones);
    if (archivo instanceof Response || archivo instanceof Promise) {
      archivos.delete(url);
      return Promise.resolve(archivo).then((r) => (r?.ok ? r : original(recurso, opciones)));
    }
    return Promise.resolve(new Response(archivo, { headers: { "Content-Type": archivo.type } }));
  };
}

/**
 * [url, text] of each of `urls` (relative to `base`) that could be read; the others are left
 * out (best effort: the files the cells will open_url, which open_url reads itself otherwise).
 * @param {string[]} urls
 * @param {string | URL} base
 */
export async function leerTextos(urls = [], base) {
  const leidos = await Promise.all(
    urls.map(async (url) => {
      try {
        const respuesta = await fetch(new URL(url, base));
        return respuesta.ok ? [url, await respuesta.text()] : null;
      } catch {
        return null;
      }
    }),
  );
  return leidos.filter(Boolean);
}
