// The grading engine in the worker's Python: the files of the package `calificador` (published
// under _static/bucle/calificador/, listed in a challenge widget's data) fetched once and written
// into Pyodide's file system beside the worker's Python, where trabajador_desafios.py imports it.
// No DOM.
//
//   const motor = new Motor();
//   motor.traer({ url, archivos }, base);    // starts the downloads (again only for another url)
//   await motor.poner(py);                   // writes the files (once per Python)
import { PYTHON } from "./textos.js";

export class Motor {
  constructor(carpeta = "/home/pyodide/calificador") {
    this.carpeta = carpeta;
    this.url = null;
    this.textos = null;
    this.escrito = false;
  }

  /** Fetch the engine's files: `url`, its folder (relative to `base`), and `archivos`, their names. */
  traer({ url, archivos = [] }, base) {
    const carpeta = new URL(url, base).href;
    if (this.url === carpeta && this.textos) return this;
    this.url = carpeta;
    this.escrito = false;
    this.textos = Promise.all(archivos.map(async (archivo) => {
      const direccion = new URL(archivo, carpeta).href;
      const respuesta = await fetch(direccion);
      if (!respuesta.ok) throw new Error(PYTHON.http(direccion, respuesta.status));
      return [archivo, await respuesta.text()];
    }));
    this.textos.catch(() => {}); // told when poner awaits it
    return this;
  }

  /** Write the files into `py` as the package; files that could not be fetched are fetched
   *  again by the next traer. */
  async poner(py) {
    if (this.escrito) return;
    let textos;
    try {
      textos = await this.textos;
    } catch (error) {
      this.textos = null;
      throw error;
    }
    for (const [archivo, texto] of textos) {
      const ruta = `${this.carpeta}/${archivo}`;
      py.FS.mkdirTree(ruta.slice(0, ruta.lastIndexOf("/")));
      py.FS.writeFile(ruta, texto);
    }
    py.runPython("import importlib\nimportlib.invalidate_caches()"); // new files in a known folder
    this.escrito = true;
  }
}
