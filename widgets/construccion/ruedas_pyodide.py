"""The wheels the notebook's kernel loads, from PyPI, pinned by hash, and the lock that names them
(and, the same way, the few wheels of the page's own Pyodide: ``widgets/datos/ruedas-pagina.txt``).

JupyterLite's Pyodide kernel loads micropip, IPython (and its dependencies), jedi and comm. The
npm Pyodide package ships only Pyodide's core, so these come from PyPI, pinned with their sha256
in ``widgets/datos/ruedas-pyodide.txt`` and fetched once by ``pip download --require-hashes`` into a
cache (``_build/ruedas-pyodide/``). All but comm are in Pyodide's lock under the same file names,
but with the hashes of Pyodide's own rebuilds: the kernel gets a copy of the lock with PyPI's
hashes for exactly these files (:func:`lock_con_ruedas`); the page's lock stays as npm ships it.
"""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

from ..ajustes import DATOS
from .fijados import ruedas, sha256

FIJADAS = DATOS / "ruedas-pyodide.txt"
#: The wheels of the page's own Pyodide (the cells), pinned the same way: published by
#: widgets/construccion/publicar.py under ``_static/bucle/ruedas/``.
DE_LA_PAGINA = DATOS / "ruedas-pagina.txt"


class ErrorDeRuedas(Exception):
    """The pinned wheels cannot be had or do not match their hashes (message in Spanish)."""


def fijadas(ruta: Path = FIJADAS) -> dict[str, str]:
    """The pinned wheels: sha256 → ``nombre==version`` (read by :func:`.fijados.ruedas`)."""
    return ruedas(ruta, ErrorDeRuedas)


def _en_cache(cache: Path, esperadas: dict[str, str]) -> dict[str, Path]:
    encontradas = {}
    for rueda in sorted(cache.glob("*.whl")) if cache.is_dir() else []:
        suma = sha256(rueda)
        if suma in esperadas:
            encontradas[suma] = rueda
    return encontradas


def asegurar(cache: Path, ruta: Path = FIJADAS) -> list[Path]:
    """The pinned wheels, from ``cache``; the missing ones are fetched from PyPI first (pip,
    ``--require-hashes``). A second build finds them all and downloads nothing."""
    esperadas = fijadas(ruta)
    encontradas = _en_cache(cache, esperadas)
    if len(encontradas) < len(esperadas):
        cache.mkdir(parents=True, exist_ok=True)
        orden = [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
                 "--no-deps", "--only-binary=:all:", "--python-version", "3.14",
                 "--require-hashes", "-r", str(ruta), "-d", str(cache)]
        proceso = subprocess.run(orden, capture_output=True, text=True, check=False)
        if proceso.returncode != 0:
            raise ErrorDeRuedas(
                "no se pudieron descargar de PyPI las ruedas fijadas en "
                f"{ruta.name}:\n{proceso.stderr.strip()}"
            )
        encontradas = _en_cache(cache, esperadas)
    faltan = sorted(esperadas[s] for s in esperadas if s not in encontradas)
    if faltan:
        raise ErrorDeRuedas(f"faltan ruedas con el hash fijado en {ruta.name}: {', '.join(faltan)}")
    return [encontradas[s] for s in sorted(encontradas, key=lambda s: encontradas[s].name)]


def lock_con_ruedas(lock: dict, ruedas: list[Path]) -> tuple[dict, list[Path]]:
    """A copy of Pyodide's lock whose entries for ``ruedas`` (matched by file name) carry the
    wheels' own sha256; and the wheels that the lock does not name (they go to JupyterLite's
    index instead)."""
    nuevo = copy.deepcopy(lock)
    por_nombre = {datos["file_name"]: datos for datos in nuevo["packages"].values()}
    fuera = []
    for rueda in ruedas:
        datos = por_nombre.get(rueda.name)
        if datos is None:
            fuera.append(rueda)
        else:
            datos["sha256"] = sha256(rueda)
    return nuevo, fuera


def dependencias(lock: dict, nombres: list[str]) -> set[str]:
    """The lock's packages that ``nombres`` need, themselves included (names as in the lock)."""
    normal = {n.lower().replace("_", "-"): n for n in lock["packages"]}
    vistos: set[str] = set()
    pendientes = list(nombres)
    while pendientes:
        nombre = normal[pendientes.pop().lower().replace("_", "-")]
        if nombre not in vistos:
            vistos.add(nombre)
            pendientes.extend(lock["packages"][nombre]["depends"])
    return vistos
