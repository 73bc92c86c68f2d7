"""The ``desafio`` directive: a challenge the reader solves in the page, graded by its tests.

In MyST, the argument is the challenge's id (a folder of ``challenges/``) and the content is the
statement, in Markdown::

    ```{desafio} bucle-con-tope
    :pista-tras: 3
    :solucion-tras: 6

    Escribe `bucle(modelo, inicio, entorno, tope)`...
    ```

It produces one ``widget`` node (see :mod:`widgets.nodos`)::

    widget(tipo="desafio", ident=<id>, datos={...})
      container(classes=["bucle-desafio-enunciado"])     the statement
      literal_block(language="python",
                    classes=["bucle-desafio-inicial"])    the starter code

``datos`` (JSON in the page): ``desafio`` (the id), ``inicial`` (starter code), ``pruebas`` (test
names, in order), ``pista``, ``pista_tras`` (failed checks before the hint shows),
``solucion`` (the reference, shown after ``solucion_tras`` failed checks or once passed),
``limite`` (seconds per test), and the URLs, relative to the page, of what the worker fetches:
``calificador`` (the grader), ``desafios`` (the folder holding ``<id>/pruebas.py``) and
``runtime``.

At build time the challenge is checked (the reference passes every test, the starter fails,
each known-wrong solution fails its test with its message); an unknown id or a failing check is
an error at the directive's line, naming the challenge's file. The build publishes the grader and
the starter and tests of the challenges in use under ``_static/bucle/desafios/``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from .nodos import nuevo_widget
from .opciones import Invalida, OpcionesDe, rechazar_desconocidas

ROOT = Path(__file__).resolve().parent.parent
#: Where the published files go, inside the HTML output.
PUBLICADOS = ("_static", "bucle", "desafios")

_comprobados: dict[tuple, list] = {}


class Desafio(SphinxDirective):
    optional_arguments = 1  # required, but with a Spanish error when it is missing
    has_content = True
    # Unknown options reach run() and are rejected there, in Spanish, at their line.
    option_spec = OpcionesDe({
        "pista-tras": directives.nonnegative_int,
        "solucion-tras": directives.nonnegative_int,
    })

    def run(self) -> list[nodes.Node]:
        import challenges

        try:
            rechazar_desconocidas(self, "desafio")
        except Invalida as fallo:
            return [self.reporter.error(fallo.mensaje, line=fallo.linea)]

        carpeta = Path(self.config.bucle_desafios_dir)
        disponibles = challenges.desafios(carpeta)
        if not self.arguments:
            raise self.error(f"falta el id del desafío, como en ```{{desafio}} "
                             f"{(disponibles or ['id'])[0]}; los hay: "
                             f"{', '.join(disponibles) or 'ninguno'}")
        ident = self.arguments[0]
        if ident not in disponibles:
            raise self.error(f"no hay ningún desafío «{ident}» en {carpeta}; "
                             f"los hay: {', '.join(disponibles) or 'ninguno'}")
        if not self.content:
            raise self.error(f"el desafío «{ident}» necesita un enunciado: escríbelo dentro "
                             f"de la directiva")
        archivos = _archivos(carpeta, ident)
        for archivo in archivos:
            self.env.note_dependency(str(archivo))
        problemas = comprobar(carpeta, ident, archivos)
        if problemas:
            lista = "\n".join(f"  {_relativo(archivo)}: {problema}"
                              for archivo, problema in problemas)
            raise self.error(f"el desafío «{ident}» no pasa sus comprobaciones:\n{lista}")

        base = carpeta / ident
        inicial = (base / "inicial.py").read_text(encoding="utf-8")
        del_calificador = challenges.calificador(carpeta)["datos"](ident)
        raiz = _raiz_relativa(self)
        datos = {
            "desafio": ident,
            "inicial": inicial,
            "pruebas": del_calificador["pruebas"],
            "pista": del_calificador["pista"],
            "pista_tras": self.options.get("pista-tras", 3),
            "solucion": (base / "solucion.py").read_text(encoding="utf-8"),
            "solucion_tras": self.options.get("solucion-tras", 6),
            "limite": del_calificador["limite"],
            "calificador": raiz + "/".join(PUBLICADOS) + "/calificador.py",
            "desafios": raiz + "/".join(PUBLICADOS) + "/",
            "runtime": raiz + "runtime/",
        }
        node = nuevo_widget(self, "desafio", datos, ident)
        enunciado = nodes.container(classes=["bucle-desafio-enunciado"])
        enunciado += self.parse_content_to_nodes()
        codigo = nodes.literal_block(inicial, inicial, language="python",
                                     classes=["bucle-desafio-inicial"])
        node += [enunciado, codigo]
        _usados(self.env).setdefault(self.env.docname, set()).add(ident)
        return [node]


def _archivos(carpeta: Path, ident: str) -> list[Path]:
    """Every file a challenge's checks depend on: its folder, the grader and the runtime."""
    import challenges

    propios = sorted(p for p in (carpeta / ident).rglob("*.py") if "__pycache__" not in p.parts)
    runtime = sorted((ROOT / "runtime").glob("*.py"))
    calificador = [challenges.CARPETA / nombre for nombre in challenges.ARCHIVOS_CALIFICADOR]
    return propios + calificador + runtime


def comprobar(carpeta: Path, ident: str, archivos: list[Path]) -> list[tuple[Path, str]]:
    """The challenge's build-time checks, run once per version of its files in this process."""
    import challenges

    versiones = tuple((str(a), a.stat().st_mtime_ns, a.stat().st_size) for a in archivos)
    clave = (str(carpeta), ident, versiones)
    if clave not in _comprobados:
        _comprobados[clave] = challenges.comprobar(ident, carpeta)
    return _comprobados[clave]


def _relativo(archivo: Path) -> str:
    try:
        return str(Path(archivo).relative_to(ROOT))
    except ValueError:
        return str(archivo)


def _raiz_relativa(directive: SphinxDirective) -> str:
    """The path from the page to the root of the site ("" or "../" per level)."""
    uri = directive.env.app.builder.get_target_uri(directive.env.docname)
    return "../" * uri.count("/")


def _usados(env) -> dict[str, set[str]]:
    if not hasattr(env, "bucle_desafios"):
        env.bucle_desafios = {}
    return env.bucle_desafios


def purge_doc(app: Sphinx, env, docname: str) -> None:
    _usados(env).pop(docname, None)


def merge_info(app: Sphinx, env, docnames, other) -> None:
    for docname in docnames:
        if docname in _usados(other):
            _usados(env)[docname] = _usados(other)[docname]


def publish_challenges(app: Sphinx, exception: Exception | None) -> None:
    """Copy the grader and the starter and tests of each challenge in use into the output."""
    if exception is not None or app.builder.format != "html":
        return
    import challenges

    usados = sorted(set().union(*_usados(app.env).values()))
    if not usados:
        return
    destino = Path(app.outdir).joinpath(*PUBLICADOS)
    destino.mkdir(parents=True, exist_ok=True)
    for nombre in challenges.ARCHIVOS_CALIFICADOR:
        shutil.copyfile(challenges.CARPETA / nombre, destino / nombre)
    carpeta = Path(app.config.bucle_desafios_dir)
    for ident in usados:
        (destino / ident).mkdir(exist_ok=True)
        for nombre in challenges.ARCHIVOS_DESAFIO:
            shutil.copyfile(carpeta / ident / nombre, destino / ident / nombre)


def setup_desafio(app: Sphinx) -> None:
    app.add_config_value("bucle_desafios_dir", str(ROOT / "challenges"), "env", types=[str])
    app.add_directive("desafio", Desafio)
    app.connect("env-purge-doc", purge_doc)
    app.connect("env-merge-info", merge_info)
    app.connect("build-finished", publish_challenges)
