"""What a challenge's tests import: their own fresh modules, never the reader's.

A challenge's ``pruebas.py`` (and every helper module it imports) runs with builtins of its own,
whose ``__import__`` is an :class:`Importador` made for that one load of the tests:

- ``from runtime import ENTORNO, llamada``: one module ``runtime``, the runtime modules run in
  it in order (the grader's ``runtime_modulos``), new for these tests;
- ``from calificador import Fallo, opaca``: the grader's API (``Fallo``, ``opaca``, ``murada``,
  ``plano``);
- a relative import is a file of the challenges folder, beside the importing file:
  ``from .agente import agente`` (``<id>/agente.py``), ``from ..comun import Caso``
  (``comun.py``, what several challenges share). Each is read through the grader's reader (so
  the build publishes it) and run once per load, as a module of its own;
- a challenge's files written as the reader writes them (``solucion.py``, ``inicial.py``: no
  imports) run after the runtime's names, as the reader's code does: ``from .solucion import
  ejecutar`` is the reference solution's;
- anything else is Python's own import.

Every module of one load shares the same ``runtime``, made before any of the reader's code runs,
so the reader cannot change the tests' classes or data. Once the tests are loaded the importer is
closed (:meth:`Importador.cerrar`): it forgets the modules and resolves nothing but Python's own,
so that an object the reader reaches (the ``__builtins__`` of a helper's function) leads nowhere.
"""

import builtins
import types

#: Python's own import, bound now: a reader's ``builtins.__import__ = …`` does not reach here.
_IMPORTAR = builtins.__import__

#: The challenge's files written as the reader writes them: imported, they run after the
#: runtime's names.
DEL_LECTOR = ("inicial", "solucion")


def relativas(archivo, name, level, fromlist=()):
    """The files of the challenges folder (paths relative to it) that ``from {"." * level}{name}
    import {fromlist}``, written in ``archivo``, names: the module's, or, for ``from . import a,
    b``, one per name."""
    carpeta = archivo.split("/")[:-1]
    if level - 1 > len(carpeta):
        raise ImportError(f"{'.' * level}{name} queda fuera de la carpeta de los desafíos")
    base = carpeta[:len(carpeta) - (level - 1)]
    if name:
        return ["/".join(base + name.split(".")) + ".py"]
    return ["/".join(base + [n]) + ".py" for n in fromlist or ()]


class Importador:
    """The ``__import__`` of one load of a challenge's tests.

    ``codigo(ruta)`` is the compiled code of ``<challenges folder>/<ruta>``; ``runtime_en(ns)``
    runs the runtime modules in ``ns``; ``api`` is the grader's package."""

    def __init__(self, codigo, runtime_en, api):
        self._codigo = codigo
        self._runtime_en = runtime_en
        self._api = api
        self.modulos = {}    # "runtime" or a path of the challenges folder → its module
        self.builtins = dict(vars(builtins), __import__=self)

    def cerrar(self):
        """From now on, resolve only Python's own imports (the modules stay with their
        importers)."""
        self._codigo = self._runtime_en = self._api = None
        self.modulos = None

    def __call__(self, name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and name not in ("runtime", "calificador"):
            if name.partition(".")[0] in ("runtime", "calificador"):
                raise ImportError(f"las pruebas importan {name.partition('.')[0]} entero, "
                                  f"no {name}")
            return _IMPORTAR(name, globals, locals, fromlist, level)
        if self.modulos is None:
            raise ImportError(f"las pruebas importan {name or '.'} solo al cargarse")
        if level == 0:
            return self._api if name == "calificador" else self.runtime()
        rutas = relativas((globals or {}).get("__file__", ""), name, level, fromlist)
        if name:
            return self.modulo(rutas[0])
        return types.SimpleNamespace(**{n: self.modulo(r) for n, r in zip(fromlist or (), rutas, strict=True)})

    def runtime(self):
        """The module ``runtime`` of this load."""
        if "runtime" not in self.modulos:
            modulo = types.ModuleType("runtime")
            self._runtime_en(vars(modulo))
            self.modulos["runtime"] = modulo
        return self.modulos["runtime"]

    def modulo(self, ruta):
        """The module of ``ruta`` (relative to the challenges folder), run once."""
        if ruta not in self.modulos:
            nombre = ruta.rsplit("/", 1)[-1][:-len(".py")]
            modulo = types.ModuleType(nombre)
            if nombre in DEL_LECTOR:
                vars(modulo).update({k: v for k, v in vars(self.runtime()).items()
                                     if not k.startswith("__")})
            self.modulos[ruta] = modulo  # before it runs, as Python does
            try:
                self.ejecutar(ruta, vars(modulo))
            except BaseException:
                del self.modulos[ruta]
                raise
        return self.modulos[ruta]

    def ejecutar(self, ruta, ns):
        """Run ``ruta`` (relative to the challenges folder) in ``ns``, with these builtins."""
        ns["__file__"] = ruta
        ns["__builtins__"] = self.builtins
        exec(self._codigo(ruta), ns)
        return ns
