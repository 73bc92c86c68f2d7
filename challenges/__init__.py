"""CPython side of the challenges: load the grader the way the page does, and check the content.

The grader (``calificador.py``) is plain Python that the page's worker runs with Pyodide; here it
is executed the same way, from its text, in a fresh namespace whose ``open_url`` reads the files
from disk instead of the site::

    ns = calificador()                        # the grader, reading this folder and runtime/
    ns["calificar"]("bucle-con-tope", codigo)  # → the same dict the page gets

URLs map to files as in the published site: ``desafios/calificador.py`` is this folder's
grader, ``desafios/<id>/<file>`` is ``<carpeta>/<id>/<file>`` and ``runtime/<file>`` is the
course runtime.

A challenge is a folder with ``inicial.py`` (the starter code), ``pruebas.py`` (the tests),
``solucion.py`` (the reference) and ``errores/*.py`` (known-wrong solutions). Each known-wrong
solution starts with a header naming the test it must fail and the message it must get::

    # Error: sin tope: el bucle sigue mientras el modelo pida herramientas.
    # Falla: un modelo que nunca para
    # Mensaje: El tope era 5 y llamaste al modelo una 6.ª vez

Every ``Mensaje:`` line must appear in that test's message. :func:`comprobar` checks all of it.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from urllib.parse import urlsplit

CARPETA = Path(__file__).resolve().parent
#: The files of the grader that the page fetches, and those of each challenge.
ARCHIVOS_CALIFICADOR = ("calificador.py", "trazas.py")
ARCHIVOS_DESAFIO = ("inicial.py", "pruebas.py")


def lector_de(carpeta: Path = CARPETA):
    """An ``open_url`` for the grader that reads the site's paths from disk."""
    from runtime import open_url as open_runtime

    carpeta = Path(carpeta)

    def open_url(url: str) -> io.StringIO:
        ruta = urlsplit(url).path
        if "desafios/" not in ruta:
            return open_runtime(url)
        resto = ruta.rsplit("desafios/", 1)[1]
        partes = resto.split("/")
        if resto in ARCHIVOS_CALIFICADOR:
            archivo = CARPETA / resto
        elif len(partes) == 2 and partes[1] in ARCHIVOS_DESAFIO and ".." not in partes:
            archivo = carpeta / partes[0] / partes[1]
        else:
            archivo = None
        if archivo is None or not archivo.is_file():
            raise FileNotFoundError(f"no hay un archivo de desafíos en {url!r}")
        return io.StringIO(archivo.read_text(encoding="utf-8"))

    return open_url


def calificador(carpeta: Path = CARPETA) -> dict:
    """A fresh namespace with the grader loaded, reading the challenges of ``carpeta``."""
    open_url = lector_de(carpeta)
    ns: dict = {"__name__": "calificador", "open_url": open_url}
    exec(compile(open_url("desafios/calificador.py").read(), "calificador.py", "exec"), ns)
    ns["fuentes"](desafios="desafios/", runtime="runtime/")
    return ns


def calificar(desafio: str, codigo: str, carpeta: Path = CARPETA, **opciones) -> dict:
    """Grade ``codigo`` against ``desafio``'s tests (see ``calificador.calificar``)."""
    return calificador(carpeta)["calificar"](desafio, codigo, **opciones)


def desafios(carpeta: Path = CARPETA) -> list[str]:
    """The ids of the challenges in ``carpeta`` (folders holding a ``pruebas.py``)."""
    return sorted(p.parent.name for p in Path(carpeta).glob("*/pruebas.py"))


class ErrorConocido:
    """A known-wrong solution: its file, what it gets wrong, the test it fails, the messages."""

    def __init__(self, archivo: Path):
        self.archivo = archivo
        self.codigo = archivo.read_text(encoding="utf-8")
        cabecera = {}
        for linea in self.codigo.splitlines():
            m = re.match(r"#\s*(Error|Falla|Mensaje):\s*(.*\S)", linea)
            if not linea.startswith("#"):
                break
            if m:
                cabecera.setdefault(m.group(1), []).append(m.group(2))
        self.error = " ".join(cabecera.get("Error", []))
        self.falla = (cabecera.get("Falla") or [None])[0]
        self.mensajes = cabecera.get("Mensaje", [])


def errores_conocidos(desafio: str, carpeta: Path = CARPETA) -> list[ErrorConocido]:
    return [ErrorConocido(p) for p in sorted((Path(carpeta) / desafio / "errores").glob("*.py"))]


def comprobar(desafio: str, carpeta: Path = CARPETA) -> list[tuple[Path, str]]:
    """The build-time checks of a challenge: [(file, problem in Spanish)], empty when all hold.

    The reference passes every test, the starter fails, and each known-wrong solution fails
    its named test with a message that contains each of its ``Mensaje:`` lines.
    """
    carpeta = Path(carpeta)
    base = carpeta / desafio
    problemas: list[tuple[Path, str]] = []
    faltan = [n for n in ARCHIVOS_DESAFIO + ("solucion.py",) if not (base / n).is_file()]
    if faltan:
        return [(base, f"al desafío le falta {', '.join(faltan)}")]
    ns = calificador(carpeta)
    calificar_ = ns["calificar"]

    def leer(nombre: str) -> str:
        return (base / nombre).read_text(encoding="utf-8")

    r = calificar_(desafio, leer("solucion.py"))
    for p in r["pruebas"]:
        if not p["ok"]:
            problemas.append((base / "solucion.py", f"la solución de referencia no pasa "
                                                    f"«{p['nombre']}»: {p['mensaje']}"))
    if r["error"]:
        problemas.append((base / "solucion.py", f"la solución de referencia no carga: "
                                                f"{r['error']['mensaje']}"))
    r = calificar_(desafio, leer("inicial.py"))
    if r["superadas"] == r["total"]:
        problemas.append((base / "inicial.py", "el código inicial pasa todas las pruebas"))
    nombres = ns["nombres"](desafio)
    for error in errores_conocidos(desafio, carpeta):
        problemas += _comprobar_error(error, nombres, calificar_, desafio)
    return problemas


def _comprobar_error(error: ErrorConocido, nombres, calificar_, desafio):
    if not error.falla or not error.mensajes:
        return [(error.archivo, "falta la cabecera «# Falla: <prueba>» y «# Mensaje: <texto>»")]
    if error.falla not in nombres:
        return [(error.archivo, f"no hay ninguna prueba «{error.falla}»")]
    r = calificar_(desafio, error.codigo)
    prueba = next(p for p in r["pruebas"] if p["nombre"] == error.falla)
    if prueba["ok"]:
        return [(error.archivo, f"pasa «{error.falla}», y debía fallarla")]
    mensaje = prueba["mensaje"] or ""
    recibido = "\n".join("    " + linea for linea in mensaje.split("\n"))
    return [(error.archivo, f"en «{error.falla}» recibe otro mensaje; esperaba «{m}» "
                            f"y es:\n{recibido}")
            for m in error.mensajes if m not in mensaje]
