"""Per-page assets: a page loads the JS and CSS of the widgets it uses, and nothing otherwise.

Each kind of widget has one entry module in the bundle (``_static/bucle/<tipo>.js``) that
defines its custom element; all share ``_static/bucle/bucle.css``. Each widget carries the
course and the page (for storage keys) in ``data-`` attributes (see :mod:`widgets.nodos`).
"""

from __future__ import annotations

from sphinx.application import Sphinx

from .nodos import setup_nodos, widget


#: The entry module of each kind of widget, where it is not named after the kind.
MODULO_DE = {"grupo": "pregunta"}


def setup_paginas(app: Sphinx) -> None:
    setup_nodos(app)
    from .celda import setup_celda
    from .desafio import setup_desafio
    from .lectura import setup_lectura
    from .pregunta import setup_pregunta
    from .progreso import setup_progreso
    from .traza import setup_traza

    for setup_componente in (setup_celda, setup_traza, setup_pregunta, setup_desafio, setup_progreso,
                             setup_lectura):
        setup_componente(app)
    app.connect("html-page-context", add_page_assets)


def tipos_de(doctree) -> list[str]:
    """The kinds of widget a doctree uses, in a stable order."""
    if doctree is None:
        return []
    return sorted({node["tipo"] for node in doctree.findall(widget)})


def add_page_assets(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    tipos = tipos_de(doctree)
    if not tipos:
        return
    app.add_css_file("bucle/bucle.css")
    for modulo in sorted({MODULO_DE.get(tipo, tipo) for tipo in tipos}):
        app.add_js_file(f"bucle/{modulo}.js", type="module")
