"""``make adaptador``: tune the in-page model with LoRA on the course's own runs (issue #42).

    .venv-entrenar/bin/python -m entrenamiento.entrenar [--ejecuciones N] [--epocas E] …

1. The base: the pinned Q4_1 GGUF (refused unless its SHA-256 is the pinned one), dequantized to
   float32 by transformers; the orientation of its weights checked against gguf-py (modelo.py).
2. The data: ``--ejecuciones`` runs of the generator (seed ``--semilla``; ``--nombres-variados``
   of them with file and folder names drawn from a large pool, so that a path is right only when
   it is copied; ``--amplio`` of them broader: requests that start by telling something else,
   more lists than the shopping one, notes whose other lines share the day or the person, answers
   said in several ways), each one sequence, the page's prompt with the loss on the model's own
   tokens only (datos.py).
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

from widgets.construccion.fijados import sha256

from . import datos, evaluacion, modelo

RAIZ = Path(__file__).resolve().parents[1]
NOMBRE = "smollm2-135m-adaptador"
LIMITE_BYTES = 10_000_000


def argumentos(argv=None):
    p = argparse.ArgumentParser(prog="python -m entrenamiento.entrenar",
                                description="Entrena el adaptador LoRA del modelo de la página.")
    p.add_argument("--ejecuciones", type=int, default=1000, help="ejecuciones del generador")
    p.add_argument("--semilla", type=int, default=1, help="semilla de los datos y de torch")
    p.add_argument("--nombres-variados", type=float, default=0.0,
                   help="proporción de tareas con ficheros de nombres al azar (compra.txt, "
                        "citas.txt…)")
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
        a.ejecuciones, a.epocas = min(a.ejecuciones, 16), 1.0
        a.fuera, a.fuera_base = min(a.fuera, 3), min(a.fuera_base, 1)
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
    perdida = torch.nn.functional.cross_entropy(logits, etiquetas[donde], reduction="sum")
    return perdida, int(donde.sum())


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
        raise AssertionError(f"el prefijo común cambia la pérdida: {float(entero) / n} y "
                             f"{float(partido) / m}")
    return dif


def tasa(paso: int, total: int, lr: float) -> float:
    """Linear warm-up over the first 5 % of the steps, then cosine down to 10 % of ``lr``."""
    calentar = max(1, round(0.05 * total))
    if paso < calentar:
        return lr * (paso + 1) / calentar
    t = (paso - calentar) / max(1, total - calentar)
    return lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * t)))


def paso_de_entrenamiento(peft_modelo, optimizador, grupo: list[datos.Ejemplo], k: int) -> float:
    """One optimizer step over the runs of ``grupo``, whose first ``k`` tokens are the same:
    returns the sum of their losses."""
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
    torch.nn.utils.clip_grad_norm_([p for g in optimizador.param_groups for p in g["params"]], 1.0)
    optimizador.step()
    optimizador.zero_grad(set_to_none=True)
    return suma


class Registro:
    """What the training loop counts as it goes: tokens, the loss curve, the time, the
    machine's load."""

    def __init__(self, k: int):
        self.k = k
        self.tokens = self.calculados = self.objetivos = 0
        self.curva: list[dict] = []
        self.ventana: list[float] = []
        self.inicio = time.perf_counter()
        self.carga_antes = os.getloadavg()

    def anotar(self, grupo: list[datos.Ejemplo], suma: float) -> tuple[float, float]:
        """One step done over ``grupo`` with losses summing ``suma``: (its loss, seconds so far)."""
        n_grupo = sum(e.objetivos for e in grupo)
        self.tokens += sum(len(e.ids) for e in grupo)
        self.calculados += self.k + sum(len(e.ids) - self.k for e in grupo)
        self.objetivos += n_grupo
        self.ventana.append(suma / n_grupo)
        return suma / n_grupo, time.perf_counter() - self.inicio

    def punto(self, paso: int) -> None:
        """A point of the curve at ``paso``: the mean loss since the last one (or the last point
        again, when no step was made since)."""
        if not self.ventana:
            self.curva.append(self.curva[-1])
            return
        media = sum(self.ventana) / len(self.ventana)
        self.curva.append({"paso": paso, "perdida": round(media, 4)})
        self.ventana = []

    def cifras(self) -> dict:
        segundos = time.perf_counter() - self.inicio
        return {"prefijo_comun_tokens": self.k, "segundos": round(segundos, 1),
                "tokens": self.tokens, "tokens_por_segundo": round(self.tokens / segundos, 1),
                "tokens_calculados_por_segundo": round(self.calculados / segundos, 1),
                "tokens_objetivo": self.objetivos, "perdida_final": self.curva[-1]["perdida"],
                "curva": self.curva}


def entrenar(peft_modelo, ejemplos: list[datos.Ejemplo], a) -> dict:
    """The training loop; prints the loss as it goes and returns its figures."""
    k = datos.prefijo_comun(ejemplos)
    entrenables = [p for p in peft_modelo.parameters() if p.requires_grad]
    optimizador = torch.optim.AdamW(entrenables, lr=a.lr, weight_decay=0.0)
    por_epoca = math.ceil(len(ejemplos) / a.acumular)
    total = a.pasos or max(1, round(a.epocas * por_epoca))
    orden: list[datos.Ejemplo] = []
    azar = random.Random(a.semilla)
    parado = None
    print(f"Entrenando: {len(ejemplos)} ejecuciones, {total} pasos de {a.acumular}, prefijo común "
          f"de {k} tokens.", flush=True)
    registro = Registro(k)
    for paso in range(total):
        grupo = []
        while len(grupo) < a.acumular:
            if not orden:
                orden = list(ejemplos)
                azar.shuffle(orden)
            grupo.append(orden.pop())
        for g in optimizador.param_groups:
            g["lr"] = tasa(paso, total, a.lr)
        suma = paso_de_entrenamiento(peft_modelo, optimizador, grupo, k)
        perdida, segundos = registro.anotar(grupo, suma)
        print(f"paso {paso + 1}/{total}  pérdida {perdida:.4f}  lr {tasa(paso, total, a.lr):.2e}  "
              f"{registro.tokens / segundos:.0f} tokens/s ({registro.calculados / segundos:.0f} "
              f"calculados)  {segundos / 60:.1f} min", flush=True)
        if (paso + 1) % a.cada == 0 or paso + 1 == total:
            registro.punto(paso + 1)
        if segundos > a.tope_minutos * 60 and paso + 1 < total:
            parado = f"parado en el paso {paso + 1} de {total}: se pasó de {a.tope_minutos} minutos"
            print(parado, flush=True)
            registro.punto(paso + 1)
            break
    cifras = registro.cifras()
    return {"pasos": paso + 1, "pasos_previstos": total, "pasos_por_epoca": por_epoca, **cifras,
            "parado": parado,
            "carga_de_la_maquina": {"antes": [round(x, 2) for x in registro.carga_antes],
                                    "despues": [round(x, 2) for x in os.getloadavg()]}}


def evaluar(ns, modelo_plano, tok, a, fuera: int) -> dict:
    """The fixed prompts, the lesson's run and ``fuera`` held-out tasks, greedy."""
    generar = evaluacion.Generador(modelo_plano, tok)
    salida = {"respuestas_fijas": evaluacion.respuestas_fijas(ns, generar)}
    for r in salida["respuestas_fijas"]:
        print(f"  {r['indicacion']}: {r['respuesta']!r}", flush=True)
    salida["leccion"] = evaluacion.ejecucion_de_la_leccion(ns, generar)
    leccion = salida["leccion"]
    print(f"  la lección entera: {leccion['como']}, {leccion['final']!r}", flush=True)
    if fuera:
        salida["fuera_de_muestra"] = evaluacion.fuera_de_muestra(
            ns, generar, fuera, a.semilla_fuera, nombres_variados=a.nombres_variados)
    salida["generacion"] = {"tokens": generar.tokens, "segundos": round(generar.segundos, 1)}
    return salida


def preparar_datos(ns: dict, tok, a) -> list[datos.Ejemplo]:
    """The training sequences of ``a``'s runs, with what they hold printed."""
    t = time.perf_counter()
    ejemplos = datos.ejemplos(ns, tok, a.ejecuciones, a.semilla, a.nombres_variados, a.amplio)
    largos = [len(e.ids) for e in ejemplos]
    print(f"Datos: {len(ejemplos)} ejecuciones en {time.perf_counter() - t:.1f} s, "
          f"{sum(largos)} tokens (de {min(largos)} a {max(largos)}), "
          f"{sum(e.objetivos for e in ejemplos)} del modelo; por tipo: {por_tipo(ejemplos)}",
          flush=True)
    return ejemplos


def por_tipo(ejemplos: list[datos.Ejemplo]) -> dict[str, int]:
    """How many runs of each kind of task, in the order first met."""
    cuenta: dict[str, int] = {}
    for e in ejemplos:
        cuenta[e.tipo] = cuenta.get(e.tipo, 0) + 1
    return cuenta


def guardar_adaptador(peft_modelo, a) -> tuple[dict, Path, list[dict]]:
    """The trained adapter written into ``a.salida`` and its merge checked on two layers:
    (its arrays, the .npz, the checks)."""
    arrays = modelo.adaptador(peft_modelo)
    a.salida.mkdir(parents=True, exist_ok=True)
    npz = a.salida / f"{NOMBRE}.npz"
    modelo.guardar(arrays, npz)
    fusion = [modelo.comprobar_fusion(peft_modelo, arrays, n)
              for n in ("blk.0.attn_q", "blk.29.ffn_down")]
    for f in fusion:
        print(f"Fusión de {f['capa']}: diferencia máxima {f['max_dif_formula']:.2e} con A y B en "
              f"float32, {f['max_dif_npz_float16']:.2e} con los del npz (delta máximo "
              f"{f['max_abs_delta']:.2e}).", flush=True)
    return arrays, npz, fusion


def manifiesto_de(a, base: tuple[Path, str], ejemplos: list[datos.Ejemplo], arrays: dict,
                  npz: Path, entrenamiento: dict, fusion: list[dict], antes) -> dict:
    """The adapter's manifest (``ajustado`` still to fill): what was trained, on what, how."""
    import peft
    import transformers

    ruta, sha = base
    return {
        "adaptador": {"archivo": npz.name, "bytes": npz.stat().st_size, "sha256": sha256(npz),
                      "formato": "float16; blk.{i}.{capa}.lora_a (r×in), .lora_b (out×r), escala "
                                 "(alfa/r): W + escala·lora_b@lora_a en el orden de filas de "
                                 "transformers (q y k sin la permutación de llama.cpp)"},
        "modelo_base": {"archivo": ruta.name, "sha256": sha,
                        "fijado_en": "widgets/datos/modelo-fijado.txt",
                        "pesos": "Q4_1 descuantizados a float32 (transformers, gguf_file=)"},
        "datos": {"generador": "runtime/entrenamiento.py: ejecuciones(n, agente, semilla, "
                               "nombres_variados, amplio)",
                  "agente": "challenges/pruebas-del-agente/agente.py",
                  "peticion": "challenges/modelo-api/solucion.py: "
                              "ModeloAPI().peticion(M, HERRAMIENTAS)",
                  "chat": "mensajes_para_el_modelo + tokenizer.chat_template del GGUF (ChatML, "
                          "sin BOS)",
                  "semilla": a.semilla, "nombres_variados": a.nombres_variados, "amplio": a.amplio,
                  "ejecuciones": len(ejemplos),
                  "por_tipo": dict(sorted(por_tipo(ejemplos).items())),
                  "tokens": sum(len(e.ids) for e in ejemplos),
                  "tokens_del_modelo": sum(e.objetivos for e in ejemplos)},
        "hiperparametros": {"rango": a.rango, "alfa": a.alfa, "escala": float(arrays["escala"]),
                            "capas": list(modelo.CAPAS), "dropout": 0.0, "optimizador": "AdamW",
                            "lr": a.lr,
                            "calendario": "5 % de calentamiento lineal, coseno hasta el 10 %",
                            "weight_decay": 0.0, "recorte_de_gradiente": 1.0,
                            "ejecuciones_por_paso": a.acumular, "epocas": a.epocas, "hilos": 2},
        "versiones": {"python": platform.python_version(), "torch": torch.__version__,
                      "transformers": transformers.__version__, "peft": peft.__version__,
                      "numpy": np.__version__},
        "entrenamiento": entrenamiento,
        "comprobacion_de_fusion": fusion,
        "base": antes,
        "ajustado": None,
    }


def escribir(manifiesto: dict, a) -> None:
    texto = json.dumps(manifiesto, ensure_ascii=False, indent=1) + "\n"
    (a.salida / f"{NOMBRE}.json").write_text(texto, encoding="utf-8")


def evaluar_ajustado(manifiesto: dict, ns, peft_modelo, arrays: dict, tok, a, vistos: set) -> None:
    """The tuned model (the base plus the .npz's adapter) evaluated into the manifest, with how
    many held-out requests were also trained on."""
    ajustado = peft_modelo.unload()
    modelo.fusionar(ajustado, arrays)
    print("El modelo ajustado (base + adaptador del npz), voraz:", flush=True)
    manifiesto["ajustado"] = evaluar(ns, ajustado, tok, a, a.fuera)
    for clave in ("base", "ajustado"):
        fuera = (manifiesto[clave] or {}).get("fuera_de_muestra")
        if fuera:
            fuera["pedidos_tambien_en_el_entrenamiento"] = sum(c["pedido"] in vistos
                                                               for c in fuera["casos"])


def medido(cifras: dict, a, ejecuciones: int) -> int:
    """``--medir``: the speed, said."""
    por_ejecucion = cifras["segundos"] / (cifras["pasos"] * a.acumular)
    print(f"Medido: {cifras['tokens_por_segundo']} tokens/s, {por_ejecucion:.2f} s por ejecución "
          f"y pasada: {ejecuciones} ejecuciones, una época en "
          f"{por_ejecucion * ejecuciones / 60:.1f} min.")
    return 0


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
    print(f"Modelo base: {ruta.name} (SHA-256 {sha}, el fijado).", flush=True)
    base, tok = modelo.cargar(ruta)
    modelo.comprobar_orientacion(base, ruta)
    ns = datos.pagina()
    ejemplos = preparar_datos(ns, tok, a)
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
        return medido(cifras, a, len(ejemplos))
    peft_modelo.eval()
    arrays, npz, fusion = guardar_adaptador(peft_modelo, a)
    manifiesto = manifiesto_de(a, (ruta, sha), ejemplos, arrays, npz,
                               {**cifras, "dif_prefijo_comun": dif_prefijo}, fusion, antes)
    escribir(manifiesto, a)  # the training's figures, before the (long) evaluation
    evaluar_ajustado(manifiesto, ns, peft_modelo, arrays, tok, a, {e.pedido for e in ejemplos})
    manifiesto["segundos_en_total"] = round(time.perf_counter() - comienzo, 1)
    escribir(manifiesto, a)
    tamano = npz.stat().st_size
    print(f"Escrito {npz} ({tamano} bytes) y su manifiesto; {cifras['segundos'] / 60:.1f} min de "
          f"entrenamiento, pérdida final {cifras['perdida_final']}.", flush=True)
    if tamano > LIMITE_BYTES:
        print(f"error: el adaptador ocupa {tamano} bytes, más de {LIMITE_BYTES}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(principal())
