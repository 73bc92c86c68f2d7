// The page's Python: one Pyodide per worker, driven by messages {id, type, ...}.
//
// Page → worker:  {id, type: "iniciar", pagina, interrupcion?}   start Pyodide (idempotent)
//                 {id, type: "ejecutar", codigo, nombre}          run code in the page's namespace
//                 {id, type: "llamar", funcion, args}             call a helper of trabajador.py
// Worker → page:  {type: "progreso", fase: "descarga", cargado, total}   first download only
//                 {type: "progreso", fase: "preparando"}                  Pyodide is starting
//                 {id, type: "salida", flujo, texto, omitidas?}   stdout/stderr, in order
//                 {id, type: "hecho", resultado} | {id, type: "fallo", error}
import codigoTrabajador from "./trabajador.py";
import { fetchDesde, traerArchivos } from "./lib/descarga.js";
import { Salida } from "./lib/salida.js";

const PYODIDE = new URL("../pyodide/", import.meta.url).href;

let pyodide = null;
let arrancando = null;
let funciones = null; // PyProxies of trabajador.py's functions, kept for the worker's life
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

// Output is sent in batches, at most one every 40 ms: a loop that prints forever must not flood
// the page with one message per line. A batch keeps only its last part (lib/salida.js), and
// while output overflows batches are sent every 250 ms only, so millions of lines never cross
// postMessage; the page is told how much was left out. (A batch is sent on the first write after
// its interval: while Python runs, the worker has no timers.)
const lote = new Salida();
let ultimoEnvio = 0;
let intervalo = 40;
function salida(flujo, texto) {
  lote.añadir(flujo, texto);
  if (performance.now() - ultimoEnvio > intervalo) vaciar();
}
function vaciar() {
  ultimoEnvio = performance.now();
  const { segmentos, omitidas } = lote.tomar();
  intervalo = omitidas.caracteres ? 250 : 40;
  segmentos.forEach(({ flujo, texto }, i) => {
    const mensaje = { id: actual, type: "salida", flujo, texto };
    if (i === 0 && omitidas.caracteres) mensaje.omitidas = omitidas;
    postMessage(mensaje);
  });
}

async function cargar(interrupcion) {
  const { loadPyodide, version } = await import(PYODIDE + "pyodide.mjs");
  const { archivos, descargado } = await traerArchivos(PYODIDE, version, ({ cargado, total }) =>
    postMessage({ type: "progreso", fase: "descarga", cargado, total }),
  );
  postMessage({ type: "progreso", fase: "preparando", descargado });
  // Pyodide fetches the wasm and the standard library itself: hand it the bytes we hold.
  const fetchOriginal = globalThis.fetch;
  globalThis.fetch = fetchDesde(archivos, fetchOriginal);
  let py;
  try {
    py = await loadPyodide({ indexURL: PYODIDE, checkAPIVersion: true });
  } finally {
    globalThis.fetch = fetchOriginal;
  }
  py.setStdout(escritor("stdout"));
  py.setStderr(escritor("stderr"));
  py.setStdin({ error: true });
  if (interrupcion) py.setInterruptBuffer(interrupcion);
  py.FS.writeFile("/home/pyodide/trabajador.py", codigoTrabajador);
  const modulo = py.pyimport("trabajador");
  funciones = {};
  for (const nombre of ["preparar", "ejecutar"]) funciones[nombre] = modulo[nombre];
  funciones.modulo = modulo;
  return py;
}

async function iniciar({ pagina, interrupcion }) {
  if (!arrancando) {
    arrancando = (async () => {
      const py = await cargar(interrupcion);
      funciones.preparar(pagina);
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
    return aJS(funciones.ejecutar(codigo, nombre));
  },
  async llamar({ funcion, args }) {
    const f = funciones.modulo[funcion];
    if (typeof f !== "function") throw new Error(`trabajador.py no tiene la función ${funcion}`);
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
  try {
    if (type !== "iniciar" && !pyodide) await iniciar(data);
    actual = id;
    intervalo = 40;
    ultimoEnvio = 0; // the first output of a run shows at once
    const resultado = await accion(data);
    vaciar();
    postMessage({ id, type: "hecho", resultado });
  } catch (error) {
    vaciar();
    postMessage({ id, type: "fallo", error: String(error && error.message ? error.message : error) });
  }
};
