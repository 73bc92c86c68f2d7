"""The grading half of the page's worker: what a challenge's «Comprobar» runs.

The engine is the package ``calificador`` (``widgets/calificador/``, carried by the worker:
``lib/calificador.js``), written into Pyodide's file system beside this module and imported from
there. One ``Calificador`` is kept per set of URLs (the challenge's tests and the runtime): it
caches the files it read and the tests it built, so a second check fetches nothing.

The cells share this Python. The engine's guard (``muralla.Guardia``), taken by ``guardar`` as
the worker starts, before any cell runs, puts back what the grader relies on for each check (a
cell's ``len = lambda x: 0`` in builtins, its ``copy.deepcopy = …``, its ``input``), and the
cells' own version is put back after it: a cell cannot change a verdict, nor a check «fix» the
cells' world.

While a check runs, the page hears how it goes at once, in messages that do not wait for the end
of the call (``_avisar``), so that its watchdog knows which test is running and what the
finished ones gave. The page builds a result itself only when that watchdog stops the worker.
"""

import functools
import importlib
import json

try:  # the build and the tests: widgets.trabajador
    from .trabajador import avisar
except ImportError:  # the worker: the halves side by side, top-level modules
    from trabajador import avisar

try:
    import signal as _signal
except ImportError:  # a Python without signals: a stop is always the page's
    _signal = None

#: The engine's package name (the CPython tests import it as ``widgets.calificador``).
PAQUETE = "calificador"

#: The signature of the functions «Ver tu traza» can record (the engine's trazas.py: agent loops).
_FIRMA_BUCLE = ["modelo", "inicio", "entorno", "tope"]
_FALTA = object()

_open_url = None  # the cells half's open_url (relative URLs resolved against the page)
_ESTADO = {"Guardia": None, "guardia": None, "clave": None, "calificador": None, "esperadas": {},
           "bucles": {}}


def _modulo(nombre=""):
    return importlib.import_module(PAQUETE + (f".{nombre}" if nombre else ""))


def preparar(open_url):
    """Read the site's files with ``open_url`` (the cells half's, resolving against the page)."""
    global _open_url
    _open_url = open_url


def guardar():
    """The engine's guard of what a check relies on, taken the first time: the worker calls this
    as it starts, before any cell runs, once the engine's files are in place. (Taken at the first
    check instead when the worker started without them: then it holds what the cells left.)"""
    if _ESTADO["guardia"] is None:
        _ESTADO["Guardia"] = _modulo("muralla").Guardia
        _ESTADO["guardia"] = _ESTADO["Guardia"]()
    return _ESTADO["guardia"]


def _de_las_celdas():
    """A guard of the cells' world as it is now, to put back after a check. (No import, no
    JSON: a cell may have broken what those use.)"""
    guardar()
    return _ESTADO["Guardia"]()


#: Post ``{"id", "type": "calificacion", **datos}`` to the page now (python.js hands it to the
#: request's ``alCalificar``): the cells half's ``avisar``.
_avisar = functools.partial(avisar, "calificacion")


def _calificador(urls, runtime_modulos):
    """The engine for these URLs, made the first time and kept."""
    clave = (urls["desafios"], urls["runtime"], tuple(runtime_modulos))
    if _ESTADO["clave"] != clave:
        c = _modulo().Calificador(lambda url: _open_url(url).read(), desafios=urls["desafios"],
                                  runtime=urls["runtime"], runtime_modulos=runtime_modulos)
        _ESTADO.update(clave=clave, calificador=c, esperadas={}, bucles={})
    return _ESTADO["calificador"]


def _trazador():
    """``trazar`` of the engine's trace recorder; None without it (no «Ver tu traza»)."""
    try:
        return _modulo("trazas").trazar
    except ImportError:
        return None


def _bucle(c, desafio):
    """The name of the function the reader writes, if it is an agent loop; else None."""
    if desafio not in _ESTADO["bucles"]:
        escribir = c.a_escribir(desafio)
        nombres = [n for n, p in escribir.items() if list(p) == _FIRMA_BUCLE]
        _ESTADO["bucles"][desafio] = nombres[0] if len(escribir) == 1 and nombres else None
    return _ESTADO["bucles"][desafio]


def _esperada(c, trazar, desafio, nombre, solucion):
    """The trace of the reference solution on the arguments of test ``nombre`` (kept)."""
    clave = (desafio, nombre, solucion)
    if clave not in _ESTADO["esperadas"]:
        referencia = c.preparar(desafio, solucion).funcion(_bucle(c, desafio))
        _ESTADO["esperadas"][clave] = trazar(referencia, *c.argumentos(desafio, nombre))
    return _ESTADO["esperadas"][clave]


class _Parada:
    """Whether the page asked to stop: its interrupt (SIGINT) goes through ``_al_interrumpir``;
    a KeyboardInterrupt the reader raises does not."""

    pedida = False


def _al_interrumpir(signum, frame):
    _Parada.pedida = True
    raise KeyboardInterrupt


def calificar_mensaje(texto):
    """The worker's entry point: ``texto`` is the page's message as JSON (see ``calificar``),
    read once what a check relies on is put back (a cell may have broken ``len``)."""
    de_las_celdas = _de_las_celdas()
    try:
        guardar().restaurar()
        m = json.loads(texto)
        return calificar(m["id"], m["desafio"], m["codigo"], m.get("solucion") or "", m["urls"],
                         m.get("runtime_modulos") or ())
    finally:
        de_las_celdas.restaurar()


def calificar(id, desafio, codigo, solucion, urls, runtime_modulos):
    """Grade ``codigo`` with the tests of ``desafio``; return the answer as JSON text.

    ``urls`` are the widget's: ``desafios`` (the folder with ``<desafio>/pruebas.py``) and
    ``runtime``, relative to the page or absolute. The answer is ``{"estado": "ok",
    "resultado": <the engine's result>}``; for each failed test of a loop challenge, its
    ``"traza"`` is ``{"tuya": trace, "esperada": trace}``: the reader's run of that test and the
    reference ``solucion``'s run of the same arguments (``"esperada"`` is null if that fails).
    Stopped by the page (its interrupt): ``{"estado": "detenido", "prueba": name | null}``. A
    KeyboardInterrupt the reader's code raises is the reader's error instead (the engine stops
    at any KeyboardInterrupt): the test running gets it as its verdict, the rest are not tried.

    While it runs, the page gets (each with the request's ``id``): ``{"evento": "empieza"}``
    once the engine is loaded, ``{"evento": "prueba", "nombre"}`` before each test and
    ``{"evento": "resultado", "resultado"}`` after it (without its trace).
    """
    de_las_celdas = _de_las_celdas()
    actual = {"nombre": None, "hechas": {}}
    _Parada.pedida = False
    try:
        previo = _signal.signal(_signal.SIGINT, _al_interrumpir)
    except (AttributeError, ValueError, OSError):  # no signals here: any interrupt is the page's
        previo = _FALTA
    try:
        guardar().restaurar()
        resultado = _calificar(id, desafio, codigo, solucion, urls, runtime_modulos, actual)
    except KeyboardInterrupt as error:  # the page stopped it, maybe before or after the tests
        if _Parada.pedida or previo is _FALTA:
            return json.dumps({"estado": "detenido", "prueba": actual["nombre"]})
        resultado = _lo_lanzo_el_lector(error, desafio, codigo, actual)
    finally:
        if previo is not _FALTA:
            _signal.signal(_signal.SIGINT, previo)
        de_las_celdas.restaurar()
    return json.dumps({"estado": "ok", "resultado": resultado}, ensure_ascii=False)


def _lo_lanzo_el_lector(error, desafio, codigo, actual):
    """The result of a check the reader's own ``raise KeyboardInterrupt`` cut short: the tests
    done keep their result, the one running gets the error (the engine's builders)."""
    c = _ESTADO["calificador"]
    corriendo = actual["nombre"]
    quien = "Tu código" if corriendo is None else next(iter(c.a_escribir(desafio)), "Tu código")
    veredicto = _modulo("veredictos").veredicto(error, codigo, quien, False, False, _modulo().LIMITE)
    if corriendo is None:
        motivo = _modulo("resultado").sin_cargar(veredicto.datos["linea"])
    else:
        motivo = f"«{corriendo}» lanzó KeyboardInterrupt"
    return c.cortado(desafio, actual["hechas"], corriendo, veredicto, motivo)


def _calificar(id, desafio, codigo, solucion, urls, runtime_modulos, actual):
    c = _calificador(urls, runtime_modulos)
    trazar = _trazador() if solucion and _bucle(c, desafio) else None

    def al_empezar(nombre):
        actual["nombre"] = nombre
        _avisar(id, evento="prueba", nombre=nombre)

    def al_acabar(prueba):
        actual["hechas"][prueba["nombre"]] = prueba
        _avisar(id, evento="resultado", resultado={k: v for k, v in prueba.items() if k != "traza"})

    def traza(funcion, *argumentos):
        tuya = trazar(funcion, *argumentos)
        try:
            esperada = _esperada(c, trazar, desafio, actual["nombre"], solucion)
        except Exception:  # noqa: BLE001 - without the expected run, the reader's still shows
            esperada = None
        return {"tuya": tuya, "esperada": esperada}

    _avisar(id, evento="empieza")
    return c.calificar(desafio, codigo, al_empezar=al_empezar, al_acabar=al_acabar,
                       traza=traza if trazar else None)
