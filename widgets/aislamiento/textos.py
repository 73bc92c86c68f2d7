"""The verdicts of a child that died before its result, in Spanish, told of the test running."""

from __future__ import annotations

import re
import signal

from widgets.calificador import limites
from widgets.calificador.veredictos import durante

def _bytes(n):
    """1 << 30 → «1 GB», 512 << 20 → «512 MB»."""
    if n >= 2**30 and n % 2**30 == 0:
        return f"{n // 2**30} GB"
    if n >= 2**20 and n % 2**20 == 0:
        return f"{n // 2**20:,} MB".replace(",", " ")
    return f"{n:,} bytes".replace(",", " ")




def texto_senal(numero, actual):
    try:
        nombre = signal.Signals(numero).name
    except ValueError:
        nombre = f"número {numero}"
    return (f"el proceso murió por la señal {nombre} {durante(actual)}: tu código lo mató o "
            f"lo rompió (¿os.kill, ctypes, faulthandler?).")


def texto_cpu(cpu, actual):
    return (f"tu código gastó más de {limites.segundos(cpu)} de CPU (el límite de tiempo de CPU "
            f"de cada envío) {durante(actual)}: ¿un bucle que trabaja sin fin?")


def texto_memoria(memoria, actual=None, quien=None, donde=""):
    """The memory limit: said of the process (``actual``: the test running) or, when the
    engine caught the MemoryError, of ``quien`` (the reader's function) ``donde``."""
    cuando = f" {durante(actual)}" if quien is None else ""
    return (f"{quien or 'tu código'} se quedó sin memoria{donde}{cuando}: pasó del límite de "
            f"memoria de cada envío ({_bytes(memoria)}). ¿Una lista que crece sin fin?")


def texto_salida(salida, actual):
    return (f"tu código escribió más de {_bytes(salida)} en la salida del proceso (el límite de "
            f"salida de cada envío) {durante(actual)}: ¿un bucle sin fin que escribe?")


def texto_canal(actual):
    return (f"tu código cerró o cambió el canal por el que el calificador da su resultado "
            f"{durante(actual)}: no toques los descriptores de archivo del proceso.")


def texto_interrumpido(actual):
    return (f"tu código lanzó KeyboardInterrupt {durante(actual)}: aquí nadie lo interrumpe; "
            f"devuelve el resultado con return.")


def texto_roto(excepcion, actual):
    return (f"el calificador falló {durante(actual)} ({excepcion}): no es culpa de tu código, "
            f"o tu código lo rompió.")


_MEMORY_ERROR = re.compile(r"(.*?) lanzó MemoryError( en la línea \d+)?(?: \(dentro de \w+\))?"
                           r"[.:][^\n]*(\n    .*)?", re.S)


def _con_memoria(mensaje, memoria):
    """An engine message «X lanzó MemoryError…» told as the memory limit (None if it is not)."""
    m = _MEMORY_ERROR.fullmatch(mensaje or "")
    if m is None:
        return None
    return texto_memoria(memoria, quien=m.group(1), donde=m.group(2) or "") + (m.group(3) or "")


def nombrar_memoria(r, memoria):
    """``r`` (a result) with each MemoryError of the reader's code told as the memory limit."""
    for p in r["pruebas"]:
        if p["tipo"] == "error" and (texto := _con_memoria(p["mensaje"], memoria)):
            p["mensaje"] = texto
    error = r["error"]
    if error and error["tipo"] == "error" and (texto := _con_memoria(error["mensaje"], memoria)):
        error["mensaje"] = texto
    return r

