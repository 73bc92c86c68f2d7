"""The build's checks of its challenges: each run in a child process, in a pool, once per version
of its files, and kept across builds. The ``desafio`` directive shows a challenge only if its
checks pass; the ``traza`` directive runs a reference solution only if it passed them.

When the documents to read are known (``env-before-read-docs``), :func:`empezar` starts checking
every challenge they use whose last check is stale, as many at once as there are cores
(:class:`widgets.aislamiento.comprobacion.Grupo`); a directive then waits for its own
(:func:`comprobar`). A file that ends its process, loops, floods or crashes is a problem of that
file, and the build goes on to report it (:mod:`widgets.aislamiento.comprobacion`).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from sphinx.application import Sphinx

from ..aislamiento import Curso
from ..aislamiento.comprobacion import Grupo
from ..ajustes import CALIFICADOR, ruta, runtime_modulos
from ..calificador import disco

#: A ``desafio`` directive's first line in MyST (backticks or colons), and its id.
_DIRECTIVA = re.compile(r"^\s*(?:`{3,}|:{3,})\s*\{desafio\}\s+(\S+)", re.M)


class Comprobado:
    """What checking a challenge gave the build: its problems ([(file, problem)]), its data for
    the page, the files of the challenges folder the engine read (relative paths), and the
    version of the files it was checked with (:func:`version`)."""

    def __init__(self, hecho, ident: str):
        self.problemas = hecho.problemas
        self.datos = hecho.datos
        leidos = {disco.archivo_leido(url) for url in hecho.leidos} - {None}
        self.leidos = sorted(leidos | {f"{ident}/{n}" for n in disco.ARCHIVOS_DESAFIO})
        self.version = None


def curso(app: Sphinx) -> Curso:
    """The course the build's settings describe."""
    return Curso(ruta(app, "bucle_desafios_dir"), ruta(app, "bucle_runtime_dir"),
                 runtime_modulos(app), app.config.bucle_curso)


def archivos(curso: Curso, ident: str, leidos: list[str]) -> list[Path]:
    """Every file a challenge's checks depend on: its folder, what its tests used, the engine
    and the runtime."""
    carpeta = curso.desafios
    propios = sorted(p for p in (carpeta / ident).rglob("*.py") if "__pycache__" not in p.parts)
    usados = [carpeta / r for r in leidos]
    return (sorted(set(propios + usados)) + sorted(CALIFICADOR.glob("*.py"))
            + sorted(curso.runtime.glob("*.py")))


def version(curso: Curso, ident: str, leidos: list[str]) -> tuple:
    """The version of a challenge's checks: each file's path, modification time and size (as
    Sphinx tells a changed source), and Python's."""
    return (sys.version, str(curso.runtime), curso.modulos) + tuple(
        (str(a), a.stat().st_mtime_ns, a.stat().st_size)
        for a in archivos(curso, ident, leidos) if a.is_file())


def comprobar(app: Sphinx, curso: Curso, ident: str) -> Comprobado:
    """The challenge's checks: the kept ones if its files did not change, or else those of the
    build's pool (started by :func:`empezar`, or now)."""
    guardados = _guardados(app.env)
    hecho = _vigente(curso, ident, guardados)
    if hecho is None:
        hecho = Comprobado(_grupo(app).resultado(curso, ident), ident)
        hecho.version = version(curso, ident, hecho.leidos)
        guardados[(str(curso.desafios), ident)] = hecho
    return hecho


def empezar(app: Sphinx, env, docnames: list[str]) -> None:
    """Before the documents are read: start checking, in the pool, every challenge that the
    documents to read use and whose last check is stale (found by reading their sources for
    the directive; one missed here is checked when its directive asks)."""
    este = curso(app)
    disponibles = set(disco.desafios(este.desafios))
    for docname in docnames:
        try:
            fuente = Path(env.doc2path(docname)).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for ident in _DIRECTIVA.findall(fuente):
            if ident in disponibles and _vigente(este, ident, _guardados(env)) is None:
                _grupo(app).pedir(este, ident)


def cerrar(app: Sphinx, exception: Exception | None) -> None:
    """The build ended: its pool lets its threads go."""
    grupo = getattr(app, "bucle_comprobaciones", None)
    if grupo is not None:
        grupo.cerrar()
        app.bucle_comprobaciones = None


def _vigente(curso: Curso, ident: str, guardados: dict) -> Comprobado | None:
    hecho = guardados.get((str(curso.desafios), ident))
    if hecho is None or hecho.version != version(curso, ident, hecho.leidos):
        return None
    return hecho


def _grupo(app: Sphinx) -> Grupo:
    """The build's pool of checks (one per Sphinx application)."""
    if getattr(app, "bucle_comprobaciones", None) is None:
        app.bucle_comprobaciones = Grupo()
    return app.bucle_comprobaciones


def _guardados(env) -> dict:
    """The checks' results kept in the build environment, which Sphinx saves with the doctrees:
    a lesson rebuilt after an edit of its prose does not check its challenge again. A clean
    build, or a new environment, checks every one."""
    if not hasattr(env, "bucle_comprobados"):
        env.bucle_comprobados = {}
    return env.bucle_comprobados
