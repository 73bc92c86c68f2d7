"""How long and how much the reader's code may run and write, the watchdog that enforces it, and
the one formatter of those limits in Spanish (nothing else formats them: the command and the
page take their texts from here).
"""

import sys
from time import perf_counter  # bound: a reader's `time.perf_counter = …` cannot stop the watchdog

from .muralla import Abierto

#: Seconds each test may take.
LIMITE = 2.0
#: Characters the reader's code may write in one test before it is stopped.
TOPE_SALIDA = 100_000
#: Characters of that output kept in the result.
SALIDA_GUARDADA = 2_000


class SinTiempo(BaseException):
    """Raised in the reader's code past the limit (a BaseException: ``except Exception`` does
    not stop it)."""


class Inundacion(BaseException):
    """Raised in the reader's print that goes past the output cap."""


def segundos(s):
    """``2.0`` → «2 s», ``2.5`` → «2,5 s»."""
    return f"{s:g} s".replace(".", ",")


def sin_tiempo(quien, limite, iba=""):
    """The verdict's text for code that did not end in ``limite`` seconds (``quien`` is the
    reader's function, or «Tu código» while it loads); ``iba`` ends it."""
    if quien == "Tu código":
        return (f"Tu código no terminó de cargarse en {segundos(limite)}: ¿un bucle sin fin "
                f"fuera de las funciones?{iba}")
    return f"{quien} no terminó en {segundos(limite)}: ¿falta el tope?{iba}"


def no_se_dejo_detener(quien, limite):
    """The text when code outlived the limit and the watchdog too (the command's clock, the
    page's): the same as :func:`sin_tiempo`, saying so."""
    return sin_tiempo(quien, limite, " (y no se dejó detener)")


def inundacion(quien, donde="", cita=""):
    """The verdict's text for code that wrote more than :data:`TOPE_SALIDA` characters."""
    miles = f"{TOPE_SALIDA:,}".replace(",", " ")
    return (f"{quien} escribió más de {miles} caracteres{donde}: ¿un print dentro de un bucle "
            f"sin fin?{cita}")


def codigos(codigo):
    """A code object and all those nested in it: functions, lambdas, classes, generators."""
    yield codigo
    for constante in codigo.co_consts:
        if hasattr(constante, "co_code"):
            yield from codigos(constante)


class Vigia:
    """Watches the time of the reader's code (the code objects ``codigos`` of file ``archivo``);
    ``agotado`` says whether it went past the limit.

    With sys.monitoring (3.12+, and so Pyodide) events are enabled only on the reader's code
    objects, and they stay enabled even if the reader catches the exception: an ``except
    BaseException`` inside an endless loop is stopped too. With sys.settrace (3.11) the trace is
    lost if the reader catches the exception; for that case the command keeps its own clock.
    """

    def __init__(self, codigos, archivo):
        self.codigos = list(codigos)
        self.archivo = archivo
        self.fin = float("inf")
        self.agotado = False
        self._herramienta = None
        self._traza_previa = None

    def _mira(self, *_):
        if perf_counter() > self.fin:
            self.agotado = True
            raise SinTiempo

    def _local(self, frame, evento, arg):
        self._mira()
        return self._local

    def _global(self, frame, evento, arg):
        with Abierto():  # f_code is an audit event
            archivo = frame.f_code.co_filename
        if archivo == self.archivo:
            self._mira()
            return self._local
        return None

    def armar(self, limite):
        self.fin = perf_counter() + limite
        self.agotado = False
        monitoring = getattr(sys, "monitoring", None)
        if monitoring is not None:
            libres = [i for i in (3, 4, 1, 5) if monitoring.get_tool(i) is None]
            if libres:
                self._herramienta = h = libres[0]
                monitoring.use_tool_id(h, "calificador")
                eventos = monitoring.events.JUMP | monitoring.events.PY_START
                monitoring.register_callback(h, monitoring.events.JUMP, self._mira)
                monitoring.register_callback(h, monitoring.events.PY_START, self._mira)
                for codigo in self.codigos:
                    monitoring.set_local_events(h, codigo, eventos)
                return
        self._traza_previa = sys.gettrace()
        sys.settrace(self._global)

    def desarmar(self):
        self.fin = float("inf")
        h, self._herramienta = self._herramienta, None
        if h is not None:
            monitoring = sys.monitoring
            for codigo in self.codigos:
                monitoring.set_local_events(h, codigo, 0)
            monitoring.register_callback(h, monitoring.events.JUMP, None)
            monitoring.register_callback(h, monitoring.events.PY_START, None)
            monitoring.free_tool_id(h)
        else:
            sys.settrace(self._traza_previa)
