// The question of predict mode inside a trace (traza.js): a fieldset whose legend is the
// statement, a native number field or radio buttons, «Comprobar»; once answered, the mark
// (✔/✘, and words) and the sentence of why. It looks like the page's questions (their classes in
// estilos/pregunta.css) and is scored like them (lib/puntuar.js, through lib/predice.js).
//
//   const p = new Prediccion(prefijo, { alResponder(k, acierta, veredicto), avisar(texto) });
//   p.preguntar(pregunta, k);   // shown, with the focus on its first control
//   p.ocultar();
import { boton, h } from "./dom.js";
import { comprobar, veredicto } from "../lib/predice.js";
import { PREDICE } from "../lib/textos.js";

export class Prediccion {
  constructor(prefijo, { alResponder, avisar }) {
    this.prefijo = prefijo;
    this.alResponder = alResponder;
    this.avisar = avisar;
    this.elemento = h("div", { class: "bucle-predice", hidden: true });
  }

  get visible() {
    return !this.elemento.hidden;
  }

  ocultar() {
    this.elemento.hidden = true;
    this.elemento.replaceChildren();
    this.pregunta = null;
  }

  preguntar(pregunta, k) {
    this.pregunta = pregunta;
    this.k = k;
    const id = `${this.prefijo}-predice-${k}`;
    const campo = h("fieldset", { class: "bucle-pregunta-campo bucle-predice-campo" },
      h("legend", { class: "bucle-predice-enunciado" },
        h("span", { class: "bucle-predice-etiqueta", text: PREDICE.titulo }), " ", pregunta.enunciado));
    if (pregunta.tipo === "numero") {
      const entrada = h("input", {
        type: "number", id: `${id}-numero`, min: 0, step: 1, inputmode: "numeric", autocomplete: "off",
      });
      entrada.addEventListener("keydown", (evento) => {
        if (evento.key !== "Enter") return;
        evento.preventDefault();
        this.comprobar();
      });
      this.entradas = [entrada];
      campo.append(h("div", { class: "bucle-pregunta-numero" },
        h("label", { for: entrada.id, text: PREDICE.tuPrediccion }), entrada));
    } else {
      this.entradas = pregunta.opciones.map((texto, i) => h("input", {
        type: "radio", name: `${id}-opcion`, id: `${id}-opcion-${i + 1}`, value: String(i),
      }));
      campo.append(h("div", { class: "bucle-pregunta-opciones" }, ...this.entradas.map((entrada, i) =>
        h("div", { class: "bucle-pregunta-opcion" }, entrada,
          h("label", { for: entrada.id, text: pregunta.opciones[i] })))));
    }
    this.botonComprobar = boton(PREDICE.comprobar, () => this.comprobar(), "bucle-predice-comprobar");
    this.caja = h("div", { class: "bucle-pregunta-resultado bucle-predice-resultado" });
    this.acciones = h("div", { class: "bucle-predice-acciones" }, this.botonComprobar);
    this.elemento.replaceChildren(campo, this.acciones, this.caja);
    this.elemento.hidden = false;
    this.entradas[0].focus();
  }

  respuesta() {
    if (this.pregunta.tipo === "numero") return this.entradas[0].value;
    return this.entradas.filter((e) => e.checked).map((e) => Number(e.value));
  }

  comprobar() {
    const pregunta = this.pregunta;
    if (!pregunta || this.botonComprobar.hidden) return;
    const estado = comprobar(pregunta, this.respuesta());
    if (estado === "vacia" || estado === "invalida") {
      // (a number field gives "" for what is not a number: both are «write a number»)
      const aviso = pregunta.tipo === "numero" ? PREDICE.escribeNumero : PREDICE.eligeUna;
      this.caja.className = "bucle-pregunta-resultado bucle-predice-resultado";
      this.caja.replaceChildren(h("p", { text: aviso }));
      this.avisar(aviso);
      this.entradas[0].focus();
      return;
    }
    const acierta = estado === "correcta";
    const dicho = veredicto(pregunta, acierta);
    for (const entrada of this.entradas) entrada.disabled = true;
    this.botonComprobar.hidden = true;
    this.acciones.hidden = true;
    this.caja.className = `bucle-pregunta-resultado bucle-predice-resultado ${acierta ? "bucle-pregunta-correcta" : "bucle-pregunta-incorrecta"}`;
    this.caja.replaceChildren(
      h("p", { class: "bucle-predice-veredicto" },
        h("span", { "aria-hidden": "true", text: acierta ? "✔ " : "✘ " }), dicho.marca),
      h("p", { class: "bucle-predice-porque", text: dicho.porque }));
    this.alResponder(this.k, acierta, dicho);
  }
}
