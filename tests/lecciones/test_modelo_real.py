"""The lesson «El bucle con un modelo real» tells the truth: its cells run in order in CPython, and
every number its prose states about what the code prints, or that a question takes as its
answer, is computed here (see tests/lecciones/comun.py)."""

from __future__ import annotations

import re

import pytest

from runtime import espacio
from tests.lecciones.comun import SOLUCION, celdas_de, ejecutar_leccion, opcion_de, texto_de


@pytest.fixture(scope="module")
def modelo_real():
    return ejecutar_leccion("modelo-real")


def _referencia_del_adaptador(ns: dict) -> dict:
    """The challenge's reference ModeloAPI, in a copy of the lesson's namespace."""
    ref = dict(ns)
    exec((SOLUCION.parent.parent / "modelo-api" / "solucion.py").read_text(encoding="utf-8"), ref)
    return ref


class _Enviar:
    def __init__(self, respuesta):
        self.respuesta = respuesta

    def __call__(self, url, cuerpo, cabeceras=None):
        return self.respuesta


def test_modelo_real_the_lessons_adapter_is_the_agents_not_the_challenges(modelo_real):
    """«Es un adaptador hecho a la medida del agente …: toma ese primero para system y traduce el
    resto. Y guarda el usage solo de las respuestas que devuelve … Con los M de esta lección le
    basta.» For every M the lesson's cells send (one system message, first) its request is the
    challenge reference's; where the challenge asks for more (no system message, two of them, the
    usage of a cut answer), they differ, as the prose says."""
    _, ns = modelo_real
    ref = _referencia_del_adaptador(ns)
    leccion, referencia = ns["ModeloAPI"](max_tokens=200), ref["ModeloAPI"](max_tokens=200)
    grabacion = espacio("entorno", "guionizado", "grabacion")["GRABACION"]["mensajes"]
    M_de_la_leccion = [ns["M"], ns["INICIO_TORTILLA"], [tuple(m) for m in grabacion]]
    for M in M_de_la_leccion:
        assert leccion.peticion(M, ns["HERRAMIENTAS"]) == referencia.peticion(M, ns["HERRAMIENTAS"])
    sin_sistema = [("usuario", "hola")]
    dos = [("sistema", "uno"), ("usuario", "hola"), ("sistema", "dos")]
    for M in (sin_sistema, dos):
        try:
            cuerpo = leccion.peticion(M, [])
        except (ValueError, KeyError):  # nothing to unpack, or a second system message
            cuerpo = None
        assert cuerpo != referencia.peticion(M, [])
    cortada = {"content": [ns["texto"]("Voy a le")], "stop_reason": "max_tokens", "usage": {"output_tokens": 5}}
    for clase, uso in ((ns["ModeloAPI"], None), (ref["ModeloAPI"], {"output_tokens": 5})):
        modelo = clase(url="http://x/v1/messages", enviar=_Enviar(cortada))
        with pytest.raises(ns["RespuestaCortada"]):
            modelo([("sistema", "s"), ("usuario", "u")], [])
        assert modelo.uso == uso
    prosa = " ".join(texto_de("modelo-real").split())
    assert "Es un adaptador hecho a la medida del agente" in prosa
    assert "El de tu desafío no puede suponer nada de eso" in prosa
    assert 'ROLES = {"usuario": "user", "asistente": "assistant"}' in celdas_de("modelo-real")[0]


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
