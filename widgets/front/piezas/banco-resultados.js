// A summary of the bench, painted: the worker's `vista` (trabajador_banco_resumen.py), the same
// the build writes for a recording (directivas/banco.py), so that both read alike:
//
//   .bucle-banco-tablas     table.bucle-banco-tabla per variant (caption «Resultados de agente»,
//                           row headers, values), and «Cambiaron…» with two variants
//   .bucle-banco-figura     svg.bucle-banco-grafico (role="img", described by the words below) ·
//                           p.bucle-banco-texto: the plot in words
import { h } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";

/** A table of the summary: { titulo, filas: [[etiqueta, valor], …] }. */
export function tablaDe({ titulo, filas }) {
  return h("table", { class: "bucle-banco-tabla" },
    h("caption", { text: titulo }),
    h("tbody", {}, ...filas.map(([etiqueta, valor]) =>
      h("tr", {}, h("th", { scope: "row", text: etiqueta }), h("td", { text: valor })))));
}

/** The plot from its shapes ({ ancho, alto, formas }); text goes in as text. */
export function graficoDe({ ancho, alto, formas }, etiqueta, descritoPor) {
  const svg = document.createElementNS(SVG, "svg");
  const atributos = { viewBox: `0 0 ${ancho} ${alto}`, class: "bucle-banco-grafico", role: "img",
    "aria-label": etiqueta, focusable: "false", "aria-describedby": descritoPor };
  for (const [k, v] of Object.entries(atributos)) if (v != null) svg.setAttribute(k, v);
  for (const { forma, clase, texto, ...resto } of formas) {
    const el = document.createElementNS(SVG, forma);
    el.setAttribute("class", clase);
    for (const [k, v] of Object.entries(resto)) el.setAttribute(k, String(v));
    if (texto != null) el.textContent = texto;
    svg.append(el);
  }
  return svg;
}

/** Fill `caja` with `vista`'s tables and plot; `id`: the id of the plot's words. */
export function pintarResultados(caja, vista, { id, etiqueta }) {
  const tablas = [...vista.tablas, ...(vista.pareo ? [vista.pareo] : [])];
  caja.replaceChildren(
    h("div", { class: "bucle-banco-tablas" }, ...tablas.map(tablaDe)),
    h("div", { class: "bucle-banco-figura" },
      graficoDe(vista.grafico, etiqueta, id),
      h("p", { class: "bucle-banco-texto", id, text: vista.texto })));
}
