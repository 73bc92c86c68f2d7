"""How many tasks the course's model solves, tuned and base, greedy and sampled (``make bench``).

Runs :mod:`bench.evaluar` in ``.venv-nativo`` (native llama.cpp) on the two task sets of
:mod:`bench.apartadas`, for the published model (the course's adapter merged) and the base
beside it, greedy and at temperature 0.7 with several seeds, and prints a table: successes, rate
and its 95 % Wilson interval, and the failures by cause. The grammar is the page's own, computed
by its module (``widgets/front/modelo/esquema.js``) in Node for the course's tools.

    python -m bench.aciertos [--semillas 3] [--json salida.json]
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from widgets.construccion.modelo_local import asegurar, asegurar_base, fijado

from .evaluar import gramatica

RAIZ = Path(__file__).resolve().parents[1]
NATIVO = RAIZ / ".venv-nativo" / "bin" / "python"
CACHE = RAIZ / "_build" / "modelo"
TEMPERATURA = 0.7
OBJETIVOS = {"lecciones": 0.8, "apartadas": 0.6}


def wilson(exitos: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate of ``exitos`` in ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = exitos / n
    centro = (p + z * z / (2 * n)) / (1 + z * z / n)
    margen = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centro - margen), min(1.0, centro + margen)


def modos(semillas: int) -> list[dict]:
    return [{"nombre": "greedy", "temperatura": 0.0, "semilla": 0}] + [
        {"nombre": f"t{TEMPERATURA}-s{s}", "temperatura": TEMPERATURA, "semilla": s}
        for s in range(1, semillas + 1)]


def medir(semillas: int = 3, conjuntos=("lecciones", "apartadas"), avisar=print,
          ggufs: dict | None = None) -> dict:
    """The run records of every model, mode and task, and each model's answers to the fixed
    prompts (see bench/evaluar.py)."""
    if not NATIVO.exists():
        raise RuntimeError("no .venv-nativo (make bench builds it)")
    if ggufs is None:
        ggufs = {"ajustado": str(asegurar(CACHE))}
        if fijado().adaptado:
            ggufs["base"] = str(asegurar_base(CACHE))
    entrada = {"ggufs": ggufs, "gramatica": gramatica(), "conjuntos": list(conjuntos),
               "modos": modos(semillas), "hilos": os.cpu_count() or 1}
    avisar(f"the model on its tasks: {', '.join(ggufs)} × {len(entrada['modos'])} modes × "
           f"{', '.join(conjuntos)}…")
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as f:
        json.dump(entrada, f, ensure_ascii=False)
    try:
        p = subprocess.run([str(NATIVO), "-m", "bench.evaluar", f.name], cwd=RAIZ,
                           stdout=subprocess.PIPE, text=True, check=False)
        if p.returncode != 0:  # a CPU that reports AMX without running it: see bench/nativo.py
            entrada["sin_extras"] = True
            Path(f.name).write_text(json.dumps(entrada, ensure_ascii=False), encoding="utf-8")
            p = subprocess.run([str(NATIVO), "-m", "bench.evaluar", f.name], cwd=RAIZ,
                               stdout=subprocess.PIPE, text=True, check=True)
    finally:
        os.unlink(f.name)
    return json.loads(p.stdout.strip().splitlines()[-1])


MANIFIESTO = RAIZ / "widgets" / "datos" / "smollm2-135m-adaptador.json"


def fijas(resultado: dict) -> str:
    """The merged file's greedy answers to the manifest's fixed prompts beside the trained
    model's (the manifest's, transformers in float32): how many are the same, and which not."""
    manifiesto = json.loads(MANIFIESTO.read_text(encoding="utf-8"))
    entrenado = {r["indicacion"]: r["respuesta"] for r in manifiesto["ajustado"]["respuestas_fijas"]}
    hechas = resultado["fijas"].get("ajustado", [])
    iguales = [r for r in hechas if entrenado.get(r["indicacion"]) == r["respuesta"]]
    lineas = [f"The merged GGUF (native llama.cpp, greedy, no grammar) answers {len(iguales)} of "
              f"{len(hechas)} of the manifest's fixed prompts as the trained model did"
              + (":" if len(iguales) < len(hechas) else ".")]
    for r in hechas:
        if r not in iguales:
            lineas.append(f"- {r['indicacion']}: `{r['respuesta'][:100]}` (trained: "
                          f"`{entrenado.get(r['indicacion'], '?')[:100]}`)")
    return "\n".join(lineas)


def tabla(registros: list[dict]) -> str:
    """Markdown: per set, model and way of decoding, the successes, rate, interval and causes."""
    grupos = collections.defaultdict(list)
    for r in registros:
        como = "greedy" if r["modo"] == "greedy" else f"sampled, T={TEMPERATURA}"
        grupos[(r["conjunto"], r["modelo"], como)].append(r)
    lineas = ["| set | model | decoding | solved | rate | 95 % Wilson | target | failures by cause |",
              "|---|---|---|---|---|---|---|---|"]
    for (conjunto, modelo, como), rs in grupos.items():
        exitos = sum(r["resuelta"] for r in rs)
        semillas = len({r["modo"] for r in rs})
        bajo, alto = wilson(exitos, len(rs))
        causas = collections.Counter(r["motivo"] for r in rs if not r["resuelta"])
        objetivo = OBJETIVOS.get(conjunto)
        lineas.append(
            f"| {conjunto} | {modelo} | {como}{f' ({semillas} seeds)' if semillas > 1 else ''} | "
            f"{exitos} of {len(rs)} | {exitos / len(rs):.0%} | {bajo:.0%}–{alto:.0%} | "
            f"{f'≥ {objetivo:.0%}' if objetivo else ''} | "
            f"{', '.join(f'{c} {k}' for c, k in causas.most_common())} |")
    return "\n".join(lineas)


def fallos(registros: list[dict], modelo: str = "ajustado") -> str:
    """What the model got wrong, greedy, task by task: its request, cause and last output."""
    lineas = []
    for r in registros:
        if r["modelo"] == modelo and r["modo"] == "greedy" and not r["resuelta"]:
            lineas.append(f"- {r['conjunto']} «{r['pedido']}» ({r['tipo']}): {r['motivo']}, "
                          f"{r['turnos']} turns; last: `{(r['salidas'] or [''])[-1][:120]}`")
    return "\n".join(lineas)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--semillas", type=int, default=3, help="sampled runs per task (3)")
    parser.add_argument("--json", type=Path, help="write the run records here too")
    parser.add_argument("--voraz", type=Path,
                        help="write the published model's greedy records here, with its SHA-256 "
                             "(bench/aciertos-voraz.json: the figures lesson 6 states)")
    args = parser.parse_args(argv)
    resultado = medir(args.semillas, avisar=lambda t: print(t, file=sys.stderr, flush=True))
    registros = resultado["registros"]
    if args.json:
        args.json.write_text(json.dumps(registros, ensure_ascii=False, indent=1), encoding="utf-8")
    if args.voraz:
        pin = fijado()
        voraces = [{k: r[k] for k in ("conjunto", "indice", "tipo", "pedido", "resuelta", "como",
                                      "motivo", "turnos", "final", "salidas")}
                   for r in registros if r["modelo"] == "ajustado" and r["modo"] == "greedy"]
        args.voraz.write_text(json.dumps({"modelo": pin.archivo, "sha256": pin.publicado_sha256,
                                          "como": f"python -m bench.aciertos --voraz {args.voraz}",
                                          "registros": voraces}, ensure_ascii=False, indent=1) + "\n",
                              encoding="utf-8")
    print(tabla(registros))
    print()
    print(fallos(registros))
    print()
    print(fijas(resultado))
    return 0


if __name__ == "__main__":
    sys.exit(main())
