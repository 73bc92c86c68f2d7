// The page's one notice about Python starting: on the first visit, the real progress and size of
// the download («La primera ejecución descarga el intérprete de Python (≈ 12 MB); después queda
// en la caché del navegador»); on later starts only «Preparando Python…». It is one element,
// shown inside the widget the reader last used (the first one until then), and gone when
// Python is ready.
//
//   import { avisoDePython } from "./lib/aviso-python.js";
//   const aviso = avisoDePython(python);
//   aviso.colocar(elementoDelWidget);    // where it shows while Python starts
import { megas } from "./cuaderno.js";

let unico = null;

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
  caja.append(frase, barra, cifras);

  let sitio = null;
  const decir = (texto) => {
    if (frase.textContent !== texto) frase.textContent = texto;
    caja.hidden = false;
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
    if (detail === "arrancando" && caja.hidden) decir("Preparando Python…");
    if (detail === "listo" || detail === "ocupado") {
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
    /** A start that failed: say so where the notice is. */
    fallo(mensaje) {
      barra.hidden = true;
      cifras.textContent = "";
      decir(`No se pudo iniciar Python: ${mensaje}. Se volverá a intentar al ejecutar.`);
    },
  };
  return unico;
}
