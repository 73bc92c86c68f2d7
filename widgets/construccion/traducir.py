"""The theme speaks Spanish: Furo's (and Sphinx's) interface strings that no catalogue
translates, replaced in the written pages.

Furo hard-codes some labels (``aria-label="Toggle site navigation sidebar"``, its icons'
``<title>``) and ships no Spanish catalogue for the rest («Next», «Back to top», «On this page»).
A reader hears and sees all of them, so each written page goes through :data:`TRADUCCIONES`:
exact fragments of markup, English → Spanish. The build test checks that none is left.

The same pass mends :data:`ARREGLOS`, markup a screen reader gets wrong: Sphinx writes a
toctree's caption (Furo's sidebar heading «Las lecciones») as ``role="heading"`` without the
``aria-level`` that role requires.
"""

from __future__ import annotations

import re
from pathlib import Path

from sphinx.application import Sphinx

TRADUCCIONES = {
    'aria-label="Toggle site navigation sidebar"': 'aria-label="Mostrar u ocultar la navegación"',
    'aria-label="Toggle table of contents sidebar"':
        'aria-label="Mostrar u ocultar el índice de la página"',
    'aria-label="Toggle Light / Dark / Auto color theme"':
        'aria-label="Cambiar el tema: claro, oscuro o automático"',
    'title="Link to this heading"': 'title="Enlace a esta sección"',
    "<title>Contents</title>": "<title>Índice de la página</title>",
    "<title>Menu</title>": "<title>Menú</title>",
    "<title>Expand</title>": "<title>Desplegar</title>",
    "<title>Light mode</title>": "<title>Tema claro</title>",
    "<title>Dark mode</title>": "<title>Tema oscuro</title>",
    "<title>Auto light/dark, in light mode</title>": "<title>Tema automático, ahora claro</title>",
    "<title>Auto light/dark, in dark mode</title>": "<title>Tema automático, ahora oscuro</title>",
    ">Skip to content<": ">Saltar al contenido<",
    "<span>Back to top</span>": "<span>Volver arriba</span>",
    "<span>Previous</span>": "<span>Anterior</span>",
    "<span>Next</span>": "<span>Siguiente</span>",
    '<div class="title">Home</div>': '<div class="title">Portada</div>',
    "On this page\n": "En esta página\n",
    "Copyright &#169; ": "&#169; ",
}

#: Accessibility repairs of the theme's markup (not translations).
ARREGLOS = {
    '<p class="caption" role="heading">': '<p class="caption" role="heading" aria-level="2">',
}


#: Fragments whose whitespace depends on the template: matched as patterns.
PATRONES = {
    re.compile(r'Made with\s*(<a href="https://www.sphinx-doc.org/">Sphinx</a>)\s*and\s*'
               r'(<a class="muted-link" href="https://pradyunsg.me">@pradyunsg</a>)\'s\s*'
               r'(<a href="https://github.com/pradyunsg/furo">Furo</a>)'):
        r"Hecho con \1 y el tema \3, de \2",
}


def traducir(html: str) -> str:
    for antes, despues in (*TRADUCCIONES.items(), *ARREGLOS.items()):
        html = html.replace(antes, despues)
    for patron, espanol in PATRONES.items():
        html = patron.sub(espanol, html)
    return html


def traducir_paginas(app: Sphinx, exception) -> None:
    if exception is not None or app.builder.format != "html" or app.config.language != "es":
        return
    for ruta in Path(app.outdir).rglob("*.html"):
        html = ruta.read_text(encoding="utf-8")
        nuevo = traducir(html)
        if nuevo != html:
            ruta.write_text(nuevo, encoding="utf-8")


def setup_traducir(app: Sphinx) -> None:
    app.connect("build-finished", traducir_paginas, priority=800)
