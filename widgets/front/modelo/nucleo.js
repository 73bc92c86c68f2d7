// The in-page model's generation, apart from what computes it: the chat as the model reads it
// (ChatML), the KV cache kept from prompt to prompt, greedy decoding held to the output's schema
// (gramatica.js), and llama.cpp's counters. No DOM, no onnxruntime: the forward pass is injected
// (modelo-trabajador.js gives onnxruntime-web's; the tests, a scripted one).
//
//   const nucleo = new Nucleo({ correr, codificar, bytesDe, fin, forma, ceder });
//   await nucleo.generar({ mensajes, esquema, max_tokens, cancelado })
//     → { texto, fin: "stop" | "length", tokensEntrada, tokensSalida, tokensReusados, tiempos }
//       (tiempos: llama.cpp's names — prompt_n, prompt_ms, cache_n, predicted_n, predicted_ms, … —
//       and where the time went: codificar_ms, correr_ms, juntar_ms, elegir_ms)
//   await nucleo.preparar(mensajes)      → { tokens } (the prompt read; its cache kept)
//   nucleo.estado() / nucleo.restaurar(estado)   the cache and its tokens, to keep and put back
//
// correr(ids, p, pasado) → {logits, nuevos}: the model over the new tokens `ids` after the `p` in
// the cache (`pasado`: each layer's keys and values, [p, heads_kv, size] float32 views, k then v
// per layer); `logits` the last token's, `nuevos` the new tokens' keys and values, same order.
// codificar(texto) → token ids (special tokens read as such); bytesDe(id) → the token's bytes, or
// null for a special token; fin: the ids that end an answer; forma: {capas, cabezas_kv, tamano,
// contexto}; ceder(): a promise that lets the worker read its messages (a cancellation) between
// tokens.
import { comprobador } from "./gramatica.js";

export class ContextoLleno extends Error {}

/**
 * The model's chat template (the GGUF's `tokenizer.chat_template`, ChatML, no BOS): each message
 * as `<|im_start|>role\ncontent<|im_end|>\n`, then the assistant's turn opened.
 */
export function textoDelChat(mensajes) {
  return mensajes.map((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`).join("") + "<|im_start|>assistant\n";
}

/** The index of the largest of `logits` not in `fuera`. */
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

export class Nucleo {
  constructor({ correr, codificar, bytesDe, fin, forma, ceder = () => Promise.resolve() }) {
    Object.assign(this, { correr, codificar, bytesDe, fin: new Set(fin), forma, ceder });
    const fila = forma.cabezas_kv * forma.tamano;
    this.fila = fila;
    this.memoria = Array.from({ length: 2 * forma.capas }, () => new Float32Array(forma.contexto * fila));
    this.enCache = []; // the tokens whose keys and values are in memoria, in order
    this.reparto = { codificar_ms: 0, correr_ms: 0, juntar_ms: 0, elegir_ms: 0 };
  }

  /** Read `ids` after the cache's tokens, append their keys and values: the last one's logits. */
  async leer(ids) {
    const p = this.enCache.length;
    if (p + ids.length > this.forma.contexto) throw new ContextoLleno(`${p + ids.length} > ${this.forma.contexto}`);
    const pasado = this.memoria.map((m) => m.subarray(0, p * this.fila));
    const t0 = performance.now();
    const { logits, nuevos } = await this.correr(ids, p, pasado);
    const t1 = performance.now();
    nuevos.forEach((n, j) => this.memoria[j].set(n, p * this.fila));
    this.enCache.push(...ids);
    this.reparto.correr_ms += t1 - t0;
    this.reparto.juntar_ms += performance.now() - t1;
    return logits;
  }

  /** Keep the cache's longest prefix shared with `ids`, leaving at least one token to read. */
  reusar(ids) {
    let comun = 0;
    const tope = Math.min(ids.length - 1, this.enCache.length);
    while (comun < tope && ids[comun] === this.enCache[comun]) comun++;
    this.enCache.length = comun;
    return comun;
  }

  /** Read `mensajes`' chat whole (the start the lesson's conversations share). */
  async preparar(mensajes) {
    const ids = this.codificar(textoDelChat(mensajes));
    const reusados = this.reusar(ids);
    await this.leer(ids.slice(reusados));
    return { tokens: ids.length - reusados };
  }

  /** One answer, greedy, held to `esquema` where gramatica.js covers it (see the top). */
  async generar({ mensajes, esquema, max_tokens, cancelado = () => false }) {
    const inicio = performance.now();
    this.reparto = { codificar_ms: 0, correr_ms: 0, juntar_ms: 0, elegir_ms: 0 };
    const ids = this.codificar(textoDelChat(mensajes));
    const comprobar = esquema ? comprobador(esquema) : null;
    const leyendo = performance.now();
    this.reparto.codificar_ms = leyendo - inicio;
    const reusados = this.reusar(ids);
    let logits = await this.leer(ids.slice(reusados));
    const leido = performance.now();
    let salida = new Uint8Array(64);
    let n = 0;
    let generados = 0;
    let fin = "length";
    while (generados < max_tokens) {
      const t = performance.now();
      const token = this.elegir(logits, salida, n, comprobar);
      this.reparto.elegir_ms += performance.now() - t;
      generados++;
      if (token < 0 || this.fin.has(token)) {
        fin = "stop";
        break;
      }
      const bytes = this.bytesDe(token);
      if (n + bytes.length > salida.length) {
        const mayor = new Uint8Array(2 * (n + bytes.length));
        mayor.set(salida.subarray(0, n));
        salida = mayor;
      }
      salida.set(bytes, n);
      n += bytes.length;
      if (generados === max_tokens) break; // the last token is never read, as llama.cpp does
      await this.ceder();
      if (cancelado()) break;
      logits = await this.leer([token]);
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
                 ...this.reparto },
    };
  }

  /** The best token the schema allows after the `n` bytes of `salida` (an end only when
   *  complete), -1 if none: the best first; after a few refused, the rest in order at once. */
  elegir(logits, salida, n, comprobar) {
    if (!comprobar) return mejor(logits, new Set());
    const permitido = (token) => {
      if (this.fin.has(token)) return comprobar(salida, n).completa;
      const bytes = this.bytesDe(token);
      if (!bytes) return false;
      const prueba = new Uint8Array(n + bytes.length);
      prueba.set(salida.subarray(0, n));
      prueba.set(bytes, n);
      return comprobar(prueba).prefijo;
    };
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

  /** Put back an `estado()`. */
  restaurar({ ids, memoria }) {
    memoria.forEach((m, j) => this.memoria[j].set(m));
    this.enCache = [...ids];
  }
}
