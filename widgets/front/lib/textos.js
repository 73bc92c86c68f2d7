// @ts-check
// Every text the widgets show or announce to the reader, in Spanish, in one place: fixed strings
// and, where a number or a name goes in, small functions. No DOM. The accessible names that
// readers and tests rely on (/work/shared/DESIGN.md: Ejecutar, Comprobar, Tope, «Paso X de Y»…)
// are here too: changing one is changing the course's contract.
//
//   import { CELDA } from "./lib/textos.js";   CELDA.ejecutar → "Ejecutar"; CELDA.nombre(2) → "Celda 2"

const numero = (n) => n.toLocaleString("es-ES");
const plural = (n, uno, varios) => (n === 1 ? uno : `${numero(n)} ${varios}`);

/** «1», «1 y 2», «1, 2 y 3». */
export function enumerar(elementos) {
  const lista = elementos.map(String);
  if (lista.length <= 1) return lista.join("");
  return `${lista.slice(0, -1).join(", ")} y ${lista[lista.length - 1]}`;
}

/** «12 MB» for a download notice (decimal megabytes, as download sizes are usually given). */
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
  ayuda: (tecla, que) => `${tecla}+Intro ${que} · Esc y luego Tab sale del editor`,
};

export const CELDA = {
  nombre: (n) => `Celda ${n}`,
  modificada: "Modificada",
  ejecutar: "Ejecutar",
  ejecuta: "ejecuta",
  editor: (n) => `Código de la celda ${n}`,
  salida: (n) => `Salida de la celda ${n}`,
  cambio: "El código de esta celda ha cambiado en la lección desde que guardaste tu versión. " +
    "Estás viendo la tuya.",
  usarLaNueva: "Usar la versión nueva",
  seguirConLaMia: "Seguir con la mía",
  otraPestana: "Has guardado otra versión de esta celda en otra pestaña. Aquí sigue la de esta " +
    "pestaña; si la editas, sustituirá a la otra.",
  enEspera: "En espera: primero termina la celda que se está ejecutando.",
  canceladaEnEspera: "Cancelada antes de empezar.",
  /** Before a cell, the earlier ones it depends on run first. */
  anteriores: (ordenes) => (ordenes.length === 1
    ? `Antes se ejecuta la celda ${ordenes[0]}, de la que depende esta.`
    : `Antes se ejecutan las celdas ${enumerar(ordenes)}, de las que depende esta.`),
  sinSalida: "Ejecutada, sin salida.",
  salio: (codigo) => `La celda terminó al llamar a exit() o sys.exit()${codigo ? ` (código de salida ${codigo})` : ""}. ` +
    "Python sigue en marcha.",
  detenida: "Ejecución detenida.",
  perdido: "Python se ha reiniciado y ha perdido lo definido: las celdas anteriores se volverán a " +
    "ejecutar cuando ejecutes otra.",
  cancelada: "No se ha ejecutado: se detuvo antes una celda de la que depende.",
  noSePudo: (motivo) => `No se pudo ejecutar: ${motivo}.`,
  pila: "se desbordó la pila (¿una estructura demasiado anidada o una recursión muy profunda?)",
  /** The notice of a cut: what was left out of the output's start. */
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
  respondida: (pregunta, permitido) => `${pregunta} ${permitido ? "Permitido" : "Denegado"}`,
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
  vueltaInicial: (tecla) => (tecla
    ? `Has vuelto al código inicial (${tecla}+Z en el editor lo deshace).`
    : "Has vuelto al código inicial."),
  resultados: "Resultados de las pruebas",
  pista: "Pista",
  comprobando: "Comprobando…",
  probando: (nombre, n, total) => `Probando «${nombre}» (${n} de ${total})…`,
  detenidaPorElLector: "Comprobación detenida.",
  interrumpida: "La comprobación se interrumpió porque Python se reinició. Pulsa Comprobar otra vez.",
  noSePudo: (motivo) => `No se pudo comprobar: ${motivo}`,
  desconocido: "error desconocido",
  /** «8 de 12 pruebas superadas» («1 de 1 prueba superada»). */
  resumen: (superadas, total) => (total === 1
    ? `${superadas} de 1 prueba superada`
    : `${superadas} de ${total} pruebas superadas`),
  mejor: (resumen) => `Tu mejor resultado: ${resumen}.`,
  noCargo: "Tu código no se pudo cargar",
  noCargoEn: (linea) => ` Tu código no se pudo cargar${linea ? ` (línea ${linea})` : ""}.`,
  hayPista: " Tienes una pista debajo.",
  haySolucion: " Ya puedes ver la solución de referencia.",
  irALinea: (n) => `Ir a la línea ${n}`,
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
  turno: (n) => `Turno ${n}`,
  linea: (n) => `Línea ${n}`,
  /** When the page's Python broke during a check (a JavaScript stack overflow, say). */
  rota: {
    pila: "se desbordó la pila, como en un RecursionError: ¿una estructura anidada miles de veces, " +
      "o una función que se llama a sí misma sin fin?",
    pyodide: (motivo) => `error de Pyodide: ${motivo}`,
    mensaje: (que) => `rompió el Python de la página (${que}). Python se ha reiniciado.`,
    carga: (que) => `Tu código rompió el Python de la página al cargarse (${que}). Python se ha reiniciado.`,
    resto: (prueba) => `no se probó: «${prueba}» rompió el Python de la página`,
    sinCargar: "no se probó: tu código no terminó de cargarse",
  },
  /** Where the reader's run departs from the expected one (traza-pasos.js's `divergencia`). */
  iguales: "Tu ejecución da los mismos pasos que la esperada: lo que falla es lo que dice el " +
    "mensaje de la prueba.",
  difierenDesdeElPrimero: "Las dos ejecuciones difieren desde el primer paso",
  coincidenHasta: (n) => `Las dos ejecuciones coinciden hasta el paso ${n}`,
  mismoTexto: (coinciden, paso, texto) => `${coinciden}. En el ${paso} las dos dicen «${texto}», ` +
    "pero M o el entorno no son iguales: compáralos.",
  paso: (n) => `paso ${n}`,
  enLaTuya: (texto) => `en la tuya, ${texto}`,
  tuyaTerminada: "la tuya ya había terminado",
  enLaEsperada: (texto) => `en la esperada, ${texto}`,
  esperadaTerminada: "la esperada ya había terminado",
  divergen: (coinciden, paso, tuya, esperada) => `${coinciden}. En el ${paso}, ${tuya}; ${esperada}.`,
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
  turno: (n) => `Turno ${n}`,
  paso: (i, total) => `Paso ${i} de ${total}`,
  pasoYTurno: (i, total, turno) => `Paso ${i} de ${total}, turno ${turno}`,
  nuevoTope: (tope) => `Tope ${tope}. `,
  cuenta: (n) => `· ${n === 1 ? "1 mensaje" : `${n} mensajes`}`,
  noEsMensaje: "(no es un mensaje)",
  nuevo: "nuevo",
  loRecibe: "lo recibe",
  cambios: { nuevo: "nuevo", borrado: "borrado", cambia: "cambia" },
  sinModelo: "En este paso no se llama al modelo. Lo que ve se marca en los pasos en que el bucle lo llama.",
  recibe: (n, herramientas) => {
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
  mensajes: (n) => (n === 1 ? "1 mensaje" : `${n} mensajes`),
  llamaAlModelo: (mensajes, queja) => `El bucle llama al modelo con ${mensajes}.${queja ? " El modelo se queja." : ""}`,
  responde: (que) => `El modelo responde con ${que}`,
  entraEnM: (posicion) => `; la respuesta entra en M como M[${posicion}].`,
  noEntra: "; el bucle no la añade a M tal cual.",
  cambia: (rutas) => `cambia ${rutas.join(", ")}.`,
  noCambia: "el entorno no cambia.",
  seEjecuta: (quien, efecto) => `Se ejecuta ${quien}: ${efecto}`,
  falla: (quien, clase, efecto) => `Se ejecuta ${quien} y falla: ${clase}; ${efecto}`,
  error: (clase, mensaje) => `→ error ${clase}: ${mensaje}`,
  pregunta: (quien, pregunta, permitido) => `El arnés pregunta al usuario por ${quien}` +
    `${pregunta ? `: «${pregunta}»` : ""}. El usuario responde ${permitido ? "Permitir" : "Denegar"}: ` +
    (permitido ? "la llamada se ejecuta." : "la llamada no se ejecuta, y vuelve al modelo como un error."),
  preguntaFalla: (quien, pregunta, clase) => `El arnés pregunta al usuario por ${quien}` +
    `${pregunta ? `: «${pregunta}»` : ""}, y preguntar falla: ${clase}.`,
  respuesta: (permitido) => `→ ${permitido ? "Permitir" : "Denegar"}`,
  suObservacion: (linea) => `su observación: ${linea}`,
  trasElTurno: (turno) => (turno ? ` tras el turno ${turno}` : " sin llamar al modelo"),
  excepcion: (tras, clase, linea) => `El bucle se detiene${tras} con una excepción: ${clase}${linea ? ` (línea ${linea})` : ""}.`,
  cortada: (eventos) => `La traza se corta aquí: el bucle pasó de ${eventos} eventos.`,
  devuelveOtraCosa: (tras, valor) => `El bucle devuelve${tras} ${valor ?? "otra cosa"}, no (motivo, texto, M).`,
  porFin: " El modelo respondió sin llamadas.",
  porTope: (tope) => ` Se agotó el tope de ${tope === 1 ? "una llamada" : `${tope} llamadas`} al modelo.`,
  sinTexto: " No hay texto para el usuario.",
  devuelve: (motivo, texto, tras, porque, mensajes, usuario) =>
    `El bucle devuelve ("${motivo}", ${texto}, M)${tras}.${porque} M tiene ${mensajes}.${usuario}`,
  texto: (texto) => `texto: ${texto}`,
  noEsLista: "algo que no es una lista de bloques",
  textos: (n) => (n === 1 ? "un texto" : `${n} textos`),
  llamadas: (ids) => `${ids.length === 1 ? "una llamada" : `${ids.length} llamadas`} (${ids.join(", ")})`,
  listaVacia: "una lista vacía",
  sinLlamadas: ", sin llamadas",
  observaciones: (posicion, ids) => `Las observaciones entran en M: M[${posicion}], un mensaje del usuario con ` +
    `${ids.length === 1 ? "un resultado" : `${ids.length} resultados`} (${ids.join(", ")}).`,
  entran: (posiciones) => `Entran en M: ${posiciones.map((p) => `M[${p}]`).join(", ")}.`,
  mCambia: (mensajes, desde) => `M cambia: ahora tiene ${mensajes}${desde == null ? "." : `, distintos desde M[${desde}].`}`,
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
  fallo: (solucion) => `No. La respuesta era: ${solucion}.`,
  escribeNumero: "Escribe un número antes de comprobar.",
  eligeUna: "Elige una opción antes de comprobar.",
  noEsNumero: (texto) => `«${texto}» no es un número entero.`,
  sigue: "Pulsa Siguiente para continuar.",
  /** «Has acertado 9 de 10 predicciones». */
  resultado: (aciertos, total) => `Has acertado ${aciertos} de ${total} ${total === 1 ? "predicción" : "predicciones"}`,
  otraRonda: "Inicio empieza otra ronda.",
  nuevaRonda: "Nueva ronda de predicciones. ",
  /** On the course map: a lesson's best rounds. */
  mapa: (aciertos, total) => `${aciertos} de ${total} ${total === 1 ? "predicción acertada" : "predicciones acertadas"}`,
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
  noEsNumero: (texto) => `«${texto}» no es un número: escribe, por ejemplo, 13 o 2,5.`,
  puntuacion: (correctas, total) => `${correctas} de ${total} correctas`,
};

export const PROGRESO = {
  preguntas: (bien, total) => `${bien} de ${total} preguntas correctas`,
  sinIntentar: "desafío sin intentar",
  superado: "desafío superado",
  desafio: (superadas, total) => `desafío: ${superadas} de ${total} pruebas`,
  lectura: (minutos) => `${minutos} min de lectura`,
  completada: " · ✔ completada",
  exportar: "Exportar mi progreso",
  importar: "Importar progreso",
  exportado: "Progreso exportado.",
  importado: (n) => `Progreso importado (${n} datos). Recarga las lecciones abiertas para verlo.`,
  noImportado: (motivo) => `No se pudo importar: ${motivo}`,
  noEsDeEsteCurso: "El archivo no es un progreso exportado de este curso.",
};

export const ALMACEN = {
  noGuarda: "No se puede guardar tu progreso en este navegador (el almacenamiento está lleno o " +
    "desactivado). Todo funciona, pero lo que hagas se perderá al cerrar la página.",
};

/** Python starting: the notice, and why a start failed. */
export const PYTHON = {
  descarga: (total) => `La primera ejecución descarga el intérprete de Python (≈ ${megas(total)}); ` +
    "después queda en la caché del navegador.",
  barra: "Descarga del intérprete de Python",
  cifras: (cargado, total) => `${megas(cargado)} de ${megas(total)}`,
  preparando: "Preparando Python…",
  otraVez: "Volviendo a intentarlo: preparando Python…",
  reintentar: "Reintentar",
  fallo: (motivo) => `No se pudo iniciar Python: ${motivo}. Puede ser la conexión o un archivo del ` +
    "sitio; pulsa Reintentar para volver a intentarlo.",
  desconocido: "error desconocido",
  noDescargo: (url) => `no se pudo descargar ${url}`,
  noCargo: (url) => `no se pudo cargar ${url ?? "el programa que ejecuta Python"}`,
  http: (url, estado) => `no se pudo descargar ${url} (HTTP ${estado})`,
  defectuoso: (url, problema, bytes) => `el archivo ${url} ${problema} (${bytes} bytes)`,
  paginaWeb: "en su lugar llegó una página web",
  incompleto: "llegó incompleto",
  sinIniciar: "Python no se ha iniciado",
  desconocida: (type) => `mensaje desconocido: ${type}`,
  exterior: "El curso no sale de este sitio: no hay acceso a la red desde Python.",
};

/** The course without a connection (sin-conexion.js): saving it, and its updates. */
export const SIN_CONEXION = {
  guardando: (bytes, total) => `Guardando el curso para usarlo sin conexión… ` +
    `${Math.round(bytes / 1e6).toLocaleString("es-ES")} de ${megas(total)}`,
  noGuardar: "No guardar",
  guardado: (total) => `Curso guardado (${megas(total)}): en este navegador funciona también sin conexión.`,
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
  descargar: (bytes) => `Descargar el modelo (${megas(bytes)})`,
  cargarDescargado: "Cargar el modelo (ya descargado)",
  cancelar: "Cancelar",
  reintentar: "Reintentar",
  queEs: (nombre, licencia) => `Es ${nombre}, un modelo de lenguaje pequeño (licencia ${licencia}) ` +
    "que se ejecuta en este navegador: se descarga de este sitio y nada de lo que le pidas sale de " +
    "él. Después queda guardado en el navegador para la próxima vez.",
  barra: "Descarga del modelo",
  cifras: (bytes, total) => `${Math.round(bytes / 1e6).toLocaleString("es-ES")} de ${megas(total)}`,
  sinDescargar: "Modelo sin descargar.",
  yaDescargado: "El modelo ya está descargado en este navegador: se carga cuando una celda lo " +
    "necesite, o ahora con el botón.",
  descargando: "Descargando el modelo…",
  comprobando: "Comprobando el archivo descargado…",
  cargando: "Cargando el modelo en la memoria…",
  listo: "Modelo listo",
  cancelada: "Descarga cancelada: el modelo sigue sin descargar.",
  fallo: (motivo) => `No se pudo preparar el modelo: ${motivo}.`,
  http: (archivo, estado) => `el sitio no entregó ${archivo} (HTTP ${estado})`,
  red: (archivo) => `no se pudo descargar ${archivo}; puede ser la conexión`,
  distinto: (archivo) => `${archivo} no es el archivo que publicó el curso (su SHA-256 no coincide); ` +
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
  metodo: (metodo) => `Este punto del modelo del curso solo atiende peticiones POST, no ${metodo}.`,
  noJSON: "El cuerpo de la petición no es JSON válido.",
  fallo: (motivo) => `El modelo del curso ha fallado al responder: ${motivo}.`,
  // The reader's own server.
  titulo: "Tu propio servidor",
  explicacion: "Si tienes un servidor de modelos que habla el mismo protocolo (por ejemplo uno " +
    "local en http://localhost:11434), escribe su dirección: será la única dirección fuera de " +
    "este sitio a la que Python podrá enviar peticiones.",
  campo: "Dirección de tu servidor",
  usar: "Usar este servidor",
  confirmar: (origen) => `¿Enviar las peticiones de Python a ${origen}? Lo que mandes (los ` +
    "mensajes y las herramientas) saldrá de este sitio hacia esa dirección.",
  si: "Sí, usarlo",
  cancelar: "Cancelar",
  usando: (url) => `Python puede enviar peticiones a ${url}: en una celda, servidor_propio() ` +
    "devuelve esa dirección.",
  olvidar: "Dejar de usarlo",
  ninguno: "Ningún servidor propio: Python solo habla con este sitio.",
  vacia: "Escribe la dirección de tu servidor, por ejemplo http://localhost:11434.",
  invalida: (texto) => `«${texto}» no es una dirección web: escríbela completa, por ejemplo ` +
    "http://localhost:11434.",
  esquema: (esquema) => `La dirección debe empezar por http:// o https://, no por ${esquema}//.`,
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
  modeloNoVale: (texto) => `${texto.trim() ? `«${texto.trim()}» no es un nombre de Python: escribe` : "Escribe"} ` +
    "el nombre de un hacer_modelo(tarea, semilla) de tus celdas. No se ha ejecutado nada.",
  veces: "Ejecuciones por tarea",
  exportarCSV: "Exportar CSV",
  exportarJSON: "Exportar JSON",
  barra: "Progreso de la medida",
  preparando: "Preparando Python…",
  progreso: (i, n) => `Ejecución ${numero(i)} de ${numero(n)}`,
  quedan: (segundos) => (segundos < 1.5 ? "queda menos de un segundo"
    : segundos < 90 ? `quedan unos ${Math.round(segundos)} s` : `quedan unos ${Math.round(segundos / 60)} min`),
  vecesNoVale: (texto, maximo) => `${texto.trim() ? `«${texto}» no vale: las` : "Escribe las"} ` +
    `ejecuciones por tarea, un número entero de 1 a ${numero(maximo)}. No se ha ejecutado nada.`,
  falta: "Ejecuta antes la celda que define ",
  laCelda: (n) => ` (la celda ${n})`,
  ocupado: "Python está ejecutando otra cosa: espera a que termine (o detenla) y vuelve a pulsar Medir.",
  noSePudo: (motivo) => `No se pudo medir: ${motivo}`,
  completa: (n, segundos) => `Medida completa: ${plural(n, "1 ejecución", "ejecuciones")} en ` +
    `${segundos < 1 ? "menos de un segundo" : `${Math.round(segundos)} s`}.`,
  detenida: (n, total) => `Medida detenida: se conservan las ${numero(n)} ejecuciones terminadas de ${numero(total)}.`,
  reiniciado: " Python se ha reiniciado para detenerla, y lo que definieron las celdas se ha " +
    "perdido: vuelve a ejecutarlas antes de medir otra vez.",
  antesDeEmpezar: "Medida detenida antes de empezar: no se ha ejecutado nada.",
  calculando: "Calculando el resumen de las ejecuciones terminadas…",
  guardada: (n, total, fecha) => `Tu última medida (${fecha}): ${numero(n)} de ${numero(total)} ejecuciones.`,
  sinTrazas: " Sus conversaciones no caben en el almacenamiento del navegador: al recargar, la " +
    "tabla sigue, pero las trazas no.",
  soloResumen: " No cabía entera en el almacenamiento del navegador: se ha guardado su resumen, " +
    "sin las ejecuciones.",
  tuMedida: "Tu medida",
  grafico: "Tasas de éxito con sus intervalos de Wilson",
  ejecuciones: (n) => `Las ejecuciones (${numero(n)})`,
  grabadas: (n) => `Las ejecuciones de la medida grabada (${numero(n)})`,
  cargando: "Cargando las ejecuciones…",
  noCargo: (motivo) => `No se pudieron cargar las ejecuciones grabadas: ${motivo}.`,
  variante: "Variante",
  motivo: "Motivo",
  todas: "Todas",
  conMotivo: (motivo, n) => `${motivo} (${numero(n)})`,
  mostradas: (n, total) => `Se muestran ${numero(n)} de ${numero(total)}.`,
  ninguna: "Ninguna ejecución con este motivo.",
  mostrarMas: "Mostrar más",
  fila: (tarea, tipo, semilla) => `Tarea ${tarea}${tipo ? ` (${tipo})` : ""}, semilla ${semilla}`,
  turnos: (n) => plural(n, "1 turno", "turnos"),
  /** The buttons of a run: the reader's own, and a recording's. */
  verTraza: (propia) => (propia ? "Ver tu traza" : "Ver la traza"),
  ocultarTraza: (propia) => (propia ? "Ocultar tu traza" : "Ocultar la traza"),
  titulo: (variante, tarea, semilla) => `${variante}: tarea ${tarea}, semilla ${semilla}`,
  deM: "La traza se rehace a partir de M, la conversación que devolvió el agente: se ven los " +
    "mensajes, no los ficheros.",
  sinM: "Esta ejecución se guardó sin su conversación (no cabía en el almacenamiento): no hay traza.",
};
