"""runtime/entorno.py as the protocol sees it: FUNCIONES and HERRAMIENTAS, ``incumple`` (is a
call well made?), the block constructors and ``muestra``."""

import inspect

import pytest


# ------------------------------------------------ FUNCIONES y HERRAMIENTAS

def test_funciones(rt, e):
    F = rt["FUNCIONES"]
    assert list(F) == ["listar", "leer", "escribir", "buscar"]
    assert all(F[n] is rt[n] for n in F)
    assert F["leer"](e, ruta="lista.txt") == "pan, leche, patatas"


def test_herramientas_como_las_define_el_protocolo(rt):
    H = rt["HERRAMIENTAS"]
    assert [h["name"] for h in H] == ["listar", "leer", "escribir", "buscar"]
    for h in H:
        assert set(h) == {"name", "description", "input_schema"}
        assert isinstance(h["description"], str) and len(h["description"]) > 20
        esquema = h["input_schema"]
        assert esquema["type"] == "object"
        assert esquema["additionalProperties"] is False
        assert esquema["required"] == list(esquema["properties"])
        assert all(p["type"] == "string" and p["description"]
                   for p in esquema["properties"].values())
        # Los argumentos del esquema son los de la función, en el mismo orden.
        parametros = list(inspect.signature(rt["FUNCIONES"][h["name"]]).parameters)
        assert parametros == ["entorno"] + esquema["required"]


# --------------------------------------------------------------- incumple

def test_incumple_acepta_llamadas_correctas(rt):
    ll = rt["llamada"]
    for bloque in (ll("t1", "listar", carpeta=""), ll("t2", "leer", ruta="x"),
                   ll("t3", "escribir", ruta="x", contenido=""), ll("t4", "buscar", patron="a")):
        assert rt["incumple"](bloque) is None


@pytest.mark.parametrize("bloque, motivo", [
    ({"type": "tool_use", "id": "t1", "name": "borrar", "input": {"ruta": "x"}},
     "no existe la herramienta 'borrar'; las hay: listar, leer, escribir, buscar"),
    ({"type": "tool_use", "id": "t1", "name": "leer", "input": {}},
     "a leer le falta el argumento 'ruta'"),
    ({"type": "tool_use", "id": "t1", "name": "escribir", "input": {}},
     "a escribir le faltan los argumentos 'ruta' y 'contenido'"),
    ({"type": "tool_use", "id": "t1", "name": "leer", "input": {"ruta": "x", "desde": 1}},
     "leer no tiene el argumento 'desde'"),
    ({"type": "tool_use", "id": "t1", "name": "leer", "input": {"rut": "x"}},
     "a leer le falta el argumento 'ruta'; leer no tiene el argumento 'rut'"),
    ({"type": "tool_use", "id": "t1", "name": "buscar", "input": {"patron": "a", "b": 1, "c": 2}},
     "buscar no tiene los argumentos 'b' y 'c'"),
    ({"type": "tool_use", "id": "t1", "name": "leer", "input": {"ruta": 3}},
     "el argumento 'ruta' de leer debe ser texto y es 3 (int)"),
    ({"type": "tool_use", "id": "t1", "name": "escribir",
      "input": {"ruta": "x", "contenido": ["pan"]}},
     "el argumento 'contenido' de escribir debe ser texto y es ['pan'] (list)"),
    ({"type": "tool_use", "id": "t1", "name": "leer", "input": "lista.txt"},
     "la entrada (input) de leer debe ser un objeto (dict) y es str"),
    ({"type": "tool_use", "id": "t1", "name": "leer"},
     "la entrada (input) de leer debe ser un objeto (dict) y es NoneType"),
    ({"type": "text", "text": "hola"},
     "no es una llamada: es un bloque de tipo 'text', no 'tool_use'"),
    ("leer(ruta='x')",
     "no es una llamada: se esperaba un bloque tool_use (dict) y es str"),
])
def test_incumple_explica_por_que(rt, bloque, motivo):
    assert rt["incumple"](bloque) == motivo


def test_incumple_con_otras_herramientas(rt):
    sumar = {"name": "sumar", "description": "Suma.", "input_schema": {
        "type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"], "additionalProperties": False}}
    ll = rt["llamada"]
    assert rt["incumple"](ll("t1", "sumar", a=1, b=2), [sumar]) is None
    assert rt["incumple"](ll("t1", "sumar", a=1, b="2"), [sumar]) == (
        "el argumento 'b' de sumar debe ser un número entero y es '2' (str)")
    assert rt["incumple"](ll("t1", "leer", ruta="x"), [sumar]).startswith(
        "no existe la herramienta 'leer'")


# -------------------------------------------------------- bloques y muestra

def test_constructores_de_bloques(rt):
    assert rt["texto"]("hola") == {"type": "text", "text": "hola"}
    assert rt["llamada"]("t1", "escribir", ruta="a", contenido="b") == {
        "type": "tool_use", "id": "t1", "name": "escribir",
        "input": {"ruta": "a", "contenido": "b"}}
    assert rt["resultado"]("t1", "ok") == {
        "type": "tool_result", "tool_use_id": "t1", "content": "ok", "is_error": False}
    assert rt["resultado"]("t1", "mal", es_error=True)["is_error"] is True


@pytest.mark.parametrize("hacer, linea", [
    (lambda rt: rt["texto"]("hola"), "texto: «hola»"),
    (lambda rt: rt["llamada"]("t1", "leer", ruta="lista.txt"), "llamada t1 leer(ruta='lista.txt')"),
    (lambda rt: rt["llamada"]("t5", "escribir", ruta="a.txt", contenido="x"),
     "llamada t5 escribir(ruta='a.txt', contenido='x')"),
    (lambda rt: rt["resultado"]("t1", "pan, leche, patatas"), "resultado t1: «pan, leche, patatas»"),
    (lambda rt: rt["resultado"]("t1", "no existe", True), "resultado t1 (error): «no existe»"),
    (lambda rt: rt["resultado"]("t1", "a\nb"), "resultado t1: «a⏎b»"),
    (lambda rt: ("usuario", "Añade a lista.txt lo que falta para las recetas."),
     "usuario: «Añade a lista.txt lo que falta para las recetas.»"),
    (lambda rt: ["usuario", "hola"], "usuario: «hola»"),
    (lambda rt: ("asistente", [rt["texto"]("Miro."), rt["llamada"]("t1", "listar", carpeta="recetas")]),
     "asistente: [texto: «Miro.», llamada t1 listar(carpeta='recetas')]"),
    (lambda rt: ("usuario", [rt["resultado"]("t1", "x"), rt["resultado"]("t2", "y", True)]),
     "usuario: [resultado t1: «x», resultado t2 (error): «y»]"),
    (lambda rt: [("usuario", "a"), ("asistente", [])], "[usuario: «a», asistente: []]"),
    (lambda rt: {"type": "tool_use", "id": "t1", "name": "leer", "input": "x"},
     "llamada t1 leer('x')"),
    (lambda rt: {"type": "imagen"}, "{'type': 'imagen'}"),
    (lambda rt: 42, "42"),
])
def test_muestra(rt, hacer, linea):
    assert rt["muestra"](hacer(rt)) == linea


def test_muestra_acorta_lo_largo_en_una_linea(rt):
    largo = "\n".join(f"línea {i}" for i in range(100))
    linea = rt["muestra"](rt["resultado"]("t1", largo))
    assert "\n" not in linea
    assert linea.startswith("resultado t1: «línea 0⏎línea 1⏎")
    assert linea.endswith("…»")
    assert len(linea) < 80
    llamada = rt["muestra"](rt["llamada"]("t1", "escribir", ruta="a", contenido="x" * 500))
    assert len(llamada) < 90 and "…" in llamada
