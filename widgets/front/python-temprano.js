// Python's worker, made while the page is still loading, when Python has started in this browser
// before: Pyodide's files (and its memory snapshot) are then in the browser's caches, so the
// worker takes nothing from the network that the page waits for, and on a second core it
// evaluates Pyodide's JavaScript and reads its caches while the page is parsed and laid out.
// Otherwise (a first visit) Python starts as before, once the page is idle or at the first
// click in a cell, so that its download never delays the reading.
//
// A module script of its own, `async`, first in the head of a page with cells or a challenge
// (widgets/construccion/recursos.py); it imports nothing, so it runs as soon as it arrives, which may be
// before or after python.js has run. python.js takes the worker (tomarTrabajadorTemprano) and
// starts Python with it at once: when it runs, if the worker is there, or else at the event
// below. A global already taken (null: python.js started Python some other way) means no worker
// is made here. The two share, by name only: the localStorage key below, which python.js writes
// after a start that worked, the global where the worker waits, the event, and the worker's
// URL (with "#servicio" where the course's service worker controls the page: see python.js).
const VISTO = "bucle:python-visto";
const TRABAJADOR = Symbol.for("bucle:trabajador-temprano");

function yaArranco() {
  try {
    return localStorage.getItem(VISTO) === "1";
  } catch {
    return false;
  }
}

if (yaArranco() && globalThis[TRABAJADOR] === undefined) {
  const direccion = new URL("./trabajador.js", import.meta.url);
  const archivo = direccion.href; // named when it cannot be loaded
  if (navigator.serviceWorker?.controller) direccion.hash = "servicio";
  const trabajador = new Worker(direccion, { type: "module", name: "python" });
  trabajador.direccion = archivo;
  // An error before python.js listens (the script cannot be loaded) is kept for it.
  trabajador.addEventListener("error", (evento) => { trabajador.errorTemprano ??= evento; });
  globalThis[TRABAJADOR] = trabajador;
  globalThis.dispatchEvent(new Event("bucle:trabajador-temprano"));
}
