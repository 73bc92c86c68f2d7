"""The challenge «pruebas-del-agente»: the reader writes the tests, graded against the reference
agent (every test must pass) and against each broken agent (some test must fail).

What these tests pin: the result's shape (one result for the reference run, one per broken
agent, with fixed names the page lists in advance), that each broken agent is really broken and
caught by a different part of the reference suite, that the lesson's own tests (of other
promises) catch none of them, that the reader cannot reach the agents' code, and that the command
grades the same.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import challenges

RAIZ = Path(__file__).resolve().parent.parent
DESAFIO = "pruebas-del-agente"
CARPETA = challenges.CARPETA / DESAFIO
SOLUCION = (CARPETA / "solucion.py").read_text(encoding="utf-8")
REFERENCIA = "tus pruebas pasan con cada agente correcto"


@pytest.fixture(scope="module")
def c():
    return challenges.calificador()


def calificar(c, codigo):
    return c.calificar(DESAFIO, codigo)


def atrapados(resultado):
    return [p["ok"] for p in resultado["pruebas"][1:]]


def test_one_result_for_the_reference_and_one_per_broken_agent(c):
    nombres = c.nombres(DESAFIO)
    rotos = c.pruebas(DESAFIO)["ROTOS"]
    assert len(rotos) >= 5
    assert nombres == [REFERENCIA] + [f"Atrapa: {que}" for que, _ in rotos]
    assert c.datos(DESAFIO)["pruebas"] == nombres
    r = calificar(c, SOLUCION)
    assert (r["superadas"], r["total"], r["error"]) == (len(nombres), len(nombres), None)


def test_every_broken_agent_differs_from_the_reference_somewhere(c):
    """Each broken agent is caught by the reference suite, and by its own set of its tests:
    no two broken agents are the same mutant."""
    cuerpo = SOLUCION.split("class PruebasDelAgente(unittest.TestCase):\n")[1]
    metodos = re.split(r"\n(?=    def test_)", cuerpo.strip("\n"))
    assert len(metodos) == 5
    columnas = []
    for metodo in metodos:
        codigo = "import unittest\n\n\nclass Una(unittest.TestCase):\n" + metodo + "\n"
        r = calificar(c, codigo)
        assert r["pruebas"][0]["ok"], r["pruebas"][0]["mensaje"]
        columnas.append(atrapados(r))
    por_roto = list(zip(*columnas, strict=True))
    assert all(any(fila) for fila in por_roto)  # the reference suite catches every one
    assert len(set(por_roto)) >= 5


def celda_de_las_pruebas():
    """The test class of the lesson's cell «primeras-pruebas», with what it defines before it."""
    texto = (RAIZ / "lessons" / "el-agente.md").read_text(encoding="utf-8")
    return re.search(r"```\{celda\}\n:id: primeras-pruebas\n(.*?)\n\ndef correr_las_pruebas",
                     texto, re.S).group(1)


def test_the_lessons_tests_pass_with_the_correct_agents_and_catch_no_broken_one(c):
    """The lesson writes tests of other promises than those the challenge grades (issue #55):
    its cell, submitted as it is, passes only «tus pruebas pasan con cada agente correcto», and
    each broken agent is told it escaped all three."""
    r = calificar(c, celda_de_las_pruebas())
    assert [p["ok"] for p in r["pruebas"]] == [True] + [False] * (len(r["pruebas"]) - 1)
    for p in r["pruebas"][1:]:
        assert p["mensaje"] == ("Tus 3 pruebas pasan también con este agente, que está roto: "
                                "escribe una prueba que falle con él."), p


def test_a_test_failing_on_the_reference_is_named_and_no_broken_agent_counts_while_it_does(c):
    """Examplar's rule: a suite that rejects a correct agent is credited with no broken one;
    each «Atrapa» says so, names the check that holds it back, and tells whether the other tests
    would catch that agent."""
    codigo = SOLUCION + '''
    def test_cuenta_mal(self):
        como, final, M = agente(ModeloGuionizado(guion_terco(2)), PEDIDO_TERCO, dict(ENTORNO),
                                tope=2)
        self.assertEqual(len(M), 5, "dos de inicio y uno por turno")
'''
    r = calificar(c, codigo)
    primera = r["pruebas"][0]
    assert not primera["ok"]
    assert "«test_cuenta_mal» falla: 6 != 5 : dos de inicio y uno por turno" in primera["mensaje"]
    assert r["superadas"] == 0
    for prueba in r["pruebas"][1:]:  # the reference's tests would catch every broken agent
        assert prueba["mensaje"].startswith("No cuenta todavía: alguna de tus pruebas falla con "
                                            "un agente correcto (lo dice «tus pruebas pasan con "
                                            "cada agente correcto»)"), prueba["mensaje"]
        assert prueba["mensaje"].endswith("Las que pasan con todos sí lo atrapan.")


def test_while_held_back_each_broken_agent_says_whether_the_good_tests_catch_it(c):
    """A suite that misses one broken agent (the reference without its test of a preguntar that
    raises): with a wrong test beside it, that agent's verdict says the good tests do not catch
    it, the others' that they do."""
    codigo = (CARPETA / "errores" / "sin_preguntar_que_falla.py").read_text(encoding="utf-8")
    r = calificar(c, codigo + '''
    def test_siempre_mal(self):
        self.fail("así no")
''')
    finales = {p["nombre"]: p["mensaje"].rpartition(". ")[2] for p in r["pruebas"][1:]}
    assert finales.pop("Atrapa: si preguntar lanza una excepción, la calla y lo toma por un no") == (
        "Y las que pasan con todos tampoco lo atrapan.")
    assert set(finales.values()) == {"Las que pasan con todos sí lo atrapan."}


def test_a_reader_error_on_the_reference_is_told_as_an_error(c):
    codigo = SOLUCION + '''
    def test_con_un_error(self):
        {}["no hay"]
'''
    mensaje = calificar(c, codigo)["pruebas"][0]["mensaje"]
    assert "«test_con_un_error» da un error: KeyError: 'no hay'" in mensaje


def test_only_tests_that_pass_on_the_reference_can_catch(c):
    """A test that fails whatever the agent is (here: it expects the wrong final text) catches
    nothing: with it alone, no broken agent counts as caught."""
    codigo = '''import unittest


class P(unittest.TestCase):
    def test_texto_equivocado(self):
        como, final, M = agente(ModeloGuionizado(guion_tortilla()), PEDIDO_TORTILLA,
                                dict(ENTORNO), preguntar=permitir)
        self.assertEqual(final, "Ya está.")
'''
    r = calificar(c, codigo)
    assert r["superadas"] == 0
    assert r["pruebas"][1]["mensaje"].endswith("Ninguna de tus pruebas pasa con todos ellos.")


def test_the_environment_the_reader_passes_is_changed_in_place_and_the_model_keeps_its_turns(c):
    codigo = '''import unittest


class P(unittest.TestCase):
    def test_en_su_sitio(self):
        entorno = dict(ENTORNO)
        modelo = ModeloGuionizado(guion_tortilla())
        usuario = Respuestas(["sí"])
        agente(modelo, PEDIDO_TORTILLA, entorno, usuario)
        self.assertEqual(entorno["lista.txt"], LISTA_TORTILLA)
        self.assertEqual((modelo.turno, len(usuario.preguntas)), (3, 1))
'''
    assert calificar(c, codigo)["pruebas"][0]["ok"]


@pytest.mark.parametrize("intento", [
    "sys._getframe(1).f_globals",       # the agent's frame, from the reader's model
    "sys._getframe(1).f_code.co_consts",
    "agente.__closure__[0].cell_contents.__self__.gi_frame",  # the opaque function's channel
])
def test_the_reader_cannot_reach_the_agents_code(c, intento):
    codigo = f'''import sys
import unittest


class P(unittest.TestCase):
    def test_mira(self):
        def modelo(M, herramientas):
            {intento}
            return [texto("hola")]
        agente(modelo, "hola", dict(ENTORNO))
'''
    primera = calificar(c, codigo)["pruebas"][0]
    assert not primera["ok"]
    assert "aquí no se puede usar" in primera["mensaje"], primera["mensaje"]


def test_a_test_that_never_ends_is_reported_and_the_rest_not_tried(c):
    codigo = (CARPETA / "errores" / "espera_sin_fin.py").read_text(encoding="utf-8")
    r = c.calificar(DESAFIO, codigo, limite=0.5)
    assert r["pruebas"][0]["tipo"] == "tiempo"
    assert "La prueba test_espera no terminó en 0,5 s" in r["pruebas"][0]["mensaje"]
    assert {p["tipo"] for p in r["pruebas"][1:]} == {"no-probada"}


def test_the_command_grades_the_same_in_its_own_process(c, tmp_path):
    archivo = tmp_path / "mias.py"
    archivo.write_text((CARPETA / "errores" / "deniega_a_mano.py").read_text(encoding="utf-8"))
    hecho = subprocess.run([sys.executable, "-m", "challenges", DESAFIO, str(archivo)],
                           capture_output=True, text=True, cwd=RAIZ, check=False)
    assert hecho.returncode == 1
    lineas = hecho.stdout.strip().splitlines()
    total = len(c.nombres(DESAFIO))
    assert lineas[-1] == f"{total - 2} passed, 2 failed"
    fallidas = [linea for linea in lineas if linea.startswith("✘")]
    assert fallidas == [
        "✘ Atrapa: sin un tope, llama al modelo hasta 20 veces en vez de 10: Tus 5 pruebas pasan "
        "también con este agente, que está roto: escribe una prueba que falle con él.",
        "✘ Atrapa: sin un preguntar, lo permite todo en vez de denegar: Tus 5 pruebas pasan "
        "también con este agente, que está roto: escribe una prueba que falle con él."]
    archivo.write_text(SOLUCION)
    hecho = subprocess.run([sys.executable, "-m", "challenges", DESAFIO, str(archivo)],
                           capture_output=True, text=True, cwd=RAIZ, check=False)
    assert (hecho.returncode, hecho.stdout.strip().splitlines()[-1]) == (0, f"{total} passed, 0 failed")


def test_only_the_readers_classes_count_not_the_starters(c):
    """The starter's test class (run before the reader's code, like every starter) is taken out:
    a file that defines another class is graded by that class alone."""
    ns = {}
    exec((CARPETA / "inicial.py").read_text(encoding="utf-8"), ns)
    import unittest
    clases = sorted(n for n, v in ns.items() if isinstance(v, type) and issubclass(v, unittest.TestCase))
    assert tuple(clases) == c.pruebas(DESAFIO)["DEL_INICIAL"]
    r = calificar(c, "import unittest\n\n\nclass Otra(unittest.TestCase):\n    pass\n")
    assert "No hay ninguna prueba" in r["pruebas"][0]["mensaje"]


def test_the_result_the_readers_tests_can_reach_leads_nowhere(c):
    """unittest hands each test its result (self._outcome.result): from its methods' globals,
    the reader reaches neither the tests' namespace nor the agents."""
    codigo = '''import unittest


class P(unittest.TestCase):
    def test_mira_el_resultado(self):
        resultado = self._outcome.result
        globales = type(resultado).addFailure.__globals__
        self.assertEqual(sorted(n for n in globales if not n.startswith("__")),
                         ["Anotador", "CITA", "unittest"])
        agente(ModeloGuionizado(guion_tortilla_denegada()), PEDIDO_TORTILLA, dict(ENTORNO))
'''
    primera = calificar(c, codigo)["pruebas"][0]
    assert primera["ok"], primera["mensaje"]


# ------------------------------------------------------------ wheats, fresh passes, random order

def test_every_correct_agent_keeps_the_contract_and_they_are_written_differently(c):
    """The wheats (agentes.py): at least three, agente.py one of them, each passing the
    reference suite alone, written with a different loop (for, while, recursion)."""
    import inspect as _inspect
    modulos = c.modulos(DESAFIO)
    correctos = vars(modulos[f"{DESAFIO}/agentes.py"])["CORRECTOS"]
    assert len(correctos) >= 3
    assert correctos[0][1] is vars(modulos[f"{DESAFIO}/agente.py"])["agente"]
    fuentes = []
    for que, agente in correctos:
        assert que.startswith("que ") and ".py" not in que
        modulo = next(m for m in modulos.values() if vars(m).get("agente") is agente)
        fuentes.append((CARPETA / Path(modulo.__file__).name).read_text(encoding="utf-8"))
        assert _inspect.signature(agente) == _inspect.signature(correctos[0][1])
    assert "for _ in range(tope)" in fuentes[0]
    assert "while " in fuentes[1] and "for _ in range" not in fuentes[1]
    assert "return _turno(" in fuentes[2] and "while " not in fuentes[2]
    assert len(set(fuentes)) == len(fuentes)


def test_a_test_that_fails_only_one_correct_agent_names_it_by_what_it_does_differently(c):
    """A test that looks at how the agent is written (here: how deep the stack is when the model
    is called, which grows a frame a turn only with the agent that calls itself; 12 turns, so
    that a loaded machine still grades it within the limit) fails that wheat alone, and
    the verdict names it by what it does, never by its file."""
    codigo = SOLUCION + '''
    def test_la_pila_no_crece(self):
        def hondo(n=0):
            try:
                return hondo(n + 1)
            except RecursionError:
                return n
        vistas = []
        guionizado = ModeloGuionizado(guion_terco(12))

        def modelo(M, herramientas):
            vistas.append(hondo())
            return guionizado(M, herramientas)
        agente(modelo, PEDIDO_TERCO, dict(ENTORNO), tope=12)
        self.assertLess(max(vistas) - min(vistas), 5, "la pila crece")
'''
    r = calificar(c, codigo)
    primera = r["pruebas"][0]
    assert not primera["ok"]
    assert primera["mensaje"].startswith(
        "Una de tus pruebas falla con alguno de los agentes correctos, y una prueba que falla "
        "con un agente correcto está mal:\n«test_la_pila_no_crece» falla con el agente correcto "
        "que se llama a sí mismo en cada turno: "), primera["mensaje"]
    assert ".py" not in primera["mensaje"]
    assert not any(atrapados(r))  # held back, though the four good ones catch every chaff:
    assert all(p["mensaje"].endswith("sí lo atrapan.") for p in r["pruebas"][1:])


def test_the_verdict_names_each_wheat_a_test_fails_with(c):
    ns = c.pruebas(DESAFIO)
    que = [q for q, _ in ns["CORRECTOS"]]
    ns["con_los_correctos"] = lambda envio: [
        {"test_a": None, "test_b": ("falla", "uno")},
        {"test_a": ("error", "KeyError: 'x'"), "test_b": ("falla", "uno")},
        {"test_a": ("error", "KeyError: 'x'"), "test_b": ("falla", "uno")}]
    with pytest.raises(Exception) as fallo:
        ns["pasan_con_cada_correcto"](None)
    assert str(fallo.value) == (
        "2 de tus pruebas fallan con los agentes correctos, y una prueba que falla con un agente "
        f"correcto está mal:\n«test_a» da un error con el agente correcto {que[1]} y con el "
        f"{que[2]}: KeyError: 'x'\n«test_b» falla con todos: uno")


def test_each_check_runs_the_passes_in_another_order_with_wheats_among_chaffs(c):
    ns = c.pruebas(DESAFIO)
    ordenes = set()
    for _ in range(12):
        envio = c.envio(DESAFIO, SOLUCION)
        orden = tuple(ns["pasadas"](envio)["orden"])
        assert sorted(orden) == sorted([("correcto", i) for i in range(len(ns["CORRECTOS"]))]
                                       + [("roto", i) for i in range(len(ns["ROTOS"]))])
        ordenes.add(orden)
    assert len(ordenes) > 1
    assert any(o[0][0] == "roto" for o in ordenes)


ERRORES = sorted((CARPETA / "errores").glob("memoria_*.py"))


@pytest.mark.parametrize("archivo", ERRORES, ids=lambda p: p.stem)
def test_a_suite_that_counts_the_passes_catches_nothing_and_would_without_a_fresh_world(
        c, archivo, monkeypatch):
    """With the world put back after each pass, a suite that fails «from the second pass on»
    passes every one, so it catches nothing; with the guard turned off (and the same order of
    passes), the same suite fails with the correct agents it meets after the first pass."""
    from widgets.calificador import estado
    codigo = archivo.read_text(encoding="utf-8")
    r = calificar(c, codigo)
    assert r["pruebas"][0]["ok"] and not any(atrapados(r))
    monkeypatch.setattr(estado.Aparte, "__enter__", lambda self: self)
    monkeypatch.setattr(estado.Aparte, "__exit__", lambda self, *a: None)
    try:
        r = calificar(c, codigo)
    finally:
        monkeypatch.undo()
        import builtins
        import os
        import sys
        import unittest
        for donde in (unittest, builtins, unittest.TestCase):
            if hasattr(donde, "pasadas_del_agente"):
                delattr(donde, "pasadas_del_agente")
        sys.modules.pop("pasadas_del_agente", None)
        while "pasadas_del_agente" in unittest.__all__:
            unittest.__all__.remove("pasadas_del_agente")
        os.environ.pop("PASADAS_DEL_AGENTE", None)
        import tempfile
        Path(tempfile.gettempdir(), f"pasadas-del-agente-{os.getpid()}.txt").unlink(
            missing_ok=True)
    if archivo.stem != "memoria_en_builtins":  # builtins: already put back after each test
        assert not r["pruebas"][0]["ok"]


def test_aparte_puts_back_modules_environment_folder_and_files(tmp_path, monkeypatch):
    import builtins
    import os
    import sys
    import unittest

    from widgets.calificador import Aparte
    monkeypatch.chdir(tmp_path)
    (tmp_path / "estaba.txt").write_text("antes")
    (tmp_path / "se_borra.txt").write_text("sigue")
    (tmp_path / "arbol" / "rama").mkdir(parents=True)
    (tmp_path / "arbol" / "rama" / "hoja.txt").write_text("verde")
    with Aparte():
        import shutil
        shutil.rmtree(tmp_path / "arbol")
        (tmp_path / "otra").mkdir()
        os.rename(tmp_path / "otra", tmp_path / "renombrada")
        unittest.x_de_prueba = 1
        unittest.__all__.append("x_de_prueba")
        unittest.TestCase.x_de_prueba = 1
        builtins.x_de_prueba = 1
        sys.modules["x_de_prueba"] = unittest
        os.environ["X_DE_PRUEBA"] = "1"
        (tmp_path / "estaba.txt").write_text("después")
        (tmp_path / "nueva").mkdir()
        (tmp_path / "nueva" / "dentro.txt").write_text("x")
        with open("relativo.txt", "w") as f:
            f.write("x")
        os.remove(tmp_path / "se_borra.txt")
        os.chdir(tmp_path / "nueva")
    assert not hasattr(unittest, "x_de_prueba") and not hasattr(builtins, "x_de_prueba")
    assert "x_de_prueba" not in vars(unittest.TestCase)
    assert "x_de_prueba" not in unittest.__all__
    assert "x_de_prueba" not in sys.modules and "X_DE_PRUEBA" not in os.environ
    hijo = subprocess.run([sys.executable, "-c", "import os; print(os.getenv('X_DE_PRUEBA'))"],
                          capture_output=True, text=True, check=True)
    assert hijo.stdout == "None\n"  # unset in the process too, not only in os.environ's dict
    assert Path.cwd() == tmp_path
    assert sorted(p.name for p in tmp_path.iterdir()) == ["arbol", "estaba.txt", "se_borra.txt"]
    assert (tmp_path / "arbol" / "rama" / "hoja.txt").read_text() == "verde"
    assert (tmp_path / "estaba.txt").read_text() == "antes"
    assert (tmp_path / "se_borra.txt").read_text() == "sigue"


def test_each_pass_tells_the_clocks_it_is_still_going(c):
    """Between passes the test calls envio.latido(): al_empezar again, with the same name (the
    command's parent and the page's watchdog start their clock again), once per pass."""
    vistos = []
    c.calificar(DESAFIO, SOLUCION, al_empezar=vistos.append)
    total = len(c.pruebas(DESAFIO)["CORRECTOS"]) + len(c.pruebas(DESAFIO)["ROTOS"])
    assert len(vistos) == len(c.nombres(DESAFIO)) + total
    assert vistos[0] == REFERENCIA and set(vistos) == set(c.nombres(DESAFIO))
