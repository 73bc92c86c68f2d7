"""The suite's report of its time by lesson (tests/presupuesto.py) puts each test where it belongs."""

from tests.presupuesto import COMUN, Presupuesto, leccion_de, lecciones


def test_each_lesson_is_found_with_its_challenges():
    claves = lecciones()
    assert claves["el-bucle"] == ["el-bucle", "bucle-con-tope"]
    assert "pruebas-del-agente" in claves["el-agente"] and "index" not in claves


def test_a_test_goes_to_the_lesson_of_its_file_its_challenge_or_its_parameters():
    claves = lecciones()
    casos = {"tests/lecciones/test_pedir_permiso.py::test_x": "pedir-permiso",
             "tests/test_pruebas_del_agente.py::test_y": "el-agente",
             "tests/test_modelo_api_desafio.py::test_z": "modelo-real",
             "tests/test_challenges.py::test_w[errores-como-observaciones-3]": "errores",
             "tests/browser/test_desafio.py::test_v": COMUN}
    assert {n: leccion_de(n, claves) for n in casos} == casos


def test_the_report_sums_by_lesson_and_marks_one_over_its_budget():
    class Informe:
        def __init__(self, nodeid, duration):
            self.nodeid, self.duration = nodeid, duration

    class Terminal:
        lineas: list = []

        def section(self, titulo):
            self.lineas.append(titulo)

        def write_line(self, linea):
            self.lineas.append(linea)

    plugin = Presupuesto()
    for n, s in (("tests/lecciones/test_medir.py::a", 100.0), ("tests/test_medir_desafio.py::b", 60.0),
                 ("tests/lecciones/test_errores.py::c", 3.0)):
        plugin.pytest_runtest_logreport(Informe(n, s))
    terminal = Terminal()
    plugin.pytest_terminal_summary(terminal)
    [medir] = [linea for linea in terminal.lineas if linea.startswith("medir ")]
    [errores] = [linea for linea in terminal.lineas if linea.startswith("errores ")]
    assert "160.0 s" in medir and "OVER BUDGET" in medir
    assert "3.0 s" in errores and "OVER" not in errores
    lentos = terminal.lineas[terminal.lineas.index("the 20 files that cost the most:") + 1:]
    assert lentos == ["    100.0 s  tests/lecciones/test_medir.py", "     60.0 s  tests/test_medir_desafio.py",
                      "      3.0 s  tests/lecciones/test_errores.py"]
