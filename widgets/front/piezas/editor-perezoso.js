// The editor of a cell or a challenge, loaded when it is first needed: CodeMirror is a chunk of
// its own (../editor.js), and until it arrives the page shows the code highlighted by the build.

/**
 * Put an editor in the place of the highlighted code of `bloque` (the `<pre>` the build wrote,
 * inside its `.highlight`), in a new `<div class="bucle-editor clase">`; resolves to the editor.
 * `opciones` are crearEditor's (codigo, etiqueta, descripcion, alEjecutar, alCambiar).
 */
export async function editorEnLugarDe(bloque, clase, opciones) {
  const { crearEditor } = await import("../editor.js");
  const lugar = bloque.querySelector(".highlight") ?? bloque;
  const estatico = lugar.querySelector("pre");
  const hueco = document.createElement("div");
  hueco.className = `bucle-editor ${clase}`; // estilos/editor.css
  lugar.insertBefore(hueco, estatico);
  const editor = crearEditor(hueco, opciones);
  estatico?.remove();
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
