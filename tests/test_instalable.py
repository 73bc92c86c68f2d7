"""The extension works for another course: installed from this repository into a new virtual
environment, it builds «Otro curso» (tests/sites/otro-curso/, copied to a temporary folder
outside the repository) and the page runs in Chromium.

The new environment gets the extension and only what its ``[project]`` table declares, at the
versions pinned in requirements.txt (``pip install -c requirements.txt <repo>``): so this also
proves that the declared dependencies are enough. pip's cache makes a second run take a few
seconds more than the build itself. The course has its own runtime folder (``herramientas/``,
one tool, ``contar``), its own challenges folder (``retos/``) and its reference loop, all named
by settings relative to its ``conf.py``; the repository is never on its ``sys.path``, so the
extension cannot be reading this course's ``challenges`` or ``runtime`` packages.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import venv
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from playwright.sync_api import expect

from tests.conftest import ROOT, SITES

CURSO = SITES / "otro-curso"
RETO = CURSO / "retos" / "contar-y-parar"
ESPERA = 60_000


def _correr(orden: list[str], **opciones) -> subprocess.CompletedProcess:
    entorno = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    proceso = subprocess.run(orden, capture_output=True, text=True, env=entorno, **opciones, check=False)
    if proceso.returncode != 0:
        raise AssertionError(f"{' '.join(orden)} failed:\n{proceso.stdout}\n{proceso.stderr}")
    return proceso


@pytest.fixture(scope="module")
def instalado(tmp_path_factory) -> Path:
    """A new virtual environment with the extension installed from the repository."""
    if not (ROOT / "widgets" / "static" / ".stamp").is_file():
        pytest.fail("the front end is not bundled: run 'make bundle' first")
    # pip builds in the repository's build/ (ignored by git): files deleted from widgets/ since
    # the last build would stay there and ship in the wheel.
    shutil.rmtree(ROOT / "build", ignore_errors=True)
    carpeta = tmp_path_factory.mktemp("instalado") / "venv"
    venv.create(carpeta, with_pip=True)
    python = carpeta / "bin" / "python"
    _correr([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             "-c", str(ROOT / "requirements.txt"), str(ROOT)], cwd=carpeta)
    return python


@pytest.fixture(scope="module")
def otro_curso(instalado, tmp_path_factory) -> Path:
    """«Otro curso», copied out of the repository and built with the installed extension."""
    base = tmp_path_factory.mktemp("otro")
    curso = base / "otro-curso"
    shutil.copytree(CURSO, curso, ignore=shutil.ignore_patterns("__pycache__"))
    # What `npm install pyodide workbox-build` would leave next to its conf.py (the defaults of
    # bucle_pyodide_dir and bucle_node_modules).
    (curso / "node_modules").mkdir()
    for paquete in ("pyodide", "workbox-build"):
        (curso / "node_modules" / paquete).symlink_to(ROOT / "node_modules" / paquete)
    salida = base / "html"
    _correr([str(instalado), "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
             "-c", str(curso), str(curso / "lecciones"), str(salida)], cwd=curso)
    return salida


def test_la_extension_viene_del_entorno_nuevo_y_no_del_repositorio(instalado, tmp_path):
    codigo = ("import importlib.util, sys, widgets\n"
              "print(widgets.__file__)\n"
              "print(importlib.util.find_spec('challenges'), importlib.util.find_spec('runtime'))\n")
    salida = _correr([str(instalado), "-c", codigo], cwd=tmp_path).stdout.splitlines()
    assert Path(salida[0]).is_relative_to(instalado.parent.parent), salida[0]
    assert salida[1] == "None None"
    instalados = Path(salida[0]).parent
    for archivo in ("static/.stamp", "static/trabajador.js", "static/desafio.js", "static/bucle.css",
                    "datos/favicon.svg", "datos/ruedas-pyodide.txt", "calificador/__init__.py",
                    "static/sw.js", "construccion/manifiesto.mjs", "datos/icono-512.png",
                    "trabajador/trabajador.py", "base/nodos.py", "directivas/traza.py"):
        assert (instalados / archivo).is_file(), f"{archivo} is not in the installed package"


def test_el_otro_curso_se_construye_con_sus_carpetas(otro_curso):
    html = BeautifulSoup((otro_curso / "index.html").read_text(encoding="utf-8"), "html.parser")
    for tipo in ("celda", "traza", "pregunta", "desafio"):
        assert html.find(f"bucle-{tipo}"), f"no bucle-{tipo} in the page"
    # its own runtime folder, published as runtime/; its challenge's files; Pyodide; the engine
    assert (otro_curso / "runtime" / "mundo.py").read_text() == \
        (CURSO / "herramientas" / "mundo.py").read_text()
    assert not (otro_curso / "runtime" / "entorno.py").exists()
    assert (otro_curso / "_static" / "pyodide" / "pyodide.mjs").is_file()
    # offline and installable: its service worker lists its own pages, its manifest its name
    assert '"url":"index.html"' in (otro_curso / "sw.js").read_text(encoding="utf-8")
    manifiesto = json.loads((otro_curso / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifiesto["name"] == "Otro curso"
    datos = json.loads(html.find("bucle-desafio").find("script", class_="bucle-datos").string)
    assert datos["desafio"] == "contar-y-parar"
    assert datos["pruebas"] == ["responde sin herramientas", "cuenta con su herramienta",
                                "se para en el tope"]
    assert datos["runtime_modulos"] == ["mundo"]
    # nothing in the site names the repository the extension was installed from
    for archivo in otro_curso.rglob("*"):
        if archivo.suffix in (".html", ".js", ".json", ".py", ".css") and archivo.is_file():
            assert str(ROOT) not in archivo.read_text(encoding="utf-8", errors="replace"), archivo
    traza = json.loads(html.find("bucle-traza").find("script", class_="bucle-datos").string)
    final = traza["trazas"]["3"]["eventos"][-1]
    assert (final["tipo"], final["motivo"], final["texto"]) == ("devuelve", "fin", "Tiene 3 palabras.")


@pytest.mark.navegador
def test_en_el_navegador_la_celda_corre_la_traza_avanza_y_el_desafio_califica(
        otro_curso, servidor, pagina):
    pagina.goto(servidor(otro_curso))

    celda = pagina.locator("bucle-celda#contar")
    celda.get_by_role("button", name="Ejecutar", exact=True).click()
    expect(celda.locator(".bucle-celda-texto")).to_have_text("3 palabras\n", timeout=ESPERA)

    traza = pagina.locator("bucle-traza#paso-a-paso")
    numero = traza.locator(".bucle-traza-numero")
    expect(numero).to_have_text(re.compile(r"^Paso 1 de \d+"))
    traza.get_by_role("button", name="Siguiente", exact=True).click()
    expect(numero).to_have_text(re.compile(r"^Paso 2 de \d+"))
    traza.get_by_role("button", name="Final", exact=True).click()
    expect(traza.locator(".bucle-traza-texto")).to_contain_text(
        'El bucle devuelve ("fin", texto, M) tras el turno 2.')

    desafio = pagina.locator("bucle-desafio")
    editor = pagina.get_by_role("textbox", name="Código del desafío")
    resumen = desafio.locator(".bucle-desafio-resumen[role=status]")
    resultados = desafio.get_by_role("list", name="Resultados de las pruebas").locator(":scope > li")

    # the known-wrong solution: what the engine says in CPython, test by test, and its header
    equivocada = (RETO / "errores" / "sin_texto.py").read_text(encoding="utf-8")
    esperado = del_motor(equivocada)
    assert 0 < esperado["superadas"] < esperado["total"] == 3
    editor.fill(equivocada)
    desafio.get_by_role("button", name="Comprobar", exact=True).click()
    expect(resumen).to_have_text(re.compile(rf"^{esperado['superadas']} de 3 pruebas superadas"),
                                 timeout=ESPERA)
    expect(resultados).to_have_count(3)
    for i, prueba in enumerate(esperado["pruebas"]):
        item = resultados.nth(i)
        expect(item.locator(".bucle-desafio-nombre")).to_have_text(prueba["nombre"])
        expect(item.locator(".bucle-desafio-estado")).to_have_text(
            "superada" if prueba["ok"] else "no superada")
    fallida = resultados.filter(has_text="responde sin herramientas")
    expect(fallida.locator(".bucle-desafio-estado")).to_have_text("no superada")
    expect(fallida.locator(".bucle-desafio-mensaje")).to_contain_text("esperaba ('fin', 'Hola.')")

    editor.fill((RETO / "solucion.py").read_text(encoding="utf-8"))
    desafio.get_by_role("button", name="Comprobar", exact=True).click()
    expect(resumen).to_have_text(re.compile(r"^3 de 3 pruebas superadas"), timeout=ESPERA)


def del_motor(codigo: str) -> dict:
    """What the same engine (this repository's, in CPython) says of ``codigo``."""
    from widgets.calificador import disco

    motor = disco.calificador(CURSO / "retos", CURSO / "herramientas")
    return motor.calificar("contar-y-parar", codigo)
