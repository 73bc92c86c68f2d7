"""``python -m widgets nuevo <carpeta>``: a new course that builds as it is.

The template is :file:`plantilla/`, real files copied as they are; in the text ones, ``__TITULO__``
becomes the course's title (from the folder's name, or ``--titulo``) and ``__CLAVE__`` its key in
the reader's storage (the folder's name as a slug). ``gitignore`` is written as ``.gitignore`` (a
dot-file would not ship in the package). A folder that exists and is not empty is refused, with
nothing written.
"""

from __future__ import annotations

import re
import shutil
import unicodedata
from pathlib import Path

PLANTILLA = Path(__file__).resolve().parent / "plantilla"
TEXTOS = {".py", ".md", ".json", ".txt", ""}  # "" : Makefile, gitignore
RENOMBRES = {"gitignore": ".gitignore"}


class CarpetaOcupada(Exception):
    """The destination exists and holds something."""


def clave_de(nombre: str) -> str:
    """«Mi curso de Python» → «mi-curso-de-python»."""
    plano = unicodedata.normalize("NFKD", nombre).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plano.lower()).strip("-") or "curso"


def titulo_de(nombre: str) -> str:
    """«mi-curso» → «Mi curso»."""
    texto = re.sub(r"[-_]+", " ", nombre).strip()
    return (texto[:1].upper() + texto[1:]) or "Mi curso"


def crear(destino: Path, titulo: str | None = None) -> list[Path]:
    """Write the template into ``destino``; return the files written, in order."""
    destino = Path(destino)
    if destino.exists() and (not destino.is_dir() or any(destino.iterdir())):
        raise CarpetaOcupada(destino)
    titulo = titulo or titulo_de(destino.resolve().name)
    clave = clave_de(destino.resolve().name)
    escritos = []
    for origen in sorted(PLANTILLA.rglob("*")):
        if origen.is_dir() or "__pycache__" in origen.parts:
            continue
        relativa = origen.relative_to(PLANTILLA)
        relativa = relativa.with_name(RENOMBRES.get(relativa.name, relativa.name))
        archivo = destino / relativa
        archivo.parent.mkdir(parents=True, exist_ok=True)
        if origen.suffix in TEXTOS:
            texto = origen.read_text(encoding="utf-8")
            archivo.write_text(texto.replace("__TITULO__", titulo).replace("__CLAVE__", clave),
                               encoding="utf-8")
        else:
            shutil.copyfile(origen, archivo)
        escritos.append(archivo)
    return escritos
