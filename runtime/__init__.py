"""CPython side of the runtime contract: run the runtime files the way a page does.

In the page, a cell runs ``exec(open_url("runtime/entorno.py").read())`` with Pyodide's
``open_url``. Here :func:`open_url` reads the same files from this folder, so the course's tests
execute exactly what readers load (the extension and the grader read the runtime folder named by
the setting ``bucle_runtime_dir`` instead, and never import this package; all three run the files
with the grader's ``ejecutar_runtime``)::

    ns = espacio()                     # a namespace with open_url in it
    exec('exec(open_url("runtime/entorno.py").read())', ns)
    ns = espacio("entorno", "guionizado", "escenarios")   # the same, already loaded

This module is not published in the site (files starting with ``_`` are not).
"""

from __future__ import annotations

import io
from pathlib import Path
from urllib.parse import urlsplit

from widgets.calificador.runtime import ejecutar_runtime

CARPETA = Path(__file__).resolve().parent


def open_url(url: str) -> io.StringIO:
    """Read ``runtime/<file>`` (any URL whose path ends so) from this folder."""
    ruta = urlsplit(url).path
    nombre = ruta.rsplit("/", 1)[-1]
    archivo = CARPETA / nombre
    if "runtime/" not in "/" + ruta or not archivo.is_file() or nombre.startswith("_"):
        raise FileNotFoundError(f"no hay un archivo del runtime en {url!r}")
    return io.StringIO(archivo.read_text(encoding="utf-8"))


def espacio(*nombres: str) -> dict:
    """A fresh namespace holding ``open_url``, with ``runtime/<nombre>.py`` executed in order."""
    ns: dict = {"__name__": "__main__", "open_url": open_url}
    return ejecutar_runtime(ns, nombres, lambda nombre: open_url(f"runtime/{nombre}.py").read())
