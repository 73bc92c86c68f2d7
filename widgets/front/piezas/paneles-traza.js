// A trace's two panels (traza.js), painted for each step: M, one item per message of the
// conversation (one line per block; the new ones and, with «Lo que ve el modelo», those the model
// receives, tagged), and the environment, one item per file (a change shown as a diff, tagged
// nuevo / cambia / borrado). While the model is called, the environment is marked as what it
// does not see.
//
//   .bucle-traza-paneles
//     section.bucle-traza-m        «M» and its count · ol of messages
//     section.bucle-traza-entorno  «El entorno» («el modelo no lo ve») · ul of files
import { h } from "./dom.js";
import { TRAZA } from "../lib/textos.js";
import { diferenciaTexto } from "../lib/traza-pasos.js";

export class PanelesDeTraza {
  /** `id(sufijo)`: an id of the trace's own (the panels' titles label them). */
  constructor(id) {
    this.cuenta = h("span", { class: "bucle-traza-cuenta" });
    this.listaM = h("ol", { class: "bucle-traza-mensajes", "aria-labelledby": id("m") });
    this.ficheros = h("ul", { class: "bucle-traza-ficheros", "aria-labelledby": id("entorno") });
    this.nadaEntorno = h("span", { class: "bucle-traza-etiqueta bucle-traza-no-ve", text: TRAZA.noLoVe });
    this.panelEntorno = h("section", { class: "bucle-traza-panel bucle-traza-entorno", "aria-labelledby": id("entorno") },
      h("p", { class: "bucle-traza-panel-titulo", id: id("entorno") }, TRAZA.entorno, this.nadaEntorno),
      this.ficheros);
    this.elemento = h("div", { class: "bucle-traza-paneles" },
      h("section", { class: "bucle-traza-panel bucle-traza-m", "aria-labelledby": id("m") },
        h("p", { class: "bucle-traza-panel-titulo", id: id("m") }, TRAZA.m, this.cuenta),
        this.listaM),
      this.panelEntorno);
  }

  /** Paint step `paso`; `mensajes`: the trace's table of messages; `veModelo`: the toggle. */
  pintar(paso, { mensajes, veModelo }) {
    const ve = veModelo && paso.recibe;
    this.panelEntorno.classList.toggle("bucle-traza-invisible", Boolean(ve));
    this.nadaEntorno.hidden = !ve;
    this.pintarM(paso, mensajes, veModelo);
    this.pintarEntorno(paso);
  }

  pintarM(paso, tabla, veModelo) {
    const nuevos = new Set(paso.nuevos);
    const recibe = new Set(veModelo && paso.recibe ? paso.recibe : []);
    this.cuenta.textContent = TRAZA.cuenta(paso.M.length);
    this.listaM.replaceChildren(...paso.M.map((i, p) => {
      const m = tabla[i] ?? { rol: null, lineas: ["?"] };
      const clases = ["bucle-traza-mensaje", `bucle-traza-rol-${m.rol ?? "ninguno"}`];
      if (nuevos.has(p)) clases.push("bucle-traza-nuevo");
      if (recibe.has(p)) clases.push("bucle-traza-recibe");
      return h("li", { class: clases.join(" ") },
        h("div", { class: "bucle-traza-cabeza" },
          h("span", { class: "bucle-traza-indice", text: `M[${p}]` }),
          h("span", { class: "bucle-traza-rol", text: m.rol ?? TRAZA.noEsMensaje }),
          nuevos.has(p) ? h("span", { class: "bucle-traza-etiqueta bucle-traza-es-nuevo", text: TRAZA.nuevo }) : null,
          recibe.has(p) ? h("span", { class: "bucle-traza-etiqueta bucle-traza-lo-recibe", text: TRAZA.loRecibe }) : null),
        h("ul", { class: "bucle-traza-bloques" }, ...m.lineas.map((linea) => h("li", { text: linea }))));
    }));
  }

  pintarEntorno(paso) {
    const cambios = new Map(paso.cambios.map((c) => [c.ruta, c]));
    const rutas = [...new Set([...Object.keys(paso.entorno), ...cambios.keys()])].sort();
    this.ficheros.replaceChildren(...rutas.map((ruta) => {
      const cambio = cambios.get(ruta);
      const texto = paso.entorno[ruta];
      let etiqueta = null;
      if (cambio) {
        const que = cambio.antes == null ? "nuevo" : cambio.despues == null ? "borrado" : "cambia";
        etiqueta = h("span", { class: "bucle-traza-etiqueta bucle-traza-cambia", text: TRAZA.cambios[que] });
      }
      const contenido = h("pre", { class: "bucle-traza-contenido" });
      if (cambio) {
        for (const pieza of diferenciaTexto(cambio.antes, cambio.despues)) {
          const etiquetaDe = { igual: "span", quita: "del", pone: "ins" }[pieza.tipo];
          contenido.append(h(etiquetaDe, { text: pieza.texto }));
        }
      } else {
        contenido.textContent = texto;
      }
      return h("li", { class: `bucle-traza-fichero${cambio ? " bucle-traza-cambiado" : ""}` },
        h("div", { class: "bucle-traza-cabeza" }, h("span", { class: "bucle-traza-ruta", text: ruta }), etiqueta),
        contenido);
    }));
  }
}
