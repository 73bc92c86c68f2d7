// @ts-check
// The grader in the worker's Python: the package `calificador` (widgets/calificador/), bundled
// into the worker as text (empaquetar.mjs), written into Pyodide's file system beside the
// worker's Python, where trabajador_desafios.py imports it. Nothing is fetched. No DOM.
//
//   ponerCalificador(py);              // writes the files (once per Python); guardar imports
//                                      // what it needs
//   ponerCalificador(py, { todo: true })  // and imports every module of the package: before a
//                                         // memory snapshot is made, so a restored Python has them all
//   TEXTO_DEL_CALIFICADOR              // all of it, for the snapshot's key
import ARCHIVOS from "calificador:archivos";

const CARPETA = "/home/pyodide/calificador";
const PAQUETE = "calificador";

const MODULOS = Object.keys(ARCHIVOS).map((archivo) => {
  const nombre = archivo.replace(/\.py$/, "");
  return nombre === "__init__" ? PAQUETE : `${PAQUETE}.${nombre}`;
});

export const TEXTO_DEL_CALIFICADOR = Object.entries(ARCHIVOS).map(([a, t]) => `${a}\n${t}`).join("\n");

const puestos = new WeakSet();

/**
 * Write the grader's files into `py` (once); with `todo`, import every module of it too.
 * @param {import("pyodide").PyodideInterface} py
 * @param {{ todo?: boolean }} [opciones]
 */
export function ponerCalificador(py, { todo = false } = {}) {
  if (!puestos.has(py)) {
    py.FS.mkdirTree(CARPETA);
    for (const [archivo, texto] of Object.entries(ARCHIVOS)) py.FS.writeFile(`${CARPETA}/${archivo}`, texto);
    // New files in a folder Python has listed: its finder reads it again (trabajador.py, imported
    // before the grader wherever it is put: not importlib.invalidate_caches(), 50–70 ms).
    py.runPython("import trabajador\ntrabajador.releer_carpetas()");
    puestos.add(py);
  }
  if (todo) py.runPython(`import ${MODULOS.join(", ")}`);
}
