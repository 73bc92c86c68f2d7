"""What the tests of ``python -m challenges`` share: the challenge they grade, its reference and
starter, and running the command (or many gradings at once)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import challenges

RAIZ = Path(__file__).resolve().parent.parent.parent
DESAFIOS = RAIZ / "challenges"
DESAFIO = "bucle-con-tope"
SOLUCION = (DESAFIOS / DESAFIO / "solucion.py").read_text(encoding="utf-8")
INICIAL = (DESAFIOS / DESAFIO / "inicial.py").read_text(encoding="utf-8")
PRIMERA = "la conversación de la lección"
#: How many tests the challenge has, as the engine counts them.
TOTAL = len(challenges.calificador().nombres(DESAFIO))
#: The page of each challenge (the lesson's docname), as the page keys its storage.
PAGINAS = {"bucle-con-tope": "el-bucle", "ejecutar-llamada": "llamar-herramientas",
           "errores-como-observaciones": "errores", "pedir-permiso": "pedir-permiso",
           "pruebas-del-agente": "el-agente", "modelo-api": "modelo-real",
           "medir-el-agente": "medir"}
USO = "uso: python -m challenges <desafío> <archivo.py> [--json]\nerror: "


def sin_reloj(r):
    return {k: v for k, v in r.items() if k != "segundos"}


def bucle_de(cuerpo):
    """A submission whose ``bucle`` does ``cuerpo`` (the first test runs it)."""
    return "def bucle(modelo, inicio, entorno, tope):\n" + textwrap.indent(
        textwrap.dedent(cuerpo), "    ")


def cli(*args, timeout=60, **opciones):
    return subprocess.run([sys.executable, "-m", "challenges", *map(str, args)], cwd=RAIZ,
                          capture_output=True, text=True, encoding="utf-8", timeout=timeout,
                          **opciones, check=False)


def en_paralelo(funcion, elementos):
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as grupo:
        return list(grupo.map(funcion, elementos))
