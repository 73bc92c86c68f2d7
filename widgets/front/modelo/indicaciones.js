// @ts-check
// What the in-page model reads: a request of the messages protocol rendered as the plain chat
// a tiny model that only knows chat text takes (system prompt with the tools and the answer
// format, then user and assistant turns). Pure functions, no DOM, no model.
//
//   mensajesParaElModelo(peticion)         → [{ role: "system"|"user"|"assistant", content }]
//   sistemaParaElModelo(peticion)          → the first of them: system + tools + answer format
//   mensajesDelPrefijo({system, tools})    → the start every conversation with them shares (for
//                                            motor.preparar)
//
// What real servers do with `tools`: describe them to the model in the prompt. The system prompt
// depends only on the request's `system` and `tools` (stable order, no ids, no counters), so
// consecutive turns of a conversation share their prefix and the engine (nucleo.js, reusing its
// KV cache) only processes the new tokens. The prompt is Spanish: it is the course's, and the
// model reads it. Written in Python too, for training and the bench (runtime/entrenamiento.py's
// mensajes_para_el_modelo): tests/test_modelo_onnx.py holds the two prompts equal, byte for byte.
import { claveDeTexto } from "./esquema.js";
import { esObjeto, esTexto } from "./valores.js";

/**
 * A request protocolo.js's validar accepted: its blocks are objects tagged by `type`.
 * @typedef {Record<string, any>} Bloque
 * @typedef {{ name: string, description?: string, input_schema?: Record<string, any> }} Herramienta
 * @typedef {{ role: string, content: string | Bloque[] }} Mensaje
 * @typedef {{ system?: string | { text: string }[], tools?: Herramienta[] | null, messages: Mensaje[] }} Peticion
 */

// --------------------------------------------------- mensajes para el modelo

/** @type {Record<string, string>} */
const TIPOS = {
  string: "texto",
  integer: "número entero",
  number: "número",
  boolean: "true o false",
  array: "lista",
  object: "objeto",
};

/** @type {(clave: string) => string} */
const formatoDeTexto = (clave) => `{${JSON.stringify(clave)}:texto}`;

/**
 * The system prompt: the request's `system`, the tools described, and the answer format. It
 * depends on nothing else, so it is the same on every turn of a conversation.
 * @param {Pick<Peticion, "system" | "tools">} peticion
 */
export function sistemaParaElModelo(peticion) {
  const partes = [];
  const propio = textoDeSystem(peticion.system);
  if (propio) partes.push(propio);
  const tools = peticion.tools ?? [];
  const formatoTexto = formatoDeTexto(claveDeTexto(tools));
  if (tools.length) {
    partes.push(["Herramientas, cada una como se llama:", ...tools.map(describirHerramienta)].join("\n"));
    partes.push(
      "Responde siempre con un solo objeto JSON: una llamada a una herramienta, con sus argumentos " +
        `(recibirás su resultado), o ${formatoTexto} para contestar al usuario cuando hayas terminado.`,
    );
  } else {
    partes.push(`Responde siempre con un solo objeto JSON: ${formatoTexto}`);
  }
  return partes.join("\n\n");
}

/** @param {Peticion["system"]} system */
function textoDeSystem(system) {
  if (system === undefined) return "";
  if (esTexto(system)) return system;
  return system.map((b) => b.text).join("\n\n");
}

/** @param {Herramienta} h */
function describirHerramienta(h) {
  const esquema = h.input_schema ?? {};
  const propiedades = esObjeto(esquema.properties) ? esquema.properties : {};
  const requeridas = new Set(esquema.required ?? []);
  const nombres = Object.keys(propiedades);
  // The call as the model writes it, with each argument's type where its value goes.
  const argumentos = nombres.map((n) => `${JSON.stringify(n)}:${TIPOS[propiedades[n]?.type] ?? "valor"}`);
  const llamada = `{${JSON.stringify(h.name)}:{${argumentos.join(",")}}}`;
  const lineas = [`- ${llamada}${h.description ? ` ${h.description}` : ""}`];
  for (const nombre of nombres) {
    lineas.push(`    ${nombre}: ${describirArgumento(propiedades[nombre], requeridas.has(nombre))}`);
  }
  return lineas.join("\n");
}

/**
 * @param {Record<string, any> | undefined} esquema the argument's JSON Schema
 * @param {boolean} requerido
 */
function describirArgumento(esquema, requerido) {
  const tipo = Array.isArray(esquema?.enum)
    ? `uno de ${esquema.enum.map((v) => JSON.stringify(v)).join(", ")}`
    : (TIPOS[esquema?.type] ?? "valor");
  const opcional = requerido ? "" : ", opcional";
  return `${tipo}${opcional}.${esquema?.description ? ` ${esquema.description}` : ""}`;
}

/**
 * The conversation as the model's chat template takes it: the system prompt, then user and
 * assistant turns as plain text. An assistant turn is written as the JSON the model would have
 * produced (one line per block, without the ids the server assigned); a tool_result is written
 * as user text that names the call it answers, says whether it failed, and gives its content.
 * @param {Peticion} peticion
 */
export function mensajesParaElModelo(peticion) {
  const mensajes = [{ role: "system", content: sistemaParaElModelo(peticion) }];
  const clave = claveDeTexto(peticion.tools);
  /** @type {Map<string, Bloque>} */
  let llamadas = new Map(); // the previous assistant turn's calls: id → block
  for (const m of peticion.messages) {
    if (m.role === "assistant") {
      mensajes.push({ role: "assistant", content: textoDelAsistente(m.content, clave) });
      llamadas = new Map(bloques(m.content).filter((b) => b.type === "tool_use").map((b) => [b.id, b]));
    } else {
      mensajes.push({ role: "user", content: textoDelUsuario(m.content, llamadas) });
    }
  }
  return mensajes;
}

/**
 * The start every conversation with this `system` and these `tools` shares, as the model's
 * messages: the system prompt (which depends on nothing else) and an empty user turn. Read by the
 * model as soon as it loads (motor.preparar), it stays in the engine's KV cache, and a first turn
 * with them processes only its own messages.
 * @param {Pick<Peticion, "system" | "tools">} peticion
 */
export function mensajesDelPrefijo({ system, tools }) {
  return [{ role: "system", content: sistemaParaElModelo({ system, tools }) }, { role: "user", content: "" }];
}

/** @type {(contenido: string | Bloque[]) => Bloque[]} */
const bloques = (contenido) => (esTexto(contenido) ? [{ type: "text", text: contenido }] : contenido);

/**
 * @param {string | Bloque[]} contenido
 * @param {string} clave
 */
function textoDelAsistente(contenido, clave) {
  return bloques(contenido)
    .map((b) => JSON.stringify(b.type === "tool_use" ? { [b.name]: b.input } : { [clave]: b.text }))
    .join("\n");
}

/**
 * @param {string | Bloque[]} contenido
 * @param {Map<string, Bloque>} llamadas
 */
function textoDelUsuario(contenido, llamadas) {
  if (esTexto(contenido)) return contenido;
  return contenido
    .map((b) => (b.type === "tool_result" ? textoDelResultado(b, llamadas.get(b.tool_use_id)) : b.text))
    .join("\n\n");
}

/**
 * @param {Bloque} b
 * @param {Bloque | undefined} llamada
 */
function textoDelResultado(b, llamada) {
  const cual = llamada ? `${llamada.name} ${JSON.stringify(llamada.input)}` : `la llamada ${b.tool_use_id}`;
  const que = b.is_error ? "Error de" : "Resultado de";
  const c = b.content;
  const dentro = c === undefined ? "" : esTexto(c) ? c : c.map((/** @type {Bloque} */ x) => x.text).join("\n");
  return `${que} ${cual}:\n${dentro === "" ? "(vacío)" : dentro}`;
}
