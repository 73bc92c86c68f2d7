// The cells of a page as a notebook: one namespace, filled in page order. Pure logic (no DOM):
// which earlier cells must run before a given one, and what the reader is told about a run.
//
//   const c = new Cuaderno();
//   c.anteriores(3, [1, 2, 3, 4]);   // [1, 2]: not yet run in this Python
//   c.marcar(1); c.olvidar();        // olvidar: Python restarted, the namespace is gone

export class Cuaderno {
  constructor() {
    this.ejecutadas = new Set();
  }

  /** The cells before `orden`, among `todas`, that have not run in the current Python. */
  anteriores(orden, todas) {
    return [...todas].filter((o) => o < orden && !this.ejecutadas.has(o)).sort((a, b) => a - b);
  }

  marcar(orden) {
    this.ejecutadas.add(orden);
  }

  olvidar() {
    this.ejecutadas.clear();
  }
}

/** «1», «1 y 2», «1, 2 y 3». */
export function enumerar(elementos) {
  const lista = elementos.map(String);
  if (lista.length <= 1) return lista.join("");
  return `${lista.slice(0, -1).join(", ")} y ${lista[lista.length - 1]}`;
}

/** What the reader is told when a cell first runs the earlier ones it depends on. */
export function avisoDeAnteriores(ordenes) {
  if (!ordenes.length) return "";
  return ordenes.length === 1
    ? `Antes se ejecuta la celda ${ordenes[0]}, de la que depende esta.`
    : `Antes se ejecutan las celdas ${enumerar(ordenes)}, de las que depende esta.`;
}

/**
 * The line shown after a run, from the worker's result ({estado, codigo?, reiniciado?}); ""
 * when the output says it all (a normal end, or an error whose traceback is shown).
 */
export function textoDelFinal(resultado, { huboSalida = true } = {}) {
  switch (resultado?.estado) {
    case "ok":
      return huboSalida ? "" : "Ejecutada, sin salida.";
    case "error":
      return "";
    case "salida": {
      const codigo = resultado.codigo ? ` (código de salida ${resultado.codigo})` : "";
      return `La celda terminó al llamar a exit() o sys.exit()${codigo}. Python sigue en marcha.`;
    }
    case "detenido":
      return resultado.reiniciado
        ? "Ejecución detenida. Python se ha reiniciado y ha perdido lo definido: " +
            "las celdas anteriores se volverán a ejecutar cuando ejecutes otra."
        : "Ejecución detenida.";
    case "cancelado":
      return "No se ha ejecutado: se detuvo antes una celda de la que depende.";
    default:
      return "";
  }
}

/**
 * The line shown when a run could not happen or broke Python ({error, reiniciado?}). The
 * browser's words for a stack overflow become the reader's.
 */
export function textoDelFallo({ error, reiniciado = false }) {
  let motivo = String(error ?? "error desconocido").replace(/\.$/, "");
  if (/call stack/i.test(motivo)) {
    motivo = "se desbordó la pila (¿una estructura demasiado anidada o una recursión muy profunda?)";
  }
  const texto = `No se pudo ejecutar: ${motivo}.`;
  return reiniciado
    ? `${texto} Python se ha reiniciado y ha perdido lo definido: las celdas anteriores se ` +
        "volverán a ejecutar cuando ejecutes otra."
    : texto;
}

/** «12 MB» for a download notice (decimal megabytes, as download sizes are usually given). */
export function megas(bytes) {
  const mb = bytes / 1e6;
  return `${mb < 10 ? mb.toLocaleString("es-ES", { maximumFractionDigits: 1 }) : Math.round(mb)} MB`;
}

const OPEN_URL = /\bopen_url\(\s*(["'])([^"'\\\n]+)\1\s*\)/g;

/**
 * The files the cells will read with open_url("…") (literal URLs, in order, once each): the
 * page has the worker fetch them ahead (python.precargar). Not URLs of another origin.
 */
export function leidasPorLasCeldas(codigos) {
  const urls = new Set();
  for (const codigo of codigos) {
    for (const [, , url] of String(codigo ?? "").matchAll(OPEN_URL)) {
      if (!/^[a-z][a-z0-9+.-]*:|^\/\//i.test(url)) urls.add(url);
    }
  }
  return [...urls];
}
