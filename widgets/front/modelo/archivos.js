// @ts-check
// The in-page model's files (the ONNX model, its tokenizer and onnxruntime's wasm) as
// modelo/motor.js fetches and keeps them: downloaded from the site with the bytes as they arrive
// and an AbortSignal, checked by SHA-256, kept in the Cache API ("bucle-modelo", each under its
// URL and hash), older copies dropped. No DOM.
import { MODELO } from "../lib/textos.js";

const CACHE = "bucle-modelo";

/** The error a cancelled download or generation rejects with. */
export function abortada() {
  return new DOMException(MODELO.cancelada, "AbortError");
}

/** The model's cache, or null where storage is refused. */
export async function cacheDelModelo() {
  try {
    return globalThis.caches ? await caches.open(CACHE) : null;
  } catch {
    return null; // storage refused (private mode…): the model works, downloaded each visit
  }
}

/** @param {Blob} blob */
export async function sha256(blob) {
  const suma = await crypto.subtle.digest("SHA-256", await blob.arrayBuffer());
  return [...new Uint8Array(suma)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Older copies of this file (another hash) leave the cache.
 * @param {Cache} cache
 * @param {{ url: string, clave: string }} archivo
 */
export async function olvidarOtros(cache, archivo) {
  for (const peticion of await cache.keys()) {
    if (peticion.url.startsWith(`${archivo.url}?`) && peticion.url !== archivo.clave) {
      await cache.delete(peticion);
    }
  }
}

/** Whatever the cache holds that starts with none of `guardar` (the files of an earlier model, its
 *  engine's) leaves it.
 * @param {Cache} cache
 * @param {string[]} guardar
 */
export async function olvidarAjenos(cache, guardar) {
  for (const peticion of await cache.keys()) {
    if (!guardar.some((g) => peticion.url.startsWith(g))) await cache.delete(peticion);
  }
}

/**
 * `archivo` ({archivo, url}) as a Blob, fetched from the site; `avance(bytes)` as they arrive.
 * @param {{ archivo: string, url: string }} archivo
 * @param {AbortSignal | undefined} senal
 * @param {(bytes: number) => void} avance
 */
export async function descargar(archivo, senal, avance) {
  if (senal?.aborted) throw abortada();
  /** @type {Response} */
  let respuesta;
  try {
    respuesta = await fetch(archivo.url, { signal: senal, cache: "no-store" });
  } catch (error) {
    if (error?.name === "AbortError") throw error;
    throw new Error(MODELO.red(archivo.archivo));
  }
  // (a body is null only for a 204 or 205: no file either)
  if (!respuesta.ok || !respuesta.body) throw new Error(MODELO.http(archivo.archivo, respuesta.status));
  const tipo = archivo.archivo.endsWith(".wasm") ? "application/wasm" : "application/octet-stream";
  const trozos = [];
  let bytes = 0;
  const lector = respuesta.body.getReader();
  for (;;) {
    const { done, value } = await lector.read();
    if (done) break;
    trozos.push(value);
    bytes += value.byteLength;
    avance(bytes);
  }
  return new Blob(trozos, { type: tipo });
}
