"""Grading many submissions at once: files, folders and the page's exported progress.

A submission (:class:`Envio`) is a text of code for a challenge, with where it came from. They
come from ``.py`` files and folders of them (:func:`de_archivos`), or from the files the page's
«Exportar mi progreso» makes (:func:`de_progresos`)::

    {"curso": "el-bucle", "version": 1,
     "datos": {"bucle:<curso>:<página>:<id del widget>": valor, …}}

where a challenge's widget id is the challenge's id and its value is ``{"codigo": texto o null
(null: the starter code), "mejor", "fallos", "superado"}`` (``widgets/front/lib/veredicto.js``).
Only ``codigo`` is read: what the page says the reader got is never trusted, their code is
graded again. A challenge the reader never touched is not in the export, and not graded.

:func:`calificar` grades them in parallel, one child process each (:mod:`.aislado`), as many at
once as there are cores. What cannot be read (a missing file, a file not in UTF-8, an empty
folder, a JSON that is not an export, an export of another course or version) is one line of
:class:`Problema`, and the rest is graded.
"""

from __future__ import annotations

import csv
import io
import json
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from widgets.calificador import disco

from . import Curso, aislado

#: The version of the export format this reads (``widgets/front/lib/progreso.js``).
VERSION = 1
#: The CSV's header.
CABECERA = ("archivo", "desafio", "superadas", "total", "primera_fallida")


@dataclass
class Envio:
    """One submission: ``archivo`` (the file it came from, as given), its challenge, its code,
    and, for an export, the lesson page it was saved on."""

    archivo: str
    desafio: str
    codigo: str
    pagina: str | None = None

    @property
    def nombre(self) -> str:
        """What the table calls it."""
        return self.archivo if self.pagina is None else f"{self.archivo} ({self.pagina})"


@dataclass
class Problema:
    """An item that could not be graded, and why (one line, in Spanish)."""

    archivo: str
    problema: str

    def __str__(self) -> str:
        return f"{self.archivo}: {self.problema}"


@dataclass
class Calificado:
    """A submission and its result (None, with ``problema``, if the grader could not run)."""

    envio: Envio
    resultado: dict | None = None
    problema: str | None = None

    @property
    def superadas(self) -> int | None:
        return None if self.resultado is None else self.resultado["superadas"]

    @property
    def total(self) -> int | None:
        return None if self.resultado is None else self.resultado["total"]

    @property
    def aprobado(self) -> bool:
        return self.resultado is not None and self.superadas == self.total

    @property
    def primera_fallida(self) -> str:
        """The name of the first test not passed ("" when all pass)."""
        if self.resultado is None:
            return ""
        return next((p["nombre"] for p in self.resultado["pruebas"] if not p["ok"]), "")


# ---------------------------------------------------------------- reading what to grade


def _leer(ruta: Path) -> str | Problema:
    try:
        return ruta.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return Problema(str(ruta), "no está en UTF-8: no se puede leer")
    except OSError as e:
        return Problema(str(ruta), f"no se puede leer ({e.strerror or e})")


def _archivos(rutas: list[str], sufijo: str) -> tuple[list[Path], list[Problema]]:
    """The files ``rutas`` names: files as given, folders by their ``*<sufijo>`` (all levels,
    sorted); a missing path or an empty folder is a Problema."""
    archivos, problemas = [], []
    for texto in rutas:
        ruta = Path(texto)
        if ruta.is_dir():
            dentro = sorted(p for p in ruta.rglob(f"*{sufijo}") if p.is_file())
            if not dentro:
                problemas.append(Problema(texto, f"la carpeta no tiene ningún archivo {sufijo}"))
            archivos += dentro
        elif ruta.is_file():
            archivos.append(ruta)
        else:
            problemas.append(Problema(texto, "no existe"))
    return archivos, problemas


def de_archivos(desafio: str, rutas: list[str]) -> tuple[list[Envio], list[Problema]]:
    """The submissions for ``desafio`` in the ``.py`` files and folders ``rutas``."""
    archivos, problemas = _archivos(rutas, ".py")
    envios = []
    for archivo in archivos:
        codigo = _leer(archivo)
        if isinstance(codigo, Problema):
            problemas.append(codigo)
        else:
            envios.append(Envio(str(archivo), desafio, codigo))
    return envios, problemas


def de_progreso(archivo: Path, curso: Curso) -> list[Envio] | Problema:
    """The submissions of ``curso`` saved in one export file (each challenge of each page), or
    why not."""
    texto = _leer(archivo)
    if isinstance(texto, Problema):
        return texto
    nombre = str(archivo)
    try:
        datos = json.loads(texto)
    except ValueError as e:
        return Problema(nombre, f"no es un progreso exportado: no es JSON ({e})")
    if (type(datos) is not dict or not {"curso", "version", "datos"} <= set(datos)
            or type(datos["datos"]) is not dict):
        return Problema(nombre, "no es un progreso exportado (le faltan «curso», «version» o "
                                "«datos»)")
    curso_id = curso.ident
    if datos["curso"] != curso_id:
        return Problema(nombre, f"es un progreso de otro curso («{datos['curso']}»), no de "
                                f"«{curso_id}»")
    if datos["version"] != VERSION:
        return Problema(nombre, f"es un progreso de la versión {datos['version']!r} del curso; "
                                f"esta orden lee la versión {VERSION}")
    ids = set(disco.desafios(curso.desafios))
    envios = []
    for clave, valor in datos["datos"].items():
        partes = clave.split(":")
        if len(partes) < 4 or partes[0] != "bucle" or partes[1] != curso_id:
            continue
        pagina, ident = ":".join(partes[2:-1]), partes[-1]
        if ident not in ids:
            continue  # another widget: a cell, a question…
        if type(valor) is not dict or type(valor.get("codigo", 0)) not in (str, type(None)):
            return Problema(nombre, f"el valor de «{clave}» no es el de un desafío (le falta "
                                    f"«codigo», texto o null)")
        codigo = valor["codigo"]
        if codigo is None:  # the reader kept the starter code
            codigo = (curso.desafios / ident / "inicial.py").read_text(encoding="utf-8")
        envios.append(Envio(nombre, ident, codigo, pagina))
    if not envios:
        return Problema(nombre, "no tiene ningún desafío guardado")
    paginas: dict[str, set] = {}
    for e in envios:
        paginas.setdefault(e.desafio, set()).add(e.pagina)
    for e in envios:  # the page is said only when one challenge is on several
        if len(paginas[e.desafio]) == 1:
            e.pagina = None
    return envios


def de_progresos(rutas: list[str], curso: Curso) -> tuple[list[Envio], list[Problema]]:
    """The submissions of ``curso`` in the export files and folders (of ``*.json``) ``rutas``."""
    archivos, problemas = _archivos(rutas, ".json")
    envios = []
    for archivo in archivos:
        hecho = de_progreso(archivo, curso)
        if isinstance(hecho, Problema):
            problemas.append(hecho)
        else:
            envios += hecho
    return envios, problemas


# ---------------------------------------------------------------- grading


def calificar(envios: list[Envio], curso: Curso, *, procesos: int | None = None, al_acabar=None,
              **limites) -> list[Calificado]:
    """Grade ``envios`` (to challenges of ``curso``) in parallel (``procesos`` children at once,
    by default one per core), each in its own child (:func:`.aislado.calificar`, with
    ``limites``); in their order.
    ``al_acabar(hechos, total)`` is called as each ends."""
    procesos = procesos or os.cpu_count() or 1
    hechos = [0]
    cerrojo = threading.Lock()

    def uno(envio: Envio) -> Calificado:
        try:
            r = Calificado(envio, aislado.calificar(envio.desafio, envio.codigo, curso, **limites))
        except aislado.NoArranco as e:
            r = Calificado(envio, problema=str(e))
        with cerrojo:
            hechos[0] += 1
            if al_acabar is not None:
                al_acabar(hechos[0], len(envios))
        return r

    with ThreadPoolExecutor(max_workers=procesos) as grupo:
        return list(grupo.map(uno, envios))


class Barra:
    """A progress bar on ``flujo`` (stderr), only if it is a terminal."""

    def __init__(self, flujo=None):
        self.flujo = flujo or sys.stderr
        self.activa = self.flujo.isatty()

    def __call__(self, hechos: int, total: int) -> None:
        if not self.activa:
            return
        ancho = 30
        lleno = ancho * hechos // max(total, 1)
        self.flujo.write(f"\r[{'#' * lleno}{'.' * (ancho - lleno)}] {hechos}/{total} calificados")
        self.flujo.flush()

    def borrar(self) -> None:
        if self.activa:
            self.flujo.write("\r\033[K")
            self.flujo.flush()


# ---------------------------------------------------------------- output


def tabla(calificados: list[Calificado]) -> str:
    """One row per submission: file (or reader's export), challenge, passed/total, first
    failing test; and a last line counting them."""
    filas = [("archivo", "desafío", "superadas", "primera fallida")]
    for c in calificados:
        if c.resultado is None:
            filas.append((c.envio.nombre, c.envio.desafio, "—", f"sin calificar: {c.problema}"))
        else:
            filas.append((c.envio.nombre, c.envio.desafio, f"{c.superadas}/{c.total}",
                          c.primera_fallida or "—"))
    anchos = [max(len(f[i]) for f in filas) for i in range(3)]
    lineas = ["  ".join(f[i].ljust(anchos[i]) for i in range(3)) + "  " + f[3] for f in filas]
    aprobados = sum(c.aprobado for c in calificados)
    n = len(calificados)
    lineas.append(f"{n} {'envío' if n == 1 else 'envíos'}: {aprobados} "
                  f"{'supera' if aprobados == 1 else 'superan'} todas las pruebas, "
                  f"{n - aprobados} no")
    return "\n".join(linea.rstrip() for linea in lineas)


def como_csv(calificados: list[Calificado]) -> str:
    """``archivo,desafio,superadas,total,primera_fallida``, one row per submission."""
    salida = io.StringIO()
    escritor = csv.writer(salida, lineterminator="\n")
    escritor.writerow(CABECERA)
    for c in calificados:
        escritor.writerow([c.envio.nombre, c.envio.desafio,
                           "" if c.superadas is None else c.superadas,
                           "" if c.total is None else c.total, c.primera_fallida])
    return salida.getvalue()


def como_json(calificados: list[Calificado], problemas: list[Problema]) -> str:
    """``{"envios": [{archivo, pagina, desafio, superadas, total, primera_fallida, resultado,
    problema}], "problemas": [{archivo, problema}]}``."""
    return json.dumps({
        "envios": [{"archivo": c.envio.archivo, "pagina": c.envio.pagina,
                    "desafio": c.envio.desafio, "superadas": c.superadas, "total": c.total,
                    "primera_fallida": c.primera_fallida or None, "resultado": c.resultado,
                    "problema": c.problema} for c in calificados],
        "problemas": [{"archivo": p.archivo, "problema": p.problema} for p in problemas],
    }, ensure_ascii=False, indent=2)
