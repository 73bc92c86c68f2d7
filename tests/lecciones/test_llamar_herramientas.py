"""The lesson «Llamar a herramientas» tells the truth: its cells run in order in CPython, and every
number its prose states about what the code prints, or that a question takes as its answer, is
computed here (see tests/lecciones/comun.py)."""

from __future__ import annotations

import re

import pytest

from tests.lecciones.comun import ejecutar_leccion, opcion_de, opciones_de, referencia, texto_de


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


def test_llamar_herramientas_the_cell_executes_without_checking(llamar_herramientas):
    """The cell's ejecutar_sin_comprobar checks nothing (checking is the challenge's): a call
    that does not fit reaches the tool. «en este guion todas las llamadas encajan»: it is true."""
    _, ns = llamar_herramientas
    assert "ejecutar" not in ns
    with pytest.raises(TypeError):  # escribir without contenido: the tool itself fails
        ns["ejecutar_sin_comprobar"](ns["llamada"]("x", "escribir", ruta="a.txt"), {})
    llamadas = [b for _, respuesta in ns["guion_bucle"]() for b in respuesta if b["type"] == "tool_use"]
    assert llamadas and all(ns["incumple"](ll) is None for ll in llamadas)
    prosa = " ".join(texto_de("llamar-herramientas").split())
    assert "No comprueba nada antes, porque en este guion todas las llamadas encajan." in prosa


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
