// @ts-check
// The reader's work in localStorage, and nothing that breaks when storage does.
//
// Keys: "bucle:<curso>:<pagina>:<widget>" for a widget's state (a cell's code, a question's
// answer, a challenge's code and best result); values are JSON. Storage that is disabled, full
// or holds corrupt JSON never throws: reads give null, writes return false, and the first time
// it fails `alFallar` is called (piezas/almacen.js puts the page's one notice there). No DOM.

const PREFIJO = "bucle";
let avisado = false;
/** @type {(() => void) | null} */
let alFallar = null;

/**
 * Call `aviso()` the first time storage fails (once per page).
 * @param {() => void} aviso
 */
export function cuandoFalle(aviso) {
  alFallar = aviso;
}

/**
 * The storage key of a widget element (it carries data-bucle-curso, data-bucle-pagina, data-bucle-id).
 * @param {{ dataset: DOMStringMap }} elemento
 */
export function claveDe(elemento, sufijo = "") {
  const { bucleCurso, buclePagina, bucleId } = elemento.dataset;
  return [PREFIJO, bucleCurso, buclePagina, bucleId + (sufijo ? `.${sufijo}` : "")].join(":");
}

function almacen() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // access itself can throw (storage disabled by policy)
  }
}

/**
 * The value under `clave`, or null if missing, unreadable or corrupt.
 * @param {string} clave
 */
export function leer(clave) {
  let texto;
  try {
    const a = almacen();
    // Storage disabled: say so at once, before the reader does anything they would lose.
    if (!a) throw new Error("sin localStorage");
    texto = a.getItem(clave);
  } catch {
    avisar();
    return null;
  }
  if (texto == null) return null;
  try {
    return JSON.parse(texto);
  } catch {
    return null;
  }
}

/**
 * Save `valor` as JSON; false (and one notice on the page) when it cannot be kept.
 * @param {string} clave
 * @param {unknown} valor
 */
export function guardar(clave, valor) {
  const a = almacen();
  try {
    if (!a) throw new Error("sin localStorage");
    a.setItem(clave, JSON.stringify(valor));
    return true;
  } catch {
    avisar();
    return false;
  }
}

/** @param {string} clave */
export function borrar(clave) {
  try {
    almacen()?.removeItem(clave);
  } catch {
    /* nothing to keep, nothing lost */
  }
}

/**
 * Every key under a prefix ("bucle:<curso>:"), for the course's progress and its export.
 * @param {string} prefijo
 */
export function claves(prefijo) {
  const a = almacen();
  /** @type {string[]} */
  const todas = [];
  if (!a) return todas;
  try {
    for (let i = 0; i < a.length; i++) {
      const k = a.key(i);
      if (k?.startsWith(prefijo)) todas.push(k);
    }
  } catch {
    /* unavailable: no keys */
  }
  return todas;
}

/**
 * Call `alCambiar(valor)` when another tab changes `clave`.
 * @param {string} clave
 * @param {(valor: unknown) => void} alCambiar
 */
export function escuchar(clave, alCambiar) {
  globalThis.addEventListener("storage", (evento) => {
    if (evento.key !== clave) return;
    try {
      alCambiar(evento.newValue == null ? null : JSON.parse(evento.newValue));
    } catch {
      /* corrupt value from the other tab: ignore */
    }
  });
}

function avisar() {
  if (avisado || !alFallar) return;
  avisado = true;
  alFallar();
}
