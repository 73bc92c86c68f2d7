"""Wires the widgets into Sphinx: configuration, one module per component, and the assets.

Assets are added only to the pages that use a widget, and only for HTML builders. The build also
publishes what the page runs: Pyodide's runtime files (from the folder ``bucle_pyodide_dir``)
under ``_static/pyodide/``, the wheels the cells may import (``widgets/ruedas-pagina.txt``,
fetched from PyPI into the ``bucle_ruedas_dir`` cache) under ``_static/bucle/ruedas/``, and the
course runtime (the ``*.py`` of ``bucle_runtime_dir`` not
starting with ``_``) under ``runtime/``, so that a lesson's
``exec(open_url("runtime/entorno.py").read())`` fetches the file the author holds. Both settings
are relative to the folder of ``conf.py`` (see :mod:`widgets.ajustes`).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util import logging

from . import __version__
from .ajustes import ruta, setup_ajustes
from .ruedas_pyodide import DE_LA_PAGINA, ErrorDeRuedas, asegurar

logger = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
#: Pyodide's files the page needs; everything else in the npm package stays out of the site.
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)


def setup_extension(app: Sphinx) -> dict:
    setup_ajustes(app)

    from .csp import setup_csp
    from .paginas import setup_paginas
    from .sin_conexion import setup_sin_conexion
    from .traducir import setup_traducir

    setup_paginas(app)
    setup_csp(app)
    setup_traducir(app)
    setup_sin_conexion(app)
    app.connect("env-updated", publish_bundle)
    app.connect("build-finished", publish_files)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}


def publish_bundle(app: Sphinx, env) -> None:
    """Copy the front-end bundle into the HTML output before the pages are written, as Sphinx
    copies its own static files: each page's link to a script or stylesheet of the bundle then
    carries the file's checksum (``?v=``), so that a browser never keeps an old script under a
    new page."""
    if app.builder.format != "html":
        return
    if not (STATIC / ".stamp").exists():
        raise ExtensionError(
            f"the widgets' front end is not bundled ({STATIC} is missing): run 'make bundle'"
        )
    shutil.copytree(STATIC, Path(app.outdir) / "_static" / "bucle", dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns(".stamp"))


def publish_files(app: Sphinx, exception: Exception | None) -> None:
    """Copy Pyodide and the course runtime into the HTML output."""
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)

    pyodide = ruta(app, "bucle_pyodide_dir")
    missing = [name for name in PYODIDE_FILES if not (pyodide / name).is_file()]
    if missing:
        raise ExtensionError(
            f"Pyodide's files are missing from {pyodide}: {', '.join(missing)} (run 'npm ci')"
        )
    target = out / "_static" / "pyodide"
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        _copy_if_changed(pyodide / name, target / name)

    # The wheels the cells may import (trabajador.py installs one on its first import).
    try:
        ruedas = asegurar(ruta(app, "bucle_ruedas_dir"), DE_LA_PAGINA)
    except ErrorDeRuedas as error:
        raise ExtensionError(str(error)) from None
    destino = out / "_static" / "bucle" / "ruedas"
    destino.mkdir(parents=True, exist_ok=True)
    for rueda in ruedas:
        _copy_if_changed(rueda, destino / rueda.name)

    runtime_out = out / "runtime"
    runtime_out.mkdir(parents=True, exist_ok=True)
    for source in sorted(ruta(app, "bucle_runtime_dir").glob("*.py")):
        if not source.name.startswith("_"):
            _copy_if_changed(source, runtime_out / source.name)


def _copy_if_changed(source: Path, target: Path) -> None:
    if target.exists() and target.stat().st_size == source.stat().st_size \
            and target.stat().st_mtime >= source.stat().st_mtime:
        return
    shutil.copy2(source, target)
