"""Detener's interrupt reaches Python every time: a tight loop is interrupted over and over in a
real worker, through Pyodide's own buffer and through the view the course's worker gives it
(widgets/front/lib/interrupcion.js). With Pyodide's buffer some stops are lost (its helper reads
the byte, then writes 0, and a stop stored in between is overwritten); with the view none is.
"""

import shutil

from tests.conftest import ROOT

#: Interrupts through the worker's view: all must arrive. With Pyodide's own buffer 2–4 % were
#: lost (5 and 8 in 300; 42 and 36 in 1,000), so a lost one would show here.
VECES = 500
#: Through Pyodide's own buffer, interrupts until one is lost, at most this many.
HASTA_PERDER = 3000

TRABAJADOR = """
import { loadPyodide } from "./pyodide/pyodide.mjs";
import { ponerInterrupcion } from "./interrupcion.js";

self.onmessage = async ({ data: { interrupcion, listo, segura, veces } }) => {
  try {
    const py = await loadPyodide({ indexURL: new URL("./pyodide/", import.meta.url).href });
    if (segura) ponerInterrupcion(py, interrupcion);
    else py.setInterruptBuffer(interrupcion);
    const contador = new Int32Array(listo);
    self.listo = (n) => { Atomics.store(contador, 0, n + 1); Atomics.notify(contador, 0); };
    py.runPython(`
import js
n = 0
while n < ${veces}:
    try:
        js.listo(n)
        while True:
            pass
    except KeyboardInterrupt:
        n += 1
js.listo(n)
`);
  } catch (error) {
    postMessage(String(error));
  }
};
"""

# The page stops Python's loop `veces` times (or until one is lost), at irregular moments. Python
# says when it is ready for the next stop (inside its try: a stop can land nowhere else): `listo`
# holds 1 + the stops it got. A stop Python read but did not raise in 2 s was lost, and is set
# again; one not read yet is waited for.
PAGINA = """<!doctype html><meta charset="utf-8"><title>interrupciones</title>
<script type="module">
window.interrumpir = (veces, segura, hastaPerder = false) => new Promise((fin, fallo) => {
  const interrupcion = new Uint8Array(new SharedArrayBuffer(1));
  const listo = new SharedArrayBuffer(4);
  const contador = new Int32Array(listo);
  const hasta = async (n) => {
    while (Atomics.load(contador, 0) < n) {
      const valor = Atomics.load(contador, 0);
      const { value } = Atomics.waitAsync(contador, 0, valor, 2000);
      if ((await value) === "timed-out" && Atomics.load(contador, 0) < n) return false;
    }
    return true;
  };
  const trabajador = new Worker("trabajador.js", { type: "module" });
  trabajador.onerror = (e) => fallo(new Error(e.message));
  trabajador.onmessage = ({ data }) => fallo(new Error(data));
  trabajador.postMessage({ interrupcion, listo, segura, veces });
  (async () => {
    let perdidas = 0, i = 1;
    for (; i <= veces && !(hastaPerder && perdidas); i++) {
      while (!(await hasta(i))) {} // Python is loading, or back in its loop
      await new Promise((r) => setTimeout(r, 1 + Math.random() * 2));
      Atomics.store(interrupcion, 0, 2);
      while (!(await hasta(i + 1))) {
        if (Atomics.load(interrupcion, 0) !== 0) continue; // not read yet
        perdidas++;
        Atomics.store(interrupcion, 0, 2);
      }
    }
    trabajador.terminate();
    fin({ recibidas: Atomics.load(contador, 0) - 1, perdidas });
  })();
});
</script>
"""


def test_every_stop_reaches_a_tight_loop_through_the_workers_view_of_the_buffer(
        sitio, servidor, pagina, tmp_path):
    (tmp_path / "pyodide").symlink_to(sitio / "_static" / "pyodide", target_is_directory=True)
    shutil.copy(ROOT / "widgets" / "front" / "lib" / "interrupcion.js", tmp_path)
    (tmp_path / "trabajador.js").write_text(TRABAJADOR, encoding="utf-8")
    (tmp_path / "index.html").write_text(PAGINA, encoding="utf-8")
    pagina.goto(servidor(tmp_path))
    assert pagina.evaluate("crossOriginIsolated") is True

    segura = pagina.evaluate("([v]) => interrumpir(v, true)", [VECES])
    propia = pagina.evaluate("([v]) => interrumpir(v, false, true)", [HASTA_PERDER])
    print(f"\n[interrupcion] stops lost: the worker's view {segura['perdidas']} in {VECES}; "
          f"Pyodide's buffer lost one after {propia['recibidas']}")
    assert segura == {"recibidas": VECES, "perdidas": 0}
    # The race the view is there for. If a Pyodide release reads and clears the byte atomically,
    # this fails: lib/interrupcion.js can then go. (The stop that was lost is set again until it
    # arrives, and that can be lost too: the run ends after the first stop with any loss.)
    assert propia["perdidas"] >= 1 and propia["recibidas"] < HASTA_PERDER
