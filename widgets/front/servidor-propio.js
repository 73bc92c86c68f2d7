// <bucle-servidor-propio>: where the reader types the address of their own model server and
// confirms it (modelo/servidor.js's montarServidorPropio); the one address off the site the
// page's Python may then reach, as trabajador.servidor_propio().
import { montarServidorPropio } from "./modelo/servidor.js";

class BucleServidorPropio extends HTMLElement {
  connectedCallback() {
    if (this.listo) return;
    this.listo = true;
    this.querySelector("p")?.remove();
    montarServidorPropio(this);
  }
}

if (!customElements.get("bucle-servidor-propio")) customElements.define("bucle-servidor-propio", BucleServidorPropio);
