// The runs of a measurement, one per line, each of which opens its trace in the course's trace
// view (traza.js, made on demand, as a challenge's «Ver tu traza»):
//
//   details.bucle-banco-ejecuciones
//     summary                   «Las ejecuciones (400)»
//     .bucle-banco-filtros      select «Variante» (with two) · select «Motivo» (Todas, resuelta (143)…)
//     p[role=status]            «Se muestran 50 de 143.»
//     ol                        li per run: «Tarea 3 (buscar), semilla 7» · motivo · turns · the
//                               error · [Ver tu traza] (a recording's: [Ver la traza]) →
//                               .bucle-banco-traza (a <bucle-traza>)
//     [Mostrar más]             50 more
//
// The list is built when the details open, and again when the measurement changes while open.
import { boton, h } from "./dom.js";
import { BANCO } from "../lib/textos.js";
import { trazaDeEjecucion } from "../lib/banco-traza.js";
import { MOTIVOS } from "../lib/banco-medida.js";

const PAGINA = 50;

export class ListaDeEjecuciones {
  /** `prefijo`: ids of its own; `titulo(n)`: the summary's text; `cargar()` (optional): a promise of
   *  the measurement, asked for the first time the list opens; `propias`: the reader's runs. */
  constructor({ prefijo, titulo, cargar = null, propias = true }) {
    this.prefijo = prefijo;
    this.propias = propias;
    this.titulo = titulo;
    this.cargar = cargar;
    this.medida = null;
    this.cuantas = PAGINA;
    const id = (s) => `${prefijo}-${s}`;
    this.resumen = h("summary", { text: titulo(0) });
    this.variante = h("select", { id: id("variante") });
    this.motivo = h("select", { id: id("motivo") });
    this.etiquetaVariante = h("label", { for: id("variante"), text: BANCO.variante });
    this.estado = h("p", { class: "bucle-banco-mostradas", role: "status" });
    this.lista = h("ol", { class: "bucle-banco-lista", "aria-labelledby": id("resumen") });
    this.resumen.id = id("resumen");
    this.mas = boton(BANCO.mostrarMas, () => {
      this.cuantas += PAGINA;
      this.pintarLista();
    });
    for (const select of [this.variante, this.motivo]) {
      select.addEventListener("change", () => {
        this.cuantas = PAGINA;
        this.pintarLista();
      });
    }
    this.elemento = h("details", { class: "bucle-banco-ejecuciones" }, this.resumen,
      h("div", { class: "bucle-banco-filtros" },
        this.etiquetaVariante, this.variante,
        h("label", { for: id("motivo"), text: BANCO.motivo }), this.motivo),
      this.estado, this.lista, this.mas);
    this.elemento.addEventListener("toggle", () => this.alAbrir());
  }

  async alAbrir() {
    if (!this.elemento.open) return;
    if (!this.medida && this.cargar) {
      this.estado.textContent = BANCO.cargando;
      try {
        this.poner(await this.cargar());
      } catch (error) {
        this.estado.textContent = BANCO.noCargo(error?.message ?? error);
      }
      return;
    }
    if (this.sucia) this.pintar();
  }

  /** Show `medida` (a lib/banco-medida.js Medida); built now if open, else when it opens. */
  poner(medida) {
    this.medida = medida;
    this.resumen.textContent = this.titulo(medida.ejecuciones.length);
    this.sucia = true;
    if (this.elemento.open) this.pintar();
  }

  pintar() {
    this.sucia = false;
    const { variantes, ejecuciones } = this.medida;
    const antes = this.variante.value;
    this.variante.replaceChildren(...variantes.map((v) => h("option", { value: v, text: v })));
    if (variantes.includes(antes)) this.variante.value = antes;
    this.variante.hidden = this.etiquetaVariante.hidden = variantes.length < 2;
    this.pintarMotivos(ejecuciones);
    this.pintarLista();
  }

  pintarMotivos(ejecuciones) {
    const antes = this.motivo.value;
    const de = ejecuciones.filter((e) => e.variante === this.variante.value);
    this.motivo.replaceChildren(h("option", { value: "", text: BANCO.todas }),
      ...MOTIVOS.map((m) => h("option", { value: m, text: BANCO.conMotivo(m, de.filter((e) => e.motivo === m).length) })));
    this.motivo.value = antes;
  }

  pintarLista() {
    const { ejecuciones } = this.medida;
    this.pintarMotivos(ejecuciones);
    const elegidas = [];
    ejecuciones.forEach((e, i) => {
      if (e.variante === this.variante.value && (!this.motivo.value || e.motivo === this.motivo.value)) {
        elegidas.push([e, i]);
      }
    });
    const vistas = elegidas.slice(0, this.cuantas);
    this.lista.replaceChildren(...vistas.map(([e, i]) => this.item(e, i)));
    this.estado.textContent = elegidas.length ? BANCO.mostradas(vistas.length, elegidas.length) : BANCO.ninguna;
    this.mas.hidden = vistas.length >= elegidas.length;
  }

  item(e, i) {
    const id = `${this.prefijo}-e${i}`;
    const tipo = this.medida.cabecera.tareas?.[e.tarea]?.tipo ?? e.tipo;
    const li = h("li", { class: `bucle-banco-ejecucion bucle-banco-con-${e.motivo}` },
      h("p", { class: "bucle-banco-cabeza" },
        h("span", { class: "bucle-banco-donde", id, text: BANCO.fila(e.tarea, tipo, e.semilla) }),
        h("span", { class: "bucle-banco-motivo", text: e.motivo }),
        h("span", { class: "bucle-banco-turnos", text: BANCO.turnos(e.turnos) })));
    if (e.error) li.append(h("p", { class: "bucle-banco-error", text: e.error }));
    if (!e.M) {
      li.append(h("p", { class: "bucle-banco-nota", text: BANCO.sinM }));
      return li;
    }
    const caja = h("div", { class: "bucle-banco-traza", id: `${id}-traza`, hidden: true });
    const ver = boton(BANCO.verTraza(this.propias), () => this.alternar(e, ver, caja), "bucle-banco-ver-traza");
    ver.setAttribute("aria-expanded", "false");
    ver.setAttribute("aria-controls", caja.id);
    ver.setAttribute("aria-describedby", id);
    li.append(ver, caja);
    return li;
  }

  async alternar(e, ver, caja) {
    const abrir = caja.hidden;
    if (abrir && !caja.childElementCount) {
      await import("../traza.js");
      const tope = this.medida.cabecera.tope;
      const traza = trazaDeEjecucion(e, this.medida, tope);
      const el = h("bucle-traza", { class: "bucle-widget bucle-traza bucle-banco-la-traza" });
      el.datos = { titulo: BANCO.titulo(e.variante, e.tarea, e.semilla), tope: traza.tope, trazas: { [traza.tope]: traza } };
      caja.append(h("p", { class: "bucle-banco-nota", text: BANCO.deM }), el);
    }
    caja.hidden = !abrir;
    ver.textContent = abrir ? BANCO.ocultarTraza(this.propias) : BANCO.verTraza(this.propias);
    ver.setAttribute("aria-expanded", String(abrir));
  }
}
