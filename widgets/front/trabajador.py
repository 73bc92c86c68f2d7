"""The Python half of the page's worker: the shared namespace of the cells, and how code runs.

``open_url`` in the reader's namespace is Pyodide's ``pyodide.http.open_url``, with one change:
a relative URL is resolved against the page, as a link in the page would be, so that the line a
lesson shows (``open_url("runtime/entorno.py")``) fetches the file the page links to.
"""

import linecache
import sys
import traceback
from urllib.parse import urljoin

from pyodide.http import open_url as _open_url

PAGINA = ""
ESPACIO = {}


def open_url(url):
    """Pyodide's ``open_url``, resolving a relative URL against the page."""
    return _open_url(urljoin(PAGINA, url))


def preparar(pagina):
    """Remember the page's URL and start an empty namespace."""
    global PAGINA
    PAGINA = str(pagina)
    reiniciar()


def reiniciar():
    ESPACIO.clear()
    ESPACIO.update({"__name__": "__main__", "__builtins__": __builtins__, "open_url": open_url})


def _registrar(nombre, codigo):
    # So that tracebacks can show the reader's own lines.
    linecache.cache[nombre] = (len(codigo), None, codigo.splitlines(True), nombre)


def ejecutar(codigo, nombre="<celda>"):
    """Run ``codigo`` in the page's namespace; report how it ended, never raise."""
    _registrar(nombre, codigo)
    try:
        exec(compile(codigo, nombre, "exec"), ESPACIO)
    except SystemExit as salida:
        return {"estado": "salida", "codigo": salida.code if isinstance(salida.code, int) else None}
    except KeyboardInterrupt:
        return {"estado": "detenido"}
    except BaseException as error:  # the reader's error is an observation, not the worker's
        sys.stderr.write(_traceback_del_lector(error, nombre))
        return {"estado": "error", "tipo": type(error).__name__}
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    return {"estado": "ok"}


def _traceback_del_lector(error, nombre):
    """The traceback without this module's frames: only the reader's code is shown."""
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(error), error, tb))
