// lib/instantanea.js: the stored snapshot leaves out its blocks of zeros and gets them back, once
// what is stored matches its SHA-256.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  BLOQUE, InstantaneaCorrupta, buscarInstantanea, compactar, expandir, faltaInstantanea,
  guardarInstantanea, hechaPorElServicio, verificada,
} from "../../widgets/front/lib/instantanea.js";

/** Bytes of `bloques` blocks where the blocks listed in `llenos` hold something. */
function memoria(bloques, llenos, resto = 0) {
  const bytes = new Uint8Array(bloques * BLOQUE + resto);
  for (const b of llenos) bytes[b * BLOQUE + 7] = b + 1;
  return bytes;
}

test("blocks of zeros are left out, and expanding gives back every byte", () => {
  const bytes = memoria(10, [0, 1, 4, 9]);
  bytes[5 * BLOQUE + BLOQUE - 1] = 9; // a block with only its last byte set is kept
  const compacto = compactar(bytes);
  // header: magic, length, 3 parts (0–2, 4–6, 9–10) as pairs; then 5 blocks
  assert.equal(compacto.length, 4 * (3 + 2 * 3) + 5 * BLOQUE);
  assert.deepEqual(expandir(compacto), bytes);
});

test("all zeros, an empty array, and a length that is not a whole number of blocks", () => {
  for (const bytes of [memoria(6, []), memoria(3, [2], 100), new Uint8Array(0)]) {
    assert.deepEqual(expandir(compactar(bytes)), bytes);
  }
  assert.equal(compactar(memoria(6, [])).length, 12);
});

test("a view that is not aligned to 32 bits is stored whole, and still comes back", () => {
  const fondo = memoria(4, [3], 8);
  const vista = fondo.subarray(1, fondo.length - 2);
  assert.deepEqual(expandir(compactar(vista)), vista);
  assert.equal(compactar(vista).length, 4 * 5 + vista.length);
});

test("what is not a compacted snapshot is refused", () => {
  assert.throws(() => expandir(crypto.getRandomValues(new Uint8Array(1 << 12))), /no es una instantánea/);
  const compacto = compactar(memoria(4, [1]));
  new DataView(compacto.buffer).setUint32(16, 99 * BLOQUE, true); // a part that ends past the length
  assert.throws(() => expandir(compacto), /incoherente/);
});

/** `guardados` as the Cache API gives them back, with their SHA-256 (or `sha`). */
async function guardada(guardados, { sha = null } = {}) {
  const resumen = new Uint8Array(await crypto.subtle.digest("SHA-256", guardados));
  const hex = Array.from(resumen, (b) => b.toString(16).padStart(2, "0")).join("");
  return new Response(guardados, { headers: { "X-Bucle-Sha256": sha ?? hex } });
}

test("what is stored comes back whole once its SHA-256 matches", async () => {
  const bytes = memoria(8, [0, 2, 7]);
  assert.deepEqual(await verificada("http://x/", "clave", await guardada(compactar(bytes))), bytes);
});

test("a snapshot that does not match its SHA-256, or matches but is no snapshot, is refused", async () => {
  const mal = await guardada(compactar(memoria(4, [1])), { sha: "0".repeat(64) });
  await assert.rejects(verificada("http://x/", "clave", mal), InstantaneaCorrupta);
  const basura = crypto.getRandomValues(new Uint8Array(1 << 12));
  await assert.rejects(verificada("http://x/", "clave", await guardada(basura)), /no es una instantánea/);
});

test("a snapshot made through the service worker says so; one may be made again unless it failed", async () => {
  const guardadas = new Map();
  globalThis.caches = {
    async open() {
      return {
        async keys() { return [...guardadas.keys()].map((url) => ({ url })); },
        async match(url) { return guardadas.get(url)?.clone(); },
        async put(url, respuesta) { guardadas.set(url, respuesta); },
        async delete(peticion) { return guardadas.delete(peticion.url ?? peticion); },
      };
    },
  };
  const base = "http://sitio/_static/pyodide/";
  assert.equal(await faltaInstantanea(base, "k"), true);
  await guardarInstantanea(base, "k", memoria(2, [1]));
  assert.equal(hechaPorElServicio(await buscarInstantanea(base, "k")), false);
  assert.equal(await faltaInstantanea(base, "k"), false, "one is stored");
  assert.equal(await faltaInstantanea(base, "k", { rehacer: true }), true, "made again if asked");
  await guardarInstantanea(base, "k", memoria(2, [1]), { porElServicio: true });
  const hecha = await buscarInstantanea(base, "k");
  assert.equal(hechaPorElServicio(hecha), true);
  assert.deepEqual(await verificada(base, "k", hecha), memoria(2, [1]));
  guardadas.set(new URL("instantanea/k.fallo", base).href, new Response("no"));
  assert.equal(await faltaInstantanea(base, "k", { rehacer: true }), false, "not after a failure");
  delete globalThis.caches;
});
