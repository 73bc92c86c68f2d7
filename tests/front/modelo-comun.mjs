// What the tests of the in-page model server share (not a test file itself): the course's four
// tools, a request built from them, the blocks of a conversation, what the model writes, and
// the three turns of one conversation.

// The course's four tools, as runtime/entorno.py defines HERRAMIENTAS.
export const texto = (descripcion) => ({ type: "string", description: descripcion });
export const esquema = (propiedades) => ({
  type: "object", properties: propiedades, required: Object.keys(propiedades), additionalProperties: false,
});
export const HERRAMIENTAS = [
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
/** A tool with every kind of argument the compact grammar covers. */
export const MEDIR = {
  name: "medir",
  description: "",
  input_schema: esquema({
    veces: { type: "integer" }, escala: { type: "number" }, exacto: { type: "boolean" },
    unidad: { enum: ["g", "kg"] }, donde: esquema({ fila: { type: "integer" } }),
  }),
};

export const SISTEMA = "Eres un asistente que ayuda a organizar la compra de casa.";
export const PEDIDO = "Apunta en lista.txt lo que falta para la tortilla.";

export const peticion = (cambios = {}) => ({
  model: "smollm2-135m",
  max_tokens: 64,
  system: SISTEMA,
  messages: [{ role: "user", content: PEDIDO }],
  tools: HERRAMIENTAS,
  ...cambios,
});
export const usar = (id, name, input) => ({ type: "tool_use", id, name, input });
// What the model writes: a call {"<tool>":{…}}, or a text answer {"respuesta":"…"}.
export const llamadaJSON = (name, input) => JSON.stringify({ [name]: input });
export const textoJSON = (text) => JSON.stringify({ respuesta: text });
export const resultado = (id, content, is_error = false) => ({ type: "tool_result", tool_use_id: id, content, is_error });

export const TURNO_1 = peticion();
export const TURNO_2 = peticion({
  messages: [
    { role: "user", content: PEDIDO },
    { role: "assistant", content: [{ type: "text", text: "Miro la lista." }, usar("toolu_07", "leer", { ruta: "lista.txt" })] },
    { role: "user", content: [resultado("toolu_07", "pan, leche, patatas")] },
  ],
});
export const TURNO_3 = peticion({
  messages: [
    ...TURNO_2.messages,
    { role: "assistant", content: [usar("toolu_08", "escribir", { ruta: "lista.txt", contenido: "huevos" })] },
    { role: "user", content: [resultado("toolu_08", "no se ha ejecutado: el usuario no lo ha permitido", true)] },
  ],
});

/** A GBNF grammar without recursion (what gramaticaDeSalida writes) as one anchored RegExp. */
export function comoRegExp(gbnf) {
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
