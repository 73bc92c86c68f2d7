// The in-page model server's protocol: a request of the messages protocol (POST …/v1/messages)
// in, a response of that protocol out, with a tiny model in between that only knows chat text.
// Pure functions, no DOM, no model: the model is injected as `generar` (modelo/motor.js gives the
// real one; the tests give fakes).
//
//   validar(peticion, modelo?)             → null | { estado: 400|404, cuerpo: error }
//   esquemaDeSalida(tools, tool_choice?)   → JSON Schema the model's output is held to (llama.cpp
//                                            turns it into a grammar): a text answer
//                                            {"respuesta": …}, or one call {"<tool>": <arguments>}
//                                            of one tool with that tool's input_schema
//   mensajesParaElModelo(peticion)         → [{ role: "system"|"user"|"assistant", content }]
//   sistemaParaElModelo(peticion)          → the first of them: system + tools + answer format
//   mensajesDelPrefijo({system, tools})    → the start every conversation with them shares (for
//                                            motor.preparar)
//   bloquesDeSalida(texto, fin, ids, clave?) → { content, stop_reason }
//   claveDeTexto(tools)                    → the key of a text answer: «respuesta» (unless a tool
//                                            has that name)
//   await responder(peticion, generar, { ids, idMensaje, modelo, senal })  → { estado, cuerpo }
//   idsDelServidor(prefijo?)               → () => "toolu_01", "toolu_02", …
//   errorDelProtocolo(estado, mensaje, tipo?) → { estado, cuerpo: {type: "error", error} }
//
// What it does is what real servers do with `tools`: describe them to the model in the prompt and
// turn the model's answer into blocks. The system prompt depends only on the request's `system`
// and `tools` (stable order, no ids, no counters), so consecutive turns of a conversation share
// their prefix and llama.cpp (cache_prompt) only processes the new tokens.
//
// The texts below are the server's words (its errors reach the reader's cell through the
// adapter's exception; the prompt reaches the model), so they are Spanish and live here, beside
// the protocol they belong to, not among the widgets' texts (lib/textos.js).

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

const TIPOS_DE_ERROR = { 400: "invalid_request_error", 404: "not_found_error", 500: "api_error" };

/**
 * A protocol error: `{ estado, cuerpo: {type: "error", error: {type, message}} }`; the type follows
 * from the status (400, 404, 500) unless given.
 */
export function errorDelProtocolo(estado, mensaje, tipo = TIPOS_DE_ERROR[estado] ?? "api_error") {
  return { estado, cuerpo: { type: "error", error: { type: tipo, message: mensaje } } };
}

const escrito = (x) => (typeof x === "string" ? `«${x}»` : JSON.stringify(x) ?? String(x));
const esObjeto = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
const esTexto = (x) => typeof x === "string";
const NOMBRE_DE_HERRAMIENTA = /^[a-zA-Z0-9_-]{1,64}$/;

const BLOQUES = {
  user: ["text", "tool_result"],
  assistant: ["text", "tool_use"],
};

// ------------------------------------------------------------------- validar

/**
 * null when `peticion` is a request this server can answer; otherwise the protocol error to
 * send: 400 invalid_request_error (the request is malformed), 404 not_found_error (a model this
 * server does not serve; `modelo` is the one it serves).
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

function motivoEnSystem(system) {
  if (system === undefined || esTexto(system)) return null;
  if (Array.isArray(system) && system.every((b) => esObjeto(b) && b.type === "text" && esTexto(b.text))) {
    return null;
  }
  return "«system» debe ser un texto (o una lista de bloques text)";
}

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

function llamadasDe(contenido) {
  const llamadas = new Map();
  if (Array.isArray(contenido)) {
    for (const b of contenido) if (b.type === "tool_use") llamadas.set(b.id, b.name);
  }
  return llamadas;
}

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

function faltaResultado(donde, pendientes, respondidas) {
  for (const [id, nombre] of pendientes) {
    if (!respondidas.has(id)) {
      return `${donde}: falta el tool_result de la llamada «${id}» (${nombre}): cada tool_use ` +
        "necesita su resultado en el mensaje siguiente, del usuario";
    }
  }
  return null;
}

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

// --------------------------------------------------------- esquema de salida

/**
 * The key of a text answer in the model's output: «respuesta», or, when a tool has that name,
 * the same with as many «_» before it as it takes to be no tool's name.
 */
export function claveDeTexto(tools = []) {
  const nombres = new Set((tools ?? []).map((h) => h.name));
  let clave = "respuesta";
  while (nombres.has(clave)) clave = `_${clave}`;
  return clave;
}

/**
 * The JSON Schema the model's output is held to: one JSON object with one key, either a text
 * answer `{"respuesta":…}` or one call `{<a tool's name>:<its arguments>}`, one alternative per
 * tool so the arguments fit that tool's input_schema. No tools: text only. The request's
 * `tool_choice` narrows it: «any» a call of some tool, «tool» a call of that one, «none» text only
 * («auto», or none given: any of them).
 *
 * The shortest shape that still says everything: in a browser each token the model writes costs
 * about 0.1 s (BENCHMARKS.md), and the keys of a longer shape (`{"type":"tool_use","name":…,
 * "input":…}`, this server's first) were ten of each call's 26 tokens.
 *
 * Written for llama.cpp's json-schema-to-grammar: `anyOf` of objects, every key required and
 * `additionalProperties: false` so nothing else is generated; no `$ref`, no `oneOf`.
 */
export function esquemaDeSalida(tools = [], eleccion = { type: "auto" }) {
  const texto = objeto({ [claveDeTexto(tools)]: { type: "string" } });
  const que = eleccion?.type ?? "auto";
  const todas = tools ?? [];
  const elegidas = que === "none" ? [] : que === "tool" ? todas.filter((h) => h.name === eleccion.name) : todas;
  const llamadas = elegidas.map((h) => objeto({ [h.name]: entradaCerrada(h.input_schema) }));
  const alternativas = que === "any" || que === "tool" ? llamadas : [texto, ...llamadas];
  return alternativas.length === 1 ? alternativas[0] : { anyOf: alternativas };
}

function objeto(propiedades) {
  return { type: "object", properties: propiedades, required: Object.keys(propiedades), additionalProperties: false };
}

/** A copy of the tool's input_schema that admits no keys beyond its properties, unless it says otherwise. */
function entradaCerrada(esquema) {
  const copia = structuredClone(esquema);
  if (esObjeto(copia.properties) && copia.additionalProperties === undefined) copia.additionalProperties = false;
  return copia;
}

// ------------------------------------------------------ la gramática de la salida

/**
 * The output schema compiled to a llama.cpp grammar (GBNF) that admits exactly the compact JSON
 * of each alternative: no whitespace anywhere, keys in order. llama.cpp's own conversion of a
 * JSON schema lets the model put spaces and line breaks between every token, and a model this
 * small spends its tokens there (seen: `{\n    "type"\n\n:`): the compact grammar makes each
 * answer shorter, so faster, and reads as the prompt's examples do. It covers what the course's
 * tools use (objects whose keys are all required, `const`, `enum`, strings, numbers, integers,
 * booleans, nested objects); for anything else it returns null, and the schema is used as it is.
 */
export function gramaticaDeSalida(esquema) {
  const reglas = [];
  const raiz = alternativasDe(esquema).map((alternativa) => valorEnGramatica(alternativa));
  if (raiz.some((r) => r === null)) return null;
  reglas.push(`root ::= ${raiz.join(" | ")}`);
  reglas.push(`cadena ::= "\\"" caracter* "\\""`);
  reglas.push(`caracter ::= [^"\\\\\\x7F\\x00-\\x1F] | "\\\\" (["\\\\/bfnrt] | "u" [0-9a-fA-F]{4})`);
  reglas.push(`entero ::= "-"? ("0" | [1-9] [0-9]{0,15})`);
  reglas.push(`numero ::= entero ("." [0-9]+)? ([eE] [-+]? [0-9]+)?`);
  return reglas.join("\n") + "\n";
}

const alternativasDe = (esquema) => (Array.isArray(esquema?.anyOf) ? esquema.anyOf : [esquema]);

/** A GBNF literal for `texto` (its quotes and backslashes escaped). */
const literal = (texto) => `"${texto.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

/** The grammar of one value of `esquema`, or null where it is not covered. */
function valorEnGramatica(esquema) {
  if (!esObjeto(esquema)) return null;
  if ("const" in esquema) return literal(JSON.stringify(esquema.const));
  if (Array.isArray(esquema.enum)) {
    return esquema.enum.length ? `(${esquema.enum.map((v) => literal(JSON.stringify(v))).join(" | ")})` : null;
  }
  if (Array.isArray(esquema.anyOf)) {
    const partes = esquema.anyOf.map(valorEnGramatica);
    return partes.includes(null) ? null : `(${partes.join(" | ")})`;
  }
  switch (esquema.type) {
    case "string":
      return "cadena";
    case "integer":
      return "entero";
    case "number":
      return "numero";
    case "boolean":
      return '("true" | "false")';
    case "object":
      return objetoEnGramatica(esquema);
    default:
      return null;
  }
}

function objetoEnGramatica(esquema) {
  const propiedades = Object.entries(esquema.properties ?? {});
  const requeridas = esquema.required ?? [];
  if (propiedades.some(([nombre]) => !requeridas.includes(nombre))) return null;
  if (esquema.additionalProperties !== false && propiedades.length === 0) return null;
  const partes = [];
  for (const [i, [nombre, sub]] of propiedades.entries()) {
    const valor = valorEnGramatica(sub);
    if (valor === null) return null;
    partes.push(`${literal((i ? "," : "{") + JSON.stringify(nombre) + ":")} ${valor}`);
  }
  return partes.length ? `${partes.join(" ")} "}"` : literal("{}");
}

// --------------------------------------------------- mensajes para el modelo

const TIPOS = {
  string: "texto",
  integer: "número entero",
  number: "número",
  boolean: "true o false",
  array: "lista",
  object: "objeto",
};

const formatoDeTexto = (clave) => `{${JSON.stringify(clave)}:texto}`;

/**
 * The system prompt: the request's `system`, the tools described, and the answer format. It
 * depends on nothing else, so it is the same on every turn of a conversation.
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

function textoDeSystem(system) {
  if (system === undefined) return "";
  if (esTexto(system)) return system;
  return system.map((b) => b.text).join("\n\n");
}

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
 */
export function mensajesParaElModelo(peticion) {
  const mensajes = [{ role: "system", content: sistemaParaElModelo(peticion) }];
  const clave = claveDeTexto(peticion.tools);
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
 * model as soon as it loads (motor.preparar), it stays in llama.cpp's cache, and a first turn
 * with them processes only its own messages.
 */
export function mensajesDelPrefijo({ system, tools }) {
  return [{ role: "system", content: sistemaParaElModelo({ system, tools }) }, { role: "user", content: "" }];
}

const bloques = (contenido) => (esTexto(contenido) ? [{ type: "text", text: contenido }] : contenido);

function textoDelAsistente(contenido, clave) {
  return bloques(contenido)
    .map((b) => JSON.stringify(b.type === "tool_use" ? { [b.name]: b.input } : { [clave]: b.text }))
    .join("\n");
}

function textoDelUsuario(contenido, llamadas) {
  if (esTexto(contenido)) return contenido;
  return contenido
    .map((b) => (b.type === "tool_result" ? textoDelResultado(b, llamadas.get(b.tool_use_id)) : b.text))
    .join("\n\n");
}

function textoDelResultado(b, llamada) {
  const cual = llamada ? `${llamada.name} ${JSON.stringify(llamada.input)}` : `la llamada ${b.tool_use_id}`;
  const que = b.is_error ? "Error de" : "Resultado de";
  const c = b.content;
  const dentro = c === undefined ? "" : esTexto(c) ? c : c.map((x) => x.text).join("\n");
  return `${que} ${cual}:\n${dentro === "" ? "(vacío)" : dentro}`;
}

// --------------------------------------------------------- bloques de salida

/**
 * The model's output as the response's blocks. `texto` is what it generated; `fin` is "stop"
 * (it ended) or "length" (cut at max_tokens); `ids()` gives the next server-assigned call id;
 * `clave` is the key of a text answer (claveDeTexto of the request's tools).
 *
 * - a text answer → one text block (none if empty), "end_turn";
 * - a call → one tool_use block with a new id, "tool_use";
 * - cut → "max_tokens" with what can be salvaged: the text so far of a text answer, never half a
 *   call (an output that is already whole when cut counts as whole);
 * - not JSON of either shape, and not cut → the raw output as a text block, "end_turn".
 */
export function bloquesDeSalida(texto, fin, ids, clave = "respuesta") {
  const entero = interpretar(texto, clave);
  if (entero) {
    if (entero.type === "tool_use") {
      const llamada = { type: "tool_use", id: ids(), name: entero.name, input: entero.input };
      return { content: [llamada], stop_reason: "tool_use" };
    }
    return { content: bloquesDeTexto(entero.text), stop_reason: "end_turn" };
  }
  if (fin === "length") return { content: bloquesDeTexto(textoRescatado(texto, clave)), stop_reason: "max_tokens" };
  return { content: bloquesDeTexto(texto), stop_reason: "end_turn" };
}

const bloquesDeTexto = (t) => (t ? [{ type: "text", text: t }] : []);

/** The output as {type:"text", text} or {type:"tool_use", name, input}, or null if it is
 *  neither: one JSON object with one key, `clave` and a text, or a name and an object. */
function interpretar(texto, clave) {
  let valor;
  try {
    valor = JSON.parse(texto);
  } catch {
    return null;
  }
  if (!esObjeto(valor)) return null;
  const claves = Object.keys(valor);
  if (claves.length !== 1) return null;
  const [nombre] = claves;
  const dentro = valor[nombre];
  if (nombre === clave) return esTexto(dentro) ? { type: "text", text: dentro } : null;
  if (nombre !== "" && esObjeto(dentro)) return { type: "tool_use", name: nombre, input: dentro };
  return null;
}

const comienzoDeTexto = (clave) =>
  new RegExp(`^\\s*\\{\\s*${JSON.stringify(clave).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*:\\s*"`);

/**
 * What a cut output said to the user: the decoded part of a text answer's string (an escape cut
 * in half is dropped); nothing for a cut call or a cut before the text began; the output itself
 * when it was not JSON at all.
 */
function textoRescatado(texto, clave) {
  if (!texto.trimStart().startsWith("{")) return texto;
  const inicio = comienzoDeTexto(clave).exec(texto);
  if (!inicio) return "";
  const resto = texto.slice(inicio[0].length);
  // The longest prefix of the string's body that decodes: stop at its closing quote or before a
  // half escape at the end.
  const cuerpo = /^(?:[^"\\]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*/.exec(resto)[0];
  try {
    return JSON.parse(`"${cuerpo}"`);
  } catch {
    return ""; // control characters the grammar would not have let through
  }
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

const cuenta = (n) => (Number.isInteger(n) && n >= 0 ? n : 0);
