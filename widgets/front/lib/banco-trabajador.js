// @ts-check
// The bench's Python in the worker (trabajador.js): trabajador_banco.py and the summary beside
// it, trabajador_banco_resumen.py, bundled as text, written into Pyodide's file system next to the
// worker's other halves and imported there, with the cells' namespace handed over. No DOM.
//
//   ponerBanco(py)      → the module trabajador_banco (a PyProxy, kept for the worker's life)
//   TEXTO_DEL_BANCO     both files, for the memory snapshot's key
import codigoBanco from "../../trabajador/trabajador_banco.py";
import codigoResumen from "../../trabajador/trabajador_banco_resumen.py";

const CASA = "/home/pyodide";

export const TEXTO_DEL_BANCO = codigoBanco + codigoResumen;

/** Write the bench's files into `py` and import it, in the cells' namespace (trabajador.py's,
 *  imported before).
 * @param {import("pyodide").PyodideInterface} py
 */
export function ponerBanco(py) {
  py.FS.writeFile(`${CASA}/trabajador_banco.py`, codigoBanco);
  py.FS.writeFile(`${CASA}/trabajador_banco_resumen.py`, codigoResumen);
  py.runPython("import trabajador, trabajador_banco\ntrabajador_banco.preparar(trabajador.ESPACIO)");
  return py.pyimport("trabajador_banco");
}
