// A cell's output region (celda.js): a polite status that reads as a terminal's transcript.
//
//   <div class="bucle-celda-salida" role="status" aria-live="polite" aria-label="Salida de la celda N">
//     p.bucle-celda-nota    what happens first («Antes se ejecutan las celdas…», waiting in line)
//     p.bucle-celda-corte   how much a flood left out (lib/salida.js)
//     pre.bucle-celda-texto stdout, stderr and the reader's answers, as text, never HTML
//     [the question Python waits on, while it waits: piezas/espera.js]
//     p.bucle-celda-fin     how the run ended
//   </div>
//
// While the cell's Python waits for the reader (a permission, input()), the question sits after
// what the cell printed; once answered it becomes a line of the output («¿Permites …? Denegado»,
// or the prompt and the line typed). The output is painted at most once per frame while it
// streams in, and follows its end unless the reader scrolled up.
import { h } from "./dom.js";
import { preguntaEnLaSalida } from "./espera.js";
import { Salida, textoOmitido } from "../lib/salida.js";
import { CELDA, ESPERA } from "../lib/textos.js";

export class SalidaDeCelda {
  /** `n`: the cell's number; `foco()`: where the focus goes when a question it held goes. */
  constructor(n, { foco }) {
    this.foco = foco;
    this.salida = new Salida();
    this.pregunta = null; // the question Python is waiting on (piezas/espera.js)
    this.nota = h("p", { class: "bucle-celda-nota" });
    this.corte = h("p", { class: "bucle-celda-corte" });
    this.texto = h("pre", { class: "bucle-celda-texto" });
    this.fin = h("p", { class: "bucle-celda-fin" });
    this.region = h("div", {
      class: "bucle-celda-salida bucle-vacia", role: "status", "aria-live": "polite",
      "aria-atomic": "false", "aria-label": CELDA.salida(n), tabindex: "-1",
    }, this.nota, this.corte, this.texto, this.fin);
  }

  /** Whether the run printed anything. */
  get huboSalida() {
    return this.salida.segmentos.length > 0;
  }

  /** What Python printed (`omitidas`: what the worker left out), painted by the next frame. */
  añadir(flujo, texto, omitidas) {
    this.salida.añadir(flujo, texto, omitidas);
    this.pintarPronto();
  }

  limpiar() {
    this.mostrarNota("");
    this.limpiarSalida();
  }

  limpiarSalida() {
    this.quitarPregunta();
    this.salida.vaciar();
    this.fin.textContent = "";
    this.pintar();
  }

  mostrarNota(texto) {
    this.nota.textContent = texto;
    this.actualizarVacia();
  }

  mostrarFin(texto) {
    this.fin.textContent = texto;
    this.actualizarVacia();
  }

  pintarPronto() {
    if (this.pintado) return;
    this.pintado = requestAnimationFrame(() => this.pintar());
  }

  /** Show what the output holds (at most once per frame while output streams in). */
  pintar() {
    cancelAnimationFrame(this.pintado);
    this.pintado = null;
    const { texto } = this;
    const alFinal = texto.scrollHeight - texto.scrollTop - texto.clientHeight < 24;
    this.salida.recortar();
    this.corte.textContent = textoOmitido(this.salida.omitidas);
    texto.replaceChildren(...this.salida.segmentos.map(({ flujo, texto: t }) => {
      const clase = { stderr: "bucle-stderr", entrada: "bucle-entrada" }[flujo] ?? "";
      return h("span", { class: clase, text: t }); // text, never HTML
    }));
    this.actualizarVacia();
    if (alFinal) texto.scrollTop = texto.scrollHeight; // follow the output unless scrolled up
    // A region that scrolls must be reachable by keyboard.
    if (texto.scrollHeight > texto.clientHeight) texto.tabIndex = 0;
    else texto.removeAttribute("tabindex");
  }

  actualizarVacia() {
    const vacia = !this.nota.textContent && !this.corte.textContent && !this.fin.textContent &&
      !this.salida.segmentos.length && !this.pregunta;
    this.region.classList.toggle("bucle-vacia", vacia);
    this.texto.hidden = !this.salida.segmentos.length;
  }

  // ---- a question Python waits on ----

  /** Show `pregunta` ({tipo, pregunta, detalle}) after the output; the answer goes to `responder`. */
  preguntar(pregunta, responder) {
    this.quitarPregunta();
    this.pintar(); // what the cell printed before the question, now
    const ui = preguntaEnLaSalida(pregunta, (texto) => {
      const teniaFoco = ui.contains(document.activeElement);
      this.quitarPregunta();
      if (!responder(texto)) return; // stopped meanwhile: no answer to record
      this.salida.añadir("entrada", this.registro(pregunta, texto));
      this.pintar();
      // The focus stays in the output (the next question, if any, takes it from there).
      if (teniaFoco) this.region.focus({ preventScroll: true });
    });
    this.pregunta = ui;
    this.texto.after(ui);
    this.actualizarVacia();
    ui.enfocar();
  }

  /** The line the answer leaves in the output, as a terminal would show it. */
  registro({ tipo, pregunta }, texto) {
    if (tipo === "entrada") return `${pregunta}${texto}\n`;
    const ultimo = this.salida.segmentos[this.salida.segmentos.length - 1];
    const nueva = ultimo && !ultimo.texto.endsWith("\n") ? "\n" : "";
    return `${nueva}${ESPERA.respondida(pregunta, texto === "permitir")}\n`;
  }

  quitarPregunta() {
    if (!this.pregunta) return;
    const teniaFoco = this.pregunta.contains(document.activeElement);
    this.pregunta.remove();
    this.pregunta = null;
    if (teniaFoco) this.foco().focus();
  }
}
