// @ts-check
// The course's progress: what the index shows, fed by the questions and the challenges.
//
// One JSON value per course, under "bucle:<curso>:progreso":
//   { "<pagina>": { "preguntas": { "<id>": true | false },        // answered right / wrong
//                   "desafios":  { "<id>": { "superadas": n, "total": m } },      // best result
//                   "predicciones": { "<id>": { "aciertos": n, "total": m } } } } // best round
// Widgets call registrarPregunta / registrarDesafio / registrarPrediccion; the index reads
// progresoDe(curso).
// exportar / importar move every key of the course (code, answers, progress) as one file.
import { claves, guardar, leer } from "./almacen.js";
import { mejorRonda } from "./predice.js";
import { PROGRESO } from "./textos.js";

/** @type {(curso: string | undefined) => string} */
const clave = (curso) => `bucle:${curso}:progreso`;

/**
 * @param {unknown} x
 * @returns {x is Record<string, any>}
 */
const esObjeto = (x) => x !== null && typeof x === "object" && !Array.isArray(x);

/**
 * @param {string | undefined} curso
 * @returns {Record<string, any>}
 */
export function progresoDe(curso) {
  const datos = leer(clave(curso));
  return esObjeto(datos) ? datos : {};
}

/**
 * `padre[nombre]`, made an empty object if it is anything else (a value of another shape).
 * @param {Record<string, any>} padre
 * @param {string} nombre
 * @returns {Record<string, any>}
 */
function objetoEn(padre, nombre) {
  if (!esObjeto(padre[nombre])) padre[nombre] = {};
  return padre[nombre];
}

/**
 * @param {Widget} elemento
 * @param {(deLaPagina: Record<string, any>) => void} cambio
 */
function actualizar(elemento, cambio) {
  const { bucleCurso: curso, buclePagina: pagina } = elemento.dataset;
  const todo = progresoDe(curso);
  const deLaPagina = objetoEn(todo, String(pagina)); // (a key: as it always was, "undefined" if missing)
  cambio(deLaPagina);
  guardar(clave(curso), todo);
  globalThis.dispatchEvent?.(new CustomEvent("bucle:progreso", { detail: { curso, pagina } }));
}

/** @typedef {{ dataset: DOMStringMap }} Widget  a widget's element (data-bucle-curso, -pagina, -id) */

/**
 * A question of `elemento` (a widget with data-bucle-curso, data-bucle-pagina, data-bucle-id) was answered.
 * @param {Widget} elemento
 * @param {unknown} correcta
 */
export function registrarPregunta(elemento, correcta) {
  actualizar(elemento, (p) => {
    objetoEn(p, "preguntas")[String(elemento.dataset.bucleId)] = Boolean(correcta);
  });
}

/**
 * A challenge was graded: keep the best result.
 * @param {Widget} elemento
 * @param {number} superadas
 * @param {number} total
 */
export function registrarDesafio(elemento, superadas, total) {
  actualizar(elemento, (p) => {
    const desafios = objetoEn(p, "desafios");
    const antes = desafios[String(elemento.dataset.bucleId)];
    if (!esObjeto(antes) || superadas > antes.superadas || total !== antes.total) {
      desafios[String(elemento.dataset.bucleId)] = { superadas, total };
    }
  });
}

/**
 * A trace's round of predictions ended: keep the best one (lib/predice.js's mejorRonda).
 * @param {Widget} elemento
 * @param {number} aciertos
 * @param {number} total
 */
export function registrarPrediccion(elemento, aciertos, total) {
  actualizar(elemento, (p) => {
    const rondas = objetoEn(p, "predicciones");
    const id = String(elemento.dataset.bucleId);
    rondas[id] = mejorRonda(rondas[id], { aciertos, total });
  });
}

/**
 * Every saved value of the course, as one JSON-able object.
 * @param {string} curso
 */
export function exportar(curso) {
  /** @type {Record<string, unknown>} */
  const datos = {};
  for (const k of claves(`bucle:${curso}:`)) datos[k] = leer(k);
  return { curso, version: 1, datos };
}

/**
 * Restore an export of the same course; returns how many values were written.
 * @param {string} curso
 * @param {unknown} archivo the file read, as JSON
 */
export function importar(curso, archivo) {
  if (!esObjeto(archivo) || archivo.curso !== curso || !esObjeto(archivo.datos)) {
    throw new Error(PROGRESO.noEsDeEsteCurso);
  }
  let escritos = 0;
  for (const [k, v] of Object.entries(archivo.datos)) {
    if (k.startsWith(`bucle:${curso}:`) && guardar(k, v)) escritos++;
  }
  return escritos;
}
