// The page's Python: one worker per page, made by a factory so that a restart is ordinary.
//
//   import { python } from "./python.js";
//   const r = await python.ejecutar("print(1)", "<celda 1>", { alSalir: (flujo, texto, omitidas) => ...,
//                                   alPreguntar: (pregunta, responder) => ... });
//   const r = await python.calificar({ desafio, codigo, solucion, urls, runtime_modulos },
//                                    { alCalificar: ({ evento, nombre, resultado }) => ... });
//   const r = await python.medir({ tareas, variantes, modelo, veces, tope, limite },
//                                { alMedir: ({ evento, ejecucion, lineas, vista }) => ... });
//   cuandoQuieto(python, () => ...);   // once Python has started and runs nothing, the page idle
//
// The messages are trabajador.js's (its header is the protocol): each request has an id, and what
// the worker says about it (output, progress, a check's steps, the answer) goes to that request's
// callbacks.
// Events (python is an EventTarget): "estado" (detail: apagado|arrancando|listo|ocupado),
// "progreso" (Python starting: detail {fase: "descarga", cargado, total} on the first download,
// then {fase: "preparando"}), "reiniciado" (a new worker: the namespace was lost), "deteniendo"
// (Detener was pressed: what the running code waits on may give up).
// Once started, <html data-bucle-arranque="instantanea|normal"> tells how (lib/instantanea.js).
//
// On a cross-origin isolated page, Python can wait for the reader (lib/espera.js): the worker
// posts {type: "pregunta", tipo, pregunta, detalle?, partes?} and blocks; the run's alPreguntar gets it
// with `responder(texto)`, which wakes Python with that answer (a second call, or one after a
// stop, does nothing). Detener wakes the wait as a stop. A run without alPreguntar answers
// «nobody here» at once (Python gets None, or input()'s EntradaNoDisponible).

import { PYTHON } from "./lib/textos.js";
import { cuandoEsteOciosa } from "./piezas/dom.js";
import { leerPropia } from "./lib/servidor-propio.js";
import { Esperas, crearEspera } from "./lib/espera.js";

// What python-temprano.js shares with this module (see its header).
const VISTO = "bucle:python-visto";
const TRABAJADOR = Symbol.for("bucle:trabajador-temprano");
const HECHO = "bucle:trabajador-temprano"; // the event it fires on globalThis once it made one

/**
 * The worker python-temprano.js made as the page loaded, if any. It is taken only once, and the
 * slot stays taken (null), so that the early script, if it runs later (it is async), makes none.
 */
function tomarTrabajadorTemprano() {
  const trabajador = globalThis[TRABAJADOR] ?? null;
  globalThis[TRABAJADOR] = null;
  return trabajador;
}

/** Note, for python-temprano.js on the next pages, whether Python started in this browser. */
function anotarArranque(bien) {
  try {
    if (bien) localStorage.setItem(VISTO, "1");
    else localStorage.removeItem(VISTO);
  } catch {
    // (no storage: every page starts Python as on a first visit)
  }
}

export function crearTrabajador() {
  const temprano = tomarTrabajadorTemprano();
  if (temprano) return temprano;
  const direccion = new URL("./trabajador.js", import.meta.url);
  const archivo = direccion.href; // named when it cannot be loaded
  // Where the course's service worker controls the page, the worker's requests go through it:
  // trabajador.js then fetches Pyodide's interpreter from it (see its POR_EL_SERVICIO).
  if (navigator.serviceWorker?.controller) direccion.hash = "servicio";
  const trabajador = new Worker(direccion, { type: "module", name: "python" });
  trabajador.direccion = archivo;
  return trabajador;
}

/**
 * Why a worker fired "error" while starting: its script (or a module it imports) could not be
 * loaded (a plain Event: a 404, the network gone), or it threw as it was evaluated (an ErrorEvent).
 */
export function motivoDelError(evento, trabajador) {
  if (evento?.message) return String(evento.message).replace(/^Uncaught /, "");
  return PYTHON.noCargo(trabajador?.direccion);
}

/**
 * Whether the worker may start from a memory snapshot (lib/instantanea.js): it may, unless
 * localStorage["bucle:sin-instantanea"] is "1" (the snapshot API is Pyodide's private one).
 */
export function instantaneaActivada() {
  try {
    return globalThis.localStorage?.getItem("bucle:sin-instantanea") !== "1";
  } catch {
    return true;
  }
}

/**
 * Resolves once the page's deferred scripts have all run (DOMContentLoaded has fired): every
 * widget has then told `python` what it needs (conCalificador). A widget's script can run after
 * another's idle callback started Python, when it arrives later over the network.
 */
export function scriptsEjecutados() {
  const navegacion = globalThis.performance?.getEntriesByType?.("navigation")?.[0];
  const documento = globalThis.document;
  if (!documento || !navegacion || navegacion.domContentLoadedEventStart > 0 ||
      documento.readyState === "complete") {
    return Promise.resolve();
  }
  return new Promise((listo) => documento.addEventListener("DOMContentLoaded", () => listo(), { once: true }));
}

/** How long an interrupt may take before Detener falls back to a restart (ms). */
const PACIENCIA = 3000;

export class Python extends EventTarget {
  constructor(fabrica = crearTrabajador) {
    super();
    this.fabrica = fabrica;
    this.trabajador = null;
    this.pendientes = new Map();
    this.siguienteId = 1;
    this.estado = "apagado";
    this.arranque = null;
    this.enCurso = null; // id of the running call
    this.aPrecargar = new Set(); // see precargar
    this.calificador = false; // see conCalificador
    // Interrupting Python needs SharedArrayBuffer, which needs cross-origin isolation.
    this.interrupcion = globalThis.crossOriginIsolated ? new Uint8Array(new SharedArrayBuffer(1)) : null;
    // So does waiting for the reader's answer (lib/espera.js).
    this.esperas = new Esperas(globalThis.crossOriginIsolated ? crearEspera() : null);
    // What the worker must know of the site (trabajador.js, "sitio"): whether the course's service
    // worker controls this page (the course's model answers through it), whether this page serves
    // that model (modelo/servidor.js), and the reader's own model server, the one other origin
    // Python may reach (lib/servidor-propio.js).
    const servicio = globalThis.navigator?.serviceWorker;
    this.sitio = { controlado: Boolean(servicio?.controller), sirve: false, propio: leerPropia() };
    servicio?.addEventListener?.("controllerchange", () => {
      this.ajustarSitio({ controlado: Boolean(servicio.controller) });
    });
  }

  /** Change what the worker knows of the site ({controlado?, propio?}); it hears it at once. */
  ajustarSitio(cambios) {
    Object.assign(this.sitio, cambios);
    this.trabajador?.postMessage({ type: "sitio", ...cambios });
  }

  _cambiar(estado) {
    this.estado = estado;
    this.dispatchEvent(new CustomEvent("estado", { detail: estado }));
  }

  /** Send a request; `oyentes` ({alSalir, alProgreso, alCalificar, alMedir, alPreguntar}) hear
   *  what the worker says about it. */
  _enviar(type, datos = {}, oyentes = {}) {
    const id = this.siguienteId++;
    return {
      id,
      promesa: new Promise((resolve, reject) => {
        this.pendientes.set(id, { resolve, reject, ...oyentes });
        this.trabajador.postMessage({ id, type, ...datos });
      }),
    };
  }

  _recibir(trabajador, { data }) {
    if (trabajador !== this.trabajador) return; // a late message of a worker thrown away
    const pendiente = this.pendientes.get(data.id);
    if (!pendiente) {
      return; // (a request already answered, or given up by a restart)
    } else if (data.type === "progreso") {
      pendiente.alProgreso?.(data);
    } else if (data.type === "calificacion") {
      pendiente.alCalificar?.(data);
    } else if (data.type === "banco") {
      pendiente.alMedir?.(data);
    } else if (data.type === "salida") {
      pendiente.alSalir?.(data.flujo, data.texto, data.omitidas ?? null);
    } else if (data.type === "pregunta") {
      this.esperas.recibir(data, pendiente.alPreguntar); // Python waits for the reader (see the header)
    } else {
      this.pendientes.delete(data.id);
      if (data.type === "hecho") pendiente.resolve(data.resultado);
      else pendiente.reject(new Error(data.error));
    }
  }

  /** Start the worker and Pyodide; safe to call many times. */
  iniciar() {
    if (!this.arranque) {
      const trabajador = this.fabrica();
      this.trabajador = trabajador;
      trabajador.onmessage = (evento) => this._recibir(trabajador, evento);
      this._cambiar("arrancando");
      // Pyodide starts at once; what the page's widgets need before any cell runs (the grading
      // engine, the files the cells read) follows once every widget script of the page has run,
      // and the worker waits for it only to finish its start (trabajador.js, "encargo").
      let precargadas = new Set();
      const inicio = this._enviar("iniciar", {
        pagina: document.baseURI,
        interrupcion: this.interrupcion,
        espera: this.esperas.buffer,
        instantanea: instantaneaActivada(),
        sitio: this.sitio,
      }, { alProgreso: (detalle) => this.dispatchEvent(new CustomEvent("progreso", { detail: detalle })) });
      scriptsEjecutados().then(() => {
        if (this.trabajador !== trabajador) return;
        precargadas = new Set(this.aPrecargar);
        trabajador.postMessage({ type: "encargo", calificador: this.calificador, precargar: [...precargadas] });
      });
      // A worker that cannot load (or throws as it is evaluated) never answers: the "error"
      // event fails the start, and the start's failure below drops that worker.
      trabajador.onerror = (evento) => {
        const pendiente = this.trabajador === trabajador && this.pendientes.get(inicio.id);
        if (!pendiente) return; // after the start: left to the browser to report
        evento.preventDefault?.();
        this.pendientes.delete(inicio.id);
        pendiente.reject(new Error(motivoDelError(evento, trabajador)));
      };
      if (trabajador.errorTemprano) trabajador.onerror(trabajador.errorTemprano); // (python-temprano.js)
      const actual = inicio.promesa.then(
        (info) => {
          anotarArranque(true);
          if (this.trabajador === trabajador) document.documentElement.dataset.bucleArranque = info.arranque;
          if (this.trabajador === trabajador && this.estado === "arrancando") this._cambiar("listo");
          const nuevas = [...this.aPrecargar].some((url) => !precargadas.has(url));
          if (this.trabajador === trabajador && nuevas) this._precargar();
          return info;
        },
        (error) => {
          anotarArranque(false);
          if (this.trabajador === trabajador) {
            // A worker whose start failed is dropped: the next call starts a new one.
            trabajador.terminate();
            this.trabajador = null;
            this.arranque = null;
            this._cambiar("apagado");
          }
          throw error;
        },
      );
      this.arranque = actual;
    }
    return this.arranque;
  }

  /**
   * Files of the site the page's code will read with open_url (URLs relative to the page): the
   * worker fetches them while Python starts (again after a restart), or at once when it has
   * started, and open_url serves them without a request of its own. Best effort.
   */
  precargar(urls) {
    const antes = this.aPrecargar.size;
    for (const url of urls) this.aPrecargar.add(url);
    if (this.aPrecargar.size > antes && this.estado !== "apagado" && this.estado !== "arrancando") {
      this._precargar();
    }
  }

  _precargar() {
    this._enviar("precargar", { urls: [...this.aPrecargar] }).promesa.catch(() => {});
  }

  /**
   * The page has a challenge: a worker started after this call puts the grading engine in place,
   * and takes its guard, before any cell runs (trabajador.js, "iniciar").
   */
  conCalificador() {
    this.calificador = true;
  }

  async _ocupado(type, datos, { alSalir, alCalificar, alMedir, alPreguntar, cancelado } = {}) {
    const arranque = await this.iniciar();
    if (arranque?.estado === "detenido") return arranque; // stopped (restarted) while starting
    if (cancelado?.()) return { estado: "detenido", ejecutado: false }; // stopped before it began
    if (this.interrupcion) this.interrupcion[0] = 0;
    this._cambiar("ocupado");
    const { id, promesa } = this._enviar(type, datos, { alSalir, alCalificar, alMedir, alPreguntar });
    this.enCurso = id;
    try {
      return await promesa;
    } finally {
      if (this.enCurso === id) this.enCurso = null;
      if (this.estado === "ocupado" && !this.enCurso) this._cambiar("listo");
    }
  }

  /**
   * Run code in the page's shared namespace; output streams to alSalir(flujo, texto, omitidas);
   * a question Python waits on goes to alPreguntar({tipo, pregunta, detalle, partes}, responder).
   * `cancelado()`, checked once Python is ready, lets a run stopped while Python was starting
   * end without running.
   */
  ejecutar(codigo, nombre, { alSalir, alPreguntar, cancelado } = {}) {
    return this._ocupado("ejecutar", { codigo, nombre }, { alSalir, alPreguntar, cancelado });
  }

  /**
   * Grade a challenge: `peticion` is {desafio, codigo, solucion, urls, runtime_modulos};
   * `alCalificar({evento, nombre?, resultado?})` hears each test as it goes. Resolves with
   * {estado: "ok", resultado} | {estado: "detenido", prueba} (see trabajador.js).
   */
  calificar(peticion, { alCalificar, cancelado } = {}) {
    return this._ocupado("calificar", peticion, { alCalificar, cancelado });
  }

  /**
   * Run the bench (trabajador_banco.py) in the page's namespace: `peticion` is {tareas, variantes,
   * modelo, veces, tope, limite}; `alMedir({evento: "empieza" | "ejecucion", …})` hears the start
   * and each finished run as it comes. Resolves with {estado: "ok" | "detenido", resumen, vista,
   * segundos} | {estado: "falta", nombre} | {estado: "no-vale", mensaje} (see trabajador.js).
   */
  medir(peticion, { alMedir, cancelado } = {}) {
    return this._ocupado("medir", peticion, { alMedir, cancelado });
  }

  /** The bench's summary of runs the page kept ({ejecuciones, variantes}) → {resumen, vista}. */
  resumirBanco(peticion) {
    return this._ocupado("resumir", peticion);
  }

  /**
   * Stop the running code: an interrupt (KeyboardInterrupt) when the page is cross-origin
   * isolated, falling back to a restart if Python does not stop within a few seconds (code
   * stuck where Python does not look at the interrupt); otherwise the worker is terminated and
   * a new one started. Returns "interrumpido" or "reiniciado". Python waiting for the reader
   * is woken as stopped (after the interrupt is set: the worker clears it, and raises once).
   */
  detener() {
    // Whatever Python waits on outside the page (the course's model, modelo/servidor.js) hears it.
    this.dispatchEvent(new CustomEvent("deteniendo"));
    if (this.interrupcion && this.estado === "ocupado") {
      const id = this.enCurso;
      Atomics.store(this.interrupcion, 0, 2); // SIGINT
      this.esperas.detener();
      setTimeout(() => {
        if (this.enCurso === id && this.pendientes.has(id)) this.reiniciar();
      }, PACIENCIA);
      return "interrumpido";
    }
    this.reiniciar();
    return "reiniciado";
  }

  /** Throw the worker away and start a new one; every pending call ends as "detenido". */
  reiniciar() {
    this.trabajador?.terminate();
    this.trabajador = null;
    this.arranque = null;
    this.enCurso = null;
    this.esperas.olvidar();
    const pendientes = [...this.pendientes.values()];
    this.pendientes.clear();
    this._cambiar("apagado");
    for (const { resolve } of pendientes) resolve({ estado: "detenido", reiniciado: true });
    this.dispatchEvent(new CustomEvent("reiniciado"));
    this.iniciar();
  }
}

/**
 * Call `hacer` once `python` has started and runs nothing, at a moment the page is idle: what
 * can wait (the editors, 100–150 ms of the page's thread) then does not take the processor from
 * Python's start (from its snapshot, about a second) or from a run. Python that failed to start
 * is quiet too. It waits `plazo` ms at most: a first start, which downloads Pyodide, or a long
 * run, takes seconds, and the editors do not wait for them.
 */
export function cuandoQuieto(python, hacer, plazo = 2000) {
  let hecho = false;
  const una = () => {
    if (hecho) return;
    hecho = true;
    hacer();
  };
  const ocupado = () => python.estado === "arrancando" || python.estado === "ocupado";
  const intentar = () => {
    if (hecho) return;
    if (ocupado()) python.addEventListener("estado", intentar, { once: true });
    else cuandoEsteOciosa(() => (ocupado() ? intentar() : una()));
  };
  intentar();
  setTimeout(() => cuandoEsteOciosa(una), plazo);
}

/** The page's one Python. */
export const python = new Python();
// A worker made as the page loaded starts Python at once, before the widgets' scripts have run
// (what they need follows in the "encargo"); python-temprano.js is async, so it may be made after
// this module has run. A failure is told by the widgets, which start it too.
const conTemprano = () => python.iniciar().catch(() => {});
if (globalThis[TRABAJADOR]) conTemprano();
else globalThis.addEventListener?.(HECHO, conTemprano, { once: true });
