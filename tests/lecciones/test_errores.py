"""The lesson «Errores como observaciones» tells the truth: its cells run in order in CPython, and
every number its prose states about what the code prints, or that a question takes as its
answer, is computed here (see tests/lecciones/comun.py)."""

from __future__ import annotations

import pytest

from tests.lecciones.comun import ejecutar_leccion, opcion_de, referencia, texto_de


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


def test_errores_closing_points_to_pedir_permiso():
    assert "«Pedir permiso»" in texto_de("errores").split("## Lo que falta", 1)[1]
