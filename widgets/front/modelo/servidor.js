// @ts-check
// The page's side of the course's model endpoint, `<raíz>/modelo/v1/messages`, which the course's
// service worker answers (servicio/sw.js): Python in the page's worker sends a real HTTP POST
// there (urllib.request through pyodide-http: a synchronous XHR, so only the worker waits), the
// service worker hands the request to the page that serves the model, and sends back its answer.
//
//   import { servirModelo } from "./modelo/servidor.js";
//   const servicio = servirModelo((peticion, { senal }) => responder(peticion, generar));
//   …  servicio.dejar();   // this page no longer serves
//
// `atender(peticion, {senal})` gets the request's parsed JSON body and resolves with
// {estado, cuerpo} (the HTTP status and the JSON the endpoint answers). Detener (python.js's
// "deteniendo") aborts `senal` of every request being answered, and each is answered at once
// with 499 and a protocol error «detenido», so that Python's wait ends and its KeyboardInterrupt
// stops the cell. An `atender` that throws is a 500 with the reason.
//
// Also here, the control of the reader's own server (`montarServidorPropio(contenedor)`): the
// reader types an address, presses **Usar este servidor** and confirms it; from then on the
// worker's guard lets that one origin through and trabajador.py's servidor_propio() returns
// its messages endpoint (lib/servidor-propio.js). Kept in this browser until **Dejar de usarlo**.

import { python } from "../python.js";
import { boton, h } from "../piezas/dom.js";
import { PUENTE } from "../lib/textos.js";
import { direccionPropia, guardarPropia } from "../lib/servidor-propio.js";

const servicio = globalThis.navigator?.serviceWorker ?? null;
/**
 * @typedef {(peticion: unknown, opciones: { senal: AbortSignal })
 *   => Promise<{ estado: number, cuerpo: unknown }>} Atender
 */
/** @type {Atender | null} */
let atenderActual = null;
let escuchando = false;
/** @type {Set<AbortController>} */
const enCurso = new Set(); // AbortControllers of the requests being answered

/**
 * @param {number} estado
 * @param {string} tipo
 * @param {string} mensaje
 */
function errorDelProtocolo(estado, tipo, mensaje) {
  return { estado, cuerpo: { type: "error", error: { type: tipo, message: mensaje } } };
}

/**
 * Tell the service worker (the active one, controlling this page or not) `mensaje`.
 * @param {object} mensaje
 */
function decirAlServicio(mensaje) {
  servicio?.ready.then((registro) => registro.active?.postMessage(mensaje)).catch(() => {});
}

const anunciar = () => {
  if (atenderActual) decirAlServicio({ tipo: "bucle:modelo:sirvo" });
};

/** @param {AbortSignal} senal */
function detenida(senal) {
  return new Promise((resolve) => {
    const acabar = () => resolve(errorDelProtocolo(499, "cancelled", PUENTE.detenido));
    if (senal.aborted) acabar();
    else senal.addEventListener("abort", acabar, { once: true });
  });
}

/** @param {unknown} peticion */
async function responderA(peticion) {
  const atender = atenderActual;
  if (!atender) return errorDelProtocolo(503, "api_error", PUENTE.sinModelo);
  const control = new AbortController();
  enCurso.add(control);
  try {
    const atendida = Promise.resolve().then(() => atender(peticion, { senal: control.signal }));
    const respuesta = await Promise.race([atendida, detenida(control.signal)]);
    if (!respuesta || !Number.isInteger(respuesta.estado)) {
      return errorDelProtocolo(500, "api_error", PUENTE.fallo("la respuesta no tiene estado"));
    }
    return { estado: respuesta.estado, cuerpo: respuesta.cuerpo ?? null };
  } catch (error) {
    if (control.signal.aborted) return errorDelProtocolo(499, "cancelled", PUENTE.detenido);
    return errorDelProtocolo(500, "api_error", PUENTE.fallo(String(error?.message ?? error)));
  } finally {
    enCurso.delete(control);
  }
}

/** @param {MessageEvent} evento */
async function alMensaje(evento) {
  const { data } = evento;
  if (data?.tipo === "bucle:modelo:quien") {
    anunciar();
    return;
  }
  if (data?.tipo !== "bucle:modelo:peticion" || !evento.ports?.[0]) return;
  const puerto = evento.ports[0];
  const respuesta = await responderA(data.peticion);
  try {
    puerto.postMessage(respuesta);
  } catch {
    // a body that cannot be cloned: said as the server's failure
    puerto.postMessage(errorDelProtocolo(500, "api_error", PUENTE.fallo("la respuesta no se puede enviar")));
  }
  puerto.close();
}

/** Abort every request this page is answering (Detener). */
export function detenerPeticiones() {
  for (const control of enCurso) control.abort();
}

/**
 * Serve the course's model from this page: `atender(peticion, {senal})` → Promise<{estado,
 * cuerpo}>. The latest call's `atender` is the one used. Returns {dejar()}.
 * @param {Atender} atender
 */
export function servirModelo(atender) {
  atenderActual = atender;
  if (servicio && !escuchando) {
    escuchando = true;
    servicio.addEventListener("message", alMensaje);
    servicio.startMessages?.();
    // A new service worker (an update, or the first one claiming the page) knows nobody yet.
    servicio.addEventListener("controllerchange", anunciar);
    python.addEventListener("deteniendo", detenerPeticiones);
  }
  anunciar();
  python.ajustarSitio({ sirve: true }); // the worker makes ready what a request needs, when idle
  return {
    dejar() {
      if (atenderActual !== atender) return;
      atenderActual = null;
      python.ajustarSitio({ sirve: false });
      decirAlServicio({ tipo: "bucle:modelo:ya-no" });
    },
  };
}

/**
 * The control of the reader's own server, put in `contenedor`: an address field, **Usar este
 * servidor**, a confirmation, then the address in use with **Dejar de usarlo**.
 * @param {HTMLElement} contenedor
 */
export function montarServidorPropio(contenedor) {
  const idCampo = `bucle-servidor-propio-${Math.random().toString(36).slice(2, 8)}`;
  const campo = h("input", { id: idCampo, type: "url", class: "bucle-servidor-propio-campo",
    placeholder: "http://localhost:11434", autocomplete: "off", spellcheck: "false" });
  const aviso = h("p", { class: "bucle-servidor-propio-aviso", role: "status" });
  const acciones = h("div", { class: "bucle-servidor-propio-acciones" });
  const raiz = h("section", { class: "bucle-servidor-propio", "aria-labelledby": `${idCampo}-titulo` },
    h("h3", { id: `${idCampo}-titulo`, text: PUENTE.titulo }),
    h("p", { text: PUENTE.explicacion }),
    h("label", { for: idCampo, text: PUENTE.campo }),
    campo, acciones, aviso);

  const mostrar = () => {
    const propio = python.sitio.propio;
    campo.disabled = Boolean(propio);
    if (propio) {
      campo.value = propio.url.replace(/\/v1\/messages$/, "");
      aviso.textContent = PUENTE.usando(propio.url);
      acciones.replaceChildren(boton(PUENTE.olvidar, () => {
        guardarPropia(null);
        python.ajustarSitio({ propio: null });
        mostrar();
        campo.focus();
      }));
    } else {
      aviso.textContent = PUENTE.ninguno;
      acciones.replaceChildren(boton(PUENTE.usar, pedir));
    }
  };

  const pedir = () => {
    let direccion;
    try {
      direccion = direccionPropia(campo.value, globalThis.location?.origin ?? null);
    } catch (error) {
      aviso.textContent = error.message;
      campo.focus();
      return;
    }
    aviso.textContent = PUENTE.confirmar(direccion.origen);
    const si = boton(PUENTE.si, () => {
      guardarPropia(direccion);
      python.ajustarSitio({ propio: direccion });
      mostrar();
    });
    acciones.replaceChildren(si, boton(PUENTE.cancelar, () => {
      mostrar();
      campo.focus();
    }));
    si.focus();
  };

  campo.addEventListener("keydown", (/** @type {KeyboardEvent} */ evento) => {
    if (evento.key === "Enter" && !python.sitio.propio) pedir();
  });
  mostrar();
  contenedor.append(raiz);
  return raiz;
}
