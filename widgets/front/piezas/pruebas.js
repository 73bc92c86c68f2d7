// A check's results as the challenge shows them (desafio.js), from lib/veredicto.js's `vista`
// (what shows, as text):
//
//   .bucle-desafio-error        the code's loading error, with [Ir a la línea N]
//   ol.bucle-desafio-pruebas    «Resultados de las pruebas»: one li per test: icon, name, ✔/✘ in
//                               words, where (turn or line), why it was not tried, message, what
//                               it printed, [Ver tu traza] (the reader's run beside the expected
//                               one, two <bucle-traza> made on demand), [Ir a la línea N]
//
// The two sit apart in the challenge (its hint goes between them): `error` and `lista`.
import { boton, h } from "./dom.js";
import { DESAFIO } from "../lib/textos.js";
import { textoDivergencia } from "../lib/veredicto.js";

export class ResultadosDePruebas {
  /** `prefijo()`: the start of the trace boxes' ids (the challenge's id); `alIrALinea(n)`. */
  constructor({ prefijo, alIrALinea }) {
    this.prefijo = prefijo;
    this.alIrALinea = alIrALinea;
    this.error = h("div", { class: "bucle-desafio-error", hidden: true });
    this.lista = h("ol", { class: "bucle-desafio-pruebas", "aria-label": DESAFIO.resultados, hidden: true });
  }

  /** No verdict: what the list showed was another check's, so it goes. */
  ocultar() {
    this.lista.hidden = true;
    this.error.hidden = true;
  }

  pintar({ error, pruebas }) {
    this.error.hidden = !error;
    this.error.replaceChildren();
    if (error) {
      this.error.append(
        h("p", { class: "bucle-desafio-rotulo", text: DESAFIO.noCargo }),
        h("pre", { class: "bucle-desafio-mensaje", text: error.mensaje }),
      );
      if (error.linea) this.error.append(boton(DESAFIO.irALinea(error.linea), () => this.alIrALinea(error.linea)));
    }
    this.lista.hidden = false;
    this.lista.replaceChildren(...pruebas.map((fila, i) => this.item(fila, i)));
  }

  item(fila, i) {
    const li = h("li", { class: `bucle-desafio-prueba bucle-desafio-${fila.clase}` },
      h("p", { class: "bucle-desafio-cabeza" },
        h("span", { class: "bucle-desafio-icono", "aria-hidden": "true", text: fila.icono }),
        h("span", { class: "bucle-desafio-nombre", text: fila.nombre }),
        h("span", { class: "bucle-desafio-estado", text: fila.estado })));
    if (fila.lugar) li.append(h("p", { class: "bucle-desafio-lugar", text: fila.lugar }));
    // Why a test was not tried: the same line for every such test, so it stays small.
    if (fila.motivo != null) li.append(h("p", { class: "bucle-desafio-motivo", text: fila.motivo }));
    if (fila.mensaje) li.append(h("pre", { class: "bucle-desafio-mensaje", text: fila.mensaje }));
    if (fila.salida) {
      li.append(h("details", { class: "bucle-desafio-salida" },
        h("summary", { text: DESAFIO.escribio }), h("pre", { text: fila.salida })));
    }
    const acciones = h("div", { class: "bucle-desafio-acciones" });
    let caja = null;
    if (fila.traza) {
      caja = h("div", { class: "bucle-desafio-traza", id: `${this.prefijo()}-traza-${i + 1}`, hidden: true });
      const ver = boton(DESAFIO.verTraza, () => this.alternarTraza(fila.traza, ver, caja), "bucle-desafio-ver-traza");
      ver.setAttribute("aria-expanded", "false");
      ver.setAttribute("aria-controls", caja.id);
      acciones.append(ver);
    }
    if (fila.linea) acciones.append(boton(DESAFIO.irALinea(fila.linea), () => this.alIrALinea(fila.linea)));
    if (acciones.children.length) li.append(acciones);
    if (caja) li.append(caja);
    return li;
  }

  async alternarTraza(traza, ver, caja) {
    const abrir = caja.hidden;
    if (abrir && !caja.childElementCount) {
      const [{ divergencia, pasos }] = await Promise.all([import("../lib/traza-pasos.js"), import("../traza.js")]);
      const { tuya, esperada } = traza;
      const div = esperada ? divergencia(esperada, tuya) : null;
      const widget = (titulo, datos, clase, texto) => {
        const el = h("bucle-traza", { class: `bucle-widget bucle-traza ${clase}` });
        el.datos = { titulo, tope: 1, trazas: { 1: datos } };
        if (div) el.marca = { indice: Math.min(div.indice, pasos(datos).length - 1), texto };
        return el;
      };
      caja.append(
        h("p", { class: "bucle-desafio-divergencia", text: esperada ? textoDivergencia(div) : DESAFIO.sinEsperada }),
        widget(DESAFIO.tuEjecucion, tuya, "bucle-desafio-tuya", DESAFIO.marcaTuya),
        esperada ? widget(DESAFIO.laEsperada, esperada, "bucle-desafio-esperada", DESAFIO.marcaEsperada) : null,
      );
    }
    caja.hidden = !abrir;
    ver.textContent = abrir ? DESAFIO.ocultarTraza : DESAFIO.verTraza;
    ver.setAttribute("aria-expanded", String(abrir));
  }
}
