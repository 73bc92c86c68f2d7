// The grading engine in the worker's Python: the package `calificador` (widgets/calificador/),
// bundled into the worker as text (empaquetar.mjs), written into Pyodide's file system beside
// the worker's Python, where trabajador_desafios.py imports it. Nothing is fetched. No DOM.
//
//   ponerMotor(py);     // writes the files (once per Python) and imports every module of the
//                       // package: before a memory snapshot is made, so a restored Python has them
//   TEXTO_DEL_MOTOR     // all of it, for the snapshot's key
import ARCHIVOS from "calificador:archivos";

const CARPETA = "/home/pyodide/calificador";
const PAQUETE = "calificador";

const MODULOS = Object.keys(ARCHIVOS).map((archivo) => {
  const nombre = archivo.replace(/\.py$/, "");
  return nombre === "__init__" ? PAQUETE : `${PAQUETE}.${nombre}`;
});

export const TEXTO_DEL_MOTOR = Object.entries(ARCHIVOS).map(([a, t]) => `${a}\n${t}`).join("\n");

const puestos = new WeakSet();

/** Write the engine's files into `py` (once) and import every module of it. */
export function ponerMotor(py) {
  if (puestos.has(py)) return;
  py.FS.mkdirTree(CARPETA);
  for (const [archivo, texto] of Object.entries(ARCHIVOS)) py.FS.writeFile(`${CARPETA}/${archivo}`, texto);
  // New files in a folder Python may have looked at; then the modules (at once, when a snapshot
  // already holds them).
  py.runPython(`import importlib\nimportlib.invalidate_caches()\nimport ${MODULOS.join(", ")}`);
  puestos.add(py);
}
