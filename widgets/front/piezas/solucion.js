// A challenge's reference solution, behind its button (desafio.js): «Ver la solución» asks
// first («¿Seguro?») unless the reader has passed the challenge, then shows the code and gives it
// the focus; the same button hides it again and takes the focus back.
//
//   .bucle-desafio-solucion     (hidden until the challenge offers it: desafio.js)
//     [Ver la solución]         aria-controls the code, aria-expanded
//     .bucle-desafio-confirmar  the question, [Sí, ver la solución] [Cancelar]
//     .bucle-desafio-referencia the code
import { boton, h } from "./dom.js";
import { DESAFIO } from "../lib/textos.js";

export class Solucion {
  /** `codigo`: the reference solution; `id`: its box's; `superado()`: whether the reader passed. */
  constructor({ codigo, id, superado }) {
    this.superado = superado;
    this.elemento = h("div", { class: "bucle-desafio-solucion", hidden: true });
    this.boton = boton(DESAFIO.verSolucion, () => this.pedir());
    this.confirmacion = h("div", { class: "bucle-desafio-confirmar", hidden: true });
    this.codigo = h("div", { class: "bucle-desafio-referencia", hidden: true, tabindex: "-1", id },
      h("p", { class: "bucle-desafio-rotulo", text: DESAFIO.referencia }),
      h("div", { class: "highlight" }, h("pre", { text: codigo })));
    this.boton.setAttribute("aria-controls", this.codigo.id);
    this.boton.setAttribute("aria-expanded", "false");
    this.elemento.append(this.boton, this.confirmacion, this.codigo);
  }

  pedir() {
    if (!this.codigo.hidden) {
      this.mostrar(false);
      return;
    }
    if (this.superado()) {
      this.mostrar(true);
      return;
    }
    const si = boton(DESAFIO.siVer, () => this.mostrar(true));
    const no = boton(DESAFIO.cancelar, () => {
      this.confirmacion.hidden = true;
      this.boton.focus();
    });
    this.confirmacion.replaceChildren(h("p", { text: DESAFIO.seguro }), si, no);
    this.confirmacion.hidden = false;
    si.focus();
  }

  mostrar(ver) {
    this.confirmacion.hidden = true;
    this.codigo.hidden = !ver;
    this.boton.textContent = ver ? DESAFIO.ocultarSolucion : DESAFIO.verSolucion;
    this.boton.setAttribute("aria-expanded", String(ver));
    if (ver) this.codigo.focus();
    else this.boton.focus();
  }
}
