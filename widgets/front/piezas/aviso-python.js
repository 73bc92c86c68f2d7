// The page's one notice about Python starting: on the first visit, the real progress and size of
// the download («La primera ejecución descarga el intérprete de Python (≈ 12 MB); después queda
// en la caché del navegador»); on later starts only «Preparando Python…». It is one element,
// shown inside the widget the reader last used (the first one until then), and gone when
// Python is ready. A start that fails (a file of Pyodide missing or cut short, the network
// gone) replaces it with the reason and a «Reintentar» button, whichever widget asked.
//
//   import { avisoDePython } from "./piezas/aviso-python.js";
//   const aviso = avisoDePython(python);
//   aviso.colocar(elementoDelWidget);    // where it shows while Python starts
import { PYTHON } from "../lib/textos.js";
import { boton, h } from "./dom.js";

let unico = null;

/** The reason of a failed start, in the reader's words where the browser's are English. */
export function motivoDe(mensaje) {
  const texto = String(mensaje ?? PYTHON.desconocido).trim().replace(/\.$/, "");
  const modulo = texto.match(/^Failed to fetch dynamically imported module: (\S+)$/);
  return modulo ? PYTHON.noDescargo(modulo[1]) : texto;
}

export function avisoDePython(python) {
  if (unico) return unico;

  const frase = h("p", { role: "status" });
  const barra = h("progress", { "aria-label": PYTHON.barra, hidden: true });
  const cifras = h("span", { class: "bucle-aviso-cifras", "aria-hidden": "true" });
  // (aria-disabled while a start is under way: a disabled button would lose the focus)
  const reintentar = boton(PYTHON.reintentar, () => {
    if (reintentar.getAttribute("aria-disabled") !== "true") python.iniciar().catch(() => {});
  }); // a new failure comes back through "estado" below
  reintentar.hidden = true;
  const caja = h("div", { class: "bucle-aviso-python", hidden: true }, frase, barra, cifras, reintentar);

  let sitio = null;
  const decir = (texto) => {
    if (frase.textContent !== texto) frase.textContent = texto;
    caja.hidden = false;
  };
  const fallo = (mensaje) => {
    barra.hidden = true;
    cifras.textContent = "";
    caja.style.minHeight = "";
    decir(PYTHON.fallo(motivoDe(mensaje)));
    reintentar.hidden = false;
    reintentar.removeAttribute("aria-disabled");
  };

  python.addEventListener("progreso", ({ detail }) => {
    if (detail.fase === "descarga") {
      decir(PYTHON.descarga(detail.total));
      barra.hidden = false;
      barra.max = detail.total || 1;
      barra.value = Math.min(detail.cargado, barra.max);
      cifras.textContent = PYTHON.cifras(detail.cargado, detail.total);
    } else if (detail.fase === "preparando") {
      barra.hidden = true;
      cifras.textContent = "";
      decir(PYTHON.preparando);
    }
  });
  python.addEventListener("estado", ({ detail }) => {
    if (detail === "arrancando") {
      if (caja.hidden) decir(PYTHON.preparando);
      else if (!reintentar.hidden) {
        // A new attempt after a failure (Reintentar, or any widget's button): the notice keeps
        // its size and its button (disabled), or the page would jump under the reader's pointer.
        caja.style.minHeight = `${caja.offsetHeight}px`;
        reintentar.setAttribute("aria-disabled", "true");
        decir(PYTHON.otraVez);
      }
      // python.iniciar() sets the start's promise just after saying "arrancando".
      queueMicrotask(() => python.arranque?.catch((error) => fallo(error?.message ?? error)));
    }
    if (detail === "listo" || detail === "ocupado") {
      // The notice goes: a focused Reintentar hands the focus to its widget's main button.
      if (document.activeElement === reintentar) {
        sitio?.querySelector(".bucle-celda-ejecutar, .bucle-desafio-comprobar")?.focus();
      }
      reintentar.hidden = true;
      reintentar.removeAttribute("aria-disabled");
      caja.style.minHeight = "";
      caja.hidden = true;
      barra.hidden = true;
      cifras.textContent = "";
    }
  });

  unico = {
    elemento: caja,
    /** Show the notice in `lugar` (a widget), just before its element `antes` if given. */
    colocar(lugar, antes = null) {
      if (sitio === lugar && caja.isConnected) return;
      sitio = lugar;
      lugar.insertBefore(caja, antes);
    },
    /** A start that failed: say so where the notice is, with «Reintentar». */
    fallo,
  };
  return unico;
}
