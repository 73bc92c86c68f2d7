"""What an author runs (widgets/autor/, ``python -m widgets …``): a new course from the template,
the challenges checked, the npm packages checked before a build, and the live preview.

The scaffold is built here with this repository's environment and its npm packages linked in
(``tests/test_tutorial.py`` does it all from a fresh virtual environment and ``npm ci``, as an
author would).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import ROOT, construir
from widgets.autor import nuevo
from widgets.autor.vista import Vista
from widgets.construccion.paquetes_npm import PAQUETES

PLANTILLA = ROOT / "widgets" / "autor" / "plantilla"


def widgets(*argumentos, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "widgets", *map(str, argumentos)],
                          capture_output=True, text=True, cwd=cwd or ROOT, check=False)


def con_paquetes(curso: Path) -> Path:
    """What ``npm ci`` leaves in the course: the two packages, linked from this repository's."""
    (curso / "node_modules").mkdir()
    for paquete in PAQUETES:
        (curso / "node_modules" / paquete).symlink_to(ROOT / "node_modules" / paquete)
    return curso


@pytest.fixture
def curso(tmp_path) -> Path:
    proceso = widgets("nuevo", tmp_path / "mi-curso")
    assert proceso.returncode == 0, proceso.stderr
    return con_paquetes(tmp_path / "mi-curso")


def test_nuevo_writes_every_file_of_the_template_with_the_course_s_title_and_key(tmp_path):
    destino = tmp_path / "Curso de Ágatha"
    escritos = nuevo.crear(destino)
    esperados = {p.relative_to(PLANTILLA).as_posix().replace("gitignore", ".gitignore")
                 for p in PLANTILLA.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert {p.relative_to(destino).as_posix() for p in escritos} == esperados
    for nombre in ("conf.py", "index.md", "primera-leccion.md", "Makefile", "README.md",
                   ".gitignore", "package.json", "package-lock.json", "runtime/mundo.py",
                   "desafios/primer-bucle/solucion.py", "desafios/primer-bucle/inicial.py",
                   "desafios/primer-bucle/pruebas.py", "desafios/primer-bucle/clausulas.md"):
        assert (destino / nombre).is_file(), nombre
    conf = (destino / "conf.py").read_text(encoding="utf-8")
    assert 'project = "Curso de Ágatha"' in conf and 'bucle_curso = "curso-de-agatha"' in conf
    assert json.loads((destino / "package.json").read_text(encoding="utf-8"))["name"] == "curso-de-agatha"
    assert not [p for p in destino.rglob("*") if p.is_file()
                and ("__TITULO__" in p.read_text(encoding="utf-8")
                     or "__CLAVE__" in p.read_text(encoding="utf-8"))]


def test_nuevo_refuses_a_folder_that_holds_something_and_writes_nothing(tmp_path):
    ocupada = tmp_path / "ocupada"
    ocupada.mkdir()
    (ocupada / "notas.md").write_text("mías", encoding="utf-8")
    proceso = widgets("nuevo", ocupada)
    assert proceso.returncode == 2
    assert proceso.stderr.strip() == (f"{ocupada} ya existe y no está vacía: elige otra carpeta "
                                      f"(no se ha escrito nada).")
    assert [p.name for p in ocupada.iterdir()] == ["notas.md"]
    assert (ocupada / "notas.md").read_text(encoding="utf-8") == "mías"
    vacia = tmp_path / "vacia"
    vacia.mkdir()
    assert widgets("nuevo", vacia).returncode == 0 and (vacia / "conf.py").is_file()


def test_the_npm_pins_agree_the_extension_s_the_template_s_and_this_course_s():
    for carpeta in (PLANTILLA, ROOT):
        manifiesto = json.loads((carpeta / "package.json").read_text(encoding="utf-8"))
        bloqueo = json.loads((carpeta / "package-lock.json").read_text(encoding="utf-8"))
        for nombre, version in PAQUETES.items():
            assert manifiesto["devDependencies"][nombre] == version, (carpeta, nombre)
            assert bloqueo["packages"][f"node_modules/{nombre}"]["version"] == version, (carpeta, nombre)
    instalada = json.loads((ROOT / "node_modules" / "pyodide" / "package.json").read_text(encoding="utf-8"))
    assert instalada["version"] == PAQUETES["pyodide"]


def test_the_new_course_builds_with_its_four_widgets_and_its_challenge_checks_pass(curso):
    salida = curso / "_build" / "html"
    construir(curso, salida)
    leccion = (salida / "primera-leccion.html").read_text(encoding="utf-8")
    for widget in ("celda", "traza", "pregunta", "desafio"):
        assert leccion.count(f'class="bucle-widget bucle-{widget}') == 1, widget
    assert (salida / "runtime" / "mundo.py").is_file() and (salida / "_static" / "pyodide").is_dir()
    assert not (salida / "desafios").exists() and not (salida / "README.html").exists()
    proceso = widgets("comprobar", curso)
    assert proceso.returncode == 0, proceso.stdout + proceso.stderr
    assert proceso.stdout.splitlines() == [
        "✔ primer-bucle: la solución pasa, el código inicial no, y 4 errores conocidos fallan "
        "donde dicen"]


def test_comprobar_names_the_file_and_the_problem_of_a_broken_challenge(curso):
    solucion = curso / "desafios" / "primer-bucle" / "solucion.py"
    solucion.write_text(solucion.read_text(encoding="utf-8").replace(
        'return ("tope", None, M)', 'return ("fin", None, M)'), encoding="utf-8")
    proceso = widgets("comprobar", curso)
    assert proceso.returncode == 1
    lineas = proceso.stdout.splitlines()
    assert lineas[0] == "✘ primer-bucle"
    assert any(linea.strip().startswith("desafios/primer-bucle/solucion.py: la solución de referencia "
                                    "no pasa «se para en el tope»") for linea in lineas[1:]), lineas
    sin_conf = widgets("comprobar", curso / "runtime")
    assert sin_conf.returncode == 2 and "No hay conf.py en" in sin_conf.stderr


@pytest.mark.parametrize("caso", ["falta", "otra version"])
def test_a_missing_or_other_npm_package_stops_the_build_with_one_spanish_sentence(tmp_path, caso):
    destino = tmp_path / "curso"
    nuevo.crear(destino)
    (destino / "node_modules" / "workbox-build").mkdir(parents=True)
    (destino / "node_modules" / "workbox-build" / "package.json").write_text(
        json.dumps({"version": PAQUETES["workbox-build"]}), encoding="utf-8")
    if caso == "otra version":
        (destino / "node_modules" / "pyodide").mkdir()
        (destino / "node_modules" / "pyodide" / "package.json").write_text(
            json.dumps({"version": "0.27.0"}), encoding="utf-8")
    proceso = construir(destino, destino / "_build" / "html", comprobar=False)
    assert proceso.returncode == 2
    lineas = proceso.stderr.strip().splitlines()
    assert len(lineas) == 1 and "Traceback" not in proceso.stderr, proceso.stderr
    dice = {"falta": f"Falta el paquete de npm «pyodide» (se buscó en {destino / 'node_modules' / 'pyodide'})",
            "otra version": f"En {destino / 'node_modules' / 'pyodide'} está «pyodide» 0.27.0, y esta "
                            f"versión de la extensión necesita la {PAQUETES['pyodide']}"}[caso]
    assert lineas[0] == f"{dice}: ejecuta «npm ci» en {destino} y vuelve a construir."


def _version(url: str) -> dict:
    with urllib.request.urlopen(url + "_vista/version", timeout=10) as r:
        return json.loads(r.read())


def _espera(url: str, cumple, segundos: float = 60) -> dict:
    limite = time.monotonic() + segundos
    while time.monotonic() < limite:
        estado = _version(url)
        if cumple(estado):
            return estado
        time.sleep(0.1)
    raise AssertionError(f"the preview never got there: {estado}")


def test_the_live_preview_builds_again_on_save_and_reports_a_broken_lesson(curso):
    vista = Vista(curso)
    assert vista.construir() and vista.salida == curso / "_build" / "vista"
    assert not (vista.salida / "sw.js").exists()  # the preview has no offline worker
    servidor = vista.servir(0)
    parar = threading.Event()
    hilo = threading.Thread(target=vista.mirar, kwargs={"parar": parar, "escribir": lambda *_: None})
    hilo.start()
    try:
        host, puerto = servidor.server_address[:2]
        url = f"http://{host}:{puerto}/"
        assert _version(url) == {"version": 1, "error": None}
        with urllib.request.urlopen(url + "primera-leccion.html") as r:
            html = r.read().decode()
            assert r.headers["Cross-Origin-Embedder-Policy"] == "require-corp"
        assert html.count('<script src="/_vista/recarga.js" defer></script>') == 1
        with urllib.request.urlopen(url + "sw.js") as r:
            assert b"self.registration.unregister()" in r.read()
        leccion = curso / "primera-leccion.md"
        texto = leccion.read_text(encoding="utf-8")
        leccion.write_text(texto + "\nUna frase nueva.\n", encoding="utf-8")
        _espera(url, lambda e: e["version"] == 2 and e["error"] is None)
        with urllib.request.urlopen(url + "primera-leccion.html") as r:
            assert "Una frase nueva." in r.read().decode()
        leccion.write_text(texto.replace(":tope: 3", ":tope: cero"), encoding="utf-8")
        roto = _espera(url, lambda e: e["version"] == 3)
        assert f"{leccion}:" in roto["error"] and "«:tope: cero» no vale" in roto["error"]
        (curso / "runtime" / "mundo.py").write_text(
            (curso / "runtime" / "mundo.py").read_text(encoding="utf-8") + "\n# otro comentario\n",
            encoding="utf-8")  # the runtime is watched too; the lesson is still broken
        assert _espera(url, lambda e: e["version"] == 4)["error"]
        leccion.write_text(texto, encoding="utf-8")
        _espera(url, lambda e: e["version"] == 5 and e["error"] is None)
    finally:
        parar.set()
        hilo.join(timeout=60)
        servidor.shutdown()
        servidor.server_close()


def test_the_preview_builds_this_course_s_lite_site_once_and_the_scaffold_has_none(curso):
    """This course uses widgets.jupyterlite: its preview asks for the lite site only once (an
    edited lesson's notebook changes the lite build's inputs, which would add 2–3 s to every
    save); the scaffold does not use it, and an unknown setting would fail its -W build."""
    assert Vista(ROOT / "lessons", ROOT).opciones == ["-D", "bucle_jupyterlite_una_vez=1"]
    assert Vista(curso).opciones == []


def test_an_edit_saved_before_the_watch_starts_or_during_a_build_is_not_missed(curso):
    """The preview compares the files with what its last build read, not with what it saw when
    it started watching: a save that lands between the first build and the watch (or during any
    build) still gets its build."""
    vista = Vista(curso)
    assert vista.construir()
    leccion = curso / "primera-leccion.md"
    time.sleep(0.05)
    leccion.write_text(leccion.read_text(encoding="utf-8") + "\nAntes de mirar.\n", encoding="utf-8")
    parar = threading.Event()
    hilo = threading.Thread(target=vista.mirar, kwargs={"parar": parar, "escribir": lambda *_: None})
    hilo.start()
    try:
        limite = time.monotonic() + 60
        while vista.estado.version < 2:
            assert time.monotonic() < limite, "the edit saved before the watch was missed"
            time.sleep(0.1)
        assert "Antes de mirar." in (vista.salida / "primera-leccion.html").read_text(encoding="utf-8")
    finally:
        parar.set()
        hilo.join(timeout=60)
