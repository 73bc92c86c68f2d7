import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { Motor, probarLaMaquina } from "../../widgets/front/modelo/motor.js";
import { MODELO } from "../../widgets/front/lib/textos.js";

// A WebAssembly that has (or lacks) what onnxruntime's build needs: SIMD, room to grow. Its
// validate() is this machine's own (Node's V8 has SIMD), or one that refuses SIMD.
function wasm({ simd = true, crece = true } = {}) {
  class Memory {
    grow() {
      if (!crece) throw new RangeError("WebAssembly.Memory.grow(): Maximum memory size exceeded");
    }
  }
  return { Memory, validate: simd ? (b) => WebAssembly.validate(b) : () => false };
}

test("a machine that cannot run the model gets one sentence saying why", () => {
  assert.equal(probarLaMaquina(wasm(), {}), null);
  assert.equal(probarLaMaquina(null, {}), MODELO.sinWasm); // no WebAssembly at all
  assert.equal(probarLaMaquina(wasm({ simd: false }), {}), MODELO.sinFunciones);
  assert.equal(probarLaMaquina(wasm({ crece: false }), {}), MODELO.sinMemoria);
  assert.equal(probarLaMaquina(wasm(), { deviceMemory: 1 }), MODELO.sinMemoria);
  assert.equal(probarLaMaquina(wasm(), { deviceMemory: 4 }), null);
});

const sha = (bytes) => createHash("sha256").update(bytes).digest("hex");
const WASM = new Uint8Array([0, 97, 115, 109]);
const TOKENIZADOR = new TextEncoder().encode('{"model":{}}');
const ONNX = new Uint8Array(1000).fill(7);
const PESOS = new Uint8Array(300).fill(9);

function datos({ shaOnnx = sha(ONNX) } = {}) {
  return {
    nombre: "SmolLM2-135M-Instruct", licencia: "Apache-2.0",
    wasm: { archivo: "modelo/ort-wasm-simd-threaded.wasm", bytes: WASM.length, sha256: sha(WASM) },
    tokenizador: { archivo: "modelo/tokenizer.json", bytes: TOKENIZADOR.length, sha256: sha(TOKENIZADOR) },
    modelo: { archivo: "modelo/m.onnx", bytes: ONNX.length, sha256: shaOnnx },
    pesos: { archivo: "modelo/m.pesos", bytes: PESOS.length, sha256: sha(PESOS) },
    ort: "ort/ort.wasm.min.mjs", forma: { capas: 1, cabezas_kv: 1, tamano: 2, contexto: 16 }, fin: [2],
  };
}

/** fetch answering the four files in chunks of 100 bytes; `parar` holds the model's stream
 *  after its first chunk until aborted. */
function servidor({ parar = false } = {}) {
  const pedidas = [];
  globalThis.fetch = async (url, { signal } = {}) => {
    pedidas.push(String(url));
    const u = String(url);
    const bytes = u.endsWith(".wasm") ? WASM : u.endsWith(".json") ? TOKENIZADOR : u.endsWith(".pesos") ? PESOS : ONNX;
    let i = 0;
    const cuerpo = new ReadableStream({
      pull(control) {
        if (i >= bytes.length) return control.close();
        if (parar && i > 0 && bytes === ONNX) {
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
  motor.iniciar = async ({ wasm: w, tokenizador, modelo, pesos }) => {
    motor.cargados = [w.size, tokenizador.size, modelo.size, pesos.size];
    return 1;
  };
  return { motor, estados };
}

/** The engine's worker, scripted: each message it gets, and `responder(mensaje)`'s answer. */
function trabajador(motor, responder) {
  const recibidos = [];
  motor.trabajador = {
    postMessage(mensaje) {
      recibidos.push(mensaje);
      if (mensaje.tipo === "cancelar") return;
      Promise.resolve().then(() => responder(mensaje))
        .then((resultado) => motor.responder({ id: mensaje.id, ok: true, resultado }),
              (error) => motor.responder({ id: mensaje.id, ok: false, error: error.message }));
    },
    terminate() {},
  };
  return recibidos;
}

test("cargar downloads both files with their progress, checks them and loads them", async () => {
  const pedidas = servidor();
  const { motor, estados } = motorDePrueba();
  const avances = [];
  await motor.cargar({ alProgreso: (a) => avances.push(a) });
  assert.equal(motor.estado, "listo");
  assert.deepEqual(estados, ["descargando", "cargando", "listo"]);
  assert.deepEqual(motor.cargados, [WASM.length, TOKENIZADOR.length, ONNX.length, PESOS.length]);
  assert.equal(pedidas.length, 4);
  const total = WASM.length + TOKENIZADOR.length + ONNX.length + PESOS.length;
  assert.ok(avances.every((a) => a.total === total));
  assert.deepEqual(avances.at(-1), { bytes: total, total });
  assert.ok(avances.length > 2, "progress as the bytes arrive");
});

test("a file whose SHA-256 is not the page's is refused, in one sentence", async () => {
  servidor();
  const { motor } = motorDePrueba(datos({ shaOnnx: "0".repeat(64) }));
  await assert.rejects(motor.cargar(), { message: MODELO.distinto("modelo/m.onnx") });
  assert.equal(motor.estado, "error");
  assert.equal(motor.error, MODELO.fallo(MODELO.distinto("modelo/m.onnx")));
  assert.equal(motor.cargados, undefined, "nothing is loaded");
});

test("Cancelar during the download leaves it sin-descargar, and a second cargar works", async () => {
  servidor({ parar: true });
  const { motor } = motorDePrueba();
  const control = new AbortController();
  const carga = motor.cargar({ alProgreso: ({ bytes }) => bytes > WASM.length + TOKENIZADOR.length && control.abort(),
                               senal: control.signal });
  await assert.rejects(carga, { name: "AbortError" });
  assert.equal(motor.estado, "sin-descargar");
  servidor();
  await motor.cargar();
  assert.equal(motor.estado, "listo");
});

const RESULTADO = { texto: '{"texto":"hola"}', fin: "stop", tokensEntrada: 7, tokensSalida: 5, tokensReusados: 33,
                    tiempos: { prompt_n: 7, prompt_ms: 70, cache_n: 33, predicted_n: 5, predicted_ms: 50 } };

test("generar asks the worker for one answer held to the schema, one at a time", async () => {
  const { motor } = motorDePrueba();
  motor.estado = "listo";
  let enCurso = 0;
  const recibidos = trabajador(motor, async () => {
    assert.equal(++enCurso, 1, "one generation at a time");
    await new Promise((r) => setTimeout(r, 5));
    enCurso--;
    return RESULTADO;
  });
  const esquema = { type: "object", properties: { texto: { type: "string" } } };
  const mensajes = [{ role: "system", content: "s" }, { role: "user", content: "u" }];
  const [r] = await Promise.all([motor.generar({ mensajes, esquema, max_tokens: 8 }),
                                 motor.generar({ mensajes, max_tokens: 4 })]);
  assert.deepEqual(r, RESULTADO);
  assert.deepEqual(recibidos.map(({ tipo, mensajes: m, esquema: e, max_tokens }) => [tipo, m, e, max_tokens]),
                   [["generar", mensajes, esquema, 8], ["generar", mensajes, null, 4]]);
});

test("Detener: the generation's signal tells the worker to stop, and generar rejects as aborted", async () => {
  const { motor } = motorDePrueba();
  motor.estado = "listo";
  let soltar;
  const recibidos = trabajador(motor, () => new Promise((r) => { soltar = () => r(RESULTADO); }));
  const control = new AbortController();
  const turno = motor.generar({ mensajes: [], max_tokens: 8, senal: control.signal });
  await new Promise((r) => setTimeout(r, 0));
  control.abort();
  soltar();
  await assert.rejects(turno, { name: "AbortError" });
  assert.deepEqual(recibidos.map((m) => m.tipo), ["generar", "cancelar"]);
  assert.equal(recibidos[1].id, recibidos[0].id);
});

test("each generation is kept in the engine's record (what the bench reads), the latest 50", async () => {
  const { motor } = motorDePrueba();
  motor.estado = "listo";
  let n = 0;
  trabajador(motor, () => ({ ...RESULTADO, fin: ++n === 2 ? "length" : "stop" }));
  const mensajes = [{ role: "user", content: "u" }];
  const gramatica = 'root ::= "{}"\n';
  await motor.generar({ mensajes, max_tokens: 8 });
  await motor.generar({ mensajes, gramatica, max_tokens: 16 });
  assert.deepEqual(motor.historial.map((g) => [g.mensajes, g.gramatica, g.max_tokens, g.tokensEntrada, g.fin]),
                   [[mensajes, null, 8, 7, "stop"], [mensajes, gramatica, 16, 7, "length"]]);
  assert.deepEqual(motor.historial[1].tiempos, RESULTADO.tiempos);
  assert.ok(motor.historial.every((g) => g.ms >= 0));
  for (let i = 0; i < 60; i++) await motor.generar({ mensajes, max_tokens: i });
  assert.equal(motor.historial.length, 50);
  assert.equal(motor.historial.at(-1).max_tokens, 59);
});

test("preparar has the model read the shared start right after a load, once, and waits its turn", async () => {
  servidor();
  const { motor } = motorDePrueba();
  let recibidos = [];
  motor.iniciar = async () => {
    recibidos = trabajador(motor, (m) => (m.tipo === "preparar" ? { tokens: 40, restaurada: false } : RESULTADO));
    return 1;
  };
  const prefijo = [{ role: "system", content: "s" }, { role: "user", content: "" }];
  assert.equal(await motor.preparar(prefijo), null, "nothing to prepare before a load");
  await motor.cargar();
  const preparada = motor.preparar(prefijo);
  const turno = motor.generar({ mensajes: [{ role: "system", content: "s" }, { role: "user", content: "u" }], max_tokens: 8 });
  const hecha = await preparada;
  await turno;
  const pedidas = recibidos;
  assert.deepEqual(pedidas.map((m) => m.tipo), ["preparar", "generar"], "the turn after it, in the queue");
  // Kept under the model's hash and the start's own text (so that a reload puts it back).
  assert.match(pedidas[0].clave, new RegExp(`/modelo/prefijo\\?modelo=${sha(ONNX)}&texto=[0-9a-f]{64}$`));
  assert.deepEqual(pedidas[0].mensajes, prefijo);
  assert.deepEqual([hecha.tokens, hecha.restaurada, hecha.mensajes], [40, false, prefijo]);
  assert.ok(hecha.ms >= 0 && motor.cifras.preparacion === hecha);
  assert.equal(motor.historial.length, 1, "the preparation is no generation of the record");
  // Once the model has answered, the cache holds a conversation: preparing again does nothing.
  assert.equal(await motor.preparar(prefijo), null);
  assert.equal(recibidos.length, 2);
});

test("generar without the model downloaded says so", async () => {
  const { motor } = motorDePrueba();
  await assert.rejects(motor.generar({ mensajes: [], max_tokens: 8 }), { message: MODELO.noDescargado });
});

test("a request once the worker is stopped rejects as the pending ones did, and leaves nothing pending", async () => {
  const motor = new Motor();
  motor.parar();
  await assert.rejects(motor.pedir({ tipo: "preparar" }), { message: MODELO.sinDatos });
  assert.equal(motor.pendientes.size, 0);
});
