// The in-page model server's protocol (widgets/front/modelo/protocolo.js): requests of the
// messages protocol validated, the output schema the model is held to, the chat it reads, its
// output turned into blocks and stop reasons, and whole responses with a fake `generar`.
import assert from "node:assert/strict";
import { test } from "node:test";

const {
  MODELO, bloquesDeSalida, claveDeTexto, errorDelProtocolo, esquemaDeSalida, gramaticaDeSalida, idsDelServidor, mensajesDelPrefijo, mensajesParaElModelo,
  responder, validar,
} = await import("../../widgets/front/modelo/protocolo.js");

// The course's four tools, as runtime/entorno.py defines HERRAMIENTAS.
const texto = (descripcion) => ({ type: "string", description: descripcion });
const esquema = (propiedades) => ({
  type: "object", properties: propiedades, required: Object.keys(propiedades), additionalProperties: false,
});
const HERRAMIENTAS = [
  {
    name: "listar",
    description: "Lista lo que hay justo dentro de una carpeta, una entrada por línea. " +
      "Las subcarpetas acaban en '/'. La carpeta raíz es ''.",
    input_schema: esquema({ carpeta: texto("La carpeta, por ejemplo 'recetas'; '' para la raíz.") }),
  },
  {
    name: "leer",
    description: "Devuelve el contenido de un fichero de texto.",
    input_schema: esquema({ ruta: texto("La ruta del fichero, por ejemplo 'recetas/gazpacho.txt'.") }),
  },
  {
    name: "escribir",
    description: "Escribe un fichero de texto entero. Si ya existe, reemplaza todo su contenido.",
    input_schema: esquema({
      ruta: texto("La ruta del fichero, por ejemplo 'lista.txt'."),
      contenido: texto("El texto completo que tendrá el fichero."),
    }),
  },
  {
    name: "buscar",
    description: "Busca un texto literal (distingue mayúsculas) en todos los ficheros. " +
      "Devuelve cada línea que lo contiene como 'ruta: línea'.",
    input_schema: esquema({ patron: texto("El texto que hay que buscar, tal cual.") }),
  },
];
const SISTEMA = "Eres un asistente que ayuda a organizar la compra de casa.";
const PEDIDO = "Apunta en lista.txt lo que falta para la tortilla.";

const peticion = (cambios = {}) => ({
  model: "smollm2-135m",
  max_tokens: 64,
  system: SISTEMA,
  messages: [{ role: "user", content: PEDIDO }],
  tools: HERRAMIENTAS,
  ...cambios,
});
const usar = (id, name, input) => ({ type: "tool_use", id, name, input });
// What the model writes: a call {"<tool>":{…}}, or a text answer {"respuesta":"…"}.
const llamadaJSON = (name, input) => JSON.stringify({ [name]: input });
const textoJSON = (text) => JSON.stringify({ respuesta: text });
const resultado = (id, content, is_error = false) => ({ type: "tool_result", tool_use_id: id, content, is_error });

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

test("a tool named «respuesta» keeps its name: the text answer's key becomes another", () => {
  assert.equal(claveDeTexto(HERRAMIENTAS), "respuesta");
  assert.equal(claveDeTexto(undefined), "respuesta");
  const respuesta = { name: "respuesta", input_schema: esquema({ a: texto("") }) };
  const otra = { name: "_respuesta", input_schema: esquema({ b: texto("") }) };
  assert.equal(claveDeTexto([respuesta]), "_respuesta");
  assert.equal(claveDeTexto([respuesta, otra]), "__respuesta");
  const s = esquemaDeSalida([respuesta]);
  assert.deepEqual(s.anyOf.map((a) => a.required[0]), ["_respuesta", "respuesta"]);
  const ids = contador();
  assert.deepEqual(bloquesDeSalida('{"respuesta":{"a":"x"}}', "stop", ids, "_respuesta").content,
    [{ type: "tool_use", id: "toolu_01", name: "respuesta", input: { a: "x" } }]);
  assert.deepEqual(bloquesDeSalida('{"_respuesta":"hola"}', "stop", ids, "_respuesta").content,
    [{ type: "text", text: "hola" }]);
  assert.deepEqual(bloquesDeSalida('{"_respuesta":"ho', "length", ids, "_respuesta").content,
    [{ type: "text", text: "ho" }]);
  const sistema = mensajesParaElModelo(peticion({ tools: [respuesta] }))[0].content;
  assert.ok(sistema.includes('{"_respuesta":texto} para contestar al usuario'), sistema);
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

test("the server's ids are unique and increasing across calls", () => {
  const ids = idsDelServidor();
  const vistos = Array.from({ length: 12 }, () => ids());
  assert.deepEqual(vistos.slice(0, 3), ["toolu_01", "toolu_02", "toolu_03"]);
  assert.equal(new Set(vistos).size, 12);
  assert.deepEqual(vistos.map((id) => Number(id.slice(6))), Array.from({ length: 12 }, (_, i) => i + 1));
  assert.equal(idsDelServidor("msg_")(), "msg_01");
});

// ------------------------------------------------------------ what the model reads

const TURNO_1 = peticion();
const TURNO_2 = peticion({
  messages: [
    { role: "user", content: PEDIDO },
    { role: "assistant", content: [{ type: "text", text: "Miro la lista." }, usar("toolu_07", "leer", { ruta: "lista.txt" })] },
    { role: "user", content: [resultado("toolu_07", "pan, leche, patatas")] },
  ],
});
const TURNO_3 = peticion({
  messages: [
    ...TURNO_2.messages,
    { role: "assistant", content: [usar("toolu_08", "escribir", { ruta: "lista.txt", contenido: "huevos" })] },
    { role: "user", content: [resultado("toolu_08", "no se ha ejecutado: el usuario no lo ha permitido", true)] },
  ],
});

test("the system prompt holds the request's system, every tool with its arguments, and the answer format", () => {
  const [sistema, ...resto] = mensajesParaElModelo(TURNO_1);
  assert.equal(sistema.role, "system");
  assert.ok(sistema.content.startsWith(`${SISTEMA}\n\n`));
  for (const h of HERRAMIENTAS) {
    // each tool as it is called, with each argument's type where its value goes
    const argumentos = Object.keys(h.input_schema.properties).map((a) => `"${a}":texto`).join(",");
    assert.ok(sistema.content.includes(`- {"${h.name}":{${argumentos}}} ${h.description}`), h.name);
    for (const [arg, s] of Object.entries(h.input_schema.properties)) {
      assert.ok(sistema.content.includes(`    ${arg}: texto. ${s.description}`), arg);
    }
  }
  assert.ok(sistema.content.includes("una llamada a una herramienta, con sus argumentos (recibirás su resultado)"));
  assert.ok(sistema.content.includes('{"respuesta":texto} para contestar al usuario cuando hayas terminado'));
  assert.deepEqual(resto, [{ role: "user", content: PEDIDO }]);
  assert.ok(sistema.content.length < 1600, `${sistema.content.length} characters`);
});

test("consecutive turns of a conversation share their prefix: the same system prompt, the same past turns", () => {
  const [uno, dos, tres] = [TURNO_1, TURNO_2, TURNO_3].map(mensajesParaElModelo);
  assert.equal(dos[0].content, uno[0].content);
  assert.equal(tres[0].content, uno[0].content);
  assert.deepEqual(tres.slice(0, dos.length), dos);
  assert.deepEqual(dos.slice(0, uno.length), uno);
  // Nothing in it depends on the server's ids.
  const otrosIds = JSON.parse(JSON.stringify(TURNO_3).replaceAll("toolu_0", "toolu_9"));
  assert.deepEqual(mensajesParaElModelo(otrosIds), tres);
});

test("the start a lesson's conversations share is the system prompt of every turn, then a user turn", () => {
  const prefijo = mensajesDelPrefijo({ system: TURNO_1.system, tools: TURNO_1.tools });
  assert.deepEqual(prefijo, [mensajesParaElModelo(TURNO_1)[0], { role: "user", content: "" }]);
  for (const turno of [TURNO_1, TURNO_2, TURNO_3]) {
    const m = mensajesParaElModelo(turno);
    assert.deepEqual(m[0], prefijo[0]);
    assert.equal(m[1].role, "user");
  }
});

test("past turns: the assistant's blocks as the JSON it answers with, results naming their call", () => {
  const m = mensajesParaElModelo(TURNO_3);
  assert.deepEqual(m.map((x) => x.role), ["system", "user", "assistant", "user", "assistant", "user"]);
  assert.equal(m[2].content, '{"respuesta":"Miro la lista."}\n{"leer":{"ruta":"lista.txt"}}');
  assert.equal(m[3].content, 'Resultado de leer {"ruta":"lista.txt"}:\npan, leche, patatas');
  assert.equal(m[5].content,
    'Error de escribir {"ruta":"lista.txt","contenido":"huevos"}:\nno se ha ejecutado: el usuario no lo ha permitido');
  assert.ok(m.every((x) => typeof x.content === "string"));
});

test("several results in one message, a result given as blocks, and a text beside them", () => {
  const m = mensajesParaElModelo(peticion({
    messages: [
      { role: "user", content: PEDIDO },
      { role: "assistant", content: [usar("a", "listar", { carpeta: "" }), usar("b", "buscar", { patron: "x" })] },
      { role: "user", content: [resultado("a", [{ type: "text", text: "lista.txt" }]), resultado("b", ""), { type: "text", text: "¿Y bien?" }] },
    ],
  }));
  assert.equal(m[3].content,
    'Resultado de listar {"carpeta":""}:\nlista.txt\n\nResultado de buscar {"patron":"x"}:\n(vacío)\n\n¿Y bien?');
});

test("without tools or system, the prompt only gives the text format", () => {
  const [sistema] = mensajesParaElModelo({ messages: [{ role: "user", content: "Hola" }] });
  assert.equal(sistema.content, 'Responde siempre con un solo objeto JSON: {"respuesta":texto}');
  const [conBloques] = mensajesParaElModelo({ system: [{ type: "text", text: "A" }, { type: "text", text: "B" }], messages: [] });
  assert.ok(conBloques.content.startsWith("A\n\nB\n\n"));
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

// ------------------------------------------------- the compact grammar (GBNF)

/** A GBNF grammar without recursion (what gramaticaDeSalida writes) as one anchored RegExp. */
function comoRegExp(gbnf) {
  const reglas = {};
  for (const linea of gbnf.trim().split("\n")) {
    const [nombre, cuerpo] = linea.split(" ::= ");
    reglas[nombre] = cuerpo;
  }
  const traducir = (cuerpo) => {
    let salida = "";
    let i = 0;
    while (i < cuerpo.length) {
      const c = cuerpo[i];
      if (c === " ") {
        i++;
      } else if (c === '"') {
        let j = i + 1;
        let texto = "";
        while (cuerpo[j] !== '"') {
          if (cuerpo[j] === "\\") j++;
          texto += cuerpo[j++];
        }
        salida += texto.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        i = j + 1;
      } else if (c === "[") {
        let j = i + 1;
        while (cuerpo[j] !== "]") j += cuerpo[j] === "\\" ? 2 : 1;
        salida += cuerpo.slice(i, j + 1);
        i = j + 1;
      } else if ("()|*+?".includes(c)) {
        salida += c === "(" ? "(?:" : c;
        i++;
      } else if (c === "{") {
        const j = cuerpo.indexOf("}", i);
        salida += cuerpo.slice(i, j + 1);
        i = j + 1;
      } else {
        const [nombre] = cuerpo.slice(i).match(/^[a-z-]+/);
        salida += `(?:${traducir(reglas[nombre])})`;
        i += nombre.length;
      }
    }
    return salida;
  };
  return new RegExp(`^(?:${traducir(reglas.root)})$`, "u");
}

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
  const herramienta = {
    name: "medir",
    description: "",
    input_schema: esquema({
      veces: { type: "integer" }, escala: { type: "number" }, exacto: { type: "boolean" },
      unidad: { enum: ["g", "kg"] }, donde: esquema({ fila: { type: "integer" } }),
    }),
  };
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
