// The page's Python: one Pyodide per worker, driven by messages {id, type, ...}.
//
// Page → worker:  {id, type: "iniciar", pagina, interrupcion?}   start Pyodide (idempotent)
//                 {id, type: "ejecutar", codigo, nombre}          run code in the page's namespace
//                 {id, type: "llamar", funcion, args}             call a helper of trabajador.py
// Worker → page:  {id, type: "progreso", cargado, total}          while Pyodide downloads
//                 {id, type: "salida", flujo, texto}              stdout/stderr, in order
//                 {id, type: "hecho", resultado} | {id, type: "fallo", error}
import codigoTrabajador from "./trabajador.py";

const PYODIDE = new URL("../pyodide/", import.meta.url).href;

let pyodide = null;
let arrancando = null;
let trabajador = null; // the Python module trabajador.py, as a PyProxy kept for the worker's life
let actual = null; // id of the message whose output is being produced

const decodificadores = { stdout: new TextDecoder(), stderr: new TextDecoder() };

function escritor(flujo) {
  return {
    write(bytes) {
      const texto = decodificadores[flujo].decode(bytes, { stream: true });
      if (texto) salida(flujo, texto);
      return bytes.length;
    },
  };
}

// Output is sent in small batches: a loop that prints forever must not flood the page with
// one message per line. The Python side caps the total.
let pendiente = [];
let ultimoEnvio = 0;
function salida(flujo, texto) {
  const ultimo = pendiente[pendiente.length - 1];
  if (ultimo && ultimo.flujo === flujo) ultimo.texto += texto;
  else pendiente.push({ flujo, texto });
  const ahora = performance.now();
  if (ahora - ultimoEnvio > 40) vaciar();
}
function vaciar() {
  ultimoEnvio = performance.now();
  for (const { flujo, texto } of pendiente) postMessage({ id: actual, type: "salida", flujo, texto });
  pendiente = [];
}

async function iniciar({ pagina, interrupcion }) {
  if (!arrancando) {
    arrancando = (async () => {
      const { loadPyodide } = await import(PYODIDE + "pyodide.mjs");
      const py = await loadPyodide({ indexURL: PYODIDE, checkAPIVersion: true });
      py.setStdout(escritor("stdout"));
      py.setStderr(escritor("stderr"));
      py.setStdin({ error: true });
      if (interrupcion) py.setInterruptBuffer(interrupcion);
      py.FS.writeFile("/home/pyodide/trabajador.py", codigoTrabajador);
      trabajador = py.pyimport("trabajador");
      trabajador.preparar(pagina);
      pyodide = py;
    })();
  }
  await arrancando;
  return { version: pyodide.version };
}

function aJS(valor) {
  if (valor && typeof valor.toJs === "function") {
    const js = valor.toJs({ dict_converter: Object.fromEntries, create_pyproxies: false });
    valor.destroy();
    return js;
  }
  return valor;
}

const ACCIONES = {
  iniciar,
  async ejecutar({ codigo, nombre }) {
    return aJS(trabajador.ejecutar(codigo, nombre));
  },
  async llamar({ funcion, args }) {
    const f = trabajador[funcion];
    try {
      return aJS(f(...(args || [])));
    } finally {
      f.destroy();
    }
  },
};

self.onmessage = async ({ data }) => {
  const { id, type } = data;
  const accion = ACCIONES[type];
  if (!accion) {
    postMessage({ id, type: "fallo", error: `mensaje desconocido: ${type}` });
    return;
  }
  if (type !== "iniciar" && !pyodide) await iniciar(data);
  actual = id;
  try {
    const resultado = await accion(data);
    vaciar();
    postMessage({ id, type: "hecho", resultado });
  } catch (error) {
    vaciar();
    postMessage({ id, type: "fallo", error: String(error && error.message ? error.message : error) });
  }
};
