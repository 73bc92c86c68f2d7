// The course without a connection, on every page: registers the service worker (servicio/sw.js,
// written at the site's root by the build) once the page is idle, and shows what it does in one
// quiet note at the bottom of the page:
//
// - the first time, while it saves the course: «Guardando el curso para usarlo sin conexión…
//   8 de 12 MB» with «No guardar» (the reader's no is kept in localStorage["bucle:sin-conexion"]
//   = "no": the worker is unregistered, what it saved is deleted, and it is not asked again);
// - when a new build has been saved next to the running one: «Hay una versión nueva del curso»
//   with «Actualizar» (the new worker takes over and the page reloads; the reader's work is in
//   localStorage, which the update does not touch).
//
// Registration waits while the page's Python starts (both download Pyodide), and a page with no
// service worker support, or that is not a secure context, simply works online as before.
// Offline, the «Abrir en JupyterLite» link says that JupyterLite needs a connection.
import { cuandoEsteOciosa, boton, h } from "./piezas/dom.js";
import { python } from "./python.js";
import { SIN_CONEXION } from "./lib/textos.js";

const RAIZ = new URL("../../", import.meta.url).href; // this module is <raíz>/_static/bucle/
const SCRIPT = new URL("sw.js", RAIZ).href;
const CLAVE = "bucle:sin-conexion";
const CACHE = "workbox-precache-v2-" + RAIZ; // Workbox's name for this scope's precache

function rechazado() {
  try {
    return localStorage.getItem(CLAVE) === "no";
  } catch {
    return false;
  }
}

/** The one note of this module (made the first time it has something to say). */
const nota = {
  el: null,
  mostrar(texto, ...botones) {
    if (!this.el) {
      this.texto = h("span", { class: "bucle-sin-conexion-texto" });
      this.botones = h("span", { class: "bucle-sin-conexion-botones" });
      this.el = h("div", { class: "bucle-sin-conexion", role: "status" }, this.texto, this.botones);
      document.body.append(this.el);
    }
    clearTimeout(this.temporizador);
    this.el.hidden = false;
    this.texto.textContent = texto;
    // The same buttons stay in place: a button replaced between a press and its release gets no
    // click (the progress of the saving comes several times a second, «No guardar» with it).
    const actuales = [...this.botones.children];
    if (botones.length !== actuales.length || botones.some((b, i) => b !== actuales[i])) {
      this.botones.replaceChildren(...botones);
    }
  },
  ocultarEn(ms) {
    clearTimeout(this.temporizador);
    this.temporizador = setTimeout(() => this.ocultar(), ms);
  },
  ocultar() {
    if (this.el) this.el.hidden = true;
  },
};

const cerrar = () => boton(SIN_CONEXION.cerrar, () => nota.ocultar());

/** Unregister this site's worker and delete what it saved. */
async function olvidar() {
  for (const registro of await navigator.serviceWorker.getRegistrations()) {
    if (registro.scope !== RAIZ) continue;
    registro.installing?.postMessage({ type: "CANCELAR" });
    await registro.unregister();
  }
  await caches?.delete(CACHE).catch(() => {});
}

let dijoQueNo = false; // this page's reader said no (the worker may still send progress meanwhile)

async function noGuardar() {
  dijoQueNo = true;
  try {
    localStorage.setItem(CLAVE, "no");
  } catch {
    /* storage off: the worker is unregistered all the same */
  }
  nota.mostrar(SIN_CONEXION.rechazado, cerrar());
  nota.ocultarEn(6000);
  await olvidar().catch(() => {});
}

let botonNoGuardar = null; // one for every progress message (see nota.mostrar)

function alMensaje({ data }) {
  if (dijoQueNo) return;
  if (data?.tipo === "bucle:guardando") {
    botonNoGuardar ??= boton(SIN_CONEXION.noGuardar, noGuardar);
    nota.mostrar(SIN_CONEXION.guardando(data.bytes, data.bytesTotal), botonNoGuardar);
  } else if (data?.tipo === "bucle:guardado") {
    nota.mostrar(SIN_CONEXION.guardado(data.bytesTotal), cerrar());
    nota.ocultarEn(8000);
    document.documentElement.dataset.bucleSinConexion = "guardado";
  } else if (data?.tipo === "bucle:no-guardado" && !data.cancelado) {
    nota.mostrar(SIN_CONEXION.fallo, cerrar());
  }
}

/** Resolves once the page's Python is not starting (it downloads Pyodide meanwhile). */
function pythonQuieto() {
  return new Promise((resolve) => {
    const mirar = () => {
      if (python.estado === "arrancando") return;
      python.removeEventListener("estado", mirar);
      resolve();
    };
    python.addEventListener("estado", mirar);
    mirar();
  });
}

async function registrar() {
  if (rechazado()) {
    await olvidar(); // a worker registered before the reader said no
    return;
  }
  const primeraVez = !navigator.serviceWorker.controller;
  navigator.serviceWorker.addEventListener("message", (evento) => {
    if (primeraVez) alMensaje(evento);
  });
  const { Workbox } = await import("workbox-window");
  const wb = new Workbox(SCRIPT, { scope: RAIZ });
  wb.addEventListener("waiting", () => {
    nota.mostrar(SIN_CONEXION.nueva, boton(SIN_CONEXION.actualizar, () => {
      wb.addEventListener("controlling", () => location.reload());
      wb.messageSkipWaiting();
    }, "bucle-sin-conexion-actualizar"));
  });
  await wb.register({ immediate: true });
}

function avisarLiteSinConexion(evento) {
  const enlace = evento.target.closest?.("a.bucle-jupyterlite-enlace");
  if (!enlace || navigator.onLine) return;
  evento.preventDefault();
  const sitio = enlace.parentElement;
  let aviso = sitio.querySelector(".bucle-jupyterlite-sin-conexion");
  if (!aviso) {
    aviso = h("span", { class: "bucle-jupyterlite-sin-conexion", role: "status" });
    sitio.append(aviso);
  }
  aviso.textContent = SIN_CONEXION.lite;
}

document.addEventListener("click", avisarLiteSinConexion);
if ("serviceWorker" in navigator && globalThis.isSecureContext) {
  const empezar = () => cuandoEsteOciosa(() => setTimeout(async () => {
    await pythonQuieto();
    registrar().catch(() => {
      /* blocked (a browser setting, private mode): the course works online as before */
    });
  }, 1000));
  if (document.readyState === "complete") empezar();
  else addEventListener("load", empezar, { once: true });
}
