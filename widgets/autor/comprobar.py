"""``python -m widgets comprobar [carpeta]``: every challenge of a course, checked as the build
checks it (:func:`widgets.calificador.disco.comprobar`): the reference passes every test, the
starter does not, and each known-wrong solution fails its named test with its message.

The settings are read from the course's ``conf.py`` (``bucle_desafios_dir``,
``bucle_runtime_dir``, ``bucle_runtime_modulos``), with the extension's defaults. Each challenge
is checked in a child process, as many at once as there are cores
(:mod:`widgets.aislamiento.comprobacion`): a file that ends its process, loops, floods or
crashes is a problem of that file. One line per challenge (``✔ id`` or ``✘ id`` and its
problems, file by file); exit 0 when all hold.
"""

from __future__ import annotations

from pathlib import Path

from ..aislamiento import Curso
from ..aislamiento.comprobacion import Grupo
from ..calificador import disco


def comprobar(carpeta: Path, escribir=print) -> int:
    """Check the challenges of the course whose conf.py is in ``carpeta``; return how many fail."""
    carpeta = Path(carpeta).resolve()
    curso = Curso.de_conf(carpeta)
    ids = disco.desafios(curso.desafios) if curso.desafios.is_dir() else []
    if not ids:
        escribir(f"No hay desafíos en {curso.desafios}.")
        return 0
    grupo = Grupo()
    for desafio in ids:
        grupo.pedir(curso, desafio)
    fallan = 0
    for desafio in ids:
        problemas = grupo.resultado(curso, desafio).problemas
        if not problemas:
            escribir(f"✔ {desafio}: la solución pasa, el código inicial no, y "
                     f"{len(disco.errores_conocidos(desafio, curso.desafios))} errores conocidos "
                     f"fallan donde dicen")
            continue
        fallan += 1
        escribir(f"✘ {desafio}")
        for archivo, problema in problemas:
            escribir(f"    {_relativo(archivo, carpeta)}: {problema}")
    return fallan


def _relativo(archivo: Path, carpeta: Path) -> str:
    try:
        return str(Path(archivo).relative_to(carpeta))
    except ValueError:
        return str(archivo)
