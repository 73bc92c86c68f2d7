// @ts-check
// The in-page model's output held to its schema, token by token: a check of the bytes written so
// far against esquema.js's output schema, for the engine's sampler (modelo/nucleo.js). Made by the
// same walk of the schema as gramaticaDeSalida's compact grammar (esquema.js's traducirValor), it
// admits exactly what that grammar admits (no whitespace, keys in order, every key required), on
// bytes: any byte ≥ 0x80 is a character allowed inside a string and
// nowhere else, so a token that holds half of a UTF-8 character is judged as the grammar judges
// the character. Pure functions, no DOM, no model.
//
//   const c = comprobador(esquema)   // null where the schema is not covered (then nothing is held)
//   c(bytes, n)                      → { prefijo, completa }: the first n bytes are the start of an
//                                      answer the schema admits / a whole one
//   forzados(c, bytes, n)            → the bytes the schema forces after the first n (as long as one
//                                      byte alone may follow an answer not yet whole): the keys, the
//                                      rest of a tool's name, the braces that close it

import { traducirValor } from "./esquema.js";

const AGOTADO = -1; // the bytes ran out inside a value that could still be right

/** @type {(texto: string) => number[]} */
const codigos = (texto) => [...new TextEncoder().encode(texto)];
/** @type {(c: number) => boolean} */
const esDigito = (c) => c >= 0x30 && c <= 0x39;
/** @type {(c: number) => boolean} */
const esHex = (c) => esDigito(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const ESCAPES = new Set(codigos('"\\/bfnrt'));

// A parser: (b, n, i) → the positions where a value starting at i can end (AGOTADO among them
// when the first n bytes end inside it).
/** @typedef {(b: Uint8Array, n: number, i: number) => number[]} Parser */

/** @param {string} texto @returns {Parser} */
function literal(texto) {
  const bytes = codigos(texto);
  return (b, n, i) => {
    for (let k = 0; k < bytes.length; k++) {
      if (i + k >= n) return [AGOTADO];
      if (b[i + k] !== bytes[k]) return [];
    }
    return [i + bytes.length];
  };
}

/** @type {Parser} */
function cadena(b, n, i) {
  if (i >= n) return [AGOTADO];
  if (b[i] !== 0x22) return [];
  let j = i + 1;
  for (;;) {
    if (j >= n) return [AGOTADO];
    const c = b[j];
    if (c === 0x22) return [j + 1];
    if (c === 0x5c) {
      if (++j >= n) return [AGOTADO];
      if (ESCAPES.has(b[j])) {
        j++;
        continue;
      }
      if (b[j] !== 0x75) return []; // \u and four hex digits
      for (let k = 0; k < 4; k++) {
        if (++j >= n) return [AGOTADO];
        if (!esHex(b[j])) return [];
      }
      j++;
      continue;
    }
    if (c < 0x20 || c === 0x7f) return [];
    j++;
  }
}

/**
 * One digit or more (at most `tope`): every position after a digit is an end.
 * @param {number} [tope]
 * @param {(c: number) => boolean} [primero]
 * @returns {Parser}
 */
function digitos(tope = Infinity, primero = esDigito) {
  return (b, n, i) => {
    if (i >= n) return [AGOTADO];
    if (!primero(b[i])) return [];
    const fines = [];
    let j = i;
    while (j < n && j - i < tope && (j === i ? primero(b[j]) : esDigito(b[j]))) fines.push(++j);
    if (j >= n && j - i < tope) fines.push(AGOTADO);
    return fines;
  };
}

/** @param {...Parser} partes @returns {Parser} */
function secuencia(...partes) {
  return (b, n, i) => {
    let posiciones = [i];
    for (const parte of partes) {
      /** @type {Set<number>} */
      const siguientes = new Set();
      for (const p of posiciones) {
        if (p === AGOTADO) siguientes.add(AGOTADO);
        else for (const f of parte(b, n, p)) siguientes.add(f);
      }
      posiciones = [...siguientes];
      if (!posiciones.length) break;
    }
    return posiciones;
  };
}

/** @param {...Parser} partes @returns {Parser} */
function alguna(...partes) {
  return (b, n, i) => [...new Set(partes.flatMap((p) => p(b, n, i)))];
}

/** @type {(parte: Parser) => Parser} */
const opcional = (parte) => alguna((_b, _n, i) => [i], parte);

const ENTERO = secuencia(opcional(literal("-")),
  alguna(literal("0"), digitos(16, (c) => c >= 0x31 && c <= 0x39)));
const NUMERO = secuencia(ENTERO, opcional(secuencia(literal("."), digitos())),
  opcional(secuencia(alguna(literal("e"), literal("E")), opcional(alguna(literal("-"), literal("+"))), digitos())));

/** @type {import("./esquema.js").Hacer<Parser>} */
const COMO_PARSER = {
  literal,
  alguna: (partes) => alguna(...partes),
  secuencia: (partes) => secuencia(...partes),
  cadena,
  entero: ENTERO,
  numero: NUMERO,
};

/**
 * The check of an answer against `esquema` (esquemaDeSalida's), or null where its compact grammar
 * does not cover it. `(bytes, n)` → {prefijo, completa}.
 * @param {unknown} esquema
 * @returns {Comprobar | null}
 */
export function comprobador(esquema) {
  const raiz = traducirValor(esquema, COMO_PARSER);
  if (raiz === null) return null;
  return (bytes, n = bytes.length) => {
    const fines = raiz(bytes, n, 0);
    const completa = fines.includes(n);
    return { prefijo: completa || fines.includes(AGOTADO), completa };
  };
}

/** @typedef {(bytes: Uint8Array, n?: number) => { prefijo: boolean, completa: boolean }} Comprobar */

// The bytes worth trying as the next one: a byte under 0x20 (or 0x7f) is never admitted, and every
// byte from 0x80 up is judged alike (a character inside a string), so one of them stands for all.
const CANDIDATOS = [...Array.from({ length: 0x7f - 0x20 }, (_, i) => 0x20 + i), 0x80];

/**
 * The bytes `comprobar` forces after the first `n` of `bytes`: while the answer is not whole and
 * one byte alone may follow, that byte (always ASCII: a choice among bytes ≥ 0x80 is never forced).
 * Empty where the model has a choice.
 * @param {Comprobar} comprobar
 * @param {Uint8Array} bytes
 * @param {number} [n]
 */
export function forzados(comprobar, bytes, n = bytes.length) {
  let b = new Uint8Array(n + 32);
  b.set(bytes.subarray(0, n));
  let m = n;
  while (!comprobar(b, m).completa) {
    if (m + 1 > b.length) {
      const mayor = new Uint8Array(2 * b.length);
      mayor.set(b);
      b = mayor;
    }
    let unico = -1;
    for (const c of CANDIDATOS) {
      b[m] = c;
      if (!comprobar(b, m + 1).prefijo) continue;
      if (unico >= 0) {
        unico = -1;
        break;
      }
      unico = c;
    }
    if (unico < 0 || unico >= 0x80) break;
    b[m++] = unico;
  }
  return b.slice(n, m);
}
