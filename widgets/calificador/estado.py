"""A fresh world for each run of code the grader runs several times in one Python.

Where the reader writes tests («pruebas-del-agente»), their suite runs once per agent, in the
same interpreter: a suite that kept a counter between runs (on a module, in ``sys.modules``, on
``builtins``, in ``os.environ``, in a file) could pass the first run and fail every later one.
``with Aparte():`` around one run puts back, when it ends, what that run could have left:

- ``sys.modules``: the modules imported during the run are taken out, those replaced put back;
- the namespace of every module that was imported before (``builtins``, ``sys``, ``os``,
  ``unittest``…; not the grader's, which the wall hides), and of the classes defined in them
  (``unittest.TestCase.contador = …``): names added are removed, names changed put back
  (compared by identity);
- the contents of the lists, dicts and sets those modules hold by a public name
  (``unittest.__all__.append(…)``, ``sys.path``, ``warnings.filters``…), and of a few lists
  Python itself keeps (``sys.meta_path``, ``sys.path_hooks``, ``sys.argv``);
- ``os.environ`` and the working folder;
- the files and folders the run created, changed, renamed or removed (seen by an audit hook:
  ``open`` for writing, ``os.mkdir``, ``os.rename``, ``os.remove``, ``os.rmdir``,
  ``shutil.rmtree``…): created ones are removed, the others get their bytes back.

The same module runs in CPython (the command's child, the tests, the build) and in Pyodide (the
page's worker), so a run starts from the same state in both. It is not a sandbox: state kept deeper
in objects (a list inside an object inside a module, a C extension's own state, a thread left
running) stays; it closes the ways a reader's suite would naturally use.
"""

import operator
import os
import shutil
import sys
import types
from itertools import chain

from .muralla import _oculto, intacto, poner

#: Audit events that may create, change or remove a file or a folder.
_EVENTOS = frozenset({"open", "os.mkdir", "os.rename", "os.remove", "os.rmdir", "os.truncate",
                      "os.link", "os.symlink", "shutil.rmtree", "shutil.move", "shutil.copyfile",
                      "shutil.copytree", "sqlite3.connect"})

#: Bytes of a file kept to put it back; a bigger one changed by a run is left as it is.
_TOPE_ARCHIVO = 8 * 1024 * 1024

_ESCRITURA = (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND)

#: The recorders of the runs in progress (the innermost last), and a flag while one records.
_REGISTROS: list = []
_DENTRO = [False]


def _ruta(valor):
    if isinstance(valor, int) or valor is None:
        return None
    try:
        return os.path.abspath(os.fsdecode(valor))
    except (TypeError, ValueError):
        return None


def _escribe(argumentos):
    _, modo, banderas = (tuple(argumentos) + (None, None, None))[:3]
    if isinstance(modo, str):
        return any(c in modo for c in "wax+")
    return isinstance(banderas, int) and bool(banderas & _ESCRITURA)


#: Events whose paths may be relative to a folder's descriptor (their last arguments, -100 or
#: None when not): those are left alone (shutil.rmtree's, already seen whole by its own event).
_CON_DESCRIPTOR = {"os.mkdir": 2, "os.remove": 1, "os.rmdir": 1, "os.symlink": 2,
                   "os.rename": 2, "os.link": 2}


def _rutas(evento, argumentos):
    """The paths event ``evento`` may change."""
    desde = _CON_DESCRIPTOR.get(evento)
    if desde is not None and any(type(a) is int and a >= 0 for a in argumentos[desde:]):
        return ()
    if evento == "open":
        return argumentos[:1] if _escribe(argumentos) else ()
    if evento in ("os.rename", "os.link", "shutil.move", "shutil.copytree"):
        return argumentos[:2]
    if evento in ("os.symlink", "shutil.copyfile"):
        return argumentos[1:2]
    return argumentos[:1]


def _auditar(evento, argumentos):
    if not _REGISTROS or _DENTRO[0] or evento not in _EVENTOS:
        return
    _DENTRO[0] = True
    try:
        registro = _REGISTROS[-1]
        for valor in _rutas(evento, argumentos):
            ruta = _ruta(valor)
            if ruta is not None:
                registro.anotar(ruta, arbol=evento in ("shutil.rmtree", "os.rename",
                                                       "shutil.move"))
    except Exception:  # noqa: BLE001 - the hook never breaks the reader's call
        pass
    finally:
        _DENTRO[0] = False


sys.addaudithook(_auditar)  # once, when this module is first imported


class _Archivos:
    """What the files and folders a run touched were before it touched them."""

    def __init__(self):
        self.antes = {}  # path → ("ausente",) | ("carpeta",) | ("archivo", bytes) | ("otro",)

    def anotar(self, ruta, arbol=False):
        if ruta in self.antes:
            return
        if os.path.islink(ruta):
            self.antes[ruta] = ("otro",)
        elif os.path.isdir(ruta):
            self.antes[ruta] = ("carpeta",)
            if arbol:
                for carpeta, carpetas, archivos in os.walk(ruta):
                    for nombre in carpetas + archivos:
                        self.anotar(os.path.join(carpeta, nombre))
        elif os.path.isfile(ruta):
            if os.path.getsize(ruta) <= _TOPE_ARCHIVO:
                with open(ruta, "rb") as f:
                    self.antes[ruta] = ("archivo", f.read())
            else:
                self.antes[ruta] = ("otro",)
        elif os.path.lexists(ruta):
            self.antes[ruta] = ("otro",)
        else:
            self.antes[ruta] = ("ausente",)

    def restaurar(self):
        for ruta in sorted(self.antes, key=len, reverse=True):  # the deepest first
            if self.antes[ruta][0] == "ausente":
                _quitar(ruta)
        for ruta in sorted(self.antes, key=len):
            antes = self.antes[ruta]
            try:
                if antes[0] == "carpeta":
                    if not os.path.isdir(ruta):
                        _quitar(ruta)
                    os.makedirs(ruta, exist_ok=True)
                elif antes[0] == "archivo":
                    if os.path.isdir(ruta) and not os.path.islink(ruta):
                        shutil.rmtree(ruta, ignore_errors=True)
                    os.makedirs(os.path.dirname(ruta), exist_ok=True)
                    if not _igual(ruta, antes[1]):
                        with open(ruta, "wb") as f:
                            f.write(antes[1])
            except OSError:
                pass


def _quitar(ruta):
    try:
        if os.path.isdir(ruta) and not os.path.islink(ruta):
            shutil.rmtree(ruta, ignore_errors=True)
        elif os.path.lexists(ruta):
            os.remove(ruta)
    except OSError:
        pass


def _igual(ruta, contenido):
    try:
        with open(ruta, "rb") as f:
            return f.read() == contenido
    except OSError:
        return False


def _publico(nombre):
    """A module's name a reader would use (``path``, ``__all__``), not a private one (``_cache``,
    where the interpreter and the grader keep their own bookkeeping, threads among it)."""
    return type(nombre) is str and (not nombre.startswith("_") or nombre.startswith("__"))


#: What :func:`_modulos` found in each module's namespace at the last run, by the module's
#: name: (a copy of that namespace, the classes defined there, the containers it holds by a
#: public name). A namespace that still holds the very same names and objects is not looked
#: through again (a Sphinx build has some 1,100 modules and 40,000 names).
_DE_CADA: dict = {}


def _propios(nombre, espacio):
    """([the classes defined in module ``nombre``], [the lists, dicts and sets it holds by a
    public name]), from its namespace ``espacio``."""
    clases, contenedores = [], []
    for clave, valor in espacio.items():
        tipo = type(valor)
        if tipo is type and valor.__module__ == nombre and not valor.__flags__ & _INMUTABLE:
            clases.append(valor)
        elif tipo in _CONTENEDORES and _publico(clave):
            contenedores.append(valor)
    return clases, contenedores


def _modulos():
    """The modules (and the classes defined in them) whose namespace a run must not change, and
    the lists, dicts and sets they hold by a public name, each once: [(namespace, its copy)],
    the classes' namespaces (a :class:`_Copia`), [(container, its copy)]."""
    # sys.modules and os.environ's dict (posix.environ) are put back on their own: the latter
    # through os.environ, which also unsets the process's variables.
    modulos, clases, contenedores = [], [], []
    vistos = {id(sys.modules), id(getattr(os.environ, "_data", None))}
    de_cada = {}
    for nombre, modulo in list(sys.modules.items()):
        if type(modulo) is not types.ModuleType or _oculto(nombre, modulo):
            continue
        espacio = vars(modulo)
        previo = _DE_CADA.get(nombre)
        if previo is None or not intacto(espacio, previo[0]):
            antes = dict(espacio)
            previo = (antes, *_propios(nombre, antes))
        modulos.append((espacio, previo[0]))  # that copy is never changed: it can serve again
        de_cada[nombre] = previo
        clases += previo[1]
        for valor in previo[2]:
            if id(valor) not in vistos:
                vistos.add(id(valor))
                contenedores.append((valor, type(valor)(valor)))
    _DE_CADA.clear()
    _DE_CADA.update(de_cada)
    return modulos, _Copia(clases), contenedores


_VALORES = operator.methodcaller("values")


def _intactos(espacios, largos, claves, valores):
    """Whether each namespace of ``espacios`` still has its length in ``largos`` and, in order,
    the very names and objects of ``claves`` and ``valores`` (all namespaces' one after
    another): looked at all at once, in C."""
    return (list(map(len, espacios)) == largos
            and all(map(operator.is_, chain.from_iterable(espacios), claves))
            and all(map(operator.is_, chain.from_iterable(map(_VALORES, espacios)), valores)))


class _Copia:
    """The namespaces of ``clases`` as they are now, kept in three lists made in C (their
    lengths, names and objects) rather than a dict a class made in Python: a Sphinx build has
    some 3,000 classes to put aside at each run, and a run changes few of them, if any."""

    def __init__(self, clases):
        self.clases = clases
        espacios = list(map(vars, clases))
        self.largos = list(map(len, espacios))
        self.claves = list(chain.from_iterable(espacios))
        self.valores = list(chain.from_iterable(map(_VALORES, espacios)))

    def intacta(self):
        return _intactos(list(map(vars, self.clases)), self.largos, self.claves, self.valores)

    def pares(self):
        """[(class, a dict of its namespace as it was)]."""
        pares, inicio = [], 0
        for clase, largo in zip(self.clases, self.largos, strict=True):
            fin = inicio + largo
            pares.append((clase, dict(zip(self.claves[inicio:fin], self.valores[inicio:fin], strict=True))))
            inicio = fin
        return pares


_CONTENEDORES = (list, dict, set)


def _devolver(contenedor, antes):
    """Put a list, dict or set back as ``antes`` (a shallow copy), if it changed (compared by
    identity: no reader's ``__eq__`` runs here)."""
    if type(contenedor) is dict:
        poner(contenedor, antes)
    elif type(contenedor) is list:
        if len(contenedor) != len(antes) or not all(map(operator.is_, contenedor, antes)):
            contenedor[:] = antes
    elif len(contenedor) != len(antes) or set(map(id, contenedor)) != set(map(id, antes)):
        contenedor.clear()
        contenedor.update(antes)


#: Py_TPFLAGS_IMMUTABLETYPE: a type whose attributes cannot be set (the C ones, builtins).
_INMUTABLE = 1 << 8


_FALTA = object()


class Aparte:
    """``with Aparte():`` one run; when it ends, the world is put back as it was (see the
    module's docstring)."""

    def __enter__(self):
        self.sys_modules = dict(sys.modules)
        self.modulos, self.clases, self.contenedores = _modulos()
        vistos = {id(c) for c, _ in self.contenedores}
        self.contenedores += [(lista, list(lista)) for lista in
                              (sys.path, sys.meta_path, sys.path_hooks, sys.argv)
                              if type(lista) is list and id(lista) not in vistos]
        self.entorno = dict(os.environ)
        self.carpeta = os.getcwd()
        self.archivos = _Archivos()
        _REGISTROS.append(self.archivos)
        return self

    def __exit__(self, *_):
        if self.archivos in _REGISTROS:
            _REGISTROS.remove(self.archivos)
        espacios = [espacio for espacio, _ in self.modulos]
        copias = [antes for _, antes in self.modulos]
        if not _intactos(espacios, list(map(len, copias)), chain.from_iterable(copias),
                         chain.from_iterable(map(_VALORES, copias))):
            for espacio, antes in self.modulos:
                poner(espacio, antes)
        for clase, antes in ([] if self.clases.intacta() else self.clases.pares()):
            ahora = vars(clase)
            if intacto(ahora, antes):
                continue
            for nombre in [n for n in ahora if n not in antes]:
                try:
                    delattr(clase, nombre)
                except (AttributeError, TypeError):
                    pass
            for nombre, valor in antes.items():
                if ahora.get(nombre, _FALTA) is not valor:
                    try:
                        setattr(clase, nombre, valor)
                    except (AttributeError, TypeError):
                        pass
        poner(sys.modules, self.sys_modules)
        for contenedor, antes in self.contenedores:
            try:
                _devolver(contenedor, antes)
            except Exception:  # noqa: BLE001 - one that cannot be put back is left as it is
                pass
        for nombre in [n for n in os.environ if n not in self.entorno]:
            del os.environ[nombre]
        for nombre, valor in self.entorno.items():
            if os.environ.get(nombre) != valor:
                os.environ[nombre] = valor
        try:
            if os.getcwd() != self.carpeta:
                os.chdir(self.carpeta)
        except OSError:
            os.chdir(self.carpeta)
        self.archivos.restaurar()

