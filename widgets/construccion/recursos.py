"""The assets each page loads: the JS and CSS of the widgets it uses, and nothing otherwise.

Each kind of widget has one entry module in the bundle (``_static/bucle/<tipo>.js``) that
defines its custom element; all share ``_static/bucle/bucle.css``. Each widget carries the
course and the page (for storage keys) in ``data-`` attributes (see :mod:`widgets.base.nodos`).
A page's head links, as ``modulepreload``, every chunk its module scripts import
(``precargas.json``, written by the bundler), so the browser fetches the module graph at once
rather than level by level.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path

from sphinx.application import Sphinx

from ..ajustes import ESTATICOS
from ..base.paginas import tipos_de

#: The entry module of each kind of widget, where it is not named after the kind.
MODULO_DE = {"grupo": "pregunta"}


def setup_recursos(app: Sphinx) -> None:
    app.connect("html-page-context", recursos_de_la_pagina)
    app.connect("html-page-context", precargar_trozos, priority=900)  # after every script


def recursos_de_la_pagina(app: Sphinx, pagename: str, templatename: str, context: dict,
                          doctree) -> None:
    tipos = tipos_de(doctree)
    if not tipos:
        return
    app.add_css_file("bucle/bucle.css")
    if {"celda", "desafio", "banco"} & set(tipos):
        # In the head (the theme puts scripts at the end of the body): an async script runs only
        # once the parser has reached it, and this one makes the page's worker as it loads.
        archivo = "_static/bucle/python-temprano.js"
        # Versioned as Sphinx versions the links it writes (?v=, a CRC-32 of the published file).
        suma = zlib.crc32((Path(app.outdir) / archivo).read_bytes())
        src = f'{context["pathto"](archivo, 1)}?v={suma:08x}'
        context["metatags"] = (context.get("metatags", "")
                               + f'<script type="module" async src="{src}"></script>\n')
    for modulo in sorted({MODULO_DE.get(tipo, tipo) for tipo in tipos}):
        app.add_js_file(f"bucle/{modulo}.js", type="module")


def precargar_trozos(app: Sphinx, pagename: str, templatename: str, context: dict,
                     doctree) -> None:
    """``<link rel="modulepreload">`` in the head for each chunk that the page's module scripts of
    the bundle (``_static/bucle/*.js``) import statically, all the way down."""
    precargas = json.loads((ESTATICOS / "precargas.json").read_text(encoding="utf-8"))
    trozos = set()
    for js in context.get("script_files", ()):
        nombre = str(js.filename)  # by now with its folder: _static/bucle/celda.js
        if js.attributes.get("type") == "module" and nombre.startswith("_static/bucle/"):
            trozos.update(precargas.get(nombre[len("_static/bucle/"):], ()))
    enlaces = "".join(f'<link rel="modulepreload" href="{context["pathto"]("_static/bucle/" + t, 1)}">\n'
                      for t in sorted(trozos))
    context["metatags"] = context.get("metatags", "") + enlaces
