// The reader's storage (lib/almacen.js) with the page's one notice when it cannot keep anything:
// widgets import storage from here, so that the notice is there before their first read.
import { cuandoFalle } from "../lib/almacen.js";
import { ALMACEN } from "../lib/textos.js";
import { h } from "./dom.js";

export * from "../lib/almacen.js";

cuandoFalle(() => {
  if (typeof document === "undefined") return;
  const aviso = h("p", { class: "bucle-aviso-almacen", role: "status", text: ALMACEN.noGuarda });
  (document.querySelector("article") ?? document.body).prepend(aviso);
});
