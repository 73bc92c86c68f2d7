"""The one docutils node every widget is made of, and its HTML.

A directive builds a plain ``widget`` node (``tipo``, ``ident``, ``datos``) whose children are
the readable fallback: the code of a cell, the statement of a question. HTML builders render it
as a custom element that the front end enhances::

    <bucle-celda class="bucle-widget" id="celda-1" data-bucle-id="celda-1"
                 data-bucle-curso="el-bucle" data-bucle-pagina="el-bucle">
      ...children: what reads without JavaScript...
      <script type="application/json" class="bucle-datos">{...}</script>
    </bucle-celda>

Other builders render the children only. ``datos`` reaches the page as JSON inside the element,
with ``<``, ``>`` and ``&`` escaped so that no string can close the script tag.
"""

from __future__ import annotations

import json
import re

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


class widget(nodes.General, nodes.Element):
    """A widget: ``tipo`` names its kind, ``ident`` is stable, ``datos`` is JSON-able."""


def json_seguro(datos) -> str:
    """JSON that can sit inside ``<script>``: no ``<``, ``>`` or ``&`` survives literally."""
    texto = json.dumps(datos, ensure_ascii=False, separators=(",", ":"))
    return texto.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def nuevo_widget(directive: SphinxDirective, tipo: str, datos: dict, ident: str | None = None) -> widget:
    """Create the node of a widget of ``tipo`` with a stable id (author's or numbered per page)."""
    env = directive.env
    if ident is None:
        cuenta = env.temp_data.setdefault("bucle_cuenta", {})
        cuenta[tipo] = cuenta.get(tipo, 0) + 1
        ident = f"{tipo}-{cuenta[tipo]}"
    elif not _ID.match(ident):
        raise directive.error(
            f"id no válido «{ident}»: usa minúsculas, cifras, «-» o «_», empezando por letra o cifra"
        )
    vistos = env.temp_data.setdefault("bucle_ids", {})
    if ident in vistos:
        raise directive.error(
            f"el id «{ident}» ya se usa en esta página (línea {vistos[ident]}); cada widget necesita uno propio"
        )
    vistos[ident] = directive.lineno
    node = widget(tipo=tipo, ident=ident, datos=datos)
    directive.set_source_info(node)
    return node


def codigo_editable(codigo: str, ident: str, clases: tuple[str, ...] = ()) -> nodes.literal_block:
    """The highlighted block that a widget's editor takes the place of, of class ``bucle-codigo``:
    one ``<span id="<ident>-linea-N">`` per line (Pygments' ``linespans``), which
    ``estilos/editor.css`` numbers and wraps as the editor does, from the first paint and without
    JavaScript, so that nothing moves on the page when the editor comes. A block of 100 lines or
    more gets ``bucle-cifras-N``: the editor's line numbers are wider then. Code that ends in a
    newline gets ``bucle-linea-final``:
    Pygments drops that last, empty line, and the editor shows it."""
    cifras = len(str(codigo.count("\n") + 1))
    clases = ["bucle-codigo", *clases]
    if cifras > 2:
        clases.append(f"bucle-cifras-{cifras}")
    if codigo.endswith("\n"):
        clases.append("bucle-linea-final")
    bloque = nodes.literal_block(codigo, codigo, language="python", classes=clases)
    bloque["highlight_args"] = {"linespans": f"{ident}-linea"}
    return bloque


def visit_widget_html(self, node: widget) -> None:
    tipo = node["tipo"]
    attrs = {
        "ids": [node["ident"]],
        "CLASS": f"bucle-widget bucle-{tipo}",
        "data-bucle-id": node["ident"],
        "data-bucle-curso": self.builder.config.bucle_curso,
        "data-bucle-pagina": self.builder.current_docname,
    }
    self.body.append(self.starttag(node, f"bucle-{tipo}", "", **attrs))


def depart_widget_html(self, node: widget) -> None:
    self.body.append(
        '<script type="application/json" class="bucle-datos">'
        + json_seguro(node["datos"])
        + "</script>"
    )
    self.body.append(f"</bucle-{node['tipo']}>\n")


def visit_widget_texto(self, node: widget) -> None:
    """Non-HTML builders: the readable children only."""


def depart_widget_texto(self, node: widget) -> None:
    pass


def setup_nodos(app: Sphinx) -> None:
    otros = (visit_widget_texto, depart_widget_texto)
    app.add_node(
        widget,
        html=(visit_widget_html, depart_widget_html),
        latex=otros, text=otros, man=otros, texinfo=otros,
    )
