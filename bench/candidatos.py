"""Requests tried on the course's model to choose lesson 6's recordings (bench/grabar.py).

    .venv-nativo/bin/python -m bench.candidatos [GGUF] > bench/candidatos.jsonl

Each request runs once over the lessons' files, greedy, with native llama.cpp and the page's
grammar, through the course's reference agent (bench/evaluar.py's harness), the user
allowing writes or not as given. Prints one JSON line per request: the GGUF's SHA-256, how it
ended, the final text and each turn's output. ``bench/candidatos.jsonl`` keeps the run that chose
the recordings of 2026-12-06 (lesson 6 says what it shows; tests/lecciones/test_modelo_real.py
checks it). The default GGUF is the published model in ``_build/modelo/``; the grammar is
esquema.js's, computed in Node (evaluar.gramatica).
"""

from __future__ import annotations

import json
import sys

from bench import apartadas, evaluar
from widgets.construccion.fijados import sha256

#: (request, does the user allow writes): the lessons' kinds, said in several ways.
CANDIDATOS = [
    ("Apunta en lista.txt lo que falta para la tortilla.", False),
    ("Apunta en lista.txt lo que falta para la tortilla.", True),
    ("Añade arroz a lista.txt.", True),
    ("Añade arroz a lista.txt.", False),
    ("¿Qué lleva la tortilla?", True),
    ("¿Qué lleva el gazpacho?", True),
    ("¿Tengo leche en la lista?", False),
    ("¿Qué recetas tengo?", True),
    ("¿Qué hay en lista.txt?", True),
    ("Quita la leche de lista.txt.", True),
    ("Quita la leche de lista.txt.", False),
    ("¿Qué pone en notas.txt?", True),
    ("¿Qué menú hay?", True),
    ("Añade a la lista lo que falta para el gazpacho.", False),
    ("Hola, ¿qué puedes hacer?", True),
    ("¿Cuántas cosas hay en la lista?", True),
    ("Lee tortilla.txt.", True),
    ("¿Dónde sale la cebolla?", True),
    ("Apunta huevos en la lista.", True),
    ("¿Qué cenan los vecinos el sábado?", True),
    ("¿Qué recetas hay en la carpeta recetas?", True),
    ("¿Qué lleva la tortilla? Mira recetas/tortilla.txt.", True),
    ("Dime qué pone en lista.txt.", True),
    ("¿Tengo patatas en la lista?", True),
    ("Añade tomates a la lista.", True),
    ("Añade tomates a la lista.", False),
    ("Apunta en la lista lo que falta para el gazpacho.", False),
    ("Quita pan de lista.txt.", False),
    ("¿Cuántas recetas tengo?", True),
    ("¿Qué día cenan los vecinos?", True),
]


def main(argv=None) -> None:
    from llama_cpp import LlamaGrammar

    argv = sys.argv[1:] if argv is None else argv
    gguf = argv[0] if argv else "_build/modelo/SmolLM2-135M-Instruct-bucle.Q8_0.gguf"
    ns = evaluar.harness()
    gramatica = LlamaGrammar.from_string(evaluar.gramatica(), verbose=False)
    llm = evaluar.cargar(gguf, 2, False)
    sha = sha256(gguf)
    for pedido, permite in CANDIDATOS:
        tarea = apartadas.Apartada("candidato", apartadas.ENTORNO_LECCIONES, pedido,
                                   lambda antes, despues, final: True, permite)
        r = evaluar.correr(llm, gramatica, ns, tarea, {"temperatura": 0.0, "semilla": 0})
        print(json.dumps({"sha256": sha, "pedido": pedido, "permite": permite, "como": r["como"],
                          "turnos": r["turnos"], "final": r["final"], "salidas": r["salidas"]},
                         ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
