"""The course map: ``progreso``, a directive for the index that lists the lessons with the
reader's progress in each (questions answered, challenges passed, the best round of predictions
of each trace) from the browser's storage, and lets the reader export and import that progress
as a file.

.. code-block:: markdown

   ```{progreso}
   ```

The lessons are the documents of the page's toctree, in order. At read time each page's widget
ids are collected (``env.bucle_widgets``); when the index is written the node is filled::

    widget(tipo="progreso", datos={"lecciones": [{"pagina", "titulo", "url", "lectura",
                                                  "preguntas": [ids], "desafios": [ids],
                                                  "trazas": [ids with predict mode]}]})
      bullet_list            <- links to the lessons: the map reads without JavaScript
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx

from ..base.directiva import Directiva
from ..base.nodos import nuevo_widget, widget
from ..base.paginas import datos_por_pagina, de_las_paginas


class Progreso(Directiva):
    has_content = False

    def construir(self):
        return [nuevo_widget(self, "progreso", {"lecciones": []}, "progreso")]


def _recoger(app: Sphinx, doctree: nodes.document) -> None:
    """Remember, per page, the ids of its questions, challenges and traces that predict."""
    env = app.env
    ids: dict[str, list[str]] = {"pregunta": [], "desafio": [], "traza": [], "mapa": []}
    for nodo in doctree.findall(widget):
        tipo = "mapa" if nodo["tipo"] == "progreso" else nodo["tipo"]
        if tipo == "traza" and "predicciones" not in nodo["datos"]:
            continue
        if tipo in ids:
            ids[tipo].append(nodo["ident"])
    de_las_paginas(env, "bucle_widgets")[env.docname] = ids


def _rellenar(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    env = app.env
    for nodo in list(doctree.findall(widget)):
        if nodo["tipo"] != "progreso":
            continue
        lecciones = []
        lista = nodes.bullet_list(classes=["bucle-mapa"])
        for pagina in env.toctree_includes.get(docname, []):
            titulo = env.titles[pagina].astext() if pagina in env.titles else pagina
            url = app.builder.get_relative_uri(docname, pagina)
            ids = de_las_paginas(env, "bucle_widgets").get(pagina, {})
            lecciones.append({
                "pagina": pagina,
                "titulo": titulo,
                "url": url,
                "lectura": de_las_paginas(env, "bucle_lectura").get(pagina),
                "preguntas": ids.get("pregunta", []),
                "desafios": ids.get("desafio", []),
                "trazas": ids.get("traza", []),
            })
            enlace = nodes.reference("", titulo, internal=True, refuri=url)
            lista += nodes.list_item("", nodes.paragraph("", "", enlace))
        nodo["datos"] = {"lecciones": lecciones}
        nodo[:] = [lista]


def _desactualizados(app, env, added, changed, removed) -> list[str]:
    """A page with the map is rewritten whenever any other page changes: it lists them all."""
    if not (added or changed or removed):
        return []
    return [d for d, ids in de_las_paginas(env, "bucle_widgets").items() if ids.get("mapa")]


def setup_progreso(app: Sphinx) -> None:
    app.add_directive("progreso", Progreso)
    app.connect("doctree-read", _recoger)
    app.connect("doctree-resolved", _rellenar)
    app.connect("env-get-outdated", _desactualizados)
    datos_por_pagina(app, "bucle_widgets")
