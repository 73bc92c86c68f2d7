"""What the tests of runtime/ share: loading its files as a reader's page loads them (their text
run with exec in a fresh namespace, a «page»), and the conversation of the lesson «El bucle»
with the scripted model."""

import json
import subprocess
from pathlib import Path

import pytest

from tests.pyodide_en_node import cargar_pyodide

RAIZ = Path(__file__).resolve().parent.parent.parent

LISTA_FINAL = "pan, leche, patatas, tomates, pepino, pimiento, ajo, huevos, cebolla"


def cargar(*nombres, ns=None):
    """Ejecuta runtime/<nombre>.py, en orden, en un mismo espacio de nombres."""
    ns = {} if ns is None else ns
    for nombre in nombres:
        fuente = (RAIZ / "runtime" / f"{nombre}.py").read_text(encoding="utf-8")
        exec(compile(fuente, f"runtime/{nombre}.py", "exec"), ns)
    return ns


#: Node runs PYTHON in Pyodide, with FUENTES (a JSON file: {"modulos": [names], "runtime": {name:
#: text}, "agente": text}) loaded as a page loads them: the runtime files run in order in one
#: namespace ``ns``, then importable as ``runtime``; ``agente`` the reference agent's namespace.
#: Prints what the code's last expression gives.
_NODE_PYODIDE = """
%(cargar)s
import { readFileSync } from "node:fs";
py.globals.set("FUENTES", readFileSync(process.argv[2], "utf8"));
py.runPython(`
import json, sys, types
fuentes = json.loads(FUENTES)
ns = {"__name__": "__main__"}
for nombre in fuentes["modulos"]:
    exec(compile(fuentes["runtime"][nombre], f"runtime/{nombre}.py", "exec"), ns)
runtime = types.ModuleType("runtime")
vars(runtime).update(ns)
sys.modules["runtime"] = runtime
agente = {}
exec(fuentes["agente"], agente)
`);
console.log(py.runPython(readFileSync(process.argv[3], "utf8")));
"""


def en_pyodide(tmp_path: Path, modulos, codigo: str):
    """What ``codigo``'s last expression gives (a JSON text), run in Pyodide under Node after the
    runtime files ``modulos`` and the reference agent (see _NODE_PYODIDE), read as JSON."""
    def leer(ruta):
        return (RAIZ / ruta).read_text(encoding="utf-8")

    fuentes = {"modulos": list(modulos), "runtime": {m: leer(f"runtime/{m}.py") for m in modulos},
               "agente": leer("challenges/pruebas-del-agente/agente.py")}
    (tmp_path / "fuentes.json").write_text(json.dumps(fuentes))
    (tmp_path / "codigo.py").write_text(codigo, encoding="utf-8")
    (tmp_path / "pyodide.mjs").write_text(_NODE_PYODIDE % {"cargar": cargar_pyodide()})
    p = subprocess.run(["node", tmp_path / "pyodide.mjs", tmp_path / "fuentes.json", tmp_path / "codigo.py"],
                       capture_output=True, text=True, timeout=180, check=False)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


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
