// @ts-check
// A run of the bench as a trace the course's trace view steps through (traza.js; the format is
// widgets/calificador/trazas.py's), made from what the run kept: its conversation M, how it
// ended and its final text. No DOM.
//
// The bench records no tool call as it happens (a measurement of hundreds of runs keeps M
// only), so the trace shows the conversation: each call to the model with the M it received, its
// answer, the observations that followed, and the end. What the tools did to the files is not
// in it: its environment is empty (the widget hides that panel).
//
//   trazaDeEjecucion(ejecucion, medida, tope) → { formato: 1, tope, mensajes, inicio, eventos, … }

/** A run's error as the trace tells it: «agente lanzó ValueError: texto» (the widget's) or
 *  «ValueError: texto» → { clase: "ValueError", mensaje: "texto" }; anything else (a time limit)
 *  → { clase: "Error", mensaje: the whole text }.
 * @param {unknown} texto
 */
export function partirError(texto) {
  const t = String(texto ?? "");
  const m = t.match(/(?:^| lanzó )([\p{L}_][\p{L}\p{N}_.]*)(?:: ([\s\S]*))?$/u);
  if (m && (m[2] !== undefined || / lanzó /.test(t))) return { clase: m[1], mensaje: m[2] ?? "" };
  return { clase: "Error", mensaje: t };
}

/**
 * The trace of run `e` of `medida` (a lib/banco-medida.js Medida); `tope`, the bench's cap.
 * @param {Record<string, any>} e
 * @param {import("./banco-medida.js").Medida} medida
 * @param {number | null} [tope]
 */
export function trazaDeEjecucion(e, medida, tope = null) {
  /** @type {{ rol: string | null, contenido: unknown, lineas: string[] }[]} */
  const tabla = [];
  /** @type {Map<number | null, number>} */
  const locales = new Map();
  /** @type {(g: number | null) => number} */
  const local = (g) => {
    let i = locales.get(g);
    if (i === undefined) {
      // (g null: a message left out, none of the table's: as medida.mensajes[null] always read)
      const [rol, contenido] = (g === null ? undefined : medida.mensajes[g]) ?? [null, null];
      const lineas = g === null ? undefined : medida.lineas[g];
      i = tabla.length;
      locales.set(g, i);
      tabla.push({ rol, contenido, lineas: lineas ?? [JSON.stringify(contenido)] });
    }
    return i;
  };
  /** @type {number[]} */
  const M = (e.M ?? []).map(local);
  /** @type {(i: number) => boolean} */
  const esRespuesta = (i) => tabla[i].rol === "asistente";
  const primera = M.findIndex(esRespuesta);
  const eventos = [];
  let turno = 0;
  M.forEach((i, p) => {
    if (!esRespuesta(i)) return;
    turno += 1;
    eventos.push({ tipo: "modelo", turno, M: M.slice(0, p), n: p, herramientas: null, respuesta: i });
  });
  if (e.motivo === "error") {
    const { clase, mensaje } = partirError(e.error);
    // The model raised: its last call got M as it stands, and gave no answer.
    if (/^el modelo lanzó /.test(e.error ?? "") && !(M.length && esRespuesta(M[M.length - 1]))) {
      turno += 1;
      eventos.push({ tipo: "modelo", turno, M: [...M], n: M.length, herramientas: null, error: { clase, mensaje } });
    }
    eventos.push({ tipo: "excepcion", clase, mensaje, linea: null, cambios: [] });
  } else {
    eventos.push({ tipo: "devuelve", motivo: e.motivo === "tope" ? "tope" : "fin", texto: e.final ?? null,
      M: [...M], n: M.length, cambios: [] });
  }
  return {
    formato: 1, tope: tope ?? turno, entorno: {}, mensajes: tabla,
    inicio: M.slice(0, primera < 0 ? M.length : primera), eventos, entorno_final: {},
  };
}
