// The editor of a cell or a challenge, loaded when it is first needed: CodeMirror is a chunk of
// its own (../editor.js), and until it arrives the page shows the code highlighted by the build.
//
//   prepararEstatico(bloque);                 // the static code: focusable, keys kept for the editor
//   cuandoCerca(bloque, () => cargar());      // once, when the block comes near the viewport
//   const editor = await editorEnLugarDe(bloque, "bucle-celda-editor", { codigo: () => texto, … });

// What was typed into a static block before its editor came: block → text.
const tecleado = new WeakMap();

/**
 * Let a keyboard reach the static code of `bloque` (its `<pre>`): it takes the focus in the tab
 * order, and what is typed there (characters and Enter) is kept and typed into the editor that
 * takes its place. Focusing it is what loads the editor (the widget's focusin).
 */
export function prepararEstatico(bloque) {
  const pre = bloque.querySelector("pre");
  if (!pre) return;
  pre.tabIndex = 0;
  pre.addEventListener("keydown", (evento) => {
    if (evento.ctrlKey || evento.metaKey || evento.altKey) return;
    const texto = evento.key === "Enter" ? "\n" : evento.key.length === 1 ? evento.key : null;
    if (texto === null) return;
    evento.preventDefault(); // (a space would scroll the page)
    tecleado.set(bloque, (tecleado.get(bloque) ?? "") + texto);
  });
}

// Blocks waiting to come near the viewport: element → what to do then. The margin is two
// viewports, so that a reader scrolling at a reading pace finds the editor made.
const cerca = new Map();
let observador = null;

/** Call `hacer` once, when `elemento` comes within two viewports' height of the visible page. */
export function cuandoCerca(elemento, hacer) {
  if (!("IntersectionObserver" in globalThis)) {
    hacer();
    return;
  }
  observador ??= new IntersectionObserver((entradas) => {
    for (const { target, isIntersecting } of entradas) {
      const accion = isIntersecting ? cerca.get(target) : null;
      if (!accion) continue;
      cerca.delete(target);
      observador.unobserve(target);
      accion();
    }
  }, { rootMargin: "200% 0px" });
  cerca.set(elemento, hacer);
  observador.observe(elemento);
}

/**
 * Put an editor in the place of the highlighted code of `bloque` (the `<pre>` the build wrote,
 * inside its `.highlight`), in a new `<div class="bucle-editor clase">`; resolves to the editor.
 * `opciones` are crearEditor's (etiqueta, descripcion, alEjecutar, alCambiar), with `codigo` a
 * function: the code when the editor is made (it may have changed while CodeMirror loaded). If the
 * static code had the focus, the editor gets it, with what was typed meanwhile.
 */
export async function editorEnLugarDe(bloque, clase, { codigo, ...opciones }) {
  const { crearEditor } = await import("../editor.js");
  const lugar = bloque.querySelector(".highlight") ?? bloque;
  const estatico = lugar.querySelector("pre");
  const hueco = document.createElement("div");
  hueco.className = `bucle-editor ${clase}`; // estilos/editor.css
  lugar.insertBefore(hueco, estatico);
  const editor = crearEditor(hueco, { ...opciones, codigo: codigo() });
  const conFoco = Boolean(estatico?.contains(document.activeElement));
  estatico?.remove();
  if (conFoco) {
    editor.enfocar();
    const texto = tecleado.get(bloque);
    if (texto) editor.vista.dispatch(editor.vista.state.replaceSelection(texto));
  }
  tecleado.delete(bloque);
  return editor;
}

/**
 * Show `codigo` in `editor`, or, until it has loaded, in the static block's `<pre>`
 * (unhighlighted): one span per line, as the build writes it, so that estilos/editor.css numbers
 * and wraps it as the editor will.
 */
export function mostrarCodigo(bloque, editor, codigo) {
  if (editor) {
    editor.poner(codigo);
    return;
  }
  const pre = bloque.querySelector("pre");
  if (!pre) return;
  const lineas = codigo.split("\n"); // a final newline makes an empty last line, as in the editor
  bloque.classList.remove("bucle-linea-final"); // the build's, for the lesson's code
  pre.replaceChildren(...lineas.map((linea) => {
    const span = document.createElement("span");
    span.className = "bucle-linea";
    span.textContent = `${linea}\n`;
    return span;
  }));
  bloque.style.setProperty("--bucle-cifras", String(Math.max(2, String(lineas.length).length)));
}
