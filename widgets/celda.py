"""The ``celda`` directive: a runnable Python cell.

In a lesson::

    ```{celda}
    :id: saludo
    print("hola")
    ```

``:id:`` is optional: without it the cell is ``celda-N``, N being its number on the page. The
cells of a page share one namespace in page order, so each carries its order number too. An
empty cell or an unknown option fails the build, in Spanish, with the file and line. The node::

    widget(tipo="celda", ident="saludo", datos={"codigo": 'print("hola")', "orden": 1})
        literal_block(language="python")     ← the code, highlighted: what reads without JS

which HTML renders as ``<bucle-celda …><div class="highlight-python">…</div><script
type="application/json" class="bucle-datos">{…}</script></bucle-celda>`` (see
:mod:`widgets.nodos`); ``widgets/front/celda.js`` turns it into an editor with its buttons.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from .nodos import nuevo_widget
from .opciones import Invalida, OpcionesDe, rechazar_desconocidas


def _texto(valor) -> str:
    return (valor or "").strip()


class Celda(SphinxDirective):
    has_content = True
    required_arguments = 0
    optional_arguments = 0
    option_spec = OpcionesDe({"id": _texto})

    def run(self) -> list[nodes.Node]:
        try:
            rechazar_desconocidas(self, "celda")
        except Invalida as fallo:
            return [self.reporter.error(fallo.mensaje, line=fallo.linea)]
        if "id" in self.options and not self.options["id"]:
            raise self.error("la opción :id: de la celda necesita un valor")
        codigo = "\n".join(self.content).strip("\n")
        if not codigo.strip():
            raise self.error("la celda está vacía: escribe dentro el código Python que ejecutará el lector")
        orden = self.env.temp_data.get("bucle_celdas", 0) + 1
        self.env.temp_data["bucle_celdas"] = orden

        # Without :id:, the id follows the number the reader sees («Celda 2» is #celda-2).
        ident = self.options.get("id") or f"celda-{orden}"
        nodo = nuevo_widget(self, "celda", {"codigo": codigo, "orden": orden}, ident)
        bloque = nodes.literal_block(codigo, codigo, language="python")
        self.set_source_info(bloque)
        nodo += bloque
        return [nodo]


def setup_celda(app: Sphinx) -> None:
    app.add_directive("celda", Celda)
