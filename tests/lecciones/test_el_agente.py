"""The lesson «El agente y sus pruebas» tells the truth: its cells run in order in CPython, and
every number its prose states about what the code prints, or that a question takes as its
answer, is computed here (see tests/lecciones/comun.py)."""

from __future__ import annotations

import re

import pytest

from tests.lecciones.comun import RAIZ, celdas_de, ejecutar_leccion, opcion_de, opciones_de, texto_de


@pytest.fixture(scope="module")
def el_agente():
    return ejecutar_leccion("el-agente")


def test_el_agente_first_cell_ends_in_7_messages_with_and_without_permission(el_agente):
    salidas, _ns = el_agente
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


def test_el_agente_unittest_cells_pass_3_then_fail_1(el_agente):
    salidas, ns = el_agente
    assert salidas[1].count(" ... ok\n") == 3
    assert "Ran 3 tests in" in salidas[1] and salidas[1].rstrip().endswith("OK")
    assert "Las 3 pruebas pasan." in texto_de("el-agente")
    assert salidas[2].count(" ... ok\n") == 2
    assert "FAIL: test_tortilla_con_permiso" in salidas[2]
    assert "AssertionError: 0 != 1" in salidas[2]  # len(usuario.preguntas): nobody was asked
    assert "pruebas que fallan: 1" in salidas[2]
    prosa = " ".join(texto_de("el-agente").split())
    assert "Falla 1 prueba, la de la tortilla" in prosa
    assert "Solo `len(usuario.preguntas)` delata al agente." in prosa
    assert ns["ejecutar"] is ns["ejecutar_correcto"]  # the cell puts the correct ejecutar back


def test_el_agente_the_paella_model_insists_on_a_call_that_failed(el_agente):
    """«insistir en una llamada que ya falló» is shown: the paella script asks twice for the same
    read, each comes back as an error (the error text is leer's own), and no one is asked."""
    _, ns = el_agente
    guion = ns["guion_paella"]()
    respuestas = [respuesta for _, respuesta in guion]
    llamadas = [[b for b in r if b["type"] == "tool_use"] for r in respuestas]
    assert llamadas[0][0]["input"] == llamadas[1][0]["input"] == {"ruta": "recetas/paella.txt"}
    try:
        ns["FUNCIONES"]["leer"](dict(ns["ENTORNO"]), ruta="recetas/paella.txt")
    except FileNotFoundError as error:
        assert str(error) == ns["NO_HAY_PAELLA"]
    else:
        raise AssertionError("recetas/paella.txt exists")
    nadie = ns["Respuestas"]([])
    entorno = dict(ns["ENTORNO"])
    como, _final, M = ns["agente"](ns["ModeloGuionizado"](guion), ns["PEDIDO_PAELLA"], entorno,
                                  preguntar=nadie)
    assert (como, len(M), nadie.preguntas, entorno) == ("fin", 9, [], ns["ENTORNO"])
    assert [M[i][1][0]["is_error"] for i in (3, 5, 7)] == [True, True, False]
    prosa = " ".join(texto_de("el-agente").split())
    assert "insiste en la misma llamada, vuelve a recibir el error" in prosa
    assert "insistir en una llamada que ya falló como el de la paella" in prosa


def _marcada(ident):
    correctas = [texto for marca, texto in opciones_de("el-agente", ident) if marca]
    assert len(correctas) == 1, ident
    return correctas[0]


def _pregunta_antes_de(ident, celda):
    """The prediction ``ident`` stands right before the cell ``celda``, with only prose between."""
    from tests.lecciones.forma import predicciones
    assert (ident, celda) in predicciones("el-agente")


def test_el_agente_prediction_without_permission_is_what_the_cell_prints(el_agente):
    salidas, ns = el_agente
    _pregunta_antes_de("predice-sin-permiso", "el-agente")
    linea = next(linea for linea in salidas[0].splitlines() if linea.startswith("sin permiso:"))
    como, _, resto = linea.removeprefix("sin permiso: ").partition(" tras ")
    mensajes = int(resto.split()[0])
    lista = salidas[0].splitlines()[salidas[0].splitlines().index(linea) + 1]
    assert lista == "  lista.txt: " + ns["ENTORNO"]["lista.txt"]  # as it was
    assert _marcada("predice-sin-permiso") == f"`{como}` tras {mensajes} mensajes, y `lista.txt` como estaba."


def test_el_agente_prediction_of_the_model_that_loses_its_connection_is_what_unittest_prints(el_agente):
    salidas, _ = el_agente
    _pregunta_antes_de("predice-sin-conexion", "primeras-pruebas")
    linea = next(linea for linea in salidas[1].splitlines()
                 if linea.startswith("test_lo_que_lanza_el_modelo_sale_del_agente "))
    estado = linea.rpartition(" ... ")[2]
    assert estado == "ok"
    assert _marcada("predice-sin-conexion").startswith(f"`{estado}`:")


def test_el_agente_prediction_of_the_broken_agent_is_the_count_the_cell_prints(el_agente):
    salidas, _ = el_agente
    _pregunta_antes_de("predice-agente-roto", "un-agente-roto")
    fallan = int(re.search(r"pruebas que fallan: (\d+)", salidas[2]).group(1))
    assert int(opcion_de("el-agente", "predice-agente-roto", "respuesta")) == fallan == 1
    assert opcion_de("el-agente", "predice-agente-roto", "margen") == "0"


def test_el_agente_cambialo_without_counting_the_questions_the_mutant_survives():
    """«Cámbialo tú»: with the line that counts the questions taken out of the tests' cell, the
    broken agent's cell prints the count the marked answer says, 0; with the line, 1."""
    from tests.lecciones.forma import cambialo
    assert cambialo("el-agente") == ["cambialo-sin-contar-preguntas"]
    linea = "        self.assertEqual(len(usuario.preguntas), 1)\n"
    texto = texto_de("el-agente")
    assert texto.count(linea) == 1
    prosa = " ".join(texto.split("## Cámbialo tú")[1].split("::::{pregunta}")[0].split())
    assert ("borra la última línea de `test_tortilla_con_permiso`, "
            "`self.assertEqual(len(usuario.preguntas), 1)`") in prosa
    celdas = celdas_de("el-agente")
    assert linea in celdas[1] and celdas[1].split("def test_")[1].rstrip(" ").endswith(linea + "\n")
    cambiadas = [celdas[0], celdas[1].replace(linea, ""), celdas[2]]
    from runtime import espacio
    import contextlib
    import io
    ns = espacio()
    salidas = []
    for codigo in cambiadas:
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            exec(compile(codigo, "<celda>", "exec"), ns)
        salidas.append(buffer.getvalue())
    assert "Ran 3 tests in" in salidas[1] and salidas[1].rstrip().endswith("OK")
    assert salidas[2].rstrip().splitlines()[-1] == "pruebas que fallan: 0"
    assert _marcada("cambialo-sin-contar-preguntas").startswith("`pruebas que fallan: 0`")


def test_el_agente_the_lessons_tests_catch_none_of_the_challenges_broken_agents():
    """The issue's point 1: the lesson writes tests of other promises than those the challenge
    grades. Its suite, submitted as it is, passes with every correct agent and catches no broken
    one; the statement says so."""
    import challenges
    celda = celdas_de("el-agente")[1].split("\n\n\ndef correr_las_pruebas")[0]
    r = challenges.calificar("pruebas-del-agente", celda)
    assert r["pruebas"][0]["ok"], r["pruebas"][0]["mensaje"]
    assert r["superadas"] == 1
    prosa = " ".join(texto_de("el-agente").split())
    assert ("Las tres pruebas de la lección pasan con todos los agentes, los correctos y los rotos: "
            "no atrapan a ninguno") in prosa


def test_el_agente_the_promises_the_lesson_writes_and_those_it_leaves_to_the_challenge():
    """The lesson names eight promises, writes the first three (the three test methods of the
    cell) and leaves five to the challenge, which says «las de las cinco promesas»."""
    texto = texto_de("el-agente")
    seccion = texto.split("## Probar el arnés con el modelo fijo")[1].split("```{celda}")[0]
    promesas = re.findall(r"^\d+\. \*\*", seccion, re.M)
    assert len(promesas) == 8
    assert "La celda escribe las tres primeras" in seccion and "Las otras cinco son tu desafío" in seccion
    assert len(re.findall(r"^    def test_", celdas_de("el-agente")[1], re.M)) == 3
    assert "las de las cinco promesas que la lección\nnombra y no prueba" in texto


def test_el_agente_lesson_words_stay_under_the_limit():
    from tests.lecciones.forma import PALABRAS_MAXIMAS, palabras
    assert palabras("el-agente") <= PALABRAS_MAXIMAS
    prosa = texto_de("el-agente")
    assert "de verdad" not in prosa  # «real» where it means real (issue #55, point 6)
    assert "enseña" not in prosa  # «muestra» for show; the lesson teaches nothing by that word
    assert "petición" not in prosa  # «pedido», introduced once, for the user's request
    assert prosa.count("*pedido*") == 1


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
    comentario = "\n".join(linea for linea in (carpeta / "inicial.py").read_text(encoding="utf-8").splitlines()
                           if linea.startswith("#"))
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
    import builtins
    usados -= {"unittest", "sys", "correr_las_pruebas"} | set(dir(builtins))
    assert usados and usados <= nombrados, usados - nombrados
    # Each of them is there when the grader runs the reader's tests (a test that uses them all
    # passes with every correct agent).
    prueba = ("import unittest\n\n\nclass Nombres(unittest.TestCase):\n"
              "    def test_estan(self):\n" + "".join(f"        {n}\n" for n in sorted(usados)))
    r = challenges.calificar("pruebas-del-agente", prueba)
    assert r["pruebas"][0]["ok"], r["pruebas"][0]["mensaje"]
