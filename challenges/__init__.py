"""This course's challenges, graded by the engine of the extension (``widgets.calificador``).

A thin wrapper over :mod:`widgets.calificador.disco` with this course's folders: this one
(one folder per challenge) and ``runtime/``::

    c = calificador()                        # a Calificador reading this folder and runtime/
    c.calificar("bucle-con-tope", codigo)    # → the same result the page gets

See :mod:`widgets.calificador.disco` for a challenge's files and the known-wrong solutions'
header, :func:`curso` for the course as the child processes that grade take it
(:mod:`widgets.aislamiento`), and ``python -m challenges`` for the command.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

from widgets.aislamiento import Curso
from widgets.calificador import disco
from widgets.calificador.disco import ARCHIVOS_DESAFIO, ErrorConocido  # noqa: F401 - re-exported

CARPETA = Path(__file__).resolve().parent
RUNTIME = CARPETA.parent / "runtime"


@cache
def curso() -> Curso:
    """This course (its challenges, runtime and id), as its ``conf.py`` sets it."""
    return Curso.de_conf(CARPETA.parent)


def calificador(carpeta: Path = CARPETA):
    """A new Calificador reading the challenges of ``carpeta`` and this course's runtime."""
    return disco.calificador(carpeta, RUNTIME)


def calificar(desafio: str, codigo: str, carpeta: Path = CARPETA, **opciones) -> dict:
    """Grade ``codigo`` against ``desafio``'s tests (see ``Calificador.calificar``)."""
    return calificador(carpeta).calificar(desafio, codigo, **opciones)


def lector_de(carpeta: Path = CARPETA):
    """An ``open_url`` (text in a StringIO) that reads the site's paths from disk."""
    leer = disco.lector(carpeta, RUNTIME)

    def open_url(url: str) -> io.StringIO:
        return io.StringIO(leer(url))

    return open_url


def desafios(carpeta: Path = CARPETA) -> list[str]:
    """The ids of the challenges in ``carpeta``."""
    return disco.desafios(carpeta)


def errores_conocidos(desafio: str, carpeta: Path = CARPETA) -> list[ErrorConocido]:
    return disco.errores_conocidos(desafio, carpeta)


def comprobar(desafio: str, carpeta: Path = CARPETA) -> list[tuple[Path, str]]:
    """The build-time checks of a challenge (see ``disco.comprobar``)."""
    return disco.comprobar(calificador(carpeta), desafio, carpeta)
