"""``python -m challenges <id> <file.py> [--json]``: grade a file with a challenge's tests.

Prints one line per test (``✔ name`` or ``✘ name: message``, further lines of the message
indented) and a last line ``N passed, M failed``; with ``--json``, the result instead (its shape:
``widgets.calificador.resultado``).
Exit status: 0 when every test passes, 1 when any fails, 2 on a usage error.

The grader stops a submission that runs past its time limit. Python 3.11 has no
``sys.monitoring``, and a submission that catches the grader's exception inside an endless loop
could outlive the limit there; so this command keeps its own clock too: if a test runs for
``limit + MARGEN`` seconds it prints the verdicts it has and exits.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path

from widgets.calificador import LIMITE, Veredicto, limites, resultado as resultados

from . import CARPETA, calificador, desafios

USO = "uso: python -m challenges <desafío> <archivo.py> [--json]"
MARGEN = 3.0


def main(argv: list[str]) -> int:
    for flujo in (sys.stdout, sys.stderr):
        flujo.reconfigure(encoding="utf-8", errors="replace")
    opciones = [a for a in argv if a.startswith("-")]
    posicionales = [a for a in argv if not a.startswith("-")]
    if opciones and set(opciones) <= {"-h", "--help", "--ayuda"}:
        print(USO)
        print(f"desafíos: {', '.join(desafios())}")
        return 0
    if set(opciones) - {"--json"} or len(posicionales) != 2:
        return _uso("hacen falta el desafío y el archivo")
    desafio, ruta = posicionales
    if desafio not in desafios():
        return _uso(f"no hay ningún desafío «{desafio}»; los hay: {', '.join(desafios())}")
    archivo = Path(ruta)
    if not archivo.is_file():
        return _uso(f"no existe el archivo {ruta}")
    try:
        codigo = archivo.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        return _uso(f"no se puede leer {ruta}: {e}")

    c = calificador(CARPETA)
    como_json = "--json" in opciones
    reloj = _Reloj(c, desafio, como_json)
    try:
        resultado = c.calificar(desafio, codigo, al_empezar=reloj.empieza, al_acabar=reloj.acaba)
    finally:
        reloj.para()
    _imprimir(resultado, como_json)
    return 0 if resultado["superadas"] == resultado["total"] else 1


def _uso(problema: str) -> int:
    print(f"{USO}\nerror: {problema}", file=sys.stderr)
    return 2


def _imprimir(resultado: dict, como_json: bool, salida=None) -> None:
    salida = salida or sys.stdout
    if como_json:
        print(json.dumps(resultado, ensure_ascii=False, indent=2), file=salida)
        return
    if resultado["error"]:
        print(_sangrado(f"✘ {resultado['error']['mensaje']}"), file=salida)
    for prueba in resultado["pruebas"]:
        if prueba["ok"]:
            print(f"✔ {prueba['nombre']}", file=salida)
        else:
            print(_sangrado(f"✘ {prueba['nombre']}: {prueba['mensaje']}"), file=salida)
    fallidas = resultado["total"] - resultado["superadas"]
    print(f"{resultado['superadas']} passed, {fallidas} failed", file=salida, flush=True)


def _sangrado(texto: str) -> str:
    primera, *resto = texto.split("\n")
    return "\n".join([primera] + ["    " + linea for linea in resto])


class _Reloj:
    """The command's own clock: a test that outlives the grader's limit ends the process."""

    def __init__(self, c, desafio: str, como_json: bool):
        self.c, self.desafio, self.como_json = c, desafio, como_json
        self.funcion = next(iter(c.a_escribir(desafio)))
        self.empezadas: list[str] = []
        self.hechas: dict[str, dict] = {}
        self.temporizador: threading.Timer | None = None

    def empieza(self, nombre: str) -> None:
        self.para()
        self.empezadas.append(nombre)
        self.temporizador = threading.Timer(LIMITE + MARGEN, self.plantarse)
        self.temporizador.daemon = True
        self.temporizador.start()

    def acaba(self, resultado: dict) -> None:
        self.para()
        self.hechas[resultado["nombre"]] = resultado

    def para(self) -> None:
        if self.temporizador is not None:
            self.temporizador.cancel()

    def plantarse(self) -> None:
        # The main thread is stuck in the submission: say what is known and leave.
        actual = self.empezadas[-1]
        veredicto = Veredicto("tiempo", limites.no_se_dejo_detener(self.funcion, LIMITE))
        resultado = self.c.cortado(self.desafio, self.hechas, actual, veredicto,
                                   resultados.no_termino(actual))
        _imprimir(resultado, self.como_json, sys.__stdout__)
        os._exit(1)


if __name__ == "__main__":
    try:
        codigo = main(sys.argv[1:])
    except BrokenPipeError:  # `| head`: the reader of our output left
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        codigo = 1
    sys.exit(codigo)
