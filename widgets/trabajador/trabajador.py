"""The cells half of the page's worker: the shared namespace of the cells, and how code runs.
(Its grading half, a challenge's «Comprobar», is ``trabajador_desafios.py``.)

``open_url`` in the reader's namespace is Pyodide's ``pyodide.http.open_url``, with one change:
a relative URL is resolved against the page, as a link in the page would be, so that the line a
lesson shows (``open_url("runtime/entorno.py")``) fetches the file the page links to.

A cell runs under the file name ``<celda N>`` (N: its number on the page), so that errors can
be told in the reader's terms: only frames of cells are shown, as «Celda N, línea L». Nothing
here raises to the caller: how the code ended is returned as a small dict.

Python can wait for the reader (``preguntar_en_la_pagina``, ``input()``, ``sys.stdin``) when
the page is cross-origin isolated: the worker hands :func:`preparar` the JS module
``_bucle_pagina``, whose ``esperar`` shows the question in the running cell's output and blocks
until the reader answers (trabajador.js, lib/espera.js). Where the page cannot wait (not isolated,
while a challenge is graded, outside the browser) a question returns None and ``input()`` says
why it cannot read.

The course's model (lesson «El bucle con un modelo real»): ``url_del_modelo()`` is the absolute
URL of its endpoint, ``<raíz>/modelo/v1/messages``, answered by the course's service worker
(servicio/sw.js) with the help of the page that has the model; ``servidor_propio()`` is the
messages endpoint of the reader's own server, typed and confirmed on the page, or None. Both
read what the page told the worker (``sitio`` of ``_bucle_pagina``). The wheels of
:data:`RUEDAS` (pyodide-http, which makes ``urllib.request`` work in Pyodide) are published
with the site and installed the first time a cell imports them.
"""

import builtins
import importlib
import importlib.machinery
import io
import json
import linecache
import re
import sys
import traceback
import warnings

# What only a wheel's install, a request or a file not fetched ahead needs is imported there: a
# page's first run must not wait for it (urllib.parse and pyodide.http alone took 60–180 ms to
# import in a new Pyodide, before the first cell's output).


def _open_url(url):
    try:
        from pyodide.http import open_url
    except ImportError:  # CPython (the unit tests): no network here
        raise OSError(f"open_url no está disponible fuera del navegador: {url}") from None
    return open_url(url)


def urljoin(base, url):
    """``url`` resolved against ``base``: by the browser's URL in the page, by urllib.parse's
    urljoin elsewhere (the same for the site's URLs)."""
    try:
        from js import URL
    except ImportError:
        from urllib.parse import urljoin as unir
        return unir(base, url)
    return str(URL.new(str(url), str(base)).href)

PAGINA = ""
ESPACIO = {}
_CELDA = re.compile(r"^<celda (\d+)>$")

#: Why ``input()`` cannot read: the page is not cross-origin isolated (trabajador.js has no buffer
#: to wait on) …
SIN_AISLAMIENTO = (
    "input() no puede leer del teclado: esta página no está aislada (cross-origin isolation) y "
    "sin eso Python no puede esperar a que escribas, así que escribe el valor directamente en el "
    'código, por ejemplo: nombre = "Ada"'
)
#: … or nobody can answer here (outside the browser, or while a challenge is graded).
SIN_LECTOR = (
    "input() no puede leer del teclado: aquí nadie puede responder mientras se ejecuta este "
    'código, así que escribe el valor directamente en el código, por ejemplo: nombre = "Ada"'
)

_ESPERAR = None  # the page's esperar (the JS module _bucle_pagina), taken by preparar


class EntradaNoDisponible(Exception):
    """What ``input()`` and ``sys.stdin`` raise in a cell when the page cannot wait for the reader."""


EntradaNoDisponible.__module__ = "builtins"  # shown as «EntradaNoDisponible: …», like a built-in


def _funcion_de_la_pagina():
    """The worker's ``esperar`` (trabajador.js), or None outside the browser."""
    try:
        from _bucle_pagina import esperar
    except ImportError:
        return None
    return esperar


def _esperar(**peticion):
    """Ask the page and wait for the reader: ``{"estado": "respondido", "texto": …}``, or
    ``{"estado": "sin-aislamiento" | "sin-lector"}`` when it cannot wait. A stop (Detener)
    raises KeyboardInterrupt, as an interrupt would."""
    if _ESPERAR is None:
        return {"estado": "sin-lector"}
    for flujo in (sys.stdout, sys.stderr):  # what the cell printed shows before the question
        try:
            flujo.flush()
        except Exception:  # noqa: BLE001 - a cell may have replaced the streams
            pass
    respuesta = json.loads(str(_ESPERAR(json.dumps(peticion, ensure_ascii=False))))
    if respuesta.get("estado") == "detenido":
        raise KeyboardInterrupt
    return respuesta


def avisar(tipo, id, **datos):
    """Post ``{"id", "type": tipo, **datos}`` to the page now, without waiting for the end of the
    call (the worker's grading and bench halves tell how a request goes, as ``_avisar``).
    Outside a worker (CPython tests), nothing."""
    try:
        import js
    except ImportError:
        return
    mensaje = {"id": id, "type": tipo, **datos}
    js.postMessage(js.JSON.parse(json.dumps(mensaje, ensure_ascii=False)))


#: Why the course's model cannot be reached: the course's service worker, which answers its
#: endpoint, does not control this page yet (a first visit, or service workers refused) …
SIN_SERVICIO = (
    "El modelo del curso responde a través del service worker del curso, que aún no controla "
    "esta página: recárgala (y, si sigue igual, comprueba que el navegador permite guardar el "
    "curso para usarlo sin conexión)."
)
#: … or this Python runs outside the course's page.
FUERA_DE_LA_PAGINA = "El modelo del curso solo está en las páginas del curso, en el navegador."


def _sitio():
    """What the page told the worker of the site (trabajador.js's ``sitio``), or None outside it."""
    try:
        from _bucle_pagina import sitio
    except ImportError:
        return None
    return json.loads(str(sitio()))


def url_del_modelo():
    """The absolute URL of the course's model endpoint, ``<raíz>/modelo/v1/messages``. Raises
    RuntimeError (one sentence in Spanish: how to fix it) where it cannot answer: the course's
    service worker does not control the page, or this is not the course's page."""
    sitio = _sitio()
    if sitio is None:
        raise RuntimeError(FUERA_DE_LA_PAGINA)
    if not sitio.get("controlado"):
        raise RuntimeError(SIN_SERVICIO)
    return urljoin(sitio["raiz"], "modelo/v1/messages")


def servidor_propio():
    """The messages endpoint of the reader's own server (``<dirección>/v1/messages``), typed and
    confirmed on the page: the one address off the site the worker lets Python reach. None when
    the reader confirmed none (or outside the browser)."""
    sitio = _sitio()
    return (sitio or {}).get("propio") or None


#: Wheels published with the site (``_static/bucle/ruedas/``, widgets/datos/ruedas-pagina.txt) that a
#: cell may import: top-level module → (file name, sha256).
RUEDAS = {
    "pyodide_http": (
        "pyodide_http-0.2.2-py3-none-any.whl",
        "cf006ea593c1643b5badeb4d42ed24a6eebd830276171fa1f82de0777b3fb608",
    ),
}


class _RuedasDelSitio:
    """Installs a wheel of :data:`RUEDAS` the first time its module is imported: its bytes are
    read from the site (synchronously, in the worker), checked against the pinned sha256 and
    unpacked into site-packages (``destino``: None is site-packages); then the ordinary import
    finds it."""

    destino = None

    @classmethod
    def find_spec(cls, nombre, ruta=None, objetivo=None):
        if ruta is not None or nombre not in RUEDAS:
            return None
        if importlib.machinery.PathFinder.find_spec(nombre) is None:
            cls.instalar(nombre)
        return importlib.machinery.PathFinder.find_spec(nombre)

    @classmethod
    def instalar(cls, nombre):
        import hashlib
        import sysconfig
        import zipfile

        archivo, suma = RUEDAS[nombre]
        try:
            from _bucle_pagina import leer
        except ImportError:
            return  # outside the browser: the ordinary ModuleNotFoundError
        sitio = _sitio()
        datos = bytes(leer(urljoin(sitio["ruedas"], archivo)).to_bytes())
        if hashlib.sha256(datos).hexdigest() != suma:
            raise ImportError(f"{archivo}, tal como lo sirve el sitio, no es el fijado (su sha256 no coincide)")
        with zipfile.ZipFile(io.BytesIO(datos)) as rueda:
            rueda.extractall(cls.destino or sysconfig.get_path("purelib"))
        releer_carpetas()


def releer_carpetas():
    """Have the finders of ``sys.path``'s folders read them again, after files were written into
    them (a wheel installed, the grader's package: lib/calificador.js): those finders only, as
    importlib.invalidate_caches() also imports importlib.metadata (email, zipfile, csv…), 50–70 ms
    of a first start in the page."""
    for buscador in list(sys.path_importer_cache.values()):
        if isinstance(buscador, importlib.machinery.FileFinder):
            buscador.invalidate_caches()


def preguntar_en_la_pagina(pregunta, detalle="", partes=()):
    """Ask the reader, in the running cell's output, ``pregunta`` (with ``detalle``, one line in
    monospace, under it, and each of ``partes``, ``{"titulo", "lineas": [[marca, texto], …]}``,
    as its title over a box of whole lines, which scrolls where long: runtime/permisos.py's
    que_cambia) with the buttons Permitir and Denegar, and wait: True (Permitir), False
    (Denegar), or None when the page cannot wait (not isolated, outside the browser, while a
    challenge is graded). Detener while it waits raises KeyboardInterrupt."""
    peticion = {"tipo": "permiso", "pregunta": str(pregunta), "detalle": str(detalle)}
    if partes:
        peticion["partes"] = [{"titulo": str(p.get("titulo", "")),
                               "lineas": [[str(m), str(texto)] for m, texto in p.get("lineas", ())]}
                              for p in partes]
    respuesta = _esperar(**peticion)
    if respuesta["estado"] != "respondido":
        return None
    return respuesta["texto"] == "permitir"


def _leer_linea(prompt=""):
    """A line the reader types on the page, without its end; EntradaNoDisponible where the
    page cannot wait (the prompt is printed first, as a terminal would show it)."""
    respuesta = _esperar(tipo="entrada", pregunta=prompt)
    if respuesta["estado"] == "respondido":
        return respuesta["texto"]
    if prompt:
        sys.stdout.write(prompt)
        sys.stdout.write("\n")
    motivo = SIN_AISLAMIENTO if respuesta["estado"] == "sin-aislamiento" else SIN_LECTOR
    raise EntradaNoDisponible(motivo)


#: Python's own input(), taken before ``preparar`` replaces it.
_INPUT = builtins.input


def _input(prompt=""):
    # Python's input() reads sys.stdin: where another one was put there (the grader's empty one
    # while a check runs, a reader's StringIO), it reads that one, as Python's does; only the
    # cells' own stdin asks the reader on the page.
    if not isinstance(sys.stdin, _Entrada):
        return _INPUT(prompt)
    return _leer_linea(str(prompt))


class _Entrada(io.TextIOBase):
    """``sys.stdin`` of the cells: each read is one line the reader types on the page (the page
    has no end of input). Where it cannot wait, reading says why, instead of an ``OSError``."""

    def readable(self):
        return True

    def read(self, *args):
        return _leer_linea() + "\n"

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


def calentar():
    """Compile every file of :data:`PRECARGADOS` and throw the code away; return how many compiled.

    In a worker restored from its snapshot, nothing has run Python's parser and compiler since
    the restore, and their first use pays V8's lazy compilation of their wasm: the first run of
    «El bucle»'s first cell took 80–140 ms there, against 40 ms in a worker started normally.
    The worker calls this once it is idle after such a start, so that the reader's first run
    does not pay it. Nothing of the files runs, and nothing is written: a file that does not
    compile, or warns, is the reader's to see when a cell reads it.
    """
    compilados = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for url, texto in list(PRECARGADOS.items()):
            try:
                compile(texto, url, "exec")
            except (SyntaxError, ValueError):
                continue
            compilados += 1
    return compilados


def preparar_red():
    """Make ready what a cell's first HTTP request would pay for (``runtime.api.enviar``): the
    wheel of pyodide-http installed from the site and imported, ``urllib.request`` imported and
    patched by it. True when it was done; False outside the browser (nothing is imported there).

    The worker calls this once it is idle, on a page that serves the course's model or has the
    reader's own server: their first turn took some 100 ms more than the second in the page
    (bench/modelo.py), mostly these imports. Done again by the first request, it costs
    nothing: the modules are there and patching twice patches the same.
    """
    if sys.platform != "emscripten":
        return False
    import urllib.error  # what enviar imports
    import urllib.request  # noqa: F401
    import pyodide_http

    pyodide_http.patch_all()
    return True


def preparar(pagina, modulo_de_la_pagina=None):
    """Remember the page's URL, take over the keyboard input and start an empty namespace.

    ``modulo_de_la_pagina`` (in the worker) is the JS module ``_bucle_pagina``: it goes into
    ``sys.modules`` as it is, without a trip through the import system, which in a worker restored
    from its snapshot took 20–34 ms (0.5 ms in one started normally).
    """
    global PAGINA, _ESPERAR
    PAGINA = str(pagina)
    if modulo_de_la_pagina is not None:
        sys.modules["_bucle_pagina"] = modulo_de_la_pagina
    _ESPERAR = _funcion_de_la_pagina()
    builtins.input = _input
    sys.stdin = _Entrada()
    if _RuedasDelSitio not in sys.meta_path:
        sys.meta_path.insert(0, _RuedasDelSitio)
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
    except BaseException as error:  # noqa: BLE001 - the reader's error is an observation, not the worker's
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
