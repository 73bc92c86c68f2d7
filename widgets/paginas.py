"""What is per page: the assets a page loads, and the data the build keeps for each page.

A page loads the JS and CSS of the widgets it uses, and nothing otherwise. Its head links, as
``modulepreload``, every chunk its module scripts import (``precargas.json``, written by the
bundler), so the browser fetches the module graph at once rather than level by level.

Each kind of widget has one entry module in the bundle (``_static/bucle/<tipo>.js``) that
defines its custom element; all share ``_static/bucle/bucle.css``. Each widget carries the
course and the page (for storage keys) in ``data-`` attributes (see :mod:`widgets.nodos`).

What a component remembers about each page across the build (the course map's ids, the reading
time, the challenges in use) lives in ``env.<nombre>``, a dict docname → data, registered with
:func:`datos_por_pagina` so that a page that is read again loses its old entry and parallel
readers' entries are merged back::

    datos_por_pagina(app, "bucle_lectura")        # in setup_<componente>(app)
    de_las_paginas(env, "bucle_lectura")[docname] = minutos
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path

from sphinx.application import Sphinx

from .nodos import setup_nodos, widget


#: The entry module of each kind of widget, where it is not named after the kind.
MODULO_DE = {"grupo": "pregunta"}


def setup_paginas(app: Sphinx) -> None:
    setup_nodos(app)
    from .celda import setup_celda
    from .desafio import setup_desafio
    from .grabacion import setup_grabacion
    from .lectura import setup_lectura
    from .modelo import setup_modelo
    from .pregunta import setup_pregunta
    from .progreso import setup_progreso
    from .traza import setup_traza

    for setup_componente in (setup_celda, setup_traza, setup_pregunta, setup_desafio, setup_progreso,
                             setup_lectura, setup_modelo, setup_grabacion):
        setup_componente(app)
    app.connect("html-page-context", add_page_assets)
    app.connect("html-page-context", preload_module_chunks, priority=900)  # after every script


def de_las_paginas(env, nombre: str) -> dict:
    """``env.<nombre>``, the dict docname → data of one component (made empty the first time)."""
    if not hasattr(env, nombre):
        setattr(env, nombre, {})
    return getattr(env, nombre)


def datos_por_pagina(app: Sphinx, nombre: str) -> None:
    """Keep ``env.<nombre>`` right across incremental and parallel builds: a page's entry is
    dropped when the page is purged, and the entries of the pages a parallel reader read are
    merged into the main environment."""
    def purgar(app, env, docname) -> None:
        de_las_paginas(env, nombre).pop(docname, None)

    def fusionar(app, env, docnames, otro) -> None:
        suyos = de_las_paginas(otro, nombre)
        de_las_paginas(env, nombre).update({d: suyos[d] for d in docnames if d in suyos})

    app.connect("env-purge-doc", purgar)
    app.connect("env-merge-info", fusionar)


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
    if {"celda", "desafio"} & set(tipos):
        # In the head (the theme puts scripts at the end of the body): an async script runs only
        # once the parser has reached it. See the module's header.
        archivo = "_static/bucle/python-temprano.js"
        # Versioned as Sphinx versions the links it writes (?v=, a CRC-32 of the published file).
        suma = zlib.crc32((Path(app.outdir) / archivo).read_bytes())
        src = f'{context["pathto"](archivo, 1)}?v={suma:08x}'
        context["metatags"] = (context.get("metatags", "")
                               + f'<script type="module" async src="{src}"></script>\n')
    for modulo in sorted({MODULO_DE.get(tipo, tipo) for tipo in tipos}):
        app.add_js_file(f"bucle/{modulo}.js", type="module")


def preload_module_chunks(app: Sphinx, pagename: str, templatename: str, context: dict,
                          doctree) -> None:
    """``<link rel="modulepreload">`` in the head for each chunk that the page's module scripts of
    the bundle (``_static/bucle/*.js``) import statically, all the way down."""
    from .extension import STATIC

    precargas = json.loads((STATIC / "precargas.json").read_text(encoding="utf-8"))
    trozos = set()
    for js in context.get("script_files", ()):
        nombre = str(js.filename)  # by now with its folder: _static/bucle/celda.js
        if js.attributes.get("type") == "module" and nombre.startswith("_static/bucle/"):
            trozos.update(precargas.get(nombre[len("_static/bucle/"):], ()))
    enlaces = "".join(f'<link rel="modulepreload" href="{context["pathto"]("_static/bucle/" + t, 1)}">\n'
                      for t in sorted(trozos))
    context["metatags"] = context.get("metatags", "") + enlaces
