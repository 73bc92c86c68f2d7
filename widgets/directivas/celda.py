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
                                               (widgets.base.nodos.codigo_editable)

which HTML renders as ``<bucle-celda …><div class="highlight-python">…</div><script
type="application/json" class="bucle-datos">{…}</script></bucle-celda>`` (see
:mod:`widgets.base.nodos`); ``widgets/front/celda.js`` turns it into an editor with its buttons.
"""

from __future__ import annotations

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx

from ..base.directiva import Directiva, Invalida
from ..base.nodos import codigo_editable, nuevo_widget


class Celda(Directiva):
    has_content = True
    opciones = {"id": directives.unchanged}

    def construir(self) -> list[nodes.Node]:
        if "id" in self.options and not self.options["id"].strip():
            raise Invalida("la opción :id: de la celda necesita un valor")
        codigo = "\n".join(self.content).strip("\n")
        if not codigo.strip():
            raise Invalida("la celda está vacía: escribe dentro el código Python que ejecutará "
                           "el lector")
        orden = self.env.temp_data.get("bucle_celdas", 0) + 1
        self.env.temp_data["bucle_celdas"] = orden

        # Without :id:, the id follows the number the reader sees («Celda 2» is #celda-2).
        ident = self.options.get("id", "").strip() or f"celda-{orden}"
        nodo = nuevo_widget(self, "celda", {"codigo": codigo, "orden": orden}, ident)
        bloque = codigo_editable(codigo, ident)
        self.set_source_info(bloque)
        nodo += bloque
        return [nodo]


def setup_celda(app: Sphinx) -> None:
    app.add_directive("celda", Celda)
