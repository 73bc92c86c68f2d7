"""What the tests of runtime/ share: loading its files as a reader's page loads them (their text
run with exec in a fresh namespace, a «page»), and the conversation of the lesson «El bucle»
with the scripted model."""

from pathlib import Path

import pytest

RAIZ = Path(__file__).resolve().parent.parent.parent

LISTA_FINAL = "pan, leche, patatas, tomates, pepino, pimiento, ajo, huevos, cebolla"


def cargar(*nombres, ns=None):
    """Ejecuta runtime/<nombre>.py, en orden, en un mismo espacio de nombres."""
    ns = {} if ns is None else ns
    for nombre in nombres:
        fuente = (RAIZ / "runtime" / f"{nombre}.py").read_text(encoding="utf-8")
        exec(compile(fuente, f"runtime/{nombre}.py", "exec"), ns)
    return ns


def publicos(ns):
    return {n for n in ns if not n.startswith("_")}


INICIO = [
    ("sistema", "Eres un asistente que cuida la lista de la compra. Usa las herramientas."),
    ("usuario", "Añade a lista.txt lo que falta para las recetas."),
]


def respuestas_de_la_leccion(rt):
    texto, llamada = rt["texto"], rt["llamada"]
    return [
        [texto("Miro qué recetas hay."), llamada("t1", "listar", carpeta="recetas")],
        [llamada("t2", "leer", ruta="recetas/gazpacho.txt"),
         llamada("t3", "leer", ruta="recetas/tortilla.txt"),
         llamada("t4", "leer", ruta="lista.txt")],
        [llamada("t5", "escribir", ruta="lista.txt", contenido=LISTA_FINAL)],
        [texto("He añadido tomates, pepino, pimiento, ajo, huevos y cebolla.")],
    ]


def observaciones_de_la_leccion(rt):
    """Escritas a mano: así también comprueban lo que devuelven las herramientas."""
    r = rt["resultado"]
    return [
        [r("t1", "gazpacho.txt\ntortilla.txt")],
        [r("t2", "Gazpacho: tomates, pepino, pimiento, ajo."),
         r("t3", "Tortilla: huevos, patatas, cebolla."),
         r("t4", "pan, leche, patatas")],
        [r("t5", "escrito lista.txt (68 caracteres)")],
        [],
    ]


def guion_de_la_leccion(rt):
    return rt["guion_de"](INICIO, respuestas_de_la_leccion(rt), observaciones_de_la_leccion(rt))


def bucle(rt, modelo, M, entorno, tope=10):
    """Un bucle correcto, como el que escribe el lector."""
    for _ in range(tope):
        respuesta = modelo(M, rt["HERRAMIENTAS"])
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            return M
        M.append(("usuario", [
            rt["resultado"](b["id"], rt["FUNCIONES"][b["name"]](entorno, **b["input"]))
            for b in llamadas]))
    raise AssertionError("el bucle no paró")


def modelo_en_turno(rt, guion, n):
    """Un modelo al que ya se le pidieron bien sus n primeras respuestas."""
    modelo = rt["ModeloGuionizado"](guion)
    for k in range(n):
        modelo(guion[k][0], rt["HERRAMIENTAS"])
    return modelo


def rompe(rt, M, n=2):
    """Llama en el turno n+1 con M y devuelve el GuionRoto que lanza."""
    modelo = modelo_en_turno(rt, guion_de_la_leccion(rt), n)
    with pytest.raises(rt["GuionRoto"]) as info:
        modelo(M, rt["HERRAMIENTAS"])
    assert modelo.turno == n, "un fallo no debe hacer avanzar el turno"
    return info.value
