"""The ``modelo`` directive: where the reader chooses to download the course's in-page model.

In a lesson::

    ```{modelo}
    ```

It renders the download widget (``widgets/front/modelo.js``): a button **Descargar el modelo
(N MB)** with the size of what it fetches (the GGUF and llama.cpp's wasm, from the site), a
sentence saying what it is, then the progress and **Cancelar**, then «Modelo listo». A page that
uses it makes the build publish the model (:mod:`widgets.modelo_local`). The node::

    widget(tipo="modelo", ident="modelo", datos={"nombre", "licencia",
                                                  "modelo": {"archivo", "bytes", "sha256"},
                                                  "wasm": {"archivo", "bytes", "sha256"}})
      paragraph       ← what reads without JavaScript

``archivo`` is relative to ``_static/bucle/``; the page checks each file's SHA-256 against the
one written here before it keeps or runs it. The data is written again each time the page is
(``doctree-resolved``), so that a page read by an earlier build names the files this build
publishes (another ``wllama.wasm`` after ``npm ci``).
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

from .directiva import Directiva, Invalida
from .modelo_local import ErrorDelModelo, datos_del_modelo, setup_modelo_local
from .nodos import nuevo_widget, widget
from .paginas import datos_por_pagina, de_las_paginas


class Modelo(Directiva):
    has_content = False

    def construir(self) -> list[nodes.Node]:
        try:
            datos = datos_del_modelo(self.env.app)
        except ErrorDelModelo as error:
            raise Invalida(str(error)) from None
        de_las_paginas(self.env, "bucle_modelo_paginas")[self.env.docname] = True
        nodo = nuevo_widget(self, "modelo", datos, "modelo")
        nodo += nodes.paragraph(
            "", f"Aquí se puede descargar un modelo de lenguaje pequeño, {datos['nombre']} "
            f"({datos['licencia']}), para ejecutarlo en este navegador. Hace falta JavaScript.")
        return [nodo]


def _al_dia(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    for nodo in doctree.findall(widget):
        if nodo["tipo"] == "modelo":
            try:
                nodo["datos"] = datos_del_modelo(app)
            except ErrorDelModelo as error:
                raise ExtensionError(f"{docname}: el modelo del curso: {error}") from None


class ServidorPropio(Directiva):
    """``{servidor-propio}``: the control where the reader types and confirms the address of
    their own model server (``widgets/front/servidor-propio.js``); the page's Python reaches it,
    and no other address off the site, through ``trabajador.servidor_propio()``."""

    has_content = False

    def construir(self) -> list[nodes.Node]:
        nodo = nuevo_widget(self, "servidor-propio", {}, "servidor-propio")
        nodo += nodes.paragraph(
            "", "Aquí se puede escribir la dirección de un servidor de modelos propio. Hace "
                "falta JavaScript.")
        return [nodo]


def setup_modelo(app: Sphinx) -> None:
    app.add_directive("modelo", Modelo)
    app.add_directive("servidor-propio", ServidorPropio)
    app.connect("doctree-resolved", _al_dia)
    datos_por_pagina(app, "bucle_modelo_paginas")
    setup_modelo_local(app)
