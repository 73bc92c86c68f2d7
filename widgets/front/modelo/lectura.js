// @ts-check
// The in-page model's output read back as the blocks of a response of the messages protocol:
// a text answer, one call, or what can be salvaged of an output cut at max_tokens. Pure
// functions, no DOM, no model.
//
//   bloquesDeSalida(texto, fin, ids, clave?) → { content, stop_reason }
import { esObjeto, esTexto } from "./valores.js";

// --------------------------------------------------------- bloques de salida

/**
 * The model's output as the response's blocks. `texto` is what it generated; `fin` is "stop"
 * (it ended) or "length" (cut at max_tokens); `ids()` gives the next server-assigned call id;
 * `clave` is the key of a text answer (claveDeTexto of the request's tools).
 *
 * - a text answer → one text block (none if empty), "end_turn";
 * - a call → one tool_use block with a new id, "tool_use";
 * - cut → "max_tokens" with what can be salvaged: the text so far of a text answer, never half a
 *   call (an output that is already whole when cut counts as whole);
 * - not JSON of either shape, and not cut → the raw output as a text block, "end_turn".
 * @param {string} texto
 * @param {string} fin "stop" | "length"
 * @param {() => string} ids the calls' ids
 * @param {string} [clave]
 */
export function bloquesDeSalida(texto, fin, ids, clave = "respuesta") {
  const entero = interpretar(texto, clave);
  if (entero) {
    if (entero.type === "tool_use") {
      const llamada = { type: "tool_use", id: ids(), name: entero.name, input: entero.input };
      return { content: [llamada], stop_reason: "tool_use" };
    }
    return { content: bloquesDeTexto(entero.text), stop_reason: "end_turn" };
  }
  if (fin === "length") return { content: bloquesDeTexto(textoRescatado(texto, clave)), stop_reason: "max_tokens" };
  return { content: bloquesDeTexto(texto), stop_reason: "end_turn" };
}

/** @type {(t: string) => { type: "text", text: string }[]} */
const bloquesDeTexto = (t) => (t ? [{ type: "text", text: t }] : []);

/** The output as {type:"text", text} or {type:"tool_use", name, input}, or null if it is
 *  neither: one JSON object with one key, `clave` and a text, or a name and an object.
 * @param {string} texto
 * @param {string} clave
 * @returns {{ type: "text", text: string } | { type: "tool_use", name: string, input: Record<string, any> } | null}
 */
function interpretar(texto, clave) {
  let valor;
  try {
    valor = JSON.parse(texto);
  } catch {
    return null;
  }
  if (!esObjeto(valor)) return null;
  const claves = Object.keys(valor);
  if (claves.length !== 1) return null;
  const [nombre] = claves;
  const dentro = valor[nombre];
  if (nombre === clave) return esTexto(dentro) ? { type: "text", text: dentro } : null;
  if (nombre !== "" && esObjeto(dentro)) return { type: "tool_use", name: nombre, input: dentro };
  return null;
}

/** @type {(clave: string) => RegExp} */
const comienzoDeTexto = (clave) =>
  new RegExp(`^\\s*\\{\\s*${JSON.stringify(clave).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*:\\s*"`);

/**
 * What a cut output said to the user: the decoded part of a text answer's string (an escape cut
 * in half is dropped); nothing for a cut call or a cut before the text began; the output itself
 * when it was not JSON at all.
 * @param {string} texto
 * @param {string} clave
 */
function textoRescatado(texto, clave) {
  if (!texto.trimStart().startsWith("{")) return texto;
  const inicio = comienzoDeTexto(clave).exec(texto);
  if (!inicio) return "";
  const resto = texto.slice(inicio[0].length);
  // The longest prefix of the string's body that decodes: stop at its closing quote or before a
  // half escape at the end.
  // (the pattern matches at least the empty string: never null)
  const cuerpo = (/^(?:[^"\\]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*/.exec(resto) ?? [""])[0];
  try {
    return JSON.parse(`"${cuerpo}"`);
  } catch {
    return ""; // control characters the grammar would not have let through
  }
}
