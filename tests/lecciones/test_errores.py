"""The lesson «Errores como observaciones» tells the truth: its cells run in order in CPython, and
every number its prose states about what the code prints, or that a question takes as its
answer, is computed here (see tests/lecciones/comun.py)."""

from __future__ import annotations

import contextlib
import io

import pytest

from tests.lecciones.comun import RAIZ, celdas_de, ejecutar_leccion, opcion_de, referencia, texto_de

DESAFIO = RAIZ / "challenges" / "errores-como-observaciones"


@pytest.fixture(scope="module")
def errores():
    return ejecutar_leccion("errores")


def test_errores_cells(errores):
    salidas, ns = errores
    # The first cell: one error, the trace's turn 1, caught by both ways alike …
    e1 = ns["llamada"]("e1", "leer", ruta="gazpacho.txt")
    observacion = ns["ejecutar_con_cuidado"](e1, dict(ns["ENTORNO"]))
    assert salidas[0].splitlines()[0] == repr(observacion)
    assert observacion == ns["OBSERVACIONES_ERRORES"][0][0]
    assert ns["ejecutar_a_ciegas"](e1, dict(ns["ENTORNO"])) == observacion
    # … then a tool with a programming bug: hidden by one, out to the programmer with the other.
    assert "a ciegas: resultado e9 (error): «'lista'»" in salidas[0]
    assert "con cuidado: el fallo llega al programador: KeyError('lista')" in salidas[0]
    assert ns["FUNCIONES"]["buscar"] is ns["buscar"]  # the cell puts the real tool back
    # ejecutar_con_cuidado knows one error of those the model can fix, and checks no schema:
    # the loop survives turn 1 and dies at turn 3, the write without contenido.
    assert salidas[1].splitlines() == [
        "turno 3: sale TypeError: escribir() missing 1 required positional argument: 'contenido'",
        "lista.txt: pan, leche, patatas"]
    prosa = " ".join(texto_de("errores").split())
    assert ("En el turno 3 olvida `contenido`: la llamada llega hasta `escribir`, que lanza "
            "`TypeError`") in prosa
    assert "con `lista.txt` sin tocar" in prosa
    with pytest.raises(IsADirectoryError):  # «solo conoce uno»: another OSError gets out
        ns["ejecutar_con_cuidado"](ns["llamada"]("x", "leer", ruta="recetas"), dict(ns["ENTORNO"]))


def test_errores_with_the_challenges_ejecutar_the_loop_ends_as_the_prose_says(errores):
    """«Con un ejecutar que siga las dos reglas …, el de tu desafío, … el bucle termina con fin
    tras 11 mensajes, y 2 de las observaciones fueron errores»: the reference's ejecutar in the
    lesson's second cell, as the prose invites the reader to do with theirs."""
    ns = dict(errores[1])  # a copy: the fixture's namespace stays the lesson's
    exec(DESAFIO.joinpath("solucion.py").read_text(encoding="utf-8"), ns)
    ns["ejecutar_con_cuidado"] = ns["ejecutar"]
    salida = io.StringIO()
    with contextlib.redirect_stdout(salida):
        exec(celdas_de("errores")[1], ns)
    assert salida.getvalue().splitlines() == [
        "fin tras 11 mensajes: El gazpacho lleva ajo: lo he añadido a lista.txt.",
        "lista.txt: pan, leche, patatas, ajo"]
    errores_en_M = [b for rol, c in ns["M"] if rol == "usuario" and isinstance(c, list)
                    for b in c if b["is_error"]]
    assert len(ns["M"]) == 11 and len(errores_en_M) == 2
    prosa = " ".join(texto_de("errores").split())
    assert "el bucle termina con `fin` tras 11 mensajes, y 2 de las observaciones fueron errores" in prosa
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
