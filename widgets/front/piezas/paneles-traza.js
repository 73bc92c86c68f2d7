// A trace's two panels (traza.js), painted for each step: M, one item per message of the
// conversation (one line per block; the new ones and, with «Lo que ve el modelo», those the model
// receives, tagged), and the environment, one item per file (a change shown as a diff, tagged
// nuevo / cambia / borrado; a long file, code, line by line, and folded when the step leaves it
// as it was). While the model is called, the environment is marked as what it does not see.
//
//   .bucle-traza-paneles
//     section.bucle-traza-m        «M» and its count · ol of messages
//     section.bucle-traza-entorno  «El entorno» («el modelo no lo ve») · ul of files
import { h } from "./dom.js";
import { TRAZA } from "../lib/textos.js";
import { diferenciaLineas, diferenciaTexto, esLargo, lineasDe } from "../lib/traza-pasos.js";

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
      const cabeza = h("div", { class: "bucle-traza-cabeza" }, h("span", { class: "bucle-traza-ruta", text: ruta }));
      const contenido = h("pre", { class: "bucle-traza-contenido" });
      if (!cambio && esLargo(texto)) {
        // A long file this step leaves as it was folds under its name (a click opens it).
        contenido.textContent = texto;
        cabeza.append(h("span", { class: "bucle-traza-tamano", text: TRAZA.sinCambios(lineasDe(texto).length) }));
        return h("li", { class: "bucle-traza-fichero" },
          h("details", { class: "bucle-traza-plegado" }, h("summary", {}, cabeza), contenido));
      }
      if (cambio) {
        const que = cambio.antes == null ? "nuevo" : cambio.despues == null ? "borrado" : "cambia";
        cabeza.append(h("span", { class: "bucle-traza-etiqueta bucle-traza-cambia", text: TRAZA.cambios[que] }));
        pintarCambio(contenido, cambio);
      } else {
        contenido.textContent = texto;
      }
      return h("li", { class: `bucle-traza-fichero${cambio ? " bucle-traza-cambiado" : ""}` }, cabeza, contenido);
    }));
  }
}

/** Put in `contenido` how the file changed: a long one (code) line by line, each line marked
 *  «-», «+» or « » as a diff is, with the runs of unchanged lines far from the change left out; a
 *  short one whole, with the words removed and put marked. */
function pintarCambio(contenido, { antes, despues }) {
  if (!esLargo(antes, despues)) {
    for (const pieza of diferenciaTexto(antes, despues)) {
      const etiquetaDe = { igual: "span", quita: "del", pone: "ins" }[pieza.tipo];
      contenido.append(h(etiquetaDe, { text: pieza.texto }));
    }
    return;
  }
  contenido.classList.add("bucle-traza-lineas");
  for (const pieza of diferenciaLineas(antes, despues)) {
    if (pieza.tipo === "oculta") {
      contenido.append(h("span", { class: "bucle-traza-oculta", text: `${TRAZA.lineasIguales(pieza.n)}\n` }));
      continue;
    }
    const [etiqueta, marca] = { igual: ["span", " "], quita: ["del", "-"], pone: ["ins", "+"] }[pieza.tipo];
    for (const linea of pieza.lineas) contenido.append(h(etiqueta, { text: `${marca} ${linea}\n` }));
  }
}
