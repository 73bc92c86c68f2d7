"""The lesson «El bucle» tells the truth: its cells run in order in CPython, and every number its
prose states about what the code prints, or that a question takes as its answer, is computed
here (see tests/lecciones/comun.py). Its predictions are what the cells print, its «Cámbialo tú»
changes break where their marked answers say, and its cell — the loop for a model that writes one
block per response — capped with the fewest changes, fails the challenge."""

from __future__ import annotations

import contextlib
import io
import re

import pytest

import challenges
from runtime import espacio
from tests.lecciones.comun import (celdas_de, ejecutar_leccion, opcion_de, opciones_de, referencia,
                                   texto_de)

LECCION = "el-bucle"


@pytest.fixture(scope="module")
def el_bucle():
    return ejecutar_leccion(LECCION)


def prosa() -> str:
    return " ".join(texto_de(LECCION).split())


def opciones(ident: str) -> list[tuple[bool, str]]:
    """The options of question ``ident`` with their continuation lines (not their feedback):
    (marked correct, text, whitespace collapsed)."""
    texto = texto_de(LECCION)
    bloque = texto[texto.index(f":id: {ident}\n"):]
    bloque = bloque[: bloque.index("::::")]
    leidas: list[tuple[bool, str]] = []
    for linea in bloque.splitlines():
        m = re.match(r"^- \[([ x])\] (.+)$", linea)
        if m:
            leidas.append((m.group(1) == "x", m.group(2)))
        elif leidas and linea.startswith("  ") and not linea.strip().startswith(">") and linea.strip():
            leidas[-1] = (leidas[-1][0], leidas[-1][1] + " " + linea.strip())
    primeras = opciones_de(LECCION, ident)  # the shared reader: first lines only
    assert len(leidas) == len(primeras)
    for (ok, entera), (marca, primera) in zip(leidas, primeras, strict=True):
        assert ok == marca and entera.startswith(primera), (entera, primera)
    return leidas


def correcta(ident: str) -> str:
    """The one option marked correct of question ``ident``, whitespace collapsed."""
    marcadas = [texto for ok, texto in opciones(ident) if ok]
    assert len(marcadas) == 1, (ident, marcadas)
    return " ".join(marcadas[0].split())


def correr(codigo: str) -> tuple[str, dict, BaseException | None]:
    """Run one cell's code in a fresh page namespace: (what it printed, the namespace, the
    exception it raised or None)."""
    ns = espacio()
    salida = io.StringIO()
    error = None
    with contextlib.redirect_stdout(salida):
        try:
            exec(compile(codigo, "<celda>", "exec"), ns)
        except Exception as e:  # noqa: BLE001 - the cell's own failure is what the test looks at
            error = e
    return salida.getvalue(), ns, error


def cambiada(codigo: str, viejo: str, nuevo: str) -> str:
    assert codigo.count(viejo) == 1, viejo
    return codigo.replace(viejo, nuevo)


# ------------------------------------------------------------------ the cells


def test_el_bucle_first_cell_prints_11_messages_in_5_turns(el_bucle):
    salidas, ns = el_bucle
    primera = salidas[0]
    assert primera.count("\nM[") + primera.startswith("M[") == 11
    assert "11 mensajes en 5 turnos" in primera
    assert "lista.txt: pan, leche, patatas, huevos, cebolla" in primera
    assert "Verás 11 mensajes en 5 turnos" in prosa()
    assert "La lista acaba con los huevos y la cebolla que faltaban para la tortilla." in prosa()
    assert ns["ENTORNO"]["lista.txt"] == "pan, leche, patatas"
    # «cinco respuestas, las cuatro primeras con una llamada», each of one block.
    respuestas = ns["RESPUESTAS_UNA_A_UNA"]
    assert len(respuestas) == 5 and all(len(r) == 1 for r in respuestas)
    assert [r[0]["type"] for r in respuestas] == ["tool_use"] * 4 + ["text"]
    assert "cinco respuestas, las cuatro primeras con una llamada" in prosa()


def test_el_bucle_prediction_of_the_first_cell_is_what_it_prints(el_bucle):
    salidas, _ = el_bucle
    assert f"{opcion_de(LECCION, 'predice-mensajes', 'respuesta')} mensajes en" in salidas[0]


def test_el_bucle_second_cell_counts_2_to_10_and_fails_at_turn_12(el_bucle):
    salidas, _ = el_bucle
    assert "mensajes recibidos en cada turno: [2, 4, 6, 8, 10]" in salidas[1]
    assert "RuntimeError" not in salidas[1]  # the cell catches it and prints its message
    assert "(turno 12)" in salidas[1]
    assert "sus 11 respuestas" in salidas[1]
    assert "El modelo recibe 2, 4, 6, 8 y 10 mensajes" in prosa()
    assert "Su guion tiene once respuestas" in prosa() and "en el turno 12" in prosa()


def test_el_bucle_prediction_of_the_second_cell_is_what_it_prints(el_bucle):
    """«predice-terco»: the loop calls the model a twelfth time and the script raises
    RuntimeError: the cell prints the message of a RuntimeError it caught, at turn 12."""
    salidas, _ = el_bucle
    marcada = correcta("predice-terco")
    assert "duodécima" in marcada and "`RuntimeError`" in marcada and "guion se acabó" in marcada
    assert "(turno 12)" in salidas[1] and "El guion se acabó" in salidas[1]


def test_el_bucle_the_cells_script_observations_are_the_references():
    """escenarios.py writes the observations of the cell's script as data: they are what the
    reference ejecutar gives, call after call, on a copy of ENTORNO."""
    ns = referencia()
    entorno = dict(ns["ENTORNO"])
    calculadas = [[ns["ejecutar"](b, entorno) for b in r if b["type"] == "tool_use"]
                  for r in ns["RESPUESTAS_UNA_A_UNA"]]
    assert calculadas == ns["OBSERVACIONES_UNA_A_UNA"]


# ------------------------------------------------------------------ «Cámbialo tú»


def test_el_bucle_cambialo_without_the_observation_breaks_in_turn_2():
    codigo = cambiada(celdas_de(LECCION)[0],
                      '        M.append(("usuario", [ejecutar(bloque, entorno)]))\n', "")
    _, ns, error = correr(codigo)
    assert isinstance(error, ns["GuionRoto"])
    assert str(error).startswith("En el turno 2 el modelo recibió 3 mensajes; esperaba 4.")
    assert error.turno == 2
    marcada = correcta("cambialo-sin-observaciones")
    assert "En el turno 2: esperaba 4 mensajes y recibe 3" in marcada
    assert "Primero, borra la última línea de `bucle_sin_tope`, la que añade a `M` el resultado" in prosa()


def test_el_bucle_cambialo_the_traces_conversation_breaks_in_turn_1_with_valueerror():
    codigo = celdas_de(LECCION)[0]
    codigo = cambiada(codigo, "ModeloGuionizado(guion_una_a_una())", "ModeloGuionizado(guion_bucle())")
    codigo = cambiada(codigo, "bucle_sin_tope(modelo, INICIO_UNA_A_UNA, entorno)",
                      "bucle_sin_tope(modelo, INICIO_BUCLE, entorno)")
    _, ns, error = correr(codigo)
    assert isinstance(error, ValueError) and "too many values to unpack" in str(error)
    assert ns["modelo"].turno == 1
    assert ns["entorno"] == ns["ENTORNO"]  # nothing was run
    primera = ns["RESPUESTAS_BUCLE"][0]
    assert [b["type"] for b in primera] == ["text", "tool_use"]
    marcada = correcta("cambialo-otra-conversacion")
    assert marcada.startswith("En el turno 1") and "`ValueError`" in marcada
    assert "dos bloques, un texto y una llamada" in marcada
    assert "`guion_bucle()` en lugar de `guion_una_a_una()` e `INICIO_BUCLE` en lugar de `INICIO_UNA_A_UNA`" in prosa()


# ------------------------------------------------------------------ the cell is not the answer


def test_el_bucle_the_cell_capped_with_the_fewest_changes_fails_the_challenge():
    """Issue #55: a reader who copies the lesson's loop and changes what a cap needs (its
    signature, `while True` for a `for` on the cap, the tuples it returns) fails the challenge:
    the cell's loop assumes one block per response, and the challenge's responses have several."""
    celda = celdas_de(LECCION)[0]
    bucle = celda[celda.index("def bucle_sin_tope("):celda.index("\n\n\nmodelo = ")]
    bucle = cambiada(bucle, "def bucle_sin_tope(modelo, inicio, entorno):",
                     "def bucle(modelo, inicio, entorno, tope):")
    bucle = cambiada(bucle, "    while True:", "    for _ in range(tope):")
    bucle = cambiada(bucle, "return bloque[\"text\"], M", "return (\"fin\", bloque[\"text\"], M)")
    bucle += '\n    return ("tope", None, M)\n'
    r = challenges.calificador().calificar("bucle-con-tope", bucle)
    assert r["error"] is None
    assert r["superadas"] <= 2, [p["nombre"] for p in r["pruebas"] if p["ok"]]
    leccion = next(p for p in r["pruebas"] if p["nombre"] == "la conversación de la lección")
    assert leccion["tipo"] == "error" and "ValueError" in leccion["mensaje"]


# ------------------------------------------------------------------ the questions


def test_el_bucle_question_answers_are_computed():
    ns = referencia()
    # «quien-termina»: with cap 10 the loop ends with "fin" at turn 4, the model's decision.
    modelo = ns["ModeloGuionizado"](ns["guion_bucle"]())
    como, _, M = ns["bucle"](modelo, ns["INICIO_BUCLE"], dict(ns["ENTORNO"]), 10)
    assert (como, modelo.turno) == ("fin", 4)

    # «cuantos-mensajes»: two calls per response, text at the sixth.
    respuestas = [[ns["llamada"](f"c{k}", "listar", carpeta=""),
                   ns["llamada"](f"d{k}", "leer", ruta="lista.txt")] for k in range(1, 6)]
    respuestas.append([ns["texto"]("hecho")])
    entorno = dict(ns["ENTORNO"])
    observaciones = [[ns["ejecutar"](b, entorno) for b in r if b["type"] == "tool_use"]
                     for r in respuestas]
    guion = ns["guion_de"](ns["INICIO_BUCLE"], respuestas, observaciones)
    como, _, M = ns["bucle"](ns["ModeloGuionizado"](guion), ns["INICIO_BUCLE"], dict(ns["ENTORNO"]), 10)
    assert como == "fin"
    assert len(M) == int(opcion_de(LECCION, "cuantos-mensajes", "respuesta"))
    assert "pide dos herramientas a la vez en cada respuesta, y en la sexta" in prosa()

    # «texto-y-llamada»: the trace's first response has a text and a call; the loop runs the
    # call, adds its result and calls the model again.
    primera = ns["RESPUESTAS_BUCLE"][0]
    assert [b["type"] for b in primera] == ["text", "tool_use"]
    assert f"trae un texto, «{primera[0]['text']}», y una llamada" in prosa()
    modelo = ns["ModeloGuionizado"](ns["guion_bucle"]())
    como, final, M = ns["bucle"](modelo, ns["INICIO_BUCLE"], dict(ns["ENTORNO"]), 2)
    assert modelo.turno == 2 and (como, final) == ("tope", None)
    assert M[3][0] == "usuario" and M[3][1][0]["tool_use_id"] == primera[1]["id"]
    assert correcta("texto-y-llamada") == "Ejecuta la llamada, añade su resultado y vuelve a llamar al modelo."

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
