// The page's Python: one Pyodide per worker, driven by messages {id, type, ...}; every answer and
// every progress message carries the id of the request it belongs to.
//
// Page → worker:
//   {id, type: "iniciar", pagina, interrupcion?, espera?, instantanea?, sitio?}
//       start Pyodide (idempotent) → {version, arranque}; the start answers only once the page's
//       "encargo" (below) has come, and waits for it only where it uses it.
//       `interrupcion` (a 1-byte SharedArrayBuffer view, Pyodide's interrupt buffer) and
//       `espera` (a SharedArrayBuffer, lib/espera.js) come when the page is cross-origin isolated.
//   {type: "encargo", calificador?, precargar?}   (no id, no answer)
//       what the page's widgets need, sent once their scripts have all run. `calificador` (true)
//       when the page has a challenge: the grader (lib/calificador.js, bundled here) is then in
//       place, and its guard taken, before any cell runs (trabajador_desafios.py's guardar).
//       `precargar` (URLs relative to the page): as "precargar" below, fetched while Pyodide
//       starts and handed to Python before the start's answer.
//   {id, type: "ejecutar", codigo, nombre}
//       run a cell's code in the page's namespace → trabajador.py's ejecutar: {estado, …}
//   {id, type: "calificar", desafio, codigo, solucion, urls, runtime_modulos}
//       grade a challenge (urls: the widget's {desafios, runtime}) →
//       {estado: "ok", resultado: <the engine's result>} | {estado: "detenido", prueba: name|null}
//   {id, type: "medir", tareas, variantes, modelo, veces, tope, limite}     the bench (lib/banco-trabajador.js)
//       → {estado: "ok" | "detenido", resumen, vista, segundos} | {estado: "falta" | "no-vale", …}
//   {id, type: "resumir", ejecuciones, variantes}    the bench's summary of runs → {resumen, vista}
//   {id, type: "precargar", urls}
//       fetch files the cells will open_url (relative to the page), for trabajador.py's open_url
//   {type: "sitio", controlado?, sirve?, propio?}   (no id, no answer; also `sitio` in "iniciar")
//       what the page knows of the site: whether its service worker controls the page (the
//       course's model answers through it), whether the page serves that model, and the reader's
//       own server ({origen, url}, or null), the one other origin the guard lets through. Read by
//       trabajador.py's url_del_modelo() and servidor_propio() through `sitio` of the module
//       `_bucle_pagina`. On a page that serves the model or has such a server, the worker imports
//       what a request needs once it is idle (trabajador.py's preparar_red).
// Worker → page:
//   {id, type: "progreso", fase: "descarga", cargado, total}     first download only  } of the
//   {id, type: "progreso", fase: "preparando", descargado}       Pyodide is starting  } "iniciar"
//   {id, type: "calificacion", evento: "empieza" | "prueba" | "resultado", nombre?, resultado?}
//                                                                a check as it goes (no trace)
//   {id, type: "banco", evento: "empieza" | "ejecucion", …}      the bench: its start, each run at once
//   {id, type: "salida", flujo, texto, omitidas?}                stdout/stderr, in order
//   {id, type: "pregunta", tipo: "permiso", pregunta, detalle, partes?}   Python waits for the reader
//   {id, type: "pregunta", tipo: "entrada", pregunta}            (input(): pregunta = prompt)
//   {id, type: "hecho", resultado} | {id, type: "fallo", error}  the answer
//
// Waiting for the reader (lib/espera.js): trabajador.py's preguntar_en_la_pagina and input()
// call `esperar` of the JS module `_bucle_pagina` (MODULO_DE_LA_PAGINA). During a cell's run on
// an isolated page, the worker sends what Python printed so far, posts a "pregunta" and blocks in
// Atomics.wait until the page writes the answer into `espera` (or a stop, or «nobody here can
// answer»). Never while grading, and never without `espera`: then Python is told it cannot wait.
// Detener wakes the wait as a stop: the interrupt buffer is cleared here, and Python raises
// KeyboardInterrupt itself.
//
// Memory snapshot (lib/instantanea.js; off when the page sends instantanea: false): a start
// restores Python from a stored snapshot when there is one (arranque: "instantanea"), else starts
// normally (arranque: "normal") and, once the page has been idle for a moment, asks a throwaway
// worker (this same module, message {type: "instantanea", clave}) to make one: the instance that
// made a snapshot is left broken (its `js` getters fail), so the live worker never makes it.
// Where the course's service worker controls the page, Pyodide's interpreter is fetched through
// it, and V8 keeps the code it compiled for it between visits (POR_EL_SERVICIO, below).
import codigoCeldas from "../trabajador/trabajador.py";
import codigoDesafios from "../trabajador/trabajador_desafios.py";
import { TEXTO_DEL_BANCO, ponerBanco } from "./lib/banco-trabajador.js";
import { fetchDesde, leerTextos, traerArchivos } from "./lib/descarga.js";
import { EnvioPorLotes } from "./lib/salida.js";
import { Sitio } from "./lib/sitio.js";
import { cerrarAlExterior } from "./lib/solo-origen.js";
import { TEXTO_DEL_CALIFICADOR, ponerCalificador } from "./lib/calificador.js";
import { esperar } from "./lib/espera.js";
import { Ocio } from "./lib/ocio.js";
import { ponerInterrupcion } from "./lib/interrupcion.js";
import { PYTHON } from "./lib/textos.js";
import {
  InstantaneaCorrupta,
  PRECARGA,
  anotarFallo,
  borrarInstantanea,
  buscarInstantanea,
  claveDeInstantanea,
  faltaInstantanea,
  guardarInstantanea,
  hechaPorElServicio,
  unaVez,
  verificada,
} from "./lib/instantanea.js";

const PYODIDE = new URL("../pyodide/", import.meta.url).href;
const RAIZ = new URL("../../", import.meta.url).href; // this module is <raíz>/_static/bucle/
const RUEDAS = new URL("ruedas/", import.meta.url).href; // the wheels the cells may import (widgets/construccion/publicar.py)

/** What the page told of the site (see the header's "sitio"). */
const sitio = new Sitio({ raiz: RAIZ, ruedas: RUEDAS });
cerrarAlExterior(self, { permitido: () => sitio.permitido() });

/**
 * Whether this worker was made while the course's service worker controlled the page
 * (python.js ends its URL with "#servicio"): its requests then go through it, which answers
 * Pyodide's interpreter out of its own cache; fetched from there, the wasm's compiled code is
 * kept by V8 between visits (lib/descarga.js). The snapshot's maker, made by this module with its
 * own URL, inherits it.
 */
const POR_EL_SERVICIO = new URL(import.meta.url).hash === "#servicio";

/** `leer` of the module `_bucle_pagina`: the bytes of a file of the site, read synchronously. */
function leerBytes(url) {
  const xhr = new XMLHttpRequest();
  xhr.open("GET", new URL(String(url), RAIZ).href, false);
  xhr.responseType = "arraybuffer";
  xhr.send();
  if (xhr.status !== 200) throw new Error(PYTHON.http(String(url), xhr.status));
  return new Uint8Array(xhr.response);
}
// Pyodide's modules, imported as soon as this worker exists (it exists to start Python), while
// the page's first message is still on its way. loadPyodide would import its Emscripten module
// (≈ 1 MB of JS) only late: it is handed this one (`createPyodideModule`).
const MODULOS = [import(PYODIDE + "pyodide.mjs"), import(PYODIDE + "pyodide.asm.mjs")];
MODULOS.forEach((m) => m.catch(() => {})); // a failure is told when the start awaits them

// Pyodide's files (out of the Cache API, or the first visit's download) and the stored snapshot
// are looked for as soon as Pyodide's version is known, too: the start message waits for the
// page's scripts, and the worker for Pyodide's JavaScript. The first start takes them
// (`lecturas`); the download's progress until then is kept for it.
const descarga = { oyente: null, ultimo: null };
const ANTICIPADAS = MODULOS[0].then(({ version }) => lecturas(version, (progreso) => {
  descarga.ultimo = progreso;
  descarga.oyente?.(progreso);
}));
ANTICIPADAS.catch(() => {});

/** The reads of `version`'s files and of its snapshot (each a promise: told when awaited). */
function lecturas(version, alProgreso) {
  const comoRespuesta = POR_EL_SERVICIO ? ["pyodide.asm.wasm"] : [];
  const archivos = traerArchivos(PYODIDE, version, alProgreso, { comoRespuesta });
  const instantanea = (async () => {
    const clave = await claveDeInstantanea(version, codigoCeldas + codigoDesafios + TEXTO_DEL_BANCO + TEXTO_DEL_CALIFICADOR);
    return { clave, guardada: await buscarInstantanea(PYODIDE, clave) };
  })().catch(() => ({}));
  archivos.catch(() => {});
  return { archivos, instantanea };
}

let pyodide = null;
let arrancando = null;
let funciones = null; // PyProxies of the worker's Python functions, kept for the worker's life
let actual = null; // id of the message whose output is being produced
let caido = false; // Pyodide failed fatally: what it writes now is its own dump, not the reader's
let tipoActual = null; // type of the message being handled ("ejecutar", "calificar"…)
let interrupcion = null; // the page's interrupt buffer, when it is isolated
let espera = null; // the page's buffer of the waits (lib/espera.js), when it is isolated

const decodificadores = { stdout: new TextDecoder(), stderr: new TextDecoder() };

function escritor(flujo) {
  return {
    write(bytes) {
      if (caido) return bytes.length;
      const texto = decodificadores[flujo].decode(bytes, { stream: true });
      if (texto) envio.añadir(flujo, texto);
      return bytes.length;
    },
  };
}

// Output goes to the page in batches, at most one every 40 ms (lib/salida.js).
const envio = new EnvioPorLotes((segmento) => postMessage({ id: actual, type: "salida", ...segmento }));

/**
 * `esperar` of the module `_bucle_pagina` (trabajador.py's _esperar): `peticion` is JSON
 * ({tipo, pregunta, detalle?, partes?}); the answer is JSON, {estado: "respondido", texto} |
 * {estado: "detenido"} | {estado: "sin-lector"} | {estado: "sin-aislamiento"}.
 */
function esperarALaPagina(peticion) {
  if (!espera) return JSON.stringify({ estado: "sin-aislamiento" });
  if (tipoActual !== "ejecutar") return JSON.stringify({ estado: "sin-lector" }); // grading never waits
  envio.vaciar(); // the reader sees what the cell printed before the question
  const datos = JSON.parse(String(peticion));
  const respuesta = esperar(espera, () => postMessage({ ...datos, id: actual, type: "pregunta" }), {
    interrumpido: () => Boolean(interrupcion && Atomics.load(interrupcion, 0)),
  });
  // The stop's interrupt is spent here: Python raises KeyboardInterrupt once, by itself.
  if (respuesta.estado === "detenido" && interrupcion) Atomics.store(interrupcion, 0, 0);
  envio.pronto(); // what the cell prints after the answer shows at once
  return JSON.stringify(respuesta);
}

/**
 * The module `_bucle_pagina` of the worker's Python, handed to trabajador.py's preparar, which
 * puts it in sys.modules itself: importing it through Python's import system (as
 * `registerJsModule` would have it) took 20–34 ms in a worker restored from the snapshot.
 */
const MODULO_DE_LA_PAGINA = { esperar: esperarALaPagina, sitio: () => sitio.paraPython(), leer: leerBytes };

/** A Pyodide started with `opciones`, handed the big files the worker already holds. */
async function arrancar(loadPyodide, archivos, opciones = {}) {
  // Pyodide fetches the wasm and the standard library itself: hand it the bytes we hold.
  const fetchOriginal = globalThis.fetch;
  globalThis.fetch = fetchDesde(archivos, fetchOriginal);
  try {
    return await loadPyodide({ indexURL: PYODIDE, checkAPIVersion: true, ...opciones });
  } finally {
    globalThis.fetch = fetchOriginal;
  }
}

/**
 * Pyodide's files; the key its snapshot would have (null when snapshots are off) and the stored
 * snapshot's response (null when there is none), looked up while the files are read.
 */
async function traerPyodide({ instantanea = true } = {}, alProgreso = () => {}) {
  const { loadPyodide, version } = await MODULOS[0];
  let leidas;
  if (descarga.oyente === null) { // this worker's first start: the reads begun with the worker
    leidas = await ANTICIPADAS;
    descarga.oyente = alProgreso;
    if (descarga.ultimo) alProgreso(descarga.ultimo);
  } else {
    leidas = lecturas(version, alProgreso);
  }
  const [{ archivos, descargado, guardado }, { clave = null, guardada = null }, { default: crear }] =
    await Promise.all([leidas.archivos, instantanea ? leidas.instantanea : {}, MODULOS[1]]);
  const cargarPyodide = (opciones) => loadPyodide({ createPyodideModule: crear, ...opciones });
  return { loadPyodide: cargarPyodide, archivos, descargado, guardado, clave, guardada };
}

/**
 * Note when `py` fails fatally (its stack overflowed printing a very deep structure, say), as it
 * starts to: Pyodide's fatal-error handler (API.fatal_error in pyodide.asm.mjs, a private API)
 * writes the interpreter's own dump («Stack (most recent call first): File …») to stderr before
 * it throws, and the reader must not see it. What the run wrote before stays; the page is told
 * by the exception and starts a new worker.
 */
function vigilarFatal(py) {
  const api = py._api;
  const original = api?.fatal_error;
  if (typeof original !== "function" || original.vigilado) return;
  const vigilado = function (error) {
    // (A call without the GIL is thrown back without breaking Pyodide: it is not fatal.)
    if (!(api.NoGilError && error instanceof api.NoGilError)) caido = true;
    return original.call(this, error);
  };
  vigilado.vigilado = true;
  api.fatal_error = vigilado;
}

const CASA = "/home/pyodide";

/**
 * The worker's Python halves in `py` (the files too: files written before a snapshot are not
 * in it): trabajador.py (the cells), trabajador_desafios.py (the checks), which reads the
 * site with the cells' open_url, and the bench (lib/banco-trabajador.js).
 */
function importarTrabajador(py) {
  py.FS.writeFile(`${CASA}/trabajador.py`, codigoCeldas);
  py.FS.writeFile(`${CASA}/trabajador_desafios.py`, codigoDesafios);
  py.runPython("import trabajador, trabajador_desafios\ntrabajador_desafios.preparar(trabajador.open_url)");
  return { celdas: py.pyimport("trabajador"), desafios: py.pyimport("trabajador_desafios"), banco: ponerBanco(py) };
}

/** The page's "encargo" (see the header), once it comes. */
let alEncargo = null;
const encargo = new Promise((resolver) => (alEncargo = resolver));

async function cargar(datos) {
  const { id } = datos;
  const avisar = ({ cargado, total }) => postMessage({ id, type: "progreso", fase: "descarga", cargado, total });
  const leidos = encargo.then(({ precargar }) => leerTextos(precargar, datos.pagina)); // beside Pyodide's start
  const { loadPyodide, archivos, descargado, guardado, clave, guardada } = await traerPyodide(datos, avisar);
  postMessage({ id, type: "progreso", fase: "preparando", descargado });
  let py = null;
  let modulos = null;
  let arranque = "normal";
  if (guardada) {
    const bytes = verificada(PYODIDE, clave, guardada);
    bytes.catch(() => {}); // handled below, when loadPyodide rejects with it
    try {
      py = await arrancar(loadPyodide, archivos, { _loadSnapshot: unaVez(bytes) });
      modulos = importarTrabajador(py);
      // The snapshot froze random's state: every restored worker would draw the same numbers.
      py.runPython("import random\nrandom.seed()");
      arranque = "instantanea";
    } catch (error) {
      py = null;
      // A corrupt one was deleted (and will be made again); one that verified but does not
      // restore is not made again for this key.
      if (!(error instanceof InstantaneaCorrupta)) {
        await borrarInstantanea(PYODIDE, clave);
        await anotarFallo(PYODIDE, clave, `al restaurar: ${error}`);
      }
    }
  }
  if (!py) {
    py = await arrancar(loadPyodide, archivos);
    modulos = importarTrabajador(py);
  }
  // A new worker, restored or not, has none of these: set them every time.
  py.setStdout(escritor("stdout"));
  py.setStderr(escritor("stderr"));
  py.setStdin({ error: true });
  vigilarFatal(py);
  if (datos.interrupcion) ponerInterrupcion(py, datos.interrupcion);
  interrupcion = datos.interrupcion ?? null;
  espera = datos.espera ?? null;
  funciones = {
    preparar: modulos.celdas.preparar,
    ejecutar: modulos.celdas.ejecutar,
    precargado: modulos.celdas.precargado,
    calentar: modulos.celdas.calentar,
    prepararRed: modulos.celdas.preparar_red,
    calificar: modulos.desafios.calificar_mensaje,
    guardar: modulos.desafios.guardar,
    medir: modulos.banco.medir_mensaje,
    resumir: modulos.banco.resumir_mensaje,
  }; // (attributes borrowed from the modules' proxies, which live as long as the worker)
  // The engine's guard is taken now, before the cells' preparar and before any cell runs.
  if ((await encargo).calificador) {
    ponerCalificador(py);
    funciones.guardar().destroy();
  }
  // The throwaway worker that makes the snapshot reads Pyodide's files from the cache: once
  // this start's download is written there. A snapshot made by a worker whose requests did not
  // go through the course's service worker is made again, once, by one whose do: its two full
  // starts compile enough for V8 to write the interpreter's code at once (over 1 MB optimized),
  // where a restore compiles too little for it to write any.
  const rehacer = arranque === "instantanea" && POR_EL_SERVICIO && !hechaPorElServicio(guardada);
  if ((arranque === "normal" || rehacer) && clave) { // (not awaited: the first run does not wait for it)
    faltaInstantanea(PYODIDE, clave, { rehacer }).then((falta) => falta && guardado.then(() => programarInstantanea(clave)));
  }
  return { py, arranque, leidos };
}

async function iniciar(datos) {
  sitio.ajustar(datos.sitio);
  if (!arrancando) {
    arrancando = (async () => {
      const { py, arranque, leidos } = await cargar(datos);
      funciones.preparar(datos.pagina, MODULO_DE_LA_PAGINA);
      for (const par of await leidos) funciones.precargado(...par);
      funciones.pagina = datos.pagina;
      pyodide = py;
      if (arranque === "instantanea") alReposo("calentar");
      if (sitio.conRed()) alReposo("red");
      return arranque;
    })();
  }
  const arranque = await arrancando;
  return { version: pyodide.version, arranque };
}

// ---- when the page is idle: the snapshot (made in a throwaway worker), and warming up ----

/** How long the worker must have been idle before a snapshot is made (ms). */
const OCIO = 1000;
/**
 * … and before it does what the reader's first run would otherwise pay for (`alReposo`).
 */
const CALENTAR = 300;
const ocio = new Ocio();
let compilado = false; // a run or a check has been handled: Python's compiler has run
const EN_REPOSO = {
  // After a restore from the snapshot: Python's compiler, on the files the cells read (unless a
  // run or a check has compiled already).
  calentar: () => !compilado && funciones.calentar(),
  // On a page whose cells send HTTP requests: the imports of the first one (sitio.conRed()).
  red: () => sitio.conRed() && funciones.prepararRed(),
};
/** EN_REPOSO[nombre], once per worker, when it has been idle for CALENTAR ms. */
const alReposo = (nombre) => ocio.unaVez(nombre, CALENTAR, EN_REPOSO[nombre]);

function programarInstantanea(clave) {
  ocio.cuando(OCIO, () => {
    const ayudante = new Worker(import.meta.url, { type: "module", name: "python-instantanea" });
    const acabar = () => ayudante.terminate();
    ayudante.onmessage = ({ data }) => {
      if (data.type === "hecho" || data.type === "fallo") acabar();
    };
    ayudante.onerror = acabar;
    ayudante.postMessage({ id: 1, type: "instantanea", clave });
  });
}

/**
 * Make the snapshot of `clave` (in a throwaway worker): start Pyodide with the worker's Python
 * and the usual modules imported, dump its memory, restore the dump in a second instance and run a line
 * there (a dump larger than the memory a restore starts with, for one, fails only then), and
 * only then store it.
 */
async function hacerInstantanea({ clave }) {
  const inicio = performance.now();
  const { loadPyodide, archivos } = await traerPyodide({ instantanea: false });
  try {
    const origen = await arrancar(loadPyodide, archivos, { _makeSnapshot: true });
    for (const modulo of Object.values(importarTrabajador(origen))) modulo.destroy();
    ponerCalificador(origen, { todo: true }); // the grading engine, for the pages that have a challenge
    origen.runPython(`import ${PRECARGA.join(", ")}`);
    const bytes = origen.makeMemorySnapshot();

    const copia = await arrancar(loadPyodide, archivos, { _loadSnapshot: bytes });
    let salida = "";
    copia.setStdout({ batched: (texto) => (salida += texto) });
    const { celdas } = importarTrabajador(copia);
    celdas.preparar(PYODIDE);
    const resultado = aJS(celdas.ejecutar("import js\nprint(6 * 7, js.Math.max(1, 2))", "<prueba>"));
    if (resultado.estado !== "ok" || salida !== "42 2") {
      throw new Error(`la copia restaurada no funciona: ${JSON.stringify(resultado)} ${salida}`);
    }
    const guardada = await guardarInstantanea(PYODIDE, clave, bytes, { porElServicio: POR_EL_SERVICIO });
    return { guardada, bytes: bytes.length, ms: Math.round(performance.now() - inicio) };
  } catch (error) {
    await anotarFallo(PYODIDE, clave, error);
    throw error;
  }
}

function aJS(valor) {
  if (valor && typeof valor.toJs === "function") {
    const js = valor.toJs({ dict_converter: Object.fromEntries, create_pyproxies: false });
    valor.destroy();
    return js;
  }
  return valor;
}

/**
 * Fetch `urls` (the files the page's cells read with open_url) and hand each to trabajador.py,
 * whose open_url then serves it without a synchronous request. Best effort: a file that fails
 * is left to open_url. Runs beside the cells (it never holds Python for long).
 */
async function precargar({ urls = [] }) {
  const leidos = await leerTextos(urls, funciones.pagina);
  for (const par of leidos) funciones.precargado(...par);
  return leidos.length;
}

const ACCIONES = {
  iniciar,
  precargar,
  instantanea: hacerInstantanea,
  async ejecutar({ codigo, nombre }) {
    return aJS(funciones.ejecutar(codigo, nombre));
  },
  async calificar(datos) {
    ponerCalificador(pyodide);
    return JSON.parse(funciones.calificar(JSON.stringify(datos)));
  },
  async medir(datos) {
    ponerCalificador(pyodide); // its watchdog limits each run of the reader's agent
    return JSON.parse(funciones.medir(JSON.stringify(datos)));
  },
  resumir: async (datos) => JSON.parse(funciones.resumir(JSON.stringify(datos))),
};

/** Messages that do not need this worker's Python started first. */
const SIN_PYTHON = new Set(["iniciar", "instantanea"]);
/** Messages handled beside the runs (they print nothing and never hold Python for long). */
const APARTE = new Set(["precargar"]);

self.onmessage = async ({ data }) => {
  const { id, type } = data;
  if (type === "sitio") {
    sitio.ajustar(data);
    if (pyodide && sitio.conRed()) alReposo("red");
    return;
  }
  if (type === "encargo") {
    alEncargo(data);
    return;
  }
  const accion = ACCIONES[type];
  if (!accion) {
    postMessage({ id, type: "fallo", error: PYTHON.desconocida(type) });
    return;
  }
  if (APARTE.has(type)) {
    // Beside whatever runs: no output, and Python must have been started by the page.
    try {
      if (!arrancando) throw new Error(PYTHON.sinIniciar);
      await arrancando;
      postMessage({ id, type: "hecho", resultado: await accion(data) });
    } catch (error) {
      postMessage({ id, type: "fallo", error: String(error && error.message ? error.message : error) });
    }
    return;
  }
  ocio.empieza();
  try {
    if (!SIN_PYTHON.has(type) && !pyodide) await iniciar(data);
    actual = id;
    tipoActual = type;
    if (!SIN_PYTHON.has(type)) compilado = true;
    envio.empezar(); // the first output of a run shows at once
    const resultado = await accion(data);
    envio.vaciar();
    postMessage({ id, type: "hecho", resultado });
  } catch (error) {
    envio.vaciar();
    postMessage({ id, type: "fallo", error: String(error && error.message ? error.message : error) });
  } finally {
    tipoActual = null;
    ocio.acaba();
  }
};
