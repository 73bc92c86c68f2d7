"""``python -m widgets calificar``: grade submissions with a challenge's tests, each in its own
process, for any course built with the extension (its folder: ``--curso``, by default this one).

::

    python -m widgets calificar <desafío> <archivo.py> [--json]
    python -m widgets calificar <desafío> <archivos o carpetas…> [--json | --csv]
    python -m widgets calificar --progreso <progresos exportados (.json) o carpetas…> [--json | --csv]

One file: one line per test (``✔ name`` or ``✘ name: message``, further lines of the message
indented) and a last line ``N passed, M failed``; with ``--json``, the result instead (its shape:
``widgets.calificador.resultado``). A file holding only the function is graded like the full
starter file with it filled in.

Several files, folders (their ``*.py``, at every level) or, with ``--progreso``, files made by
the page's «Exportar mi progreso» (or folders of them: their ``*.json``): they are graded in
parallel, as many at once as there are cores, and printed as a table (one row per submission:
file, challenge, passed/total, first failing test); ``--csv`` prints
``archivo,desafio,superadas,total,primera_fallida`` and a row per submission, ``--json`` every
result. An export's stored results are never trusted: the code it saved is graded again (each
challenge the reader touched; ``null`` code is the starter). What cannot be read (a missing
file, not UTF-8, an empty folder, a JSON that is not an export, an export of another course
or version) is one line on stderr, and the rest is graded. A progress bar goes to stderr when
it is a terminal.

Each submission is graded in a child Python whose result comes signed through a pipe of its
own (:mod:`widgets.aislamiento`): not its stdout, not its exit status. ``os._exit``, ``atexit``
hooks, signals, a killed or broken process become a verdict; and a submission has limits of
wall time per test, CPU time, memory and output, each told by name when hit.

Exit status: 0 when every test of every submission passes; 1 when any fails (or an item could
not be read); 2 on a usage error, or when the grader itself could not run. A course may offer
the same command under its own name (this course: ``python -m challenges``): :func:`main` takes
the course and the name its usage line shows.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from ..aislamiento import Curso, aislado, lote
from ..calificador import disco

PROGRAMA = "python -m widgets calificar"
OPCIONES = {"--json", "--csv", "--progreso"}


def _ayuda(programa: str) -> tuple[str, str]:
    uso = f"uso: {programa} <desafío> <archivo.py> [--json]"
    espacio = " " * len("uso: ")
    return uso, (f"{uso}\n{espacio}{programa} <desafío> <archivos o carpetas…> [--json | --csv]"
                 f"\n{espacio}{programa} --progreso <progresos exportados (.json) o carpetas…> "
                 f"[--json | --csv]")


def main(argv: list[str], curso: Curso | None = None, programa: str = PROGRAMA) -> int:
    """The command over ``curso`` (by default, the one whose ``conf.py`` ``--curso`` names, or
    the current folder's); its exit status."""
    for flujo in (sys.stdout, sys.stderr):
        flujo.reconfigure(encoding="utf-8", errors="replace")
    uso, ayuda = _ayuda(programa)
    argv, carpeta = _sin_curso(argv)
    opciones = [a for a in argv if a.startswith("-")]
    posicionales = [a for a in argv if not a.startswith("-")]
    if curso is None:
        if not (carpeta / "conf.py").is_file():
            return _uso(uso, f"no hay conf.py en {carpeta}: di la carpeta del curso con --curso")
        curso = Curso.de_conf(carpeta)
    ids = disco.desafios(curso.desafios)
    if opciones and set(opciones) <= {"-h", "--help", "--ayuda"}:
        print(ayuda)
        print(f"desafíos: {', '.join(ids)}")
        return 0
    if set(opciones) - OPCIONES:
        return _uso(uso, f"no hay ninguna opción {', '.join(sorted(set(opciones) - OPCIONES))}")
    if {"--json", "--csv"} <= set(opciones):
        return _uso(uso, "--json y --csv no van juntas: elige una")
    formato = "json" if "--json" in opciones else "csv" if "--csv" in opciones else None
    if "--progreso" in opciones:
        if not posicionales:
            return _uso(uso, "hacen falta los progresos exportados (archivos .json o carpetas)")
        envios, problemas = lote.de_progresos(posicionales, curso)
        return _lote(envios, problemas, formato, curso)
    if len(posicionales) < 2:
        return _uso(uso, "hacen falta el desafío y el archivo")
    desafio, *rutas = posicionales
    if desafio not in ids:
        return _uso(uso, f"no hay ningún desafío «{desafio}»; los hay: {', '.join(ids)}")
    if len(rutas) == 1 and formato != "csv" and not Path(rutas[0]).is_dir():
        return _uno(desafio, rutas[0], formato == "json", curso, uso)
    envios, problemas = lote.de_archivos(desafio, rutas)
    return _lote(envios, problemas, formato, curso)


def _sin_curso(argv: list[str]) -> tuple[list[str], Path]:
    """``argv`` without ``--curso <carpeta>`` (or ``--curso=<carpeta>``), and that folder."""
    resto, carpeta, i = [], Path("."), 0
    while i < len(argv):
        if argv[i] == "--curso" and i + 1 < len(argv):
            carpeta, i = Path(argv[i + 1]), i + 2
            continue
        if argv[i].startswith("--curso="):
            carpeta = Path(argv[i].split("=", 1)[1])
        else:
            resto.append(argv[i])
        i += 1
    return resto, carpeta


def _uno(desafio: str, ruta: str, como_json: bool, curso: Curso, uso: str) -> int:
    archivo = Path(ruta)
    if not archivo.is_file():
        return _uso(uso, f"no existe el archivo {ruta}")
    try:
        codigo = archivo.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        return _uso(uso, f"no se puede leer {ruta}: {e}")
    try:
        resultado = aislado.calificar(desafio, codigo, curso)
    except aislado.NoArranco as e:
        print(f"error: no se pudo calificar {ruta}: {e}", file=sys.stderr)
        return 2
    _imprimir(resultado, como_json)
    return 0 if resultado["superadas"] == resultado["total"] else 1


def _lote(envios: list[lote.Envio], problemas: list[lote.Problema], formato: str | None,
          curso: Curso) -> int:
    for problema in problemas:
        print(f"aviso: {problema}", file=sys.stderr, flush=True)
    barra = lote.Barra(sys.stderr)
    try:
        calificados = lote.calificar(envios, curso, al_acabar=barra)
    finally:
        barra.borrar()
    for c in calificados:
        if c.problema is not None:
            print(f"error: no se pudo calificar {c.envio.nombre}: {c.problema}", file=sys.stderr)
    if formato == "json":
        print(lote.como_json(calificados, problemas))
    elif formato == "csv":
        sys.stdout.write(lote.como_csv(calificados))
    elif calificados:
        print(lote.tabla(calificados))
    sys.stdout.flush()
    if not calificados or any(c.problema is not None for c in calificados):
        if not calificados:
            print("error: no hay nada que calificar", file=sys.stderr)
        return 2
    return 0 if not problemas and all(c.aprobado for c in calificados) else 1


def _uso(uso: str, problema: str) -> int:
    print(f"{uso}\nerror: {problema}", file=sys.stderr)
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



def ejecutar(argv: list[str], curso: Curso | None = None, programa: str = PROGRAMA) -> int:
    """:func:`main`, with what ends a command: a reader of the output that left (``| head``),
    or the grader itself broken (exit 2, not 1)."""
    try:
        return main(argv, curso, programa)
    except BrokenPipeError:  # `| head`: the reader of our output left
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception as e:  # noqa: BLE001 - the grader itself broke (a challenge's tests…): 2, not 1
        print(f"error: el calificador falló: {type(e).__name__}: {e}", file=sys.stderr)
        return 2
