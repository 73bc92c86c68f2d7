"""What the build keeps for each page, across incremental and parallel builds.

What a component remembers about each page (the course map's ids, the reading time, the
challenges in use) lives in ``env.<nombre>``, a dict docname → data, registered with
:func:`datos_por_pagina` so that a page that is read again loses its old entry and parallel
readers' entries are merged back::

    datos_por_pagina(app, "bucle_lectura")        # in setup_<componente>(app)
    de_las_paginas(env, "bucle_lectura")[docname] = minutos
"""

from __future__ import annotations

from sphinx.application import Sphinx

from .nodos import widget


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
