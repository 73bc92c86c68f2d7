"""A challenge's build-time checks in a child Python (:func:`comprobar`), and a pool of them
(:class:`Grupo`): what the build, ``python -m widgets comprobar`` and a course's own command use.

The checks are :func:`widgets.calificador.disco.comprobar`'s (the reference passes every test,
the starter does not, each known-wrong solution fails its test with its message), run by the
child (:mod:`.hijo`), which says which file it grades before each one. So a reference or a
known-wrong solution that ends its process (``os._exit``), loops past every clock, floods its
output or crashes the interpreter is a problem of that file, in Spanish, and never the end of
the build or of the command: the caller gets a :class:`Comprobado` whatever the child did.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from widgets.calificador import LIMITE, limites

from . import Curso
from .canal import ARRANQUE, MEMORIA, SALIDA, NoArranco, empezar
from .textos import texto_salida

#: Seconds past the engine's limit before a check's child stuck in one test (or in loading a
#: file) is killed: more than a grading's margin, as an author's machine may be busy building.
MARGEN = 20.0
#: Seconds of CPU a challenge's whole check may use (its reference, starter and known-wrong
#: solutions: several seconds for this course's largest).
CPU = 600


@dataclass
class Comprobado:
    """What checking a challenge gave: its problems ([(file, problem in Spanish)], none when
    all hold), its data for the page (``Calificador.datos``; None if it has problems) and the
    URLs of the files the engine read."""

    problemas: list[tuple[Path, str]]
    datos: dict | None = None
    leidos: list[str] = field(default_factory=list)


def comprobar(curso: Curso, desafio: str, *, limite: float = LIMITE, margen: float = MARGEN,
              cpu: int = CPU, memoria: int = MEMORIA, salida: int = SALIDA,
              arranque: float = ARRANQUE) -> Comprobado:
    """Check ``desafio`` of ``curso`` in a child process."""
    pruebas = curso.desafios / desafio / "pruebas.py"
    try:
        hijo = empezar({"tarea": "comprobar", "curso": curso.pedido(), "desafio": desafio,
                        "cpu": cpu, "memoria": memoria}, salida)
    except NoArranco as e:
        return Comprobado([(pruebas, f"no se pudo comprobar el desafío: {e}")])
    try:
        fin = hijo.seguir(limite + margen, arranque)
    except NoArranco as e:
        return Comprobado([(pruebas, f"no se pudo comprobar el desafío: {e}")])
    finally:
        hijo.cerrar()
    if fin.final is not None:
        hecho = fin.final
        return Comprobado([(Path(a), p) for a, p in hecho["problemas"]], hecho["datos"],
                          hecho["leidos"])
    archivo = Path(fin.archivo) if fin.archivo else pruebas
    return Comprobado([(archivo, _murio(fin, limite + margen, cpu, memoria, salida))])


def _murio(fin, plazo: float, cpu: int, memoria: int, salida: int) -> str:
    """Why a check's child ended before its result, said of the file it was grading."""
    if fin.muerte == "tiempo":
        que = (f"pasaron {limites.segundos(plazo)} sin que acabara {_durante(fin.actual)}, y se "
               f"paró el proceso: ¿un bucle sin fin que atrapa todas las excepciones?")
    elif fin.muerte == "salida":
        que = texto_salida(salida, fin.actual)
    else:
        que = fin.veredicto(fin.actual, cpu, memoria).datos["mensaje"]
    return f"al calificarlo, el proceso del calificador acabó sin dar su resultado: {que}"


def _durante(prueba: str | None) -> str:
    return f"«{prueba}»" if prueba else "su carga"


class Grupo:
    """A pool of checks in child processes, as many at once as there are cores: the build asks
    for every challenge its documents use as soon as it knows them (:meth:`pedir`), then waits
    for each where its directive needs it (:meth:`resultado`)."""

    def __init__(self, procesos: int | None = None):
        self._pool = ThreadPoolExecutor(max_workers=procesos or os.cpu_count() or 1,
                                        thread_name_prefix="comprobar")
        self._pedidos: dict[tuple[Curso, str], Future] = {}
        self._cerrojo = threading.Lock()

    def pedir(self, curso: Curso, desafio: str) -> Future:
        """Start checking ``desafio`` of ``curso`` (once: a second call gets the same one)."""
        with self._cerrojo:
            clave = (curso, desafio)
            if clave not in self._pedidos:
                self._pedidos[clave] = self._pool.submit(comprobar, curso, desafio)
            return self._pedidos[clave]

    def resultado(self, curso: Curso, desafio: str) -> Comprobado:
        """The check of ``desafio`` of ``curso``, waited for (and forgotten: a later call
        checks it again, as the files may have changed)."""
        hecho = self.pedir(curso, desafio).result()
        with self._cerrojo:
            self._pedidos.pop((curso, desafio), None)
        return hecho

    def cerrar(self) -> None:
        """Forget what was asked and not taken, and let the pool's threads end (the build
        ended): a check already running finishes, one not begun never starts."""
        with self._cerrojo:
            self._pedidos.clear()
        self._pool.shutdown(wait=False, cancel_futures=True)
