// The start of wllama's worker as the site serves it (`_static/bucle/wllama-trabajador.js`,
// written by widgets/construccion/wllama.mjs: this, then the worker wllama would have made).
// Not a module of the bundle: plain code that runs first in that worker.
//
// wllama wrote its options into the worker's code; here they come in the URL's fragment, which
// the patched wllama writes (JSON). The wasm is asked for under the key modelo/motor.js kept the
// checked copy with in the model's cache ("bucle-modelo", modelo/archivos.js), and is answered
// from there; without that copy (storage refused), from the site.
const RUN_OPTIONS = JSON.parse(decodeURIComponent(self.location.hash.slice(1)));
{
  const delSitio = self.fetch.bind(self);
  const wasm = RUN_OPTIONS.pathConfig["wllama.wasm"];
  self.fetch = async (recurso, opciones) => {
    if (String(recurso) === wasm && self.caches) {
      const guardada = await caches.open("bucle-modelo").then((c) => c.match(wasm)).catch(() => null);
      if (guardada) return guardada;
    }
    return delSitio(recurso, opciones);
  };
}
