// A notice that asks the reader to choose: a sentence and its buttons (estilos/eleccion.css).
// Cells and challenges use it when another tab of the lesson saved other code for them
// (`OtraPestana`), and a cell when the lesson's code changed since the reader saved theirs.
import { boton, h } from "./dom.js";
import { COMUN } from "../lib/textos.js";

/** `<div class="bucle-eleccion clase" hidden><p>texto</p> buttons…</div>`; `opciones`: [texto, alPulsar]. */
export function eleccion(clase, texto, opciones) {
  return h("div", { class: `bucle-eleccion ${clase}`, hidden: true },
    h("p", { text: texto }),
    ...opciones.map(([rotulo, alPulsar]) => boton(rotulo, alPulsar)));
}

/**
 * Another tab saved other code for this widget: this tab keeps its own, and the reader chooses
 * «Usar la de la otra pestaña» (`alUsar(valor)`) or «Seguir con esta» (`alSeguir()`, which saves
 * this tab's); then the focus goes to `foco()`, the widget's main button.
 */
export class OtraPestana {
  constructor(clase, texto, { alUsar, alSeguir, foco }) {
    this.fuera = null;
    this.elemento = eleccion(clase, texto, [
      [COMUN.usarLaOtra, () => {
        const valor = this.retirar();
        if (valor != null) alUsar(valor);
        foco().focus();
      }],
      [COMUN.seguirConEsta, () => {
        this.retirar();
        alSeguir();
        foco().focus();
      }],
    ]);
  }

  /** The other tab holds `valor`: offer it, unless it is what this tab has (`igual`). */
  ofrecer(valor, igual) {
    this.fuera = igual ? null : valor;
    this.elemento.hidden = igual;
  }

  /** Hide the offer (the reader chose, or saved here); returns what it offered, or null. */
  retirar() {
    const valor = this.fuera;
    this.fuera = null;
    this.elemento.hidden = true;
    return valor;
  }
}
