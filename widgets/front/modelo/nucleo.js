// @ts-check
// The in-page model's generation, apart from what computes it: the chat as the model reads it
// (ChatML), the KV cache kept from prompt to prompt, greedy decoding held to the output's schema
// (gramatica.js), and llama.cpp's counters. No DOM, no onnxruntime: the forward pass is injected
// (modelo-trabajador.js gives onnxruntime-web's; the tests, a scripted one).
//
//   const nucleo = new Nucleo({ correr, codificar, bytesDe, fin, forma, ceder });
//   await nucleo.generar({ mensajes, esquema, max_tokens, cancelado })
//     → { texto, fin: "stop" | "length", tokensEntrada, tokensSalida, tokensReusados, tiempos }
//       (tiempos: llama.cpp's names — prompt_n, prompt_ms (to the first token's logits: the
//       answer's forced start is read with the prompt), cache_n, predicted_n, predicted_ms, … —
//       where the time went: codificar_ms, correr_ms, juntar_ms, elegir_ms; and pasadas (forward
//       passes), adelantados (tokens read ahead), acertados (those the model chose))
//   await nucleo.preparar(mensajes)      → { tokens } (the prompt read; its cache kept)
//   nucleo.estado() / nucleo.restaurar(estado)   the cache and its tokens, to keep and put back
//
// correr(ids, p, pasado, ultimos) → {logits, nuevos}: the model over the new tokens `ids` after the
// `p` in the cache (`pasado`: each layer's keys and values, [p, heads_kv, size] float32 views, k
// then v per layer); `logits` the last `ultimos` tokens', one vocabulary after another, `nuevos`
// the new tokens' keys and values, same order.
//
// What the schema forces is read ahead, never assumed: after a token, the bytes the schema alone
// allows next (gramatica.js's forzados: a key, the rest of a tool's name, the closing braces) are
// tokenized and read in the same forward pass, with the logits of each; each is kept only if greedy
// decoding, held to the schema, would have chosen it from those logits (the first that it would not
// is dropped with the rest, and what it would choose is taken instead). So the answer, the cache and
// the counters are those of one token at a time; only the number of forward passes falls.
// codificar(texto) → token ids (special tokens read as such); bytesDe(id) → the token's bytes, or
// null for a special token; fin: the ids that end an answer; forma: {capas, cabezas_kv, tamano,
// contexto}; ceder(): a promise that lets the worker read its messages (a cancellation) between
// tokens.
import { comprobador, forzados } from "./gramatica.js";

export class ContextoLleno extends Error {}

/** @typedef {{ role: string, content: string }} Mensaje */

const SIN_BYTES = new Uint8Array(0);

/**
 * The model's chat template (the GGUF's `tokenizer.chat_template`, ChatML, no BOS): each message
 * as `<|im_start|>role\ncontent<|im_end|>\n`, then the assistant's turn opened.
 * @param {Mensaje[]} mensajes
 */
export function textoDelChat(mensajes) {
  return mensajes.map((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`).join("") + "<|im_start|>assistant\n";
}

/**
 * The index of the largest of `logits` not in `fuera`.
 * @param {Float32Array} logits
 * @param {Set<number>} fuera
 */
function mejor(logits, fuera) {
  let indice = -1;
  let valor = -Infinity;
  for (let i = 0; i < logits.length; i++) {
    if (logits[i] > valor && !fuera.has(i)) {
      valor = logits[i];
      indice = i;
    }
  }
  return indice;
}

/** @typedef {{ capas: number, cabezas_kv: number, tamano: number, contexto: number }} Forma */
/**
 * @typedef {(ids: number[], p: number, pasado: Float32Array[], ultimos: number)
 *   => Promise<{ logits: Float32Array, nuevos: Float32Array[] }>} Correr
 */

export class Nucleo {
  /**
   * @param {{ correr: Correr, codificar: (texto: string) => number[],
   *   bytesDe: (id: number) => Uint8Array | null, fin: Iterable<number>, forma: Forma,
   *   ceder?: () => Promise<void> }} partes
   */
  constructor({ correr, codificar, bytesDe, fin, forma, ceder = () => Promise.resolve() }) {
    this.correr = correr;
    this.codificar = codificar;
    this.bytesDe = bytesDe;
    this.fin = new Set(fin);
    this.forma = forma;
    this.ceder = ceder;
    const fila = forma.cabezas_kv * forma.tamano;
    this.fila = fila;
    this.memoria = Array.from({ length: 2 * forma.capas }, () => new Float32Array(forma.contexto * fila));
    /** @type {number[]} */
    this.enCache = []; // the tokens whose keys and values are in memoria, in order
    this.reparto = Nucleo.reparto();
  }

  /** Where a turn's time went, and how many forward passes and tokens read ahead it took. */
  static reparto() {
    return { codificar_ms: 0, correr_ms: 0, juntar_ms: 0, elegir_ms: 0, pasadas: 0, adelantados: 0, acertados: 0 };
  }

  /** Read `ids` after the cache's tokens, append their keys and values: the logits of the last
   *  `ultimos` of them, in order (the last one's alone by default).
   * @param {number[]} ids
   * @param {number} [ultimos]
   */
  async leer(ids, ultimos = 1) {
    const p = this.enCache.length;
    if (p + ids.length > this.forma.contexto) throw new ContextoLleno(`${p + ids.length} > ${this.forma.contexto}`);
    const pasado = this.memoria.map((m) => m.subarray(0, p * this.fila));
    const t0 = performance.now();
    const { logits, nuevos } = await this.correr(ids, p, pasado, ultimos);
    const t1 = performance.now();
    nuevos.forEach((n, j) => this.memoria[j].set(n, p * this.fila));
    this.enCache.push(...ids);
    this.reparto.correr_ms += t1 - t0;
    this.reparto.pasadas++;
    this.reparto.juntar_ms += performance.now() - t1;
    const v = logits.length / ultimos;
    return Array.from({ length: ultimos }, (_, i) => logits.subarray(i * v, (i + 1) * v));
  }

  /** The tokens of what the schema forces after the `n` bytes of `salida` (at most `tope`): the
   *  tokenizer's split of those bytes, up to the first token that is not wholly theirs.
   * @param {import("./gramatica.js").Comprobar | null} comprobar
   * @param {Uint8Array} salida
   * @param {number} n
   * @param {number} tope
   */
  adelanto(comprobar, salida, n, tope) {
    if (!comprobar || tope <= 0) return [];
    const t = performance.now();
    const bytes = forzados(comprobar, salida, n);
    const tokens = [];
    let hecho = 0;
    for (const token of bytes.length ? this.codificar(new TextDecoder().decode(bytes)) : []) {
      const b = this.bytesDe(token);
      if (!b || tokens.length >= tope || hecho + b.length > bytes.length) break;
      if (!b.every((x, i) => x === bytes[hecho + i])) break;
      tokens.push(token);
      hecho += b.length;
    }
    this.reparto.elegir_ms += performance.now() - t;
    this.reparto.adelantados += tokens.length;
    return tokens;
  }

  /**
   * Keep the cache's longest prefix shared with `ids`, leaving at least one token to read.
   * @param {number[]} ids
   */
  reusar(ids) {
    let comun = 0;
    const tope = Math.min(ids.length - 1, this.enCache.length);
    while (comun < tope && ids[comun] === this.enCache[comun]) comun++;
    this.enCache.length = comun;
    return comun;
  }

  /**
   * Read `mensajes`' chat whole (the start the lesson's conversations share).
   * @param {Mensaje[]} mensajes
   */
  async preparar(mensajes) {
    const ids = this.codificar(textoDelChat(mensajes));
    const reusados = this.reusar(ids);
    await this.leer(ids.slice(reusados));
    return { tokens: ids.length - reusados };
  }

  /**
   * One answer, greedy, held to `esquema` where gramatica.js covers it (see the top).
   * @param {{ mensajes: Mensaje[], esquema?: object | null, max_tokens: number, cancelado?: () => boolean }} pedido
   */
  async generar({ mensajes, esquema, max_tokens, cancelado = () => false }) {
    const inicio = performance.now();
    this.reparto = Nucleo.reparto();
    const ids = this.codificar(textoDelChat(mensajes));
    const comprobar = esquema ? comprobador(esquema) : null;
    const leyendo = performance.now();
    this.reparto.codificar_ms = leyendo - inicio;
    const reusados = this.reusar(ids);
    let salida = new Uint8Array(64);
    let n = 0;
    // The answer's forced start is read with the prompt (see the top): `adelantados` are the tokens
    // read after the last one chosen, not yet confirmed; `filas`, the logits for each choice to come.
    let adelantados = this.adelanto(comprobar, salida, n, max_tokens - 1);
    let filas = await this.leer([...ids.slice(reusados), ...adelantados], adelantados.length + 1);
    const leido = performance.now();
    let generados = 0;
    let fin = "length";
    while (generados < max_tokens) {
      const t = performance.now();
      // (one row per token read ahead and one more: never empty here)
      const token = this.elegir(/** @type {Float32Array} */ (filas.shift()), salida, n, comprobar);
      generados++;
      const previsto = adelantados.length > 0 && token === adelantados[0];
      if (previsto) {
        adelantados.shift();
        this.reparto.acertados++;
      } else {
        this.enCache.length -= adelantados.length; // read ahead, not chosen: out of the cache
        adelantados = [];
      }
      this.reparto.elegir_ms += performance.now() - t;
      if (token < 0 || this.fin.has(token)) {
        fin = "stop";
        break;
      }
      // A special token not in `fin` (chosen only without a schema) writes nothing, as llama.cpp
      // does.
      const bytes = this.bytesDe(token) ?? SIN_BYTES;
      if (n + bytes.length > salida.length) {
        const mayor = new Uint8Array(2 * (n + bytes.length));
        mayor.set(salida.subarray(0, n));
        salida = mayor;
      }
      salida.set(bytes, n);
      n += bytes.length;
      if (generados === max_tokens) break; // the last token is never read, as llama.cpp does
      if (previsto) continue; // read already, with the logits of what follows
      await this.ceder();
      if (cancelado()) break;
      // Never past the cap: the last token is not read.
      adelantados = this.adelanto(comprobar, salida, n, max_tokens - generados - 1);
      filas = await this.leer([token, ...adelantados], adelantados.length + 1);
    }
    const hecho = performance.now();
    return {
      texto: new TextDecoder().decode(salida.subarray(0, n)),
      fin,
      tokensEntrada: ids.length - reusados,
      tokensSalida: generados,
      tokensReusados: reusados,
      tiempos: { prompt_n: ids.length - reusados, prompt_ms: leido - leyendo, cache_n: reusados,
                 predicted_n: generados, predicted_ms: hecho - leido,
                 prompt_per_second: (1000 * (ids.length - reusados)) / Math.max(leido - leyendo, 1e-3),
                 predicted_per_second: (1000 * generados) / Math.max(hecho - leido, 1e-3),
                 // where the engine's time went: the chat tokenized and the schema's check made,
                 // the model's forward passes, their keys and values appended, the tokens chosen
                 // (and what the schema forced found, read ahead); how many passes, how many
                 // tokens read ahead, how many of those the model chose
                 ...this.reparto },
    };
  }

  /** The best token the schema allows after the `n` bytes of `salida` (an end only when
   *  complete), -1 if none: the best first; after a few refused, the rest in order at once.
   * @param {Float32Array} logits
   * @param {Uint8Array} salida
   * @param {number} n
   * @param {import("./gramatica.js").Comprobar | null} comprobar
   */
  elegir(logits, salida, n, comprobar) {
    if (!comprobar) return mejor(logits, new Set());
    /** @type {(token: number) => boolean} */
    const permitido = (token) => {
      if (this.fin.has(token)) return comprobar(salida, n).completa;
      const bytes = this.bytesDe(token);
      if (!bytes) return false;
      const prueba = new Uint8Array(n + bytes.length);
      prueba.set(salida.subarray(0, n));
      prueba.set(bytes, n);
      return comprobar(prueba).prefijo;
    };
    /** @type {Set<number>} */
    const fuera = new Set();
    for (let intento = 0; intento < 32; intento++) {
      const token = mejor(logits, fuera);
      if (token < 0 || permitido(token)) return token;
      fuera.add(token);
    }
    const orden = Array.from(logits.keys()).filter((t) => !fuera.has(t)).sort((a, b) => logits[b] - logits[a]);
    return orden.find(permitido) ?? -1;
  }

  /** The cache's tokens and their keys and values (a copy), to keep. */
  estado() {
    const p = this.enCache.length;
    return { ids: [...this.enCache], memoria: this.memoria.map((m) => m.slice(0, p * this.fila)) };
  }

  /**
   * Put back an `estado()`.
   * @param {{ ids: number[], memoria: Float32Array[] }} estado
   */
  restaurar({ ids, memoria }) {
    memoria.forEach((m, j) => this.memoria[j].set(m));
    this.enCache = [...ids];
  }
}
