"""Reading time: each lesson says under its title how long it takes to read.

Computed from the words of the page (prose, code and questions alike) at 200 words a minute,
rounded up, and shown as ``<p class="bucle-lectura">Lectura: unos 9 minutos</p>`` right after
the title. Only pages that hold a widget other than the course map get it (lessons, not the
index). The count is kept in ``env.bucle_lectura`` for the course map.
"""

from __future__ import annotations

import math
import re

from docutils import nodes
from sphinx.application import Sphinx

from ..base import textos
from ..base.nodos import widget
from ..base.paginas import datos_por_pagina, de_las_paginas

PALABRAS_POR_MINUTO = 200
_PALABRA = re.compile(r"\w+")


def minutos_de_lectura(texto: str) -> int:
    return max(1, math.ceil(len(_PALABRA.findall(texto)) / PALABRAS_POR_MINUTO))


def _anotar(app: Sphinx, doctree: nodes.document) -> None:
    env = app.env
    tipos = {n["tipo"] for n in doctree.findall(widget)}
    if not tipos - {"progreso"}:
        return
    minutos = minutos_de_lectura(doctree.astext())
    de_las_paginas(env, "bucle_lectura")[env.docname] = minutos
    seccion = next(iter(doctree.findall(nodes.section)), None)
    if seccion is None or not seccion.children or not isinstance(seccion[0], nodes.title):
        return
    nota = nodes.paragraph("", textos.lectura(minutos), classes=["bucle-lectura"])
    seccion.insert(1, nota)


def setup_lectura(app: Sphinx) -> None:
    app.connect("doctree-read", _anotar)
    datos_por_pagina(app, "bucle_lectura")
