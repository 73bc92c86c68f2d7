// <bucle-traza>: step through an agent loop's run, turn by turn, with no Python in the page.
//
// Data (the widget's JSON, or the `datos` property set before the element is connected):
//   { titulo, tope, trazas: { "1": traza, …, "10": traza } }   (traza: see widgets/calificador/trazas.py)
// Optional `marca` property: { indice, texto } marks one step (where a reader's run departs from
// the expected one) and opens the widget there.
// With `predicciones: { "1": [pregunta, …], … }` (widgets/directivas/predice.py; absent for `:predice: no`
// and for the traces a challenge builds for «Ver tu traza») there is a toggle «Predice»: while
// it is on, Siguiente asks each question before showing the step it is about, Final and the
// slider stop before an unanswered one, Inicio (or a new cap) starts a new round, and the last
// step shows «Has acertado N de M predicciones», kept as the trace's best round in the course's
// progress (lib/progreso.js).
//
// Built inside the element (the server-rendered children, the final M, are hidden):
//   .bucle-traza-ui
//     .bucle-traza-cabecera   title · select «Tope» · toggles «Lo que ve el modelo», «Predice» (aria-pressed)
//     .bucle-traza-mandos     «Turno N» «Paso X de Y» · slider «Paso» · Inicio Anterior Siguiente Final
//     .bucle-traza-evento     what happens in this step (+ detail lines, the toggle's note)
//     .bucle-predice-marcador the round's score, at the last step
//     .bucle-predice          the question asked before the next step (piezas/prediccion.js)
//     [role=status]           the same, announced politely
//     .bucle-traza-paneles    M (one item per message, one line per block) · the environment
//                             (piezas/paneles-traza.js)
import { boton, h } from "./piezas/dom.js";
import "./piezas/almacen.js"; // the page's notice when storage fails (a round's score is kept)
import { PanelesDeTraza } from "./piezas/paneles-traza.js";
import { Prediccion } from "./piezas/prediccion.js";
import { frontera, marcador, pendiente, preguntasPorPaso } from "./lib/predice.js";
import { registrarPrediccion } from "./lib/progreso.js";
import { PREDICE, TRAZA } from "./lib/textos.js";
import { pasoEquivalente, pasos } from "./lib/traza-pasos.js";

let contador = 0;

const TECLAS = { ArrowLeft: "anterior", ArrowRight: "siguiente", Home: "inicio", End: "final" };

class BucleTraza extends HTMLElement {
  connectedCallback() {
    if (this.ui) return;
    const datos = this.datos ?? JSON.parse(this.querySelector(":scope > script.bucle-datos")?.textContent || "null");
    if (!datos?.trazas || !Object.keys(datos.trazas).length) return;
    this.datos = datos;
    this.topes = Object.keys(datos.trazas).map(Number).sort((a, b) => a - b);
    this.tope = this.topes.includes(datos.tope) ? datos.tope : this.topes.at(-1);
    this.cache = new Map();
    this.veModelo = false;
    const predicciones = datos.predicciones ?? {};
    this.conPredice = Object.values(predicciones).some((lista) => lista?.length);
    this.predice = false;
    this.ronda = null; // while predicting: { respondidas: Map(question → right), registrada }
    this.prefijo = this.id || `bucle-traza-${++contador}`;
    for (const hijo of this.children) if (!hijo.matches("script")) hijo.hidden = true;
    this.construir();
    this.mostrar(this.marca?.indice ?? 0, { anunciar: false });
  }

  pasos(tope = this.tope) {
    if (!this.cache.has(tope)) this.cache.set(tope, pasos(this.datos.trazas[String(tope)]));
    return this.cache.get(tope);
  }

  traza() {
    return this.datos.trazas[String(this.tope)];
  }

  preguntas() {
    return this.datos.predicciones?.[String(this.tope)] ?? [];
  }

  /** Step index → the questions asked before it (this cap's). */
  porPaso() {
    const clave = `predice-${this.tope}`;
    if (!this.cache.has(clave)) this.cache.set(clave, preguntasPorPaso(this.pasos(), this.preguntas()));
    return this.cache.get(clave);
  }

  construir() {
    const id = (sufijo) => `${this.prefijo}-${sufijo}`;
    this.botones = {};
    for (const accion of ["inicio", "anterior", "siguiente", "final"]) {
      this.botones[accion] = boton(TRAZA[accion], () => this.ir(accion), `bucle-traza-${accion}`);
    }
    this.barra = h("input", { type: "range", class: "bucle-traza-barra", min: 1, step: 1, "aria-label": TRAZA.barra });
    this.barra.addEventListener("input", () => this.mostrar(this.alcanzable(Number(this.barra.value) - 1)));
    this.selector = h("select", { id: id("tope") });
    for (const t of this.topes) this.selector.append(h("option", { value: t, text: String(t) }));
    this.selector.value = String(this.tope);
    this.selector.addEventListener("change", () => this.cambiarTope(Number(this.selector.value)));
    this.conmutador = boton(TRAZA.veModelo, () => {
      this.veModelo = !this.veModelo;
      this.mostrar(this.indice, { anunciar: false, conservar: true });
    }, "bucle-traza-ve");
    this.conmutador.setAttribute("aria-pressed", "false");
    if (this.conPredice) {
      this.botonPredice = boton(PREDICE.boton, () => this.alternarPredice(), "bucle-traza-predice");
      this.botonPredice.setAttribute("aria-pressed", "false");
      this.prediccion = new Prediccion(this.prefijo, {
        alResponder: (k, acierta, dicho) => this.alResponder(k, acierta, dicho),
        avisar: (texto) => { this.anuncio.textContent = texto; },
      });
      this.marcador = h("p", { class: "bucle-predice-marcador", hidden: true });
    }

    this.turno = h("strong", { class: "bucle-traza-turno" });
    this.numero = h("span", { class: "bucle-traza-numero" });
    this.texto = h("p", { class: "bucle-traza-texto" });
    this.detalle = h("pre", { class: "bucle-traza-detalle" });
    this.nota = h("p", { class: "bucle-traza-nota" });
    this.aviso = h("p", { class: "bucle-traza-marca" });
    this.anuncio = h("p", { class: "bucle-oculto-visual", role: "status", "aria-live": "polite" });
    this.paneles = new PanelesDeTraza(id);

    this.ui = h("div", { class: "bucle-traza-ui", role: "group", "aria-labelledby": id("titulo") },
      h("div", { class: "bucle-traza-cabecera" },
        h("p", { class: "bucle-traza-titulo", id: id("titulo"), text: this.datos.titulo || TRAZA.titulo }),
        h("div", { class: "bucle-traza-opciones" },
          this.topes.length > 1
            ? h("label", { class: "bucle-traza-tope", for: id("tope") }, TRAZA.tope)
            : null,
          this.topes.length > 1 ? this.selector : null,
          this.conmutador,
          this.botonPredice)),
      h("div", { class: "bucle-traza-mandos" },
        h("p", { class: "bucle-traza-posicion" }, this.turno, h("span", { "aria-hidden": "true", text: " · " }), this.numero),
        this.barra,
        h("div", { class: "bucle-traza-botones" }, ...Object.values(this.botones))),
      h("div", { class: "bucle-traza-evento" }, this.aviso, this.texto, this.detalle, this.nota),
      this.marcador,
      this.prediccion?.elemento,
      this.anuncio,
      this.paneles.elemento);
    this.append(this.ui);

    // ←, →, Home and End step through the trace while focus is in the widget (not in the
    // slider or the select, which have their own), and never reach the page's own shortcuts
    // (Furo turns the page with ← and →).
    this.addEventListener("keydown", (evento) => {
      const accion = TECLAS[evento.key];
      if (!accion || evento.altKey || evento.ctrlKey || evento.metaKey || evento.shiftKey) return;
      if (evento.target.closest("input, select, textarea, [contenteditable]")) return;
      evento.preventDefault();
      evento.stopPropagation();
      this.ir(accion);
    });
  }

  ir(accion) {
    const ultimo = this.pasos().length - 1;
    if (this.predice && accion === "inicio" && this.ronda.respondidas.size) {
      this.nuevaRonda();
      this.mostrar(0, { prefijo: PREDICE.nuevaRonda });
      return;
    }
    let destino = { inicio: 0, anterior: this.indice - 1, siguiente: this.indice + 1, final: ultimo }[accion];
    if (this.predice && (accion === "siguiente" || accion === "final")) {
      // As far as the reader may go without answering; the question that stops them is asked.
      const hasta = frontera(this.porPaso(), this.ronda.respondidas, this.indice, ultimo);
      if (destino > hasta) {
        if (hasta > this.indice) this.mostrar(hasta, { anunciar: false });
        this.preguntar(hasta + 1);
        return;
      }
    }
    if (destino < 0 || destino > ultimo || destino === this.indice) return;
    this.mostrar(destino);
  }

  cambiarTope(tope) {
    const viejos = this.pasos();
    this.tope = tope;
    if (this.predice) {
      this.nuevaRonda();
      this.mostrar(0, { prefijo: TRAZA.nuevoTope(tope) + PREDICE.nuevaRonda });
      return;
    }
    this.mostrar(pasoEquivalente(viejos, this.indice, this.pasos()), { prefijo: TRAZA.nuevoTope(tope) });
  }

  // ---- predict mode ----

  alternarPredice() {
    this.predice = !this.predice;
    this.botonPredice.setAttribute("aria-pressed", String(this.predice));
    if (this.predice) this.nuevaRonda();
    else this.ronda = null;
    // A round covers the whole trace: it starts at the first step.
    this.mostrar(this.predice ? 0 : this.indice, { anunciar: false });
    this.anuncio.textContent = this.predice ? PREDICE.empieza : PREDICE.termina;
  }

  nuevaRonda() {
    this.ronda = { respondidas: new Map(), registrada: false };
  }

  /** Step `indice`, or, while predicting, the furthest one before an unanswered question. */
  alcanzable(indice) {
    if (!this.predice) return indice;
    const ultimo = this.pasos().length - 1;
    return Math.min(indice, Math.max(this.indice, frontera(this.porPaso(), this.ronda.respondidas, this.indice, ultimo)));
  }

  /** Ask the next unanswered question before step `destino` (the focus goes to it). */
  preguntar(destino) {
    const k = pendiente(this.porPaso(), this.ronda.respondidas, destino);
    if (k === null) return;
    if (this.prediccion.visible && this.prediccion.k === k && this.objetivo === destino) {
      this.prediccion.entradas[0].focus(); // already asked: back to it
      return;
    }
    this.objetivo = destino;
    this.prediccion.preguntar(this.preguntas()[k], k);
  }

  alResponder(k, acierta, dicho) {
    this.ronda.respondidas.set(k, acierta);
    const dice = `${dicho.marca} ${dicho.porque} `;
    if (pendiente(this.porPaso(), this.ronda.respondidas, this.objetivo) === null) {
      this.mostrar(this.objetivo, { conservar: true, prefijo: dice });
    } else {
      this.anuncio.textContent = dice + PREDICE.sigue;
    }
    this.botones.siguiente.focus();
  }

  /** At the last step of a round: its score, shown, announced and kept. */
  pintarMarcador(anunciar) {
    if (!this.marcador) return;
    const fin = this.predice && this.indice === this.pasos().length - 1 && this.ronda.respondidas.size > 0;
    this.marcador.hidden = !fin;
    if (!fin) return;
    const { aciertos, total } = marcador(this.ronda.respondidas);
    this.marcador.textContent = `${PREDICE.resultado(aciertos, total)}. ${PREDICE.otraRonda}`;
    if (!this.ronda.registrada) {
      this.ronda.registrada = true;
      registrarPrediccion(this, aciertos, total);
    }
    if (anunciar) this.anuncio.textContent += ` ${this.marcador.textContent}`;
  }

  mostrar(indice, { anunciar = true, prefijo = "", conservar = false } = {}) {
    if (!conservar) this.prediccion?.ocultar();
    const lista = this.pasos();
    this.indice = Math.max(0, Math.min(indice, lista.length - 1));
    const paso = lista[this.indice];
    const total = lista.length;
    const donde = TRAZA.pasoYTurno(this.indice + 1, total, paso.turno);
    this.turno.textContent = TRAZA.turno(paso.turno);
    this.numero.textContent = TRAZA.paso(this.indice + 1, total);
    Object.assign(this.barra, { max: total, value: this.indice + 1 });
    this.barra.setAttribute("aria-valuetext", donde);
    for (const [accion, b] of Object.entries(this.botones)) {
      // aria-disabled rather than disabled: the focused button keeps focus at either end.
      const fuera = accion === "inicio" || accion === "anterior" ? this.indice === 0 : this.indice === total - 1;
      b.setAttribute("aria-disabled", String(fuera));
    }
    this.conmutador.setAttribute("aria-pressed", String(this.veModelo));
    this.dataset.buclePaso = paso.tipo;

    this.texto.textContent = paso.texto;
    this.detalle.textContent = paso.detalle.join("\n");
    this.detalle.hidden = !paso.detalle.length;
    const marcado = this.marca && this.marca.indice === this.indice;
    this.aviso.textContent = marcado ? this.marca.texto : "";
    this.aviso.hidden = !marcado;
    this.pintarNota(paso);
    this.paneles.pintar(paso, { mensajes: this.traza().mensajes, veModelo: this.veModelo });
    if (anunciar) {
      this.anuncio.textContent = `${prefijo}${donde}. ${paso.texto}`;
    }
    this.pintarMarcador(anunciar);
  }

  pintarNota(paso) {
    this.nota.hidden = !this.veModelo;
    if (!this.veModelo) return;
    this.nota.textContent = paso.recibe ? TRAZA.recibe(paso.recibe.length, paso.herramientas) : TRAZA.sinModelo;
  }
}

if (!customElements.get("bucle-traza")) customElements.define("bucle-traza", BucleTraza);
