// The live preview (python -m widgets servir): every page it serves loads this script, which
// asks the server for the build's number and reloads the page when a new build is done. When
// the last build had errors, the page says so at its top, with the build's own words.
const URL_VERSION = "/_vista/version";
let vista = null;

function aviso(texto) {
  let caja = document.getElementById("vista-previa-error");
  if (!texto) {
    caja?.remove();
    return;
  }
  if (!caja) {
    caja = document.createElement("pre");
    caja.id = "vista-previa-error";
    caja.setAttribute("role", "alert");
    caja.style.cssText = "position:fixed;top:0;left:0;right:0;z-index:9999;margin:0;padding:.75rem 1rem;"
      + "max-height:40vh;overflow:auto;background:#fff3f3;color:#8a1111;border-bottom:2px solid #8a1111;"
      + "font:13px/1.4 monospace;white-space:pre-wrap";
    document.body.append(caja);
  }
  caja.textContent = "La construcción tiene errores:\n\n" + texto;
}

async function mirar() {
  try {
    const respuesta = await fetch(URL_VERSION, { cache: "no-store" });
    const { version, error } = await respuesta.json();
    if (vista === null) vista = version;
    else if (version !== vista) {
      location.reload();
      return;
    }
    aviso(error);
  } catch {
    // the server is stopped or busy: ask again
  }
  setTimeout(mirar, 250);
}

mirar();
