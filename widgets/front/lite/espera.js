// Loaded first by every JupyterLite page of the site (copied as is, as bucle-espera.js, by
// widgets/construccion/jupyterlite.py),
// with two fixes for JupyterLite running inside the course.
//
// Under cross-origin isolation, JupyterLite's Pyodide kernel talks to its worker through
// coincident, which waits with Atomics.waitAsync and always reads `.value.then`. When the worker
// has already answered, waitAsync returns {async: false, value: "not-equal"}: the wait is over,
// but coincident throws "….value.then is not a function" on every run of a cell. Giving it the
// same answer as a settled promise keeps the meaning and removes the error.
(() => {
  const esperar = Atomics.waitAsync;
  if (typeof esperar !== "function") return;
  Atomics.waitAsync = function (...args) {
    const resultado = esperar.apply(this, args);
    return resultado.async ? resultado : { async: true, value: Promise.resolve(resultado.value) };
  };
})();

// Under the course's service worker (sin-conexion.js registers it for the whole site), a notebook
// page opened before JupyterLite's own worker exists is controlled by the course's. JupyterLite
// takes whatever worker controls its page for its own: it then unregisters every worker of the
// site (the course's too) and uses the course's registration as if it were its own, whose fetches
// do not serve the notebooks' files, so the kernel fails to start. It must see what it sees on a
// first visit, no controller: it then registers its own worker (scope lite/), which claims the
// page, and the course's stays registered for the lessons. Later, under its own worker, it
// unregisters "every" worker when its version changed: it is shown only the workers of lite/.
(() => {
  const trabajadores = navigator.serviceWorker;
  const leer = Object.getOwnPropertyDescriptor(globalThis.ServiceWorkerContainer?.prototype ?? {}, "controller")?.get;
  if (!trabajadores || !leer) return;
  const propio = new URL("service-worker.js", document.currentScript?.src ?? location.href).href;
  const esPropio = (c) => c.scriptURL.split("?")[0] === propio;
  const todos = trabajadores.getRegistrations.bind(trabajadores);
  const raizLite = new URL("./", propio).href;
  trabajadores.getRegistrations = async () => (await todos()).filter((r) => r.scope.startsWith(raizLite));
  const controlador = leer.call(trabajadores);
  if (!controlador || esPropio(controlador)) return;
  Object.defineProperty(trabajadores, "controller", {
    configurable: true,
    get() {
      const actual = leer.call(this);
      return actual && esPropio(actual) ? actual : null;
    },
  });
})();
