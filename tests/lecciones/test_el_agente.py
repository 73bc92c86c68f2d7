"""The lesson «El agente y sus pruebas» tells the truth: its cells run in order in CPython, and
every number its prose states about what the code prints, or that a question takes as its
answer, is computed here (see tests/lecciones/comun.py)."""

from __future__ import annotations

import re

import pytest

from tests.lecciones.comun import RAIZ, celdas_de, ejecutar_leccion, opcion_de, texto_de


@pytest.fixture(scope="module")
def el_agente():
    return ejecutar_leccion("el-agente")


def test_el_agente_first_cell_ends_in_7_messages_with_and_without_permission(el_agente):
    salidas, ns = el_agente
    assert "con permiso: fin tras 7 mensajes, y 1 pregunta" in salidas[0]
    assert "  lista.txt: pan, leche, patatas, huevos, cebolla" in salidas[0]
    assert "sin permiso: fin tras 7 mensajes: No me has dejado escribir" in salidas[0]
    assert "  lista.txt: pan, leche, patatas\n" in salidas[0]
    prosa = " ".join(texto_de("el-agente").split())
    assert "Las dos conversaciones acaban en `fin` tras 7 mensajes." in prosa
    assert "`fin`, el texto final, 7 mensajes, la lista nueva y una sola pregunta" in prosa


def test_el_agente_starts_with_the_system_prompt_and_the_request(el_agente):
    _, ns = el_agente
    modelo = ns["ModeloGuionizado"](ns["guion_tortilla"]())
    ns["agente"](modelo, ns["PEDIDO_TORTILLA"], dict(ns["ENTORNO"]), preguntar=ns["permitir"])
    assert ns["guion_tortilla"]()[0][0] == ns["INICIO_TORTILLA"]
    assert ns["INICIO_TORTILLA"] == [("sistema", ns["SISTEMA_AGENTE"]),
                                     ("usuario", ns["PEDIDO_TORTILLA"])]
    assert modelo.turno == 3


def test_el_agente_the_lesson_agent_is_the_challenge_reference():
    """The cell's agente and the one the challenge grades against behave the same on every
    scenario of the lesson (the challenge's is read from its own folder)."""
    leccion = ejecutar_leccion("el-agente")[1]
    import challenges  # agente.py imports from its tests' runtime: load it as the grader does
    calificador = challenges.calificador()
    calificador.pruebas("pruebas-del-agente")
    modulos = calificador.modulos("pruebas-del-agente")
    referencia = {**vars(modulos["runtime"]), **vars(modulos["pruebas-del-agente/agente.py"])}
    for ns in (leccion, referencia):
        vistos = []
        for guion, pedido, opciones in [
            ("guion_tortilla", "PEDIDO_TORTILLA", {"preguntar": ns["permitir"]}),
            ("guion_tortilla_denegada", "PEDIDO_TORTILLA", {}),
            ("guion_sin_contenido", "PEDIDO_SIN_CONTENIDO", {"preguntar": ns["permitir"]}),
        ]:
            entorno = dict(ns["ENTORNO"])
            vistos.append((ns["agente"](ns["ModeloGuionizado"](ns[guion]()), ns[pedido], entorno,
                                        **opciones), entorno))
        entorno = dict(ns["ENTORNO"])
        vistos.append((ns["agente"](ns["ModeloGuionizado"](ns["guion_terco"](3)),
                                    ns["PEDIDO_TERCO"], entorno, tope=3), entorno))
        ns["vistos"] = vistos
    assert leccion["vistos"] == referencia["vistos"]


def test_el_agente_trace_with_cap_2_ends_at_the_cap_after_the_write(el_agente):
    _, ns = el_agente
    entorno = dict(ns["ENTORNO"])
    como, final, M = ns["agente"](ns["ModeloGuionizado"](ns["guion_tortilla"]()),
                                  ns["PEDIDO_TORTILLA"], entorno, preguntar=ns["permitir"], tope=2)
    assert (como, final, len(M)) == ("tope", None, 6)
    assert entorno["lista.txt"] == ns["LISTA_TORTILLA"]
    assert "Baja el **Tope** a 2: el modelo ya ha pedido la escritura" in texto_de("el-agente")


def test_el_agente_unittest_cells_pass_4_then_fail_1(el_agente):
    salidas, ns = el_agente
    assert salidas[1].count(" ... ok\n") == 4
    assert "Ran 4 tests in" in salidas[1] and salidas[1].rstrip().endswith("OK")
    assert "Las 4 pruebas pasan." in texto_de("el-agente")
    assert salidas[2].count(" ... ok\n") == 3
    assert "FAIL: test_una_escritura_denegada_no_cambia_nada" in salidas[2]
    assert "pruebas que fallan: 1" in salidas[2]
    assert "Falla 1 prueba, la de la escritura denegada" in texto_de("el-agente")
    assert ns["agente"] is ns["agente_correcto"]  # the cell puts the correct agent back


def test_el_agente_question_answers_are_computed(el_agente):
    _, ns = el_agente
    modelo = ns["ModeloGuionizado"](ns["guion_terco"](3))
    como, final, M = ns["agente"](modelo, ns["PEDIDO_TERCO"], dict(ns["ENTORNO"]), tope=3)
    assert (como, final, modelo.turno) == ("tope", None, 3)
    assert int(opcion_de("el-agente", "mensajes-terco", "respuesta")) == len(M) == 8
    prosa = " ".join(texto_de("el-agente").split())
    assert "devuelve `(\"tope\", None, M)` tras 3 llamadas al modelo" in prosa


def test_el_agente_the_challenge_gives_the_time_limit_the_grader_has():
    """«Cada prueba tiene 2 s para terminar»: the grader's own limit, in the statement and in the
    starter."""
    from widgets.calificador.limites import LIMITE, segundos

    prosa = " ".join(texto_de("el-agente").split())
    assert f"Cada prueba tiene {segundos(LIMITE)} para terminar" in prosa
    inicial = (RAIZ / "challenges" / "pruebas-del-agente" / "inicial.py").read_text(encoding="utf-8")
    assert f"Cada prueba tiene {segundos(LIMITE)}\n# para terminar." in inicial


def test_el_agente_the_starter_names_what_the_lessons_tests_use_and_it_is_there():
    """The starter's comment lists the names the reader may use: every name the lesson's tests and
    the reference suite use is in it, and each one is in the namespace the grader gives them."""
    import ast
    import challenges

    carpeta = RAIZ / "challenges" / "pruebas-del-agente"
    comentario = "\n".join(l for l in (carpeta / "inicial.py").read_text(encoding="utf-8").splitlines()
                           if l.startswith("#"))
    nombrados = set(re.findall(r"\b[A-Za-z_][A-Za-z_0-9]*\b", comentario))
    usados = set()
    for codigo in ((carpeta / "solucion.py").read_text(encoding="utf-8"),
                   celdas_de("el-agente")[1]):
        arbol = ast.parse(codigo)
        locales = {n.id for n in ast.walk(arbol) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        locales |= {a.arg for a in ast.walk(arbol) if isinstance(a, ast.arg)}
        locales |= {d.name for d in ast.walk(arbol) if isinstance(d, (ast.ClassDef, ast.FunctionDef))}
        usados |= {n.id for n in ast.walk(arbol) if isinstance(n, ast.Name)
                   and isinstance(n.ctx, ast.Load) and n.id not in locales}
    usados -= {"unittest", "sys", "len", "dict", "correr_las_pruebas"} | set(dir(__builtins__))
    assert usados and usados <= nombrados, usados - nombrados
    # Each of them is there when the grader runs the reader's tests (a test that uses them all
    # passes with every correct agent).
    prueba = ("import unittest\n\n\nclass Nombres(unittest.TestCase):\n"
              "    def test_estan(self):\n" + "".join(f"        {n}\n" for n in sorted(usados)))
    r = challenges.calificar("pruebas-del-agente", prueba)
    assert r["pruebas"][0]["ok"], r["pruebas"][0]["mensaje"]
