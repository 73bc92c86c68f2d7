// The challenge's pure logic: texts of a check, the saved state, hint and solution, the watchdog.
import assert from "node:assert/strict";
import { test } from "node:test";

const {
  combinar, detenida, estadoDe, rota, estadoGuardado, lugarDe, paciencia, registrar, resumen,
  textoDivergencia, textoMejor, verPista, verSolucion,
} = await import("../../widgets/front/lib/veredicto.js");

test("the summary counts tests in Spanish, singular included", () => {
  assert.equal(resumen(8, 12), "8 de 12 pruebas superadas");
  assert.equal(resumen(0, 12), "0 de 12 pruebas superadas");
  assert.equal(resumen(1, 1), "1 de 1 prueba superada");
  assert.equal(textoMejor({ superadas: 12, total: 12 }), "Tu mejor resultado: 12 de 12 pruebas superadas.");
  assert.equal(textoMejor(null), "");
});

test("every outcome has an icon and words, not only a class", () => {
  const ok = estadoDe({ tipo: "ok" });
  assert.deepEqual([ok.icono, ok.texto], ["✔", "superada"]);
  for (const tipo of ["fallo", "error", "sintaxis", "salida", "exit", "recursion", "firma", "falta", "raro"]) {
    assert.deepEqual([estadoDe({ tipo }).icono, estadoDe({ tipo }).texto], ["✘", "no superada"], tipo);
  }
  assert.equal(estadoDe({ tipo: "tiempo" }).texto, "no terminó");
  assert.equal(estadoDe({ tipo: "detenida" }).texto, "no terminó");
  assert.equal(estadoDe({ tipo: "no-probada" }).texto, "no probada");
  assert.equal(estadoDe({ tipo: "interno" }).texto, "error de la prueba");
});

test("where: the model's turn and the reader's line", () => {
  assert.equal(lugarDe({ turno: 3, linea: null }), "Turno 3");
  assert.equal(lugarDe({ turno: null, linea: 12 }), "Línea 12");
  assert.equal(lugarDe({ turno: 2, linea: 7 }), "Turno 2 · Línea 7");
  assert.equal(lugarDe({}), "");
});

test("the watchdog waits for a test and its trace, each under the grader's limit", () => {
  assert.equal(paciencia(2), 7000);
  assert.equal(paciencia(0.5, 1), 2000);
  assert.equal(paciencia(undefined), 7000);
});

// The engine's texts for the page's watchdog (the widget's data `mensajes`, from Calificador.datos).
const MENSAJES = {
  tiempo: "bucle no terminó en 2 s: ¿falta el tope? (y no se dejó detener)",
  tiempo_al_cargar: "Tu código no terminó de cargarse en 2 s: ¿un bucle sin fin fuera de las funciones? (y no se dejó detener)",
  no_probada: "no se probó: «{prueba}» no terminó",
  no_probada_al_cargar: "no se probó: tu código no se pudo cargar",
  exit: "tu código terminó el proceso con os._exit({codigo}) mientras se calificaba «{prueba}»: fin.",
  exit_al_cargar: "tu código terminó el proceso con os._exit({codigo}) mientras se cargaba: fin.",
  no_probada_tras_exit: "no se probó: el proceso se cortó en «{prueba}»",
};
const datosDe = (pruebas) => ({ desafio: "d", pruebas, mensajes: MENSAJES });

test("a check the page stopped keeps what finished and says what did not", () => {
  const nombres = ["a", "b", "c", "d"];
  const recibida = { nombre: "a", ok: true, tipo: "ok", mensaje: null, linea: null, turno: null };
  const r = detenida(datosDe(nombres), { a: recibida }, "b");
  assert.equal(r.superadas, 1);
  assert.equal(r.total, 4);
  assert.equal(r.error, null);
  assert.equal(r.pruebas[0], recibida);
  assert.equal(r.pruebas[1].tipo, "detenida");
  assert.equal(r.pruebas[1].mensaje, MENSAJES.tiempo);
  assert.deepEqual(r.pruebas.slice(2).map((p) => [p.tipo, p.mensaje]), [
    ["no-probada", "no se probó: «b» no terminó"],
    ["no-probada", "no se probó: «b» no terminó"],
  ]);

  // Stuck before the first test: the code itself did not finish loading.
  const cargando = detenida(datosDe(nombres), {}, null);
  assert.equal(cargando.superadas, 0);
  assert.equal(cargando.error.tipo, "detenida");
  assert.equal(cargando.error.mensaje, MENSAJES.tiempo_al_cargar);
  assert.ok(cargando.pruebas.every((p) => p.mensaje === MENSAJES.no_probada_al_cargar));
  assert.ok(cargando.pruebas.every((p) => p.tipo === "no-probada"));
});

test("a check during which Python broke blames the test running, in words", () => {
  const r = rota(datosDe(["a", "b", "c"]), {}, "b", "Maximum call stack size exceeded");
  assert.equal(r.superadas, 0);
  assert.equal(r.pruebas[0].tipo, "no-probada");
  assert.equal(r.pruebas[1].tipo, "error");
  assert.match(r.pruebas[1].mensaje, /^rompió el Python de la página \(se desbordó la pila, como en un RecursionError/);
  assert.match(r.pruebas[1].mensaje, /Python se ha reiniciado\.$/);
  assert.equal(r.pruebas[2].mensaje, "no se probó: «b» rompió el Python de la página");
  assert.match(rota(datosDe(["a"]), {}, "a", "RuntimeError: unreachable").pruebas[0].mensaje,
    /\(error de Pyodide: RuntimeError: unreachable\)/);
  assert.match(rota(datosDe(["a"]), {}, null, "x").error.mensaje, /^Tu código rompió el Python de la página al cargarse/);
});

test("os._exit while grading gets the engine's words, with its exit status", () => {
  // Pyodide's words when the code called os._exit(3) (the worker's Python stopped).
  const r = rota(datosDe(["a", "b", "c"]), {}, "b", "ExitStatus: Program terminated with exit(3)");
  assert.deepEqual(r.pruebas.map((p) => [p.tipo, p.mensaje]), [
    ["no-probada", "no se probó: el proceso se cortó en «b»"],
    ["exit", "tu código terminó el proceso con os._exit(3) mientras se calificaba «b»: fin."],
    ["no-probada", "no se probó: el proceso se cortó en «b»"],
  ]);
  const cargando = rota(datosDe(["a"]), {}, null, "Program terminated with exit(0)");
  assert.deepEqual(cargando.error, {
    tipo: "exit", mensaje: "tu código terminó el proceso con os._exit(0) mientras se cargaba: fin.", linea: null,
  });
  assert.equal(cargando.pruebas[0].mensaje, "no se probó: tu código no se pudo cargar");
});

test("saved state: whatever storage holds becomes a usable state", () => {
  const vacio = { codigo: null, mejor: null, fallos: 0, superado: false };
  for (const malo of [null, "x", 3, [], { mejor: { superadas: 5, total: 3 } }, { fallos: -2 }, { fallos: "7" }]) {
    assert.deepEqual(estadoGuardado(malo), vacio, JSON.stringify(malo));
  }
  assert.deepEqual(estadoGuardado({ codigo: "x", mejor: { superadas: 12, total: 12 }, fallos: 4 }),
    { codigo: "x", mejor: { superadas: 12, total: 12 }, fallos: 4, superado: true });
});

test("a check updates the best result and counts failed checks", () => {
  let e = estadoGuardado(null);
  e = registrar(e, { superadas: 5, total: 12 });
  assert.deepEqual([e.mejor, e.fallos, e.superado], [{ superadas: 5, total: 12 }, 1, false]);
  e = registrar(e, { superadas: 3, total: 12 });
  assert.deepEqual([e.mejor, e.fallos], [{ superadas: 5, total: 12 }, 2], "a worse check keeps the best");
  e = registrar(e, { superadas: 12, total: 12 });
  assert.deepEqual([e.mejor, e.fallos, e.superado], [{ superadas: 12, total: 12 }, 2, true]);
  e = registrar(e, { superadas: 0, total: 12 });
  assert.equal(e.superado, true, "once passed, always passed");
  // The suite changed (another total): the new result replaces the old best.
  e = registrar(e, { superadas: 2, total: 13 });
  assert.deepEqual(e.mejor, { superadas: 2, total: 13 });
});

test("two tabs' states together: the best of both, and this tab's code", () => {
  const de = (codigo, mejor, fallos, superado = false) => ({ codigo, mejor, fallos, superado });
  const doce = { superadas: 12, total: 12 };
  const cinco = { superadas: 5, total: 12 };
  assert.deepEqual(combinar(de("mío", null, 1), de("suyo", doce, 0, true)), de("mío", doce, 1, true));
  assert.deepEqual(combinar(de("mío", doce, 0, true), de("suyo", cinco, 4)), de("mío", doce, 4, true));
  assert.deepEqual(combinar(de(null, cinco, 2), de("suyo", null, 0)), de(null, cinco, 2));
  // A best result of another suite (another total) does not replace this one.
  assert.deepEqual(combinar(de("mío", cinco, 0), de("x", { superadas: 9, total: 9 }, 0)).mejor, cinco);
});

test("the hint after `pista-tras` failed checks, the solution after `solucion-tras` or once passed", () => {
  const con = (fallos, superado = false) => ({ codigo: null, mejor: null, fallos, superado });
  assert.equal(verPista(con(2), "una pista", 3), false);
  assert.equal(verPista(con(3), "una pista", 3), true);
  assert.equal(verPista(con(9), "", 3), false, "no hint to show");
  assert.equal(verPista(con(0), "una pista", 0), true);
  assert.equal(verSolucion(con(5), 6), false);
  assert.equal(verSolucion(con(6), 6), true);
  assert.equal(verSolucion(con(0, true), 6), true);
});

test("the divergence of two runs, in words", () => {
  const paso = (texto) => ({ texto });
  assert.equal(
    textoDivergencia({ indice: 9, obtenido: paso("Entran en M: M[5], M[6]."), esperado: paso("Las observaciones entran en M: M[5].") }),
    "Las dos ejecuciones coinciden hasta el paso 9. En el paso 10, en la tuya, entran en M: M[5], " +
      "M[6]; en la esperada, las observaciones entran en M: M[5].",
  );
  assert.equal(
    textoDivergencia({ indice: 0, obtenido: paso("El bucle llama al modelo con 1 mensaje."), esperado: paso("El bucle llama al modelo con 1 mensaje.") }),
    "Las dos ejecuciones difieren desde el primer paso. En el paso 1 las dos dicen «El bucle llama al " +
      "modelo con 1 mensaje», pero M o el entorno no son iguales: compáralos.",
  );
  assert.equal(
    textoDivergencia({ indice: 4, obtenido: null, esperado: paso("El modelo responde.") }),
    "Las dos ejecuciones coinciden hasta el paso 4. En el paso 5, la tuya ya había terminado; en la " +
      "esperada, el modelo responde.",
  );
  assert.match(textoDivergencia(null), /^Tu ejecución da los mismos pasos que la esperada/);
});
