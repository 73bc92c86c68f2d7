"""Native llama.cpp on this machine: the floor of the in-page model's figures (``make bench``).

Run by :mod:`bench.modelo` with the Python of the bench's own venv, ``.venv-nativo`` (made
by ``make bench``: llama-cpp-python built from PyPI there, never in ``make test``)::

    .venv-nativo/bin/python -m bench.nativo ENTRADA.json

``ENTRADA.json``: ``{"gguf": path, "hilos": [2, 1], "preparar": mensajes | null,
"generaciones": [{mensajes, gramatica, max_tokens}, …], "sin_extras": false}``: the start the
page had the model read after its load (``motor.preparar``), and the generations the page's
engine made (``motor.historial``: the prompt the in-page server built and its grammar), in order.
For each number of threads, one model is loaded, reads the start (one token generated, as in the
page), and the generations run in order on it at temperature 0, as in the page, so that each
reuses the prompt's common prefix (llama-cpp-python keeps it, as ``cache_prompt`` does in the
page). Prints one JSON line: for each number of threads, the load's seconds and, for each
generation, its seconds, the prompt's tokens processed anew and their milliseconds, and the
generated tokens and their milliseconds, from llama.cpp's own counters.

``sin_extras`` turns llama.cpp's extra buffer types off (``use_extra_bufts``: the repacked
weights and the AMX kernels): on a virtual machine whose CPU reports AMX but does not run it,
the AMX kernels die with SIGILL (:mod:`bench.modelo` then runs this again with it).
"""

from __future__ import annotations

import json
import sys
import time


def cargar(gguf: str, hilos: int, sin_extras: bool = False):
    """The model of ``gguf`` on ``hilos`` threads, on the CPU, with llama.cpp's extra buffer
    types off if ``sin_extras`` (see the module's docstring). bench/evaluar.py loads it so too."""
    from llama_cpp import Llama

    if sin_extras:
        # Llama() takes its model parameters from the bindings' defaults and sets only what it
        # is given: the defaults without the extra buffer types.
        import llama_cpp.llama_cpp as enlaces

        por_defecto = enlaces.llama_model_default_params

        def sin_tipos_extra():
            parametros = por_defecto()
            parametros.use_extra_bufts = False
            return parametros

        enlaces.llama_model_default_params = sin_tipos_extra
    return Llama(model_path=gguf, n_ctx=2048, n_threads=hilos, n_threads_batch=hilos,
                 n_gpu_layers=0, seed=0, verbose=False)


def medir(gguf: str, hilos: int, generaciones: list[dict], preparar: list | None = None,
          sin_extras: bool = False) -> dict:
    import llama_cpp
    from llama_cpp import LlamaGrammar

    inicio = time.perf_counter()
    llm = cargar(gguf, hilos, sin_extras)
    carga = time.perf_counter() - inicio
    hechas = []
    previas = [{"mensajes": preparar, "gramatica": None, "max_tokens": 1}] if preparar else []
    for g in previas + generaciones:
        gramatica = LlamaGrammar.from_string(g["gramatica"], verbose=False) if g.get("gramatica") else None
        llama_cpp.llama_perf_context_reset(llm.ctx)
        antes = time.perf_counter()
        r = llm.create_chat_completion(messages=g["mensajes"], grammar=gramatica, temperature=0,
                                       max_tokens=g.get("max_tokens") or 256)
        segundos = time.perf_counter() - antes
        perf = llama_cpp.llama_perf_context(llm.ctx)
        hechas.append({
            "segundos": segundos,
            "prompt_n": perf.n_p_eval, "prompt_ms": perf.t_p_eval_ms,
            "predicted_n": perf.n_eval, "predicted_ms": perf.t_eval_ms,
            "texto": r["choices"][0]["message"]["content"],
        })
    return {"hilos": hilos, "carga": carga, "preparacion": hechas[0] if preparar else None,
            "generaciones": hechas[len(previas):], "version": getattr(llama_cpp, "__version__", "?")}


def main(argv=None) -> None:
    with open((argv or sys.argv[1:])[0], encoding="utf-8") as f:
        entrada = json.load(f)
    print(json.dumps([medir(entrada["gguf"], n, entrada["generaciones"], entrada.get("preparar"),
                            entrada.get("sin_extras", False))
                      for n in entrada["hilos"]], ensure_ascii=False))


if __name__ == "__main__":
    main()
