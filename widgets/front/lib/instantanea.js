// @ts-check
// Python's memory snapshot: how a later start skips Pyodide's own start-up (≈ 3.5 s → ≈ 0.5 s).
//
// Pyodide can dump its whole memory after start-up (`loadPyodide({_makeSnapshot: true})`, then
// `makeMemorySnapshot()`) and start from that dump (`loadPyodide({_loadSnapshot: bytes})`). The
// API is private, so this is an optional layer: any failure means a normal start.
//
//   const clave = await claveDeInstantanea(version, codigoDelTrabajador);
//   const respuesta = await buscarInstantanea(base, clave);        // or null
//   loadPyodide({ _loadSnapshot: verificada(base, clave, respuesta), … });
//   await guardarInstantanea(base, clave, bytes);                  // after a test restore
//
// The snapshot (≈ 31 MB of Python's memory, more than half of it zeros) lives in the Cache API
// without its blocks of zeros (`compactar`, ≈ 15 MB), under a URL made of Pyodide's version and
// the SHA-256 of what is in it (the worker's own Python and the modules imported before the
// dump), so that a new Pyodide or a changed worker Python never restores an old one. Its own
// SHA-256 travels with it and is checked before restoring: Pyodide restores corrupt bytes
// without a word and then crashes («memory access out of bounds»). A snapshot that could not be
// made for a key is remembered, so that every visit does not try again in the background.
//
// The reader (or a test) turns the layer off with localStorage["bucle:sin-instantanea"] = "1":
// the page (python.js, instantaneaActivada) then starts its worker with {instantanea: false}.

export const CACHE = "bucle-instantanea";
/** Changes when what goes into a snapshot changes in a way its key would not show. */
const RECETA = "2";
/**
 * Standard modules the course's Python imports (the runtime, the grader, the tests): imported
 * before the dump, they cost nothing later. `random` is among them and is reseeded after every
 * restore (the dump freezes its state). `urllib.request` is what runtime/api.py's `enviar` sends
 * with: imported at the first call to a model, it took 360–470 ms of that turn in the page
 * (BENCHMARKS.md, the in-page model's profile). `pyodide.http` is what trabajador.py's open_url
 * reads a file with when the worker did not fetch it ahead (a check reads the challenge's files
 * so): trabajador.py imports it only then, so that a first visit's first run does not wait for it.
 */
export const PRECARGA = ["copy", "inspect", "json", "random", "re", "traceback", "linecache", "io",
                         "urllib.request", "pyodide.http"];
const CABECERA_SHA = "X-Bucle-Sha256";
/** Set on a snapshot whose maker fetched Pyodide's interpreter through the course's service
 *  worker (trabajador.js, POR_EL_SERVICIO): V8 then kept the code it compiled for it. */
const CABECERA_SERVICIO = "X-Bucle-Por-El-Servicio";

/** @param {string | Uint8Array<ArrayBuffer>} datos */
async function sha256(datos) {
  const bytes = typeof datos === "string" ? new TextEncoder().encode(datos) : datos;
  const resumen = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(resumen, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Blocks of this many bytes that are all zeros are left out of the stored snapshot. */
export const BLOQUE = 4096;
const MAGIA = 0x62756331; // "buc1"

/**
 * `bytes` without the blocks of BLOQUE bytes that are all zeros: a header of 32-bit
 * little-endian words [MAGIA, the length, n, then n pairs (start, end) of the parts kept], then
 * those parts.
 * @param {Uint8Array} bytes
 */
export function compactar(bytes) {
  /** @type {[number, number][]} */
  const tramos = [];
  const alineados = bytes.byteOffset % 4 === 0 && bytes.length % 4 === 0;
  const palabras = alineados ? new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4) : null;
  /** @type {(p: Uint32Array, desde: number, hasta: number) => boolean} */
  const vacio = (p, desde, hasta) => {
    for (let i = desde / 4; i < hasta / 4; i++) if (p[i] !== 0) return false;
    return true;
  };
  for (let desde = 0; desde < bytes.length; desde += BLOQUE) {
    const hasta = Math.min(desde + BLOQUE, bytes.length);
    if (palabras && vacio(palabras, desde, hasta)) continue;
    const ultimo = tramos[tramos.length - 1];
    if (ultimo && ultimo[1] === desde) ultimo[1] = hasta;
    else tramos.push([desde, hasta]);
  }
  const cabecera = 3 + 2 * tramos.length;
  const guardados = tramos.reduce((n, [desde, hasta]) => n + hasta - desde, 0);
  const salida = new Uint8Array(cabecera * 4 + guardados);
  const vista = new DataView(salida.buffer);
  [MAGIA, bytes.length, tramos.length, ...tramos.flat()].forEach((v, i) => vista.setUint32(4 * i, v, true));
  let donde = cabecera * 4;
  for (const [desde, hasta] of tramos) {
    salida.set(bytes.subarray(desde, hasta), donde);
    donde += hasta - desde;
  }
  return salida;
}

/**
 * The bytes `compactar` was given, from what it returned (throws if `compacto` is not one).
 * @param {Uint8Array} compacto
 */
export function expandir(compacto) {
  /** @type {(i: number) => number} */
  const leer = (i) => new DataView(compacto.buffer, compacto.byteOffset + 4 * i, 4).getUint32(0, true);
  if (compacto.length < 12 || leer(0) !== MAGIA) throw new Error("no es una instantánea compactada");
  const [longitud, n] = [leer(1), leer(2)];
  const bytes = new Uint8Array(longitud);
  let donde = 4 * (3 + 2 * n);
  for (let t = 0; t < n; t++) {
    const [desde, hasta] = [leer(3 + 2 * t), leer(4 + 2 * t)];
    if (!(desde < hasta && hasta <= longitud && donde + hasta - desde <= compacto.length)) {
      throw new Error("instantánea compactada incoherente");
    }
    bytes.set(compacto.subarray(donde, donde + hasta - desde), desde);
    donde += hasta - desde;
  }
  return bytes;
}

/**
 * The key of the snapshot that holds this Pyodide with this worker code.
 * @param {string} version
 * @param {string} codigo
 */
export async function claveDeInstantanea(version, codigo) {
  const huella = await sha256([RECETA, version, PRECARGA.join(","), codigo].join("\n"));
  return `${version}-${huella.slice(0, 32)}`;
}

/** @typedef {string | URL} Base  the site's root */

/** @type {(base: Base, clave: string) => string} */
const urlDe = (base, clave) => new URL(`instantanea/${clave}.bin`, base).href;
/** @type {(base: Base, clave: string) => string} */
const urlDelFallo = (base, clave) => new URL(`instantanea/${clave}.fallo`, base).href;

async function abrir() {
  try {
    return globalThis.caches ? await caches.open(CACHE) : null;
  } catch {
    return null; // not a secure context, or storage disabled
  }
}

/**
 * The stored snapshot's response for `clave`, or null (a quick look: nothing is read).
 * @param {Base} base
 * @param {string} clave
 */
export async function buscarInstantanea(base, clave) {
  try {
    return (await (await abrir())?.match(urlDe(base, clave))) ?? null;
  } catch {
    return null;
  }
}

/** A snapshot the stored bytes did not match (it has been deleted). */
export class InstantaneaCorrupta extends Error {}

/**
 * The snapshot in `respuesta` (from buscarInstantanea), expanded, once the SHA-256 of what is
 * stored matches the one stored with it; else it is deleted (a new one will be made) and this
 * rejects with InstantaneaCorrupta (with an Error if it matches but is no snapshot). Pyodide
 * accepts this promise as is (`_loadSnapshot`); it must not get corrupt bytes: it restores them
 * without a word and crashes later («memory access out of bounds»).
 * @param {Base} base
 * @param {string} clave
 * @param {Response} respuesta
 */
export async function verificada(base, clave, respuesta) {
  const esperado = respuesta.headers.get(CABECERA_SHA);
  // Read as a Blob first: 15 MB took 17 ms so, and 30 ms through the response's own arrayBuffer
  // (medians of seven reads in a worker, Chromium 156).
  const compacto = new Uint8Array(await (await respuesta.blob()).arrayBuffer());
  if (esperado && (await sha256(compacto)) === esperado) return expandir(compacto);
  await borrarInstantanea(base, clave);
  throw new InstantaneaCorrupta("la instantánea guardada no coincide con su SHA-256");
}

/**
 * `promesa` as a thenable that lets go of it once awaited: hand `loadPyodide` the verified bytes
 * as `unaVez(verificada(…))`. Pyodide keeps its options for the worker's life, and they must not
 * keep the snapshot's 31 MB alive after the restore.
 * @template T
 * @param {Promise<T> | null} promesa
 */
export function unaVez(promesa) {
  return {
    /**
     * @param {(valor: T) => any} [bien]
     * @param {(error: any) => any} [mal]
     */
    then(bien, mal) {
      const p = /** @type {Promise<T>} */ (promesa); // (awaited once: a second then() throws)
      promesa = null;
      return p.then(bien, mal);
    },
  };
}

/**
 * Whether the stored snapshot's response (from buscarInstantanea) was made through the
 * course's service worker (guardarInstantanea's `porElServicio`).
 * @type {(respuesta: Response | null | undefined) => boolean}
 */
export const hechaPorElServicio = (respuesta) => respuesta?.headers.get(CABECERA_SERVICIO) === "1";

/**
 * Whether a snapshot may be made for `clave`: none stored (or, with `rehacer`, whatever is
 * stored), and no earlier attempt failed.
 * @param {Base} base
 * @param {string} clave
 * @param {{ rehacer?: boolean }} [opciones]
 */
export async function faltaInstantanea(base, clave, { rehacer = false } = {}) {
  const cache = await abrir();
  if (!cache) return false;
  try {
    const [hay, fallo] = await Promise.all([
      rehacer ? null : cache.match(urlDe(base, clave)),
      cache.match(urlDelFallo(base, clave)),
    ]);
    return !hay && !fallo;
  } catch {
    return false;
  }
}

/**
 * Store the snapshot `instantanea` under `clave`, compacted, with the SHA-256 of what is stored
 * (and, with `porElServicio`, the mark hechaPorElServicio reads), dropping what this site stored
 * under other keys (another site on the same origin keeps its own).
 * @param {Base} base
 * @param {string} clave
 * @param {Uint8Array} instantanea
 * @param {{ porElServicio?: boolean }} [opciones]
 */
export async function guardarInstantanea(base, clave, instantanea, { porElServicio = false } = {}) {
  const bytes = compactar(instantanea);
  const cache = await abrir();
  if (!cache) return false;
  const url = urlDe(base, clave);
  const carpeta = new URL("instantanea/", base).href;
  try {
    for (const peticion of await cache.keys()) {
      if (peticion.url !== url && peticion.url.startsWith(carpeta)) await cache.delete(peticion);
    }
    /** @type {Record<string, string>} */
    const cabeceras = { "Content-Type": "application/octet-stream", [CABECERA_SHA]: await sha256(bytes) };
    if (porElServicio) cabeceras[CABECERA_SERVICIO] = "1";
    await cache.put(url, new Response(bytes, { headers: cabeceras }));
    return true;
  } catch {
    return false; // quota: next visit starts normally and tries again
  }
}

/**
 * Remember that no snapshot could be made for `clave` (why, for whoever looks).
 * @param {Base} base
 * @param {string} clave
 * @param {unknown} motivo an error, or why (kept as its text)
 */
export async function anotarFallo(base, clave, motivo) {
  try {
    await (await abrir())?.put(urlDelFallo(base, clave), new Response(String(motivo)));
  } catch {
    /* nothing to do */
  }
}

/**
 * Delete the snapshot of `clave` (it failed to restore).
 * @param {Base} base
 * @param {string} clave
 */
export async function borrarInstantanea(base, clave) {
  try {
    await (await abrir())?.delete(urlDe(base, clave));
  } catch {
    /* nothing to do */
  }
}
