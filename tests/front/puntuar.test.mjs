// Scoring questions: one answer, several (all or nothing), a number with a margin; restoring.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  dentroDelMargen,
  estadoGuardado,
  leerNumero,
  puntuacion,
  puntuar,
  textoPuntuacion,
  veredicto,
} from "../../widgets/front/lib/puntuar.js";

const una = { tipo: "una", opciones: 3, correctas: [1] };
const varias = { tipo: "varias", opciones: 4, correctas: [0, 2] };
const numero = { tipo: "numero", respuesta: 13, margen: 0 };
const decimal = { tipo: "numero", respuesta: 0.3, margen: 0.1 };

test("one answer: right, wrong, nothing chosen", () => {
  assert.equal(puntuar(una, [1]), "correcta");
  assert.equal(puntuar(una, [0]), "incorrecta");
  assert.equal(puntuar(una, []), "vacia");
  assert.equal(puntuar(una, undefined), "vacia");
});

test("several answers are graded all or nothing, in any order", () => {
  assert.equal(puntuar(varias, [0, 2]), "correcta");
  assert.equal(puntuar(varias, [2, 0]), "correcta");
  assert.equal(puntuar(varias, [0]), "incorrecta", "one missing");
  assert.equal(puntuar(varias, [0, 1, 2]), "incorrecta", "one too many");
  assert.equal(puntuar(varias, [1, 3]), "incorrecta");
  assert.equal(puntuar(varias, []), "vacia");
});

test("numbers: Spanish and English decimals, signs, spaces; text that is not a number", () => {
  assert.equal(leerNumero("13"), 13);
  assert.equal(leerNumero(" 2,5 "), 2.5);
  assert.equal(leerNumero("-0.5"), -0.5);
  assert.equal(leerNumero("+.5"), 0.5);
  assert.equal(leerNumero("1 000"), 1000);
  for (const malo of ["", "trece", "1,2,3", "1e3", "NaN", "Infinity", "0x10", "--1"]) {
    assert.equal(leerNumero(malo), null, malo);
  }
});

test("a number is right within its margin, edges included, despite binary rounding", () => {
  assert.equal(puntuar(numero, "13"), "correcta");
  assert.equal(puntuar(numero, "12"), "incorrecta");
  assert.equal(puntuar(numero, "13,0"), "correcta");
  assert.equal(puntuar(numero, ""), "vacia");
  assert.equal(puntuar(numero, "   "), "vacia");
  assert.equal(puntuar(numero, "trece"), "invalida");
  assert.equal(puntuar(decimal, "0,4"), "correcta", "0.4 - 0.3 is 0.10000000000000003");
  assert.equal(puntuar(decimal, "0.2"), "correcta");
  assert.equal(puntuar(decimal, "0,41"), "incorrecta");
  assert.equal(dentroDelMargen(1e6 + 1, 1e6, 1), true);
  assert.equal(dentroDelMargen(1e6 + 1.01, 1e6, 1), false);
});

test("what the page says", () => {
  assert.equal(veredicto(una, "correcta"), "Correcto.");
  assert.equal(veredicto(una, "incorrecta"), "No es correcto.");
  assert.equal(veredicto(varias, "incorrecta"), "No es correcto: sobran o faltan opciones.");
  assert.equal(veredicto(una, "vacia"), "Elige una opción antes de comprobar.");
  assert.equal(veredicto(varias, "vacia"), "Marca al menos una opción antes de comprobar.");
  assert.equal(veredicto(numero, "vacia"), "Escribe un número antes de comprobar.");
  assert.equal(veredicto(numero, "invalida", " trece "),
    "«trece» no es un número: escribe, por ejemplo, 13 o 2,5.");
});

test("the group's score counts right answers only", () => {
  assert.deepEqual(puntuacion([true, false, null, true]), { correctas: 2, total: 4 });
  assert.equal(textoPuntuacion(puntuacion([true, false, null])), "1 de 3 correctas");
  assert.equal(textoPuntuacion(puntuacion([])), "0 de 0 correctas");
});

test("a stored state is restored only when it still fits the question", () => {
  assert.deepEqual(estadoGuardado({ respuesta: [1], resultado: true }, una),
    { respuesta: [1], resultado: true });
  assert.deepEqual(estadoGuardado({ respuesta: [0], resultado: null }, una),
    { respuesta: [0], resultado: null });
  assert.deepEqual(estadoGuardado({ respuesta: "12", resultado: false }, numero),
    { respuesta: "12", resultado: false });
  // corrupt or foreign values
  for (const malo of [null, 3, "x", [], { respuesta: [7], resultado: true },
    { respuesta: [0, 1], resultado: false }, { respuesta: "1", resultado: true },
    { respuesta: [-1] }, { respuesta: [0.5] }]) {
    assert.equal(estadoGuardado(malo, una), null, JSON.stringify(malo));
  }
  assert.equal(estadoGuardado({ respuesta: [1] }, numero), null);
  // the author changed the right answer since: the stale result is dropped, the answer kept
  assert.deepEqual(estadoGuardado({ respuesta: [0], resultado: true }, una),
    { respuesta: [0], resultado: null });
  assert.deepEqual(estadoGuardado({ respuesta: "12", resultado: true }, numero),
    { respuesta: "12", resultado: null });
  assert.deepEqual(estadoGuardado({ respuesta: "trece", resultado: false }, numero),
    { respuesta: "trece", resultado: null });
  assert.deepEqual(estadoGuardado({ respuesta: [0, 2], resultado: "sí" }, varias),
    { respuesta: [0, 2], resultado: null });
});
