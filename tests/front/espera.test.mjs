// lib/espera.js: Python in the worker waits for the page over a SharedArrayBuffer. The worker's
// side runs in a real worker thread here, blocked in Atomics.wait as in the browser.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Worker } from "node:worker_threads";

const espera = await import("../../widgets/front/lib/espera.js");
const { ESTADO, crearEspera, detener, esperando, responder, sinLector, utf8Hasta, esperar } = espera;
const MODULO = new URL("../../widgets/front/lib/espera.js", import.meta.url).href;

/** A worker thread that calls esperar(buffer) and reports when it asked and what it got. */
function trabajador(buffer, { interrumpido = false } = {}) {
  const codigo = `
    const { parentPort, workerData } = require("node:worker_threads");
    import(workerData.modulo).then(({ esperar }) => {
      const r = esperar(workerData.buffer, () => parentPort.postMessage({ pregunta: true }),
                        { interrumpido: () => workerData.interrumpido });
      parentPort.postMessage({ respuesta: r });
    });`;
  const w = new Worker(codigo, { eval: true, workerData: { buffer, modulo: MODULO, interrumpido } });
  const preguntado = new Promise((resolve) => w.on("message", (m) => m.pregunta && resolve()));
  const respuesta = new Promise((resolve, reject) => {
    w.on("message", (m) => m.respuesta && resolve(m.respuesta));
    w.on("error", reject);
  }).finally(() => w.terminate());
  return { preguntado, respuesta };
}

test("the worker sleeps until the page answers, and gets the text, accents and all", async () => {
  const buffer = crearEspera();
  const { preguntado, respuesta } = trabajador(buffer);
  await preguntado;
  assert.equal(esperando(buffer), true);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(esperando(buffer), true, "still waiting: nobody answered");
  assert.equal(responder(buffer, "Ñandú ✓"), true);
  assert.deepEqual(await respuesta, { estado: "respondido", texto: "Ñandú ✓" });
  assert.equal(esperando(buffer), false);
  assert.equal(responder(buffer, "tarde"), false, "nothing waits any more");
});

test("a stop wakes the worker as stopped, and an answer after it is ignored", async () => {
  const buffer = crearEspera();
  const { preguntado, respuesta } = trabajador(buffer);
  await preguntado;
  assert.equal(detener(buffer), true);
  assert.equal(responder(buffer, "Ada"), false);
  assert.deepEqual(await respuesta, { estado: "detenido" });
});

test("«nobody here» wakes it as sin-lector", async () => {
  const buffer = crearEspera();
  const { preguntado, respuesta } = trabajador(buffer);
  await preguntado;
  assert.equal(sinLector(buffer), true);
  assert.deepEqual(await respuesta, { estado: "sin-lector" });
});

test("a stop that came before the wait is not slept through: the page is not even asked", () => {
  const buffer = crearEspera();
  let avisado = false;
  const r = esperar(buffer, () => (avisado = true), { interrumpido: () => true });
  assert.deepEqual(r, { estado: "detenido" });
  assert.equal(avisado, false);
  assert.equal(new Int32Array(buffer)[0], ESTADO.LIBRE);
});

test("an answer longer than the buffer is cut at a character's boundary", async () => {
  const buffer = crearEspera(5);
  const { preguntado, respuesta } = trabajador(buffer);
  await preguntado;
  responder(buffer, "abñcd"); // a, b, ñ (2 bytes), c, d: 6 bytes
  assert.deepEqual(await respuesta, { estado: "respondido", texto: "abñc" });
  assert.deepEqual([...utf8Hasta("aé", 2)], [0x61]); // é's first byte alone is not kept
  assert.deepEqual([...utf8Hasta("", 4)], []);
});

test("stopping or answering when nothing waits does nothing", () => {
  const buffer = crearEspera();
  assert.equal(detener(buffer), false);
  assert.equal(sinLector(buffer), false);
  assert.equal(responder(buffer, "x"), false);
  assert.equal(new Int32Array(buffer)[0], ESTADO.LIBRE);
});

test("the page's side: a question reaches alPreguntar once; its answer counts only while it is the current one", () => {
  const { Esperas } = espera;
  const buffer = crearEspera(64);
  const estado = new Int32Array(buffer, 0, 1);
  const esperas = new Esperas(buffer);
  const dadas = [];
  Atomics.store(estado, 0, ESTADO.ESPERANDO);
  esperas.recibir({ tipo: "entrada", pregunta: "¿Nombre? " }, (pregunta, responderle) => dadas.push([pregunta, responderle]));
  assert.deepEqual(dadas[0][0], { tipo: "entrada", pregunta: "¿Nombre? ", detalle: "", partes: [] });
  assert.equal(dadas[0][1]("Ada"), true);
  assert.equal(Atomics.load(estado, 0), ESTADO.RESPONDIDO);
  assert.equal(dadas[0][1]("otra vez"), false, "answered once");

  Atomics.store(estado, 0, ESTADO.ESPERANDO);
  const partes = [{ titulo: "notas.txt quedará así (1 línea):", lineas: [["", "Compra: huevos."]] }];
  esperas.recibir({ tipo: "permiso", pregunta: "¿Permites?", detalle: "escribir", partes }, (p, r) => dadas.push([p, r]));
  assert.deepEqual(dadas[1][0].partes, partes, "what Python sent to show whole, as it sent it");
  esperas.detener();
  assert.equal(Atomics.load(estado, 0), ESTADO.DETENIDO);
  assert.equal(dadas[1][1]("permitir"), false, "a stop voids the question");

  Atomics.store(estado, 0, ESTADO.ESPERANDO);
  esperas.recibir({ tipo: "permiso", pregunta: "¿Permites?" }, (p, r) => dadas.push([p, r]));
  esperas.olvidar();
  assert.equal(dadas[2][1]("permitir"), false, "a restart voids it too");
  assert.equal(Atomics.load(estado, 0), ESTADO.ESPERANDO);

  esperas.recibir({ tipo: "entrada", pregunta: "?" }, undefined);
  assert.equal(Atomics.load(estado, 0), ESTADO.SIN_LECTOR, "no alPreguntar: nobody here");

  const sinBuffer = new Esperas(null);
  sinBuffer.recibir({ tipo: "entrada", pregunta: "?" }, () => assert.fail("not isolated: no question"));
  sinBuffer.detener();
});
