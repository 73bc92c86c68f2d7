"""The course's model on tasks, through the course's harness, with native llama.cpp (``make bench``).

Run with the Python of the bench's own venv, ``.venv-nativo`` (llama-cpp-python)::

    .venv-nativo/bin/python -m bench.evaluar ENTRADA.json

``ENTRADA.json``: ``{"ggufs": {name: path}, "gramatica": GBNF, "conjuntos": [name, …],
"modos": [{"nombre", "temperatura", "semilla"}, …], "max_tokens": 256, "tope": 10, "hilos": n,
"sin_extras": false}``. For each GGUF, each mode and each task of each set
(:mod:`bench.apartadas`), the course's reference agent (``challenges/pruebas-del-agente/
agente.py``) runs the task with a model that does what the page does on each turn: the request
the reader's adapter sends (``ModeloAPI.peticion`` of ``challenges/modelo-api/solucion.py``),
rendered as the in-page server renders it (runtime's ``mensajes_para_el_modelo``), the model's
chat template applied by llama.cpp, its answer held to the page's grammar (esquema.js's, given
by the caller) and read back as lectura.js reads it. Prints one JSON line: ``{"registros": a
record per run (the set, the task, solved or not, how it ended and why), "fijas": {gguf's name:
its greedy answers to the training manifest's fixed prompts}}``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from bench import apartadas
from bench.nativo import cargar
from entrenamiento.datos import chat, indicaciones_fijas, pagina
from entrenamiento.salida import interpretar

RAIZ = Path(__file__).resolve().parents[1]



def gramatica() -> str:
    """The page's grammar for the course's tools (esquema.js, run in Node)."""
    from runtime import espacio

    herramientas = espacio("entorno")["HERRAMIENTAS"]
    codigo = ("import { esquemaDeSalida, gramaticaDeSalida } from './widgets/front/modelo/esquema.js';"
              "const tools = JSON.parse(process.argv[1]);"
              "process.stdout.write(gramaticaDeSalida(esquemaDeSalida(tools)));")
    p = subprocess.run(["node", "--input-type=module", "-e", codigo, json.dumps(herramientas)],
                       cwd=RAIZ, capture_output=True, text=True, check=True)
    return p.stdout


def harness() -> dict:
    """The runtime's names, with the reference agent and the reference adapter run in them (as
    the training script loads them: entrenamiento/datos.py)."""
    return pagina()


def leer_salida(texto: str, clave: str = "respuesta"):
    """lectura.js's ``interpretar``: one JSON object with one key, a text answer or a call; or
    None."""
    return interpretar(texto, clave)


class Cortada(Exception):
    """The model's answer was cut at max_tokens, or was not JSON of either shape."""


class ModeloNativo:
    """The page's model, turn by turn, in native llama.cpp: modelo(M, herramientas) -> blocks."""

    def __init__(self, llm, gramatica, ns, temperatura=0.0, semilla=0, max_tokens=256):
        self.llm, self.ns = llm, ns
        self.gramatica, self.temperatura, self.semilla = gramatica, temperatura, semilla
        self.max_tokens = max_tokens
        self.adaptador = ns["ModeloAPI"](max_tokens=max_tokens)
        self.ids = 0
        self.turnos = []

    def __call__(self, M, herramientas):
        peticion = self.adaptador.peticion(M, herramientas)
        mensajes = self.ns["mensajes_para_el_modelo"](peticion)
        antes = time.perf_counter()
        r = self.llm.create_chat_completion(messages=mensajes, grammar=self.gramatica,
                                            temperature=self.temperatura, seed=self.semilla,
                                            max_tokens=self.max_tokens)
        texto = r["choices"][0]["message"]["content"]
        self.turnos.append({"texto": texto, "segundos": round(time.perf_counter() - antes, 2)})
        bloque = leer_salida(texto)
        if bloque is None or r["choices"][0]["finish_reason"] == "length":
            raise Cortada(texto)
        if bloque["type"] == "tool_use":
            self.ids += 1
            bloque = {"type": "tool_use", "id": f"toolu_{self.ids:02d}", "name": bloque["name"],
                      "input": bloque["input"]}
        return [bloque] if bloque["type"] == "tool_use" or bloque["text"] else []


def motivo(como, M, ns) -> str:
    """Why a run that was not solved ended as it did, the first cause that shows: the cap, a
    tool that does not exist, arguments that do not fit, no call at all, an error it did not get
    past (a wrong path), or else a wrong answer or a wrong final environment."""
    if como == "tope":
        return "tope"
    llamadas = [b for rol, c in M if rol == "asistente" and isinstance(c, list)
                for b in c if b.get("type") == "tool_use"]
    errores = [b for rol, c in M if rol == "usuario" and isinstance(c, list)
               for b in c if b.get("type") == "tool_result" and b.get("is_error")]
    if any(b["name"] not in ns["FUNCIONES"] for b in llamadas):
        return "herramienta-inexistente"
    if any(ns["incumple"](b) for b in llamadas):
        return "argumentos"
    if not llamadas:
        return "sin-llamadas"
    if any(e["content"] != ns["NO_PERMITIDO"] for e in errores):
        return "errores"
    return "respuesta-equivocada"


def correr(llm, gramatica, ns, tarea, modo, max_tokens=256, tope=10) -> dict:
    modelo = ModeloNativo(llm, gramatica, ns, modo["temperatura"], modo["semilla"], max_tokens)
    entorno = dict(tarea.entorno)
    preguntar = (lambda ll: True) if tarea.permite else ns["denegar"]
    try:
        como, final, M = ns["agente"](modelo, tarea.pedido, entorno, preguntar=preguntar, tope=tope)
    except Cortada as error:
        return {"resuelta": False, "como": "cortada", "motivo": "cortada", "final": str(error)[:200],
                "turnos": len(modelo.turnos), "salidas": [t["texto"] for t in modelo.turnos]}
    resuelta = como == "fin" and tarea.comprobar(tarea.entorno, entorno, final or "")
    return {"resuelta": resuelta, "como": como, "motivo": None if resuelta else motivo(como, M, ns),
            "final": (final or "")[:200], "turnos": len(modelo.turnos),
            "segundos": round(sum(t["segundos"] for t in modelo.turnos), 2),
            "salidas": [t["texto"] for t in modelo.turnos]}


def respuestas_fijas(llm, ns) -> list[dict]:
    """The model's greedy answers, without the grammar, to the training manifest's fixed prompts
    (entrenamiento/datos.py's ``indicaciones_fijas``), as the training script asks the
    trained model for them: to compare the merged file with the model it was merged from."""
    salida = []
    for que, M in indicaciones_fijas(ns):
        r = llm.create_chat_completion(messages=chat(ns, M), temperature=0, max_tokens=128)
        eleccion = r["choices"][0]
        salida.append({"indicacion": que, "respuesta": eleccion["message"]["content"],
                       "cortada": eleccion["finish_reason"] == "length"})
    return salida


def main(argv=None) -> None:
    entrada = json.loads(Path((argv or sys.argv[1:])[0]).read_text(encoding="utf-8"))
    from llama_cpp import LlamaGrammar

    ns = harness()
    gramatica = LlamaGrammar.from_string(entrada["gramatica"], verbose=False)
    registros = []
    fijas = {}
    for nombre, gguf in entrada["ggufs"].items():
        llm = cargar(gguf, entrada.get("hilos", 2), entrada.get("sin_extras", False))
        fijas[nombre] = respuestas_fijas(llm, ns)
        for modo in entrada["modos"]:
            for conjunto in entrada["conjuntos"]:
                for i, tarea in enumerate(apartadas.CONJUNTOS[conjunto]):
                    r = correr(llm, gramatica, ns, tarea, modo, entrada.get("max_tokens", 256),
                               entrada.get("tope", 10))
                    registros.append({"modelo": nombre, "modo": modo["nombre"], "conjunto": conjunto,
                                      "indice": i, "tipo": tarea.tipo, "pedido": tarea.pedido, **r})
                    print(f"{nombre} {modo['nombre']} {conjunto} {i}: "
                          f"{'sí' if r['resuelta'] else 'no'} ({r['como']}, {r['turnos']} turnos)",
                          file=sys.stderr, flush=True)
        del llm
    print(json.dumps({"registros": registros, "fijas": fijas}, ensure_ascii=False))


if __name__ == "__main__":
    main()
