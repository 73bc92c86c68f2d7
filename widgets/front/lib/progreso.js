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

const clave = (curso) => `bucle:${curso}:progreso`;

const esObjeto = (x) => x !== null && typeof x === "object" && !Array.isArray(x);

export function progresoDe(curso) {
  const datos = leer(clave(curso));
  return esObjeto(datos) ? datos : {};
}

/** `padre[nombre]`, made an empty object if it is anything else (a value of another shape). */
function objetoEn(padre, nombre) {
  if (!esObjeto(padre[nombre])) padre[nombre] = {};
  return padre[nombre];
}

function actualizar(elemento, cambio) {
  const { bucleCurso: curso, buclePagina: pagina } = elemento.dataset;
  const todo = progresoDe(curso);
  const deLaPagina = objetoEn(todo, pagina);
  cambio(deLaPagina);
  guardar(clave(curso), todo);
  globalThis.dispatchEvent?.(new CustomEvent("bucle:progreso", { detail: { curso, pagina } }));
}

/** A question of `elemento` (a widget with data-bucle-curso, data-bucle-pagina, data-bucle-id) was answered. */
export function registrarPregunta(elemento, correcta) {
  actualizar(elemento, (p) => {
    objetoEn(p, "preguntas")[elemento.dataset.bucleId] = Boolean(correcta);
  });
}

/** A challenge was graded: keep the best result. */
export function registrarDesafio(elemento, superadas, total) {
  actualizar(elemento, (p) => {
    const desafios = objetoEn(p, "desafios");
    const antes = desafios[elemento.dataset.bucleId];
    if (!esObjeto(antes) || superadas > antes.superadas || total !== antes.total) {
      desafios[elemento.dataset.bucleId] = { superadas, total };
    }
  });
}

/** A trace's round of predictions ended: keep the best one (lib/predice.js's mejorRonda). */
export function registrarPrediccion(elemento, aciertos, total) {
  actualizar(elemento, (p) => {
    const rondas = objetoEn(p, "predicciones");
    rondas[elemento.dataset.bucleId] = mejorRonda(rondas[elemento.dataset.bucleId], { aciertos, total });
  });
}

/** Every saved value of the course, as one JSON-able object. */
export function exportar(curso) {
  const datos = {};
  for (const k of claves(`bucle:${curso}:`)) datos[k] = leer(k);
  return { curso, version: 1, datos };
}

/** Restore an export of the same course; returns how many values were written. */
export function importar(curso, archivo) {
  if (!archivo || archivo.curso !== curso || typeof archivo.datos !== "object") {
    throw new Error(PROGRESO.noEsDeEsteCurso);
  }
  let escritos = 0;
  for (const [k, v] of Object.entries(archivo.datos)) {
    if (k.startsWith(`bucle:${curso}:`) && guardar(k, v)) escritos++;
  }
  return escritos;
}
