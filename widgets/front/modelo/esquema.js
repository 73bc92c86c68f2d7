// @ts-check
// What the in-page model may write, and how the server holds it to that: the JSON Schema of its
// output (a text answer or one call of one tool) and the same schema compiled to a compact GBNF
// grammar. Pure functions, no DOM, no model (protocolo.js asks for them). The page's engine holds
// each token to the schema itself (gramatica.js, by the same walk of the schema: traducirValor);
// the grammar text is what the bench gives native llama.cpp (bench/), to compare the two engines
// under one rule, and it is kept with each generation in motor.js's historial.
//
//   claveDeTexto(tools)                    → the key of a text answer: «respuesta» (unless a tool
//                                            has that name)
//   esquemaDeSalida(tools, tool_choice?)   → JSON Schema the model's output is held to
//                                            (gramatica.js checks it token by token): a text answer
//                                            {"respuesta": …}, or one call {"<tool>": <arguments>}
//                                            of one tool with that tool's input_schema
//   gramaticaDeSalida(esquema)             → that schema as a compact GBNF grammar (llama.cpp's
//                                            format, for the bench), or null
import { esObjeto } from "./valores.js";

// --------------------------------------------------------- esquema de salida

/**
 * The key of a text answer in the model's output: «respuesta», or, when a tool has that name,
 * the same with as many «_» before it as it takes to be no tool's name.
 * @param {{ name: string }[] | null} [tools]
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
 * Kept to what gramatica.js (and llama.cpp's json-schema-to-grammar, in the bench) cover: `anyOf`
 * of objects, every key required and `additionalProperties: false` so nothing else is generated;
 * no `$ref`, no `oneOf`.
 * @param {{ name: string, input_schema?: object }[] | null} [tools]
 * @param {{ type?: string, name?: string } | null} [eleccion]
 */
export function esquemaDeSalida(tools = [], eleccion = { type: "auto" }) {
  const texto = objeto({ [claveDeTexto(tools)]: { type: "string" } });
  const que = eleccion?.type ?? "auto";
  const todas = tools ?? [];
  const elegidas = que === "none" ? [] : que === "tool" ? todas.filter((h) => h.name === eleccion?.name) : todas;
  const llamadas = elegidas.map((h) => objeto({ [h.name]: entradaCerrada(h.input_schema) }));
  const alternativas = que === "any" || que === "tool" ? llamadas : [texto, ...llamadas];
  return alternativas.length === 1 ? alternativas[0] : { anyOf: alternativas };
}

/** @param {Record<string, object>} propiedades */
function objeto(propiedades) {
  return { type: "object", properties: propiedades, required: Object.keys(propiedades), additionalProperties: false };
}

/**
 * A copy of the tool's input_schema that admits no keys beyond its properties, unless it says otherwise.
 * @param {any} esquema the tool's JSON Schema, as the request gave it
 */
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
 * @param {any} esquema esquemaDeSalida's
 * @returns {string | null}
 */
export function gramaticaDeSalida(esquema) {
  /** @type {string[]} */
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

/** @type {(esquema: any) => unknown[]} */
const alternativasDe = (esquema) => (Array.isArray(esquema?.anyOf) ? esquema.anyOf : [esquema]);

/** A GBNF literal for `texto` (its quotes and backslashes escaped). */
/** @type {(texto: string) => string} */
const literal = (texto) => `"${texto.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

/** @type {Hacer<string>} */
const EN_GRAMATICA = {
  literal,
  alguna: (partes) => `(${partes.join(" | ")})`,
  secuencia: (partes) => partes.join(" "),
  cadena: "cadena",
  entero: "entero",
  numero: "numero",
};

/** The grammar of one value of `esquema`, or null where it is not covered. */
/** @type {(esquema: unknown) => string | null} */
const valorEnGramatica = (esquema) => traducirValor(esquema, EN_GRAMATICA);

/**
 * How a grammar of kind T is built (the GBNF text here, gramatica.js's parser there).
 * @template T
 * @typedef {{ literal: (texto: string) => T, alguna: (partes: T[]) => T, secuencia: (partes: T[]) => T,
 *   cadena: T, entero: T, numero: T }} Hacer
 */

/**
 * One value of `esquema` (what the compact grammar covers: `const`, `enum`, `anyOf`, strings,
 * integers, numbers, booleans, objects whose keys are all required, in order, with no spaces)
 * built with `hacer`: {literal(texto), alguna(partes), secuencia(partes), cadena, entero,
 * numero}; null where it is not covered. The grammar here and the engine's check
 * (gramatica.js) are both made by it, so they admit the same answers.
 * @template T
 * @param {unknown} esquema
 * @param {Hacer<T>} hacer
 * @returns {T | null}
 */
export function traducirValor(esquema, hacer) {
  if (!esObjeto(esquema)) return null;
  /** @type {(valor: unknown) => T} */
  const lit = (valor) => hacer.literal(JSON.stringify(valor));
  if ("const" in esquema) return lit(esquema.const);
  if (Array.isArray(esquema.enum)) return esquema.enum.length ? hacer.alguna(esquema.enum.map(lit)) : null;
  if (Array.isArray(esquema.anyOf)) {
    const partes = esquema.anyOf.map((sub) => traducirValor(sub, hacer));
    return partes.includes(null) ? null : hacer.alguna(/** @type {T[]} */ (partes));
  }
  switch (esquema.type) {
    case "string":
      return hacer.cadena;
    case "integer":
      return hacer.entero;
    case "number":
      return hacer.numero;
    case "boolean":
      return hacer.alguna([lit(true), lit(false)]);
    case "object":
      return traducirObjeto(esquema, hacer);
    default:
      return null;
  }
}

/**
 * @template T
 * @param {Record<string, any>} esquema
 * @param {Hacer<T>} hacer
 * @returns {T | null}
 */
function traducirObjeto(esquema, hacer) {
  const propiedades = Object.entries(esquema.properties ?? {});
  const requeridas = esquema.required ?? [];
  if (propiedades.some(([nombre]) => !requeridas.includes(nombre))) return null;
  if (esquema.additionalProperties !== false && propiedades.length === 0) return null;
  if (!propiedades.length) return hacer.literal("{}");
  const partes = [];
  for (const [i, [nombre, sub]] of propiedades.entries()) {
    const valor = traducirValor(sub, hacer);
    if (valor === null) return null;
    partes.push(hacer.literal((i ? "," : "{") + JSON.stringify(nombre) + ":"), valor);
  }
  return hacer.secuencia([...partes, hacer.literal("}")]);
}
