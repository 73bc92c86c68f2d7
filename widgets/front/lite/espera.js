// Loaded first by every JupyterLite page of the site (copied as is by widgets/jupyterlite.py).
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
