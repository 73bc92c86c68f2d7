// @ts-check
// Scoring a question: pure logic, no DOM (tests/front/puntuar.test.mjs).
//
// `datos` is the JSON the build embeds in each question (widgets/directivas/pregunta.py):
//   { tipo: "una" | "varias", opciones: n, correctas: [indices] }
//   { tipo: "numero", respuesta: x, margen: m }
// A reader's answer (`respuesta`) is an array of chosen option indices, or the text typed for
// a number. What is kept in storage is { respuesta, resultado } with resultado true (right),
// false (wrong) or null (not checked yet).

import { PREGUNTA } from "./textos.js";

/**
 * @typedef {{ tipo: "una" | "varias", opciones: number, correctas: number[] }
 *   | { tipo: "numero", respuesta: number, margen: number }} Datos
 */

/**
 * A number as a reader writes it ("13", "-2,5", " 0.5 "), or null if it is not one.
 * @param {unknown} texto
 */
export function leerNumero(texto) {
  const limpio = String(texto ?? "").trim().replace(/\s/g, "").replace(",", ".");
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(limpio)) return null;
  return Number(limpio);
}

/**
 * |valor − respuesta| ≤ margen, forgiving the binary rounding of decimals (0,4 vs 0,3 ± 0,1).
 * @param {number} valor
 * @param {number} respuesta
 * @param {number} margen
 */
export function dentroDelMargen(valor, respuesta, margen) {
  const tolerancia = 1e-9 * Math.max(1, Math.abs(respuesta), Math.abs(margen));
  return Math.abs(valor - respuesta) <= margen + tolerancia;
}

/**
 * Grade an answer: "correcta", "incorrecta", "vacia" (nothing chosen or typed) or "invalida"
 * (typed text that is not a number). Only the first two count as answered.
 * @param {Datos} datos
 * @param {unknown} respuesta chosen indices, or the text typed
 */
export function puntuar(datos, respuesta) {
  if (datos.tipo === "numero") {
    if (String(respuesta ?? "").trim() === "") return "vacia";
    const valor = leerNumero(respuesta);
    if (valor === null) return "invalida";
    return dentroDelMargen(valor, datos.respuesta, datos.margen) ? "correcta" : "incorrecta";
  }
  const elegidas = [...new Set(Array.isArray(respuesta) ? respuesta : [])].sort((a, b) => a - b);
  if (elegidas.length === 0) return "vacia";
  const correctas = [...datos.correctas].sort((a, b) => a - b);
  const iguales =
    elegidas.length === correctas.length && elegidas.every((indice, i) => indice === correctas[i]);
  return iguales ? "correcta" : "incorrecta";
}

/**
 * What the page says after «Comprobar» for each outcome.
 * @param {Datos} datos
 * @param {string} estado
 * @param {unknown} [respuesta]
 */
export function veredicto(datos, estado, respuesta = "") {
  switch (estado) {
    case "correcta":
      return PREGUNTA.correcto;
    case "incorrecta":
      return datos.tipo === "varias" ? PREGUNTA.incorrectoVarias : PREGUNTA.incorrecto;
    case "vacia":
      if (datos.tipo === "numero") return PREGUNTA.escribeNumero;
      return datos.tipo === "varias" ? PREGUNTA.marcaUna : PREGUNTA.eligeUna;
    case "invalida":
      return PREGUNTA.noEsNumero(String(respuesta).trim());
    default:
      return "";
  }
}

/**
 * A stored state made safe to restore: anything corrupt or from an older build of the question
 * (an index that no longer exists, a number kept for an options question) gives null.
 * @param {any} valor what storage held
 * @param {Datos} datos
 */
export function estadoGuardado(valor, datos) {
  if (!valor || typeof valor !== "object" || Array.isArray(valor)) return null;
  const resultado = valor.resultado === true || valor.resultado === false ? valor.resultado : null;
  const { respuesta } = valor;
  if (datos.tipo === "numero") {
    if (typeof respuesta !== "string") return null;
  } else {
    if (!Array.isArray(respuesta)) return null;
    const validas = respuesta.every((i) => Number.isInteger(i) && i >= 0 && i < datos.opciones);
    if (!validas || (datos.tipo === "una" && respuesta.length > 1)) return null;
  }
  // a result kept by an older build of the question (its answer changed since) would lie:
  // grade again what is restored, and keep the result only when it agrees
  const estado = puntuar(datos, respuesta);
  const respondida = estado === "correcta" || estado === "incorrecta";
  const coherente = resultado === null || (respondida && resultado === (estado === "correcta"));
  return {
    respuesta: Array.isArray(respuesta) ? [...respuesta] : respuesta,
    resultado: coherente ? resultado : null,
  };
}

/**
 * The group's score from its questions' results (true, false or null).
 * @param {(boolean | null)[]} resultados
 */
export function puntuacion(resultados) {
  return { correctas: resultados.filter((r) => r === true).length, total: resultados.length };
}

/** @param {{ correctas: number, total: number }} puntos */
export function textoPuntuacion({ correctas, total }) {
  return PREGUNTA.puntuacion(correctas, total);
}
