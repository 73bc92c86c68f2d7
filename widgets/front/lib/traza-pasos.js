// @ts-check
// The steps of a trace: what the trace widget shows, from the trace JSON that
// the engine's widgets/calificador/trazas.py records (its docstring is the format). No DOM here.
//
// A trace records what can be observed of a run: the M the model received at each call, its
// response, each executed tool call with its effect on the environment, and how the loop ended.
// Each turn becomes separate steps:
//   "modelo"         the loop calls the model with M (N messages)
//   "respuesta"      the response arrives and (if the next M shows it) joins M
//   "permiso"        the harness asks the user about one call (only in a trace recorded with a
//                    user, «Pedir permiso»): the question, the answer, and the observation the
//                    call gets in the next M
//   "llamada"        one executed call, with what it changed in the environment
//   "observaciones"  M grows (or changes) to what the next call or the return shows
//   and one last step: "devuelve" | "excepcion" | "cortada".
// A step is { tipo, turno, M: [message index], nuevos: [position in M], recibe: [position] | null,
//   entorno: {ruta: texto} (after the step), cambios: [{ruta, antes, despues}], texto, detalle:
//   [line], respuesta?: message index, evento, firma } where `evento` is the index of the event
//   the step comes from (the questions of predict mode, widgets/directivas/predice.py, name their step by
//   it) and `firma` compares steps of two traces.

import { PASOS } from "./textos.js";

const { mensajes } = PASOS;

/**
 * One step: what every step has, and what its kind adds (`texto`, `respuesta`, …).
 * @typedef {{ tipo: string, turno: number, M: number[], nuevos: number[], recibe: number[] | null,
 *   entorno: Entorno, cambios: Cambio[], detalle: string[], evento: number, firma?: string,
 *   [campo: string]: unknown }} Paso
 * The trace's JSON (widgets/calificador/trazas.py's docstring is the format): the table of its
 * messages, the first M (indices in the table), the environment, the events.
 * @typedef {{ mensajes?: Mensaje[], inicio?: number[], entorno?: Entorno, eventos?: Evento[],
 *   tope?: number }} Traza
 * @typedef {{ rol: string, contenido: unknown, lineas?: string[] }} Mensaje
 * One event of the trace: its fields depend on its `tipo` (the format's).
 * @typedef {Record<string, any>} Evento
 * @typedef {Record<string, string>} Entorno
 * @typedef {{ ruta: string, antes?: string | null, despues?: string | null }} Cambio
 */

/** The steps of `traza`, in order.
 * @param {Traza} traza
 */
export function pasos(traza) {
  const tabla = traza.mensajes ?? [];
  const eventos = traza.eventos ?? [];
  /** @type {Paso[]} */
  const lista = [];
  let M = [...(traza.inicio ?? [])];
  let entorno = { ...(traza.entorno ?? {}) };
  let turno = 0;
  let desde = 0; // the event being read

  // `datos`: what, beyond M and the environment, makes this step the same in another trace.
  /** @type {(tipo: string, campos: object, datos?: unknown) => Paso} */
  const nuevo = (tipo, campos, datos = null) => {
    /** @type {Paso} */
    const paso = { tipo, turno, M, nuevos: [], recibe: null, entorno, cambios: [], detalle: [], evento: desde, ...campos };
    paso.firma = firma(paso, tabla, datos);
    lista.push(paso);
    return paso;
  };
  /** @type {(cambios?: Cambio[]) => void} */
  const aplica = (cambios = []) => {
    if (!cambios.length) return;
    entorno = { ...entorno };
    for (const { ruta, despues } of cambios) {
      if (despues == null) delete entorno[ruta];
      else entorno[ruta] = despues;
    }
  };
  // M as the next observation shows it: the next model call's M or the returned M.
  /** @type {(desde: number) => number[] | null} */
  const siguienteM = (desde) => {
    for (let j = desde; j < eventos.length; j++) {
      if (eventos[j].tipo === "modelo") return eventos[j].M;
      if (eventos[j].tipo === "devuelve") return eventos[j].M;
      if (eventos[j].tipo !== "llamada" && eventos[j].tipo !== "permiso") return null;
    }
    return null;
  };
  // The line of the tool_result for call `id` in the next M (its last message), or null.
  /** @type {(id: string, desde: number) => string | null} */
  const observacionDe = (id, desde) => {
    const siguiente = siguienteM(desde);
    const m = siguiente?.length ? tabla[siguiente[siguiente.length - 1]] : null;
    const bloques = Array.isArray(m?.contenido) ? m.contenido : [];
    const k = bloques.findIndex((/** @type {any} */ b) => b?.type === "tool_result" && b.tool_use_id === id);
    return k >= 0 ? (m?.lineas?.[k] ?? null) : null;
  };
  // Before a new observation of M: a step showing how M changed since the last one shown.
  /** @type {(observado: number[] | null | undefined) => void} */
  const alcanza = (observado) => {
    if (!observado || iguales(observado, M)) return;
    const nuevos = distintas(M, observado);
    const antes = M;
    M = observado;
    nuevo("observaciones", { nuevos, texto: textoDeCambio(antes, observado, nuevos, tabla) });
  };

  eventos.forEach((evento, i) => {
    desde = i;
    if (evento.tipo === "modelo") {
      alcanza(evento.M);
      turno = evento.turno;
      const n = evento.n ?? evento.M.length;
      const herramientas = evento.herramientas;
      nuevo("modelo", {
        recibe: evento.M.map((/** @type {number} */ _, /** @type {number} */ p) => p),
        herramientas,
        texto: PASOS.llamaAlModelo(mensajes(n), Boolean(evento.error)),
        detalle: evento.error ? lineasDeError(evento.error) : [],
      }, [herramientas, evento.error]);
      if (evento.error) return;
      const despues = siguienteM(i + 1);
      const posicion = M.length;
      const entra = despues && despues.length > posicion && iguales(despues.slice(0, posicion), M)
        && despues[posicion] === evento.respuesta;
      let texto = PASOS.responde(describeRespuesta(tabla[evento.respuesta]));
      if (entra) {
        M = [...M, evento.respuesta];
        texto += PASOS.entraEnM(posicion);
      } else if (despues) {
        texto += PASOS.noEntra;
      } else {
        texto += ".";
      }
      // When the response is not in M, the step shows it in its detail instead.
      const detalle = entra ? [] : (tabla[evento.respuesta]?.lineas ?? []);
      nuevo("respuesta", { nuevos: entra ? [posicion] : [], respuesta: evento.respuesta, texto, detalle },
        [tabla[evento.respuesta]?.contenido, entra]);
    } else if (evento.tipo === "permiso") {
      const quien = evento.id ? `${evento.nombre} (${evento.id})` : evento.nombre;
      const observacion = evento.error || evento.id == null ? null : observacionDe(evento.id, i + 1);
      nuevo("permiso", {
        texto: evento.error
          ? PASOS.preguntaFalla(quien, evento.pregunta, evento.error.clase)
          : PASOS.pregunta(quien, evento.pregunta, evento.permitido),
        detalle: [evento.linea,
          evento.error ? PASOS.error(evento.error.clase, evento.error.mensaje) : PASOS.respuesta(evento.permitido),
          ...(observacion ? [PASOS.suObservacion(observacion)] : [])],
      }, [evento.id, evento.nombre, evento.entrada, evento.permitido, evento.error]);
    } else if (evento.tipo === "llamada") {
      aplica(evento.cambios);
      const quien = evento.id ? `${evento.nombre} (${evento.id})` : evento.nombre;
      const efecto = evento.cambios?.length
        ? PASOS.cambia(evento.cambios.map((/** @type {Cambio} */ c) => c.ruta)) : PASOS.noCambia;
      nuevo("llamada", {
        cambios: evento.cambios ?? [],
        texto: evento.error ? PASOS.falla(quien, evento.error.clase, efecto) : PASOS.seEjecuta(quien, efecto),
        detalle: [evento.linea, evento.error
          ? PASOS.error(evento.error.clase, evento.error.mensaje)
          : `→ ${evento.linea_resultado}`],
      }, [evento.id, evento.nombre, evento.entrada, evento.posicionales, evento.resultado, evento.error]);
    } else {
      aplica(evento.cambios);
      if (evento.tipo === "devuelve") alcanza(evento.M);
      const { tipo, cambios, M: _, n, ...datos } = evento;
      nuevo(tipo, { cambios: cambios ?? [], ...final(evento, traza, turno, M) }, datos);
    }
  });
  return lista;
}

/** The last step's words: how the run ended (an exception, cut, or what the loop returned).
 * @param {Evento} evento
 * @param {Traza} traza
 * @param {number} turno
 * @param {number[]} M
 */
function final(evento, traza, turno, M) {
  const tras = PASOS.trasElTurno(turno);
  if (evento.tipo === "excepcion") {
    return { texto: PASOS.excepcion(tras, evento.clase, evento.linea), detalle: lineasDeError(evento) };
  }
  if (evento.tipo === "cortada") return { texto: PASOS.cortada(evento.eventos) };
  if (evento.motivo == null || evento.M == null) return { texto: PASOS.devuelveOtraCosa(tras, evento.valor) };
  const texto = evento.texto == null ? "None" : "texto";
  let porque = "";
  if (evento.motivo === "fin") porque = PASOS.porFin;
  if (evento.motivo === "tope") porque = PASOS.porTope(traza.tope);
  const usuario = evento.texto == null ? PASOS.sinTexto : "";
  return {
    texto: PASOS.devuelve(evento.motivo, texto, tras, porque, mensajes(evento.n ?? M.length), usuario),
    detalle: evento.texto == null ? [] : [PASOS.texto(comoTexto(evento.texto))],
  };
}

/** @param {Evento} error  an event's `error`, or the «excepcion» event: its clase and mensaje */
function lineasDeError(error) {
  return [`${error.clase}: ${comoTexto(error.mensaje)}`];
}

/** @param {unknown} x */
function comoTexto(x) {
  return typeof x === "string" ? x : JSON.stringify(x);
}

/** @param {Mensaje | undefined} mensaje */
function describeRespuesta(mensaje) {
  /** @type {any[] | null} */
  const bloques = Array.isArray(mensaje?.contenido) ? mensaje.contenido : null;
  if (!bloques) return PASOS.noEsLista;
  const textos = bloques.filter((b) => b?.type === "text").length;
  const ids = bloques.filter((b) => b?.type === "tool_use").map((b) => b.id);
  const partes = [];
  if (textos) partes.push(PASOS.textos(textos));
  if (ids.length) partes.push(PASOS.llamadas(ids));
  if (!partes.length) return PASOS.listaVacia;
  return partes.join(" y ") + (ids.length ? "" : PASOS.sinLlamadas);
}

/**
 * @param {number[]} antes
 * @param {number[]} despues
 * @param {number[]} nuevos
 * @param {Mensaje[]} tabla
 */
function textoDeCambio(antes, despues, nuevos, tabla) {
  const prefijo = iguales(despues.slice(0, antes.length), antes);
  const anadidos = despues.slice(antes.length);
  if (prefijo && anadidos.length === 1) {
    const m = tabla[anadidos[0]];
    /** @type {any[]} */
    const bloques = Array.isArray(m?.contenido) ? m.contenido : [];
    const ids = bloques.filter((b) => b?.type === "tool_result").map((b) => b.tool_use_id);
    if (m?.rol === "usuario" && ids.length && ids.length === bloques.length) {
      return PASOS.observaciones(antes.length, ids);
    }
  }
  if (prefijo && anadidos.length) return PASOS.entran(nuevos);
  return PASOS.mCambia(mensajes(despues.length), nuevos.length ? nuevos[0] : null);
}

/** @type {(a: unknown[], b: unknown[]) => boolean} */
const iguales = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Positions of `despues` that are new or differ from `antes`.
 * @param {unknown[]} antes
 * @param {unknown[]} despues
 */
export function distintas(antes, despues) {
  return despues.map((x, p) => (antes[p] === x ? -1 : p)).filter((p) => p >= 0);
}

/** The index, in `nuevos`, of the step that matches step `i` of `viejos`: the same turn and
 *  the same place in it (or its last step); the last step if that turn does not exist.
 * @param {Paso[]} viejos
 * @param {number} i
 * @param {Paso[]} nuevos
 */
export function pasoEquivalente(viejos, i, nuevos) {
  if (!nuevos.length) return 0;
  const turno = viejos[i]?.turno;
  const primero = viejos.findIndex((p) => p.turno === turno);
  const desplazamiento = i - primero;
  const delTurno = nuevos.map((p, j) => (p.turno === turno ? j : -1)).filter((j) => j >= 0);
  if (!delTurno.length) return nuevos.length - 1;
  return delTurno[Math.min(desplazamiento, delTurno.length - 1)];
}

/** The first step where two traces differ, or null when they show the same run:
 *  { indice, esperado: step | null, obtenido: step | null } (null past the end of one).
 * @param {Traza} esperada
 * @param {Traza} obtenida
 */
export function divergencia(esperada, obtenida) {
  const a = pasos(esperada);
  const b = pasos(obtenida);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i]?.firma !== b[i]?.firma) return { indice: i, esperado: a[i] ?? null, obtenido: b[i] ?? null };
  }
  return null;
}

/** How a file's text changed, as pieces { tipo: "igual" | "quita" | "pone", texto }: the common
 *  start and end are kept whole words, and the middle is what was removed and what was put.
 * @param {string | null | undefined} antes
 * @param {string | null | undefined} despues
 */
export function diferenciaTexto(antes, despues) {
  if (antes == null) return despues ? [{ tipo: "pone", texto: despues }] : [];
  if (despues == null) return antes ? [{ tipo: "quita", texto: antes }] : [];
  /** @type {(c: string | undefined) => boolean} */
  const palabra = (c) => c !== undefined && /[\p{L}\p{N}_]/u.test(c);
  const corta = Math.min(antes.length, despues.length);
  let p = 0;
  while (p < corta && antes[p] === despues[p]) p++;
  while (p > 0 && palabra(antes[p - 1]) && (palabra(antes[p]) || palabra(despues[p]))) p--;
  let s = 0;
  while (s < corta - p && antes[antes.length - 1 - s] === despues[despues.length - 1 - s]) s++;
  /** @type {(t: string) => number} */
  const fin = (t) => t.length - s;
  // The common end starts at fin(): it must not start in the middle of a word either.
  const partida = () => palabra(antes[fin(antes)])
    && (palabra(antes[fin(antes) - 1]) || palabra(despues[fin(despues) - 1]));
  while (s > 0 && partida()) s--;
  const piezas = [
    { tipo: "igual", texto: antes.slice(0, p) },
    { tipo: "quita", texto: antes.slice(p, fin(antes)) },
    { tipo: "pone", texto: despues.slice(p, fin(despues)) },
    { tipo: "igual", texto: antes.slice(fin(antes)) },
  ];
  return piezas.filter((x) => x.texto);
}

/** Files of this many lines or more read best as lines (code): a change shows as the lines
 *  removed and added among a few unchanged ones (diferenciaLineas), and a file the step does not
 *  change folds under its name. A shorter one (a shopping list) shows whole, its words marked. */
export const LINEAS_DE_UN_FICHERO_LARGO = 4;
/** Unchanged lines shown on each side of a change. */
export const CONTEXTO = 2;

/** How a long file's text changed, as pieces { tipo: "igual" | "quita" | "pone", lineas } and
 *  { tipo: "oculta", n } for a run of unchanged lines left out: the common first and last lines
 *  (CONTEXTO of them next to the change), and between them the lines removed and those added.
 * @param {string | null | undefined} antes
 * @param {string | null | undefined} despues
 */
export function diferenciaLineas(antes, despues) {
  const [a, d] = [lineasDe(antes), lineasDe(despues)];
  let p = 0;
  while (p < a.length && p < d.length && a[p] === d[p]) p++;
  let s = 0;
  while (s < a.length - p && s < d.length - p && a[a.length - 1 - s] === d[d.length - 1 - s]) s++;
  /** @type {({ tipo: "igual" | "quita" | "pone", lineas: string[] } | { tipo: "oculta", n: number })[]} */
  const piezas = [];
  const inicio = a.slice(0, p);
  if (inicio.length > CONTEXTO) piezas.push({ tipo: "oculta", n: inicio.length - CONTEXTO });
  piezas.push({ tipo: "igual", lineas: inicio.slice(-CONTEXTO) });
  piezas.push({ tipo: "quita", lineas: a.slice(p, a.length - s) });
  piezas.push({ tipo: "pone", lineas: d.slice(p, d.length - s) });
  const final = a.slice(a.length - s);
  piezas.push({ tipo: "igual", lineas: final.slice(0, CONTEXTO) });
  if (final.length > CONTEXTO) piezas.push({ tipo: "oculta", n: final.length - CONTEXTO });
  return piezas.filter((x) => x.tipo === "oculta" || x.lineas.length);
}

/** A file's lines (a last newline ends the last line; it does not start another).
 * @type {(texto: string | null | undefined) => string[]} */
export const lineasDe = (texto) => (texto ? texto.replace(/\n$/, "").split("\n") : []);

/** Whether a file's text (before or after a change) is long enough to read as lines.
 * @type {(...textos: (string | null | undefined)[]) => boolean} */
export const esLargo = (...textos) => textos.some((t) => lineasDe(t).length >= LINEAS_DE_UN_FICHERO_LARGO);

// What makes two steps of different traces the same: kind, turn, the messages themselves (not
// their indices, which belong to each trace's table), the environment, and the event's data.
/**
 * @param {Paso} paso
 * @param {Mensaje[]} tabla
 * @param {unknown} datos
 */
function firma(paso, tabla, datos) {
  /** @type {(i: number) => unknown[]} */
  const contenido = (i) => [tabla[i]?.rol ?? null, tabla[i]?.contenido ?? null];
  return canonico([paso.tipo, paso.turno, paso.M.map(contenido), paso.entorno, datos]);
}

/**
 * JSON with object keys sorted, so that equal data gives equal text.
 * @param {any} x
 * @returns {string}
 */
export function canonico(x) {
  if (Array.isArray(x)) return `[${x.map(canonico).join(",")}]`;
  if (x && typeof x === "object") {
    return `{${Object.keys(x).sort().map((k) => `${JSON.stringify(k)}:${canonico(x[k])}`).join(",")}}`;
  }
  return JSON.stringify(x ?? null);
}
