// What a challenge's check means to the reader. No DOM: the grader's result (the dict of
// challenges/calificador.py's `calificar`) becomes the texts the page shows; the reader's saved
// state is validated and updated; the page's own watchdog has its limits and its verdict.
//
//   resumen(8, 12)                      → "8 de 12 pruebas superadas"
//   estadoDe(prueba)                    → { clase, icono, texto }   (icon + text, never colour alone)
//   lugarDe(prueba)                     → "Turno 3" | "Línea 12" | ""
//   registrar(estado, resultado)        → the saved state after a check
//   combinar(propio, ajeno)             → what this tab and another one know together
//   detenida(pruebas, recibidas, …)     → a result when the page had to stop the grader
//   rota(pruebas, recibidas, …)         → a result when the page's Python broke while grading
//
// Saved state, under the widget's storage key (lib/almacen.js):
//   { codigo: string | null,              the reader's code (null: the starter's)
//     mejor: { superadas, total } | null, the best check
//     fallos: n,                          checks that did not pass every test
//     superado: bool }                    some check passed them all

/** «8 de 12 pruebas superadas» («1 de 1 prueba superada»). */
export function resumen(superadas, total) {
  return total === 1 ? `${superadas} de 1 prueba superada` : `${superadas} de ${total} pruebas superadas`;
}

const NO_SUPERADA = { clase: "falla", icono: "✘", texto: "no superada" };
const ESTADOS = {
  ok: { clase: "ok", icono: "✔", texto: "superada" },
  tiempo: { clase: "falla", icono: "✘", texto: "no terminó" },
  detenida: { clase: "falla", icono: "✘", texto: "no terminó" },
  "no-probada": { clase: "pendiente", icono: "–", texto: "no probada" },
  interno: { clase: "interno", icono: "!", texto: "error de la prueba" },
};

/** How a test's outcome shows: a class, an icon (decorative) and its words. */
export function estadoDe(prueba) {
  return ESTADOS[prueba?.tipo] ?? NO_SUPERADA;
}

/** Where the grader saw the failure, in the reader's terms: the model's turn, their line. */
export function lugarDe(prueba) {
  const partes = [];
  if (Number.isInteger(prueba?.turno)) partes.push(`Turno ${prueba.turno}`);
  if (Number.isInteger(prueba?.linea)) partes.push(`Línea ${prueba.linea}`);
  return partes.join(" · ");
}

/** The page's watchdog: how long one step of the grading may take without a word from the
 *  worker (ms). A failed test runs the reader's code twice (the test, then «Ver tu traza»), each
 *  under the grader's limit; the margin covers the rest. */
export function paciencia(limite, margen = 3) {
  const segundos = Number.isFinite(limite) && limite > 0 ? limite : 2;
  return (2 * segundos + margen) * 1000;
}

/** «2 s», «2,5 s»: seconds as the grader writes them. */
export function segundos(ms) {
  const s = Math.round(ms / 100) / 10;
  return `${String(s).replace(".", ",")} s`;
}

/**
 * The result of a check the page stopped because the worker went silent: the tests that
 * finished keep their result (`recibidas`: nombre → result, from the grader's progress), the
 * one running (`actual`; null if the code was still loading) did not finish, the rest were not
 * tried. Same shape as the grader's result.
 */
export function detenida(nombres, recibidas, actual, ms) {
  const tras = segundos(ms);
  return cortada(nombres, recibidas, actual, {
    tipo: "detenida",
    mensaje: `no terminó: la página lo detuvo tras ${tras} sin respuesta. ¿Falta el tope, o hay ` +
      "algo que no acaba (un bucle sin fin, una espera, un cálculo enorme)?",
    carga: `Tu código no terminó de cargarse: la página lo detuvo tras ${tras} sin respuesta. ` +
      "¿Un bucle sin fin fuera de las funciones?",
    resto: `«${actual}» no terminó`,
  });
}

/**
 * The result of a check during which the page's Python broke (`motivo`: the browser's words,
 * like «Maximum call stack size exceeded»): the test running is blamed, as a very deep
 * recursion is what does it; Python was restarted.
 */
export function rota(nombres, recibidas, actual, motivo) {
  const pila = /call stack|too much recursion/i.test(motivo ?? "");
  const que = pila
    ? "se desbordó la pila, como en un RecursionError: ¿una estructura anidada miles de veces, " +
      "o una función que se llama a sí misma sin fin?"
    : `error de Pyodide: ${motivo}`;
  return cortada(nombres, recibidas, actual, {
    tipo: "error",
    mensaje: `rompió el Python de la página (${que}). Python se ha reiniciado.`,
    carga: `Tu código rompió el Python de la página al cargarse (${que}). Python se ha reiniciado.`,
    resto: `«${actual}» rompió el Python de la página`,
  });
}

function cortada(nombres, recibidas, actual, { tipo, mensaje, carga, resto }) {
  const cargando = actual == null || !nombres.includes(actual);
  const pruebas = nombres.map((nombre) => {
    if (recibidas[nombre]) return recibidas[nombre];
    if (nombre === actual) return resultadoVacio(nombre, tipo, mensaje);
    return resultadoVacio(nombre, "no-probada", cargando
      ? "no se probó: tu código no terminó de cargarse"
      : `no se probó: ${resto}`);
  });
  return {
    superadas: pruebas.filter((p) => p.ok).length,
    total: pruebas.length,
    error: cargando ? { tipo, linea: null, mensaje: carga } : null,
    pruebas,
  };
}

function resultadoVacio(nombre, tipo, mensaje) {
  return { nombre, ok: false, tipo, mensaje, linea: null, turno: null, salida: "", traza: null };
}

/** The saved state, whatever storage held (null, an old or corrupt value). */
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

/** The state after a check that ended with `resultado` (the grader's, or `detenida`'s). */
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

/** The hint shows after `tras` failed checks (and only if there is one). */
export function verPista(estado, pista, tras) {
  return Boolean(pista) && estado.fallos >= tras;
}

/** The reference solution can be revealed after `tras` failed checks, or once passed. */
export function verSolucion(estado, tras) {
  return estado.superado || estado.fallos >= tras;
}

/** «Tu mejor resultado: 8 de 12 pruebas superadas.» */
export function textoMejor(mejor) {
  return mejor ? `Tu mejor resultado: ${resumen(mejor.superadas, mejor.total)}.` : "";
}

/**
 * What the reader is told about where their run leaves the expected one, from
 * traza-pasos.js's `divergencia` ({ indice, esperado, obtenido } or null).
 */
export function textoDivergencia(div) {
  if (!div) {
    return "Tu ejecución da los mismos pasos que la esperada: lo que falla es lo que dice el " +
      "mensaje de la prueba.";
  }
  const paso = `paso ${div.indice + 1}`;
  const coinciden = div.indice === 0 ? "Las dos ejecuciones difieren desde el primer paso"
    : `Las dos ejecuciones coinciden hasta el paso ${div.indice}`;
  const { obtenido, esperado } = div;
  if (obtenido && esperado && obtenido.texto === esperado.texto) {
    return `${coinciden}. En el ${paso} las dos dicen «${sinPunto(obtenido.texto)}», pero M o ` +
      "el entorno no son iguales: compáralos.";
  }
  const tuya = obtenido ? `en la tuya, ${minuscula(obtenido.texto)}` : "la tuya ya había terminado";
  const esperada = esperado ? `en la esperada, ${minuscula(esperado.texto)}` : "la esperada ya había terminado";
  return `${coinciden}. En el ${paso}, ${tuya}; ${esperada}.`;
}

function sinPunto(texto) {
  return String(texto ?? "").trim().replace(/\.$/, "");
}

function minuscula(texto) {
  const t = sinPunto(texto);
  return t ? t[0].toLowerCase() + t.slice(1) : t;
}
