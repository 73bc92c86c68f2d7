// The widgets' one way to build their DOM. What the reader's code, the grader or storage says
// always goes in as text (`text`, or a string child), never as HTML.
//
//   h("p", { class: "bucle-x", text: "hola", hidden: true }, hijo, null, "texto")
//   boton("Ejecutar", () => …, "bucle-celda-ejecutar")     <button type="button" class="bucle-boton …">

/** An element: `atributos` (class, text, or any attribute; null/false leave it out), then children. */
export function h(etiqueta, atributos = {}, ...hijos) {
  const el = document.createElement(etiqueta);
  for (const [nombre, valor] of Object.entries(atributos)) {
    if (nombre === "class") el.className = valor;
    else if (nombre === "text") el.textContent = valor;
    else if (valor != null && valor !== false) el.setAttribute(nombre, valor === true ? "" : valor);
  }
  el.append(...hijos.filter((x) => x != null));
  return el;
}

/** A button of the widgets (estilos/base.css) that calls `alPulsar`. */
export function boton(texto, alPulsar, clase = "") {
  const b = h("button", { type: "button", class: `bucle-boton ${clase}`.trim(), text: texto });
  b.addEventListener("click", alPulsar);
  return b;
}

/** Call `hacer` when the page is idle (or after a moment where the browser cannot tell). */
export function cuandoEsteOciosa(hacer) {
  if ("requestIdleCallback" in globalThis) requestIdleCallback(hacer, { timeout: 3000 });
  else setTimeout(hacer, 1500);
}

/** The modifier key of the keyboard shortcuts, as this reader's keyboard names it. */
export const TECLA = /Mac|iPhone|iPad/.test(globalThis.navigator?.platform ?? "") ? "⌘" : "Ctrl";
