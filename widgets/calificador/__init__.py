"""The grading engine of the challenges: runs a challenge's tests against the reader's code.

Plain Python (stdlib only, relative imports only) that runs unchanged in CPython (``python -m
challenges``, the tests, the build) and in Pyodide, in the page's worker, where these same files
are written to a folder on ``sys.path`` and imported as the package ``calificador``::

    from calificador import Calificador        # in CPython: from widgets.calificador import …
    c = Calificador(leer, desafios="desafios/", runtime="runtime/",
                    runtime_modulos=("entorno", "guionizado", "escenarios"))
    c.calificar("bucle-con-tope", codigo)       # → the result (see .resultado), JSON-able

``leer(url) -> str`` reads a file of the site (the page: ``open_url(url).read()``; CPython:
``disco.lector(...)``); ``desafios`` is the URL of the folder holding ``<id>/inicial.py`` and
``<id>/pruebas.py``, ``runtime`` that of the runtime modules. Every file is read once per
``Calificador``; :meth:`Calificador.leidos` lists them (what the build must publish).

How it grades (see :meth:`Calificador.calificar`):

- The tests live in their own namespace, with their own modules, made before any of the
  reader's code runs: the reader cannot change the tests' classes or data. A challenge's
  ``pruebas.py`` imports what it uses (:mod:`.importador`): ``from runtime import …`` (its own
  copy of the runtime), ``from calificador import Fallo, opaca`` (and, for tests whose own code
  the reader calls back into, ``murada`` and ``plano``, see :mod:`.muralla`), and, by relative
  imports, the files of the challenges folder (``from ..comun import Caso``: helpers shared by
  several challenges), read like the rest.
- Each test runs the reader's code in a NEW namespace (:mod:`.envio`), behind the wall
  (:mod:`.muralla`), under a time limit and an output cap (:mod:`.limites`). After a test that
  does not end, the others are not tried: the reader sees the endless loop at once.
- The reader's errors are told with the line of THEIR code (:mod:`.veredictos`), never with the
  grader's traceback; a test's result is built by :mod:`.resultado`.

Modules: ``calificador`` (:class:`Calificador`), ``importador`` (what the tests import),
``runtime`` (running the runtime into a namespace: the build and the tests call it too),
``resultado`` (the result's shape), ``limites``, ``muralla``, ``limpio``, ``envio``,
``veredictos``, ``probar`` (running one test), ``estado`` (a fresh world per run:
:class:`Aparte`), ``trazas`` (the trace recorder), ``disco`` (the
CPython side: files on disk, known-wrong solutions, the build-time checks), ``contrato`` (tests
written to the earlier contract, told to their author with the imports to add).
"""

from .estado import Aparte
from .limites import LIMITE, TOPE_SALIDA
from .muralla import murada, opaca, plano
from .probar import Fallo, Veredicto
from .veredictos import ARCHIVO
from .calificador import RUNTIME, Calificador

__all__ = ["ARCHIVO", "LIMITE", "RUNTIME", "TOPE_SALIDA", "Aparte", "Calificador", "Fallo",
           "Veredicto", "murada", "opaca", "plano"]
