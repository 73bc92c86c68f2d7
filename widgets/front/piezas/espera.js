// What a cell shows while Python waits for the reader (python.js's alPreguntar, lib/espera.js):
// a permission question with Permitir and Denegar, or input()'s prompt with a text field and
// Enviar (Enter sends). Each is a group named by its question; `alResponder(texto)` gets the
// answer ("permitir" | "denegar", or the line typed) once.
//
//   const ui = preguntaEnLaSalida({ tipo: "permiso", pregunta, detalle }, (texto) => …);
//   salida.append(ui); ui.enfocar();
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

function permiso(id, { pregunta, detalle }, responder) {
  return h("div", { class: "bucle-espera", role: "group", "aria-labelledby": id },
    h("p", { class: "bucle-espera-pregunta", id, text: pregunta }),
    detalle ? h("code", { class: "bucle-espera-detalle", text: detalle }) : null,
    h("div", { class: "bucle-espera-botones" },
      boton(ESPERA.permitir, () => responder("permitir"), "bucle-espera-permitir"),
      boton(ESPERA.denegar, () => responder("denegar"))));
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
