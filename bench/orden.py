"""The grader command's figures (CPython, no browser): what grading each submission in its own
child process costs, and how many a batch grades per second.

The batch is mixed: every known-wrong solution and the reference of every challenge. Printed by
``make bench`` after the browser's table; alone: ``python -m bench.orden [--veces N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import challenges
from widgets.aislamiento import aislado, lote

from .tabla import Fila, imprimir

RAIZ = Path(__file__).resolve().parents[1]
#: Children at once for the throughput figure (the target machine has 2 cores).
PROCESOS = 2

# Grades the batch (on stdin) in ONE fresh process, as many rounds as told after a warm-up round,
# and prints the seconds of each round. A process of its own: the engine's wall walks
# sys.modules at each call of the reader's code, and the bench's process holds many more
# modules than the command's.
_EN_UN_PROCESO = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
import challenges
c = challenges.calificador()
casos = json.load(sys.stdin)
rondas = []
for ronda in range(int(sys.argv[2]) + 1):
    inicio, cpu = time.perf_counter(), time.process_time()
    for desafio, codigo in casos:
        c.calificar(desafio, codigo)
    rondas.append((time.perf_counter() - inicio, time.process_time() - cpu))
print(json.dumps(rondas[1:]))
"""


def mezcla() -> list[lote.Envio]:
    """Every challenge's known-wrong solutions and reference."""
    envios = []
    for desafio in challenges.desafios():
        base = challenges.CARPETA / desafio
        for archivo in [*sorted((base / "errores").glob("*.py")), base / "solucion.py"]:
            envios.append(lote.Envio(str(archivo), desafio, archivo.read_text(encoding="utf-8")))
    return envios


def _cpu() -> float:
    """CPU seconds of this process and its reaped children."""
    propio = resource.getrusage(resource.RUSAGE_SELF)
    hijos = resource.getrusage(resource.RUSAGE_CHILDREN)
    return propio.ru_utime + propio.ru_stime + hijos.ru_utime + hijos.ru_stime


def medir(veces: int = 3, avisar=print) -> dict:
    envios = mezcla()
    n = len(envios)
    r = {"envios": n, "carga": os.getloadavg()[0]}
    avisar(f"grader command: {n} submissions in one process, {veces} × (after a warm-up)…")
    p = subprocess.run([sys.executable, "-I", "-c", _EN_UN_PROCESO, str(RAIZ), str(veces)],
                       input=json.dumps([(e.desafio, e.codigo) for e in envios]),
                       capture_output=True, text=True, check=True)
    rondas = json.loads(p.stdout)
    r["uno"] = [s * 1000 / n for s, _ in rondas]
    r["uno_cpu"] = [s * 1000 / n for _, s in rondas]
    avisar(f"  ms per submission: {', '.join(f'{x:.0f}' for x in r['uno'])}")

    avisar(f"grader command: {n} submissions, each in its own child, one at a time, {veces} ×…")
    r["hijo"], r["hijo_cpu"] = [], []
    for _ in range(veces):
        inicio, cpu = time.perf_counter(), _cpu()
        for e in envios:
            aislado.calificar(e.desafio, e.codigo, challenges.curso())
        r["hijo"].append((time.perf_counter() - inicio) * 1000 / n)
        r["hijo_cpu"].append((_cpu() - cpu) * 1000 / n)
        avisar(f"  {r['hijo'][-1]:.0f} ms per submission ({r['hijo_cpu'][-1]:.0f} ms of CPU)")

    avisar(f"grader command: the batch, {PROCESOS} children at once, {veces} ×…")
    r["lote"] = []
    for _ in range(veces):
        inicio = time.perf_counter()
        hechos = lote.calificar(envios, challenges.curso(), procesos=PROCESOS)
        r["lote"].append(n / (time.perf_counter() - inicio))
        avisar(f"  {r['lote'][-1]:.1f} submissions per second")
    aprobados = sum(c.aprobado for c in hechos)
    r["aprobados"] = aprobados
    return r


def filas(r: dict) -> list[Fila]:
    coste = [h - u for h, u in zip(r["hijo"], r["uno"], strict=True)]
    coste_cpu = [h - u for h, u in zip(r["hijo_cpu"], r["uno_cpu"], strict=True)]
    f = [
        Fila("Batch throughput: mixed batch, 2 children at once", "submissions/s", r["lote"]),
        Fila("One submission, each in its own child (one at a time) vs all in one process",
             "ms", r["hijo"], r["uno"]),
        Fila("  … the child's cost per submission (child − one process)", "ms", coste),
        Fila("  … the same in CPU time (parent and child)", "ms", r["hijo_cpu"], r["uno_cpu"]),
        Fila("  … the child's cost per submission in CPU time", "ms", coste_cpu),
    ]
    f[0].notas.append(f"{r['envios']} submissions: every challenge's known-wrong solutions and "
                      f"its reference ({r['aprobados']} pass all their tests)")
    f[1].notas.append("the second column is the same batch graded by one warm Calificador in "
                      "one fresh process (no children); the ratio is child / one process")
    return f


def tabla(r: dict) -> str:
    return imprimir(filas(r), "## make bench: python -m challenges (CPython)",
                    [f"{os.cpu_count()} CPUs; load average (1 min) when it started: "
                     f"{r['carga']:.1f}"],
                    columnas=("Measured (median, range)", "One process"))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--veces", type=int, default=3, help="runs of each figure (3)")
    args = parser.parse_args(argv)
    print(tabla(medir(args.veces, lambda texto: print(texto, file=sys.stderr, flush=True))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
