// What a cell shows while Python waits for the reader (python.js's alPreguntar, lib/espera.js):
// a permission question with Permitir and Denegar, or input()'s prompt with a text field and
// Enviar (Enter sends). Each is a group named by its question; `alResponder(texto)` gets the
// answer ("permitir" | "denegar", or the line typed) once. A permission shows, under the call,
// each of its `partes` as Python sent them (runtime/permisos.py's que_cambia: the whole content
// to be written, and what changes in a file that exists): a title over a box of whole lines,
// marked "-" (removed), "+" (added), " " (kept) or "…" (kept lines not shown), which scrolls
// where long and can be scrolled by keyboard.
//
//   const ui = preguntaEnLaSalida({ tipo: "permiso", pregunta, detalle, partes }, (texto) => …);
//   salida.append(ui); ui.enfocar();
//
//   <div class="bucle-espera" role="group" aria-labelledby="q">
//     <p id="q">¿Permites escribir notas.txt?</p> <code>llamada p4 escribir(…)</code>
//     <p id="q-1">notas.txt quedará así (3 líneas):</p>
//     <pre role="group" aria-labelledby="q-1" tabindex="0"><span>El sábado …</span>…</pre>
//     <p id="q-2">Lo que cambia en notas.txt: …</p> <pre …><span class="bucle-espera-pone">+ …</span></pre>
//     <div> Permitir Denegar </div>
//   </div>
import { boton, h } from "./dom.js";
import { ESPERA } from "../lib/textos.js";

let siguiente = 1;

/** The element of the question `pregunta` ({tipo, pregunta, detalle}), with `enfocar()`. */
export function preguntaEnLaSalida(pregunta, alResponder) {
  const id = `bucle-espera-${siguiente++}`;
  let respondida = false;
  const una = (texto) => {
    if (respondida) return;
    respondida = true;
    alResponder(texto);
  };
  const ui = pregunta.tipo === "entrada" ? entrada(id, pregunta, una) : permiso(id, pregunta, una);
  ui.enfocar = () => ui.querySelector("input, button")?.focus();
  return ui;
}

function permiso(id, { pregunta, detalle, partes = [] }, responder) {
  return h("div", { class: "bucle-espera", role: "group", "aria-labelledby": id },
    h("p", { class: "bucle-espera-pregunta", id, text: pregunta }),
    detalle ? h("code", { class: "bucle-espera-detalle", text: detalle }) : null,
    ...partes.map((p, i) => parte(`${id}-${i + 1}`, p)),
    h("div", { class: "bucle-espera-botones" },
      boton(ESPERA.permitir, () => responder("permitir"), "bucle-espera-permitir"),
      boton(ESPERA.denegar, () => responder("denegar"))));
}

/** A class per mark of a line of `partes`; a line of the content has none. */
const MARCAS = { "-": "bucle-espera-quita", "+": "bucle-espera-pone", " ": "bucle-espera-igual", "…": "bucle-espera-salto" };

/** One part: its title, and its lines whole in a box that scrolls (none: the title alone). */
function parte(id, { titulo, lineas }) {
  const filas = Array.isArray(lineas) ? lineas : [];
  return h("div", { class: "bucle-espera-parte" },
    h("p", { class: "bucle-espera-titulo", id, text: String(titulo ?? "") }),
    filas.length ? h("pre", { class: "bucle-espera-caja", role: "group", "aria-labelledby": id, tabindex: "0" },
      ...filas.map(([marca, texto]) => h("span", {
        class: MARCAS[marca] ?? "bucle-espera-contenido",
        text: marca === "…" ? "…" : marca ? `${marca} ${texto}` : String(texto),
      }))) : null);
}

function entrada(id, { pregunta }, responder) {
  const etiqueta = pregunta.trim() ? pregunta : ESPERA.entrada;
  const campo = h("input", {
    type: "text", id: `${id}-campo`, class: "bucle-espera-campo", autocomplete: "off",
    autocapitalize: "off", spellcheck: "false", enterkeyhint: "send",
  });
  const formulario = h("form", { class: "bucle-espera bucle-espera-entrada", role: "group", "aria-labelledby": id },
    h("label", { class: "bucle-espera-pregunta", id, for: campo.id, text: etiqueta }),
    h("div", { class: "bucle-espera-linea" }, campo,
      h("button", { type: "submit", class: "bucle-boton", text: ESPERA.enviar })));
  formulario.addEventListener("submit", (evento) => {
    evento.preventDefault();
    responder(campo.value);
  });
  return formulario;
}
