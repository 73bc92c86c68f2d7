"""The lesson «Llamar a herramientas» tells the truth: its cells run in order in CPython, and every
number its prose states about what the code prints, or that a question takes as its answer, is
computed here (see tests/lecciones/comun.py). Its predictions are what the cells print, and its
«Cámbialo tú» change breaks where its marked answer says."""

from __future__ import annotations

import contextlib
import io
import re

import pytest

from runtime import espacio
from tests.lecciones.comun import (celdas_de, ejecutar_leccion, opcion_de, opciones_de, referencia,
                                   texto_de)

LECCION = "llamar-herramientas"


@pytest.fixture(scope="module")
def llamar_herramientas():
    return ejecutar_leccion("llamar-herramientas")


def test_llamar_herramientas_cells(llamar_herramientas):
    salidas, _ns = llamar_herramientas
    assert salidas[0].count("(") >= 4 and "pan, leche, patatas" in salidas[0]
    lineas = salidas[1].strip().splitlines()
    assert len(lineas) == 5 and sum(linea.endswith("→ None") for linea in lineas) == 1
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


# ------------------------------------------------------------------ predictions and «Cámbialo tú»


def prosa() -> str:
    return " ".join(texto_de(LECCION).split())


def correcta(ident: str) -> str:
    """The first line of the one option marked correct of question ``ident``."""
    marcadas = [texto for ok, texto in opciones_de(LECCION, ident) if ok]
    assert len(marcadas) == 1, (ident, marcadas)
    return marcadas[0]


def test_llamar_herramientas_prediction_leer_prints_the_files_text(llamar_herramientas):
    """«predice-leer»: the tool returns the file's text, not a block."""
    salidas, ns = llamar_herramientas
    ultima = salidas[0].strip().splitlines()[-1]
    assert ultima == ns["ENTORNO"]["lista.txt"] == "pan, leche, patatas"
    assert "tool_result" not in salidas[0] and "tool_use" not in salidas[0]
    assert correcta("predice-leer") == "El texto de `lista.txt`, tal cual."
    assert "La última línea de la celda lo muestra: el texto de `lista.txt`, sin envoltorio." in prosa()
    # «imprime las cuatro herramientas»
    assert len(ns["HERRAMIENTAS"]) == 4
    assert all(f"{h['name']}(" in salidas[0] for h in ns["HERRAMIENTAS"])


def test_llamar_herramientas_prediction_encajan_is_what_incumple_prints(llamar_herramientas):
    salidas, _ = llamar_herramientas
    lineas = salidas[1].strip().splitlines()
    assert sum(linea.endswith("→ None") for linea in lineas) == int(opcion_de(LECCION, "predice-encajan", "respuesta"))


def test_llamar_herramientas_prediction_vueltas_is_what_the_cell_prints(llamar_herramientas):
    salidas, _ = llamar_herramientas
    assert f"3 vueltas: {opcion_de(LECCION, 'predice-vueltas', 'respuesta')} mensajes" in salidas[2]


def test_llamar_herramientas_cambialo_an_unknown_tool_stops_the_cell_in_turn_1():
    """The change the lesson gives, after the cell's three exec lines: the model's first call is
    to `borrar`; ejecutar_sin_comprobar raises KeyError at turn 1, and no observation is sent."""
    linea = 'RESPUESTAS_BUCLE[0][1] = llamada("t1", "borrar", ruta="lista.txt")'
    assert f"```python\n{linea}\n```" in texto_de(LECCION)
    codigo = celdas_de(LECCION)[2]
    ultima_exec = 'exec(open_url("runtime/escenarios.py").read())\n'
    assert codigo.count(ultima_exec) == 1
    codigo = codigo.replace(ultima_exec, ultima_exec + linea + "\n")
    ns = espacio()
    with contextlib.redirect_stdout(io.StringIO()):  # the cells before it, as the page runs them
        for anterior in celdas_de(LECCION)[:2]:
            exec(compile(anterior, "<celda>", "exec"), ns)
    salida = io.StringIO()
    with contextlib.redirect_stdout(salida), pytest.raises(KeyError) as error:
        exec(compile(codigo, "<celda>", "exec"), ns)
    assert error.value.args == ("borrar",)
    assert ns["modelo"].turno == 1 and len(ns["M"]) == 3  # the response, and no observation
    assert ns["entorno"] == ns["ENTORNO"]
    assert salida.getvalue() == ""  # not even the first `for` got to print
    assert correcta("cambialo-herramienta-desconocida").startswith(
        "La celda se detiene en el turno 1 con `KeyError: 'borrar'`")
    # What the lesson says the challenge's ejecutar would do with it: incumple has a reason.
    motivo = ns["incumple"](ns["RESPUESTAS_BUCLE"][0][1])
    assert f"si hay un motivo, como `{motivo}`, lanza `ValueError`" in prosa()
