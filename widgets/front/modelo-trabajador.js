// The in-page model's worker: onnxruntime-web (WebAssembly, every core when the page is
// cross-origin isolated) runs the course's model, written as an ONNX graph by the build
// (widgets/construccion/modelo_onnx.py), with the model's tokenizer (@huggingface/tokenizers) and
// modelo/nucleo.js's generation. modelo/motor.js starts it and talks to it:
//
//   → {id, tipo: "cargar", ort, wasm, onnx, pesos, externos, tokenizador, forma, fin, hilos}
//       ort: the URL of onnxruntime-web's module (served by the site); wasm, onnx, pesos: the
//       checked files' bytes (ArrayBuffers, transferred): onnxruntime's wasm, the model's graph and
//       its Q8_0 weights, multiplied here into the float32 data the graph names `externos`
//       (modelo_onnx.py's escribir_pesos); tokenizador: tokenizer.json's text
//   → {id, tipo: "generar", mensajes, esquema, max_tokens}   → nucleo.generar's result
//   → {id, tipo: "preparar", mensajes, clave}   read the start the conversations share, or put it
//       back from the Cache API where `clave` (model and text) was kept before → {tokens, restaurada}
//   → {tipo: "cancelar", id}   a generation under way stops at its next token
//   ← {id, ok: true, resultado} | {id, ok: false, error}
//
// Nothing here comes from elsewhere than the site: the wasm is the page's checked copy
// (env.wasm.wasmBinary), onnxruntime's module and the script of its threads are the site's files.
import { Tokenizer } from "@huggingface/tokenizers";
import { ContextoLleno, Nucleo } from "./modelo/nucleo.js";
import { pesosFloat32 } from "./modelo/pesos.js";
import { MODELO } from "./lib/textos.js";

const CACHE = "bucle-modelo";
let nucleo = null;
const cancelados = new Set();

// A pause that lets this worker read its messages between two tokens (a macrotask, without
// setTimeout's clamping).
const canal = new MessageChannel();
const esperando = [];
canal.port1.onmessage = () => esperando.shift()?.();
const ceder = () => new Promise((seguir) => {
  esperando.push(seguir);
  canal.port2.postMessage(null);
});

/** GPT-2's byte-level alphabet: the character of each byte in a token's text, reversed. */
function bytesDeLosCaracteres() {
  const visibles = [];
  for (let b = 33; b <= 126; b++) visibles.push(b);
  for (let b = 161; b <= 172; b++) visibles.push(b);
  for (let b = 174; b <= 255; b++) visibles.push(b);
  const mapa = new Map(visibles.map((b) => [String.fromCodePoint(b), b]));
  let extra = 0;
  for (let b = 0; b < 256; b++) if (!visibles.includes(b)) mapa.set(String.fromCodePoint(256 + extra++), b);
  return mapa;
}

async function cargar({ ort: urlOrt, wasm, onnx, pesos, externos, tokenizador, forma, fin, hilos }) {
  const ort = await import(/* the site's file, not bundled */ urlOrt);
  ort.env.wasm.wasmBinary = wasm;
  ort.env.wasm.numThreads = hilos;
  ort.env.wasm.wasmPaths = new URL("./", urlOrt).href;
  // onnxruntime copies the weights into its memory: this copy is only for the session's making,
  // and is let go once it is made (the options too, which onnxruntime may keep).
  const externo = { path: externos, data: new Uint8Array(pesosFloat32(pesos).buffer) };
  const opciones = { executionProviders: ["wasm"], graphOptimizationLevel: "all", externalData: [externo] };
  const sesion = await ort.InferenceSession.create(new Uint8Array(onnx), opciones);
  externo.data = null;
  opciones.externalData = null;
  const json = JSON.parse(tokenizador);
  const tok = new Tokenizer(json, { clean_up_tokenization_spaces: false });
  const especiales = new Set(json.added_tokens.map((t) => t.id));
  const mapa = bytesDeLosCaracteres();
  const bytes = [];
  for (const [texto, id] of Object.entries(json.model.vocab)) {
    bytes[id] = especiales.has(id) ? null : Uint8Array.from([...texto], (c) => mapa.get(c));
  }
  const { capas, cabezas_kv: h, tamano: d } = forma;
  nucleo = new Nucleo({
    forma, fin, ceder,
    codificar: (texto) => tok.encode(texto, { add_special_tokens: false }).ids,
    bytesDe: (id) => bytes[id] ?? null,
    async correr(ids, p, pasado, ultimos) {
      const entradas = { input_ids: new ort.Tensor("int64", BigInt64Array.from(ids, BigInt), [1, ids.length]),
                         ultimos: new ort.Tensor("int64", BigInt64Array.of(BigInt(ultimos)), [1]) };
      pasado.forEach((m, j) => {
        entradas[`pasado_${j % 2 ? "v" : "k"}_${j >> 1}`] = new ort.Tensor("float32", m, [1, p, h, d]);
      });
      const salida = await sesion.run(entradas);
      const nuevos = [];
      for (let i = 0; i < capas; i++) nuevos.push(salida[`nuevo_k_${i}`].data, salida[`nuevo_v_${i}`].data);
      return { logits: salida.logits.data, nuevos };
    },
  });
  return { hilos };
}

/** The start every conversation shares: put back from the Cache API under `clave`, else read and kept there. */
async function preparar({ mensajes, clave }) {
  const cache = await globalThis.caches?.open(CACHE).catch(() => null);
  const guardada = await cache?.match(clave);
  if (guardada) {
    const datos = new Float32Array(await guardada.arrayBuffer());
    const ids = Array.from(new Int32Array(datos.buffer, 4, new Int32Array(datos.buffer, 0, 1)[0]));
    let desde = 1 + ids.length;
    const largo = ids.length * nucleo.fila;
    const memoria = nucleo.memoria.map(() => {
      const m = datos.subarray(desde, desde + largo);
      desde += largo;
      return m;
    });
    nucleo.restaurar({ ids, memoria });
    return { tokens: 0, restaurada: true };
  }
  const { tokens } = await nucleo.preparar(mensajes);
  if (cache) {
    const { ids, memoria } = nucleo.estado();
    const todo = new Float32Array(1 + ids.length + memoria.length * ids.length * nucleo.fila);
    new Int32Array(todo.buffer, 0, 1 + ids.length).set([ids.length, ...ids]);
    let desde = 1 + ids.length;
    for (const m of memoria) {
      todo.set(m, desde);
      desde += m.length;
    }
    await cache.put(clave, new Response(todo.buffer)).catch(() => {}); // no room: read again next time
  }
  return { tokens, restaurada: false };
}

const ACCIONES = {
  cargar,
  preparar,
  generar: ({ id, mensajes, esquema, max_tokens }) =>
    nucleo.generar({ mensajes, esquema, max_tokens, cancelado: () => cancelados.has(id) }),
};

self.onmessage = async ({ data }) => {
  if (data.tipo === "cancelar") {
    cancelados.add(data.id);
    return;
  }
  try {
    self.postMessage({ id: data.id, ok: true, resultado: await ACCIONES[data.tipo](data) });
  } catch (error) {
    const mensaje = error instanceof ContextoLleno ? MODELO.contextoLleno : String(error?.message ?? error);
    self.postMessage({ id: data.id, ok: false, error: mensaje });
  } finally {
    cancelados.delete(data.id);
  }
};
