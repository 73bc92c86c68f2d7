// @ts-check
// Detener, when the page is isolated, sets Pyodide's interrupt buffer (a 1-byte
// SharedArrayBuffer view) to 2 (SIGINT). Python looks at it every 50 evaluation-loop checks,
// through CPython's Emscripten helper, which reads the byte and then writes 0: two plain
// accesses. A stop stored between them is overwritten and lost, and Python runs on until the
// page gives up and restarts the worker. In a tight loop that helper runs so often that 2–4 % of
// the stops were lost (tests/browser/test_interrupcion.py shows it).
//
// `vistaSegura` is what Pyodide is given to read instead: the same byte, but its clearing
// takes away only the value just read (a compare-and-exchange), so a stop that arrives
// in between stays for the next look.

/**
 * The object Pyodide reads as its interrupt buffer (`Module.Py_EmscriptenSignalBuffer`):
 * index 0 reads `buffer[0]`, and writing 0 clears it only if it still holds what was read.
 * @param {Uint8Array} buffer
 */
export function vistaSegura(buffer) {
  let leido = 0;
  return {
    get 0() {
      return (leido = buffer[0]);
    },
    set 0(valor) {
      if (valor !== 0) Atomics.store(buffer, 0, valor);
      else if (leido !== 0) Atomics.compareExchange(buffer, 0, leido, 0);
    },
  };
}

/**
 * `py.setInterruptBuffer(buffer)`, with what Python reads replaced by `vistaSegura(buffer)`
 * (the place Pyodide keeps it is Emscripten's module; if it is not where it was, Pyodide's own
 * buffer stays: stops work as before, and may be lost as before).
 * @param {import("pyodide").PyodideInterface & { _module?: any }} py (its `_module`, Emscripten's,
 *   is not in Pyodide's types)
 * @param {Uint8Array} buffer
 */
export function ponerInterrupcion(py, buffer) {
  py.setInterruptBuffer(buffer);
  const modulo = py._module;
  if (modulo?.Py_EmscriptenSignalBuffer === buffer) modulo.Py_EmscriptenSignalBuffer = vistaSegura(buffer);
}
