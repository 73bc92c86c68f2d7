// Predict mode's pure logic (widgets/front/lib/predice.js) on the questions widgets/directivas/predice.py
// makes from real runs of the reference loop of «El bucle» (caps 10 and 3).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const { pasos } = await import("../../widgets/front/lib/traza-pasos.js");
const { comprobar, frontera, marcador, mejorRonda, pendiente, preguntasPorPaso, veredicto } =
  await import("../../widgets/front/lib/predice.js");

const RAIZ = fileURLToPath(new URL("../../", import.meta.url));
const PYTHON = existsSync(`${RAIZ}.venv/bin/python`) ? `${RAIZ}.venv/bin/python` : "python3";

const GENERAR = String.raw`
import json
from runtime import espacio
from widgets.calificador.trazas import trazar
from widgets.directivas.predice import preguntas
ns = espacio("entorno", "guionizado", "escenarios")
exec(open("challenges/bucle-con-tope/solucion.py", encoding="utf-8").read(), ns)
salida = {}
for tope in (3, 10):
    traza = trazar(ns["bucle"], ns["ModeloGuionizado"](ns["guion_bucle"]()), ns["INICIO_BUCLE"],
                   dict(ns["ENTORNO"]), tope, funciones=ns["FUNCIONES"], muestra=ns["muestra"])
    salida[tope] = {"traza": traza, "preguntas": preguntas(traza)}
print(json.dumps(salida, ensure_ascii=False))
`;

const T = JSON.parse(execFileSync(PYTHON, ["-c", GENERAR], { cwd: RAIZ, encoding: "utf-8", maxBuffer: 1 << 26 }));

function caso(tope) {
  const { traza, preguntas } = T[tope];
  const lista = pasos(traza);
  return { lista, preguntas, porPaso: preguntasPorPaso(lista, preguntas) };
}

test("every question goes before the step it is about, never before the first", () => {
  const { lista, preguntas, porPaso } = caso(10);
  const colocadas = [...porPaso.values()].flat().sort((a, b) => a - b);
  assert.deepEqual(colocadas, preguntas.map((_, k) => k));
  const donde = (k) => [...porPaso].find(([, ks]) => ks.includes(k))[0];
  preguntas.forEach((q, k) => {
    const paso = lista[donde(k)];
    if (q.clase === "recibe") assert.equal(paso.recibe.length, q.respuesta);
    if (q.clase === "crece") assert.equal(paso.tipo, "observaciones");
    if (q.clase === "sigue" || q.clase === "cambia") assert.equal(lista[donde(k) - 1].tipo, "respuesta");
  });
  assert.ok(!porPaso.has(0));
  // turn 3: what the loop does, then which file changes, both before the call t5 runs
  const [paso, ks] = [...porPaso].find(([, ks]) => ks.length === 2);
  assert.deepEqual(ks.map((k) => preguntas[k].clase), ["sigue", "cambia"]);
  assert.match(lista[paso].texto, /^Se ejecuta escribir \(t5\)/);
});

test("a question whose step the page does not have is left out", () => {
  const { lista, preguntas } = caso(3);
  const raras = [{ ...preguntas[0], antes: { evento: 99, tipo: null } },
    { ...preguntas[0], antes: { evento: 0, tipo: "modelo" } }];
  assert.equal(preguntasPorPaso(lista, raras).size, 0);
  assert.equal(preguntasPorPaso(lista).size, 0);
});

test("the frontier stops before each unanswered question and moves once it is answered", () => {
  const { lista, porPaso } = caso(3);
  const ultimo = lista.length - 1;
  const respondidas = new Map();
  const [primero, ks] = [...porPaso][0];
  assert.equal(frontera(porPaso, respondidas, 0, ultimo), primero - 1);
  assert.equal(pendiente(porPaso, respondidas, primero), ks[0]);
  assert.equal(pendiente(porPaso, respondidas, 0), null);
  for (const k of ks) respondidas.set(k, true);
  assert.equal(pendiente(porPaso, respondidas, primero), null);
  const [segundo] = [...porPaso][1];
  assert.equal(frontera(porPaso, respondidas, primero - 1, ultimo), segundo - 1);
  for (const k of [...porPaso.values()].flat()) respondidas.set(k, k !== 2);
  assert.equal(frontera(porPaso, respondidas, 0, ultimo), ultimo);
  assert.deepEqual(marcador(respondidas), { aciertos: 7, total: 8 });
});

test("answers are scored as the page's questions are, and say why", () => {
  const { preguntas } = caso(3);
  const recibe = preguntas.find((q) => q.clase === "recibe");
  assert.equal(comprobar(recibe, "4"), "correcta");
  assert.equal(comprobar(recibe, " 2 "), "incorrecta");
  assert.equal(comprobar(recibe, ""), "vacia");
  const tope = preguntas.filter((q) => q.clase === "sigue").at(-1);
  assert.equal(comprobar(tope, [1]), "correcta");
  assert.equal(comprobar(tope, [0]), "incorrecta");
  assert.equal(comprobar(tope, []), "vacia");
  const dicho = veredicto(tope, false);
  assert.equal(dicho.marca, 'No. La respuesta era: Ejecuta sus llamadas, añade las observaciones y devuelve ("tope", None, M).');
  assert.match(dicho.porque, /^El tope cuenta llamadas al modelo: con 3, no hay una cuarta;/);
  assert.equal(veredicto(recibe, true).marca, "Correcto.");
});

test("the best round is kept: the larger share right, the longer on a tie", () => {
  assert.deepEqual(mejorRonda(null, { aciertos: 3, total: 10 }), { aciertos: 3, total: 10 });
  assert.deepEqual(mejorRonda({ aciertos: 9, total: 10 }, { aciertos: 8, total: 8 }), { aciertos: 8, total: 8 });
  assert.deepEqual(mejorRonda({ aciertos: 8, total: 8 }, { aciertos: 9, total: 10 }), { aciertos: 8, total: 8 });
  assert.deepEqual(mejorRonda({ aciertos: 4, total: 4 }, { aciertos: 8, total: 8 }), { aciertos: 8, total: 8 });
  assert.deepEqual(mejorRonda({ aciertos: 8, total: 8 }, { aciertos: 4, total: 4 }), { aciertos: 8, total: 8 });
  // a kept value of another shape (corrupt, older) gives way
  assert.deepEqual(mejorRonda({ aciertos: 11, total: 10 }, { aciertos: 1, total: 10 }), { aciertos: 1, total: 10 });
  assert.deepEqual(mejorRonda("9/10", { aciertos: 1, total: 10 }), { aciertos: 1, total: 10 });
});
