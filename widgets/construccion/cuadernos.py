"""A lesson as a Jupyter notebook: its headings, prose and code cells, in order.

Pure logic (no Sphinx): :func:`cuaderno` takes the lesson's MyST source and the code of its
cells (as the page runs it) and returns an nbformat 4.5 notebook as a dict::

    [setup code cell]          defines open_url as the page has it (see PREPARACION)
    markdown  "# Título\\n\\nprosa…"     one markdown cell per heading and the prose under it
    code      <celda 1>                  each top-level ```{celda} in place, its code verbatim
    markdown  "## Sección\\n\\n*(En la página de la lección: una pregunta.)*"
    …

Cell ids are numbered (``md-1``, ``celda-1``…), never random, so a rebuild writes the same file.
Other widgets (traces, questions, challenges) need the page: the notebook says where they were.
"""

from __future__ import annotations

import re

from markdown_it.renderer import RendererHTML
from myst_parser.config.main import MdParserConfig
from myst_parser.parsers.mdit import create_md_parser

#: The first code cell of every notebook. In the page, ``open_url("runtime/entorno.py")`` is
#: resolved against the page, which sits at the site's root; in JupyterLite the kernel's worker
#: lives under ``lite/extensions/…``, so the same relative URL is resolved against the site's
#: root here, and the lesson's lines run unchanged.
PREPARACION = '''\
# Preparación del cuaderno: open_url lee las rutas relativas desde la raíz del curso, como en
# la página de la lección (por ejemplo, "runtime/entorno.py").
import js
from pyodide.http import open_url as _open_url

_RAIZ = str(js.location.href).split("/lite/extensions/")[0] + "/"


def open_url(url):
    return _open_url(js.URL.new(url, _RAIZ).href)'''

#: What the notebook says in place of a widget that only the page can show.
EN_LA_PAGINA = {
    "traza": "una traza que se recorre paso a paso",
    "pregunta": "una pregunta",
    "grupo": "unas preguntas",
    "desafio": "un desafío",
    "progreso": "el progreso del curso",
}

_DIRECTIVA = re.compile(r"^\{(?P<nombre>[\w-]+)\}")
_SIN_CONTENIDO = {"front_matter", "myst_target", "myst_line_comment", "myst_block_break"}
METADATOS = {
    "kernelspec": {"name": "python", "display_name": "Python (Pyodide)", "language": "python"},
    "language_info": {"name": "python"},
}


def _parser():
    config = MdParserConfig(enable_extensions={"colon_fence", "deflist"})
    return create_md_parser(config, RendererHTML)


def bloques(texto: str) -> list[tuple[str, str]]:
    """The top-level blocks of a MyST text, as ``(clase, fuente)``: ``clase`` is ``"titulo"``,
    ``"texto"``, ``"celda"`` (source of the fence) or the name of another directive."""
    lineas = texto.splitlines()
    resultado = []
    for token in _parser().parse(texto):
        if token.level != 0 or token.nesting < 0 or token.map is None:
            continue
        if token.type in _SIN_CONTENIDO:
            continue
        fuente = "\n".join(lineas[token.map[0]:token.map[1]]).strip("\n")
        if token.type in ("fence", "colon_fence"):
            directiva = _DIRECTIVA.match(token.info.strip())
            if directiva:
                resultado.append((directiva.group("nombre"), fuente))
                continue
        clase = "titulo" if token.type == "heading_open" else "texto"
        resultado.append((clase, fuente))
    return resultado


def _markdown(numero: int, partes: list[str]) -> dict:
    return {"cell_type": "markdown", "id": f"md-{numero}", "metadata": {},
            "source": "\n\n".join(partes)}


def _codigo(ident: str, codigo: str, metadatos: dict | None = None) -> dict:
    return {"cell_type": "code", "id": ident, "metadata": metadatos or {},
            "execution_count": None, "outputs": [], "source": codigo}


def cuaderno(texto: str, codigos: list[str]) -> dict:
    """The notebook of a lesson whose MyST source is ``texto`` and whose top-level cells run
    ``codigos`` (in page order). Raises ``ValueError`` when the counts differ (a cell nested in
    another directive would be lost)."""
    bloques_ = bloques(texto)
    n_celdas = sum(1 for clase, _ in bloques_ if clase == "celda")
    if n_celdas != len(codigos):
        raise ValueError(
            f"la lección tiene {len(codigos)} celdas, pero {n_celdas} en el nivel superior: "
            "el cuaderno de JupyterLite solo recoge celdas que no están dentro de otra directiva"
        )
    celdas = [_codigo("preparacion", PREPARACION, {"tags": ["preparacion"]})]
    pendiente: list[str] = []
    codigos_ = iter(codigos)
    n_md = n_codigo = 0

    def cerrar_markdown():
        nonlocal n_md
        if pendiente:
            n_md += 1
            celdas.append(_markdown(n_md, pendiente[:]))
            pendiente.clear()

    for clase, fuente in bloques_:
        if clase == "celda":
            cerrar_markdown()
            n_codigo += 1
            celdas.append(_codigo(f"celda-{n_codigo}", next(codigos_)))
        elif clase == "titulo":
            cerrar_markdown()
            pendiente.append(fuente)
        elif clase == "texto":
            pendiente.append(fuente)
        elif clase in EN_LA_PAGINA:
            pendiente.append(f"*(En la página de la lección: {EN_LA_PAGINA[clase]}.)*")
        # any other directive (a toctree, a figure…) has no place in a notebook
    cerrar_markdown()
    return {"cells": celdas, "metadata": METADATOS, "nbformat": 4, "nbformat_minor": 5}
