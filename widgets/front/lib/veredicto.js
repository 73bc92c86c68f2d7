// @ts-check
// What a challenge's check means to the reader. No DOM: the engine's result (its one shape is
// documented in widgets/calificador/resultado.py) becomes what the page shows (`vista`, which
// desafio.js puts in the page as text); the reader's saved state is validated and updated; the
// page's own watchdog has its patience and, when it stops the worker, its result.
//
//   vista(resultado)                    → { resumen, error, pruebas: [row] }: what the page shows
//   resumen(8, 12)                      → "8 de 12 pruebas superadas"
//   estadoDe(prueba)                    → { clase, icono, texto }   (icon + text, never colour alone)
//   lugarDe(prueba)                     → "Turno 3" | "Línea 12" | ""
//   registrar(estado, resultado)        → the saved state after a check
//   combinar(propio, ajeno)             → what this tab and another one know together
//   detenida(datos, recibidas, actual)  → a result when the page had to stop the grader
//   rota(datos, recibidas, actual, …)   → a result when the page's Python broke (or the code
//                                         called os._exit) while grading
//
// Saved state, under the widget's storage key (lib/almacen.js):
//   { codigo: string | null,              the reader's code (null: the starter's)
//     mejor: { superadas, total } | null, the best check
//     fallos: n,                          checks that did not pass every test
//     superado: bool }                    some check passed them all

import { DESAFIO } from "./textos.js";

/**
 * One test's result, the engine's shape (widgets/calificador/resultado.py).
 * @typedef {{ nombre: string, ok: boolean, tipo?: string | null, mensaje?: string | null,
 *   linea?: number | null, turno?: number | null, salida?: string | null,
 *   traza?: { tuya?: unknown } | null }} Prueba
 * A check's result: the engine's, or one the page built (`detenida`, `rota`).
 * @typedef {{ desafio?: string, superadas: number, total: number, segundos?: number | null,
 *   error: { tipo?: string, mensaje?: string | null, linea?: number | null } | null,
 *   pruebas: Prueba[] }} Resultado
 * @typedef {{ superadas: number, total: number }} Mejor
 * The reader's saved state (see the top).
 * @typedef {{ codigo: string | null, mejor: Mejor | null, fallos: number, superado: boolean }} Estado
 * The widget's data this file reads: the challenge, its tests' names, the engine's texts.
 * @typedef {{ desafio: string, pruebas: string[], mensajes: Record<string, string> }} Datos
 * How a check the page cut short ends: the test running, the code still loading, the rest.
 * @typedef {{ tipo: string, mensaje: string, carga: string, resto: string, sinCargar: string }} Corte
 * @typedef {{ clase: string, icono: string, texto: string }} Aspecto
 */

/** «8 de 12 pruebas superadas» («1 de 1 prueba superada»). */
export const resumen = DESAFIO.resumen;

const NO_SUPERADA = { clase: "falla", icono: "✘", texto: DESAFIO.estados.falla };
/** @type {Record<string, Aspecto>} */
const ESTADOS = {
  ok: { clase: "ok", icono: "✔", texto: DESAFIO.estados.ok },
  tiempo: { clase: "falla", icono: "✘", texto: DESAFIO.estados.termino },
  detenida: { clase: "falla", icono: "✘", texto: DESAFIO.estados.termino },
  "no-probada": { clase: "pendiente", icono: "–", texto: DESAFIO.estados.noProbada },
  interno: { clase: "interno", icono: "!", texto: DESAFIO.estados.interno },
};

/** How a test's outcome shows: a class, an icon (decorative) and its words.
 * @param {Partial<Prueba> | null | undefined} prueba */
export function estadoDe(prueba) {
  return ESTADOS[prueba?.tipo ?? ""] ?? NO_SUPERADA;
}

/** Where the grader saw the failure, in the reader's terms: the model's turn, their line.
 * @param {Partial<Prueba> | null | undefined} prueba */
export function lugarDe(prueba) {
  const partes = [];
  const { turno, linea } = prueba ?? {};
  if (typeof turno === "number" && Number.isInteger(turno)) partes.push(DESAFIO.turno(turno));
  if (typeof linea === "number" && Number.isInteger(linea)) partes.push(DESAFIO.linea(linea));
  return partes.join(" · ");
}

/**
 * What the page shows of a result, as data (desafio.js makes it elements, as text): the
 * summary, why the code did not load (with its line), and for each test its name, its words and
 * icon, where it failed («Turno 3 · Línea 12»), the grader's message (or, for a test not tried,
 * why not), what the reader's code printed, their trace and the line to go to.
 * @param {Resultado} resultado
 */
export function vista(resultado) {
  const { error } = resultado;
  /** @type {(x: unknown) => number | null} */
  const linea = (x) => (typeof x === "number" && Number.isInteger(x) ? x : null);
  return {
    resumen: `${resumen(resultado.superadas, resultado.total)}.${error ? DESAFIO.noCargoEn(error.linea) : ""}`,
    error: error ? { mensaje: error.mensaje ?? "", linea: linea(error.linea) } : null,
    pruebas: resultado.pruebas.map((prueba) => {
      const { clase, icono, texto } = estadoDe(prueba);
      const fila = { nombre: prueba.nombre, clase, icono, estado: texto };
      if (prueba.ok) return fila;
      if (prueba.tipo === "no-probada") return { ...fila, lugar: lugarDe(prueba), motivo: prueba.mensaje ?? "" };
      return {
        ...fila,
        lugar: lugarDe(prueba),
        mensaje: prueba.mensaje || null,
        salida: prueba.salida || null,
        traza: prueba.traza?.tuya ? prueba.traza : null,
        linea: linea(prueba.linea),
      };
    }),
  };
}

/** The page's watchdog: how long one step of the grading may take without a word from the
 *  worker (ms). A failed test runs the reader's code twice (the test, then «Ver tu traza»), each
 *  under the grader's limit; the margin covers the rest.
 * @param {number | null | undefined} limite
 */
export function paciencia(limite, margen = 3) {
  const segundos = typeof limite === "number" && Number.isFinite(limite) && limite > 0 ? limite : 2;
  return (2 * segundos + margen) * 1000;
}

/**
 * The result of a check the page stopped because the worker went silent (`datos`: the widget's
 * data, whose `mensajes` are the engine's texts for it): the tests that finished keep their
 * result (`recibidas`: nombre → result, from the grader's progress), the one running (`actual`;
 * null if the code was still loading) did not finish, the rest were not tried. The engine's
 * result shape (widgets/calificador/resultado.py).
 * @param {Datos} datos
 * @param {Record<string, Prueba>} recibidas
 * @param {string | null} actual
 * @returns {Resultado}
 */
export function detenida(datos, recibidas, actual) {
  const { mensajes } = datos;
  return cortada(datos, recibidas, actual, {
    tipo: "detenida",
    mensaje: mensajes.tiempo,
    carga: mensajes.tiempo_al_cargar,
    resto: mensajes.no_probada.replaceAll("{prueba}", String(actual)),
    sinCargar: mensajes.no_probada_al_cargar,
  });
}

/**
 * The result of a check during which the page's Python broke (`motivo`: the browser's words,
 * like «Maximum call stack size exceeded»): the test running is blamed, as a very deep
 * recursion is what does it; Python was restarted.
 * @param {Datos} datos
 * @param {Record<string, Prueba>} recibidas
 * @param {string | null} actual
 * @param {string | null | undefined} motivo
 * @returns {Resultado}
 */
export function rota(datos, recibidas, actual, motivo) {
  const salida = SALIDA_DE_PYODIDE.exec(motivo ?? "");
  if (salida && datos.mensajes?.exit) return terminada(datos, recibidas, actual, salida[1]);
  const que = /call stack|too much recursion/i.test(motivo ?? "") ? DESAFIO.rota.pila : DESAFIO.rota.pyodide(motivo);
  return cortada(datos, recibidas, actual, {
    tipo: "error",
    mensaje: DESAFIO.rota.mensaje(que),
    carga: DESAFIO.rota.carga(que),
    resto: DESAFIO.rota.resto(actual),
    sinCargar: DESAFIO.rota.sinCargar,
  });
}

/** How Pyodide says that the code ended the process (os._exit(n)): «Program terminated with exit(0)». */
const SALIDA_DE_PYODIDE = /Program terminated with exit\((-?\d+)\)/;

/** The reader's code called os._exit(`codigo`): the engine's words, the same the command gives.
 * @param {Datos} datos
 * @param {Record<string, Prueba>} recibidas
 * @param {string | null} actual
 * @param {string} codigo
 */
function terminada(datos, recibidas, actual, codigo) {
  const { exit, exit_al_cargar: alCargar, no_probada_tras_exit: tras, no_probada_al_cargar: sinCargar } = datos.mensajes;
  /** @type {(texto: string) => string} */
  const con = (texto) => texto.replaceAll("{codigo}", codigo).replaceAll("{prueba}", String(actual));
  return cortada(datos, recibidas, actual, {
    tipo: "exit", mensaje: con(exit), carga: con(alCargar), resto: con(tras), sinCargar,
  });
}

/**
 * @param {Datos} datos
 * @param {Record<string, Prueba>} recibidas
 * @param {string | null} actual
 * @param {Corte} corte
 * @returns {Resultado}
 */
function cortada({ desafio, pruebas: nombres }, recibidas, actual, { tipo, mensaje, carga, resto, sinCargar }) {
  const cargando = actual == null || !nombres.includes(actual);
  const pruebas = nombres.map((nombre) => {
    if (recibidas[nombre]) return recibidas[nombre];
    if (nombre === actual) return prueba(nombre, tipo, mensaje);
    return prueba(nombre, "no-probada", cargando ? sinCargar : resto);
  });
  return {
    desafio,
    superadas: pruebas.filter((p) => p.ok).length,
    total: pruebas.length,
    segundos: null,
    error: cargando ? { tipo, mensaje: carga, linea: null } : null,
    pruebas,
  };
}

/**
 * @param {string} nombre
 * @param {string} tipo
 * @param {string} mensaje
 * @returns {Prueba}
 */
function prueba(nombre, tipo, mensaje) {
  return { nombre, ok: false, tipo, mensaje, linea: null, turno: null, salida: "", traza: null };
}

/** The saved state, whatever storage held (null, an old or corrupt value).
 * @param {any} valor
 * @returns {Estado}
 */
export function estadoGuardado(valor) {
  const v = valor && typeof valor === "object" && !Array.isArray(valor) ? valor : {};
  const mejor = v.mejor && Number.isInteger(v.mejor.superadas) && Number.isInteger(v.mejor.total)
    && v.mejor.total > 0 && v.mejor.superadas >= 0 && v.mejor.superadas <= v.mejor.total
    ? { superadas: v.mejor.superadas, total: v.mejor.total }
    : null;
  return {
    codigo: typeof v.codigo === "string" ? v.codigo : null,
    mejor,
    fallos: Number.isInteger(v.fallos) && v.fallos > 0 ? v.fallos : 0,
    superado: v.superado === true || Boolean(mejor && mejor.superadas === mejor.total),
  };
}

/** The state after a check that ended with `resultado` (the grader's, or `detenida`'s).
 * @param {Estado} estado
 * @param {Mejor} resultado
 * @returns {Estado}
 */
export function registrar(estado, { superadas, total }) {
  const todas = total > 0 && superadas === total;
  const antes = estado.mejor;
  const mejor = !antes || antes.total !== total || superadas > antes.superadas
    ? { superadas, total }
    : antes;
  return {
    ...estado,
    mejor,
    fallos: estado.fallos + (todas ? 0 : 1),
    superado: estado.superado || todas,
  };
}

/**
 * What two saved states (this tab's and another tab's, or storage's) know together: the better
 * best result, the larger count of failed checks, passed if either passed. The code is `propio`'s.
 * @param {Estado} propio
 * @param {Estado} ajeno
 * @returns {Estado}
 */
export function combinar(propio, ajeno) {
  const a = propio.mejor;
  const b = ajeno.mejor;
  let mejor = a ?? b;
  if (a && b) mejor = a.total !== b.total ? a : b.superadas > a.superadas ? b : a;
  return {
    codigo: propio.codigo,
    mejor,
    fallos: Math.max(propio.fallos, ajeno.fallos),
    superado: propio.superado || ajeno.superado,
  };
}

/** The hint shows after `tras` failed checks (and only if there is one).
 * @param {Estado} estado
 * @param {string | null | undefined} pista
 * @param {number} tras
 */
export function verPista(estado, pista, tras) {
  return Boolean(pista) && estado.fallos >= tras;
}

/** The reference solution can be revealed after `tras` failed checks, or once passed.
 * @param {Estado} estado
 * @param {number} tras
 */
export function verSolucion(estado, tras) {
  return estado.superado || estado.fallos >= tras;
}

/** «Tu mejor resultado: 8 de 12 pruebas superadas.»
 * @param {Mejor | null} mejor
 */
export function textoMejor(mejor) {
  return mejor ? DESAFIO.mejor(resumen(mejor.superadas, mejor.total)) : "";
}

/**
 * What the reader is told about where their run leaves the expected one, from
 * traza-pasos.js's `divergencia` ({ indice, esperado, obtenido } or null).
 * @param {{ indice: number, esperado?: { texto: string } | null, obtenido?: { texto: string } | null } | null} div
 */
export function textoDivergencia(div) {
  if (!div) return DESAFIO.iguales;
  const paso = DESAFIO.paso(div.indice + 1);
  const coinciden = div.indice === 0 ? DESAFIO.difierenDesdeElPrimero : DESAFIO.coincidenHasta(div.indice);
  const { obtenido, esperado } = div;
  if (obtenido && esperado && obtenido.texto === esperado.texto) {
    return DESAFIO.mismoTexto(coinciden, paso, sinPunto(obtenido.texto));
  }
  const tuya = obtenido ? DESAFIO.enLaTuya(minuscula(obtenido.texto)) : DESAFIO.tuyaTerminada;
  const esperada = esperado ? DESAFIO.enLaEsperada(minuscula(esperado.texto)) : DESAFIO.esperadaTerminada;
  return DESAFIO.divergen(coinciden, paso, tuya, esperada);
}

/** @param {unknown} texto */
function sinPunto(texto) {
  return String(texto ?? "").trim().replace(/\.$/, "");
}

/** @param {unknown} texto */
function minuscula(texto) {
  const t = sinPunto(texto);
  return t ? t[0].toLowerCase() + t.slice(1) : t;
}
