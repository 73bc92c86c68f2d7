// @ts-check
// Python waiting for the page: a question the reader answers (a permission, a line for input())
// while the worker is blocked. Only on a cross-origin isolated page, which has SharedArrayBuffer.
// Pure logic over one SharedArrayBuffer, shared by the page (python.js) and the worker (trabajador.js):
//
//   bytes 0–3   Int32 estado: LIBRE, ESPERANDO, RESPONDIDO, DETENIDO or SIN_LECTOR
//   bytes 4–7   Int32 length in bytes of the answer
//   bytes 8…    the answer, UTF-8 (cut, at a character's boundary, to what fits)
//
//   page:    const buffer = crearEspera();            sent to the worker in "iniciar"
//   worker:  esperar(buffer, () => postMessage(…))    blocks (Atomics.wait) until the page acts
//   page:    responder(buffer, "Ada")  |  detener(buffer)  |  sinLector(buffer)
//
// The worker sets ESPERANDO, tells the page (the callback) and sleeps while the state is
// ESPERANDO; the page changes it once (compareExchange from ESPERANDO, so a late answer after a
// stop does nothing) and wakes it (Atomics.notify). No timeout: a reader who never answers
// keeps the worker waiting until Detener, a restart or the page goes.

export const ESTADO = Object.freeze({ LIBRE: 0, ESPERANDO: 1, RESPONDIDO: 2, DETENIDO: 3, SIN_LECTOR: 4 });

const CABECERA = 8;
/** Room for the answer (bytes): an input() line or a button's word. */
export const CAPACIDAD = 64 * 1024;

/** The buffer of the waits: made by the page, once, when it is cross-origin isolated. */
export function crearEspera(capacidad = CAPACIDAD) {
  return new SharedArrayBuffer(CABECERA + capacidad);
}

/** @type {(buffer: SharedArrayBuffer) => Int32Array} */
const estadoDe = (buffer) => new Int32Array(buffer, 0, 2);

/**
 * `texto` as UTF-8, cut to at most `n` bytes without splitting a character.
 * @param {string} texto
 * @param {number} n
 */
export function utf8Hasta(texto, n) {
  const bytes = new TextEncoder().encode(texto);
  if (bytes.length <= n) return bytes;
  let fin = n;
  while (fin > 0 && (bytes[fin] & 0xc0) === 0x80) fin--; // bytes[fin] continues a character
  return bytes.subarray(0, fin);
}

/**
 * Worker side: tell the page (`avisar()`) and block until it acts. Returns
 * {estado: "respondido", texto} | {estado: "detenido"} | {estado: "sin-lector"}.
 * `interrumpido()` is asked once the wait is set up, before the page is told: a stop that came
 * just before (the interrupt buffer set) must not be slept through.
 * @param {SharedArrayBuffer} buffer
 * @param {() => void} avisar
 * @param {{ interrumpido?: () => boolean }} [opciones]
 */
export function esperar(buffer, avisar, { interrumpido = () => false } = {}) {
  const estado = estadoDe(buffer);
  Atomics.store(estado, 1, 0);
  Atomics.store(estado, 0, ESTADO.ESPERANDO);
  if (interrumpido()) {
    Atomics.store(estado, 0, ESTADO.LIBRE);
    return { estado: "detenido" };
  }
  avisar();
  while (Atomics.load(estado, 0) === ESTADO.ESPERANDO) Atomics.wait(estado, 0, ESTADO.ESPERANDO);
  const final = Atomics.exchange(estado, 0, ESTADO.LIBRE);
  if (final === ESTADO.RESPONDIDO) {
    const n = Atomics.load(estado, 1);
    // (a copy: TextDecoder does not read shared memory)
    const texto = new TextDecoder().decode(new Uint8Array(buffer, CABECERA, n).slice());
    return { estado: "respondido", texto };
  }
  return { estado: final === ESTADO.SIN_LECTOR ? "sin-lector" : "detenido" };
}

/**
 * @param {SharedArrayBuffer} buffer
 * @param {number} final
 */
function acabar(buffer, final) {
  const estado = estadoDe(buffer);
  const cambiado = Atomics.compareExchange(estado, 0, ESTADO.ESPERANDO, final) === ESTADO.ESPERANDO;
  if (cambiado) Atomics.notify(estado, 0);
  return cambiado;
}

/**
 * Page side: whether the worker is waiting now.
 * @param {SharedArrayBuffer} buffer
 */
export function esperando(buffer) {
  return Atomics.load(estadoDe(buffer), 0) === ESTADO.ESPERANDO;
}

/**
 * Page side: answer `texto` to the waiting worker. False if nothing was waiting.
 * @param {SharedArrayBuffer} buffer
 * @param {unknown} texto
 */
export function responder(buffer, texto) {
  if (!esperando(buffer)) return false;
  const bytes = utf8Hasta(String(texto), buffer.byteLength - CABECERA);
  new Uint8Array(buffer, CABECERA, bytes.length).set(bytes);
  Atomics.store(estadoDe(buffer), 1, bytes.length);
  return acabar(buffer, ESTADO.RESPONDIDO);
}

/**
 * Page side: wake the waiting worker with a stop (Python raises KeyboardInterrupt).
 * @param {SharedArrayBuffer} buffer
 */
export function detener(buffer) {
  return acabar(buffer, ESTADO.DETENIDO);
}

/**
 * Page side: nobody on the page can answer this request (Python gets None).
 * @param {SharedArrayBuffer} buffer
 */
export function sinLector(buffer) {
  return acabar(buffer, ESTADO.SIN_LECTOR);
}

/**
 * The page's side of the waits, over one buffer (`null` on a page that is not isolated: then no
 * question reaches it). A question goes to the run's `alPreguntar(pregunta, responder)`, with a
 * `responder(texto)` that answers it once, and not after a stop, a restart or a later question.
 *
 *   const esperas = new Esperas(crearEspera());
 *   esperas.recibir({ tipo, pregunta, detalle, partes }, alPreguntar);   // the worker's "pregunta"
 *   esperas.detener();   // Detener: Python wakes as stopped      esperas.olvidar(); // a restart
 */
/**
 * @typedef {{ tipo: string, pregunta: string, detalle: string, partes: unknown[] }} Pregunta
 * @typedef {(pregunta: Pregunta, responder: (texto: unknown) => boolean) => void} AlPreguntar
 */

export class Esperas {
  /** @param {SharedArrayBuffer | null} buffer */
  constructor(buffer) {
    this.buffer = buffer;
    /** @type {object | null} */
    this.turno = null; // the question Python is waiting on: a token only its responder holds
  }

  /**
   * Python waits on a question: hand it to `alPreguntar`, or, without one, answer «nobody here».
   * @param {{ tipo: string, pregunta?: string, detalle?: string, partes?: unknown }} mensaje the worker's
   * @param {AlPreguntar | null | undefined} alPreguntar
   */
  recibir({ tipo, pregunta, detalle, partes }, alPreguntar) {
    const buffer = this.buffer;
    if (!buffer) return;
    if (!alPreguntar) {
      sinLector(buffer);
      return;
    }
    const turno = {};
    this.turno = turno;
    /** @type {(texto: unknown) => boolean} */
    const responderle = (texto) => {
      if (this.turno !== turno) return false;
      this.turno = null;
      return responder(buffer, texto);
    };
    // `partes`: what a permission shows whole (runtime/permisos.py's que_cambia), as Python sent it.
    const enteras = Array.isArray(partes) ? partes : [];
    alPreguntar({ tipo, pregunta: pregunta ?? "", detalle: detalle ?? "", partes: enteras }, responderle);
  }

  /** A stop: the pending question is void, and Python wakes as stopped. */
  detener() {
    this.turno = null;
    if (this.buffer) detener(this.buffer);
  }

  /** A restart: the pending question is void (the worker that asked it is gone). */
  olvidar() {
    this.turno = null;
  }
}
