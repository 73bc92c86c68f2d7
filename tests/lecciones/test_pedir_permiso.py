"""The lesson «Pedir permiso» tells the truth: its cells run in order in CPython, and every number
its prose states about what the code prints, or that a question takes as its answer, is computed
here (see tests/lecciones/comun.py)."""

from __future__ import annotations

import re

import pytest

from runtime import espacio
from tests.lecciones.comun import RAIZ, ejecutar_leccion, opcion_de, texto_de


PERMISO = RAIZ / "challenges" / "pedir-permiso" / "solucion.py"


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
