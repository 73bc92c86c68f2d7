// The course's in-page model: SmolLM2-135M-Instruct (GGUF) run by wllama, llama.cpp compiled to
// WebAssembly, in a worker of its own. One engine per page (motorDelModelo()), no DOM:
//
//   const motor = motorDelModelo();
//   motor.configurar(datos);     // the widget's data: files (relative to _static/bucle/), sizes, SHA-256
//   motor.estado                 // "sin-descargar" | "descargando" | "cargando" | "listo" | "error"
//   await motor.enCache()        // both files already kept in this browser?
//   await motor.cargar({ alProgreso({ bytes, total }), senal })
//   await motor.generar({ mensajes, esquema, gramatica, max_tokens, senal })
//     → { texto, fin: "stop" | "length", tokensEntrada (processed anew), tokensSalida,
//         tokensReusados (the previous prompt's, reused), tiempos }
//   motor.preparar(mensajes)     // right after a load: have the model read the start the
//                                // lesson's conversations share (motor.preparacion: when done)
//   motor.addEventListener("cambio", …)   // every change of estado
//   motor.cifras, motor.historial         // the last load's times (and its preparation's); the
//                                         // latest generations, each with its prompt, grammar
//                                         // and timings (for the bench)
//
// cargar() fetches the GGUF and wllama's wasm from the site (never elsewhere: wllama's CDN
// fallback is turned off with setCompat(null)), with the bytes as they arrive and an AbortSignal,
// checks each file's SHA-256 against the page's data, keeps them in the Cache API (cache
// "bucle-modelo", each under its URL and hash: the next visit downloads nothing, offline too;
// modelo/archivos.js),
// then loads the model: CPU only (the same numbers everywhere), n_ctx 2048, a 32-bit KV cache
// without flash attention (ATENCION), every core when the
// page is cross-origin isolated (else one thread). generar() runs one chat completion at a time,
// at temperature 0, constrained by a JSON schema when given, reusing the prompt's common prefix
// (cache_prompt). A machine that cannot run it gets one Spanish sentence as the error.
import { MODELO } from "../lib/textos.js";
import { abortada, cacheDelModelo, descargar, olvidarOtros, sha256 } from "./archivos.js";

const N_CTX = 2048;
// How the model attends, chosen from Chromium's profile of the lesson's turns (BENCHMARKS.md,
// `python -m tests.bench.perfil_modelo`): with llama.cpp's defaults (flash attention over a
// 16-bit KV cache) 40% of a turn went to flash attention, which converts every 16-bit value one
// at a time in WebAssembly (no hardware conversion there). With the cache in 32-bit floats and
// flash attention off, attention is a plain SIMD dot product: each turn takes about half the time,
// with the same answers; the cache takes 94 MB instead of 47.
const ATENCION = { cache_type_k: "f32", cache_type_v: "f32", flash_attn: false };

let unico = null;

/** The page's one engine. */
export function motorDelModelo() {
  unico ??= new Motor();
  return unico;
}

let impedimentoVisto;

/** Why this browser cannot run the model (one sentence), or null; tried once per page. */
export function impedimento() {
  if (impedimentoVisto === undefined) impedimentoVisto = probarLaMaquina();
  return impedimentoVisto;
}

/** What `impedimento` tries, on a given WebAssembly and navigator (for the tests). */
export function probarLaMaquina(wasm = globalThis.WebAssembly, nav = globalThis.navigator) {
  if (!wasm || typeof wasm.Memory !== "function") return MODELO.sinWasm;
  let memoria64 = false;
  try {
    new wasm.Memory({ address: "i64", initial: 1n });
    memoria64 = true;
  } catch {
    memoria64 = false;
  }
  if (!wasm.Suspending || !memoria64) return MODELO.sinFunciones;
  if (nav?.deviceMemory && nav.deviceMemory < 1) return MODELO.sinMemoria;
  try {
    // ≈ 256 MB more than the first page, as the model needs: refused where memory is short.
    new wasm.Memory({ initial: 1, maximum: 4097 }).grow(4096);
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
    this.datos = null;
    this.wllama = null;
    this.cargando = null; // the load under way (one at a time)
    this.cola = Promise.resolve(); // one generation at a time
    this.cifras = {}; // what the last load took: { descarga, carga, hilos, preparacion } (ms, the bench)
    this.historial = []; // each generation: its prompt, grammar and llama.cpp's timings (the bench)
    this.generadas = 0; // generations since the last load
    this.preparacion = Promise.resolve(null); // the latest preparar(), done
    this.opcionesDeCarga = {}; // more of wllama's loadModel parameters (the bench's candidates)
  }

  /** The model's files from the widget's data ({modelo, wasm: {archivo, bytes, sha256}}). */
  configurar(datos) {
    this.datos ??= datos;
    return this;
  }

  /** The total size of what cargar() downloads when nothing is kept yet. */
  get total() {
    return this.datos ? this.datos.modelo.bytes + this.datos.wasm.bytes : 0;
  }

  cambiar(estado, error = null) {
    this.estado = estado;
    this.error = error;
    this.dispatchEvent(new Event("cambio"));
  }

  archivos() {
    if (!this.datos) throw new Error(MODELO.sinDatos);
    return [this.datos.wasm, this.datos.modelo].map((f) => {
      const url = new URL(f.archivo, import.meta.url).href;
      return { ...f, url, clave: `${url}?sha256=${f.sha256}` };
    });
  }

  /** Are both files kept in this browser (so that cargar() downloads nothing)? */
  async enCache() {
    if (!this.datos) return false;
    const cache = await cacheDelModelo();
    if (!cache) return false;
    const hay = await Promise.all(this.archivos().map((f) => cache.match(f.clave)));
    return hay.every(Boolean);
  }

  /** Download (what is not kept yet), check, keep and load the model. Aborting `senal` during
   *  the download leaves it "sin-descargar" and rejects with an AbortError. */
  cargar({ alProgreso = () => {}, senal } = {}) {
    if (this.estado === "listo") return Promise.resolve();
    this.cargando ??= this.hacerCarga(alProgreso, senal).finally(() => {
      this.cargando = null;
    });
    return this.cargando;
  }

  async hacerCarga(alProgreso, senal) {
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
    try {
      await this.iniciar(blobs);
    } catch (error) {
      this.wllama?.exit().catch(() => {}); // not awaited: a worker that never started never answers
      this.wllama = null;
      this.cambiar("error", MODELO.fallo(error.message));
      throw error;
    }
    this.cifras = { descarga: descargado - inicio, carga: performance.now() - descargado,
                    hilos: this.wllama.getNumThreads() };
    this.generadas = 0;
    this.cambiar("listo");
  }

  /** Both files as Blobs: from the cache, or downloaded, checked and kept; `wasmGuardado`: the
   *  wasm's checked copy is in the cache (under its `clave`). */
  async traerTodo(alProgreso, senal) {
    const archivos = this.archivos();
    const cache = await cacheDelModelo();
    const guardados = cache ? await Promise.all(archivos.map((f) => cache.match(f.clave))) : [];
    const total = archivos.reduce((n, f, i) => n + (guardados[i] ? 0 : f.bytes), 0);
    if (total > 0) this.cambiar("descargando");
    let hechos = 0;
    const blobs = [];
    const enLaCache = [];
    for (const [i, archivo] of archivos.entries()) {
      if (guardados[i]) {
        blobs.push(await guardados[i].blob());
        enLaCache.push(true);
        continue;
      }
      const blob = await descargar(archivo, senal, (n) => alProgreso({ bytes: hechos + n, total }));
      hechos += archivo.bytes;
      if ((await sha256(blob)) !== archivo.sha256) throw new Error(MODELO.distinto(archivo.archivo));
      let guardado = false;
      if (cache) {
        guardado = await cache.put(archivo.clave, new Response(blob, { headers: { "Content-Type": blob.type } }))
          .then(() => true, () => false); // no room: it runs now, and is downloaded again next time
        await olvidarOtros(cache, archivo);
      }
      blobs.push(blob);
      enLaCache.push(guardado);
    }
    return { wasm: blobs[0], modelo: blobs[1], wasmGuardado: enLaCache[0] ? archivos[0].clave : null };
  }

  async iniciar({ wasm, modelo, wasmGuardado }) {
    // The package's built ES module (its "main" names a file it does not ship; esbuild would
    // otherwise compile its TypeScript sources), patched by the bundle to start its worker and
    // llama.cpp's threads from the site's files (widgets/construccion/wllama.mjs): nothing from a
    // blob: URL, so a strict Content-Security-Policy lets it start.
    const { Wllama, usarArchivosDelSitio } = await import("@wllama/wllama/esm/index.js");
    usarArchivosDelSitio({ trabajador: new URL("wllama-trabajador.js", import.meta.url).href,
                           hilo: new URL("wllama-hilo.js", import.meta.url).href });
    // The worker reads the wasm from the model's cache under this key (cabecera-del-trabajador.js);
    // where it could not be kept, from a blob: URL of the checked copy.
    const urlWasm = wasmGuardado ?? URL.createObjectURL(wasm);
    const callado = { debug() {}, log() {}, info() {}, warn: console.warn, error: console.error };
    this.wllama = new Wllama({ default: urlWasm }, { logger: callado, suppressNativeLog: true,
                                                     allowOffline: true });
    this.wllama.setCompat(null); // no CDN: every file comes from this site
    const hilos = globalThis.crossOriginIsolated ? Math.max(1, navigator.hardwareConcurrency || 1) : 1;
    // A Content-Security-Policy that refuses what wllama starts (the site's worker files, or
    // the wasm's blob: URL when it could not be kept) leaves wllama waiting for ever: say why.
    let alNegar;
    const negado = new Promise((_, rechazar) => {
      alNegar = (evento) => {
        const negada = String(evento.blockedURI);
        if (negada.startsWith("blob") || /wllama-(trabajador|hilo)\.js/.test(negada)) rechazar(new Error(MODELO.csp));
      };
      globalThis.addEventListener?.("securitypolicyviolation", alNegar);
    });
    try {
      await Promise.race([
        negado,
        this.wllama.loadModel([modelo], { n_ctx: N_CTX, n_threads: hilos, n_gpu_layers: 0,
                                          ...ATENCION, ...this.opcionesDeCarga }),
      ]);
    } finally {
      globalThis.removeEventListener?.("securitypolicyviolation", alNegar);
      if (!wasmGuardado) URL.revokeObjectURL(urlWasm);
    }
  }

  /** Have the model read `mensajes`, the start the lesson's conversations share (indicaciones.js's
   *  mensajesDelPrefijo), while nobody asks it anything yet: llama.cpp keeps what it read
   *  (cache_prompt), so that a first turn processes only what follows. It waits its turn like a
   *  generation, and does nothing once the model has answered anything since it loaded (then the
   *  cache holds a conversation, worth more than its start). Resolves with {ms, tokens,
   *  mensajes}, or null when it did nothing; a failure is only the cache left cold. */
  preparar(mensajes) {
    const hecha = this.cola.then(() => this.hacerPreparacion(mensajes));
    this.cola = hecha.catch(() => {});
    this.preparacion = hecha.catch(() => null);
    return this.preparacion;
  }

  async hacerPreparacion(mensajes) {
    if (this.estado !== "listo" || this.generadas > 0) return null;
    const inicio = performance.now();
    const r = await this.wllama.createChatCompletion({ messages: mensajes, max_tokens: 1, temperature: 0,
                                                       cache_prompt: true });
    this.cifras.preparacion = { ms: performance.now() - inicio, tokens: r.timings?.prompt_n ?? 0, mensajes };
    return this.cifras.preparacion;
  }

  /** One chat completion (one at a time). Loads the model first when it is kept but not
   *  loaded; without it downloaded, rejects with a sentence saying so. */
  generar({ mensajes, esquema, gramatica, max_tokens, senal } = {}) {
    const turno = this.cola.then(() => this.hacerGeneracion({ mensajes, esquema, gramatica, max_tokens, senal }));
    this.cola = turno.catch(() => {});
    return turno;
  }

  async hacerGeneracion({ mensajes, esquema, gramatica, max_tokens, senal }) {
    if (this.estado !== "listo") {
      if (this.cargando) await this.cargando;
      else if (await this.enCache()) await this.cargar({ senal });
      else throw new Error(this.estado === "error" && this.error ? this.error : MODELO.noDescargado);
    }
    if (senal?.aborted) throw abortada();
    const peticion = { messages: mensajes, max_tokens, temperature: 0, cache_prompt: true,
                       abortSignal: senal };
    // A grammar (GBNF, esquema.js's gramaticaDeSalida) when there is one, else the schema.
    if (gramatica) {
      peticion.grammar = gramatica;
    } else if (esquema) {
      peticion.response_format = { type: "json_schema", json_schema: { name: "respuesta", schema: esquema } };
    }
    const inicio = performance.now();
    this.generadas++;
    const r = await this.wllama.createChatCompletion(peticion);
    const eleccion = r.choices?.[0] ?? {};
    // As the messages protocol counts them: input_tokens are the prompt's tokens the model
    // processed anew; those it reused from the previous prompt are counted apart.
    const total = r.usage?.prompt_tokens ?? 0;
    const reusados = r.timings?.cache_n ?? r.usage?.prompt_tokens_details?.cached_tokens ?? 0;
    const hecha = {
      texto: eleccion.message?.content ?? "",
      fin: eleccion.finish_reason === "length" ? "length" : "stop",
      tokensEntrada: r.timings?.prompt_n ?? Math.max(0, total - reusados),
      tokensSalida: r.usage?.completion_tokens ?? 0,
      tokensReusados: reusados,
      tiempos: r.timings ?? null,
    };
    this.historial.push({ mensajes, gramatica: gramatica ?? null, max_tokens, ...hecha,
                          ms: performance.now() - inicio });
    if (this.historial.length > 50) this.historial.shift(); // a long session keeps the latest
    return hecha;
  }
}
