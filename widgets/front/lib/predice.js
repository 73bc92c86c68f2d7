// @ts-check
// Predict mode of a trace («Predice»): where each question goes among the steps, how far the
// reader may go without answering, a round's score and the best one kept. No DOM
// (tests/front/predice.test.mjs).
//
// The questions come from the build (widgets/directivas/predice.py, whose docstring is their format): each
// names the step it reveals by `antes: { evento, tipo }`, the event the step comes from
// (lib/traza-pasos.js gives every step its `evento`) and its kind (null: the event's first step).
// They are scored as the questions of the page are (lib/puntuar.js).

import { puntuar } from "./puntuar.js";
import { PREDICE } from "./textos.js";

/**
 * A question of a `predice` trace (widgets/directivas/predice.py): the step it comes before, and
 * puntuar.js's data.
 * @typedef {import("./puntuar.js").Datos & { antes?: { evento?: number, tipo?: string },
 *   solucion?: string, porque?: string }} Pregunta
 */
/** @typedef {Map<number, number[]>} PorPaso */
/** @typedef {{ aciertos: number, total: number }} Ronda */

/** Map from a step's index to the indices (in `preguntas`) of the questions asked before it is
 *  shown, in order. A question whose step is missing, or is the first, is left out.
 * @param {{ evento: number, tipo: string }[]} pasos
 * @param {Pregunta[]} [preguntas]
 */
export function preguntasPorPaso(pasos, preguntas = []) {
  /** @type {PorPaso} */
  const porPaso = new Map();
  preguntas.forEach((pregunta, k) => {
    const { evento, tipo } = pregunta.antes ?? {};
    const indice = pasos.findIndex((p) => p.evento === evento && (tipo == null || p.tipo === tipo));
    if (indice <= 0) return;
    let lista = porPaso.get(indice);
    if (!lista) porPaso.set(indice, (lista = []));
    lista.push(k);
  });
  return porPaso;
}

/**
 * The first question not yet answered (`respondidas`: a Map k → right) before step `indice`, or null.
 * @param {PorPaso} porPaso
 * @param {Map<number, boolean>} respondidas
 * @param {number} indice
 */
export function pendiente(porPaso, respondidas, indice) {
  return (porPaso.get(indice) ?? []).find((k) => !respondidas.has(k)) ?? null;
}

/** The furthest step the reader may see from step `indice` without answering: the step before
 *  the next one with a question not answered yet (the last step, `ultimo`, if none).
 * @param {PorPaso} porPaso
 * @param {Map<number, boolean>} respondidas
 * @param {number} indice
 * @param {number} ultimo
 */
export function frontera(porPaso, respondidas, indice, ultimo) {
  for (let i = indice + 1; i <= ultimo; i++) {
    if (pendiente(porPaso, respondidas, i) !== null) return i - 1;
  }
  return ultimo;
}

/** "correcta" | "incorrecta" | "vacia" | "invalida": `respuesta` is the text typed for a number,
 *  or [index] of the chosen option.
 * @param {Pregunta} pregunta
 * @param {unknown} respuesta
 */
export function comprobar(pregunta, respuesta) {
  return puntuar(pregunta, respuesta);
}

/**
 * What the reader is told after answering: the mark and one sentence of why.
 * @param {Pregunta} pregunta
 * @param {boolean} acierta
 */
export function veredicto(pregunta, acierta) {
  return { marca: acierta ? PREDICE.acierto : PREDICE.fallo(pregunta.solucion), porque: pregunta.porque };
}

/**
 * A round's score from its answers (Map k → right).
 * @param {Map<number, boolean>} respondidas
 * @returns {Ronda}
 */
export function marcador(respondidas) {
  const aciertos = [...respondidas.values()].filter(Boolean).length;
  return { aciertos, total: respondidas.size };
}

/**
 * The round to keep of two ({ aciertos, total }): the best share right; on a tie, the longer.
 * @param {any} antes what storage held
 * @param {Ronda} ahora
 */
export function mejorRonda(antes, ahora) {
  /** @type {(r: any) => boolean} */
  const valida = (r) => r && Number.isInteger(r.aciertos) && Number.isInteger(r.total) && r.total > 0
    && r.aciertos >= 0 && r.aciertos <= r.total;
  if (!valida(antes)) return ahora;
  const a = antes.aciertos * ahora.total;
  const b = ahora.aciertos * antes.total;
  if (b > a || (b === a && ahora.total > antes.total)) return ahora;
  return antes;
}
