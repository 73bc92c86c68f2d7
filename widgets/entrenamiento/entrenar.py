"""``make adaptador``: tune the in-page model with LoRA on the course's own runs (issue #42).

    .venv-entrenar/bin/python -m widgets.entrenamiento.entrenar [--ejecuciones N] [--epocas E] …

1. The base: the pinned Q4_1 GGUF (refused unless its SHA-256 is the pinned one), dequantized to
   float32 by transformers; the orientation of its weights checked against gguf-py (modelo.py).
2. The data: ``--ejecuciones`` runs of the generator (seed ``--semilla``; ``--nombres-variados``
   of them with file and folder names drawn from a large pool, so that a path is right only when
   it is copied; ``--amplio`` of them broader: requests that start by telling something else,
   more lists than the shopping one, notes whose other lines share the day or the person, answers
   said in several ways), each one sequence, the page's prompt with the loss on the model's own tokens
   only (datos.py).
3. LoRA (peft) of rank ``--rango`` on the seven linear layers of all 30 blocks, AdamW, on the CPU
   with 2 threads, seeded. A step is ``--acumular`` runs: their common start (the system prompt,
   the same for every run) is computed once and each run goes on from its keys and values, which
   is the same forward and backward as each run whole (checked at the start, on one run).
4. The adapter, ``widgets/datos/smollm2-135m-adaptador.npz`` (float16, in Hugging Face's row
   order: see modelo.py), checked to merge as peft merges it, and its manifest ``….json``: the
   base file and its hash, the data, the hyperparameters, the versions, the time and tokens/s,
   the loss curve, and the tuned model's greedy answers (base's beside them), the lesson's
   request run whole, and tasks of a seed never trained on (``--fuera`` of them).

``--prueba`` is a small run (a few runs, a few steps, short evaluations) that writes into
``_build/entrenamiento/`` instead of ``widgets/datos/``; ``--medir PASOS`` only times that many
steps; ``--sin-base`` skips the base model's evaluation.

Repeatable: the data, the LoRA's initialisation and the order of the runs are seeded, there is no
dropout, and torch runs on 2 threads. Two runs of ``--prueba --sin-base --pasos 4`` wrote the same
.npz, byte for byte, and the same greedy answers. The defaults are the committed run's (its
manifest says them; tests/test_adaptador.py checks they agree), and the full run remakes it: run
again with ``--salida _build/repro`` (2026-12-07, 50.9 minutes of training), it wrote the same .npz
byte for byte, the same loss curve and the same answers and held-out figures (BENCHMARKS.md).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import sys
import time
from pathlib import Path

import numpy as np
import torch

from . import datos, evaluacion, modelo

RAIZ = Path(__file__).resolve().parents[2]
NOMBRE = "smollm2-135m-adaptador"
LIMITE_BYTES = 10_000_000


def argumentos(argv=None):
    p = argparse.ArgumentParser(prog="python -m widgets.entrenamiento.entrenar",
                                description="Entrena el adaptador LoRA del modelo de la página.")
    p.add_argument("--ejecuciones", type=int, default=1000, help="ejecuciones del generador")
    p.add_argument("--semilla", type=int, default=1, help="semilla de los datos y de torch")
    p.add_argument("--nombres-variados", type=float, default=0.0,
                   help="proporción de tareas con ficheros de nombres al azar (compra.txt, citas.txt…)")
    p.add_argument("--amplio", type=float, default=0.0,
                   help="proporción de tareas con más variedad (pedidos con algo contado antes, "
                        "otras listas, respuestas dichas de varias maneras)")
    p.add_argument("--epocas", type=float, default=1.6, help="pasadas por los datos")
    p.add_argument("--rango", type=int, default=16)
    p.add_argument("--alfa", type=float, default=32.0)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--acumular", type=int, default=8, help="ejecuciones por paso")
    p.add_argument("--cada", type=int, default=5, help="pasos por punto de la curva")
    p.add_argument("--tope-minutos", type=float, default=58.0,
                   help="el entrenamiento para aquí aunque falten pasos (y lo dice)")
    p.add_argument("--fuera", type=int, default=40, help="tareas fuera de muestra (0: ninguna)")
    p.add_argument("--fuera-base", type=int, default=5, help="de ellas, cuántas con el modelo base")
    p.add_argument("--semilla-fuera", type=int, default=999)
    p.add_argument("--sin-base", action="store_true", help="no evalúa el modelo base")
    p.add_argument("--pasos", type=int, default=None, help="solo estos pasos")
    p.add_argument("--medir", type=int, default=None, metavar="PASOS",
                   help="solo mide: entrena estos pasos, dice los tokens/s y no escribe nada")
    p.add_argument("--prueba", action="store_true",
                   help="una prueba pequeña que escribe en _build/entrenamiento/")
    p.add_argument("--salida", type=Path, default=None)
    a = p.parse_args(argv)
    if a.prueba:
        a.ejecuciones, a.epocas, a.fuera, a.fuera_base = min(a.ejecuciones, 16), 1.0, min(a.fuera, 3), min(a.fuera_base, 1)
    a.salida = a.salida or (RAIZ / ("_build/entrenamiento" if a.prueba else "widgets/datos"))
    return a


def sembrar(semilla: int) -> None:
    random.seed(semilla)
    np.random.seed(semilla)
    torch.manual_seed(semilla)


def perdida_de(peft_modelo, ejemplo: datos.Ejemplo, kv=None, desde: int = 0):
    """(sum of the cross-entropy over ``ejemplo``'s targets, their count), the forward from token
    ``desde`` on, after ``kv`` (each layer's (keys, values) of tokens ``[:desde]``)."""
    from transformers import DynamicCache

    llama = peft_modelo.base_model.model
    entrada = torch.tensor([ejemplo.ids[desde:]])
    cache = None
    if kv is not None:
        cache = DynamicCache(config=llama.config)
        for i, (claves, valores) in enumerate(kv):
            cache.update(claves, valores, i)
    h = llama.model(input_ids=entrada, cache=cache, use_cache=kv is not None).last_hidden_state[0]
    etiquetas = torch.tensor(ejemplo.etiquetas[desde + 1:] + [datos.IGNORAR])
    donde = etiquetas != datos.IGNORAR
    logits = llama.lm_head(h[donde])
    return torch.nn.functional.cross_entropy(logits, etiquetas[donde], reduction="sum"), int(donde.sum())


def prefijo(peft_modelo, ejemplo: datos.Ejemplo, k: int) -> list[tuple]:
    """Each layer's (keys, values) of ``ejemplo``'s first ``k`` tokens (with their graph)."""
    llama = peft_modelo.base_model.model
    cache = llama.model(input_ids=torch.tensor([ejemplo.ids[:k]]), use_cache=True).cache
    return [(capa.keys, capa.values) for capa in cache.layers]


def comprobar_prefijo(peft_modelo, ejemplo: datos.Ejemplo, k: int) -> float:
    """The loss of one run whole and from its common start's cache: the same (returns the
    difference)."""
    with torch.no_grad():
        entero, n = perdida_de(peft_modelo, ejemplo)
        partido, m = perdida_de(peft_modelo, ejemplo, prefijo(peft_modelo, ejemplo, k), k)
    dif = abs(float(entero) - float(partido)) / n
    if n != m or dif > 1e-4:
        raise AssertionError(f"el prefijo común cambia la pérdida: {float(entero) / n} y {float(partido) / m}")
    return dif


def tasa(paso: int, total: int, lr: float) -> float:
    """Linear warm-up over the first 5 % of the steps, then cosine down to 10 % of ``lr``."""
    calentar = max(1, round(0.05 * total))
    if paso < calentar:
        return lr * (paso + 1) / calentar
    t = (paso - calentar) / max(1, total - calentar)
    return lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * t)))


def entrenar(peft_modelo, ejemplos: list[datos.Ejemplo], a) -> dict:
    """The training loop; prints the loss as it goes and returns its figures."""
    k = datos.prefijo_comun(ejemplos)
    entrenables = [p for p in peft_modelo.parameters() if p.requires_grad]
    optimizador = torch.optim.AdamW(entrenables, lr=a.lr, weight_decay=0.0)
    por_epoca = math.ceil(len(ejemplos) / a.acumular)
    total = a.pasos or max(1, round(a.epocas * por_epoca))
    orden: list[datos.Ejemplo] = []
    azar = random.Random(a.semilla)
    curva, ventana = [], []
    tokens = calculados = objetivos = 0
    inicio = time.perf_counter()
    parado = None
    print(f"Entrenando: {len(ejemplos)} ejecuciones, {total} pasos de {a.acumular}, prefijo común "
          f"de {k} tokens.", flush=True)
    carga_antes = os.getloadavg()
    for paso in range(total):
        grupo = []
        while len(grupo) < a.acumular:
            if not orden:
                orden = list(ejemplos)
                azar.shuffle(orden)
            grupo.append(orden.pop())
        for g in optimizador.param_groups:
            g["lr"] = tasa(paso, total, a.lr)
        n_grupo = sum(e.objetivos for e in grupo)
        # The common start once: each run goes on from leaves that stand for its keys and values
        # (its backward stops there, gathering their gradients), then one backward through it.
        kv = prefijo(peft_modelo, grupo[0], k)
        hojas = [tuple(t.detach().requires_grad_() for t in par) for par in kv]
        suma = 0.0
        for e in grupo:
            perdida, _ = perdida_de(peft_modelo, e, hojas, k)
            (perdida / n_grupo).backward()
            suma += float(perdida.detach())
        torch.autograd.backward([t for par in kv for t in par], [h.grad for par in hojas for h in par])
        torch.nn.utils.clip_grad_norm_(entrenables, 1.0)
        optimizador.step()
        optimizador.zero_grad(set_to_none=True)
        tokens += sum(len(e.ids) for e in grupo)
        calculados += k + sum(len(e.ids) - k for e in grupo)
        objetivos += n_grupo
        ventana.append(suma / n_grupo)
        segundos = time.perf_counter() - inicio
        print(f"paso {paso + 1}/{total}  pérdida {suma / n_grupo:.4f}  lr {tasa(paso, total, a.lr):.2e}  "
              f"{tokens / segundos:.0f} tokens/s ({calculados / segundos:.0f} calculados)  "
              f"{segundos / 60:.1f} min", flush=True)
        if (paso + 1) % a.cada == 0 or paso + 1 == total:
            curva.append({"paso": paso + 1, "perdida": round(sum(ventana) / len(ventana), 4)})
            ventana = []
        if segundos > a.tope_minutos * 60 and paso + 1 < total:
            parado = f"parado en el paso {paso + 1} de {total}: se pasó de {a.tope_minutos} minutos"
            print(parado, flush=True)
            curva.append({"paso": paso + 1, "perdida": round(sum(ventana) / len(ventana), 4)} if ventana else curva[-1])
            break
    segundos = time.perf_counter() - inicio
    return {"pasos": paso + 1, "pasos_previstos": total, "pasos_por_epoca": por_epoca,
            "prefijo_comun_tokens": k, "segundos": round(segundos, 1),
            "tokens": tokens, "tokens_por_segundo": round(tokens / segundos, 1),
            "tokens_calculados_por_segundo": round(calculados / segundos, 1),
            "tokens_objetivo": objetivos, "perdida_final": curva[-1]["perdida"], "curva": curva,
            "parado": parado,
            "carga_de_la_maquina": {"antes": [round(x, 2) for x in carga_antes],
                                    "despues": [round(x, 2) for x in os.getloadavg()]}}


def evaluar(ns, modelo_plano, tok, a, fuera: int) -> dict:
    """The fixed prompts, the lesson's run and ``fuera`` held-out tasks, greedy."""
    generar = evaluacion.Generador(modelo_plano, tok)
    salida = {"respuestas_fijas": evaluacion.respuestas_fijas(ns, generar)}
    for r in salida["respuestas_fijas"]:
        print(f"  {r['indicacion']}: {r['respuesta']!r}", flush=True)
    salida["leccion"] = evaluacion.ejecucion_de_la_leccion(ns, generar)
    print(f"  la lección entera: {salida['leccion']['como']}, {salida['leccion']['final']!r}", flush=True)
    if fuera:
        salida["fuera_de_muestra"] = evaluacion.fuera_de_muestra(ns, generar, fuera, a.semilla_fuera,
                                                                 nombres_variados=a.nombres_variados)
    salida["generacion"] = {"tokens": generar.tokens, "segundos": round(generar.segundos, 1)}
    return salida


def principal(argv=None) -> int:
    a = argumentos(argv)
    torch.set_num_threads(2)
    sembrar(a.semilla)
    comienzo = time.perf_counter()
    try:
        ruta, sha = modelo.base_comprobado()
    except modelo.ErrorDelBase as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    import peft
    import transformers

    print(f"Modelo base: {ruta.name} (SHA-256 {sha}, el fijado).", flush=True)
    base, tok = modelo.cargar(ruta)
    modelo.comprobar_orientacion(base, ruta)
    ns = datos.pagina()
    t = time.perf_counter()
    ejemplos = datos.ejemplos(ns, tok, a.ejecuciones, a.semilla, a.nombres_variados, a.amplio)
    por_tipo: dict[str, int] = {}
    for e in ejemplos:
        por_tipo[e.tipo] = por_tipo.get(e.tipo, 0) + 1
    largos = [len(e.ids) for e in ejemplos]
    print(f"Datos: {len(ejemplos)} ejecuciones en {time.perf_counter() - t:.1f} s, "
          f"{sum(largos)} tokens (de {min(largos)} a {max(largos)}), "
          f"{sum(e.objetivos for e in ejemplos)} del modelo; por tipo: {por_tipo}", flush=True)

    antes = None
    if a.medir:
        a.pasos = a.medir
    elif not a.sin_base:
        print("El modelo base, voraz:", flush=True)
        antes = evaluar(ns, base, tok, a, min(a.fuera, a.fuera_base))
    sembrar(a.semilla)
    peft_modelo = modelo.con_lora(base, a.rango, a.alfa)
    peft_modelo.train()
    dif_prefijo = comprobar_prefijo(peft_modelo, ejemplos[0], datos.prefijo_comun(ejemplos))
    cifras = entrenar(peft_modelo, ejemplos, a)
    if a.medir:
        por_ejecucion = cifras["segundos"] / (cifras["pasos"] * a.acumular)
        print(f"Medido: {cifras['tokens_por_segundo']} tokens/s, {por_ejecucion:.2f} s por ejecución "
              f"y pasada: {len(ejemplos)} ejecuciones, una época en {por_ejecucion * len(ejemplos) / 60:.1f} min.")
        return 0
    peft_modelo.eval()

    arrays = modelo.adaptador(peft_modelo)
    a.salida.mkdir(parents=True, exist_ok=True)
    npz = a.salida / f"{NOMBRE}.npz"
    tamano = modelo.guardar(arrays, npz)
    fusion = [modelo.comprobar_fusion(peft_modelo, arrays, n) for n in ("blk.0.attn_q", "blk.29.ffn_down")]
    for f in fusion:
        print(f"Fusión de {f['capa']}: diferencia máxima {f['max_dif_formula']:.2e} con A y B en "
              f"float32, {f['max_dif_npz_float16']:.2e} con los del npz (delta máximo "
              f"{f['max_abs_delta']:.2e}).", flush=True)
    manifiesto = {
        "adaptador": {"archivo": npz.name, "bytes": tamano, "sha256": modelo.sha256(npz),
                      "formato": "float16; blk.{i}.{capa}.lora_a (r×in), .lora_b (out×r), escala "
                                 "(alfa/r): W + escala·lora_b@lora_a en el orden de filas de "
                                 "transformers (q y k sin la permutación de llama.cpp)"},
        "modelo_base": {"archivo": ruta.name, "sha256": sha, "fijado_en": "widgets/datos/modelo-fijado.txt",
                        "pesos": "Q4_1 descuantizados a float32 (transformers, gguf_file=)"},
        "datos": {"generador": "runtime/entrenamiento.py: ejecuciones(n, agente, semilla, nombres_variados, amplio)",
                  "agente": "challenges/pruebas-del-agente/agente.py",
                  "peticion": "challenges/modelo-api/solucion.py: ModeloAPI().peticion(M, HERRAMIENTAS)",
                  "chat": "mensajes_para_el_modelo + tokenizer.chat_template del GGUF (ChatML, sin BOS)",
                  "semilla": a.semilla, "nombres_variados": a.nombres_variados, "amplio": a.amplio,
                  "ejecuciones": len(ejemplos), "por_tipo": dict(sorted(por_tipo.items())),
                  "tokens": sum(largos), "tokens_del_modelo": sum(e.objetivos for e in ejemplos)},
        "hiperparametros": {"rango": a.rango, "alfa": a.alfa, "escala": float(arrays["escala"]),
                            "capas": list(modelo.CAPAS), "dropout": 0.0, "optimizador": "AdamW",
                            "lr": a.lr, "calendario": "5 % de calentamiento lineal, coseno hasta el 10 %",
                            "weight_decay": 0.0, "recorte_de_gradiente": 1.0,
                            "ejecuciones_por_paso": a.acumular, "epocas": a.epocas, "hilos": 2},
        "versiones": {"python": platform.python_version(), "torch": torch.__version__,
                      "transformers": transformers.__version__, "peft": peft.__version__,
                      "numpy": np.__version__},
        "entrenamiento": {**cifras, "dif_prefijo_comun": dif_prefijo},
        "comprobacion_de_fusion": fusion,
        "base": antes,
        "ajustado": None,
    }
    escribir = lambda: (a.salida / f"{NOMBRE}.json").write_text(  # noqa: E731
        json.dumps(manifiesto, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    escribir()  # the training's figures, before the (long) evaluation
    ajustado = peft_modelo.unload()
    modelo.fusionar(ajustado, arrays)
    print("El modelo ajustado (base + adaptador del npz), voraz:", flush=True)
    manifiesto["ajustado"] = evaluar(ns, ajustado, tok, a, a.fuera)
    vistos = {e.pedido for e in ejemplos}
    for clave in ("base", "ajustado"):
        fuera = (manifiesto[clave] or {}).get("fuera_de_muestra")
        if fuera:
            fuera["pedidos_tambien_en_el_entrenamiento"] = sum(c["pedido"] in vistos for c in fuera["casos"])
    manifiesto["segundos_en_total"] = round(time.perf_counter() - comienzo, 1)
    escribir()
    print(f"Escrito {npz} ({tamano} bytes) y su manifiesto; {cifras['segundos'] / 60:.1f} min de "
          f"entrenamiento, pérdida final {cifras['perdida_final']}.", flush=True)
    if tamano > LIMITE_BYTES:
        print(f"error: el adaptador ocupa {tamano} bytes, más de {LIMITE_BYTES}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(principal())
