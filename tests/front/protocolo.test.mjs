// The in-page model server's protocol (widgets/front/modelo/protocolo.js): requests of the
// messages protocol validated, the server's ids, the text answer's key as every step uses it, and
// whole responses with a fake `generar`.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  HERRAMIENTAS, TURNO_1, TURNO_2, TURNO_3, esquema, llamadaJSON, peticion, resultado, texto, textoJSON, usar,
} from "./modelo-comun.mjs";

const { MODELO, errorDelProtocolo, idsDelServidor, responder, validar } =
  await import("../../widgets/front/modelo/protocolo.js");
const { claveDeTexto, esquemaDeSalida, gramaticaDeSalida } = await import("../../widgets/front/modelo/esquema.js");
const { mensajesParaElModelo } = await import("../../widgets/front/modelo/indicaciones.js");
const { bloquesDeSalida } = await import("../../widgets/front/modelo/lectura.js");

test("the server's ids are unique and increasing across calls", () => {
  const ids = idsDelServidor();
  const vistos = Array.from({ length: 12 }, () => ids());
  assert.deepEqual(vistos.slice(0, 3), ["toolu_01", "toolu_02", "toolu_03"]);
  assert.equal(new Set(vistos).size, 12);
  assert.deepEqual(vistos.map((id) => Number(id.slice(6))), Array.from({ length: 12 }, (_, i) => i + 1));
  assert.equal(idsDelServidor("msg_")(), "msg_01");
});

// ------------------------------------------- the text answer's key, in every step

test("a tool named «respuesta» keeps its name: the text answer's key becomes another", () => {
  assert.equal(claveDeTexto(HERRAMIENTAS), "respuesta");
  assert.equal(claveDeTexto(undefined), "respuesta");
  const respuesta = { name: "respuesta", input_schema: esquema({ a: texto("") }) };
  const otra = { name: "_respuesta", input_schema: esquema({ b: texto("") }) };
  assert.equal(claveDeTexto([respuesta]), "_respuesta");
  assert.equal(claveDeTexto([respuesta, otra]), "__respuesta");
  const s = esquemaDeSalida([respuesta]);
  assert.deepEqual(s.anyOf.map((a) => a.required[0]), ["_respuesta", "respuesta"]);
  const ids = idsDelServidor();
  assert.deepEqual(bloquesDeSalida('{"respuesta":{"a":"x"}}', "stop", ids, "_respuesta").content,
    [{ type: "tool_use", id: "toolu_01", name: "respuesta", input: { a: "x" } }]);
  assert.deepEqual(bloquesDeSalida('{"_respuesta":"hola"}', "stop", ids, "_respuesta").content,
    [{ type: "text", text: "hola" }]);
  assert.deepEqual(bloquesDeSalida('{"_respuesta":"ho', "length", ids, "_respuesta").content,
    [{ type: "text", text: "ho" }]);
  const sistema = mensajesParaElModelo(peticion({ tools: [respuesta] }))[0].content;
  assert.ok(sistema.includes('{"_respuesta":texto} para contestar al usuario'), sistema);
});

// ------------------------------------------------------------------ validation

const motivo = (p) => {
  const r = validar(p);
  assert.ok(r, `expected an error for ${JSON.stringify(p)}`);
  return r;
};

test("a well-formed request passes, a conversation with calls and results too", () => {
  assert.equal(validar(TURNO_1), null);
  assert.equal(validar(TURNO_3), null);
  assert.equal(validar(peticion({ tools: undefined, system: undefined })), null);
  assert.equal(validar(peticion({ tools: [] })), null);
});

test("400: max_tokens missing or not a positive integer", () => {
  for (const max of [undefined, 0, -5, 2.5, "64", null]) {
    const r = motivo(peticion({ max_tokens: max }));
    assert.equal(r.estado, 400);
    assert.deepEqual(Object.keys(r.cuerpo), ["type", "error"]);
    assert.equal(r.cuerpo.type, "error");
    assert.equal(r.cuerpo.error.type, "invalid_request_error");
    assert.match(r.cuerpo.error.message, /max_tokens/);
  }
  assert.match(motivo(peticion({ max_tokens: undefined })).cuerpo.error.message, /^falta «max_tokens»/);
});

test("400: messages empty, badly ordered, with a bad role, or ending with the assistant", () => {
  const casos = [
    [[], /al menos un mensaje/],
    [undefined, /al menos un mensaje/],
    [[{ role: "assistant", content: "Hola" }], /primer mensaje debe ser del usuario/],
    [[{ role: "user", content: "a" }, { role: "user", content: "b" }], /alternar/],
    [[{ role: "usuario", content: "a" }], /«role» debe ser «user» o «assistant» y es «usuario»/],
    [[{ role: "system", content: "a" }], /«role» debe ser/],
    [[{ role: "user", content: "a" }, { role: "assistant", content: "b" }], /último mensaje debe ser del usuario/],
    [[{ role: "user", content: 7 }], /«content» debe ser un texto o una lista/],
    [[{ role: "user", content: [] }], /lista vacía/],
    ["hola", /al menos un mensaje/],
  ];
  for (const [messages, patron] of casos) {
    const r = motivo(peticion({ messages }));
    assert.equal(r.estado, 400, JSON.stringify(messages));
    assert.match(r.cuerpo.error.message, patron, JSON.stringify(messages));
  }
});

test("400: a block of a type its role does not admit, or a malformed block", () => {
  const conUsuario = (content) => peticion({ messages: [{ role: "user", content }] });
  const casos = [
    [conUsuario([{ type: "image", source: {} }]), /no admite bloques de tipo «image»/],
    [conUsuario([usar("t", "leer", { ruta: "x" })]), /del usuario no admite bloques de tipo «tool_use»/],
    [conUsuario([{ type: "text" }]), /un bloque text necesita «text»/],
    [conUsuario(["hola"]), /debe ser un bloque/],
    [peticion({ messages: [{ role: "user", content: "a" }, { role: "assistant", content: [resultado("t", "x")] }, { role: "user", content: "b" }] }),
      /del asistente no admite bloques de tipo «tool_result»/],
    [peticion({ messages: [{ role: "user", content: "a" }, { role: "assistant", content: [usar("t", "leer", "x")] }, { role: "user", content: [resultado("t", "x")] }] }),
      /tool_use necesita/],
  ];
  for (const [p, patron] of casos) {
    const r = motivo(p);
    assert.equal(r.estado, 400);
    assert.match(r.cuerpo.error.message, patron);
  }
});

test("400: a call without its result, a result without its call, a malformed result", () => {
  const llamada = { role: "assistant", content: [usar("toolu_01", "leer", { ruta: "lista.txt" })] };
  const sinResultado = peticion({ messages: [{ role: "user", content: "a" }, llamada, { role: "user", content: "¿y?" }] });
  assert.match(motivo(sinResultado).cuerpo.error.message, /falta el tool_result de la llamada «toolu_01» \(leer\)/);
  const huerfano = peticion({ messages: [{ role: "user", content: "a" }, llamada, { role: "user", content: [resultado("toolu_02", "x")] }] });
  assert.match(motivo(huerfano).cuerpo.error.message, /«toolu_02» no responde a ninguna llamada/);
  const malContenido = peticion({ messages: [{ role: "user", content: "a" }, llamada, { role: "user", content: [resultado("toolu_01", 3)] }] });
  assert.match(motivo(malContenido).cuerpo.error.message, /«content» de un tool_result/);
  const malError = peticion({ messages: [{ role: "user", content: "a" }, llamada, { role: "user", content: [resultado("toolu_01", "x", "sí")] }] });
  assert.match(motivo(malError).cuerpo.error.message, /«is_error» debe ser true o false/);
});

test("400: tools malformed", () => {
  const casos = [
    [{}, /«tools» debe ser una lista/],
    [["leer"], /tools\[0\] debe ser un objeto/],
    [[{ name: "leer fichero", input_schema: { type: "object" } }], /«name» debe ser un texto de 1 a 64/],
    [[{ input_schema: { type: "object" } }], /«name»/],
    [[HERRAMIENTAS[1], HERRAMIENTAS[1]], /dos herramientas con el nombre «leer»/],
    [[{ name: "leer", description: 3, input_schema: { type: "object" } }], /«description» debe ser un texto/],
    [[{ name: "leer" }], /«input_schema» debe ser un esquema JSON de tipo «object»/],
    [[{ name: "leer", input_schema: { type: "string" } }], /de tipo «object»/],
    [[{ name: "leer", input_schema: { type: "object", required: "ruta" } }], /«input_schema.required»/],
  ];
  for (const [tools, patron] of casos) {
    const r = motivo(peticion({ tools }));
    assert.equal(r.estado, 400, JSON.stringify(tools));
    assert.match(r.cuerpo.error.message, patron, JSON.stringify(tools));
  }
});

test("400: not an object, no model, a system that is not text", () => {
  for (const [p, patron] of [
    [null, /objeto JSON/],
    [[], /objeto JSON/],
    [peticion({ model: undefined }), /falta «model»/],
    [peticion({ system: 5 }), /«system» debe ser un texto/],
  ]) {
    const r = motivo(p);
    assert.equal(r.estado, 400);
    assert.match(r.cuerpo.error.message, patron);
  }
});

test("400: a stream asked for, a tool_choice that cannot be met", () => {
  assert.match(motivo(peticion({ stream: true })).cuerpo.error.message, /por partes/);
  assert.equal(validar(peticion({ stream: false })), null);
  for (const eleccion of [{ type: "auto" }, { type: "any" }, { type: "none" }, { type: "tool", name: "leer" }]) {
    assert.equal(validar(peticion({ tool_choice: eleccion })), null, eleccion.type);
  }
  for (const [cambios, patron] of [
    [{ tool_choice: "auto" }, /«tool_choice» debe ser/],
    [{ tool_choice: { type: "required" } }, /«tool_choice» debe ser/],
    [{ tool_choice: { type: "tool", name: "borrar" } }, /«borrar», que no está en «tools»/],
    [{ tool_choice: { type: "any" }, tools: undefined }, /no hay ninguna/],
  ]) {
    const r = motivo(peticion(cambios));
    assert.equal(r.estado, 400);
    assert.match(r.cuerpo.error.message, patron);
  }
});

test("404: a model this server does not serve, named in the message", () => {
  const r = motivo(peticion({ model: "claude-sonnet-4" }));
  assert.equal(r.estado, 404);
  assert.deepEqual(r.cuerpo, {
    type: "error",
    error: { type: "not_found_error", message: "no existe el modelo «claude-sonnet-4»: este servidor solo sirve «smollm2-135m»" },
  });
  assert.equal(MODELO, "smollm2-135m");
  assert.equal(validar(peticion({ model: "otro" }), "otro"), null);
  assert.equal(validar(peticion(), "otro").estado, 404);
});

test("a protocol error of another status: its type given, or api_error", () => {
  assert.deepEqual(errorDelProtocolo(503, "el modelo no está descargado", "overloaded_error"), {
    estado: 503, cuerpo: { type: "error", error: { type: "overloaded_error", message: "el modelo no está descargado" } },
  });
  assert.equal(errorDelProtocolo(503, "x").cuerpo.error.type, "api_error");
  assert.equal(errorDelProtocolo(400, "x").cuerpo.error.type, "invalid_request_error");
});

// --------------------------------------------------------------------- responder

/** A fake model: records what it was given and answers `salida`. */
function modeloFalso(salida) {
  const llamadas = [];
  const generar = async (pedido) => {
    llamadas.push(pedido);
    return typeof salida === "function" ? salida(pedido) : salida;
  };
  return { generar, llamadas };
}

const CUENTAS = { tokensEntrada: 412, tokensSalida: 23, tokensReusados: 380 };

test("a whole response: the protocol's fields, the usage from the model's token counts", async () => {
  const { generar, llamadas } = modeloFalso({ texto: textoJSON("Hecho."), fin: "stop", ...CUENTAS });
  const senal = new AbortController().signal;
  const r = await responder(TURNO_2, generar, { ids: idsDelServidor(), idMensaje: idsDelServidor("msg_"), senal });
  assert.equal(r.estado, 200);
  assert.deepEqual(r.cuerpo, {
    id: "msg_01",
    type: "message",
    role: "assistant",
    model: "smollm2-135m",
    content: [{ type: "text", text: "Hecho." }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 412, output_tokens: 23, cache_read_input_tokens: 380 },
  });
  assert.equal(llamadas.length, 1);
  assert.deepEqual(llamadas[0], {
    mensajes: mensajesParaElModelo(TURNO_2),
    esquema: esquemaDeSalida(HERRAMIENTAS),
    gramatica: gramaticaDeSalida(esquemaDeSalida(HERRAMIENTAS)),
    max_tokens: 64,
    senal,
  });
});

test("the request's tool_choice reaches the model as its schema", async () => {
  const { generar, llamadas } = modeloFalso({ texto: llamadaJSON("leer", { ruta: "a" }), fin: "stop" });
  await responder(peticion({ tool_choice: { type: "tool", name: "leer" } }), generar, { ids: idsDelServidor() });
  assert.deepEqual(llamadas[0].esquema, esquemaDeSalida(HERRAMIENTAS, { type: "tool", name: "leer" }));
});

test("a call, and ids unique and increasing across the calls of one server", async () => {
  const { generar } = modeloFalso({ texto: llamadaJSON("leer", { ruta: "lista.txt" }), fin: "stop", ...CUENTAS });
  const ids = idsDelServidor();
  const idMensaje = idsDelServidor("msg_");
  const uno = await responder(TURNO_1, generar, { ids, idMensaje });
  const dos = await responder(TURNO_1, generar, { ids, idMensaje });
  assert.equal(uno.cuerpo.stop_reason, "tool_use");
  assert.deepEqual(uno.cuerpo.content, [{ type: "tool_use", id: "toolu_01", name: "leer", input: { ruta: "lista.txt" } }]);
  assert.equal(dos.cuerpo.content[0].id, "toolu_02");
  assert.deepEqual([uno.cuerpo.id, dos.cuerpo.id], ["msg_01", "msg_02"]);
});

test("without ids given, the page's one server still never repeats an id", async () => {
  const { generar } = modeloFalso({ texto: llamadaJSON("buscar", { patron: "a" }), fin: "stop", ...CUENTAS });
  const uno = await responder(TURNO_1, generar);
  const dos = await responder(TURNO_1, generar);
  assert.notEqual(uno.cuerpo.content[0].id, dos.cuerpo.content[0].id);
  assert.notEqual(uno.cuerpo.id, dos.cuerpo.id);
  assert.ok(Number(dos.cuerpo.content[0].id.slice(6)) > Number(uno.cuerpo.content[0].id.slice(6)));
});

test("cut by max_tokens: stop_reason max_tokens, the usage still there", async () => {
  const { generar } = modeloFalso({ texto: '{"escribir":{"ruta":"li', fin: "length", tokensEntrada: 30, tokensSalida: 64, tokensReusados: 0 });
  const r = await responder(TURNO_1, generar, { ids: idsDelServidor() });
  assert.equal(r.estado, 200);
  assert.equal(r.cuerpo.stop_reason, "max_tokens");
  assert.deepEqual(r.cuerpo.content, []);
  assert.deepEqual(r.cuerpo.usage, { input_tokens: 30, output_tokens: 64, cache_read_input_tokens: 0 });
});

test("a bad request never reaches the model", async () => {
  const { generar, llamadas } = modeloFalso({ texto: "", fin: "stop" });
  assert.equal((await responder(peticion({ max_tokens: 0 }), generar)).estado, 400);
  assert.equal((await responder(peticion({ model: "gpt" }), generar)).estado, 404);
  assert.equal((await responder(peticion({ model: "gpt" }), generar, { modelo: "gpt" })).estado, 200);
  assert.equal(llamadas.length, 1);
});

test("a model that throws: 500 api_error with its reason; a stopped generation says so", async () => {
  const roto = async () => {
    throw new Error("no queda memoria");
  };
  const r = await responder(TURNO_1, roto);
  assert.deepEqual(r, { estado: 500, cuerpo: { type: "error", error: { type: "api_error", message: "el modelo falló: no queda memoria" } } });
  const detenido = async () => {
    throw new DOMException("The operation was aborted.", "AbortError");
  };
  const d = await responder(TURNO_1, detenido);
  assert.deepEqual(d, { estado: 500, cuerpo: { type: "error", error: { type: "api_error", message: "generación detenida" } } });
  const mudo = modeloFalso({ fin: "stop" }).generar;
  assert.equal((await responder(TURNO_1, mudo)).cuerpo.error.message, "el modelo no devolvió texto");
});

test("usage: missing counts are 0, never undefined", async () => {
  const { generar } = modeloFalso({ texto: textoJSON("a"), fin: "stop" });
  const r = await responder(TURNO_1, generar);
  assert.deepEqual(r.cuerpo.usage, { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0 });
});


test("responder gives the model the schema and, where it covers it, the compact grammar", async () => {
  let recibido;
  const generar = async (pedido) => {
    recibido = pedido;
    return { texto: textoJSON("hola"), fin: "stop", tokensEntrada: 1, tokensSalida: 1, tokensReusados: 0 };
  };
  await responder({ model: MODELO, max_tokens: 8, messages: [{ role: "user", content: "hola" }], tools: HERRAMIENTAS }, generar);
  assert.deepEqual(recibido.esquema, esquemaDeSalida(HERRAMIENTAS));
  assert.equal(recibido.gramatica, gramaticaDeSalida(esquemaDeSalida(HERRAMIENTAS)));
});
