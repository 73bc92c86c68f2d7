"""A course written to the earlier contract of a challenge's tests (tests/sites/contrato-anterior:
its ``pruebas.py`` uses the runtime's ``ModeloGuionizado`` and ``texto`` and the grader's
``Fallo`` without importing them) is told, by ``python -m widgets comprobar`` and by the build,
in one message for the author, which file and which imports to add; a reader's own NameError
keeps the reader's message."""

from __future__ import annotations

import shutil
import subprocess
import sys

from tests.conftest import ROOT, SITES, construir
from widgets.calificador import disco

CURSO = SITES / "contrato-anterior"
PRUEBAS = "desafios/responder/pruebas.py"
DICE = (f"{PRUEBAS}: usa sin importarlos ModeloGuionizado, texto y Fallo (el primero, en la "
        f"línea 17). Las pruebas de un desafío importan lo que usan (véase «Cambios» en la "
        f"referencia para autores): añade al principio del archivo")
IMPORTS = ["from runtime import ModeloGuionizado, texto", "from calificador import Fallo"]


def test_comprobar_names_the_file_the_line_and_the_imports_to_add():
    proceso = subprocess.run([sys.executable, "-m", "widgets", "comprobar", str(CURSO)],
                             capture_output=True, text=True, cwd=ROOT, check=False)
    assert proceso.returncode == 1, proceso.stdout + proceso.stderr
    assert [linea.strip() for linea in proceso.stdout.splitlines()] == ["✘ responder", DICE,
                                                                       *IMPORTS]


def test_the_build_fails_with_the_same_message_at_the_directive(tmp_path):
    proceso = construir(CURSO / "lecciones", tmp_path / "html", CURSO, comprobar=False)
    salida = proceso.stdout + proceso.stderr
    assert proceso.returncode != 0
    assert ("index.md:5: ERROR: el desafío «responder» no pasa sus comprobaciones:"
            in salida), salida
    lineas = [linea.strip().removesuffix(" [docutils]") for linea in salida.splitlines()]
    i = lineas.index(DICE)
    assert lineas[i + 1:i + 3] == IMPORTS, salida
    assert "error interno" not in salida and "NameError" not in salida, salida


def _con_los_imports(tmp_path):
    """The course's challenges folder, its pruebas.py with the imports the message names."""
    desafios = tmp_path / "desafios"
    shutil.copytree(CURSO / "desafios", desafios, ignore=shutil.ignore_patterns("__pycache__"))
    pruebas = desafios / "responder" / "pruebas.py"
    pruebas.write_text("\n".join(IMPORTS) + "\n" + pruebas.read_text(encoding="utf-8"),
                       encoding="utf-8")
    return disco.calificador(desafios, CURSO / "runtime"), desafios


def test_with_the_imports_the_message_names_the_challenge_passes_its_checks(tmp_path):
    calificador, desafios = _con_los_imports(tmp_path)
    assert disco.comprobar(calificador, "responder", desafios) == []


def test_a_reader_s_own_name_error_keeps_the_reader_s_message(tmp_path):
    calificador, _ = _con_los_imports(tmp_path)
    codigo = "def responder(modelo, pregunta):\n    return Fallo\n"  # a name only the tests have
    r = calificador.calificar("responder", codigo)
    assert [(p["tipo"], p["linea"]) for p in r["pruebas"]] == [("error", 2)] * 2
    for prueba in r["pruebas"]:
        assert prueba["mensaje"].splitlines() == [
            "responder lanzó NameError en la línea 2: name 'Fallo' is not defined",
            "    return Fallo"]


def test_a_file_run_by_usar_becomes_a_relative_import(tmp_path):
    desafios = tmp_path / "desafios"
    shutil.copytree(CURSO / "desafios", desafios, ignore=shutil.ignore_patterns("__pycache__"))
    (desafios / "comun.py").write_text("PREGUNTA = '¿Qué tal?'\n", encoding="utf-8")
    pruebas = desafios / "responder" / "pruebas.py"
    pruebas.write_text(pruebas.read_text(encoding="utf-8").replace(
        'PREGUNTA = "¿Qué tal?"', 'usar("comun.py")'), encoding="utf-8")
    calificador = disco.calificador(desafios, CURSO / "runtime")
    [(archivo, mensaje)] = disco.comprobar(calificador, "responder", desafios)
    assert archivo == pruebas
    assert mensaje.splitlines()[1:] == ["      " + i for i in IMPORTS] + [
        "      from ..comun import PREGUNTA"]
    assert mensaje.splitlines()[0] == (
        "usa sin importarlos PREGUNTA, ModeloGuionizado, texto y Fallo (el primero, en la línea "
        "13); llama a usar(…), que ya no existe, en la línea 8: lo que usabas de ese archivo se "
        "importa con un import relativo. Las pruebas de un desafío importan lo que usan (véase "
        "«Cambios» en la referencia para autores): añade al principio del archivo")


def test_the_reference_the_message_points_to_has_its_cambios_section():
    texto = (ROOT / "docs" / "referencia.md").read_text(encoding="utf-8")
    cambios = texto.split("\n## Cambios\n", 1)[1].split("\n## ", 1)[0]
    filas = [linea for linea in cambios.splitlines() if linea.startswith("| ")][2:]
    assert any("`from runtime import" in f and "`from calificador import Fallo`" in f
               for f in filas), cambios
    assert any("`usar(ruta)`" in f and "`from ..comun import" in f for f in filas), cambios
