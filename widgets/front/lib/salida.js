// @ts-check
// The output of a run, capped: it keeps the last `limite` characters (cutting at the start of a
// line when it can) and counts what it left out, so that a program printing millions of lines
// costs little to hold, to send from the worker and to show. Pure logic: the worker uses it to
// batch what it sends, the cell to hold what it shows.
//
//   const s = new Salida(50_000);
//   s.añadir("stdout", "hola\n");
//   s.recortar();   // s.segmentos: [{flujo, texto}], s.omitidas: {lineas, caracteres}

import { CELDA } from "./textos.js";

export const LIMITE = 50_000;

/** @typedef {{ flujo: string, texto: string }} Segmento */
/** @typedef {{ lineas: number, caracteres: number }} Omitidas */

/** @param {string} texto */
function contarLineas(texto) {
  let n = 0;
  for (let i = texto.indexOf("\n"); i !== -1; i = texto.indexOf("\n", i + 1)) n++;
  return n;
}

export class Salida {
  constructor(limite = LIMITE) {
    this.limite = limite;
    /** @type {Segmento[]} */
    this.segmentos = [];
    this.longitud = 0;
    /** @type {Omitidas} */
    this.omitidas = { lineas: 0, caracteres: 0 };
    this.vaciar();
  }

  vaciar() {
    this.segmentos = [];
    this.longitud = 0;
    this.omitidas = { lineas: 0, caracteres: 0 };
  }

  /**
   * Append `texto` of `flujo`; `omitidas` is what an earlier stage already left out.
   * @param {string} flujo
   * @param {string} texto
   * @param {Partial<Omitidas> | null} [omitidas]
   */
  añadir(flujo, texto, omitidas = null) {
    if (omitidas) {
      this.omitidas.lineas += omitidas.lineas || 0;
      this.omitidas.caracteres += omitidas.caracteres || 0;
    }
    if (!texto) return;
    const ultimo = this.segmentos[this.segmentos.length - 1];
    if (ultimo && ultimo.flujo === flujo) ultimo.texto += texto;
    else this.segmentos.push({ flujo, texto });
    this.longitud += texto.length;
    // Trimming is amortised: only when twice the limit is held.
    if (this.longitud > 2 * this.limite) this.recortar();
  }

  /** Drop the oldest text beyond the limit, counting it in `omitidas`. */
  recortar() {
    let sobra = this.longitud - this.limite;
    while (sobra > 0 && this.segmentos.length) {
      const primero = this.segmentos[0];
      if (primero.texto.length <= sobra) {
        this._omitir(primero.texto);
        sobra -= primero.texto.length;
        this.segmentos.shift();
        continue;
      }
      // Cut just after a newline so that the first line shown is whole (unless lines are huge).
      const salto = primero.texto.indexOf("\n", sobra - 1);
      const corte = salto === -1 || salto + 1 - sobra > 1000 ? sobra : salto + 1;
      this._omitir(primero.texto.slice(0, corte));
      primero.texto = primero.texto.slice(corte);
      if (!primero.texto) this.segmentos.shift();
      sobra = 0;
    }
    this.longitud = this.segmentos.reduce((total, s) => total + s.texto.length, 0);
  }

  /** @param {string} texto */
  _omitir(texto) {
    this.omitidas.caracteres += texto.length;
    this.omitidas.lineas += contarLineas(texto);
  }

  /** What is held (trimmed to the limit), emptying it: one batch for the worker to send. */
  tomar() {
    this.recortar();
    const lote = { segmentos: this.segmentos, omitidas: this.omitidas };
    this.vaciar();
    return lote;
  }
}

/**
 * The notice of a cut: «Salida demasiado larga: se han omitido 1234 líneas del principio; …».
 * @param {Omitidas} omitidas
 */
export function textoOmitido(omitidas) {
  return omitidas.lineas || omitidas.caracteres ? CELDA.omitido(omitidas) : "";
}

/**
 * The worker's output on its way to the page, in batches: at most one every 40 ms, so that a loop
 * that prints forever does not flood the page with one message per line. A batch keeps only its
 * last part (Salida), and while output overflows batches go every 250 ms only, so millions of
 * lines never cross postMessage; the first segment of a batch that left some out says how much
 * (`omitidas`). A batch is sent on the first write after its interval: while Python runs, the
 * worker has no timers.
 *
 *   const envio = new EnvioPorLotes((segmento) => postMessage({ id, type: "salida", ...segmento }));
 *   envio.empezar();                   // a run begins: its first write goes at once
 *   envio.añadir("stdout", "hola\n");  // sent now, or with a later write, or by vaciar()
 *   envio.vaciar();                    // what is held goes now
 */
export class EnvioPorLotes {
  /**
   * @param {(segmento: Segmento & { omitidas?: Omitidas }) => void} enviar
   * @param {{ ahora?: () => number }} [opciones]
   */
  constructor(enviar, { ahora = () => performance.now() } = {}) {
    this.enviar = enviar;
    this.ahora = ahora;
    this.lote = new Salida();
    this.ultimoEnvio = 0;
    this.intervalo = 40;
  }

  /**
   * @param {string} flujo
   * @param {string} texto
   */
  añadir(flujo, texto) {
    this.lote.añadir(flujo, texto);
    if (this.ahora() - this.ultimoEnvio > this.intervalo) this.vaciar();
  }

  vaciar() {
    this.ultimoEnvio = this.ahora();
    const { segmentos, omitidas } = this.lote.tomar();
    this.intervalo = omitidas.caracteres ? 250 : 40;
    segmentos.forEach(({ flujo, texto }, i) => {
      this.enviar(i === 0 && omitidas.caracteres ? { flujo, texto, omitidas } : { flujo, texto });
    });
  }

  /** The next write goes at once (after the reader answered a question, say). */
  pronto() {
    this.ultimoEnvio = 0;
  }

  /** A new run: the usual interval, and its first write goes at once. */
  empezar() {
    this.intervalo = 40;
    this.pronto();
  }
}
