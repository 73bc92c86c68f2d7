// The in-page model's output held to its schema token by token (widgets/front/modelo/gramatica.js):
// the byte check the engine's sampler asks at each token admits exactly what the compact grammar
// (esquema.js's gramaticaDeSalida, read here as a RegExp) admits, and every start of it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { HERRAMIENTAS, MEDIR, comoRegExp, esquema, llamadaJSON, textoJSON } from "./modelo-comun.mjs";

const { esquemaDeSalida, gramaticaDeSalida } = await import("../../widgets/front/modelo/esquema.js");
const { comprobador, forzados } = await import("../../widgets/front/modelo/gramatica.js");

const bytes = (texto) => new TextEncoder().encode(texto);

const medir = (input) => llamadaJSON("medir", input);

const CASOS = [
  [esquemaDeSalida(HERRAMIENTAS), [
    textoJSON("Tienes pan, leche y patatas."), textoJSON('con "comillas", \\ y\nsaltos'), textoJSON("ñandú «sí» €"),
    llamadaJSON("listar", { carpeta: "" }), llamadaJSON("leer", { ruta: "recetas/tortilla.txt" }),
    llamadaJSON("escribir", { ruta: "lista.txt", contenido: "pan, huevos" }), llamadaJSON("buscar", { patron: "huevos" }),
    '{"respuesta":"\\u00f1"}',
  ], [
    JSON.stringify({ listar: { carpeta: "" } }, null, 2), '{"respuesta": "hola"}',
    llamadaJSON("borrar", { ruta: "lista.txt" }), llamadaJSON("leer", { fichero: "lista.txt" }),
    llamadaJSON("leer", { ruta: "lista.txt", mas: "x" }), llamadaJSON("escribir", { ruta: "lista.txt" }),
    JSON.stringify({ escribir: { contenido: "pan", ruta: "lista.txt" } }),
    JSON.stringify({ leer: { ruta: "a" }, listar: { carpeta: "" } }), textoJSON("hola") + " ",
    '{"respuesta":"un salto\nsin escapar"}', '{"respuesta":"\\x"}', '{"respuesta":"\\u00g1"}',
  ]],
  [esquemaDeSalida([MEDIR], { type: "any" }), [
    medir({ veces: 3, escala: -1.5e3, exacto: true, unidad: "kg", donde: { fila: 0 } }),
    medir({ veces: 1234567890123456, escala: 0.25, exacto: false, unidad: "g", donde: { fila: -7 } }),
    '{"medir":{"veces":0,"escala":2E+5,"exacto":true,"unidad":"g","donde":{"fila":10}}}',
  ], [
    medir({ veces: 3.5, escala: 1, exacto: true, unidad: "kg", donde: { fila: 0 } }),
    medir({ veces: 3, escala: 1, exacto: "sí", unidad: "kg", donde: { fila: 0 } }),
    medir({ veces: 3, escala: 1, exacto: true, unidad: "t", donde: { fila: 0 } }),
    '{"medir":{"veces":01,"escala":1,"exacto":true,"unidad":"g","donde":{"fila":1}}}',
    '{"medir":{"veces":12345678901234567,"escala":1,"exacto":true,"unidad":"g","donde":{"fila":1}}}',
    '{"medir":{"veces":1,"escala":1.,"exacto":true,"unidad":"g","donde":{"fila":1}}}',
  ]],
];

test("a whole answer is complete exactly when the compact grammar admits it", () => {
  for (const [esquemaDeLaSalida, bien, mal] of CASOS) {
    const admite = comoRegExp(gramaticaDeSalida(esquemaDeLaSalida));
    const c = comprobador(esquemaDeLaSalida);
    for (const salida of [...bien, ...mal]) {
      assert.equal(c(bytes(salida)).completa, admite.test(salida), salida);
    }
    for (const salida of bien) assert.ok(c(bytes(salida)).completa, salida);
    for (const salida of mal) assert.ok(!c(bytes(salida)).completa, salida);
  }
});

test("every start of an admitted answer is a start, byte by byte, halves of UTF-8 characters too", () => {
  for (const [esquemaDeLaSalida, bien] of CASOS) {
    const c = comprobador(esquemaDeLaSalida);
    for (const salida of bien) {
      const b = bytes(salida);
      for (let n = 0; n < b.length; n++) {
        assert.deepEqual(c(b, n), { prefijo: true, completa: false }, `${salida} [:${n}]`);
      }
    }
  }
});

test("a start the grammar cannot continue is refused at its first wrong byte", () => {
  const c = comprobador(esquemaDeSalida(HERRAMIENTAS));
  for (const [bien, mal] of [['{"lis', '{"lia'], ['{"respuesta":"ho', '{"respuesta": '], ['{"leer":{"ruta":"a"}', '{"leer":{"ruta":"a"},'],
    ['{"respuesta":"x"}', '{"respuesta":"x"} '], ['{"respuesta":"', '{"respuesta":"\n'], ["", " "]]) {
    assert.ok(c(bytes(bien)).prefijo, bien);
    assert.ok(!c(bytes(mal)).prefijo, mal);
  }
  // A byte ≥ 0x80 belongs inside a string only.
  assert.ok(c(bytes('{"respuesta":"ñ').subarray(0, 15)).prefijo);
  assert.ok(!c(Uint8Array.of(0x7b, 0xc3)).prefijo);
});

test("what the schema forces: the keys, the rest of a name, the closing braces; nothing where there is a choice", () => {
  const c = comprobador(esquemaDeSalida(HERRAMIENTAS));
  const texto = (b) => new TextDecoder().decode(b);
  for (const [escrito, forzado] of [["", '{"'], ['{"', ""], ['{"l', ""], ['{"le', 'er":{"ruta":"'],
    ['{"e', 'scribir":{"ruta":"'], ['{"escribir":{"ruta":"x"', ',"contenido":"'], ['{"leer":{"ruta":"x', ""],
    ['{"leer":{"ruta":"x"', "}}"], ['{"respuesta":"x"}', ""], ['{"respuesta":"ñ', ""]]) {
    assert.equal(texto(forzados(c, bytes(escrito))), forzado, escrito);
  }
  // Every admitted answer goes on with what is forced at each of its starts.
  for (const [esquemaDeLaSalida, bien] of CASOS) {
    const cada = comprobador(esquemaDeLaSalida);
    for (const salida of bien) {
      const b = bytes(salida);
      for (let n = 0; n <= b.length; n++) {
        const f = forzados(cada, b, n);
        assert.deepEqual([...b.subarray(n, n + f.length)], [...f], `${salida} [:${n}]`);
      }
    }
  }
});

test("a schema the compact grammar does not cover has no check (as gramaticaDeSalida gives null)", () => {
  const opcional = { type: "object", properties: { ruta: { type: "string" } }, required: [] };
  const lista = esquema({ rutas: { type: "array", items: { type: "string" } } });
  for (const input_schema of [opcional, lista]) {
    const s = esquemaDeSalida([{ name: "h", description: "", input_schema }]);
    assert.equal(gramaticaDeSalida(s), null);
    assert.equal(comprobador(s), null);
  }
});
