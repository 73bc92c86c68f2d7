// What the in-page model reads (widgets/front/modelo/indicaciones.js): a request of the messages
// protocol as the chat the model takes, the system prompt first, the same prefix on every turn.
import assert from "node:assert/strict";
import { test } from "node:test";
import { HERRAMIENTAS, PEDIDO, SISTEMA, TURNO_1, TURNO_2, TURNO_3, peticion, resultado, usar } from "./modelo-comun.mjs";

const { mensajesDelPrefijo, mensajesParaElModelo } = await import("../../widgets/front/modelo/indicaciones.js");

// ------------------------------------------------------------ what the model reads

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

