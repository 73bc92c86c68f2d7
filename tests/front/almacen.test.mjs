// Storage that is missing, full or corrupt never throws; progress keeps the best result.
import assert from "node:assert/strict";
import { test } from "node:test";

class AlmacenDePrueba {
  constructor({ lleno = false } = {}) { this.datos = new Map(); this.lleno = lleno; }
  get length() { return this.datos.size; }
  key(i) { return [...this.datos.keys()][i]; }
  getItem(k) { return this.datos.has(k) ? this.datos.get(k) : null; }
  setItem(k, v) { if (this.lleno) throw new Error("QuotaExceededError"); this.datos.set(k, String(v)); }
  removeItem(k) { this.datos.delete(k); }
}

const { leer, guardar } = await import("../../widgets/front/lib/almacen.js");
const progreso = await import("../../widgets/front/lib/progreso.js");
const elemento = (id) => ({ dataset: { bucleCurso: "c", buclePagina: "p", bucleId: id } });

test("round trip, corrupt JSON and a full store", () => {
  globalThis.localStorage = new AlmacenDePrueba();
  assert.equal(guardar("k", { a: 1 }), true);
  assert.deepEqual(leer("k"), { a: 1 });
  localStorage.setItem("roto", "{no es json");
  assert.equal(leer("roto"), null);
  globalThis.localStorage = new AlmacenDePrueba({ lleno: true });
  assert.equal(guardar("k", 1), false);
});

test("no localStorage at all", () => {
  delete globalThis.localStorage;
  assert.equal(leer("k"), null);
  assert.equal(guardar("k", 1), false);
});

test("progress keeps a challenge's best result and exports the course", () => {
  globalThis.localStorage = new AlmacenDePrueba();
  progreso.registrarDesafio(elemento("d"), 3, 10);
  progreso.registrarDesafio(elemento("d"), 2, 10);
  progreso.registrarPregunta(elemento("q1"), true);
  assert.deepEqual(progreso.progresoDe("c"), {
    p: { desafios: { d: { superadas: 3, total: 10 } }, preguntas: { q1: true } },
  });
  const archivo = progreso.exportar("c");
  globalThis.localStorage = new AlmacenDePrueba();
  assert.equal(progreso.importar("c", archivo), 1);
  assert.deepEqual(progreso.progresoDe("c").p.preguntas, { q1: true });
  assert.throws(() => progreso.importar("otro", archivo), /no es un progreso/);
  // A file of this course whose data is not an object is refused with the same sentence.
  assert.throws(() => progreso.importar("c", { curso: "c", version: 1, datos: null }), /no es un progreso/);
});
