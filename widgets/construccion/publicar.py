"""What the build copies into the site besides the pages.

Before the pages are written (``env-updated``), the front end's bundle, as Sphinx copies its own
static files, so that each page's link to a script or stylesheet of the bundle carries the file's
checksum (``?v=``). The bundle owns the top of ``_static/bucle/``: a file there that it no longer
has (a chunk of an earlier bundle, named by its hash) is removed. Its fingerprint is a value of the
build that only the pages depend on (``bucle_huella_del_paquete``, Sphinx's «html» rebuild): when
the bundle changes, Sphinx writes every page again, not only those whose source changed, so that
no page keeps the links (``?v=``, ``modulepreload``) of a bundle that is gone. Once the pages are
written, Pyodide's runtime files (from the folder ``bucle_pyodide_dir``) under ``_static/pyodide/``,
the wheels the cells may import
(``widgets/datos/ruedas-pagina.txt``, fetched from PyPI into the ``bucle_ruedas_dir`` cache)
under ``_static/bucle/ruedas/``, and the course runtime (the ``*.py`` of ``bucle_runtime_dir``
not starting with ``_``) under ``runtime/``, so that a lesson's
``exec(open_url("runtime/entorno.py").read())`` fetches the file the author holds. Both settings
are relative to the folder of ``conf.py`` (see :mod:`widgets.ajustes`).
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

from ..ajustes import ESTATICOS, ruta
from .ruedas_pyodide import DE_LA_PAGINA, ErrorDeRuedas, asegurar

#: Pyodide's files the page needs; everything else in the npm package stays out of the site.
ARCHIVOS_PYODIDE = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)


def setup_publicar(app: Sphinx) -> None:
    app.add_config_value("bucle_huella_del_paquete", huella_del_paquete(), "html", types=(str,))
    app.connect("env-updated", publicar_paquete)
    app.connect("build-finished", publicar_archivos)


def publicar_paquete(app: Sphinx, env) -> None:
    """Copy the front-end bundle into the HTML output before the pages are written, as Sphinx
    copies its own static files: each page's link to a script or stylesheet of the bundle then
    carries the file's checksum (``?v=``), so that a browser never keeps an old script under a
    new page."""
    if app.builder.format != "html":
        return
    if not (ESTATICOS / ".stamp").exists():
        raise ExtensionError(
            f"the widgets' front end is not bundled ({ESTATICOS} is missing): run 'make bundle'"
        )
    destino = Path(app.outdir) / "_static" / "bucle"
    shutil.copytree(ESTATICOS, destino, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".stamp"))
    for viejo in destino.iterdir():  # (the folders are other steps': csp/, modelo/, ruedas/…)
        if viejo.is_file() and not (ESTATICOS / viejo.name).is_file():
            viejo.unlink()


def huella_del_paquete(carpeta: Path = ESTATICOS) -> str:
    """SHA-256 of the bundle's files (names and contents); empty when it is not made yet."""
    resumen = hashlib.sha256()
    if not carpeta.is_dir():
        return ""
    for archivo in sorted(p for p in carpeta.rglob("*") if p.is_file() and p.name != ".stamp"):
        resumen.update(archivo.relative_to(carpeta).as_posix().encode() + b"\0")
        resumen.update(archivo.read_bytes())
    return resumen.hexdigest()


def publicar_archivos(app: Sphinx, exception: Exception | None) -> None:
    """Copy Pyodide and the course runtime into the HTML output."""
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)

    pyodide = ruta(app, "bucle_pyodide_dir")
    missing = [name for name in ARCHIVOS_PYODIDE if not (pyodide / name).is_file()]
    if missing:
        raise ExtensionError(
            f"faltan archivos de Pyodide en {pyodide}: {', '.join(missing)} (ejecuta «npm ci»)"
        )
    target = out / "_static" / "pyodide"
    target.mkdir(parents=True, exist_ok=True)
    for name in ARCHIVOS_PYODIDE:
        _copiar_si_cambio(pyodide / name, target / name)

    # The wheels the cells may import (trabajador.py installs one on its first import).
    try:
        ruedas = asegurar(ruta(app, "bucle_ruedas_dir"), DE_LA_PAGINA)
    except ErrorDeRuedas as error:
        raise ExtensionError(str(error)) from None
    destino = out / "_static" / "bucle" / "ruedas"
    destino.mkdir(parents=True, exist_ok=True)
    for rueda in ruedas:
        _copiar_si_cambio(rueda, destino / rueda.name)

    runtime_out = out / "runtime"
    runtime_out.mkdir(parents=True, exist_ok=True)
    for source in sorted(ruta(app, "bucle_runtime_dir").glob("*.py")):
        if not source.name.startswith("_"):
            _copiar_si_cambio(source, runtime_out / source.name)


def _copiar_si_cambio(source: Path, target: Path) -> None:
    if target.exists() and target.stat().st_size == source.stat().st_size \
            and target.stat().st_mtime >= source.stat().st_mtime:
        return
    shutil.copy2(source, target)
