"""«Tu primer curso» (docs/referencia.md) is followed literally, command by command, in an empty
folder with a fresh virtual environment: what a new author does in their first ten minutes.

The tutorial marks its steps: ``<!-- tutorial: orden -->`` before a ``sh`` block (run, each line
in order, in one shell that starts where the last one ended, with the tutorial's virtual
environment active once it exists), ``<!-- tutorial: servir -->`` before the block that starts
the live preview (left running while the rest goes on), and ``<!-- tutorial: añade <archivo> -->``
before a ``markdown`` block (appended to that file of the course, as an author pastes it and
saves: the preview must build it again without an error, and serve it).

Two things are not literal. ``/ruta/a/el-bucle`` is a copy of this project's package (what pip
installs from it: pyproject.toml, README.md, widgets/), so that two builds never share the
repository's build/ folder; and pip takes the versions of requirements.txt (``PIP_CONSTRAINT``),
so that a new release on PyPI cannot change what this test means. ``make serve`` gets a free port
(``PUERTO``, which the tutorial names).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import ROOT

REFERENCIA = ROOT / "docs" / "referencia.md"
PASO = re.compile(r"^<!-- tutorial: (?P<que>orden|servir|añade (?P<archivo>\S+)) -->\n"
                  r"(?P<valla>`{3,})(?P<lengua>\w+)\n(?P<texto>.*?)\n(?P=valla)$", re.M | re.S)


def pasos() -> list[tuple[str, str | None, str]]:
    """(qué, archivo, texto) of each marked step, in order."""
    texto = REFERENCIA.read_text(encoding="utf-8")
    encontrados = [(m["que"].split()[0], m["archivo"], m["texto"]) for m in PASO.finditer(texto)]
    assert len(encontrados) == len(re.findall(r"^<!-- tutorial: ", texto, re.M)), \
        "a «<!-- tutorial: … -->» mark is not followed by its block"
    return encontrados


def test_the_tutorial_has_its_steps_in_a_sensible_order():
    hechos = pasos()
    ordenes = "\n".join(t for q, _, t in hechos if q == "orden")
    assert "pip install /ruta/a/el-bucle" in ordenes and "python -m widgets nuevo micurso" in ordenes
    assert [q for q, _, _ in hechos].count("servir") == 1
    assert {a for q, a, _ in hechos if q == "añade"} == {"primera-leccion.md"}
    assert "make test" in ordenes and "make html" in ordenes


def _puerto_libre() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _paquete(destino: Path) -> Path:
    """What ``pip install /ruta/a/el-bucle`` reads of this project, copied."""
    destino.mkdir()
    for nombre in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / nombre, destino / nombre)
    shutil.copytree(ROOT / "widgets", destino / "widgets",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return destino


def _version(url: str) -> dict:
    with urllib.request.urlopen(url + "_vista/version", timeout=10) as r:
        return json.loads(r.read())


@pytest.mark.timeout(1200)  # a fresh venv, pip, npm ci and three builds: 1–3 min here, more on a busy machine
def test_a_new_author_follows_tu_primer_curso_command_by_command(tmp_path):
    if not (ROOT / "widgets" / "static" / ".stamp").is_file():
        pytest.fail("the front end is not bundled: run 'make bundle' first")
    paquete = _paquete(tmp_path / "el-bucle")
    carpeta = tmp_path / "autora"
    carpeta.mkdir()
    entorno = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    entorno.update(PIP_CONSTRAINT=str(ROOT / "requirements.txt"), PIP_DISABLE_PIP_VERSION_CHECK="1",
                   PUERTO=str(_puerto_libre()))
    donde, activar = carpeta, carpeta / ".venv" / "bin" / "activate"
    marca = tmp_path / "donde"
    vista, url, version = None, f"http://127.0.0.1:{entorno['PUERTO']}/", 0

    def shell(texto: str) -> str:
        previo = f'. "{activar}"\n' if activar.is_file() else ""
        return f'set -e\ncd "{donde}"\n{previo}{texto}\n'

    try:
        for que, archivo, texto in pasos():
            if que == "orden":
                texto = texto.replace("/ruta/a/el-bucle", str(paquete))
                proceso = subprocess.run(["bash", "-c", shell(texto) + f'pwd > "{marca}"\n'],
                                         capture_output=True, text=True, env=entorno, timeout=900, check=False)
                assert proceso.returncode == 0, f"{texto}\n{proceso.stdout}\n{proceso.stderr}"
                donde = Path(marca.read_text().strip())
            elif que == "servir":
                with open(tmp_path / "servir.log", "w", encoding="utf-8") as registro:
                    vista = subprocess.Popen(["bash", "-c", shell(texto)], stdout=registro,
                                             stderr=subprocess.STDOUT, env=entorno,
                                             start_new_session=True)
                limite = time.monotonic() + 600
                while "Vista previa en" not in (tmp_path / "servir.log").read_text(encoding="utf-8"):
                    assert vista.poll() is None, (tmp_path / "servir.log").read_text(encoding="utf-8")
                    assert time.monotonic() < limite, "make serve never served"
                    time.sleep(0.5)
                assert f"Vista previa en {url}" in (tmp_path / "servir.log").read_text(encoding="utf-8")
                version = _version(url)["version"]
            else:
                with (donde / archivo).open("a", encoding="utf-8") as f:
                    f.write("\n" + texto + "\n")
                limite = time.monotonic() + 120
                while (estado := _version(url))["version"] == version:
                    assert time.monotonic() < limite, "the preview did not build the edit"
                    time.sleep(0.2)
                version = estado["version"]
                assert estado["error"] is None, estado["error"]
                pagina = urllib.request.urlopen(url + archivo.replace(".md", ".html")).read().decode()
                # the widget it adds is on the served page: its :id:, or the challenge's id
                ident = re.search(r"^:id: (\S+)$|^`{3,}\{desafio\} (\S+)$", texto, re.M)
                assert ident and f'id="{ident[1] or ident[2]}"' in pagina, texto
    finally:
        if vista is not None:
            os.killpg(vista.pid, signal.SIGTERM)
            vista.wait(timeout=30)
    sitio = donde / "_build" / "html"
    leccion = (sitio / "primera-leccion.html").read_text(encoding="utf-8")
    assert leccion.count("bucle-widget bucle-desafio") == 2 and leccion.count("bucle-widget bucle-traza") == 2
    assert (sitio / "sw.js").is_file() and (sitio / "_static" / "pyodide" / "pyodide.asm.wasm").is_file()
