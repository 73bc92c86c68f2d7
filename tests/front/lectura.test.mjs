// The in-page model's output read back (widgets/front/modelo/lectura.js): turned into the
// response's blocks and stop reasons, whole, cut at max_tokens, or malformed.
import assert from "node:assert/strict";
import { test } from "node:test";
import { HERRAMIENTAS, llamadaJSON } from "./modelo-comun.mjs";

const { bloquesDeSalida } = await import("../../widgets/front/modelo/lectura.js");
const { idsDelServidor } = await import("../../widgets/front/modelo/protocolo.js");

// ------------------------------------------------------------- output → blocks

const contador = () => idsDelServidor();

test("a text answer becomes one text block and ends the turn", () => {
  const r = bloquesDeSalida('{"respuesta":"Ya está: he apuntado huevos y cebolla."}', "stop", contador());
  assert.deepEqual(r, {
    content: [{ type: "text", text: "Ya está: he apuntado huevos y cebolla." }],
    stop_reason: "end_turn",
  });
  const conEspacios = bloquesDeSalida('{ "respuesta": "Hola" }\n', "stop", contador());
  assert.deepEqual(conEspacios.content, [{ type: "text", text: "Hola" }]);
});

test("each of the course's tools: a call becomes a tool_use block with a server id", () => {
  const entradas = {
    listar: { carpeta: "recetas" },
    leer: { ruta: "lista.txt" },
    escribir: { ruta: "lista.txt", contenido: "pan, leche, patatas, huevos" },
    buscar: { patron: "patatas" },
  };
  const ids = contador();
  for (const [i, h] of HERRAMIENTAS.entries()) {
    const salida = llamadaJSON(h.name, entradas[h.name]);
    const r = bloquesDeSalida(salida, "stop", ids);
    assert.deepEqual(r, {
      content: [{ type: "tool_use", id: `toolu_0${i + 1}`, name: h.name, input: entradas[h.name] }],
      stop_reason: "tool_use",
    });
    assert.deepEqual(Object.keys(r.content[0]), ["type", "id", "name", "input"]);
  }
});

test("cut in the middle of a call: max_tokens and no half call, no id spent", () => {
  const ids = contador();
  for (const cortada of ['{"escribir":{"ruta":"lista.txt","conte', '{"escri', '{"respu', "{"]) {
    assert.deepEqual(bloquesDeSalida(cortada, "length", ids), { content: [], stop_reason: "max_tokens" }, cortada);
  }
  assert.equal(ids(), "toolu_01");
});

test("cut in a text answer: max_tokens with the text so far, escapes decoded, a half escape dropped", () => {
  const r = bloquesDeSalida('{"respuesta":"Te falta: \\"huevos\\"\\ny cebo', "length", contador());
  assert.deepEqual(r, { content: [{ type: "text", text: 'Te falta: "huevos"\ny cebo' }], stop_reason: "max_tokens" });
  const mitad = bloquesDeSalida('{ "respuesta": "caf\\u00e9 y t\\u00', "length", contador());
  assert.deepEqual(mitad.content, [{ type: "text", text: "café y t" }]);
  const antes = bloquesDeSalida('{"respuesta":', "length", contador());
  assert.deepEqual(antes, { content: [], stop_reason: "max_tokens" });
  const sinJSON = bloquesDeSalida("Hola, soy un modelo que no", "length", contador());
  assert.deepEqual(sinJSON, { content: [{ type: "text", text: "Hola, soy un modelo que no" }], stop_reason: "max_tokens" });
});

test("an output that is whole when the tokens run out counts as whole", () => {
  const r = bloquesDeSalida('{"leer":{"ruta":"lista.txt"}}', "length", contador());
  assert.equal(r.stop_reason, "tool_use");
  assert.equal(r.content[0].name, "leer");
});

test("malformed output that was not cut comes back as it is, as text, and ends the turn", () => {
  for (const raro of [
    "no es JSON",
    '{"leer":"lista.txt"}',
    '{"leer":{"ruta":"a"},"listar":{"carpeta":""}}',
    '{"respuesta":{"texto":"hola"}}',
    '{"":{"a":1}}',
    '{}',
    '[{"respuesta":"hola"}]',
    '{"respuesta":"hola"} y más',
  ]) {
    assert.deepEqual(bloquesDeSalida(raro, "stop", contador()), {
      content: [{ type: "text", text: raro }],
      stop_reason: "end_turn",
    }, raro);
  }
  assert.deepEqual(bloquesDeSalida("", "stop", contador()), { content: [], stop_reason: "end_turn" });
  assert.deepEqual(bloquesDeSalida('{"respuesta":""}', "stop", contador()), { content: [], stop_reason: "end_turn" });
});

