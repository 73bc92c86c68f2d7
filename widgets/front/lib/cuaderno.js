// @ts-check
// The cells of a page as a notebook: one namespace, filled in page order. Pure logic (no DOM):
// which earlier cells must run before a given one, and what the reader is told about a run.
//
//   const c = new Cuaderno();
//   c.anteriores(3, [1, 2, 3, 4]);   // [1, 2]: not yet run in this Python
//   c.marcar(1); c.olvidar();        // olvidar: Python restarted, the namespace is gone
import { CELDA, PYTHON } from "./textos.js";

export class Cuaderno {
  constructor() {
    /** @type {Set<number>} */
    this.ejecutadas = new Set();
  }

  /**
   * The cells before `orden`, among `todas`, that have not run in the current Python.
   * @param {number} orden
   * @param {Iterable<number>} todas
   */
  anteriores(orden, todas) {
    return [...todas].filter((o) => o < orden && !this.ejecutadas.has(o)).sort((a, b) => a - b);
  }

  /** @param {number} orden */
  marcar(orden) {
    this.ejecutadas.add(orden);
  }

  olvidar() {
    this.ejecutadas.clear();
  }
}

/**
 * What the reader is told when a cell first runs the earlier ones it depends on.
 * @param {number[]} ordenes
 */
export function avisoDeAnteriores(ordenes) {
  return ordenes.length ? CELDA.anteriores(ordenes) : "";
}

/**
 * The line shown after a run, from the worker's result ({estado, codigo?, reiniciado?}); ""
 * when the output says it all (a normal end, or an error whose traceback is shown).
 * @param {{ estado?: string, codigo?: number, reiniciado?: boolean } | null | undefined} resultado
 * @param {{ huboSalida?: boolean }} [opciones]
 */
export function textoDelFinal(resultado, { huboSalida = true } = {}) {
  switch (resultado?.estado) {
    case "ok":
      return huboSalida ? "" : CELDA.sinSalida;
    case "salida":
      return CELDA.salio(resultado.codigo);
    case "detenido":
      return resultado.reiniciado ? `${CELDA.detenida} ${CELDA.perdido}` : CELDA.detenida;
    case "cancelado":
      return CELDA.cancelada;
    default: // "error" too: its traceback is in the output
      return "";
  }
}

/**
 * The line shown when a run could not happen or broke Python ({error, reiniciado?}). The
 * browser's words for a stack overflow become the reader's.
 * @param {{ error?: unknown, reiniciado?: boolean }} fallo
 */
export function textoDelFallo({ error, reiniciado = false }) {
  let motivo = String(error ?? PYTHON.desconocido).replace(/\.$/, "");
  if (/call stack/i.test(motivo)) motivo = CELDA.pila;
  const texto = CELDA.noSePudo(motivo);
  return reiniciado ? `${texto} ${CELDA.perdido}` : texto;
}

const OPEN_URL = /\bopen_url\(\s*(["'])([^"'\\\n]+)\1\s*\)/g;

/**
 * The files the cells will read with open_url("…") (literal URLs, in order, once each): the
 * page has the worker fetch them ahead (python.precargar). Not URLs of another origin.
 * @param {Iterable<string | null | undefined>} codigos
 */
export function leidasPorLasCeldas(codigos) {
  const urls = new Set();
  for (const codigo of codigos) {
    for (const [, , url] of String(codigo ?? "").matchAll(OPEN_URL)) {
      if (!/^[a-z][a-z0-9+.-]*:|^\/\//i.test(url)) urls.add(url);
    }
  }
  return [...urls];
}
