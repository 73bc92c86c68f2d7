"""The CPython side of the engine: a course's folders on disk, read as the page reads the site.

:func:`lector` maps the site's URLs to files: ``…desafios/<ruta>`` is ``<desafios>/<ruta>`` and
``…runtime/<name>.py`` is ``<runtime>/<name>.py``; :func:`calificador` is a
:class:`~calificador.Calificador` reading them. A challenge is a folder with ``inicial.py`` (the
starter code), ``pruebas.py`` (the tests), ``solucion.py`` (the reference) and ``errores/*.py``
(known-wrong solutions). Each known-wrong solution starts with a header naming the test it must
fail and the message it must get::

    # Error: sin tope: el bucle sigue mientras el modelo pida herramientas.
    # Falla: un modelo que nunca para
    # Mensaje: El tope era 5 y llamaste al modelo una 6.ª vez

Every ``Mensaje:`` line must appear in that test's message. :func:`comprobar` checks all of it.
Optional ``# Cláusula: <id>`` lines name the clauses of the challenge's contract the solution
breaks (a course may list them beside the challenge; this course, in ``clausulas.md``).
"""

import re
from pathlib import Path
from urllib.parse import urlsplit

from . import Calificador, contrato

#: The files of a challenge the page fetches.
ARCHIVOS_DESAFIO = ("inicial.py", "pruebas.py")


#: The file of a runtime folder that says which of its modules load, in which order.
ORDEN = "orden.txt"


def modulos_de(runtime):
    """The runtime modules of folder ``runtime`` by default, in order: the names in its
    ``orden.txt`` (one a line, without ``.py``; ``#`` starts a comment) if it has one, or else
    the stems of its ``*.py`` that do not start with ``_``, sorted."""
    runtime = Path(runtime)
    orden = runtime / ORDEN
    if not orden.is_file():
        return tuple(sorted(p.stem for p in runtime.glob("*.py") if not p.name.startswith("_")))
    nombres = [linea.split("#", 1)[0].strip()
               for linea in orden.read_text(encoding="utf-8").splitlines()]
    nombres = [n.removesuffix(".py") for n in nombres if n]
    for n in nombres:
        if not (runtime / f"{n}.py").is_file():
            raise ValueError(f"{orden} nombra «{n}», y no hay {n}.py en {runtime}")
    return tuple(nombres)


def lector(desafios, runtime):
    """A ``leer(url) -> str`` that reads the site's paths from the folders ``desafios`` and
    ``runtime``."""
    desafios, runtime = Path(desafios), Path(runtime)

    def leer(url):
        ruta = urlsplit(url).path
        archivo = None
        if "desafios/" in ruta:
            partes = ruta.rsplit("desafios/", 1)[1].split("/")
            if partes[-1].endswith(".py") and not {"", ".", ".."} & set(partes):
                archivo = desafios.joinpath(*partes)
        elif "runtime/" in "/" + ruta:
            nombre = ruta.rsplit("/", 1)[-1]
            if not nombre.startswith("_"):
                archivo = runtime / nombre
        if archivo is None or not archivo.is_file():
            raise FileNotFoundError(f"no hay un archivo de desafíos ni del runtime en {url!r}")
        return archivo.read_text(encoding="utf-8")

    return leer


def calificador(desafios, runtime, runtime_modulos=None):
    """A new :class:`Calificador` over the folders ``desafios`` and ``runtime``."""
    modulos = modulos_de(runtime) if runtime_modulos is None else runtime_modulos
    return Calificador(lector(desafios, runtime), desafios="desafios/", runtime="runtime/",
                       runtime_modulos=modulos)


def archivo_leido(url):
    """The file of the challenges folder that ``url`` (one of :meth:`Calificador.leidos`) names,
    as a path relative to that folder; None for a runtime URL."""
    ruta = urlsplit(url).path
    if "desafios/" not in ruta:
        return None
    return ruta.rsplit("desafios/", 1)[1]


def desafios(carpeta):
    """The ids of the challenges in ``carpeta`` (folders holding a ``pruebas.py``)."""
    return sorted(p.parent.name for p in Path(carpeta).glob("*/pruebas.py"))


class ErrorConocido:
    """A known-wrong solution: its file, what it gets wrong, the test it fails, the messages,
    and the clauses it breaks."""

    def __init__(self, archivo):
        self.archivo = archivo
        self.codigo = archivo.read_text(encoding="utf-8")
        cabecera = {}
        for linea in self.codigo.splitlines():
            m = re.match(r"#\s*(Error|Falla|Mensaje|Cláusula):\s*(.*\S)", linea)
            if not linea.startswith("#"):
                break
            if m:
                cabecera.setdefault(m.group(1), []).append(m.group(2))
        self.error = " ".join(cabecera.get("Error", []))
        self.falla = (cabecera.get("Falla") or [None])[0]
        self.mensajes = cabecera.get("Mensaje", [])
        self.clausulas = cabecera.get("Cláusula", [])


def errores_conocidos(desafio, carpeta):
    return [ErrorConocido(p) for p in sorted((Path(carpeta) / desafio / "errores").glob("*.py"))]


def comprobar(calificador, desafio, carpeta, al_calificar=None, al_empezar=None):
    """The build-time checks of a challenge of folder ``carpeta``, graded by ``calificador``:
    [(file, problem in Spanish)], empty when all hold.

    The reference passes every test, the starter fails, and each known-wrong solution fails
    its named test with a message that contains each of its ``Mensaje:`` lines. Tests written
    to the earlier contract (names of the runtime or the grader used without importing them)
    get only the author's message of :func:`.contrato.revisar`, naming the imports to add.
    ``al_calificar(archivo)`` is called before each file is graded, and ``al_empezar(prueba)``
    before each test (what a watching parent needs: :mod:`widgets.aislamiento.comprobacion`).
    """
    base = Path(carpeta) / desafio
    faltan = [n for n in ARCHIVOS_DESAFIO + ("solucion.py",) if not (base / n).is_file()]
    if faltan:
        return [(base, f"al desafío le falta {', '.join(faltan)}")]
    anterior = contrato.revisar(calificador, desafio)  # tests written to the earlier contract
    if anterior:
        return [(Path(carpeta) / ruta, mensaje) for ruta, mensaje in anterior]

    def calificar(archivo, codigo=None):
        if al_calificar is not None:
            al_calificar(archivo)
        codigo = archivo.read_text(encoding="utf-8") if codigo is None else codigo
        return calificador.calificar(desafio, codigo, al_empezar=al_empezar)

    problemas = []
    r = calificar(base / "solucion.py")
    for p in r["pruebas"]:
        if not p["ok"]:
            problemas.append((base / "solucion.py", f"la solución de referencia no pasa "
                                                    f"«{p['nombre']}»: {p['mensaje']}"))
    if r["error"]:
        problemas.append((base / "solucion.py", f"la solución de referencia no carga: "
                                                f"{r['error']['mensaje']}"))
    r = calificar(base / "inicial.py")
    if r["superadas"] == r["total"]:
        problemas.append((base / "inicial.py", "el código inicial pasa todas las pruebas"))
    nombres = calificador.nombres(desafio)
    for error in errores_conocidos(desafio, carpeta):
        problemas += _comprobar_error(error, nombres, calificar)
    return problemas


def _comprobar_error(error, nombres, calificar):
    if not error.falla or not error.mensajes:
        return [(error.archivo, "falta la cabecera «# Falla: <prueba>» y «# Mensaje: <texto>»")]
    if error.falla not in nombres:
        return [(error.archivo, f"no hay ninguna prueba «{error.falla}»")]
    r = calificar(error.archivo, error.codigo)
    prueba = next(p for p in r["pruebas"] if p["nombre"] == error.falla)
    if prueba["ok"]:
        return [(error.archivo, f"pasa «{error.falla}», y debía fallarla")]
    mensaje = prueba["mensaje"] or ""
    recibido = "\n".join("    " + linea for linea in mensaje.split("\n"))
    return [(error.archivo, f"en «{error.falla}» recibe otro mensaje; esperaba «{m}» "
                            f"y es:\n{recibido}")
            for m in error.mensajes if m not in mensaje]
