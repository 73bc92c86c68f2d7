"""Harness changes tried on the course's model, outside the browser: ``make bench``'s
``.venv-nativo`` runs ``python -m bench.variantes_nativas``.

Lesson 7 («Medir el agente») measures its harness changes on the in-page model by a recording
(``bench/grabar_banco.py``). Before that, more changes were tried here, faster, with native
llama.cpp on the same merged GGUF, the page's prompt format and grammar, greedy (what
``bench/evaluar.py``'s ``ModeloNativo`` does each turn), on 60 tasks of the generator drawn
with the bench's seed (``tareas(60, SEMILLA_DEL_BANCO)``): the lesson's variants, read from its
cells, and four others a harness could try — the tools listed in another order, a write's
observation that shows the file's new content, two more sentences in the system prompt, and a
write refused when it would drop items the request does not name. Writes
``bench/variantes-nativas.json``: the model's SHA-256, the tasks' seed and count, and per
variant how each task ended.

    .venv-nativo/bin/python -m bench.variantes_nativas [--tareas 60] [--salida …]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import time
from pathlib import Path

from bench.evaluar import Cortada, ModeloNativo, cargar, gramatica, harness
from widgets.construccion.fijados import sha256
from tests.lecciones.comun import celdas_de

ROOT = Path(__file__).resolve().parents[1]
GGUF = ROOT / "_build" / "modelo" / "SmolLM2-135M-Instruct-bucle.Q8_0.gguf"
SALIDA = ROOT / "bench" / "variantes-nativas.json"

#: What the extra variants change, in the lesson's words.
OTRAS = {
    "herramientas_en_otro_orden": "las herramientas en otro orden: leer, buscar, listar, escribir",
    "escribir_ensena_el_fichero": "la observación de una escritura enseña cómo queda el fichero",
    "sistema_con_dos_frases_mas": "dos frases más en el mensaje de sistema",
    "escritura_que_no_pierde": "se rechaza una escritura que perdería algo que el pedido no nombra",
}
MAS_SISTEMA = ("\nAntes de contestar, lee lo que haga falta. Al escribir una lista, escríbela "
               "entera.")


def leccion() -> dict:
    """The page's namespace (runtime, reference adapter and agent) with the lesson's cells run in
    it: ``agente``, ``agente_con``, ``agente_escueto``, ``agente_sin_repetir_v2``…"""
    ns = harness()
    for celda in celdas_de("medir"):
        with contextlib.redirect_stdout(io.StringIO()):
            exec(celda, ns)
    return ns


def elementos(texto):
    return [x.strip() for x in re.split(r"[,\n]", texto or "") if x.strip()]


def otra_variante(ns, nombre):
    """An agent like the lesson's ``agente`` with one of OTRAS changed."""
    herramientas = ns["HERRAMIENTAS"]
    if nombre == "herramientas_en_otro_orden":
        por_nombre = {h["name"]: h for h in herramientas}
        herramientas = [por_nombre[n] for n in ("leer", "buscar", "listar", "escribir")]
    sistema = ns["SISTEMA_AGENTE"] + (MAS_SISTEMA if nombre == "sistema_con_dos_frases_mas" else "")

    def ejecutar(ll, entorno, preguntar, pedido):
        escritura = ll["name"] == "escribir" and ns["incumple"](ll) is None
        if nombre == "escritura_que_no_pierde" and escritura and ll["input"]["ruta"] in entorno:
            queda = [x.lower() for x in elementos(ll["input"]["contenido"])]
            perdidos = [x for x in elementos(entorno[ll["input"]["ruta"]])
                        if x.lower() not in queda and x.lower() not in pedido.lower()]
            if perdidos:
                return ns["resultado"](ll["id"], f"no se ha escrito: {ll['input']['ruta']} perdería "
                                       f"{', '.join(perdidos)}, y el pedido no dice que lo quites",
                                       es_error=True)
        observacion = ns["ejecutar"](ll, entorno, preguntar)
        if nombre == "escribir_ensena_el_fichero" and escritura and not observacion["is_error"]:
            ruta = ll["input"]["ruta"]
            observacion = ns["resultado"](ll["id"], f"{ruta} queda así: {entorno[ruta]}")
        return observacion

    def agente(modelo, pedido, entorno, preguntar, tope=10):
        M = [("sistema", sistema), ("usuario", pedido)]
        for _ in range(tope):
            respuesta = modelo(M, herramientas)
            M.append(("asistente", respuesta))
            llamadas = [b for b in respuesta if b["type"] == "tool_use"]
            if not llamadas:
                return "fin", " ".join(b["text"] for b in respuesta if b["type"] == "text"), M
            M.append(("usuario", [ejecutar(ll, entorno, preguntar, pedido) for ll in llamadas]))
        return "tope", None, M
    return agente


def main(argv=None) -> None:
    partes = argparse.ArgumentParser(prog="python -m bench.variantes_nativas",
                                     description=__doc__.split("\n")[0])
    partes.add_argument("--tareas", type=int, default=60)
    partes.add_argument("--salida", type=Path, default=SALIDA)
    args = partes.parse_args(argv)
    from llama_cpp import LlamaGrammar

    ns = leccion()
    g = LlamaGrammar.from_string(gramatica(), verbose=False)
    llm = cargar(str(GGUF), 2, False)
    tareas = ns["tareas"](args.tareas, semilla=ns["SEMILLA_DEL_BANCO"])
    variantes = {n: ns[n] for n in ("agente", "agente_escueto", "agente_sin_repetir_v2")}
    variantes.update({n: otra_variante(ns, n) for n in OTRAS})
    resultado = {"modelo": {"nombre": GGUF.name,
                            "sha256": sha256(GGUF)},
                 "tareas": {"semilla": ns["SEMILLA_DEL_BANCO"], "cuantas": args.tareas},
                 "otras": OTRAS, "variantes": {}}
    for nombre, agente in variantes.items():
        inicio, motivos = time.monotonic(), []
        for tarea in tareas:
            entorno = dict(tarea.entorno)
            try:
                como, final, _ = agente(ModeloNativo(llm, g, ns), tarea.pedido, entorno,
                                        ns["usuario"](tarea))
                motivos.append("tope" if como == "tope" else
                               "resuelta" if tarea.comprobar(entorno, final) else "equivocada")
            except Cortada:
                motivos.append("error")
        resultado["variantes"][nombre] = motivos
        print(f"{nombre}: {motivos.count('resuelta')} of {len(motivos)} "
              f"({time.monotonic() - inicio:.0f} s)", flush=True)
    args.salida.write_text(json.dumps(resultado, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
