"""The lesson «El bucle» tells the truth: its cells run in order in CPython, and every number its
prose states about what the code prints, or that a question takes as its answer, is computed
here (see tests/lecciones/comun.py)."""

from __future__ import annotations

import pytest

from tests.lecciones.comun import ejecutar_leccion, opcion_de, referencia, texto_de


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
