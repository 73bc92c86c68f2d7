"""``python -m widgets comprobar [carpeta]``: every challenge of a course, checked as the build
checks it (:func:`widgets.calificador.disco.comprobar`): the reference passes every test, the
starter does not, and each known-wrong solution fails its named test with its message.

The settings are read from the course's ``conf.py`` (``bucle_desafios_dir``,
``bucle_runtime_dir``, ``bucle_runtime_modulos``), with the extension's defaults. One line per
challenge (``✔ id`` or ``✘ id`` and its problems, file by file); exit 0 when all hold.
"""

from __future__ import annotations

from pathlib import Path

from ..ajustes import ajustes_de_conf
from ..calificador import disco


def comprobar(carpeta: Path, escribir=print) -> int:
    """Check the challenges of the course whose conf.py is in ``carpeta``; return how many fail."""
    carpeta = Path(carpeta).resolve()
    ajustes = ajustes_de_conf(carpeta / "conf.py")
    desafios = carpeta / ajustes["bucle_desafios_dir"]
    runtime = carpeta / ajustes["bucle_runtime_dir"]
    ids = disco.desafios(desafios) if desafios.is_dir() else []
    if not ids:
        escribir(f"No hay desafíos en {desafios}.")
        return 0
    calificador = disco.calificador(desafios, runtime, ajustes["bucle_runtime_modulos"])
    fallan = 0
    for desafio in ids:
        problemas = disco.comprobar(calificador, desafio, desafios)
        if not problemas:
            escribir(f"✔ {desafio}: la solución pasa, el código inicial no, y "
                     f"{len(disco.errores_conocidos(desafio, desafios))} errores conocidos fallan "
                     f"donde dicen")
            continue
        fallan += 1
        escribir(f"✘ {desafio}")
        for archivo, problema in problemas:
            escribir(f"    {Path(archivo).relative_to(carpeta)}: {problema}")
    return fallan
