// lib/interrupcion.js: what Pyodide reads as its interrupt buffer. CPython's helper reads index 0,
// then writes 0 to it; here the page's stop is put between the two, as the race does.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ponerInterrupcion, vistaSegura } from "../../widgets/front/lib/interrupcion.js";

/** The helper's two accesses, with `entre()` run between them; what it returns. */
function mirar(vista, entre = () => {}) {
  const visto = vista[0];
  entre();
  vista[0] = 0;
  return visto;
}

const buffer = () => new Uint8Array(new SharedArrayBuffer(1));

test("a stop that arrives between the read and the clearing stays for the next look", () => {
  const b = buffer();
  const vista = vistaSegura(b);
  assert.equal(mirar(vista, () => Atomics.store(b, 0, 2)), 0);
  assert.equal(b[0], 2);
  assert.equal(mirar(vista), 2);
  assert.equal(b[0], 0);
  assert.equal(mirar(vista), 0);
});

test("with the plain byte, the same stop is lost", () => {
  const b = buffer();
  assert.equal(mirar(b, () => Atomics.store(b, 0, 2)), 0);
  assert.equal(b[0], 0);
});

test("a stop read is cleared once, and a second stop stored after it is kept", () => {
  const b = buffer();
  const vista = vistaSegura(b);
  Atomics.store(b, 0, 2);
  assert.equal(mirar(vista, () => Atomics.store(b, 0, 3)), 2);
  assert.equal(b[0], 3);
});

test("the worker hands Pyodide the view, or leaves Pyodide's buffer where it is not found", () => {
  const b = buffer();
  const modulo = {};
  const py = { _module: modulo, setInterruptBuffer: (x) => (modulo.Py_EmscriptenSignalBuffer = x) };
  ponerInterrupcion(py, b);
  Atomics.store(b, 0, 2);
  assert.notEqual(modulo.Py_EmscriptenSignalBuffer, b);
  assert.equal(mirar(modulo.Py_EmscriptenSignalBuffer), 2);

  const otro = { setInterruptBuffer: (x) => (otro.guardado = x) };
  ponerInterrupcion(otro, b);
  assert.equal(otro.guardado, b);
});
