// The bench's «Modelo» field (with two or more models; with one, nothing is shown):
//
//   label «Modelo» · input[list] (the listed models as suggestions, the first written in) ·
//   datalist · span.bucle-banco-ayuda (the input's description: the reader may write the name of
//   their own hacer_modelo, defined in a cell)
import { h } from "./dom.js";
import { BANCO } from "../lib/textos.js";

/** { campo, elementos }: the input (whose value is the chosen name) and what the controls show. */
export function campoDeModelo(id, modelos) {
  const campo = h("input", { id: id("modelo"), type: "text", list: id("modelos"), value: modelos[0],
    autocomplete: "off", spellcheck: "false", "aria-describedby": id("modelo-ayuda") });
  if (modelos.length < 2) return { campo, elementos: [] };
  return {
    campo,
    elementos: [
      h("label", { for: id("modelo"), text: BANCO.modelo }), campo,
      h("datalist", { id: id("modelos") }, ...modelos.map((m) => h("option", { value: m }))),
      h("span", { id: id("modelo-ayuda"), class: "bucle-banco-ayuda", text: BANCO.modeloAyuda }),
    ],
  };
}
