"""The ``desafio`` directive: a challenge the reader solves in the page, graded by its tests.

In MyST, the argument is the challenge's id (a folder of ``challenges/``) and the content is the
statement, in Markdown::

    ```{desafio} bucle-con-tope
    :pista-tras: 3
    :solucion-tras: 6

    Escribe `bucle(modelo, inicio, entorno, tope)`...
    ```

It produces one ``widget`` node (see :mod:`widgets.base.nodos`)::

    widget(tipo="desafio", ident=<id>, datos={...})
      container(classes=["bucle-desafio-enunciado"])     the statement
      literal_block(language="python",
                    classes=["bucle-desafio-inicial"])    the starter code

``datos`` (JSON in the page): ``desafio`` (the id), ``inicial`` (starter code), ``pruebas`` (test
names, in order), ``pista``, ``pista_tras`` (failed checks before the hint shows),
``solucion`` (the reference, shown after ``solucion_tras`` failed checks or once passed),
``limite`` (seconds per test), ``mensajes`` (the engine's texts for a result the page builds
itself, see ``Calificador.datos``), ``runtime_modulos`` (the runtime modules the tests load, in
order) and ``urls``, relative to the page, of what the worker fetches: ``desafios`` (the folder
holding ``<id>/pruebas.py``) and ``runtime``. The engine package itself is not fetched: the
page's worker carries it (``widgets/front/lib/calificador.js``).

At build time the challenge is checked (the reference passes every test, the starter fails,
each known-wrong solution fails its test with its message), in a child process
(:mod:`widgets.aislamiento.comprobacion`): a file that ends its process, loops, floods or crashes
is a problem of that file. The checks of every challenge the documents to read use start when
the reading starts, as many at once as there are cores, and each directive waits for its own.
An unknown id or a failing check is an error at the directive's line, naming the challenge's
file. Every path comes from the
settings (``bucle_desafios_dir``, ``bucle_runtime_dir``, ``bucle_runtime_modulos``), relative
to ``conf.py``'s folder. The build publishes, under ``_static/bucle/desafios/``, exactly the
files of the challenges folder the engine read to grade the challenges in use (their
``inicial.py`` and ``pruebas.py``, and what those ``usar``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from ..ajustes import ruta
from ..calificador import disco
from ..base.nodos import codigo_editable, nuevo_widget
from ..base.paginas import datos_por_pagina, de_las_paginas
from ..base import comprobaciones
from ..base.directiva import Directiva, Invalida

#: Where the published files go, inside the HTML output.
PUBLICADOS = ("_static", "bucle", "desafios")


class Desafio(Directiva):
    optional_arguments = 1  # required, but with a Spanish error when it is missing
    has_content = True
    opciones = {
        "pista-tras": directives.nonnegative_int,
        "solucion-tras": directives.nonnegative_int,
    }

    def construir(self) -> list[nodes.Node]:
        app = self.env.app
        carpeta = ruta(app, "bucle_desafios_dir")
        disponibles = disco.desafios(carpeta)
        if not self.arguments:
            raise Invalida(f"falta el id del desafío, como en ```{{desafio}} "
                           f"{(disponibles or ['id'])[0]}; los hay: "
                           f"{', '.join(disponibles) or 'ninguno'}")
        ident = self.arguments[0]
        if ident not in disponibles:
            raise Invalida(f"no hay ningún desafío «{ident}» en {carpeta}; "
                           f"los hay: {', '.join(disponibles) or 'ninguno'}")
        if not self.content:
            raise Invalida(f"el desafío «{ident}» necesita un enunciado: escríbelo dentro "
                           f"de la directiva")
        curso = comprobaciones.curso(app)
        modulos = curso.modulos
        hecho = comprobaciones.comprobar(app, curso, ident)
        for archivo in comprobaciones.archivos(curso, ident, hecho.leidos):
            self.env.note_dependency(str(archivo))
        if hecho.problemas:
            lista = "\n".join(f"  {_relativo(archivo, app)}: {problema}"
                              for archivo, problema in hecho.problemas)
            raise Invalida(f"el desafío «{ident}» no pasa sus comprobaciones:\n{lista}")

        base = carpeta / ident
        inicial = (base / "inicial.py").read_text(encoding="utf-8")
        raiz = _raiz_relativa(self)
        datos = {
            "desafio": ident,
            "inicial": inicial,
            "pruebas": hecho.datos["pruebas"],
            "pista": hecho.datos["pista"],
            "pista_tras": self.options.get("pista-tras", 3),
            "solucion": (base / "solucion.py").read_text(encoding="utf-8"),
            "solucion_tras": self.options.get("solucion-tras", 6),
            "limite": hecho.datos["limite"],
            "mensajes": hecho.datos["mensajes"],
            "urls": {
                "desafios": raiz + "/".join(PUBLICADOS) + "/",
                "runtime": raiz + "runtime/",
            },
            "runtime_modulos": list(modulos),
        }
        node = nuevo_widget(self, "desafio", datos, ident)
        enunciado = nodes.container(classes=["bucle-desafio-enunciado"])
        enunciado += self.parse_content_to_nodes()
        codigo = codigo_editable(inicial, ident, ("bucle-desafio-inicial",))
        node += [enunciado, codigo]
        _usados(self.env).setdefault(self.env.docname, {})[ident] = hecho.leidos
        return [node]

def _relativo(archivo: Path, app: Sphinx) -> str:
    try:
        return str(Path(archivo).relative_to(app.confdir))
    except ValueError:
        return str(archivo)


def _raiz_relativa(directive: SphinxDirective) -> str:
    """The path from the page to the root of the site ("" or "../" per level)."""
    uri = directive.env.app.builder.get_target_uri(directive.env.docname)
    return "../" * uri.count("/")


def _usados(env) -> dict[str, dict[str, list[str]]]:
    """{docname: {challenge: files of the challenges folder its grading read}}."""
    return de_las_paginas(env, "bucle_desafios_leidos")


def publicar_desafios(app: Sphinx, exception: Exception | None) -> None:
    """Copy the challenge files its grading read into the output."""
    if exception is not None or app.builder.format != "html":
        return
    leidos = sorted({r for usados in _usados(app.env).values()
                     for del_desafio in usados.values() for r in del_desafio})
    if not leidos:
        return
    carpeta = ruta(app, "bucle_desafios_dir")
    destino = Path(app.outdir).joinpath(*PUBLICADOS)
    for relativa in leidos:
        (destino / relativa).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(carpeta / relativa, destino / relativa)


def setup_desafio(app: Sphinx) -> None:
    app.add_directive("desafio", Desafio)
    datos_por_pagina(app, "bucle_desafios_leidos")
    app.connect("env-before-read-docs", comprobaciones.empezar)
    app.connect("build-finished", publicar_desafios)
    app.connect("build-finished", comprobaciones.cerrar)
