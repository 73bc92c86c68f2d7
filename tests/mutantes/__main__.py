"""``make mutantes``: mutation testing of every challenge's reference (``solucion.py``).

::

    python -m tests.mutantes [<desafío>…] [--cosmic-ray RUTA] [-j N] [--limite SEGUNDOS]

For each challenge, in ``_build/mutantes/<id>/`` (never in the source tree): a copy of its
``solucion.py``, a Cosmic Ray config whose test command is the challenge's grader on that copy
(``python -m challenges <id> <copia>``), and Cosmic Ray's session (``sesion.sqlite``). First the
grader grades the unmutated copy, which must pass (the baseline); then ``cosmic-ray init`` makes
the mutants of that one file and ``cosmic-ray exec`` applies each in turn and runs the grader: a
mutant is killed when the grader's verdict differs from the reference's (exit status not 0:
some test fails), and survives when every test still passes. The grader gives each test its own
time limit (2 s), and Cosmic Ray kills a whole run past ``--limite`` seconds: a mutant that loops
is killed either way. Challenges run in parallel, ``-j`` at once (default: the cores); each
session is sequential.

For ``pruebas-del-agente`` the reference is a test suite: its mutants are weaker or wrong suites,
and the grader's verdict on one differs when it fails the correct agent or misses a broken one.

Prints a table (one row per challenge: mutants, killed, survived, explained) and, under it, each
survivor that its ``clausulas.md`` does not explain as equivalent (see :mod:`.informe`); exits 1
when there is one (or a mutant without a verdict, or a challenge that could not be tested).
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import informe

RAIZ = Path(__file__).resolve().parents[2]
CHALLENGES = RAIZ / "challenges"
SALIDA = RAIZ / "_build" / "mutantes"
COSMIC_RAY = RAIZ / ".venv-mutantes" / "bin" / "cosmic-ray"
#: Seconds Cosmic Ray lets one grading of a mutant run (the reference's takes under one).
LIMITE = 30.0

CONFIG = """\
[cosmic-ray]
module-path = {modulo}
timeout = {limite}
excluded-modules = []
test-command = {orden}

[cosmic-ray.distributor]
name = "local"
"""


def desafios() -> list[str]:
    return sorted(p.parent.name for p in CHALLENGES.glob("*/solucion.py"))


def grader(desafio: str, archivo: Path) -> list[str]:
    """The grader's command on ``archivo``, with this Python (the project's venv)."""
    return [sys.executable, "-m", "challenges", desafio, str(archivo)]


def probar(desafio: str, cosmic_ray: Path, limite: float) -> informe.Cuenta:
    """Mutate ``desafio``'s reference and grade every mutant; its row of the table."""
    original = CHALLENGES / desafio / "solucion.py"
    nombre = str(original.relative_to(RAIZ))
    carpeta = SALIDA / desafio
    shutil.rmtree(carpeta, ignore_errors=True)
    carpeta.mkdir(parents=True)
    copia = carpeta / "solucion.py"
    shutil.copyfile(original, copia)
    base = subprocess.run(grader(desafio, copia), cwd=RAIZ, capture_output=True, text=True,
                          timeout=limite * 4, check=False)
    if base.returncode != 0:
        cola = (base.stdout + base.stderr).strip().splitlines()[-3:]
        return informe.Cuenta(desafio, nombre, problema="la referencia sin mutar no pasa: "
                              + " / ".join(cola))
    config = carpeta / "cosmic-ray.toml"
    config.write_text(CONFIG.format(
        modulo=_toml(str(copia)), limite=limite,
        orden=_toml(shlex.join(grader(desafio, copia)))), encoding="utf-8")
    sesion = carpeta / "sesion.sqlite"
    for orden in ("init", "exec"):
        hecho = subprocess.run([str(cosmic_ray), orden, str(config), str(sesion)], cwd=RAIZ,
                               capture_output=True, text=True, check=False)
        if hecho.returncode != 0:
            return informe.Cuenta(desafio, nombre, problema=f"cosmic-ray {orden}: "
                                  + hecho.stderr.strip()[-500:])
    volcado = subprocess.run([str(cosmic_ray), "dump", str(sesion)], cwd=RAIZ, check=True,
                             capture_output=True, text=True).stdout
    (carpeta / "volcado.jsonl").write_text(volcado, encoding="utf-8")
    clausulas = (CHALLENGES / desafio / "clausulas.md").read_text(encoding="utf-8")
    try:
        explicados = informe.explicaciones(clausulas)
    except informe.ExplicacionMal as e:
        return informe.Cuenta(desafio, nombre, problema=f"clausulas.md: {e}")
    return informe.cuenta(desafio, nombre, informe.de_volcado(volcado.splitlines()), explicados)


def _toml(texto: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's for these)."""
    return '"' + texto.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main(argv: list[str]) -> int:
    todos = desafios()
    p = argparse.ArgumentParser(prog="python -m tests.mutantes", description=__doc__.split("\n")[0])
    p.add_argument("desafios", nargs="*", metavar="desafío", help=f"de {', '.join(todos)}")
    p.add_argument("--cosmic-ray", type=Path, default=COSMIC_RAY)
    p.add_argument("-j", type=int, default=os.cpu_count() or 1, help="desafíos a la vez")
    p.add_argument("--limite", type=float, default=LIMITE,
                   help="segundos de una calificación de un mutante")
    a = p.parse_args(argv)
    elegidos = a.desafios or todos
    if set(elegidos) - set(todos):
        p.error(f"no hay {', '.join(sorted(set(elegidos) - set(todos)))}")
    if not a.cosmic_ray.exists():
        p.error(f"no está {a.cosmic_ray}: `make mutantes` lo instala")
    inicio = time.monotonic()
    with ThreadPoolExecutor(max(1, a.j)) as hilos:
        cuentas = list(hilos.map(lambda d: probar(d, a.cosmic_ray, a.limite), elegidos))
    print(informe.tabla(cuentas))
    print(f"\n{time.monotonic() - inicio:.0f} s ({len(elegidos)} desafíos, -j {a.j})")
    return 0 if all(c.bien for c in cuentas) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
