"""The lessons tell the truth: their cells run in order in CPython, and every number the prose
states about what the code prints, or that a question takes as its answer, is computed here.

The cells are read from the lesson's Markdown (the ```{celda} blocks, in page order) and run in
one namespace with the CPython ``open_url``, exactly as the page runs them in Pyodide.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import re
from pathlib import Path

import pytest

from runtime import espacio

LECCIONES = Path(__file__).resolve().parent.parent / "lessons"
SOLUCION = Path(__file__).resolve().parent.parent / "challenges" / "bucle-con-tope" / "solucion.py"


def celdas_de(nombre: str) -> list[str]:
    texto = (LECCIONES / f"{nombre}.md").read_text(encoding="utf-8")
    bloques = re.findall(r"^```\{celda\}[^\n]*\n(.*?)^```", texto, re.S | re.M)
    return ["\n".join(l for l in b.splitlines() if not re.match(r"^:[\w-]+:", l)) for b in bloques]


def ejecutar_leccion(nombre: str) -> tuple[list[str], dict]:
    """Run every cell of a lesson in order; return each cell's output and the namespace."""
    ns = espacio()
    salidas = []
    for i, codigo in enumerate(celdas_de(nombre), start=1):
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            exec(compile(codigo, f"<celda {i}>", "exec"), ns)
        salidas.append(buffer.getvalue())
    return salidas, ns


def opcion_de(nombre: str, ident: str, campo: str) -> str:
    """The value of ``:campo:`` in the question ``:id: ident`` of a lesson."""
    texto = (LECCIONES / f"{nombre}.md").read_text(encoding="utf-8")
    bloque = texto[texto.index(f":id: {ident}\n"):]
    bloque = bloque[: bloque.index("::::")]
    return re.search(rf"^:{campo}: (.+)$", bloque, re.M).group(1).strip()


def texto_de(nombre: str) -> str:
    return (LECCIONES / f"{nombre}.md").read_text(encoding="utf-8")


def referencia():
    ns = espacio("entorno", "guionizado", "escenarios")
    exec(SOLUCION.read_text(encoding="utf-8"), ns)
    return ns


# ------------------------------------------------------------------ El bucle

@pytest.fixture(scope="module")
def el_bucle():
    return ejecutar_leccion("el-bucle")


def test_el_bucle_first_cell_prints_9_messages_in_4_turns(el_bucle):
    salidas, ns = el_bucle
    primera = salidas[0]
    assert primera.count("\nM[") + primera.startswith("M[") == 9
    assert "9 mensajes en 4 turnos" in primera
    completa = "pan, leche, patatas, tomates, pepino, pimiento, ajo, huevos, cebolla"
    assert f"lista.txt: {completa}" in primera
    prosa = texto_de("el-bucle")
    assert "Verás 9 mensajes en 4 turnos" in prosa
    assert "los seis ingredientes" in prosa
    assert len(completa.split(", ")) - len(ns["ENTORNO"]["lista.txt"].split(", ")) == 6


def test_el_bucle_second_cell_counts_2_4_6_8_and_fails_at_turn_12(el_bucle):
    salidas, _ = el_bucle
    assert "mensajes recibidos en cada turno: [2, 4, 6, 8]" in salidas[1]
    assert "RuntimeError" not in salidas[1]  # the cell catches it and prints its message
    assert "(turno 12)" in salidas[1]
    assert "sus 11 respuestas" in salidas[1]
    prosa = texto_de("el-bucle")
    assert "El modelo recibe 2, 4, 6 y 8 mensajes" in prosa
    assert "once respuestas" in prosa and "en el\nturno 12" in prosa


def test_el_bucle_question_answers_are_computed():
    ns = referencia()
    # «quien-termina»: with cap 10 the loop ends with "fin" at turn 4, the model's decision.
    modelo = ns["ModeloGuionizado"](ns["guion_bucle"]())
    como, _, M = ns["bucle"](modelo, ns["INICIO_BUCLE"], dict(ns["ENTORNO"]), 10)
    assert (como, modelo.turno) == ("fin", 4)

    # «cuantos-mensajes»: one call per response, text at turn 6.
    respuestas = [[ns["llamada"](f"c{k}", "listar", carpeta="")] for k in range(1, 6)]
    respuestas.append([ns["texto"]("hecho")])
    entorno = dict(ns["ENTORNO"])
    observaciones = [[ns["ejecutar"](b, entorno) for b in r if b["type"] == "tool_use"]
                     for r in respuestas]
    guion = ns["guion_de"](ns["INICIO_BUCLE"], respuestas, observaciones)
    _, _, M = ns["bucle"](ns["ModeloGuionizado"](guion), ns["INICIO_BUCLE"], dict(ns["ENTORNO"]), 10)
    assert len(M) == int(opcion_de("el-bucle", "cuantos-mensajes", "respuesta"))

    # «sin-observaciones»: a harness that never appends results: turn 2 gets 3, expects 4.
    def sin_observaciones(modelo, inicio, entorno):
        M = list(inicio)
        while True:
            r = modelo(M, ns["HERRAMIENTAS"])
            M.append(("asistente", r))
            for ll in [b for b in r if b["type"] == "tool_use"]:
                ns["ejecutar"](ll, entorno)

    with pytest.raises(ns["GuionRoto"]) as error:
        sin_observaciones(ns["ModeloGuionizado"](ns["guion_bucle"]()), ns["INICIO_BUCLE"],
                          dict(ns["ENTORNO"]))
    assert str(error.value).startswith("En el turno 2 el modelo recibió 3 mensajes; esperaba 4.")
    assert "esperaba 4 mensajes y recibe 3" in texto_de("el-bucle")

    # «tope-tres»: what is true when the cap of 3 stops the loop.
    entorno = dict(ns["ENTORNO"])
    como, final, M = ns["bucle"](ns["ModeloGuionizado"](ns["guion_bucle"]()), ns["INICIO_BUCLE"],
                                 entorno, 3)
    assert (como, final) == ("tope", None)
    assert entorno["lista.txt"] == ns["LISTA_COMPLETA"]
    assert M[-1][0] == "usuario" and M[-1][1][0]["tool_use_id"] == "t5"

    # «tres-lecturas»: turn 2's three reads add two messages, not four.
    M2 = ns["guion_bucle"]()[1][0]
    M3 = ns["guion_bucle"]()[2][0]
    assert len(M3) - len(M2) == 2


def opciones_de(nombre: str, ident: str) -> list[tuple[bool, str]]:
    """The options of question ``ident``: (marked correct, text), in order."""
    texto = texto_de(nombre)
    bloque = texto[texto.index(f":id: {ident}\n"):]
    bloque = bloque[: bloque.index("::::")]
    return [(marca == "x", resto) for marca, resto in re.findall(r"^- \[([ x])\] (.+)$", bloque, re.M)]


# ------------------------------------------------------- Llamar herramientas

@pytest.fixture(scope="module")
def llamar_herramientas():
    return ejecutar_leccion("llamar-herramientas")


def test_llamar_herramientas_cells(llamar_herramientas):
    salidas, ns = llamar_herramientas
    assert salidas[0].count("(") >= 4 and "pan, leche, patatas" in salidas[0]
    lineas = salidas[1].strip().splitlines()
    assert len(lineas) == 5 and sum(l.endswith("→ None") for l in lineas) == 1
    assert lineas[0].endswith("→ None")
    assert "De las cinco llamadas, solo la primera encaja" in texto_de("llamar-herramientas")
    assert "3 vueltas: 8 mensajes" in salidas[2]
    assert "5 vueltas: El guion se acabó" in salidas[2] and "(turno 5)" in salidas[2]
    assert "Con tres vueltas el bucle se detiene con 8 mensajes" in texto_de("llamar-herramientas")


def test_llamar_herramientas_numbers_and_answers_are_computed():
    ns = referencia()
    prosa = texto_de("llamar-herramientas")
    # «Con Tope en 1 ... el modelo recibe 2 mensajes y M termina con 4»
    modelo = ns["ModeloGuionizado"](ns["guion_bucle"]())
    _, _, M = ns["bucle"](modelo, ns["INICIO_BUCLE"], dict(ns["ENTORNO"]), 1)
    assert len(ns["guion_bucle"]()[0][0]) == 2 and len(M) == 4
    assert "el modelo recibe 2 mensajes y `M` termina con 4" in prosa
    # «El número correcto era 4»: the script's conversation ends at turn 4.
    modelo = ns["ModeloGuionizado"](ns["guion_bucle"]())
    ns["bucle"](modelo, ns["INICIO_BUCLE"], dict(ns["ENTORNO"]), 10)
    assert modelo.turno == 4 and "El número correcto era 4" in prosa
    # «rechaza-incumple»: each option's call, evaluated, is rejected exactly when marked.
    for correcta, texto in opciones_de("llamar-herramientas", "rechaza-incumple"):
        codigo = re.search(r"`(llamada\(.*\))`", texto).group(1)
        assert (ns["incumple"](eval(codigo, ns)) is not None) == correcta, codigo
    # «mensajes-tras-un-turno»: 2 messages, a response with three calls, one full turn.
    guion = ns["guion_bucle"]()
    antes, despues = guion[1][0], guion[2][0]
    assert len([b for b in guion[1][1] if b["type"] == "tool_use"]) == 3
    assert 2 + (len(despues) - len(antes)) == int(opcion_de("llamar-herramientas",
                                                             "mensajes-tras-un-turno", "respuesta"))


# ------------------------------------------------- Errores como observaciones

@pytest.fixture(scope="module")
def errores():
    return ejecutar_leccion("errores")


def test_errores_cells(errores):
    salidas, ns = errores
    assert "a ciegas: resultado e9 (error): «'lista'»" in salidas[0]
    assert "con cuidado: el fallo llega al programador: KeyError('lista')" in salidas[0]
    assert ns["FUNCIONES"]["buscar"] is ns["buscar"]  # the cell puts the real tool back
    assert "fin tras 11 mensajes" in salidas[1]
    assert "observaciones con error: 2" in salidas[1]
    assert "lista.txt: pan, leche, patatas, ajo" in salidas[1]
    prosa = texto_de("errores")
    assert "El bucle termina con `fin` tras 11 mensajes, y 2 de las observaciones fueron errores" in prosa
    assert int(opcion_de("errores", "mensajes-errores", "respuesta")) == 11


def test_errores_trace_turns_1_and_3_change_nothing():
    ns = referencia()
    entorno = dict(ns["ENTORNO"])
    guion = ns["guion_errores"]()
    # The observations of turns 1 and 3 are errors, and the environment is untouched by them.
    obs = [turno[0][-1] for turno in guion[1:4]]
    assert [m[1][0]["is_error"] for m in obs] == [True, False, True]
    assert "Fíjate en los turnos 1 y 3: el entorno no cambia" in texto_de("errores")
    assert entorno == ns["ENTORNO"]


# ------------------------------------------------------------------ Pedir permiso

PERMISO = Path(__file__).resolve().parent.parent / "challenges" / "pedir-permiso" / "solucion.py"


def referencia_con_permiso():
    ns = espacio("entorno", "guionizado", "escenarios", "permisos")
    exec(PERMISO.read_text(encoding="utf-8"), ns)
    return ns


@pytest.fixture(scope="module")
def pedir_permiso():
    return ejecutar_leccion("pedir-permiso")


def test_pedir_permiso_cells(pedir_permiso):
    salidas, ns = pedir_permiso
    assert salidas[0].splitlines() == [
        "CAMBIAN: ['escribir']", "listar solo mira", "leer solo mira", "buscar solo mira",
        "escribir pregunta: ¿Permites escribir lista.txt?"]
    assert salidas[1].splitlines() == [
        "resultado d1: «pan, leche, patatas»",
        "resultado d2 (error): «no se ha ejecutado: el usuario no lo ha permitido»",
        "preguntas: 1", "lista.txt: pan, leche, patatas"]
    # In CPython nobody can be asked: the cell says so in one sentence and the script answers.
    assert salidas[2].splitlines() == [
        "Aquí no se te puede preguntar: responde un guion, sí y después no.",
        "¿Permites escribir lista.txt? → Permitir",
        "¿Permites escribir notas.txt? → Denegar",
        "fin tras 7 mensajes: He apuntado huevos y cebolla en lista.txt; notas.txt sigue como estaba.",
        "  resultado p3: «escrito lista.txt (36 caracteres)»",
        "  resultado p4 (error): «no se ha ejecutado: el usuario no lo ha permitido»",
        "lista.txt: pan, leche, patatas, huevos, cebolla",
        "notas.txt sin tocar: True"]
    prosa = texto_de("pedir-permiso")
    assert "De las cuatro llamadas, solo una pregunta." in prosa
    assert "el bucle termina con `fin` tras 7 mensajes" in " ".join(prosa.split())


@pytest.mark.parametrize("respuestas", [[True, True], [True, False], [False, True], [False, False]])
def test_pedir_permiso_cell_with_a_reader_who_answers(monkeypatch, respuestas):
    """Where the page can ask, the reader's answers drive the run, the script is not used, and
    M has 7 messages whatever they answer (as the prose says)."""
    import sys
    import types

    preguntas = []

    def preguntar_en_la_pagina(texto, detalle):
        preguntas.append((texto, detalle))
        return respuestas[len(preguntas) - 1]
    monkeypatch.setitem(sys.modules, "trabajador",
                        types.SimpleNamespace(preguntar_en_la_pagina=preguntar_en_la_pagina))
    salidas, ns = ejecutar_leccion("pedir-permiso")
    assert [t for t, _ in preguntas] == ["¿Permites escribir lista.txt?", "¿Permites escribir notas.txt?"]
    assert preguntas[0][1].startswith("llamada p3 escribir(ruta='lista.txt'")
    assert "no se te puede preguntar" not in salidas[2]
    assert ns["como"] == "fin" and len(ns["M"]) == 7
    assert ns["final"] == ns["FINALES_PERMISO"][tuple(respuestas)]
    assert (ns["entorno"]["lista.txt"] != ns["ENTORNO"]["lista.txt"]) == respuestas[0]
    assert (ns["entorno"]["notas.txt"] != ns["ENTORNO"]["notas.txt"]) == respuestas[1]
    assert "no se ha ejecutado: el usuario no lo ha permitido" in texto_de("pedir-permiso")
    assert "el número de mensajes no cambia" in " ".join(texto_de("pedir-permiso").split())


def test_pedir_permiso_question_answers_are_computed():
    ns = referencia_con_permiso()
    # mensajes-permiso: the trace's run, yes to lista.txt and no to notas.txt
    usuario = ns["Respuestas"](["sí", "no"])
    como, _, M = ns["bucle"](ns["ModeloGuionizado"](ns["guion_permiso"](["sí", "no"])),
                             ns["INICIO_PERMISO"], dict(ns["ENTORNO"]), 3, usuario)
    assert como == "fin"
    assert int(opcion_de("pedir-permiso", "mensajes-permiso", "respuesta")) == len(M) == 7
    # que-pregunta: the calls asked about are the options marked right
    preguntadas = [ll["id"] for ll in usuario.preguntas]
    assert preguntadas == ["p3", "p4"]
    texto = texto_de("pedir-permiso")
    bloque = texto[texto.index(":id: que-pregunta\n"):]
    bloque = bloque[:bloque.index("::::")]
    assert re.findall(r"^- \[x\] `(p\d)`", bloque, re.M) == preguntadas
    # sin-usuario: nobody to ask, the loop's default denegar
    _, _, M = ns["bucle"](ns["ModeloGuionizado"](ns["guion_permiso"](["no", "no"])),
                          ns["INICIO_PERMISO"], dict(ns["ENTORNO"]), 3)
    errores = [b for rol, c in M if rol == "usuario" and isinstance(c, list) for b in c
               if b["is_error"]]
    assert int(opcion_de("pedir-permiso", "sin-usuario", "respuesta")) == len(errores) == 2
    # la-siguiente: a denied p3 does not stop p4, which is asked about and runs
    usuario = ns["Respuestas"](["no", "sí"])
    entorno = dict(ns["ENTORNO"])
    ns["bucle"](ns["ModeloGuionizado"](ns["guion_permiso"](["no", "sí"])), ns["INICIO_PERMISO"],
                entorno, 3, usuario)
    assert [ll["id"] for ll in usuario.preguntas] == ["p3", "p4"]
    assert entorno["notas.txt"] == ns["NOTAS_PERMISO"] and entorno["lista.txt"] == ns["ENTORNO"]["lista.txt"]


def test_pedir_permiso_trace_turn_2_asks_twice_in_order():
    """«Fíjate en el turno 2: hay dos pasos de permiso, uno por escritura y en el orden de las
    llamadas. Las lecturas del turno 1 no preguntan.»"""
    from widgets.calificador.trazas import trazar

    ns = referencia_con_permiso()
    traza = trazar(ns["bucle"], ns["ModeloGuionizado"](ns["guion_permiso"](["sí", "no"])),
                   ns["INICIO_PERMISO"], dict(ns["ENTORNO"]), 3,
                   preguntar=ns["Respuestas"](["sí", "no"]))
    permisos = [e for e in traza["eventos"] if e["tipo"] == "permiso"]
    assert [(e["turno"], e["id"], e["permitido"]) for e in permisos] == [(2, "p3", True), (2, "p4", False)]
    assert "Fíjate en el turno 2: hay dos pasos de permiso" in texto_de("pedir-permiso")


def test_errores_closing_points_to_pedir_permiso():
    assert "«Pedir permiso»" in texto_de("errores").split("## Lo que falta", 1)[1]
# ------------------------------------------------------------------ El agente y sus pruebas

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


# ------------------------------------------------------------------ El bucle con un modelo real

@pytest.fixture(scope="module")
def modelo_real():
    return ejecutar_leccion("modelo-real")


def _clase(fuente: str, nombre: str) -> str:
    """The source of ``class nombre`` (up to the next top-level statement) in ``fuente``."""
    inicio = fuente.index(f"class {nombre}")
    resto = fuente[inicio:].splitlines()
    cuerpo = [resto[0], *itertools.takewhile(lambda l: not l or l.startswith((" ", "\t")), resto[1:])]
    return "\n".join(cuerpo).rstrip()


def test_modelo_real_the_lesson_adapter_is_the_challenge_reference():
    """The lesson's first cell defines ModeloAPI (and ROLES) exactly as the challenge's
    reference solution does: what the lesson teaches is what the grader holds it to."""
    celda = celdas_de("modelo-real")[0]
    solucion = (SOLUCION.parent.parent / "modelo-api" / "solucion.py").read_text(encoding="utf-8")
    quitar_doc = lambda t: re.sub(r'\n\s+"""(.|\n)*?"""', "", t)  # noqa: E731
    assert quitar_doc(_clase(celda, "ModeloAPI")) == quitar_doc(_clase(solucion, "ModeloAPI"))
    assert 'ROLES = {"usuario": "user", "asistente": "assistant"}' in celda
    assert 'ROLES = {"usuario": "user", "asistente": "assistant"}' in solucion


def test_modelo_real_the_harness_is_lesson_5s_unchanged(modelo_real):
    """«Tu arnés no cambia ni una línea»: ejecutar, bucle and agente of the first cell are the
    ones of «El agente y sus pruebas», character for character."""
    celda = celdas_de("modelo-real")[0]
    anterior = celdas_de("el-agente")[0]
    for funcion in ("ejecutar", "bucle", "agente"):
        patron = rf"^def {funcion}\(.*?(?=^\S)"
        assert re.search(patron, celda, re.S | re.M).group(0) == \
            re.search(patron, anterior, re.S | re.M).group(0), funcion
    assert "agente(ModeloAPI(), PEDIDO_TORTILLA, entorno)" in texto_de("modelo-real")


def test_modelo_real_first_cell_prints_the_request_it_would_send(modelo_real):
    import json

    salidas, ns = modelo_real
    cuerpo = json.loads(salidas[0])
    M = [("sistema", ns["SISTEMA_AGENTE"]), ("usuario", "¿Qué hay en lista.txt?"),
         ("asistente", [ns["llamada"]("toolu_01", "leer", ruta="lista.txt")]),
         ("usuario", [ns["resultado"]("toolu_01", "pan, leche, patatas")])]
    assert cuerpo == ns["ModeloAPI"](max_tokens=200).peticion(M, ns["HERRAMIENTAS"])
    assert [m["role"] for m in cuerpo["messages"]] == ["user", "assistant", "user"]
    assert cuerpo["system"] == ns["SISTEMA_AGENTE"]


def test_modelo_real_the_two_tests_without_a_server_pass(modelo_real):
    salidas, _ = modelo_real
    assert salidas[1].count(" ... ok\n") == 2
    assert "Ran 2 tests in" in salidas[1] and salidas[1].rstrip().endswith("OK")


def test_modelo_real_outside_the_page_the_model_cells_say_why_in_one_sentence(modelo_real):
    salidas, _ = modelo_real
    for salida in (salidas[2], salidas[3]):
        assert salida.count("\n") == 1
        assert "fuera de la página no hay modelo del curso" in salida
    assert salidas[5] == "Escribe y confirma antes la dirección de tu servidor.\n"


def test_modelo_real_each_row_of_the_table_happens_as_it_says(modelo_real):
    """The table of «Lo que hace un modelo real, y quién se ocupa»: each row's cell output."""
    salidas, ns = modelo_real
    filas = dict(linea.split(": ", 1) for linea in salidas[4].splitlines())
    assert filas["responde sin llamar a nada"] == "fin"
    assert filas["pide una herramienta que no existe"].startswith(
        "fin, observación de error «no existe la herramienta 'borrar'")
    assert filas["escribe argumentos que no encajan"].startswith("fin, observación de error «a leer le falta")
    assert filas["pide leer un fichero que no existe"] == "fin, observación de error «no existe el fichero 'lista'»"
    assert filas["pide escribir"] == f"fin, observación de error «{ns['NO_PERMITIDO']}»"
    assert filas["no deja de pedir herramientas"] == "tope"
    assert filas["se queda sin tokens a mitad"] == "sale RespuestaCortada"
    assert filas["responde en otro idioma"] == "fin"
    assert "¡el entorno ha cambiado!" not in salidas[4]
    tabla = texto_de("modelo-real").lower()
    for fila in filas:  # each row the cell runs is a row of the table
        assert f"| {fila}" in tabla.replace("`", ""), fila


def test_modelo_real_the_recording_is_what_the_prose_says():
    """The opening's prose describes the recorded run: the model asks listar('lista.txt') turn
    after turn, the observation says to use leer, the cap ends it, each turn reuses the prompt
    processed before (the first, the start read at the load), and the last turns take longer than
    the first. A new recording that does otherwise fails here (and the prose must be written
    again)."""
    ns = espacio("entorno", "guionizado", "grabacion")
    g = ns["GRABACION"]
    llamadas = [ns["muestra"](b) for t in g["turnos"] for b in t["respuesta"]]
    assert all(l.endswith("listar(carpeta='lista.txt')") for l in llamadas), llamadas
    assert len(g["turnos"]) == 10 and g["final"]["como"] == "tope"
    assert "usa leer" in g["mensajes"][3][1][0]["content"]
    reusados = [t["tokens_reusados"] for t in g["turnos"]]
    assert reusados[0] > 0 and all(a < b for a, b in zip(reusados, reusados[1:]))
    segundos = [t["segundos"] for t in g["turnos"]]
    assert min(segundos[-3:]) > max(segundos[:3]), segundos
    prosa = " ".join(texto_de("modelo-real").split())
    assert "`listar`, con un argumento que no lo tiene: `lista.txt` es un fichero" in prosa
    assert "hasta que el tope lo para" in prosa
    assert "en el primero, es el comienzo que el modelo leyó al cargarse" in prosa
    assert "los últimos turnos tardan más que los primeros" in prosa
    # and the trace replays it with the reference loop: the same messages, the same end
    modelo = ns["ModeloGuionizado"](ns["guion_grabado"]())
    referencia = espacio("entorno", "guionizado", "escenarios", "permisos")
    exec((SOLUCION.parent.parent / "pedir-permiso" / "solucion.py").read_text(encoding="utf-8"), referencia)
    como, _, M = referencia["bucle"](modelo, ns["INICIO_GRABADO"], dict(ns["ENTORNO"]), 10)
    assert como == "tope" and [list(m) for m in M] == [list(m) for m in g["mensajes"]]


def test_modelo_real_question_answers_are_computed(modelo_real):
    _, ns = modelo_real
    L = ns["llamada"]("t1", "leer", ruta="lista.txt")
    M = [("sistema", ns["SISTEMA_AGENTE"]), ("usuario", "pedido"),
         ("asistente", [L]), ("usuario", [ns["resultado"]("t1", "pan")]),
         ("asistente", [L]), ("usuario", [ns["resultado"]("t1", "pan")])]
    cuerpo = ns["ModeloAPI"]().peticion(M, ns["HERRAMIENTAS"])
    assert int(opcion_de("modelo-real", "cuantos-messages", "respuesta")) == len(cuerpo["messages"]) == 5
