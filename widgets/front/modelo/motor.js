// @ts-check
// The course's in-page model: SmolLM2-135M-Instruct with the course's adapter, written by the build
// as an ONNX graph (widgets/construccion/modelo_onnx.py) and run by onnxruntime-web, WebAssembly,
// in a worker of its own (modelo-trabajador.js; generation in modelo/nucleo.js). One engine per
// page (motorDelModelo()), no DOM:
//
//   const motor = motorDelModelo();
//   motor.configurar(datos);     // the widget's data: files (relative to _static/bucle/), sizes,
//                                // SHA-256, onnxruntime's module, the cache's shape
//   motor.estado                 // "sin-descargar" | "descargando" | "cargando" | "listo" | "error"
//   await motor.enCache()        // every file already kept in this browser?
//   await motor.cargar({ alProgreso({ bytes, total }), senal })
//   await motor.generar({ mensajes, esquema, gramatica, max_tokens, senal })
//     → { texto, fin: "stop" | "length", tokensEntrada (processed anew), tokensSalida,
//         tokensReusados (the previous prompt's, reused), tiempos (llama.cpp's names) }
//   motor.preparar(mensajes)     // right after a load: the start the lesson's conversations
//                                // share, read once per browser and kept (motor.preparacion)
//   motor.addEventListener("cambio", …)   // every change of estado
//   motor.cifras, motor.historial         // the last load's times (and its preparation's); the
//                                         // latest generations, each with its prompt, grammar
//                                         // and timings (for the bench)
//
// cargar() fetches the model (its graph and its weights), its tokenizer and onnxruntime's wasm
// from the site (never
// elsewhere), with the bytes as they arrive and an AbortSignal, checks each file's SHA-256
// against the page's data, keeps them in the Cache API (cache "bucle-modelo", each under its URL
// and hash: the next visit downloads nothing, offline too; modelo/archivos.js), then loads the
// model in the worker: every core when the page is cross-origin isolated (else one thread).
// generar() runs one answer at a time, greedy, held to the output's schema, reusing the longest
// prefix the prompt shares with what the model read before. A machine that cannot run it gets
// one Spanish sentence as the error.
import { MODELO } from "../lib/textos.js";
import { abortada, cacheDelModelo, descargar, olvidarAjenos, olvidarOtros, sha256 } from "./archivos.js";
import { textoDelChat } from "./nucleo.js";

/** @typedef {{ archivo: string, bytes: number, sha256: string }} Archivo */
/**
 * The widget's data (the build's, widgets/construccion/modelo_local.py): the files, onnxruntime's
 * module, the external weights, the model's shape and its end tokens.
 * @typedef {{ nombre?: string, licencia?: string, wasm: Archivo, tokenizador: Archivo, modelo: Archivo,
 *   pesos: Archivo, ort: string, pesos_f32?: unknown, forma: import("./nucleo.js").Forma, fin: number[] }} Datos
 */

/** @typedef {import("./nucleo.js").Mensaje} Mensaje */
/** @typedef {(progreso: { bytes: number, total: number }) => void} AlProgreso */
/** @typedef {{ wasm: Blob, tokenizador: Blob, modelo: Blob, pesos: Blob }} Blobs */
/** @typedef {{ descarga?: number, carga?: number, hilos?: number, preparacion?: object }} Cifras */
/** @typedef {object | null | undefined} Preparada  what preparar() resolves with */
/** @typedef {{ tipo: string, [campo: string]: unknown }} Orden  a message to the worker */
/** @typedef {{ id: number, ok: boolean, resultado?: unknown, error?: string }} Respuesta  the worker's */
/**
 * @typedef {{ mensajes?: Mensaje[], esquema?: object | null, gramatica?: string | null, max_tokens?: number,
 *   senal?: AbortSignal }} Pedido
 */

/** @type {Motor | null} */
let unico = null;

/** The page's one engine. */
export function motorDelModelo() {
  unico ??= new Motor();
  return unico;
}

/** @type {string | null | undefined} */
let impedimentoVisto;

/** Why this browser cannot run the model (one sentence), or null; tried once per page. */
export function impedimento() {
  if (impedimentoVisto === undefined) impedimentoVisto = probarLaMaquina();
  return impedimentoVisto;
}

// A module that uses SIMD (i8x16.splat, i8x16.popcnt): onnxruntime's build needs it.
const SIMD = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0,
  65, 0, 253, 15, 253, 98, 11]);

/**
 * What `impedimento` tries, on a given WebAssembly and navigator (for the tests).
 * @param {typeof WebAssembly | undefined} [wasm]
 * @param {Navigator & { deviceMemory?: number }} [nav] (navigator.deviceMemory: Chromium's, not in TypeScript's DOM)
 */
export function probarLaMaquina(wasm = globalThis.WebAssembly, nav = globalThis.navigator) {
  if (!wasm || typeof wasm.Memory !== "function") return MODELO.sinWasm;
  if (!wasm.validate?.(SIMD)) return MODELO.sinFunciones;
  if (nav?.deviceMemory && nav.deviceMemory < 2) return MODELO.sinMemoria;
  try {
    // ≈ 1 GB, as the model needs once its weights are unpacked: refused where memory is short.
    new wasm.Memory({ initial: 1, maximum: 16385 }).grow(16384);
  } catch {
    return MODELO.sinMemoria;
  }
  return null;
}

export class Motor extends EventTarget {
  constructor() {
    super();
    this.probar = impedimento; // what this machine lacks (replaced in the tests)
    this.estado = "sin-descargar";
    this.error = null;
    this.datos = /** @type {Datos | null} */ (null);
    this.trabajador = /** @type {Worker | null} */ (null); // modelo-trabajador.js, once loaded
    this.pendientes = new Map(); // id → {resolver, rechazar}: what the worker has not answered yet
    this.siguiente = 0;
    this.cargando = /** @type {Promise<void> | null} */ (null); // the load under way (one at a time)
    this.cola = /** @type {Promise<unknown>} */ (Promise.resolve()); // one generation at a time
    this.cifras = /** @type {Cifras} */ ({}); // what the last load took (ms, the bench)
    this.historial = /** @type {object[]} */ ([]); // each generation: prompt, grammar, timings (the bench)
    this.generadas = 0; // generations since the last load
    this.preparacion = /** @type {Promise<Preparada>} */ (Promise.resolve(null)); // the latest preparar(), done
  }

  /** The model's files from the widget's data ({modelo, pesos, tokenizador, wasm: {archivo, bytes,
   *  sha256}, ort, pesos_f32, forma, fin}). @param {Datos} datos */
  configurar(datos) {
    this.datos ??= datos;
    return this;
  }

  /** The total size of what cargar() downloads when nothing is kept yet. */
  get total() {
    return this.datos ? this.archivos().reduce((n, f) => n + f.bytes, 0) : 0;
  }

  cambiar(/** @type {string} */ estado, /** @type {string | null} */ error = null) {
    this.estado = estado;
    this.error = error;
    this.dispatchEvent(new Event("cambio"));
  }

  archivos() {
    if (!this.datos) throw new Error(MODELO.sinDatos);
    return [this.datos.wasm, this.datos.tokenizador, this.datos.modelo, this.datos.pesos].map((f) => {
      const url = new URL(f.archivo, import.meta.url).href;
      return { ...f, url, clave: `${url}?sha256=${f.sha256}` };
    });
  }

  /** Are the files kept in this browser (so that cargar() downloads nothing)? */
  async enCache() {
    if (!this.datos) return false;
    const cache = await cacheDelModelo();
    if (!cache) return false;
    const hay = await Promise.all(this.archivos().map((f) => cache.match(f.clave)));
    return hay.every(Boolean);
  }

  /** Download (what is not kept yet), check, keep and load the model. Aborting `senal` during
   *  the download leaves it "sin-descargar" and rejects with an AbortError. */
  cargar(/** @type {{ alProgreso?: AlProgreso, senal?: AbortSignal }} */ { alProgreso = () => {}, senal } = {}) {
    if (this.estado === "listo") return Promise.resolve();
    this.cargando ??= this.hacerCarga(alProgreso, senal).finally(() => {
      this.cargando = null;
    });
    return this.cargando;
  }

  async hacerCarga(/** @type {AlProgreso} */ alProgreso, /** @type {AbortSignal | undefined} */ senal) {
    const motivo = this.probar();
    if (motivo) {
      this.cambiar("error", motivo);
      throw new Error(motivo);
    }
    let blobs;
    const inicio = performance.now();
    try {
      blobs = await this.traerTodo(alProgreso, senal);
    } catch (error) {
      if (error?.name === "AbortError") {
        this.cambiar("sin-descargar");
        throw abortada();
      }
      this.cambiar("error", MODELO.fallo(error.message));
      throw error;
    }
    const descargado = performance.now();
    this.cambiar("cargando");
    let hilos;
    try {
      hilos = await this.iniciar(blobs);
    } catch (error) {
      this.parar();
      this.cambiar("error", MODELO.fallo(error.message));
      throw error;
    }
    this.cifras = { descarga: descargado - inicio, carga: performance.now() - descargado, hilos };
    this.generadas = 0;
    this.cambiar("listo");
  }

  /** The files as Blobs, in archivos()'s order: from the cache, or downloaded, checked and kept
   *  (older copies, and files of an earlier model, leave the cache). */
  async traerTodo(/** @type {AlProgreso} */ alProgreso, /** @type {AbortSignal | undefined} */ senal) {
    const archivos = this.archivos();
    const cache = await cacheDelModelo();
    const guardados = cache ? await Promise.all(archivos.map((f) => cache.match(f.clave))) : [];
    const total = archivos.reduce((n, f, i) => n + (guardados[i] ? 0 : f.bytes), 0);
    if (total > 0) this.cambiar("descargando");
    let hechos = 0;
    const blobs = [];
    for (const [i, archivo] of archivos.entries()) {
      if (guardados[i]) {
        blobs.push(await guardados[i].blob());
        continue;
      }
      const blob = await descargar(archivo, senal, (n) => alProgreso({ bytes: hechos + n, total }));
      hechos += archivo.bytes;
      if ((await sha256(blob)) !== archivo.sha256) throw new Error(MODELO.distinto(archivo.archivo));
      if (cache) {
        await cache.put(archivo.clave, new Response(blob, { headers: { "Content-Type": blob.type } }))
          .catch(() => {}); // no room: it runs now, and is downloaded again next time
        await olvidarOtros(cache, archivo);
      }
      blobs.push(blob);
    }
    if (cache) await olvidarAjenos(cache, [...archivos.map((f) => f.clave), this.clavePrefijo("")]);
    const [wasm, tokenizador, modelo, pesos] = blobs;
    return { wasm, tokenizador, modelo, pesos };
  }

  /** Start the worker and load the model in it: the number of threads it runs on. @param {Blobs} blobs */
  async iniciar({ wasm, tokenizador, modelo, pesos }) {
    if (!this.datos) throw new Error(MODELO.sinDatos); // (never: the files were fetched from it)
    const hilos = globalThis.crossOriginIsolated ? Math.max(1, navigator.hardwareConcurrency || 1) : 1;
    // A Content-Security-Policy that refuses the worker (or its module, or its threads) would
    // leave the load waiting for ever: say why.
    let alNegar = /** @type {(evento: SecurityPolicyViolationEvent) => void} */ (() => {}); // (set just below)
    const negado = new Promise((_, rechazar) => {
      alNegar = (evento) => {
        if (/modelo-trabajador\.js|\/ort\//.test(String(evento.blockedURI))) rechazar(new Error(MODELO.csp));
      };
      globalThis.addEventListener?.("securitypolicyviolation", alNegar);
    });
    try {
      this.trabajador = new Worker(new URL("modelo-trabajador.js", import.meta.url), { type: "module", name: "modelo" });
      this.trabajador.onmessage = ({ data }) => this.responder(data);
      this.trabajador.onerror = (evento) => {
        evento.preventDefault?.();
        for (const { rechazar } of this.pendientes.values()) rechazar(new Error(MODELO.csp));
        this.pendientes.clear();
      };
      const [bytesWasm, bytesModelo, bytesPesos, texto] = await Promise.all([
        wasm.arrayBuffer(), modelo.arrayBuffer(), pesos.arrayBuffer(), tokenizador.text()]);
      const { ort, forma, fin, pesos_f32: externos } = this.datos;
      const cargado = await Promise.race([negado, this.pedir({
        tipo: "cargar", ort: new URL(ort, import.meta.url).href, wasm: bytesWasm, onnx: bytesModelo,
        pesos: bytesPesos, externos, tokenizador: texto, forma, fin, hilos }, [bytesWasm, bytesModelo, bytesPesos])]);
      return cargado.hilos;
    } finally {
      globalThis.removeEventListener?.("securitypolicyviolation", alNegar);
    }
  }

  /** Send the worker `mensaje` ({tipo, …}) and wait for its answer (modelo-trabajador.js's, any). */
  pedir(/** @type {Orden} */ mensaje, /** @type {Transferable[]} */ transferir = []) {
    const trabajador = this.trabajador; // stopped meanwhile (parar()): rejected as parar() rejects the rest
    if (!trabajador) return Promise.reject(new Error(MODELO.sinDatos));
    const id = ++this.siguiente;
    return new Promise((resolver, rechazar) => {
      this.pendientes.set(id, { resolver, rechazar });
      trabajador.postMessage({ ...mensaje, id }, transferir);
    });
  }

  responder(/** @type {Respuesta} */ { id, ok, resultado, error }) {
    const pendiente = this.pendientes.get(id);
    if (!pendiente) return;
    this.pendientes.delete(id);
    if (ok) pendiente.resolver(resultado);
    else pendiente.rechazar(new Error(error));
  }

  parar() {
    this.trabajador?.terminate();
    this.trabajador = null;
    for (const { rechazar } of this.pendientes.values()) rechazar(new Error(MODELO.sinDatos));
    this.pendientes.clear();
  }

  /** Where the shared start `texto` read by this model is kept in the Cache API. @param {string} suma */
  clavePrefijo(suma) {
    if (!this.datos) throw new Error(MODELO.sinDatos);
    return `${new URL("modelo/prefijo", import.meta.url).href}?modelo=${this.datos.modelo.sha256}&texto=${suma}`;
  }

  /** Have the model read `mensajes`, the start the lesson's conversations share (indicaciones.js's
   *  mensajesDelPrefijo), while nobody asks it anything yet, so that a first turn processes only
   *  what follows. What it read is kept in the Cache API: after a reload it is put back, not read
   *  again. It waits its turn like a generation, and does nothing once the model has answered
   *  anything since it loaded (then the cache holds a conversation, worth more than its start).
   *  Resolves with {ms, tokens (read), restaurada, mensajes}, or null when it did nothing; a
   *  failure is only the cache left cold. @param {Mensaje[]} mensajes */
  preparar(mensajes) {
    const hecha = this.cola.then(() => this.hacerPreparacion(mensajes));
    this.cola = hecha.catch(() => {});
    this.preparacion = hecha.catch(() => null);
    return this.preparacion;
  }

  async hacerPreparacion(/** @type {Mensaje[]} */ mensajes) {
    if (this.estado !== "listo" || this.generadas > 0) return null;
    const inicio = performance.now();
    const suma = await sha256(new Blob([textoDelChat(mensajes)]));
    const r = await this.pedir({ tipo: "preparar", mensajes, clave: this.clavePrefijo(suma) });
    this.cifras.preparacion = { ms: performance.now() - inicio, ...r, mensajes };
    return this.cifras.preparacion;
  }

  /** One answer (one at a time). Loads the model first when it is kept but not loaded; without
   *  it downloaded, rejects with a sentence saying so. @param {Pedido} [pedido] */
  generar({ mensajes, esquema, gramatica, max_tokens, senal } = {}) {
    const turno = this.cola.then(() => this.hacerGeneracion({ mensajes, esquema, gramatica, max_tokens, senal }));
    this.cola = turno.catch(() => {});
    return turno;
  }

  async hacerGeneracion(/** @type {Pedido} */ { mensajes, esquema, gramatica, max_tokens, senal }) {
    if (this.estado !== "listo") {
      if (this.cargando) await this.cargando;
      else if (await this.enCache()) await this.cargar({ senal });
      else throw new Error(this.estado === "error" && this.error ? this.error : MODELO.noDescargado);
    }
    if (senal?.aborted) throw abortada();
    const inicio = performance.now();
    this.generadas++;
    const pedida = this.pedir({ tipo: "generar", mensajes, esquema: esquema ?? null, max_tokens });
    const id = this.siguiente;
    const alAbortar = () => this.trabajador?.postMessage({ tipo: "cancelar", id });
    senal?.addEventListener("abort", alAbortar, { once: true });
    let hecha;
    try {
      hecha = await pedida;
    } finally {
      senal?.removeEventListener("abort", alAbortar);
    }
    if (senal?.aborted) throw abortada();
    // The grammar the output was held to (esquema.js's, which the bench gives native llama.cpp).
    this.historial.push({ mensajes, esquema: esquema ?? null, gramatica: gramatica ?? null, max_tokens, ...hecha,
                          ms: performance.now() - inicio });
    if (this.historial.length > 50) this.historial.shift(); // a long session keeps the latest
    return hecha;
  }
}
