// The engine's real results (tests/fixtures/resultados/*.json, written by the engine in CPython)
// rendered by the page's module: what Python gives is what the page shows, so the two cannot drift.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

const { detenida, estadoDe, vista } = await import("../../widgets/front/lib/veredicto.js");

const CARPETA = new URL("../fixtures/resultados/", import.meta.url);
const FIXTURES = Object.fromEntries(readdirSync(CARPETA).filter((f) => f.endsWith(".json"))
  .map((f) => [f.replace(/\.json$/, ""), JSON.parse(readFileSync(new URL(f, CARPETA), "utf8"))]));

const PALABRAS = {
  ok: "superada", fallo: "no superada", error: "no superada", salida: "no superada",
  exit: "no superada", recursion: "no superada", tiempo: "no terminó", detenida: "no terminó",
  "no-probada": "no probada", interno: "error de la prueba",
};

test("there are fixtures of every kind the page must show", () => {
  for (const nombre of ["referencia", "conocido", "conocido-con-traza", "error-del-lector", "sintaxis",
    "sin-funcion", "tiempo", "inundacion", "cortada"]) {
    assert.ok(FIXTURES[nombre], `tests/fixtures/resultados/${nombre}.json`);
  }
});

for (const [nombre, resultado] of Object.entries(FIXTURES)) {
  test(`${nombre}: every test shows its name, words, place and message`, () => {
    const v = vista(resultado);
    const total = resultado.total === 1 ? "1 prueba superada" : `${resultado.total} pruebas superadas`;
    assert.ok(v.resumen.startsWith(`${resultado.superadas} de ${total}.`), v.resumen);
    assert.equal(v.pruebas.length, resultado.pruebas.length);
    resultado.pruebas.forEach((prueba, i) => {
      const fila = v.pruebas[i];
      assert.equal(fila.nombre, prueba.nombre);
      assert.equal(fila.estado, PALABRAS[prueba.tipo], prueba.tipo);
      assert.equal(fila.icono, estadoDe(prueba).icono);
      if (prueba.ok) {
        assert.deepEqual(Object.keys(fila).sort(), ["clase", "estado", "icono", "nombre"]);
        return;
      }
      const lugar = [prueba.turno != null ? `Turno ${prueba.turno}` : null,
        prueba.linea != null ? `Línea ${prueba.linea}` : null].filter(Boolean).join(" · ");
      assert.equal(fila.lugar, lugar);
      if (prueba.tipo === "no-probada") {
        assert.equal(fila.motivo, prueba.mensaje);
        assert.match(fila.motivo, /^no se probó: /);
        return;
      }
      assert.equal(fila.mensaje, prueba.mensaje);
      assert.equal(fila.salida, prueba.salida || null);
      assert.equal(fila.linea, prueba.linea);
      assert.equal(fila.traza, prueba.traza?.tuya ? prueba.traza : null);
    });
    if (resultado.error) {
      assert.deepEqual(v.error, { mensaje: resultado.error.mensaje, linea: resultado.error.linea });
      const donde = resultado.error.linea ? ` (línea ${resultado.error.linea})` : "";
      assert.ok(v.resumen.endsWith(` Tu código no se pudo cargar${donde}.`), v.resumen);
    } else {
      assert.equal(v.error, null);
    }
  });
}

test("what each fixture shows, in the reader's words", () => {
  const ver = (nombre) => vista(FIXTURES[nombre]);
  const total = FIXTURES.referencia.pruebas.length; // as many tests as the engine has
  assert.equal(ver("referencia").resumen, `${total} de ${total} pruebas superadas.`);
  assert.ok(ver("referencia").pruebas.every((f) => f.icono === "✔" && f.estado === "superada"));

  const conocido = ver("conocido").pruebas[0];
  assert.deepEqual([conocido.icono, conocido.estado, conocido.lugar], ["✘", "no superada", "Turno 2"]);
  assert.match(conocido.mensaje, /^En el turno 2 el modelo recibió 3 mensajes; esperaba 4\./);

  assert.ok(ver("conocido-con-traza").pruebas.some((f) => f.traza?.tuya && f.traza.esperada));

  const delLector = ver("error-del-lector").pruebas[0];
  assert.equal(delLector.lugar, "Línea 4");
  assert.equal(delLector.linea, 4);

  assert.match(ver("sintaxis").resumen, new RegExp(`^0 de ${total} pruebas superadas\\. Tu código no se pudo cargar \\(línea 1\\)\\.$`));
  assert.ok(ver("sintaxis").pruebas.every((f) => f.estado === "no probada"));

  const [primera, segunda] = ver("tiempo").pruebas;
  assert.equal(primera.estado, "no terminó");
  assert.match(primera.mensaje, /^bucle no terminó en 2 s: ¿falta el tope\?/);
  assert.equal(segunda.motivo, `no se probó: «${primera.nombre}» no terminó`);
});

test("the page's own result when its watchdog stops the worker has the engine's shape and words", () => {
  // The engine's result of a check cut in its third test (tests/fixtures/resultados/cortada.json)
  // and the page's, built from the same finished tests and the engine's `mensajes`.
  const cortada = FIXTURES.cortada;
  const nombres = cortada.pruebas.map((p) => p.nombre);
  const actual = nombres[2];
  const mensajes = {
    tiempo: cortada.pruebas[2].mensaje,
    tiempo_al_cargar: "Tu código no terminó de cargarse en 2 s: ¿un bucle sin fin fuera de las funciones? (y no se dejó detener)",
    no_probada: cortada.pruebas[3].mensaje.replace(`«${actual}»`, "«{prueba}»"),
    no_probada_al_cargar: "no se probó: tu código no se pudo cargar",
  };
  assert.equal(mensajes.tiempo, "bucle no terminó en 2 s: ¿falta el tope? (y no se dejó detener)");
  const recibidas = Object.fromEntries(cortada.pruebas.slice(0, 2).map((p) => [p.nombre, p]));
  const datos = { desafio: cortada.desafio, pruebas: nombres, mensajes };
  const pagina = detenida(datos, recibidas, actual);
  assert.deepEqual(Object.keys(pagina).sort(), Object.keys(cortada).sort());
  const sinTipo = (r) => ({ ...r, pruebas: r.pruebas.map((p, i) => (i === 2 ? { ...p, tipo: "-" } : p)) });
  assert.deepEqual(sinTipo(pagina), sinTipo(cortada));
  assert.equal(pagina.pruebas[2].tipo, "detenida");
  assert.equal(vista(pagina).pruebas[2].estado, "no terminó");

  const cargando = detenida(datos, {}, null);
  assert.deepEqual(cargando.error, { tipo: "detenida", mensaje: mensajes.tiempo_al_cargar, linea: null });
  assert.ok(cargando.pruebas.every((p) => p.mensaje === mensajes.no_probada_al_cargar));
});
