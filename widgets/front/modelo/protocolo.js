// @ts-check
// The in-page model server's protocol: a request of the messages protocol (POST …/v1/messages)
// in, a response of that protocol out, with a tiny model in between that only knows chat text.
// Pure functions, no DOM, no model: the model is injected as `generar` (modelo/motor.js gives the
// real one; the tests give fakes). This module checks the request and answers it; the steps in
// between are its neighbours':
//
//   indicaciones.js  the request → the chat the model reads (system prompt, tools, turns)
//   esquema.js       what the model may write: the output schema and its compact grammar
//   lectura.js       what it wrote → the response's blocks and stop reason
//
//   validar(peticion, modelo?)             → null | { estado: 400|404, cuerpo: error }
//   await responder(peticion, generar, { ids, idMensaje, modelo, senal })  → { estado, cuerpo }
//   idsDelServidor(prefijo?)               → () => "toolu_01", "toolu_02", …
//   errorDelProtocolo(estado, mensaje, tipo?) → { estado, cuerpo: {type: "error", error} }
//
// The texts below are the server's words (its errors reach the reader's cell through the
// adapter's exception; the prompt reaches the model), so they are Spanish and live here, beside
// the protocol they belong to, not among the widgets' texts (lib/textos.js).
import { claveDeTexto, esquemaDeSalida, gramaticaDeSalida } from "./esquema.js";
import { mensajesParaElModelo } from "./indicaciones.js";
import { bloquesDeSalida } from "./lectura.js";
import { esObjeto, esTexto } from "./valores.js";

/** The model this server serves, unless told otherwise. */
export const MODELO = "smollm2-135m";

// ------------------------------------------------------------------------- ids

/** A counter of server-assigned ids: each call returns the next, «toolu_01», «toolu_02»… */
export function idsDelServidor(prefijo = "toolu_") {
  let n = 0;
  return () => `${prefijo}${String(++n).padStart(2, "0")}`;
}

// One server per page: the ids it assigns are unique across the calls of that page.
const IDS_LLAMADAS = idsDelServidor("toolu_");
const IDS_MENSAJES = idsDelServidor("msg_");

// --------------------------------------------------------------------- errores

/** @type {Record<number, string>} */
const TIPOS_DE_ERROR = { 400: "invalid_request_error", 404: "not_found_error", 500: "api_error" };

/**
 * A protocol error: `{ estado, cuerpo: {type: "error", error: {type, message}} }`; the type follows
 * from the status (400, 404, 500) unless given.
 * @param {number} estado
 * @param {string} mensaje
 * @param {string} [tipo]
 */
export function errorDelProtocolo(estado, mensaje, tipo = TIPOS_DE_ERROR[estado] ?? "api_error") {
  return { estado, cuerpo: { type: "error", error: { type: tipo, message: mensaje } } };
}

/** @type {(x: unknown) => string} */
const escrito = (x) => (typeof x === "string" ? `«${x}»` : JSON.stringify(x) ?? String(x));
const NOMBRE_DE_HERRAMIENTA = /^[a-zA-Z0-9_-]{1,64}$/;

/** @type {Record<string, string[]>} */
const BLOQUES = {
  user: ["text", "tool_result"],
  assistant: ["text", "tool_use"],
};

// ------------------------------------------------------------------- validar

/**
 * null when `peticion` is a request this server can answer; otherwise the protocol error to
 * send: 400 invalid_request_error (the request is malformed), 404 not_found_error (a model this
 * server does not serve; `modelo` is the one it serves).
 * @param {any} peticion the request's JSON, whatever it is: checked here
 * @param {string} [modelo]
 */
export function validar(peticion, modelo = MODELO) {
  const motivo = motivoDeRechazo(peticion);
  if (motivo) return errorDelProtocolo(400, motivo);
  if (peticion.model !== modelo) {
    const nombre = escrito(peticion.model);
    return errorDelProtocolo(404, `no existe el modelo ${nombre}: este servidor solo sirve «${modelo}»`);
  }
  return null;
}

// What the request sent, not checked yet: `any` (the checks below are what types it). Each
// motivoEn… gives the reader's reason to refuse it, or null.

/** @param {unknown} p */
function motivoDeRechazo(p) {
  if (!esObjeto(p)) return "el cuerpo de la petición debe ser un objeto JSON";
  if (!esTexto(p.model) || p.model === "") return "falta «model»: el nombre del modelo, un texto";
  const max = p.max_tokens;
  if (!Number.isInteger(max) || max < 1) {
    return max === undefined
      ? "falta «max_tokens»: cuántos tokens puede generar el modelo como mucho"
      : `«max_tokens» debe ser un número entero positivo y es ${escrito(max)}`;
  }
  if (p.stream !== undefined && p.stream !== false) {
    return "este servidor no envía la respuesta por partes: quita «stream» o ponlo a false";
  }
  return motivoEnSystem(p.system) ?? motivoEnTools(p.tools) ?? motivoEnEleccion(p.tool_choice, p.tools ?? []) ??
    motivoEnMessages(p.messages);
}

const ELECCIONES = ["auto", "any", "tool", "none"];

/**
 * @param {unknown} eleccion
 * @param {any[]} tools
 */
function motivoEnEleccion(eleccion, tools) {
  if (eleccion === undefined) return null;
  if (!esObjeto(eleccion) || !ELECCIONES.includes(eleccion.type)) {
    return `«tool_choice» debe ser {"type": …} con type ${ELECCIONES.map((t) => `«${t}»`).join(", ")}`;
  }
  if ((eleccion.type === "any" || eleccion.type === "tool") && tools.length === 0) {
    return `«tool_choice» «${eleccion.type}» obliga a llamar a una herramienta, y no hay ninguna en «tools»`;
  }
  if (eleccion.type === "tool" && !tools.some((h) => h.name === eleccion.name)) {
    return `«tool_choice» pide la herramienta ${escrito(eleccion.name)}, que no está en «tools»`;
  }
  return null;
}

/** @param {unknown} system */
function motivoEnSystem(system) {
  if (system === undefined || esTexto(system)) return null;
  if (Array.isArray(system) && system.every((b) => esObjeto(b) && b.type === "text" && esTexto(b.text))) {
    return null;
  }
  return "«system» debe ser un texto (o una lista de bloques text)";
}

/** @param {unknown} tools */
function motivoEnTools(tools) {
  if (tools === undefined) return null;
  if (!Array.isArray(tools)) return "«tools» debe ser una lista de herramientas";
  const vistos = new Set();
  for (const [k, h] of tools.entries()) {
    const donde = `tools[${k}]`;
    if (!esObjeto(h)) return `${donde} debe ser un objeto {name, description, input_schema}`;
    if (!esTexto(h.name) || !NOMBRE_DE_HERRAMIENTA.test(h.name)) {
      return `${donde}: «name» debe ser un texto de 1 a 64 letras, cifras, _ o - y es ${escrito(h.name)}`;
    }
    if (vistos.has(h.name)) return `${donde}: hay dos herramientas con el nombre «${h.name}»`;
    vistos.add(h.name);
    if (h.description !== undefined && !esTexto(h.description)) {
      return `${donde} (${h.name}): «description» debe ser un texto`;
    }
    const esquema = h.input_schema;
    if (!esObjeto(esquema) || esquema.type !== "object") {
      return `${donde} (${h.name}): «input_schema» debe ser un esquema JSON de tipo «object»`;
    }
    if (esquema.properties !== undefined && !esObjeto(esquema.properties)) {
      return `${donde} (${h.name}): «input_schema.properties» debe ser un objeto`;
    }
    if (esquema.required !== undefined && !(Array.isArray(esquema.required) && esquema.required.every(esTexto))) {
      return `${donde} (${h.name}): «input_schema.required» debe ser una lista de nombres`;
    }
  }
  return null;
}

/** @param {unknown} messages */
function motivoEnMessages(messages) {
  if (!Array.isArray(messages) || messages.length === 0) {
    return "«messages» debe ser una lista con al menos un mensaje";
  }
  let anterior = null; // the previous message's role
  let pendientes = new Map(); // the previous assistant message's calls: id → name
  for (const [i, m] of messages.entries()) {
    const donde = `messages[${i}]`;
    if (!esObjeto(m)) return `${donde} debe ser un objeto {role, content}`;
    if (m.role !== "user" && m.role !== "assistant") {
      return `${donde}: «role» debe ser «user» o «assistant» y es ${escrito(m.role)}`;
    }
    if (i === 0 && m.role !== "user") return `${donde}: el primer mensaje debe ser del usuario (role «user»)`;
    if (m.role === anterior) {
      return `${donde}: los mensajes deben alternar «user» y «assistant», y hay dos seguidos de «${m.role}»`;
    }
    const motivo = motivoEnContenido(m, donde, pendientes);
    if (motivo) return motivo;
    pendientes = m.role === "assistant" ? llamadasDe(m.content) : new Map();
    anterior = m.role;
  }
  if (anterior !== "user") {
    return `messages[${messages.length - 1}]: el último mensaje debe ser del usuario: ` +
      "este servidor no continúa una respuesta empezada";
  }
  return null;
}

/**
 * @param {unknown} contenido
 * @returns {Map<string, string>}
 */
function llamadasDe(contenido) {
  const llamadas = new Map();
  if (Array.isArray(contenido)) {
    for (const b of contenido) if (b.type === "tool_use") llamadas.set(b.id, b.name);
  }
  return llamadas;
}

/**
 * @param {Record<string, any>} m
 * @param {string} donde
 * @param {Map<string, string>} pendientes
 */
function motivoEnContenido(m, donde, pendientes) {
  const contenido = m.content;
  if (esTexto(contenido)) return faltaResultado(donde, pendientes, new Set());
  if (!Array.isArray(contenido)) return `${donde}: «content» debe ser un texto o una lista de bloques`;
  if (contenido.length === 0) return `${donde}: «content» es una lista vacía`;
  const respondidas = new Set();
  for (const [j, b] of contenido.entries()) {
    const aqui = `${donde}.content[${j}]`;
    if (!esObjeto(b)) return `${aqui} debe ser un bloque, un objeto con «type»`;
    if (!BLOQUES[m.role].includes(b.type)) {
      const quien = m.role === "user" ? "del usuario" : "del asistente";
      return `${aqui}: un mensaje ${quien} no admite bloques de tipo ${escrito(b.type)} ` +
        `(admite ${BLOQUES[m.role].join(" y ")})`;
    }
    const motivo = motivoEnBloque(b, aqui);
    if (motivo) return motivo;
    if (b.type === "tool_result") {
      if (!pendientes.has(b.tool_use_id)) {
        return `${aqui}: el tool_result de «${b.tool_use_id}» no responde a ninguna llamada (tool_use) ` +
          "del mensaje anterior";
      }
      respondidas.add(b.tool_use_id);
    }
  }
  return faltaResultado(donde, pendientes, respondidas);
}

/**
 * @param {string} donde
 * @param {Map<string, string>} pendientes
 * @param {Set<string>} respondidas
 */
function faltaResultado(donde, pendientes, respondidas) {
  for (const [id, nombre] of pendientes) {
    if (!respondidas.has(id)) {
      return `${donde}: falta el tool_result de la llamada «${id}» (${nombre}): cada tool_use ` +
        "necesita su resultado en el mensaje siguiente, del usuario";
    }
  }
  return null;
}

/**
 * @param {Record<string, any>} b
 * @param {string} aqui
 */
function motivoEnBloque(b, aqui) {
  if (b.type === "text") {
    return esTexto(b.text) ? null : `${aqui}: un bloque text necesita «text», un texto`;
  }
  if (b.type === "tool_use") {
    if (esTexto(b.id) && b.id !== "" && esTexto(b.name) && esObjeto(b.input)) return null;
    return `${aqui}: un bloque tool_use necesita «id» y «name» (textos) e «input» (un objeto)`;
  }
  // tool_result
  if (!esTexto(b.tool_use_id) || b.tool_use_id === "") {
    return `${aqui}: un bloque tool_result necesita «tool_use_id», el id de la llamada que responde`;
  }
  const c = b.content;
  const bienContenido = c === undefined || esTexto(c) ||
    (Array.isArray(c) && c.every((x) => esObjeto(x) && x.type === "text" && esTexto(x.text)));
  if (!bienContenido) return `${aqui}: «content» de un tool_result debe ser un texto (o una lista de bloques text)`;
  if (b.is_error !== undefined && typeof b.is_error !== "boolean") {
    return `${aqui}: «is_error» debe ser true o false`;
  }
  return null;
}

// ------------------------------------------------------------------ responder

/**
 * Answer one request of the messages protocol. `generar({mensajes, esquema, max_tokens, senal})`
 * runs the model and resolves to `{texto, fin: "stop"|"length", tokensEntrada, tokensSalida,
 * tokensReusados}`. Resolves to `{estado, cuerpo}`: 200 and a response, or 400/404 (the request)
 * or 500 (the model failed, or was stopped) and a protocol error.
 *
 * Options: `ids` gives the calls' ids and `idMensaje` the responses' (by default the page's one
 * server's counters, so ids never repeat in a page), `modelo` is the name served, `senal` an
 * AbortSignal passed on to `generar`. `usage` copies generar's counts: input_tokens ←
 * tokensEntrada, output_tokens ← tokensSalida, cache_read_input_tokens ← tokensReusados.
 * @param {any} peticion the request's JSON, as it came (validar checks it)
 * @param {(pedido: { mensajes: object[], esquema: object, gramatica: string | null, max_tokens: number,
 *   senal?: AbortSignal }) => Promise<unknown>} generar what it answers is checked here
 * @param {{ ids?: () => string, idMensaje?: () => string, modelo?: string, senal?: AbortSignal }} [opciones]
 */
export async function responder(
  peticion,
  generar,
  { ids = IDS_LLAMADAS, idMensaje = IDS_MENSAJES, modelo = MODELO, senal } = {},
) {
  const rechazo = validar(peticion, modelo);
  if (rechazo) return rechazo;
  const esquema = esquemaDeSalida(peticion.tools, peticion.tool_choice);
  let salida;
  try {
    salida = await generar({
      mensajes: mensajesParaElModelo(peticion),
      esquema,
      gramatica: gramaticaDeSalida(esquema),
      max_tokens: peticion.max_tokens,
      senal,
    });
  } catch (e) {
    if (e?.name === "AbortError" || senal?.aborted) return errorDelProtocolo(500, "generación detenida");
    return errorDelProtocolo(500, `el modelo falló: ${e?.message || String(e)}`);
  }
  if (!esObjeto(salida) || !esTexto(salida.texto)) {
    return errorDelProtocolo(500, "el modelo no devolvió texto");
  }
  const { content, stop_reason } = bloquesDeSalida(salida.texto, salida.fin, ids, claveDeTexto(peticion.tools));
  return {
    estado: 200,
    cuerpo: {
      id: idMensaje(),
      type: "message",
      role: "assistant",
      model: modelo,
      content,
      stop_reason,
      stop_sequence: null,
      usage: {
        input_tokens: cuenta(salida.tokensEntrada),
        output_tokens: cuenta(salida.tokensSalida),
        cache_read_input_tokens: cuenta(salida.tokensReusados),
      },
    },
  };
}

/** @type {(n: unknown) => number} */
const cuenta = (n) => (typeof n === "number" && Number.isInteger(n) && n >= 0 ? n : 0);
