"""The Python half of the page's worker: the shared namespace of the cells, and how code runs.

``open_url`` in the reader's namespace is Pyodide's ``pyodide.http.open_url``, with one change:
a relative URL is resolved against the page, as a link in the page would be, so that the line a
lesson shows (``open_url("runtime/entorno.py")``) fetches the file the page links to.

A cell runs under the file name ``<celda N>`` (N: its number on the page), so that errors can
be told in the reader's terms: only frames of cells are shown, as «Celda N, línea L». Nothing
here raises to the caller: how the code ended is returned as a small dict.

A challenge's «Comprobar» calls ``calificar_desafio``, which runs the challenge's grader
(challenges/calificador.py, fetched from the site) and keeps it loaded between checks.
"""

import builtins
import copy
import inspect
import io
import json
import linecache
import re
import sys
import time
import traceback
from urllib.parse import urljoin

try:
    import signal as _signal
except ImportError:  # a Python without signals: a stop is always the page's
    _signal = None

try:
    from pyodide.http import open_url as _open_url
except ImportError:  # CPython (the unit tests): no network here
    def _open_url(url):
        raise OSError(f"open_url no está disponible fuera del navegador: {url}")

PAGINA = ""
ESPACIO = {}
_CELDA = re.compile(r"^<celda (\d+)>$")

SIN_ENTRADA = (
    "input() no puede leer del teclado en esta página. Escribe el valor directamente en el "
    'código, por ejemplo: nombre = "Ada"'
)


class EntradaNoDisponible(Exception):
    """What ``input()`` and ``sys.stdin`` raise in a cell: there is no keyboard to read."""


EntradaNoDisponible.__module__ = "builtins"  # shown as «EntradaNoDisponible: …», like a built-in


def _input(prompt=""):
    if prompt:
        sys.stdout.write(str(prompt))
        sys.stdout.write("\n")
    raise EntradaNoDisponible(SIN_ENTRADA)


class _SinEntrada(io.TextIOBase):
    """``sys.stdin`` of the cells: reading says why it cannot, instead of an ``OSError``."""

    def readable(self):
        return True

    def read(self, *args):
        raise EntradaNoDisponible(SIN_ENTRADA)

    readline = read


#: Files of the site the page's cells read, fetched by the worker while the page was idle
#: (``precargado``): absolute URL → text. ``open_url`` serves them without a request.
PRECARGADOS = {}


def open_url(url):
    """Pyodide's ``open_url``, resolving a relative URL against the page (from
    ``PRECARGADOS`` when the worker already fetched it)."""
    completa = urljoin(PAGINA, url)
    if completa in PRECARGADOS:
        return io.StringIO(PRECARGADOS[completa])
    return _open_url(completa)


def precargado(url, texto):
    """Keep ``texto``, the content of ``url`` (relative to the page), for ``open_url``."""
    PRECARGADOS[urljoin(PAGINA, str(url))] = str(texto)


def preparar(pagina):
    """Remember the page's URL, take over the keyboard input and start an empty namespace."""
    global PAGINA
    PAGINA = str(pagina)
    builtins.input = _input
    sys.stdin = _SinEntrada()
    reiniciar()


def reiniciar():
    ESPACIO.clear()
    ESPACIO.update({"__name__": "__main__", "__builtins__": builtins, "open_url": open_url})


def _registrar(nombre, codigo):
    # So that tracebacks can show the reader's own lines.
    linecache.cache[nombre] = (len(codigo), None, codigo.splitlines(True), nombre)


def ejecutar(codigo, nombre="<celda>"):
    """Run ``codigo`` in the page's namespace; report how it ended, never raise.

    ``{"estado": "ok"}``, ``{"estado": "error", "tipo": …}`` (the traceback went to stderr),
    ``{"estado": "salida", "codigo": int | None}`` (``sys.exit``) or ``{"estado": "detenido"}``.
    """
    _registrar(nombre, codigo)
    try:
        exec(compile(codigo, nombre, "exec"), ESPACIO)
    except SystemExit as salida:
        codigo_salida = salida.code
        if codigo_salida is not None and not isinstance(codigo_salida, int):
            sys.stderr.write(f"{codigo_salida}\n")  # as CPython does with sys.exit("mensaje")
            codigo_salida = 1
        return {"estado": "salida", "codigo": codigo_salida}
    except KeyboardInterrupt:
        return {"estado": "detenido"}
    except BaseException as error:  # the reader's error is an observation, not the worker's
        sys.stderr.write(rastreo_del_lector(error))
        return {"estado": "error", "tipo": type(error).__name__}
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    return {"estado": "ok"}


def rastreo_del_lector(error):
    """The traceback of ``error`` in the reader's terms: only the frames of cells."""
    return "".join(_formatear(traceback.TracebackException.from_exception(error)))


def _celda(nombre):
    coincide = _CELDA.match(nombre or "")
    return coincide.group(1) if coincide else None


def _nombre_del_tipo(te):
    return getattr(te, "exc_type_str", None) or te.exc_type.__qualname__


def _formatear(te):
    partes = []
    if te.__cause__ is not None:
        partes += _formatear(te.__cause__)
        partes.append("\nEsa excepción causó esta otra:\n\n")
    elif te.__context__ is not None and not te.__suppress_context__:
        partes += _formatear(te.__context__)
        partes.append("\nMientras se atendía esa excepción, ocurrió esta otra:\n\n")

    marcos = [marco for marco in te.stack if _celda(marco.filename)]
    if marcos:
        partes.append("Rastreo (la llamada más reciente, al final):\n")
    for marco in marcos:
        donde = f"  Celda {_celda(marco.filename)}, línea {marco.lineno}"
        if marco.name != "<module>":
            donde += f", en {marco.name}"
        partes.append(donde + "\n")
        if marco.line:
            partes.append(f"    {marco.line.strip()}\n")

    celda = _celda(getattr(te, "filename", None))  # only a SyntaxError has a filename
    if celda:
        partes += _sintaxis(te, celda)
    else:
        partes += list(te.format_exception_only())
    return partes


def _sintaxis(te, celda):
    """A SyntaxError in a cell: where, the line, a caret under the fault, the message."""
    partes = [f"  Celda {celda}, línea {te.lineno}\n"]
    texto = (te.text or "").rstrip("\n")
    if texto.strip():
        sangria = len(texto) - len(texto.lstrip())
        partes.append(f"    {texto.strip()}\n")
        if te.offset:
            inicio = max(te.offset - 1 - sangria, 0)
            fin = inicio + 1
            if getattr(te, "end_lineno", None) == te.lineno and te.end_offset and te.end_offset > te.offset:
                fin = te.end_offset - 1 - sangria
            partes.append("    " + " " * inicio + "^" * max(fin - inicio, 1) + "\n")
    partes.append(f"{_nombre_del_tipo(te)}: {te.msg}\n")
    return partes


# ---------------------------------------------------------------- challenges
#
# ``calificar_desafio`` is what a challenge's «Comprobar» calls. The grader is loaded once per
# worker, the way challenges/calificador.py documents (its text exec'd in a namespace that has
# this module's ``open_url``), and kept: it caches the files it fetched and the tests it built,
# so a second check fetches nothing. Grading tells the page how it goes at once, in messages
# that do not wait for the end of the call (see ``_avisar``), so that the page's own watchdog
# knows which test is running and what the finished ones gave.

_DESAFIOS = {"clave": None, "ns": None, "trazas": None, "esperadas": {}, "bucles": {}}

# The grader and the cells share this Python. What the grader relies on is put back as it was
# when the worker started (before any reader's code) for each check, and the cells' version is
# restored after it: a cell's ``len = lambda x: 0`` in builtins, or its ``copy.deepcopy = …``,
# must not change a verdict (nor the check «fix» the cell's world). Builtins include ``input``,
# which the cells replace (see ``preparar``) and the grader needs as it is.
_LIMPIOS = [(m, dict(vars(m))) for m in (builtins, copy, inspect, io, json, time, traceback)]
_RECURSION = sys.getrecursionlimit()
_FALTA = object()

#: The signature of the functions «Ver tu traza» can record (challenges/trazas.py: agent loops).
_FIRMA_BUCLE = ["modelo", "inicio", "entorno", "tope"]


def _avisar(**datos):
    """Post ``{"type": "progreso", "fase": "desafio", **datos}`` to the page now (python.js
    dispatches it as a "progreso" event). Outside a worker (CPython tests), nothing."""
    try:
        import js
    except ImportError:
        return
    js.postMessage(js.JSON.parse(json.dumps({"type": "progreso", "fase": "desafio", **datos})))


def _calificador(url, desafios, runtime):
    """The grader's namespace for these URLs, loaded the first time and kept."""
    clave = (url, desafios, runtime)
    if _DESAFIOS["clave"] != clave:
        ns = {"__name__": "calificador", "open_url": open_url}
        exec(compile(open_url(url).read(), "calificador.py", "exec"), ns)
        ns["fuentes"](desafios=desafios, runtime=runtime)
        _DESAFIOS.update(clave=clave, ns=ns, trazas=None, esperadas={}, bucles={})
    return _DESAFIOS["ns"]


def _trazador(url):
    """``trazar`` of challenges/trazas.py, fetched from ``url`` once; None if it is not there
    (the checks still work, without «Ver tu traza»)."""
    if _DESAFIOS["trazas"] is None:
        ns = {"__name__": "trazas"}
        try:
            exec(compile(open_url(url).read(), "trazas.py", "exec"), ns)
            _DESAFIOS["trazas"] = ns["trazar"]
        except Exception:  # noqa: BLE001 - open_url does not check the status: a 404 page lands here
            _DESAFIOS["trazas"] = False
    return _DESAFIOS["trazas"] or None


def _bucle(ns, desafio):
    """The name of the function the reader writes, if it is an agent loop; else None."""
    if desafio not in _DESAFIOS["bucles"]:
        escribir = ns["datos"](desafio)["a_escribir"]
        nombres = [n for n, p in escribir.items() if list(p) == _FIRMA_BUCLE]
        _DESAFIOS["bucles"][desafio] = nombres[0] if len(escribir) == 1 and nombres else None
    return _DESAFIOS["bucles"][desafio]


def _esperada(ns, trazar, desafio, nombre, solucion):
    """The trace of the reference solution on the arguments of test ``nombre`` (kept)."""
    clave = (desafio, nombre, solucion)
    if clave not in _DESAFIOS["esperadas"]:
        referencia = ns["preparar"](desafio, solucion).funcion(_bucle(ns, desafio))
        _DESAFIOS["esperadas"][clave] = trazar(referencia, *ns["argumentos"](desafio, nombre))
    return _DESAFIOS["esperadas"][clave]


def _poner(estado):
    """Put modules back as ``estado`` (from ``_LIMPIOS`` or ``_estado()``) holds them."""
    for modulo, antes in estado:
        ahora = vars(modulo)
        for nombre in [n for n in ahora if n not in antes]:
            del ahora[nombre]
        for nombre, valor in antes.items():
            if ahora.get(nombre, _FALTA) is not valor:
                ahora[nombre] = valor


class _Parada:
    """Whether the page asked to stop: its interrupt (SIGINT) goes through ``_al_interrumpir``;
    a KeyboardInterrupt the reader raises does not."""

    pedida = False


def _al_interrumpir(signum, frame):
    _Parada.pedida = True
    raise KeyboardInterrupt


def calificar_desafio(calificador, desafios, runtime, trazas, desafio, codigo, solucion="", ficha=""):
    """Grade ``codigo`` with the tests of ``desafio``; return the result as JSON text.

    The URLs (relative to the page, or absolute) are those of the grader, of the folder with
    ``<desafio>/pruebas.py``, of the runtime and of challenges/trazas.py. The result is the
    grader's (``calificar``) with ``"estado": "ok"``; for each failed test of a loop challenge,
    ``"traza"`` is ``{"tuya": trace, "esperada": trace}``: the reader's run of that test and the
    reference ``solucion``'s run of the same arguments (``"esperada"`` is null if that fails).
    Stopped by the page (its interrupt): ``{"estado": "detenido", "prueba": name | null}``. A
    KeyboardInterrupt the reader's code raises is the reader's error instead (the grader stops at
    any KeyboardInterrupt): the test running gets it as its verdict, the rest are not tried.

    While it runs, the page gets (each with ``ficha``, so that a widget knows its own):
    ``{"evento": "empieza"}`` once the grader is loaded, ``{"evento": "prueba", "nombre"}``
    before each test and ``{"evento": "resultado", "resultado"}`` after it (without its trace).
    """
    actual = {"nombre": None, "hechas": []}
    de_las_celdas = [(m, dict(vars(m))) for m, _ in _LIMPIOS]
    recursion = sys.getrecursionlimit()
    _Parada.pedida = False
    try:
        previo = _signal.signal(_signal.SIGINT, _al_interrumpir)
    except (AttributeError, ValueError, OSError):  # no signals here: any interrupt is the page's
        previo = _FALTA
    try:
        _poner(_LIMPIOS)
        sys.setrecursionlimit(_RECURSION)
        return _calificar(calificador, desafios, runtime, trazas, desafio, codigo, solucion, ficha,
                          actual)
    except KeyboardInterrupt as error:  # the page stopped it, maybe before or after the tests
        if _Parada.pedida or previo is _FALTA:
            return json.dumps({"estado": "detenido", "prueba": actual["nombre"]})
        return json.dumps(_lo_lanzo_el_lector(error, desafio, codigo, actual), ensure_ascii=False)
    finally:
        if previo is not _FALTA:
            _signal.signal(_signal.SIGINT, previo)
        _poner(de_las_celdas)
        sys.setrecursionlimit(recursion)


def _lo_lanzo_el_lector(error, desafio, codigo, actual):
    """The result of a check the reader's own ``raise KeyboardInterrupt`` cut short (same shape
    as the grader's): the tests done keep their result, the one running gets the error."""
    ns = _DESAFIOS["ns"]
    nombres = ns["nombres"](desafio)
    lineas = [linea for marco, linea in traceback.walk_tb(error.__traceback__)
              if marco.f_code.co_filename == ns["ARCHIVO"]]
    linea = lineas[-1] if lineas else None
    donde = f" en la línea {linea}" if linea else ""
    texto = codigo.splitlines()[linea - 1].strip() if linea and linea <= len(codigo.splitlines()) else ""
    cita = f"\n    {texto}" if texto else ""
    hechas = {r["nombre"]: r for r in actual["hechas"]}
    corriendo = actual["nombre"]
    error_de_carga = None
    if corriendo is None:
        error_de_carga = {"tipo": "error", "linea": linea,
                          "mensaje": f"Tu código lanzó KeyboardInterrupt{donde}.{cita}"}
    quien = next(iter(ns["datos"](desafio)["a_escribir"]), "Tu código")
    pruebas = []
    for nombre in nombres:
        if nombre in hechas:
            pruebas.append(hechas[nombre])
            continue
        r = {"nombre": nombre, "ok": False, "tipo": "no-probada", "linea": None, "turno": None,
             "salida": "", "traza": None}
        if nombre == corriendo:
            r.update(tipo="error", linea=linea, mensaje=f"{quien} lanzó KeyboardInterrupt{donde}.{cita}")
        elif corriendo is None:
            r["mensaje"] = "no se probó: tu código no se pudo cargar" + (f" (línea {linea})" if linea else "")
        else:
            r["mensaje"] = f"no se probó: «{corriendo}» lanzó KeyboardInterrupt"
        pruebas.append(r)
    return {"desafio": desafio, "superadas": sum(1 for r in pruebas if r["ok"]),
            "total": len(pruebas), "segundos": None, "error": error_de_carga, "pruebas": pruebas,
            "estado": "ok"}


def _calificar(calificador, desafios, runtime, trazas, desafio, codigo, solucion, ficha, actual):
    ns = _calificador(calificador, desafios, runtime)
    trazar = _trazador(trazas) if solucion and _bucle(ns, desafio) else None

    def al_empezar(nombre):
        actual["nombre"] = nombre
        _avisar(ficha=ficha, evento="prueba", nombre=nombre)

    def al_acabar(resultado):
        actual["hechas"].append(resultado)
        _avisar(ficha=ficha, evento="resultado",
                resultado={k: v for k, v in resultado.items() if k != "traza"})

    def traza(funcion, *argumentos):
        tuya = trazar(funcion, *argumentos)
        try:
            esperada = _esperada(ns, trazar, desafio, actual["nombre"], solucion)
        except Exception:  # noqa: BLE001 - without the expected run, the reader's still shows
            esperada = None
        return {"tuya": tuya, "esperada": esperada}

    _avisar(ficha=ficha, evento="empieza")
    resultado = ns["calificar"](desafio, codigo, al_empezar=al_empezar, al_acabar=al_acabar,
                                traza=traza if trazar else None)
    resultado["estado"] = "ok"
    return json.dumps(resultado, ensure_ascii=False)
