"""The wall between the reader's code and the tests, and the guard that puts back what it changed.

The reader's code runs in the same Python as the tests. While it runs it cannot reach them: the
objects it receives do not lead to their namespace (:func:`opaca`, and :mod:`.limpio`), an audit
hook refuses it the stack frames, the garbage collector, code objects and tracing
(``sys._getframe``, ``tb_frame``, ``gi_frame``, ``__code__``, ``gc.get_objects``,
``sys.settrace``, ``sys.addaudithook``…) in its thread and in any it starts (a host's threads that
were running before stay free: a server's thread that prints a traceback meanwhile), the modules
of the engine, the worker and the course are not in ``sys.modules`` (:data:`OCULTOS`), and what it
returns is copied to exact types (:func:`plano`: a list that claims to equal everything does not
pass for a correct M). It is not a safe (the reader owns their browser); it is that the verdict
cannot be fooled.

:class:`Guardia` is the one guard: it snapshots the modules the grader relies on
(:data:`MODULOS`), the standard streams and the recursion limit, and puts them back. The grader
restores after each call of the reader's code; the worker uses the same guard around a check.
"""

import builtins
import copy
import inspect
import io
import json
import operator
import sys
import threading
import time
import traceback
from copy import deepcopy

from . import limpio

#: Audit events the reader's code may not raise while it is graded.
PROHIBIDOS = frozenset({
    "object.__getattr__",  # __code__, tb_frame, gi_frame, cr_frame, ag_frame, gi_code…
    "sys._getframe", "sys._getframemodulename", "sys._current_frames",
    "sys._current_exceptions", "sys.settrace", "sys.setprofile", "sys.addaudithook",
    "sys.monitoring.register_callback", "gc.get_objects", "gc.get_referrers",
    "gc.get_referents", "ctypes.dlopen", "ctypes.dlsym", "ctypes.addressof",
})
if not hasattr(sys, "monitoring"):  # Python 3.11: the watchdog is sys.settrace, which CPython
    PROHIBIDOS -= {"sys.settrace", "sys.setprofile"}  # calls again from inside

#: Top-level names of the modules that lead to the grader, the tests, the worker or the course
#: (a name starting with ``trabajador`` too): out of ``sys.modules`` while the reader's code runs.
OCULTOS = ("calificador", "widgets", "challenges", "trabajador")

#: Modules the grader relies on that the reader's code (or a cell) could change.
MODULOS = (builtins, copy, inspect, io, json, time, traceback)

_MURALLA = [False]
# Threads are kept as their Thread objects, not their idents: an ended thread's ident is given
# to the next one started (a reader's thread could otherwise take a host's ended one's, and be
# free). Bound now: a reader's `threading.current_thread = …` does not reach the wall.
#: The threads that were already running when the wall went up, other than the one it went up in
#: and those started behind it before: not the reader's (a host's server, say), so not behind it.
_LIBRES: set = set()
#: Threads that were started while the wall was up (the reader's, maybe): behind it for good.
_DETRAS: set = set()
_hilo = threading.current_thread
_vivos_ahora = threading.enumerate
_FALTA = object()


def _vivos():
    return set(_vivos_ahora())


class Prohibido(RuntimeError):
    """What the audit hook raises in the reader's code; ``que``, what it tried."""

    def __init__(self, que):
        super().__init__(f"aquí no se puede usar {que}: mientras se califica, tu código solo "
                         f"trabaja con lo que recibe")
        self.que = que


def _auditar(evento, argumentos):
    if _MURALLA[0] and evento in PROHIBIDOS and _hilo() not in _LIBRES:
        raise Prohibido(argumentos[1] if evento == "object.__getattr__" else evento)


sys.addaudithook(_auditar)  # once, when this module is first imported


def _oculto(nombre, modulo):
    raiz = nombre.partition(".")[0]
    if raiz == "__main__":  # `python -m challenges`: a hidden module under another name
        raiz = (getattr(getattr(modulo, "__spec__", None), "name", None) or "").partition(".")[0]
    return raiz in OCULTOS or raiz.startswith("trabajador")


#: Every name :func:`_oculto` can hide starts with one of these.
_PREFIJOS = (*OCULTOS, "trabajador", "__main__")

#: Every name ever seen in ``sys.modules``, and those of them that start with one of
#: :data:`_PREFIJOS`. ``sys.modules`` holds some twelve hundred names in a Sphinx build and the
#: wall goes up and down some 23,000 times in a clean build of this course: looking at each name
#: in Python every time took 12 of its 52 s. Now only the names not seen before are looked at
#: (the new ones are found in C, as a difference of sets).
_VISTOS: set = set()
_CANDIDATOS: set = set()


def _ocultos():
    """The modules in ``sys.modules`` that :func:`_oculto` hides, by name."""
    modulos = sys.modules
    nuevos = modulos.keys() - _VISTOS
    if nuevos:
        _VISTOS.update(nuevos)
        _CANDIDATOS.update(n for n in nuevos if type(n) is str and n.startswith(_PREFIJOS))
    return {n: m for n in tuple(_CANDIDATOS)
            if (m := modulos.get(n, _FALTA)) is not _FALTA and _oculto(n, m)}


class Murado:
    """``with Murado():`` runs the reader's code behind the wall."""

    def __enter__(self):
        self.antes = _MURALLA[0]
        self.libres = set(_LIBRES)
        self.ocultos = _ocultos()
        for n in self.ocultos:
            del sys.modules[n]
        if not self.antes:
            vivos = _vivos()
            _DETRAS.intersection_update(vivos)  # the ended ones are let go
            _LIBRES.clear()
            _LIBRES.update(vivos - _DETRAS - {_hilo()})
        _MURALLA[0] = True

    def __exit__(self, *_):
        _MURALLA[0] = self.antes
        if not self.antes:
            _DETRAS.update(_vivos() - _LIBRES - {_hilo()})
        _LIBRES.clear()
        _LIBRES.update(self.libres)
        for n in _ocultos():  # what the reader imported again, fresh
            del sys.modules[n]
        sys.modules.update(self.ocultos)


class Abierto:
    """``with Abierto():`` the tests' code the reader calls (a model) runs without the wall,
    which goes up again when it returns."""

    def __enter__(self):
        self.antes = _MURALLA[0]
        _MURALLA[0] = False

    def __exit__(self, *_):
        _MURALLA[0] = self.antes


class Guardia:
    """What the reader could change and the grader uses (:data:`MODULOS`, the standard streams,
    the recursion limit), as it was when the guard was made; :meth:`restaurar` puts it back, as
    often as needed. Values are compared by identity: an object that claims to equal
    everything does not stay."""

    def __init__(self, modulos=MODULOS):
        self.modulos = [(m, dict(vars(m))) for m in modulos]
        self.flujos = (sys.stdout, sys.stderr, sys.stdin)
        self.recursion = sys.getrecursionlimit()

    def restaurar(self):
        sys.stdout, sys.stderr, sys.stdin = self.flujos
        sys.setrecursionlimit(self.recursion)
        for modulo, antes in self.modulos:
            poner(vars(modulo), antes)


def intacto(ahora, antes):
    """Whether namespace ``ahora`` holds the very names and objects of ``antes``, in order
    (looked at in C, by identity: no reader's ``__eq__`` runs here)."""
    return (len(ahora) == len(antes) and all(map(operator.is_, ahora.values(), antes.values()))
            and all(map(operator.is_, ahora, antes)))


def poner(espacio, antes):
    """Put namespace ``espacio`` back as ``antes`` (a copy of it): names added are removed,
    names changed put back, compared by identity."""
    if intacto(espacio, antes):
        return
    for nombre in [n for n in espacio if n not in antes]:
        del espacio[nombre]
    for nombre, valor in antes.items():
        if espacio.get(nombre, _FALTA) is not valor:
            espacio[nombre] = valor


# ------------------------------------------------------------ what crosses the wall

_ATOMOS = (str, int, float, bool, bytes, type(None))


def limpia(error):
    """A copy of ``error`` that does not lead to the tests: its arguments (if they are data) or
    its message, in an exception of a Python type (or of a new one, without methods, with the
    same name)."""
    tipo = type(error)
    base = next(t for t in tipo.__mro__ if t.__module__ == "builtins")
    argumentos = error.args if type(error.args) is tuple else ()
    if not all(type(a) in _ATOMOS for a in argumentos):
        try:
            argumentos = (str(error),)
        except Exception:  # noqa: BLE001 - a broken __str__: the name is enough
            argumentos = ()
    if tipo is not base:
        base = type(tipo.__name__, (base,), {"__module__": "calificador"})
    try:
        return base(*argumentos)
    except TypeError:  # a Python exception with other arguments (UnicodeError…)
        return RuntimeError(*argumentos[:1])


def opaca(funcion, nombre=None):
    """``funcion``, to hand to the reader: it calls ``funcion`` without the wall and returns a
    copy of what it returns (or a clean copy of what it raises); from the one it gets, the
    reader does not reach ``funcion``, its variables or its namespace."""
    def canal():
        pedido = yield
        while True:
            argumentos, nombrados = pedido
            try:
                with Abierto():
                    respuesta = (True, deepcopy(funcion(*argumentos, **nombrados)))
            except BaseException as e:  # noqa: BLE001 - raised, clean, in the reader
                respuesta = (False, limpia(e))
            pedido = yield respuesta

    generador = canal()
    next(generador)
    return limpio.opaca(generador.send, nombre or getattr(funcion, "__name__", "funcion"))


def murada(funcion, nombre=None):
    """The reader's ``funcion`` (a model, a ``preguntar`` they pass to the tests' code through an
    opaque function), to be called from that code, which runs without the wall: it runs behind
    the wall again, on copies of its arguments, and what it returns is copied with exact types
    (:func:`plano`). What it raises goes through: the opaque function that called the tests'
    code hands the reader a clean copy of it (see :func:`opaca`)."""
    def del_lector(*argumentos, **nombrados):
        argumentos, nombrados = deepcopy(argumentos), deepcopy(nombrados)
        antes = _MURALLA[0]
        _MURALLA[0] = True
        try:
            valor = funcion(*argumentos, **nombrados)
        finally:
            _MURALLA[0] = antes
        return plano(valor)

    del_lector.__name__ = nombre or "funcion"
    return del_lector


class Ajeno:
    """What is left, in what the reader returned, of an object that is not of an exact Python
    type (a subclass of list that claims to equal everything, say): it equals nothing."""

    def __init__(self, tipo):
        self.tipo = tipo

    def __eq__(self, otro):
        return otro is self

    def __ne__(self, otro):
        return otro is not self

    __hash__ = object.__hash__

    def __repr__(self):
        return f"<un objeto de tipo {self.tipo}>"


def plano(valor, _vistos=None):
    """``valor`` copied with exact types only (str, numbers, None, lists, tuples, dicts);
    anything else is left as an :class:`Ajeno`."""
    tipo = type(valor)
    if tipo in _ATOMOS:
        return valor
    if tipo not in (list, tuple, dict):
        return Ajeno(tipo.__name__)
    vistos = set() if _vistos is None else _vistos
    if id(valor) in vistos or len(vistos) > 100_000:
        return Ajeno(f"{tipo.__name__} que se contiene a sí misma")
    vistos.add(id(valor))
    try:
        if tipo is dict:
            return {_clave(k): plano(v, vistos) for k, v in valor.items()}
        copia = [plano(v, vistos) for v in valor]
        return copia if tipo is list else tuple(copia)
    except RecursionError:
        return Ajeno(f"{tipo.__name__} demasiado anidada")
    finally:
        vistos.discard(id(valor))


def _clave(k):
    p = plano(k)
    return p if type(p) in _ATOMOS or type(p) is tuple else repr(p)


def aplanar_en_su_sitio(argumentos):
    """The lists and dicts the reader got (and could change), made exact types, in place: the
    test looks at them afterwards."""
    for a in argumentos:
        if type(a) is list:
            a[:] = plano(a)
        elif type(a) is dict:
            p = plano(a)
            a.clear()
            a.update(p)


def para_el_lector(argumentos):
    """A test's arguments, with each function made opaque (see :func:`opaca`)."""
    return tuple(opaca(a) if callable(a) and not isinstance(a, type) else a for a in argumentos)
