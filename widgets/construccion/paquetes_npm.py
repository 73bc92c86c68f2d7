"""The npm packages the build takes files from are there, at the pinned versions, before anything
is read: Pyodide (copied into the site: the front end and the worker's snapshot are made for one
version) and ``workbox-build`` (which writes the service worker; only with ``bucle_sin_conexion``).

The versions are the extension's (``widgets/datos/paquetes-npm.json``). A missing package or
another version stops the build at once with one Spanish sentence that names the command to run
(``npm ci`` where the course has a lockfile, else the ``npm install`` of the pinned versions),
never with a traceback, and never after a whole build.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from sphinx.application import Sphinx

from ..ajustes import DATOS, ruta

FIJADOS = json.loads((DATOS / "paquetes-npm.json").read_text(encoding="utf-8"))
PAQUETES = {nombre: version for nombre, version in FIJADOS.items() if not nombre.startswith("_")}


def setup_paquetes_npm(app: Sphinx) -> None:
    app.connect("builder-inited", comprobar_paquetes)


def orden_de_instalar(app: Sphinx) -> str:
    """The command that installs the pinned packages in the course's folder."""
    if (Path(app.confdir) / "package-lock.json").is_file():
        return "npm ci"
    return "npm install " + " ".join(f"{n}@{v}" for n, v in PAQUETES.items())


def version_instalada(carpeta: Path) -> str | None:
    """The version in ``carpeta/package.json``, or None when there is no package there."""
    try:
        return json.loads((carpeta / "package.json").read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError):
        return None


def problemas(app: Sphinx) -> list[str]:
    """What is wrong with the packages this build needs, one Spanish sentence each."""
    if app.builder.format != "html":
        return []
    necesarios = {"pyodide": ruta(app, "bucle_pyodide_dir")}
    if app.config.bucle_sin_conexion:
        necesarios["workbox-build"] = ruta(app, "bucle_node_modules") / "workbox-build"
    hay = []
    for nombre, carpeta in necesarios.items():
        version = version_instalada(carpeta)
        if version is None:
            hay.append(f"falta el paquete de npm «{nombre}» (se buscó en {carpeta})")
        elif version != PAQUETES[nombre]:
            hay.append(f"en {carpeta} está «{nombre}» {version}, y esta versión de la extensión "
                       f"necesita la {PAQUETES[nombre]}")
    return hay


def comprobar_paquetes(app: Sphinx) -> None:
    """Stop the build, with one sentence on stderr and exit status 2, when a package is missing
    or of another version. Not an exception: Sphinx 9 answers any exception raised by a handler,
    even a ``ConfigError``, with a page of report and a traceback."""
    hay = problemas(app)
    if hay:
        frase = "; ".join(hay)
        sin_conexion = (" (o, para un sitio sin service worker, pon bucle_sin_conexion = False "
                        "en conf.py)" if any("workbox-build" in h for h in hay) else "")
        print(frase[:1].upper() + frase[1:] + f": ejecuta «{orden_de_instalar(app)}» en "
              f"{app.confdir} y vuelve a construir{sin_conexion}.", file=sys.stderr)
        raise SystemExit(2)
