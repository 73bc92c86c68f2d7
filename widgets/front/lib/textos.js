// @ts-check
// Every text the widgets show or announce to the reader, in Spanish, in one place: fixed strings
// and, where a number or a name goes in, small functions. No DOM. The accessible names that
// readers and tests rely on (/work/shared/DESIGN.md: Ejecutar, Comprobar, Tope, «Paso X de Y»…)
// are here too: changing one is changing the course's contract.
//
//   import { CELDA } from "./lib/textos.js";   CELDA.ejecutar → "Ejecutar"; CELDA.nombre(2) → "Celda 2"

const numero = (/** @type {number} */ n) => n.toLocaleString("es-ES");
const plural = (/** @type {number} */ n, /** @type {string} */ uno, /** @type {string} */ varios) => (n === 1 ? uno : `${numero(n)} ${varios}`);

/** «1», «1 y 2», «1, 2 y 3».
 * @param {unknown[]} elementos
 */
export function enumerar(elementos) {
  const lista = elementos.map(String);
  if (lista.length <= 1) return lista.join("");
  return `${lista.slice(0, -1).join(", ")} y ${lista[lista.length - 1]}`;
}

/** «12 MB» for a download notice (decimal megabytes, as download sizes are usually given).
 * @param {number} bytes
 */
export function megas(bytes) {
  const mb = bytes / 1e6;
  // Written out, as toLocaleString("es-ES") would (one decimal, a comma), not with it: a page's
  // first use of Intl took some 50 ms of its thread, while Python's first download is shown.
  return `${mb < 10 ? String(Math.round(mb * 10) / 10).replace(".", ",") : Math.round(mb)} MB`;
}

/** What cells and challenges share: their buttons, the editor's keys, another tab's code. */
export const COMUN = {
  detener: "Detener",
  restablecer: "Restablecer",
  usarLaOtra: "Usar la de la otra pestaña",
  seguirConEsta: "Seguir con esta",
  /** The keyboard hint of an editor: `tecla` (⌘ or Ctrl) + Intro does `que`. */
  ayuda: (/** @type {string} */ tecla, /** @type {string} */ que) => `${tecla}+Intro ${que} · Esc y luego Tab sale del editor`,
};

export const CELDA = {
  nombre: (/** @type {number} */ n) => `Celda ${n}`,
  modificada: "Modificada",
  ejecutar: "Ejecutar",
  ejecuta: "ejecuta",
  editor: (/** @type {number} */ n) => `Código de la celda ${n}`,
  salida: (/** @type {number} */ n) => `Salida de la celda ${n}`,
  cambio: "El código de esta celda ha cambiado en la lección desde que guardaste tu versión. " +
    "Estás viendo la tuya.",
  usarLaNueva: "Usar la versión nueva",
  seguirConLaMia: "Seguir con la mía",
  otraPestana: "Has guardado otra versión de esta celda en otra pestaña. Aquí sigue la de esta " +
    "pestaña; si la editas, sustituirá a la otra.",
  enEspera: "En espera: primero termina la celda que se está ejecutando.",
  canceladaEnEspera: "Cancelada antes de empezar.",
  /** Before a cell, the earlier ones it depends on run first. */
  anteriores: (/** @type {number[]} */ ordenes) => (ordenes.length === 1
    ? `Antes se ejecuta la celda ${ordenes[0]}, de la que depende esta.`
    : `Antes se ejecutan las celdas ${enumerar(ordenes)}, de las que depende esta.`),
  sinSalida: "Ejecutada, sin salida.",
  salio: (/** @type {number | string | null | undefined} */ codigo) => `La celda terminó al llamar a exit() o sys.exit()${codigo ? ` (código de salida ${codigo})` : ""}. ` +
    "Python sigue en marcha.",
  detenida: "Ejecución detenida.",
  perdido: "Python se ha reiniciado y ha perdido lo definido: las celdas anteriores se volverán a " +
    "ejecutar cuando ejecutes otra.",
  cancelada: "No se ha ejecutado: se detuvo antes una celda de la que depende.",
  noSePudo: (/** @type {unknown} */ motivo) => `No se pudo ejecutar: ${motivo}.`,
  pila: "se desbordó la pila (¿una estructura demasiado anidada o una recursión muy profunda?)",
  /** The notice of a cut: what was left out of the output's start.
   * @param {{ lineas?: number, caracteres: number }} omitido
   */
  omitido: ({ lineas, caracteres }) => {
    const cuanto = lineas ? plural(lineas, "1 línea", "líneas") : plural(caracteres, "1 carácter", "caracteres");
    return `Salida demasiado larga: se han omitido ${cuanto} del principio; se muestra el final.`;
  },
};

/** Python waits for the reader in a cell's output (lib/espera.js): a permission, a line. */
export const ESPERA = {
  permitir: "Permitir",
  denegar: "Denegar",
  enviar: "Enviar",
  /** The text field's name when input() has no prompt. */
  entrada: "Entrada",
  /** The line left in the output once the reader answered a permission. */
  respondida: (/** @type {string} */ pregunta, /** @type {boolean} */ permitido) => `${pregunta} ${permitido ? "Permitido" : "Denegado"}`,
};

export const DESAFIO = {
  comprobar: "Comprobar",
  comprueba: "comprueba",
  editor: "Código del desafío",
  teclado: "En un móvil, este desafío es más cómodo con un teclado físico: el de la pantalla tapa " +
    "el código y cuesta escribir sangrías y símbolos.",
  otraPestana: "Has guardado otra versión de este código en otra pestaña. Aquí sigue la de esta " +
    "pestaña; si la editas, sustituirá a la otra.",
  yaInicial: "Ya tienes el código inicial.",
  vueltaInicial: (/** @type {string | null | undefined} */ tecla) => (tecla
    ? `Has vuelto al código inicial (${tecla}+Z en el editor lo deshace).`
    : "Has vuelto al código inicial."),
  resultados: "Resultados de las pruebas",
  pista: "Pista",
  comprobando: "Comprobando…",
  probando: (/** @type {string} */ nombre, /** @type {number} */ n, /** @type {number} */ total) => `Probando «${nombre}» (${n} de ${total})…`,
  detenidaPorElLector: "Comprobación detenida.",
  interrumpida: "La comprobación se interrumpió porque Python se reinició. Pulsa Comprobar otra vez.",
  noSePudo: (/** @type {unknown} */ motivo) => `No se pudo comprobar: ${motivo}`,
  desconocido: "error desconocido",
  /** «8 de 12 pruebas superadas» («1 de 1 prueba superada»). */
  resumen: (/** @type {number} */ superadas, /** @type {number} */ total) => (total === 1
    ? `${superadas} de 1 prueba superada`
    : `${superadas} de ${total} pruebas superadas`),
  mejor: (/** @type {string} */ resumen) => `Tu mejor resultado: ${resumen}.`,
  noCargo: "Tu código no se pudo cargar",
  noCargoEn: (/** @type {number | null | undefined} */ linea) => ` Tu código no se pudo cargar${linea ? ` (línea ${linea})` : ""}.`,
  hayPista: " Tienes una pista debajo.",
  haySolucion: " Ya puedes ver la solución de referencia.",
  irALinea: (/** @type {number} */ n) => `Ir a la línea ${n}`,
  escribio: "Lo que escribió tu código",
  verTraza: "Ver tu traza",
  ocultarTraza: "Ocultar tu traza",
  sinEsperada: "No se pudo calcular la ejecución esperada: aquí tienes solo la tuya.",
  tuEjecucion: "Tu ejecución",
  marcaTuya: "Aquí se aparta tu ejecución de la esperada.",
  laEsperada: "La ejecución esperada (la solución de referencia)",
  marcaEsperada: "Aquí, lo que se esperaba.",
  verSolucion: "Ver la solución",
  ocultarSolucion: "Ocultar la solución",
  referencia: "La solución de referencia",
  siVer: "Sí, ver la solución",
  cancelar: "Cancelar",
  seguro: "¿Seguro? Lo que enseña este desafío está en dar con el bucle. Antes, prueba con la " +
    "pista y con «Ver tu traza» en una prueba que falle.",
  /** A test's outcome in words (an icon goes with it, never colour alone). */
  estados: {
    ok: "superada",
    falla: "no superada",
    termino: "no terminó",
    noProbada: "no probada",
    interno: "error de la prueba",
  },
  turno: (/** @type {number} */ n) => `Turno ${n}`,
  linea: (/** @type {number} */ n) => `Línea ${n}`,
  /** When the page's Python broke during a check (a JavaScript stack overflow, say). */
  rota: {
    pila: "se desbordó la pila, como en un RecursionError: ¿una estructura anidada miles de veces, " +
      "o una función que se llama a sí misma sin fin?",
    pyodide: (/** @type {unknown} */ motivo) => `error de Pyodide: ${motivo}`,
    mensaje: (/** @type {string} */ que) => `rompió el Python de la página (${que}). Python se ha reiniciado.`,
    carga: (/** @type {string} */ que) => `Tu código rompió el Python de la página al cargarse (${que}). Python se ha reiniciado.`,
    resto: (/** @type {string | null} */ prueba) => `no se probó: «${prueba}» rompió el Python de la página`,
    sinCargar: "no se probó: tu código no terminó de cargarse",
  },
  /** Where the reader's run departs from the expected one (traza-pasos.js's `divergencia`). */
  iguales: "Tu ejecución da los mismos pasos que la esperada: lo que falla es lo que dice el " +
    "mensaje de la prueba.",
  difierenDesdeElPrimero: "Las dos ejecuciones difieren desde el primer paso",
  coincidenHasta: (/** @type {number} */ n) => `Las dos ejecuciones coinciden hasta el paso ${n}`,
  mismoTexto: (/** @type {string} */ coinciden, /** @type {string} */ paso, /** @type {string} */ texto) => `${coinciden}. En el ${paso} las dos dicen «${texto}», ` +
    "pero M o el entorno no son iguales: compáralos.",
  paso: (/** @type {number} */ n) => `paso ${n}`,
  enLaTuya: (/** @type {string} */ texto) => `en la tuya, ${texto}`,
  tuyaTerminada: "la tuya ya había terminado",
  enLaEsperada: (/** @type {string} */ texto) => `en la esperada, ${texto}`,
  esperadaTerminada: "la esperada ya había terminado",
  divergen: (/** @type {string} */ coinciden, /** @type {string} */ paso, /** @type {string} */ tuya, /** @type {string} */ esperada) => `${coinciden}. En el ${paso}, ${tuya}; ${esperada}.`,
};

export const TRAZA = {
  inicio: "Inicio",
  anterior: "Anterior",
  siguiente: "Siguiente",
  final: "Final",
  barra: "Paso",
  tope: "Tope",
  veModelo: "Lo que ve el modelo",
  titulo: "Traza del bucle",
  entorno: "Entorno ",
  noLoVe: "el modelo no lo ve",
  m: "M ",
  turno: (/** @type {number} */ n) => `Turno ${n}`,
  paso: (/** @type {number} */ i, /** @type {number} */ total) => `Paso ${i} de ${total}`,
  pasoYTurno: (/** @type {number} */ i, /** @type {number} */ total, /** @type {number} */ turno) => `Paso ${i} de ${total}, turno ${turno}`,
  nuevoTope: (/** @type {number} */ tope) => `Tope ${tope}. `,
  cuenta: (/** @type {number} */ n) => `· ${n === 1 ? "1 mensaje" : `${n} mensajes`}`,
  noEsMensaje: "(no es un mensaje)",
  nuevo: "nuevo",
  loRecibe: "lo recibe",
  cambios: { nuevo: "nuevo", borrado: "borrado", cambia: "cambia" },
  /** A run of unchanged lines left out of a long file's diff. */
  lineasIguales: (/** @type {number} */ n) => (n === 1 ? "⋯ 1 línea igual" : `⋯ ${n} líneas iguales`),
  /** A long file this step does not change, folded: its size beside its name. */
  sinCambios: (/** @type {number} */ n) => `${n} líneas, sin cambios`,
  sinModelo: "En este paso no se llama al modelo. Lo que ve se marca en los pasos en que el bucle lo llama.",
  recibe: (/** @type {number} */ n, /** @type {string[] | null | undefined} */ herramientas) => {
    const cuales = n === 1 ? "este mensaje, M[0]," : `estos ${n} mensajes, M[0] a M[${n - 1}],`;
    const definiciones = herramientas?.length
      ? ` y las definiciones de las herramientas (${herramientas.join(", ")})`
      : "";
    return `El modelo recibe ${cuales}${definiciones}. No recibe el entorno: de los ficheros solo ` +
      "sabe lo que le cuentan los mensajes.";
  },
};

/** What each step of a trace says (lib/traza-pasos.js). */
export const PASOS = {
  mensajes: (/** @type {number} */ n) => (n === 1 ? "1 mensaje" : `${n} mensajes`),
  llamaAlModelo: (/** @type {string} */ mensajes, /** @type {boolean} */ queja) => `El bucle llama al modelo con ${mensajes}.${queja ? " El modelo se queja." : ""}`,
  responde: (/** @type {string} */ que) => `El modelo responde con ${que}`,
  entraEnM: (/** @type {number} */ posicion) => `; la respuesta entra en M como M[${posicion}].`,
  noEntra: "; el bucle no la añade a M tal cual.",
  cambia: (/** @type {string[]} */ rutas) => `cambia ${rutas.join(", ")}.`,
  noCambia: "el entorno no cambia.",
  seEjecuta: (/** @type {string} */ quien, /** @type {string} */ efecto) => `Se ejecuta ${quien}: ${efecto}`,
  falla: (/** @type {string} */ quien, /** @type {string} */ clase, /** @type {string} */ efecto) => `Se ejecuta ${quien} y falla: ${clase}; ${efecto}`,
  error: (/** @type {string} */ clase, /** @type {unknown} */ mensaje) => `→ error ${clase}: ${mensaje}`,
  pregunta: (/** @type {string} */ quien, /** @type {string} */ pregunta, /** @type {boolean} */ permitido) => `El arnés pregunta al usuario por ${quien}` +
    `${pregunta ? `: «${pregunta}»` : ""}. El usuario responde ${permitido ? "Permitir" : "Denegar"}: ` +
    (permitido ? "la llamada se ejecuta." : "la llamada no se ejecuta, y vuelve al modelo como un error."),
  preguntaFalla: (/** @type {string} */ quien, /** @type {string} */ pregunta, /** @type {string} */ clase) => `El arnés pregunta al usuario por ${quien}` +
    `${pregunta ? `: «${pregunta}»` : ""}, y preguntar falla: ${clase}.`,
  respuesta: (/** @type {boolean} */ permitido) => `→ ${permitido ? "Permitir" : "Denegar"}`,
  suObservacion: (/** @type {string} */ linea) => `su observación: ${linea}`,
  trasElTurno: (/** @type {number} */ turno) => (turno ? ` tras el turno ${turno}` : " sin llamar al modelo"),
  excepcion: (/** @type {string} */ tras, /** @type {string} */ clase, /** @type {number | null | undefined} */ linea) => `El bucle se detiene${tras} con una excepción: ${clase}${linea ? ` (línea ${linea})` : ""}.`,
  cortada: (/** @type {number} */ eventos) => `La traza se corta aquí: el bucle pasó de ${eventos} eventos.`,
  devuelveOtraCosa: (/** @type {string} */ tras, /** @type {unknown} */ valor) => `El bucle devuelve${tras} ${valor ?? "otra cosa"}, no (motivo, texto, M).`,
  porFin: " El modelo respondió sin llamadas.",
  porTope: (/** @type {number | undefined} */ tope) => ` Se agotó el tope de ${tope === 1 ? "una llamada" : `${tope} llamadas`} al modelo.`,
  sinTexto: " No hay texto para el usuario.",
  devuelve: (/** @type {string} */ motivo, /** @type {string} */ texto, /** @type {string} */ tras, /** @type {string} */ porque, /** @type {string} */ mensajes, /** @type {string} */ usuario) =>
    `El bucle devuelve ("${motivo}", ${texto}, M)${tras}.${porque} M tiene ${mensajes}.${usuario}`,
  texto: (/** @type {string} */ texto) => `texto: ${texto}`,
  noEsLista: "algo que no es una lista de bloques",
  textos: (/** @type {number} */ n) => (n === 1 ? "un texto" : `${n} textos`),
  llamadas: (/** @type {string[]} */ ids) => `${ids.length === 1 ? "una llamada" : `${ids.length} llamadas`} (${ids.join(", ")})`,
  listaVacia: "una lista vacía",
  sinLlamadas: ", sin llamadas",
  observaciones: (/** @type {number} */ posicion, /** @type {string[]} */ ids) => `Las observaciones entran en M: M[${posicion}], un mensaje del usuario con ` +
    `${ids.length === 1 ? "un resultado" : `${ids.length} resultados`} (${ids.join(", ")}).`,
  entran: (/** @type {number[]} */ posiciones) => `Entran en M: ${posiciones.map((p) => `M[${p}]`).join(", ")}.`,
  mCambia: (/** @type {string} */ mensajes, /** @type {number | null} */ desde) => `M cambia: ahora tiene ${mensajes}${desde == null ? "." : `, distintos desde M[${desde}].`}`,
};

/** Predict mode of a trace (traza.js, piezas/prediccion.js, lib/predice.js, the course map). */
export const PREDICE = {
  boton: "Predice",
  titulo: "Predice",
  tuPrediccion: "Tu predicción",
  comprobar: "Comprobar",
  empieza: "Predice: antes de cada paso que se puede prever, una pregunta. Empiezas en el paso 1; " +
    "pulsa Siguiente.",
  termina: "Predice desactivado.",
  acierto: "Correcto.",
  fallo: (/** @type {string | undefined} */ solucion) => `No. La respuesta era: ${solucion}.`,
  escribeNumero: "Escribe un número antes de comprobar.",
  eligeUna: "Elige una opción antes de comprobar.",
  noEsNumero: (/** @type {string} */ texto) => `«${texto}» no es un número entero.`,
  sigue: "Pulsa Siguiente para continuar.",
  /** «Has acertado 9 de 10 predicciones». */
  resultado: (/** @type {number} */ aciertos, /** @type {number} */ total) => `Has acertado ${aciertos} de ${total} ${total === 1 ? "predicción" : "predicciones"}`,
  otraRonda: "Inicio empieza otra ronda.",
  nuevaRonda: "Nueva ronda de predicciones. ",
  /** On the course map: a lesson's best rounds. */
  mapa: (/** @type {number} */ aciertos, /** @type {number} */ total) => `${aciertos} de ${total} ${total === 1 ? "predicción acertada" : "predicciones acertadas"}`,
};

export const PREGUNTA = {
  comprobar: "Comprobar",
  reintentar: "Reintentar",
  explicacion: "Explicación",
  tuRespuesta: "Tu respuesta",
  correcto: "Correcto.",
  incorrecto: "No es correcto.",
  incorrectoVarias: "No es correcto: sobran o faltan opciones.",
  escribeNumero: "Escribe un número antes de comprobar.",
  marcaUna: "Marca al menos una opción antes de comprobar.",
  eligeUna: "Elige una opción antes de comprobar.",
  noEsNumero: (/** @type {string} */ texto) => `«${texto}» no es un número: escribe, por ejemplo, 13 o 2,5.`,
  puntuacion: (/** @type {number} */ correctas, /** @type {number} */ total) => `${correctas} de ${total} correctas`,
};

export const PROGRESO = {
  preguntas: (/** @type {number} */ bien, /** @type {number} */ total) => `${bien} de ${total} preguntas correctas`,
  sinIntentar: "desafío sin intentar",
  superado: "desafío superado",
  desafio: (/** @type {number} */ superadas, /** @type {number} */ total) => `desafío: ${superadas} de ${total} pruebas`,
  lectura: (/** @type {number} */ minutos) => `${minutos} min de lectura`,
  completada: " · ✔ completada",
  exportar: "Exportar mi progreso",
  importar: "Importar progreso",
  exportado: "Progreso exportado.",
  importado: (/** @type {number} */ n) => `Progreso importado (${n} datos). Recarga las lecciones abiertas para verlo.`,
  noImportado: (/** @type {unknown} */ motivo) => `No se pudo importar: ${motivo}`,
  noEsDeEsteCurso: "El archivo no es un progreso exportado de este curso.",
};

export const ALMACEN = {
  noGuarda: "No se puede guardar tu progreso en este navegador (el almacenamiento está lleno o " +
    "desactivado). Todo funciona, pero lo que hagas se perderá al cerrar la página.",
};

/** Python starting: the notice, and why a start failed. */
export const PYTHON = {
  descarga: (/** @type {number} */ total) => `La primera ejecución descarga el intérprete de Python (≈ ${megas(total)}); ` +
    "después queda en la caché del navegador.",
  barra: "Descarga del intérprete de Python",
  cifras: (/** @type {number} */ cargado, /** @type {number} */ total) => `${megas(cargado)} de ${megas(total)}`,
  preparando: "Preparando Python…",
  otraVez: "Volviendo a intentarlo: preparando Python…",
  reintentar: "Reintentar",
  fallo: (/** @type {unknown} */ motivo) => `No se pudo iniciar Python: ${motivo}. Puede ser la conexión o un archivo del ` +
    "sitio; pulsa Reintentar para volver a intentarlo.",
  desconocido: "error desconocido",
  noDescargo: (/** @type {string} */ url) => `no se pudo descargar ${url}`,
  noCargo: (/** @type {string | null | undefined} */ url) => `no se pudo cargar ${url ?? "el programa que ejecuta Python"}`,
  http: (/** @type {string} */ url, /** @type {number} */ estado) => `no se pudo descargar ${url} (HTTP ${estado})`,
  defectuoso: (/** @type {string} */ url, /** @type {string} */ problema, /** @type {number} */ bytes) => `el archivo ${url} ${problema} (${bytes} bytes)`,
  paginaWeb: "en su lugar llegó una página web",
  incompleto: "llegó incompleto",
  sinIniciar: "Python no se ha iniciado",
  desconocida: (/** @type {unknown} */ type) => `mensaje desconocido: ${type}`,
  exterior: "El curso no sale de este sitio: no hay acceso a la red desde Python.",
};

/** The course without a connection (sin-conexion.js): saving it, and its updates. */
export const SIN_CONEXION = {
  guardando: (/** @type {number} */ bytes, /** @type {number} */ total) => `Guardando el curso para usarlo sin conexión… ` +
    `${Math.round(bytes / 1e6).toLocaleString("es-ES")} de ${megas(total)}`,
  noGuardar: "No guardar",
  guardado: (/** @type {number} */ total) => `Curso guardado (${megas(total)}): en este navegador funciona también sin conexión.`,
  rechazado: "No se guardará el curso. Con conexión, todo funciona igual.",
  fallo: "No se pudo guardar el curso para usarlo sin conexión; se volverá a intentar en la " +
    "próxima visita.",
  nueva: "Hay una versión nueva del curso.",
  actualizar: "Actualizar",
  cerrar: "Cerrar",
  lite: "Ahora no hay conexión, y JupyterLite la necesita: sus cuadernos no se guardan para " +
    "usarlos sin ella. Las celdas y los desafíos de esta lección sí funcionan sin conexión.",
};

/** The course's in-page model (modelo.js, modelo/motor.js): the reader's choice to download it,
 *  its progress, and why it cannot run here. */
export const MODELO = {
  descargar: (/** @type {number} */ bytes) => `Descargar el modelo (${megas(bytes)})`,
  cargarDescargado: "Cargar el modelo (ya descargado)",
  cancelar: "Cancelar",
  reintentar: "Reintentar",
  queEs: (/** @type {string} */ nombre, /** @type {string} */ licencia) => `Es ${nombre}, un modelo de lenguaje pequeño (licencia ${licencia}) ` +
    "que se ejecuta en este navegador: se descarga de este sitio y nada de lo que le pidas sale de " +
    "él. Después queda guardado en el navegador para la próxima vez.",
  barra: "Descarga del modelo",
  cifras: (/** @type {number} */ bytes, /** @type {number} */ total) => `${Math.round(bytes / 1e6).toLocaleString("es-ES")} de ${megas(total)}`,
  sinDescargar: "Modelo sin descargar.",
  yaDescargado: "El modelo ya está descargado en este navegador: se carga cuando una celda lo " +
    "necesite, o ahora con el botón.",
  descargando: "Descargando el modelo…",
  comprobando: "Comprobando el archivo descargado…",
  cargando: "Cargando el modelo en la memoria…",
  listo: "Modelo listo",
  cancelada: "Descarga cancelada: el modelo sigue sin descargar.",
  fallo: (/** @type {unknown} */ motivo) => `No se pudo preparar el modelo: ${motivo}.`,
  http: (/** @type {string} */ archivo, /** @type {number} */ estado) => `el sitio no entregó ${archivo} (HTTP ${estado})`,
  red: (/** @type {string} */ archivo) => `no se pudo descargar ${archivo}; puede ser la conexión`,
  distinto: (/** @type {string} */ archivo) => `${archivo} no es el archivo que publicó el curso (su SHA-256 no coincide); ` +
    "no se ha guardado",
  sinWasm: "Este navegador no ejecuta WebAssembly, y el modelo lo necesita.",
  sinFunciones: "Este navegador no puede ejecutar el modelo: le faltan las instrucciones SIMD de " +
    "WebAssembly. Funciona en versiones recientes de Chrome, Edge, Firefox o Safari.",
  sinMemoria: "Este dispositivo no tiene memoria libre suficiente para el modelo (necesita cerca de " +
    "1 GB); cierra otras pestañas o prueba en un ordenador.",
  csp: "la política de seguridad de este sitio (Content-Security-Policy) no deja arrancar su " +
    "worker: necesita permitir los scripts del propio sitio en script-src y worker-src, y " +
    "'wasm-unsafe-eval'",
  contextoLleno: "la conversación ya no cabe en la memoria del modelo (2048 tokens): empieza otra " +
    "más corta o baja max_tokens",
  noDescargado: "el modelo del curso no está descargado: pulsa «Descargar el modelo» en la lección",
  sinDatos: "esta página no tiene el modelo del curso",
};

/**
 * The bridge to the model (modelo/servidor.js, servicio/sw.js, lib/servidor-propio.js): what the
 * course's endpoint answers when it cannot, and the control of the reader's own server.
 */
export const PUENTE = {
  // The endpoint's protocol errors (one sentence each).
  sinModelo: "El modelo del curso no está cargado en ninguna página abierta: descárgalo con el " +
    "botón «Descargar el modelo» de la lección «El bucle con un modelo real» y vuelve a ejecutar la celda.",
  cerrada: "La página que tenía cargado el modelo se ha cerrado antes de responder: vuelve a " +
    "abrirla, descarga el modelo y repite la petición.",
  detenido: "La generación se ha detenido (Detener) antes de terminar.",
  metodo: (/** @type {string} */ metodo) => `Este punto del modelo del curso solo atiende peticiones POST, no ${metodo}.`,
  noJSON: "El cuerpo de la petición no es JSON válido.",
  fallo: (/** @type {unknown} */ motivo) => `El modelo del curso ha fallado al responder: ${motivo}.`,
  // The reader's own server.
  titulo: "Tu propio servidor",
  explicacion: "Si tienes un servidor de modelos que habla el mismo protocolo (por ejemplo uno " +
    "local en http://localhost:11434), escribe su dirección: será la única dirección fuera de " +
    "este sitio a la que Python podrá enviar peticiones.",
  campo: "Dirección de tu servidor",
  usar: "Usar este servidor",
  confirmar: (/** @type {string} */ origen) => `¿Enviar las peticiones de Python a ${origen}? Lo que mandes (los ` +
    "mensajes y las herramientas) saldrá de este sitio hacia esa dirección.",
  si: "Sí, usarlo",
  cancelar: "Cancelar",
  usando: (/** @type {string} */ url) => `Python puede enviar peticiones a ${url}: en una celda, servidor_propio() ` +
    "devuelve esa dirección.",
  olvidar: "Dejar de usarlo",
  ninguno: "Ningún servidor propio: Python solo habla con este sitio.",
  vacia: "Escribe la dirección de tu servidor, por ejemplo http://localhost:11434.",
  invalida: (/** @type {string} */ texto) => `«${texto}» no es una dirección web: escríbela completa, por ejemplo ` +
    "http://localhost:11434.",
  esquema: (/** @type {string} */ esquema) => `La dirección debe empezar por http:// o https://, no por ${esquema}//.`,
  conDatos: "La dirección no puede llevar usuario, contraseña, «?» ni «#»: solo el servidor y, " +
    "si hace falta, una ruta.",
  mismoSitio: "Esa dirección es la de este mismo sitio: escribe la de tu servidor.",
};

/** The bench (banco.js, lib/banco-*.js, piezas/banco-*.js). Its tables' rows and its plot in
 *  words come from the worker (trabajador_banco_resumen.py), as the build writes them. */
export const BANCO = {
  medir: "Medir",
  modelo: "Modelo",
  modeloAyuda: "Elige uno o escribe el nombre de tu hacer_modelo(tarea, semilla).",
  modeloNoVale: (/** @type {string} */ texto) => `${texto.trim() ? `«${texto.trim()}» no es un nombre de Python: escribe` : "Escribe"} ` +
    "el nombre de un hacer_modelo(tarea, semilla) de tus celdas. No se ha ejecutado nada.",
  veces: "Ejecuciones por tarea",
  exportarCSV: "Exportar CSV",
  exportarJSON: "Exportar JSON",
  barra: "Progreso de la medida",
  preparando: "Preparando Python…",
  progreso: (/** @type {number} */ i, /** @type {number} */ n) => `Ejecución ${numero(i)} de ${numero(n)}`,
  quedan: (/** @type {number} */ segundos) => (segundos < 1.5 ? "queda menos de un segundo"
    : segundos < 90 ? `quedan unos ${Math.round(segundos)} s` : `quedan unos ${Math.round(segundos / 60)} min`),
  vecesNoVale: (/** @type {string} */ texto, /** @type {number} */ maximo) => `${texto.trim() ? `«${texto}» no vale: las` : "Escribe las"} ` +
    `ejecuciones por tarea, un número entero de 1 a ${numero(maximo)}. No se ha ejecutado nada.`,
  falta: "Ejecuta antes la celda que define ",
  laCelda: (/** @type {number} */ n) => ` (la celda ${n})`,
  ocupado: "Python está ejecutando otra cosa: espera a que termine (o detenla) y vuelve a pulsar Medir.",
  noSePudo: (/** @type {unknown} */ motivo) => `No se pudo medir: ${motivo}`,
  completa: (/** @type {number} */ n, /** @type {number} */ segundos) => `Medida completa: ${plural(n, "1 ejecución", "ejecuciones")} en ` +
    `${segundos < 1 ? "menos de un segundo" : `${Math.round(segundos)} s`}.`,
  detenida: (/** @type {number} */ n, /** @type {number} */ total) => `Medida detenida: se conservan las ${numero(n)} ejecuciones terminadas de ${numero(total)}.`,
  reiniciado: " Python se ha reiniciado para detenerla, y lo que definieron las celdas se ha " +
    "perdido: vuelve a ejecutarlas antes de medir otra vez.",
  antesDeEmpezar: "Medida detenida antes de empezar: no se ha ejecutado nada.",
  calculando: "Calculando el resumen de las ejecuciones terminadas…",
  guardada: (/** @type {number} */ n, /** @type {number} */ total, /** @type {string} */ fecha) => `Tu última medida (${fecha}): ${numero(n)} de ${numero(total)} ejecuciones.`,
  sinTrazas: " Sus conversaciones no caben en el almacenamiento del navegador: al recargar, la " +
    "tabla sigue, pero las trazas no.",
  soloResumen: " No cabía entera en el almacenamiento del navegador: se ha guardado su resumen, " +
    "sin las ejecuciones.",
  tuMedida: "Tu medida",
  grafico: "Tasas de éxito con sus intervalos de Wilson",
  ejecuciones: (/** @type {number} */ n) => `Las ejecuciones (${numero(n)})`,
  grabadas: (/** @type {number} */ n) => `Las ejecuciones de la medida grabada (${numero(n)})`,
  cargando: "Cargando las ejecuciones…",
  noCargo: (/** @type {unknown} */ motivo) => `No se pudieron cargar las ejecuciones grabadas: ${motivo}.`,
  variante: "Variante",
  motivo: "Motivo",
  todas: "Todas",
  conMotivo: (/** @type {string} */ motivo, /** @type {number} */ n) => `${motivo} (${numero(n)})`,
  mostradas: (/** @type {number} */ n, /** @type {number} */ total) => `Se muestran ${numero(n)} de ${numero(total)}.`,
  ninguna: "Ninguna ejecución con este motivo.",
  mostrarMas: "Mostrar más",
  fila: (/** @type {number} */ tarea, /** @type {string | null | undefined} */ tipo, /** @type {number} */ semilla) => `Tarea ${tarea}${tipo ? ` (${tipo})` : ""}, semilla ${semilla}`,
  turnos: (/** @type {number} */ n) => plural(n, "1 turno", "turnos"),
  /** The buttons of a run: the reader's own, and a recording's. */
  verTraza: (/** @type {boolean} */ propia) => (propia ? "Ver tu traza" : "Ver la traza"),
  ocultarTraza: (/** @type {boolean} */ propia) => (propia ? "Ocultar tu traza" : "Ocultar la traza"),
  titulo: (/** @type {string} */ variante, /** @type {number} */ tarea, /** @type {number} */ semilla) => `${variante}: tarea ${tarea}, semilla ${semilla}`,
  deM: "La traza se rehace a partir de M, la conversación que devolvió el agente: se ven los " +
    "mensajes, no los ficheros.",
  sinM: "Esta ejecución se guardó sin su conversación (no cabía en el almacenamiento): no hay traza.",
};
