// @ts-check
// A measurement of the bench (banco.js) as the page holds it: the runs the worker streams
// (trabajador_banco.py's records, with one readable line per block of each message), kept with
// their messages in one table (the system message and each request are stored once, however
// many runs share them), and what comes out of it: what is saved in localStorage, the recording
// file (Exportar JSON, the format of a `:grabacion:`), the CSV (one row per run, without M). No DOM.
//
//   const medida = new Medida(cabecera, total);   // cabecera: the worker's "empieza"
//   medida.añadir(ejecucion, lineas);             // each run, as it comes
//   medida.aGrabacion(); medida.aCSV(); medida.paraGuardar(); Medida.desdeGuardado(valor);
//   Medida.desdeGrabacion({ grabacion, lineas });  // a published recording (directivas/banco.py)

/** The runs per task a reader may ask for: trabajador_banco.py's VECES_MAXIMAS (tests/test_trabajador_banco.py
 *  holds the two languages equal). */
export const VECES_MAXIMAS = 1000;
/** How a run can end, in order: trabajador_banco_resumen.py's MOTIVOS (held equal by the same test). */
export const MOTIVOS = ["resuelta", "equivocada", "tope", "error"];
/** The version of what is saved in localStorage. */
export const VERSION = 1;
/** Characters of a saved measurement above which its conversations are left out. */
export const LIMITE_GUARDADO = 1_500_000;
/** The recording's keys before its runs, in order. */
const CABECERA = ["modelo", "temperatura", "semillas", "tope", "variantes", "tareas"];
/** The CSV's columns: a run's record without M. */
export const COLUMNAS_CSV = ["variante", "tarea", "tipo", "pedido", "semilla", "motivo", "turnos",
  "tokens", "segundos", "final", "error"];

/**
 * The runs per task the reader typed: { veces } or { error: true } (outside 1…VECES_MAXIMAS).
 * @param {unknown} texto
 */
export function leerVeces(texto) {
  const limpio = String(texto ?? "").trim();
  const n = /^\d{1,7}$/.test(limpio) ? Number(limpio) : NaN;
  return n >= 1 && n <= VECES_MAXIMAS ? { veces: n } : { error: true };
}

/** The model the reader names in «Modelo» (one the bench lists, or their own hacer_modelo
 *  defined in a cell): `{ modelo }` if it is a Python name, else `{ error: true }`.
 * @param {unknown} texto
 */
export function leerModelo(texto) {
  const limpio = String(texto ?? "").trim();
  return /^[\p{L}_][\p{L}\p{N}_]*$/u.test(limpio) ? { modelo: limpio } : { error: true };
}

/**
 * Seconds left, from `hechas` of `total` runs done in `ms`; null while too early to tell.
 * @param {number} hechas
 * @param {number} total
 * @param {number} ms
 */
export function segundosRestantes(hechas, total, ms) {
  if (hechas < 3 || ms < 300 || hechas >= total) return hechas >= total ? 0 : null;
  return ((ms / hechas) * (total - hechas)) / 1000;
}

/** @type {(x: string) => string} */
const escapar = (x) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The number (1-based) of the first cell whose code defines `nombre` (def, class or an
 *  assignment at the start of a line), or null.
 * @param {string} nombre
 * @param {string[]} codigos
 */
export function celdaQueDefine(nombre, codigos) {
  const n = escapar(nombre);
  const define = new RegExp(`^(?:(?:async\\s+)?def\\s+${n}\\s*\\(|class\\s+${n}\\b|${n}\\s*(?::[^=\\n]*)?=(?!=))`, "m");
  const i = codigos.findIndex((codigo) => define.test(codigo));
  return i < 0 ? null : i + 1;
}

/** @param {unknown} valor */
function campoCSV(valor) {
  if (valor === null || valor === undefined) return "";
  const texto = String(valor);
  return /[",\r\n]/.test(texto) ? `"${texto.replaceAll('"', '""')}"` : texto;
}

/**
 * @param {unknown} x
 * @returns {x is Record<string, any>}
 */
const esObjeto = (x) => x !== null && typeof x === "object" && !Array.isArray(x);

/** @typedef {Record<string, any>} Ejecucion  one of trabajador_banco.py's records */

export class Medida {
  /**
   * @param {Record<string, any> | null | undefined} cabecera the worker's "empieza"
   * @param {number} total
   */
  constructor(cabecera, total) {
    this.cabecera = Object.fromEntries(CABECERA.map((k) => [k, cabecera?.[k] ?? null]));
    this.total = total;
    /** @type {Ejecucion[]} */
    this.ejecuciones = []; // records, with M as indices into `mensajes` (null: left out)
    /** @type {[string, unknown][]} */
    this.mensajes = []; // [rol, contenido]
    /** @type {string[][]} */
    this.lineas = []; // per message, one line per block
    /** @type {Map<string, number>} */
    this.claves = new Map();
    /** @type {object | null} */
    this.vista = null; // the worker's summary for the reader (trabajador_banco_resumen.py)
    this.estado = "midiendo"; // | "completa" | "detenida"
    /** @type {number | null} */
    this.segundos = null;
    this.fecha = Date.now();
    this.sinTrazas = false; // saved without the conversations
    this.soloResumen = false; // saved as its summary alone
    this.hechasGuardadas = 0; // how many runs a summary saved alone had
  }

  /** How many runs it has (a summary saved alone counts the ones it had). */
  get hechas() {
    return this.soloResumen ? this.hechasGuardadas : this.ejecuciones.length;
  }

  get variantes() {
    return this.cabecera.variantes ?? [];
  }

  /**
   * The index of `mensaje` in the table, added (with its lines) if it is new.
   * @param {[string, unknown]} mensaje
   * @param {unknown} lineas
   * @returns {number}
   */
  indice(mensaje, lineas) {
    const clave = JSON.stringify(mensaje);
    let i = this.claves.get(clave);
    if (i === undefined) {
      i = this.mensajes.length;
      this.claves.set(clave, i);
      this.mensajes.push(mensaje);
      this.lineas.push(Array.isArray(lineas) ? lineas.map(String) : [JSON.stringify(mensaje?.[1] ?? mensaje)]);
    }
    return i;
  }

  /**
   * A run as the worker sent it (M as [rol, contenido] pairs) with its lines.
   * @param {Ejecucion} ejecucion
   * @param {unknown[]} [lineas]
   */
  añadir(ejecucion, lineas = []) {
    const pares = /** @type {[string, unknown][] | undefined} */ (ejecucion.M);
    const M = Array.isArray(pares) ? pares.map((m, k) => this.indice(m, lineas[k])) : null;
    this.ejecuciones.push({ ...ejecucion, M });
  }

  /**
   * The conversation of run `e` ([rol, contenido] pairs), or null when it was left out.
   * @param {Ejecucion} e
   */
  conversacion(e) {
    return e.M ? e.M.map((/** @type {number} */ i) => this.mensajes[i]) : null;
  }

  /** The runs without M, for the worker's summary. */
  ligeras() {
    return this.ejecuciones.map(({ M: _, ...resto }) => resto);
  }

  /** Runs in the recording's order: by variant, task, seed. */
  ordenadas() {
    /** @type {(v: string) => number} */
    const orden = (v) => this.variantes.indexOf(v);
    return [...this.ejecuciones].sort((a, b) => orden(a.variante) - orden(b.variante)
      || a.tarea - b.tarea || a.semilla - b.semilla);
  }

  /** The recording file (Exportar JSON), the format a `:grabacion:` reads. */
  aGrabacion() {
    return {
      ...this.cabecera,
      segundos: this.segundos,
      ejecuciones: this.ordenadas().map((e) => Object.fromEntries(
        [...COLUMNAS_CSV.map((c) => [c, e[c] ?? null]), ["M", this.conversacion(e)]])),
    };
  }

  /** One row per run, without M (Exportar CSV). */
  aCSV() {
    const filas = [COLUMNAS_CSV.join(",")];
    for (const e of this.ordenadas()) filas.push(COLUMNAS_CSV.map((c) => campoCSV(e[c])).join(","));
    return filas.join("\r\n") + "\r\n";
  }

  /** What localStorage keeps: everything; past LIMITE_GUARDADO characters, the runs without
   *  their conversations (the table, the list and the CSV still work after a reload; the traces
   *  do not); past it still, the summary alone (`soloResumen`). */
  paraGuardar(extra = {}) {
    const valor = {
      version: VERSION, ...extra, cabecera: this.cabecera, total: this.total, estado: this.estado,
      segundos: this.segundos, fecha: this.fecha, vista: this.vista, sinTrazas: this.sinTrazas,
      soloResumen: false, ejecuciones: this.ejecuciones, mensajes: this.mensajes, lineas: this.lineas,
    };
    /** @type {(v: object) => boolean} */
    const cabe = (v) => JSON.stringify(v).length <= LIMITE_GUARDADO;
    if (!this.sinTrazas && cabe(valor)) return valor;
    const sinTrazas = { ...valor, sinTrazas: true, mensajes: [], lineas: [],
      ejecuciones: this.ejecuciones.map(({ M: _, tipo: __, pedido: ___, ...resto }) => ({ ...resto, M: null })) };
    if (cabe(sinTrazas)) return sinTrazas;
    return { ...sinTrazas, soloResumen: true, hechas: this.ejecuciones.length, ejecuciones: [] };
  }

  /**
   * A saved measurement (paraGuardar), or null if it is not one.
   * @param {unknown} valor what localStorage held
   */
  static desdeGuardado(valor) {
    if (!esObjeto(valor) || valor.version !== VERSION || !Array.isArray(valor.ejecuciones)
      || !esObjeto(valor.cabecera) || !Array.isArray(valor.mensajes) || !Array.isArray(valor.lineas)) return null;
    const medida = new Medida(valor.cabecera, Number(valor.total) || valor.ejecuciones.length);
    Object.assign(medida, {
      estado: valor.estado === "completa" ? "completa" : "detenida",
      segundos: valor.segundos ?? null, fecha: valor.fecha ?? null, vista: valor.vista ?? null,
      sinTrazas: Boolean(valor.sinTrazas), mensajes: valor.mensajes, lineas: valor.lineas,
      ejecuciones: valor.ejecuciones.filter(esObjeto),
    });
    medida.mensajes.forEach((m, i) => medida.claves.set(JSON.stringify(m), i));
    if (medida.sinTrazas) {
      // (a run saved without M was saved without its task's words too: they are the header's)
      const tareas = medida.cabecera.tareas ?? [];
      medida.ejecuciones = medida.ejecuciones.map((e) => ({ tipo: tareas[e.tarea]?.tipo ?? null,
        pedido: tareas[e.tarea]?.pedido ?? null, ...e, M: null }));
    }
    medida.soloResumen = Boolean(valor.soloResumen);
    medida.hechasGuardadas = Number(valor.hechas) || 0;
    return medida;
  }

  /**
   * A published recording: { grabacion, lineas } (lineas: per run, per message).
   * @param {{ grabacion: Record<string, any>, lineas?: unknown[][] }} publicada
   */
  static desdeGrabacion({ grabacion, lineas }) {
    const medida = new Medida(grabacion, grabacion.ejecuciones.length);
    /** @type {Ejecucion[]} */ (grabacion.ejecuciones).forEach((e, k) => medida.añadir(e, lineas?.[k] ?? []));
    medida.estado = "completa";
    medida.segundos = grabacion.segundos ?? null;
    return medida;
  }
}
