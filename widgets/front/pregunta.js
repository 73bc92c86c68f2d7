// Questions: <bucle-pregunta> and the <bucle-grupo> that keeps their score.
//
// The build (widgets/directivas/pregunta.py) leaves a readable fallback — statement, options as a list,
// feedback and explanation `hidden` — and the question's data as JSON. Each question becomes
//
//   <fieldset> <legend>statement</legend> [more statement] [indication]
//              native radios | checkboxes (one name per question) | a text field </fieldset>
//   [Comprobar] [Reintentar]
//   <div role="status">verdict (+ the chosen options' feedback, for screen readers)</div>
//   explanation (shown once an answer is checked)
//
// Every node moved from the fallback was written by the author and built by Sphinx; what the
// reader types only ever goes in as text. State per question in localStorage under
// claveDe(elemento): { respuesta, resultado } (see lib/puntuar.js); each checked answer also
// feeds the course's progress (lib/progreso.js). A group shows «N de M correctas».

import { boton, h } from "./piezas/dom.js";
import { claveDe, guardar, leer } from "./piezas/almacen.js";
import { registrarPregunta } from "./lib/progreso.js";
import { PREGUNTA } from "./lib/textos.js";
import {
  estadoGuardado,
  puntuacion,
  puntuar,
  textoPuntuacion,
  veredicto,
} from "./lib/puntuar.js";

/** Fired (bubbling) by a question whenever its result changes; its group recounts. */
const CAMBIO = "bucle:pregunta";

function datosDe(elemento) {
  return JSON.parse(elemento.querySelector(":scope > script.bucle-datos").textContent);
}

class BuclePregunta extends HTMLElement {
  connectedCallback() {
    if (this.datos) return; // moved in the document: already built
    this.datos = datosDe(this);
    this.clave = claveDe(this);
    /** true / false once checked, null before: read by the group. */
    this.resultado = null;
    this.construir();
    this.restaurar();
  }

  parte(nombre) {
    return this.querySelector(`:scope > .bucle-pregunta-${nombre}`);
  }

  construir() {
    const id = this.dataset.bucleId;
    const enunciado = this.parte("enunciado");
    const contexto = this.parte("contexto");
    const indicacion = this.parte("indicacion");
    const lista = this.parte("opciones");
    this.explicacion = this.parte("explicacion");

    const campo = h("fieldset", { class: "bucle-pregunta-campo" });
    const leyenda = h("legend", { class: "bucle-pregunta-enunciado" });
    leyenda.append(...enunciado.childNodes);
    campo.append(leyenda);
    if (contexto) campo.append(contexto);
    if (indicacion) {
      indicacion.id = `${id}-indicacion`;
      campo.setAttribute("aria-describedby", indicacion.id);
      campo.append(indicacion);
    }
    this.entradas = [];
    this.retros = [];
    if (this.datos.tipo === "numero") campo.append(this.campoNumero(id));
    else campo.append(this.opciones(id, lista));

    this.botonComprobar = boton(PREGUNTA.comprobar, () => this.comprobar(),
      "bucle-pregunta-boton bucle-pregunta-principal");
    this.botonReintentar = boton(PREGUNTA.reintentar, () => this.reintentar(), "bucle-pregunta-boton");
    this.botonReintentar.hidden = true;
    this.acciones = h("div", { class: "bucle-pregunta-acciones" }, this.botonComprobar, this.botonReintentar);
    this.caja = h("div", { class: "bucle-pregunta-resultado", role: "status", tabindex: "-1" });

    enunciado.remove();
    lista?.remove();
    const script = this.querySelector(":scope > script.bucle-datos");
    this.insertBefore(campo, script);
    this.insertBefore(this.acciones, script);
    this.insertBefore(this.caja, script);
    if (this.explicacion) {
      this.explicacion.prepend(h("p", { class: "bucle-pregunta-explicacion-titulo", text: PREGUNTA.explicacion }));
      this.insertBefore(this.explicacion, script);
    }
    this.classList.add("bucle-pregunta-lista");
  }

  campoNumero(id) {
    const etiqueta = h("label", { for: `${id}-respuesta`, text: PREGUNTA.tuRespuesta });
    const entrada = h("input", {
      type: "text", inputmode: "decimal", id: `${id}-respuesta`,
      autocomplete: "off", spellcheck: "false",
    });
    entrada.addEventListener("input", () => this.alCambiar());
    entrada.addEventListener("keydown", (evento) => {
      if (evento.key === "Enter") {
        evento.preventDefault();
        this.comprobar();
      }
    });
    this.entradas.push(entrada);
    return h("div", { class: "bucle-pregunta-numero" }, etiqueta, entrada);
  }

  opciones(id, lista) {
    const opciones = h("div", { class: "bucle-pregunta-opciones" });
    const tipo = this.datos.tipo === "una" ? "radio" : "checkbox";
    lista.querySelectorAll(":scope > li").forEach((item, i) => {
      const fila = h("div", { class: "bucle-pregunta-opcion" });
      // native inputs sharing a name: arrow keys move within a radio group for free
      const entrada = h("input", { type: tipo, name: id, id: `${id}-opcion-${i + 1}`, value: String(i) });
      entrada.addEventListener("change", () => this.alCambiar());
      const etiqueta = h("label", { for: entrada.id });
      etiqueta.append(...item.querySelector(":scope > .bucle-pregunta-texto").childNodes);
      fila.append(entrada, etiqueta);
      const retro = item.querySelector(":scope > .bucle-pregunta-retro");
      if (retro) fila.append(retro);
      this.entradas.push(entrada);
      this.retros.push(retro);
      opciones.append(fila);
    });
    return opciones;
  }

  respuesta() {
    if (this.datos.tipo === "numero") return this.entradas[0].value;
    return this.entradas.filter((e) => e.checked).map((e) => Number(e.value));
  }

  ponerRespuesta(respuesta) {
    if (this.datos.tipo === "numero") this.entradas[0].value = respuesta;
    else this.entradas.forEach((e, i) => { e.checked = respuesta.includes(i); });
  }

  alCambiar() {
    if (this.caja.classList.contains("bucle-pregunta-aviso")) this.limpiarCaja();
    guardar(this.clave, { respuesta: this.respuesta(), resultado: null });
  }

  comprobar() {
    const respuesta = this.respuesta();
    const estado = puntuar(this.datos, respuesta);
    if (estado === "vacia" || estado === "invalida") {
      this.limpiarCaja();
      this.caja.classList.add("bucle-pregunta-aviso");
      this.caja.append(this.frase(veredicto(this.datos, estado, respuesta)));
      return;
    }
    this.resultado = estado === "correcta";
    this.mostrar(respuesta);
    guardar(this.clave, { respuesta, resultado: this.resultado });
    registrarPregunta(this, this.resultado);
    this.avisarCambio();
    // the focused button is now hidden: take focus to what comes next
    (this.resultado ? this.caja : this.botonReintentar).focus();
  }

  /** Show a checked answer: locked inputs, verdict, the chosen options' feedback, explanation. */
  mostrar(respuesta) {
    for (const entrada of this.entradas) entrada.disabled = true;
    this.botonComprobar.hidden = true;
    this.botonReintentar.hidden = this.resultado;
    this.acciones.hidden = this.resultado; // nothing left to do: no empty row
    this.limpiarCaja();
    this.caja.classList.add(this.resultado ? "bucle-pregunta-correcta" : "bucle-pregunta-incorrecta");
    this.caja.append(this.frase(veredicto(this.datos, this.resultado ? "correcta" : "incorrecta"),
      this.resultado ? "✔" : "✘"));
    const retros = Array.isArray(respuesta) ? respuesta.map((i) => this.retros[i]).filter(Boolean) : [];
    for (const retro of retros) retro.hidden = false;
    if (retros.length) {
      // shown under each option; repeated here (not visibly) so screen readers announce it
      const dicho = " " + retros.map((r) => r.textContent.trim()).join(" ");
      this.caja.firstChild.append(h("span", { class: "bucle-oculto-visual", text: dicho }));
    }
    if (this.explicacion) this.explicacion.hidden = false;
  }

  reintentar() {
    this.resultado = null;
    for (const entrada of this.entradas) entrada.disabled = false;
    this.acciones.hidden = false;
    this.botonComprobar.hidden = false;
    this.botonReintentar.hidden = true;
    this.limpiarCaja();
    for (const retro of this.retros) if (retro) retro.hidden = true;
    if (this.explicacion) this.explicacion.hidden = true;
    guardar(this.clave, { respuesta: this.respuesta(), resultado: null });
    this.avisarCambio();
    (this.entradas.find((e) => e.checked) ?? this.entradas[0]).focus();
  }

  restaurar() {
    const estado = estadoGuardado(leer(this.clave), this.datos);
    if (!estado) return;
    this.ponerRespuesta(estado.respuesta);
    if (estado.resultado !== null) {
      this.resultado = estado.resultado;
      this.mostrar(estado.respuesta);
      this.avisarCambio();
    }
  }

  frase(texto, icono = "") {
    const signo = icono ? h("span", { class: "bucle-pregunta-icono", "aria-hidden": "true", text: icono }) : null;
    return h("p", { class: "bucle-pregunta-veredicto" }, signo, icono ? " " : null, texto);
  }

  limpiarCaja() {
    this.caja.replaceChildren();
    this.caja.className = "bucle-pregunta-resultado";
  }

  avisarCambio() {
    this.dispatchEvent(new CustomEvent(CAMBIO, { bubbles: true, detail: { resultado: this.resultado } }));
  }
}

class BucleGrupo extends HTMLElement {
  connectedCallback() {
    if (this.marcador) return;
    const titulo = this.querySelector(":scope > .bucle-grupo-titulo");
    if (titulo) {
      titulo.id = `${this.dataset.bucleId}-titulo`;
      this.setAttribute("role", "region");
      this.setAttribute("aria-labelledby", titulo.id);
    }
    this.marcador = h("p", { class: "bucle-grupo-puntuacion", role: "status" });
    this.insertBefore(this.marcador, this.querySelector(":scope > script.bucle-datos"));
    this.addEventListener(CAMBIO, () => this.recontar());
    this.recontar();
    customElements.whenDefined("bucle-pregunta").then(() => this.recontar());
  }

  recontar() {
    const resultados = [...this.querySelectorAll("bucle-pregunta")].map((p) => p.resultado ?? null);
    this.marcador.textContent = textoPuntuacion(puntuacion(resultados));
  }
}

// the group first, so it listens before its questions restore their results
customElements.define("bucle-grupo", BucleGrupo);
customElements.define("bucle-pregunta", BuclePregunta);
