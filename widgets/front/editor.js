// The code editor of cells and challenges: CodeMirror 6 with Python, loaded only when needed
// (import("./editor.js") puts it in its own chunk, so that reading a page never fetches it).
//
//   const { crearEditor } = await import("./editor.js");
//   const editor = crearEditor(contenedor, {
//     codigo: "print(1)", etiqueta: "Código de la celda 1",
//     alEjecutar: () => …,          // Ctrl/Cmd+Enter
//     alCambiar: (texto) => …,      // after each change of the text
//     descripcion: "id-of-a-hint",  // optional aria-describedby
//   });
//   editor.obtener(); editor.poner("x = 1"); editor.enfocar();
//
// Tab indents; Esc then Tab leaves the editor (CodeMirror's tab-focus escape), so the keyboard
// is never trapped. Colours are the theme's: tokens get Pygments' class names, and the editor
// sits in Sphinx's `.highlight` block, so the page's own highlighting applies in light and dark.
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { EditorState } from "@codemirror/state";
import { EditorView, drawSelection, keymap, lineNumbers } from "@codemirror/view";
import { tagHighlighter, tags as t } from "@lezer/highlight";

// Lezer's highlighting tags → the classes of Pygments' Python lexer (what Sphinx highlights with).
const pygments = tagHighlighter([
  { tag: [t.keyword, t.controlKeyword, t.definitionKeyword, t.modifier], class: "k" },
  { tag: t.moduleKeyword, class: "kn" },
  { tag: t.operatorKeyword, class: "ow" },
  { tag: [t.bool, t.null], class: "kc" },
  { tag: t.string, class: "s2" },
  { tag: t.special(t.string), class: "sa" },
  { tag: t.escape, class: "se" },
  { tag: t.number, class: "mi" },
  { tag: t.comment, class: "c1" },
  { tag: t.function(t.definition(t.variableName)), class: "nf" },
  { tag: t.definition(t.className), class: "nc" },
  { tag: t.meta, class: "nd" },
  { tag: [t.variableName, t.propertyName, t.function(t.variableName)], class: "n" },
  { tag: [t.operator, t.arithmeticOperator, t.compareOperator, t.updateOperator,
    t.definitionOperator, t.bitwiseOperator, t.derefOperator], class: "o" },
  { tag: [t.paren, t.squareBracket, t.brace, t.separator, t.punctuation], class: "p" },
]);

// Colours are Furo's CSS variables, so the editor follows the page into dark mode; fonts and
// spacing are in estilos/celda.css.
const tema = EditorView.theme({
  "&": { backgroundColor: "transparent" },
  ".cm-scroller": { fontFamily: "inherit", lineHeight: "inherit" },
  ".cm-gutters": {
    backgroundColor: "transparent",
    color: "var(--color-foreground-muted)",
    border: "none",
    borderRight: "1px solid var(--color-foreground-border)",
  },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--color-foreground-primary)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground":
    { background: "var(--color-highlighted-background)" },
  "&.cm-focused": { outline: "2px solid var(--color-brand-primary)", outlineOffset: "1px" },
});

export function crearEditor(contenedor, { codigo = "", etiqueta, alEjecutar, alCambiar, descripcion } = {}) {
  const ejecutar = () => {
    alEjecutar?.();
    return true;
  };
  const atributos = { "aria-label": etiqueta, spellcheck: "false", autocapitalize: "off" };
  if (descripcion) atributos["aria-describedby"] = descripcion;

  const vista = new EditorView({
    parent: contenedor,
    state: EditorState.create({
      doc: codigo,
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        indentUnit.of("    "),
        EditorState.tabSize.of(4),
        python(),
        syntaxHighlighting(pygments),
        keymap.of([
          { key: "Mod-Enter", run: ejecutar, preventDefault: true },
          ...defaultKeymap,
          ...historyKeymap,
          indentWithTab,
        ]),
        EditorView.contentAttributes.of(atributos),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) alCambiar?.(update.state.doc.toString());
        }),
        tema,
      ],
    }),
  });

  return {
    vista,
    obtener: () => vista.state.doc.toString(),
    poner(texto) {
      if (texto === vista.state.doc.toString()) return;
      vista.dispatch({ changes: { from: 0, to: vista.state.doc.length, insert: texto } });
    },
    enfocar: () => vista.focus(),
  };
}
