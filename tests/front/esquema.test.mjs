// What the in-page model may write (widgets/front/modelo/esquema.js): the output schema the
// model is held to, and its compact grammar (GBNF), checked by reading the grammar as a RegExp.
import assert from "node:assert/strict";
import { test } from "node:test";
import { HERRAMIENTAS, MEDIR, comoRegExp, esquema, llamadaJSON, textoJSON } from "./modelo-comun.mjs";

const { esquemaDeSalida, gramaticaDeSalida } = await import("../../widgets/front/modelo/esquema.js");

// ------------------------------------------------------------------- schema

test("the output schema: a text answer, or one call per tool with that tool's arguments, each one key", () => {
  const s = esquemaDeSalida(HERRAMIENTAS);
  assert.equal(s.anyOf.length, 5);
  assert.deepEqual(s.anyOf[0], {
    type: "object",
    properties: { respuesta: { type: "string" } },
    required: ["respuesta"],
    additionalProperties: false,
  });
  for (const [i, h] of HERRAMIENTAS.entries()) {
    assert.deepEqual(s.anyOf[i + 1], {
      type: "object",
      properties: { [h.name]: h.input_schema },
      required: [h.name],
      additionalProperties: false,
    }, h.name);
  }
});

test("without tools the schema admits only a text answer", () => {
  const soloTexto = esquemaDeSalida([]);
  assert.deepEqual(Object.keys(soloTexto.properties), ["respuesta"]);
  assert.equal(soloTexto.anyOf, undefined);
  assert.deepEqual(esquemaDeSalida(undefined), soloTexto);
});

test("a tool's arguments admit no extra keys unless its schema says so; the tools are not touched", () => {
  const abierta = { name: "abierta", input_schema: { type: "object", properties: { a: { type: "integer" } } } };
  const libre = { name: "libre", input_schema: { type: "object", properties: {}, additionalProperties: true } };
  const copia = structuredClone([abierta, libre]);
  const s = esquemaDeSalida([abierta, libre]);
  assert.equal(s.anyOf[1].properties.abierta.additionalProperties, false);
  assert.equal(s.anyOf[2].properties.libre.additionalProperties, true);
  assert.deepEqual([abierta, libre], copia);
});

test("the schema keeps to what llama.cpp's json-schema-to-grammar handles: no $ref, no oneOf", () => {
  const claves = new Set();
  const recorrer = (x) => {
    if (Array.isArray(x)) x.forEach(recorrer);
    else if (x && typeof x === "object") {
      for (const [k, v] of Object.entries(x)) {
        claves.add(k);
        recorrer(v);
      }
    }
  };
  recorrer(esquemaDeSalida(HERRAMIENTAS));
  for (const prohibida of ["$ref", "$defs", "oneOf", "allOf", "not", "if"]) assert.ok(!claves.has(prohibida), prohibida);
  // A JSON Schema's own keywords, besides the property names of the tools and of the answer.
  const propiedades = new Set(["respuesta", ...HERRAMIENTAS.map((h) => h.name), "carpeta", "ruta", "contenido", "patron"]);
  const palabras = [...claves].filter((k) => !propiedades.has(k)).sort();
  assert.deepEqual(palabras, ["additionalProperties", "anyOf", "description", "properties", "required", "type"]);
});

test("tool_choice narrows the schema: any → only calls, tool → that call, none → only text", () => {
  const todas = esquemaDeSalida(HERRAMIENTAS);
  assert.deepEqual(esquemaDeSalida(HERRAMIENTAS, { type: "auto" }), todas);
  assert.deepEqual(esquemaDeSalida(HERRAMIENTAS, { type: "any" }), { anyOf: todas.anyOf.slice(1) });
  assert.deepEqual(esquemaDeSalida(HERRAMIENTAS, { type: "tool", name: "escribir" }), todas.anyOf[3]);
  assert.deepEqual(esquemaDeSalida(HERRAMIENTAS, { type: "none" }), todas.anyOf[0]);
});

// ------------------------------------------------- the compact grammar (GBNF)

test("the compact grammar admits each answer's compact JSON, and nothing else", () => {
  const gramatica = gramaticaDeSalida(esquemaDeSalida(HERRAMIENTAS));
  assert.ok(gramatica.startsWith("root ::= "));
  const admite = comoRegExp(gramatica);
  const bien = [
    { respuesta: "Tienes pan, leche y patatas." },
    { respuesta: 'con "comillas", \\ y\nsaltos' },
    { listar: { carpeta: "" } },
    { leer: { ruta: "recetas/tortilla.txt" } },
    { escribir: { ruta: "lista.txt", contenido: "pan, huevos" } },
    { buscar: { patron: "huevos" } },
  ];
  for (const salida of bien) assert.match(JSON.stringify(salida), admite, JSON.stringify(salida));
  const mal = [
    JSON.stringify(bien[2], null, 2), // the spaces and line breaks of a pretty JSON
    '{"respuesta": "hola"}',
    llamadaJSON("borrar", { ruta: "lista.txt" }),
    llamadaJSON("leer", { fichero: "lista.txt" }),
    llamadaJSON("leer", { ruta: "lista.txt", mas: "x" }),
    llamadaJSON("escribir", { ruta: "lista.txt" }),
    JSON.stringify({ escribir: { contenido: "pan", ruta: "lista.txt" } }), // keys in another order
    JSON.stringify({ leer: { ruta: "a" }, listar: { carpeta: "" } }), // two calls
    textoJSON("hola") + " ",
    '{"respuesta":"un salto\nsin escapar"}'.replace("\\n", "\n"),
  ];
  for (const salida of mal) assert.doesNotMatch(salida, admite, salida);
});

test("the compact grammar covers integers, numbers, booleans, enums and nested objects", () => {
  const herramienta = MEDIR;
  const admite = comoRegExp(gramaticaDeSalida(esquemaDeSalida([herramienta], { type: "any" })));
  const llamada = (input) => llamadaJSON("medir", input);
  assert.match(llamada({ veces: 3, escala: -1.5e3, exacto: true, unidad: "kg", donde: { fila: 0 } }), admite);
  assert.doesNotMatch(llamada({ veces: 3.5, escala: 1, exacto: true, unidad: "kg", donde: { fila: 0 } }), admite);
  assert.doesNotMatch(llamada({ veces: 3, escala: 1, exacto: "sí", unidad: "kg", donde: { fila: 0 } }), admite);
  assert.doesNotMatch(llamada({ veces: 3, escala: 1, exacto: true, unidad: "t", donde: { fila: 0 } }), admite);
});

test("a schema the compact grammar does not cover gives null: the schema itself is used", () => {
  const opcional = { type: "object", properties: { ruta: { type: "string" } }, required: [] };
  const lista = esquema({ rutas: { type: "array", items: { type: "string" } } });
  for (const input_schema of [opcional, lista]) {
    assert.equal(gramaticaDeSalida(esquemaDeSalida([{ name: "h", description: "", input_schema }])), null);
  }
});
