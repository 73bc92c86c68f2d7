// The page's one notice about Python starting: on the first visit, the real progress and size of
// the download («La primera ejecución descarga el intérprete de Python (≈ 12 MB); después queda
// en la caché del navegador»); on later starts only «Preparando Python…». It is one element,
// shown inside the widget the reader last used (the first one until then), and gone when
// Python is ready. A start that fails (a file of Pyodide missing or cut short, the network
// gone) replaces it with the reason and a «Reintentar» button, whichever widget asked.
//
//   import { avisoDePython } from "./lib/aviso-python.js";
//   const aviso = avisoDePython(python);
//   aviso.colocar(elementoDelWidget);    // where it shows while Python starts
import { megas } from "./cuaderno.js";

let unico = null;

/** The reason of a failed start, in the reader's words where the browser's are English. */
export function motivoDe(mensaje) {
  const texto = String(mensaje ?? "error desconocido").trim().replace(/\.$/, "");
  const modulo = texto.match(/^Failed to fetch dynamically imported module: (\S+)$/);
  return modulo ? `no se pudo descargar ${modulo[1]}` : texto;
}

export function avisoDePython(python) {
  if (unico) return unico;

  const caja = document.createElement("div");
  caja.className = "bucle-aviso-python";
  caja.hidden = true;
  const frase = document.createElement("p");
  frase.setAttribute("role", "status");
  const barra = document.createElement("progress");
  barra.setAttribute("aria-label", "Descarga del intérprete de Python");
  barra.hidden = true;
  const cifras = document.createElement("span");
  cifras.className = "bucle-aviso-cifras";
  cifras.setAttribute("aria-hidden", "true");
  const reintentar = document.createElement("button");
  reintentar.type = "button";
  reintentar.className = "bucle-boton";
  reintentar.textContent = "Reintentar";
  reintentar.hidden = true;
  // (aria-disabled while a start is under way: a disabled button would lose the focus)
  reintentar.addEventListener("click", () => {
    if (reintentar.getAttribute("aria-disabled") !== "true") python.iniciar().catch(() => {});
  }); // a new failure comes back through "estado" below
  caja.append(frase, barra, cifras, reintentar);

  let sitio = null;
  const decir = (texto) => {
    if (frase.textContent !== texto) frase.textContent = texto;
    caja.hidden = false;
  };
  const fallo = (mensaje) => {
    barra.hidden = true;
    cifras.textContent = "";
    caja.style.minHeight = "";
    decir(`No se pudo iniciar Python: ${motivoDe(mensaje)}. Puede ser la conexión o un archivo ` +
      "del sitio; pulsa Reintentar para volver a intentarlo.");
    reintentar.hidden = false;
    reintentar.removeAttribute("aria-disabled");
  };

  python.addEventListener("progreso", ({ detail }) => {
    if (detail.fase === "descarga") {
      decir(
        `La primera ejecución descarga el intérprete de Python (≈ ${megas(detail.total)}); ` +
          "después queda en la caché del navegador.",
      );
      barra.hidden = false;
      barra.max = detail.total || 1;
      barra.value = Math.min(detail.cargado, barra.max);
      cifras.textContent = `${megas(detail.cargado)} de ${megas(detail.total)}`;
    } else if (detail.fase === "preparando") {
      barra.hidden = true;
      cifras.textContent = "";
      decir("Preparando Python…");
    }
  });
  python.addEventListener("estado", ({ detail }) => {
    if (detail === "arrancando") {
      if (caja.hidden) decir("Preparando Python…");
      else if (!reintentar.hidden) {
        // A new attempt after a failure (Reintentar, or any widget's button): the notice keeps
        // its size and its button (disabled), or the page would jump under the reader's pointer.
        caja.style.minHeight = `${caja.offsetHeight}px`;
        reintentar.setAttribute("aria-disabled", "true");
        decir("Volviendo a intentarlo: preparando Python…");
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
