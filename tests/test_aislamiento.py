"""Isolation any course gets (widgets/aislamiento/): in a course made by ``python -m widgets
nuevo``, a file that ends its process, loops or floods is reported with its file by ``python -m
widgets comprobar`` and by the build, never a silent exit 0; and a teacher grades that course's
submissions in child processes with ``python -m widgets calificar``, as this course's command.
"""

from __future__ import annotations

import csv
import io
import json

import pytest

from tests.conftest import construir
from tests.test_autor import curso, widgets  # noqa: F401 - the fixture and the command
from widgets.aislamiento import Curso
from widgets.aislamiento.comprobacion import comprobar

DESAFIO = "primer-bucle"
SALE = ("# Error: termina el proceso\n# Falla: se para en el tope\n# Mensaje: tope\n"
        "import os\nos._exit(0)\n")
#: A loop that catches the engine's clock, and the next one, for ever.
SIGUE = """# Error: no se deja parar
# Falla: se para en el tope
# Mensaje: tope


def bucle(modelo, inicio, entorno, tope):
    while True:
        try:
            while True:
                pass
        except BaseException:
            pass
"""
INUNDA = ("# Error: escribe sin fin\n# Falla: se para en el tope\n# Mensaje: tope\n"
          "import os\nos.write(1, b'x' * (3 << 20))\n")


def _errores(curso):  # noqa: F811 - the fixture's name
    return curso / "desafios" / DESAFIO / "errores"


def test_a_known_wrong_solution_that_calls_os_exit_is_reported_by_comprobar_and_the_build(curso):  # noqa: F811
    (_errores(curso) / "sale.py").write_text(SALE, encoding="utf-8")
    proceso = widgets("comprobar", curso)
    assert proceso.returncode == 1, proceso.stdout + proceso.stderr
    assert proceso.stdout.splitlines()[0] == f"✘ {DESAFIO}"
    linea = proceso.stdout.splitlines()[1].strip()
    assert linea.startswith(f"desafios/{DESAFIO}/errores/sale.py: al calificarlo, el proceso del "
                            f"calificador acabó sin dar su resultado: tu código terminó el proceso "
                            f"con os._exit(0) mientras se cargaba"), linea
    hecho = construir(curso, curso / "_build" / "html", comprobar=False)
    assert hecho.returncode != 0
    assert f"desafios/{DESAFIO}/errores/sale.py" in hecho.stderr and "os._exit(0)" in hecho.stderr


def test_a_reference_that_ends_its_process_fails_the_build_at_its_trace_and_its_challenge(curso):  # noqa: F811
    solucion = curso / "desafios" / DESAFIO / "solucion.py"
    solucion.write_text(solucion.read_text(encoding="utf-8").replace(
        "    M = list(inicio)\n", "    import os\n    os._exit(3)\n", 1), encoding="utf-8")
    hecho = construir(curso, curso / "_build" / "html", comprobar=False)
    assert hecho.returncode != 0
    errores = [linea for linea in hecho.stderr.splitlines() if "ERROR" in linea]
    assert any("primera-leccion.md" in e and "bucle_referencia" in e and "os._exit(3)" in e
               for e in errores), hecho.stderr
    assert f"desafios/{DESAFIO}/solucion.py: al calificarlo" in hecho.stderr


@pytest.mark.parametrize("nombre, codigo, dice", [
    ("sigue.py", SIGUE, "pasaron 3 s sin que acabara «contesta sin herramientas», y se paró el proceso"),
    ("inunda.py", INUNDA, "escribió más de 1 MB en la salida del proceso"),
], ids=["loops past every clock", "floods its output"])
def test_a_known_wrong_solution_that_loops_or_floods_is_a_problem_of_its_file(curso, nombre, codigo,  # noqa: F811
                                                                              dice):
    archivo = _errores(curso) / nombre
    archivo.write_text(codigo, encoding="utf-8")
    hecho = comprobar(Curso.de_conf(curso), DESAFIO, margen=1.0)
    [(donde, problema)] = hecho.problemas
    assert donde == archivo and dice in problema, problema


def test_a_teacher_grades_the_new_course_s_files_and_exports_in_child_processes(curso, tmp_path):  # noqa: F811
    base = curso / "desafios" / DESAFIO
    envios = tmp_path / "envios"
    envios.mkdir()
    (envios / "ana.py").write_text((base / "solucion.py").read_text(encoding="utf-8"))
    (envios / "luis.py").write_text((base / "errores" / "sin_tope.py").read_text(encoding="utf-8"))
    (envios / "sale.py").write_text("import os\nos._exit(0)\n")
    proceso = widgets("calificar", "--curso", curso, DESAFIO, envios, "--csv")
    assert proceso.returncode == 1, proceso.stderr
    filas = {f["archivo"].rsplit("/", 1)[-1]: f for f in csv.DictReader(io.StringIO(proceso.stdout))}
    assert filas["ana.py"]["superadas"] == filas["ana.py"]["total"] == "4"
    assert filas["luis.py"]["primera_fallida"] == "se para en el tope"
    assert filas["sale.py"]["superadas"] == "0" and filas["sale.py"]["total"] == "4"

    clave = Curso.de_conf(curso).ident
    export = tmp_path / "progreso.json"
    export.write_text(json.dumps({"curso": clave, "version": 1, "datos": {
        f"bucle:{clave}:primera-leccion:{DESAFIO}": {"codigo": None, "superado": True}}}))
    proceso = widgets("calificar", "--progreso", export, "--json", cwd=curso)
    assert proceso.returncode == 1, proceso.stderr
    [envio] = json.loads(proceso.stdout)["envios"]
    assert envio["desafio"] == DESAFIO and envio["superadas"] < envio["total"]  # the starter, again
