"""Build times: the whole course from nothing, and one lesson edited then rebuilt.

The lessons are copied to a temporary folder (the repository is never touched) and built with
the repository's conf.py, as ``make html`` does, each clean build into a new folder. The edited
lesson is «El bucle»: a sentence is appended and the same output folder is built again.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

from .tabla import Fila

ROOT = Path(__file__).resolve().parents[1]
LECCION = "el-bucle.md"


def construir(fuente: Path, destino: Path) -> float:
    """``sphinx-build -W`` of ``fuente`` into ``destino``; seconds it took."""
    inicio = time.monotonic()
    proceso = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         "-c", str(ROOT), str(fuente), str(destino)],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )
    segundos = time.monotonic() - inicio
    if proceso.returncode != 0:
        raise SystemExit(f"the build failed:\n{proceso.stdout}\n{proceso.stderr}")
    return segundos


def medir(carpeta: Path, veces: int, avisar=print) -> tuple[list[float], list[float], Path]:
    """Time ``veces`` clean builds and ``veces`` one-lesson rebuilds; return them and the site
    of the first clean build (the one the browser measures)."""
    fuente = carpeta / "lecciones"
    shutil.copytree(ROOT / "lessons", fuente)
    limpias, una = [], []
    for i in range(veces):
        # Each clean build in its own folder: jupyterlite-sphinx keeps its work next to it.
        destino = carpeta / f"limpia-{i}" / "html"
        limpias.append(construir(fuente, destino))
        avisar(f"  clean build {i + 1}/{veces}: {limpias[-1]:.1f} s")
    sitio = carpeta / "limpia-0" / "html"
    ultima = carpeta / f"limpia-{veces - 1}" / "html"
    leccion = fuente / LECCION
    for i in range(veces):
        with leccion.open("a", encoding="utf-8") as f:
            f.write(f"\nUna frase más, la número {i + 1}, para medir la reconstrucción.\n")
        una.append(construir(fuente, ultima))
        avisar(f"  one lesson edited, rebuilt {i + 1}/{veces}: {una[-1]:.1f} s")
    return limpias, una, sitio


def filas(limpias: list[float] | None, una: list[float] | None) -> list[Fila]:
    """The two rows of the table (nothing measured with ``--sitio``)."""
    falta = lambda x: "" if x is not None else "not measured (--sitio)"  # noqa: E731
    return [Fila("Build: whole site, clean", "s", limpias, objetivo="≤ 30 s",
                 cumple=lambda m, _: m <= 30, falta=falta(limpias)),
            Fila("Build: one lesson edited, rebuilt", "s", una, objetivo="≤ 5 s",
                 cumple=lambda m, _: m <= 5, falta=falta(una))]
