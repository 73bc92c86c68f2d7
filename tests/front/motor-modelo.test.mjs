import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { Motor, probarLaMaquina } from "../../widgets/front/modelo/motor.js";
import { MODELO } from "../../widgets/front/lib/textos.js";

// A WebAssembly that has (or lacks) what wllama's build needs: JSPI, 64-bit memory, room to grow.
function wasm({ jspi = true, memoria64 = true, crece = true } = {}) {
  class Memory {
    constructor({ address } = {}) {
      if (address === "i64" && !memoria64) throw new TypeError("no i64");
    }
    grow() {
      if (!crece) throw new RangeError("WebAssembly.Memory.grow(): Maximum memory size exceeded");
    }
  }
  return { Memory, ...(jspi ? { Suspending: class {} } : {}) };
}

test("a machine that cannot run the model gets one sentence saying why", () => {
  assert.equal(probarLaMaquina(wasm(), {}), null);
  assert.equal(probarLaMaquina(null, {}), MODELO.sinWasm); // no WebAssembly at all
  assert.equal(probarLaMaquina(wasm({ jspi: false }), {}), MODELO.sinFunciones);
  assert.equal(probarLaMaquina(wasm({ memoria64: false }), {}), MODELO.sinFunciones);
  assert.equal(probarLaMaquina(wasm({ crece: false }), {}), MODELO.sinMemoria);
  assert.equal(probarLaMaquina(wasm(), { deviceMemory: 0.5 }), MODELO.sinMemoria);
});

const sha = (bytes) => createHash("sha256").update(bytes).digest("hex");
const WASM = new Uint8Array([0, 97, 115, 109]);
const GGUF = new Uint8Array(1000).fill(7);

function datos({ shaGguf = sha(GGUF) } = {}) {
  return {
    nombre: "SmolLM2-135M-Instruct", licencia: "Apache-2.0",
    wasm: { archivo: "modelo/wllama.wasm", bytes: WASM.length, sha256: sha(WASM) },
    modelo: { archivo: "modelo/m.gguf", bytes: GGUF.length, sha256: shaGguf },
  };
}

/** fetch answering the two files in chunks of 100 bytes; `parar` holds the GGUF's stream
 *  after its first chunk until aborted. */
function servidor({ parar = false } = {}) {
  const pedidas = [];
  globalThis.fetch = async (url, { signal } = {}) => {
    pedidas.push(String(url));
    const bytes = String(url).endsWith(".wasm") ? WASM : GGUF;
    let i = 0;
    const cuerpo = new ReadableStream({
      pull(control) {
        if (i >= bytes.length) return control.close();
        if (parar && i > 0 && bytes === GGUF) {
          return new Promise((_, rechazar) => signal.addEventListener("abort", () => {
            const error = new DOMException("abortado", "AbortError");
            control.error(error);
            rechazar(error);
          }));
        }
        control.enqueue(bytes.slice(i, i + 100));
        i += 100;
      },
    });
    return new Response(cuerpo, { status: 200 });
  };
  return pedidas;
}

function motorDePrueba(d = datos()) {
  const motor = new Motor().configurar(d);
  motor.probar = () => null;
  const estados = [];
  motor.addEventListener("cambio", () => estados.push(motor.estado));
  motor.iniciar = async ({ wasm: w, modelo }) => {
    motor.cargados = [w.size, modelo.size];
  };
  motor.wllama = { getNumThreads: () => 1 };
  return { motor, estados };
}

test("cargar downloads both files with their progress, checks them and loads them", async () => {
  const pedidas = servidor();
  const { motor, estados } = motorDePrueba();
  const avances = [];
  await motor.cargar({ alProgreso: (a) => avances.push(a) });
  assert.equal(motor.estado, "listo");
  assert.deepEqual(estados, ["descargando", "cargando", "listo"]);
  assert.deepEqual(motor.cargados, [WASM.length, GGUF.length]);
  assert.equal(pedidas.length, 2);
  const total = WASM.length + GGUF.length;
  assert.ok(avances.every((a) => a.total === total));
  assert.deepEqual(avances.at(-1), { bytes: total, total });
  assert.ok(avances.length > 2, "progress as the bytes arrive");
});

test("a file whose SHA-256 is not the page's is refused, in one sentence", async () => {
  servidor();
  const { motor } = motorDePrueba(datos({ shaGguf: "0".repeat(64) }));
  await assert.rejects(motor.cargar(), { message: MODELO.distinto("modelo/m.gguf") });
  assert.equal(motor.estado, "error");
  assert.equal(motor.error, MODELO.fallo(MODELO.distinto("modelo/m.gguf")));
  assert.equal(motor.cargados, undefined, "nothing is loaded");
});

test("Cancelar during the download leaves it sin-descargar, and a second cargar works", async () => {
  servidor({ parar: true });
  const { motor } = motorDePrueba();
  const control = new AbortController();
  const carga = motor.cargar({ alProgreso: ({ bytes }) => bytes > WASM.length && control.abort(),
                               senal: control.signal });
  await assert.rejects(carga, { name: "AbortError" });
  assert.equal(motor.estado, "sin-descargar");
  servidor();
  await motor.cargar();
  assert.equal(motor.estado, "listo");
});

test("generar asks wllama for one constrained, cached completion at temperature 0", async () => {
  const { motor } = motorDePrueba();
  motor.estado = "listo";
  const pedidas = [];
  motor.wllama.createChatCompletion = async (peticion) => {
    pedidas.push(peticion);
    return {
      choices: [{ message: { content: '{"texto":"hola"}' }, finish_reason: pedidas.length === 1 ? "stop" : "length" }],
      usage: { prompt_tokens: 40, completion_tokens: 5 },
      timings: { cache_n: 33, prompt_n: 7 },
    };
  };
  const esquema = { type: "object", properties: { texto: { type: "string" } } };
  const mensajes = [{ role: "system", content: "s" }, { role: "user", content: "u" }];
  const senal = new AbortController().signal;
  const r = await motor.generar({ mensajes, esquema, max_tokens: 8, senal });
  assert.deepEqual(
    { texto: r.texto, fin: r.fin, tokensEntrada: r.tokensEntrada, tokensSalida: r.tokensSalida,
      tokensReusados: r.tokensReusados },
    // input tokens as the protocol counts them: the 7 processed anew, the 33 reused apart
    { texto: '{"texto":"hola"}', fin: "stop", tokensEntrada: 7, tokensSalida: 5, tokensReusados: 33 },
  );
  const p = pedidas[0];
  assert.equal(p.messages, mensajes);
  assert.deepEqual([p.max_tokens, p.temperature, p.cache_prompt, p.abortSignal], [8, 0, true, senal]);
  assert.deepEqual(p.response_format, { type: "json_schema", json_schema: { name: "respuesta", schema: esquema } });
  assert.equal(p.grammar, undefined);
  const sinEsquema = await motor.generar({ mensajes, max_tokens: 8 });
  assert.equal(sinEsquema.fin, "length");
  assert.equal(pedidas[1].response_format, undefined);
  // A grammar, where the server has one, goes instead of the schema.
  const gramatica = 'root ::= "{}"\n';
  await motor.generar({ mensajes, esquema, gramatica, max_tokens: 8 });
  assert.equal(pedidas[2].grammar, gramatica);
  assert.equal(pedidas[2].response_format, undefined);
});

test("each generation is kept in the engine's record (what the bench reads), the latest 50", async () => {
  const { motor } = motorDePrueba();
  motor.estado = "listo";
  let n = 0;
  motor.wllama.createChatCompletion = async () => ({
    choices: [{ message: { content: "{}" }, finish_reason: ++n === 2 ? "length" : "stop" }],
    usage: { prompt_tokens: 40, completion_tokens: 5 },
    timings: { cache_n: 33, prompt_n: 7, prompt_ms: 70, predicted_n: 5, predicted_ms: 50 },
  });
  const mensajes = [{ role: "user", content: "u" }];
  const gramatica = 'root ::= "{}"\n';
  await motor.generar({ mensajes, max_tokens: 8 });
  await motor.generar({ mensajes, gramatica, max_tokens: 16 });
  assert.deepEqual(motor.historial.map((g) => [g.mensajes, g.gramatica, g.max_tokens, g.tokensEntrada, g.fin]),
                   [[mensajes, null, 8, 7, "stop"], [mensajes, gramatica, 16, 7, "length"]]);
  assert.deepEqual(motor.historial[1].tiempos, { cache_n: 33, prompt_n: 7, prompt_ms: 70, predicted_n: 5, predicted_ms: 50 });
  assert.ok(motor.historial.every((g) => g.ms >= 0));
  for (let i = 0; i < 60; i++) await motor.generar({ mensajes, max_tokens: i });
  assert.equal(motor.historial.length, 50);
  assert.equal(motor.historial.at(-1).max_tokens, 59);
});

test("preparar has the model read the shared start right after a load, once, and waits its turn", async () => {
  servidor();
  const { motor } = motorDePrueba();
  const pedidas = [];
  motor.iniciar = async () => {
    motor.wllama = {
      getNumThreads: () => 1,
      createChatCompletion: async (p) => {
        pedidas.push(p);
        return { choices: [{ message: { content: "{}" }, finish_reason: "stop" }],
                 usage: { prompt_tokens: 40, completion_tokens: 1 }, timings: { cache_n: 0, prompt_n: 40 } };
      },
    };
  };
  const prefijo = [{ role: "system", content: "s" }, { role: "user", content: "" }];
  assert.equal(await motor.preparar(prefijo), null, "nothing to prepare before a load");
  await motor.cargar();
  const preparada = motor.preparar(prefijo);
  const turno = motor.generar({ mensajes: [{ role: "system", content: "s" }, { role: "user", content: "u" }], max_tokens: 8 });
  const hecha = await preparada;
  // One token, the prompt kept in llama.cpp's cache; the figures for the bench.
  assert.deepEqual([pedidas[0].messages, pedidas[0].max_tokens, pedidas[0].cache_prompt], [prefijo, 1, true]);
  assert.deepEqual([hecha.tokens, hecha.mensajes], [40, prefijo]);
  assert.ok(hecha.ms >= 0 && motor.cifras.preparacion === hecha);
  await turno;
  assert.equal(pedidas.length, 2, "the turn after it, in the queue");
  assert.equal(motor.historial.length, 1, "the preparation is no generation of the record");
  // Once the model has answered, the cache holds a conversation: preparing again does nothing.
  assert.equal(await motor.preparar(prefijo), null);
  assert.equal(pedidas.length, 2);
});

test("generar without the model downloaded says so", async () => {
  const { motor } = motorDePrueba();
  await assert.rejects(motor.generar({ mensajes: [], max_tokens: 8 }), { message: MODELO.noDescargado });
});
