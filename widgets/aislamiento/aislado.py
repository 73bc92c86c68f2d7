"""Grading one submission in a child Python (the parent's side): :func:`calificar`.

The child (:mod:`.hijo`) grades it with the engine and sends each step signed (:mod:`.canal`);
whatever ends the child before its result becomes the verdict of the test that was running, and
the tests after it are «no se probó». An ordinary submission gets exactly the verdicts of
``Calificador.calificar`` in one process.
"""

from __future__ import annotations

import threading

from widgets.calificador import LIMITE, Veredicto, limites, resultado as resultados
from widgets.calificador.disco import calificador

from . import Curso
from .canal import ARRANQUE, CPU, MARGEN, MEMORIA, SALIDA, NoArranco, empezar
from .textos import nombrar_memoria, texto_salida

__all__ = ["NoArranco", "calificar", "nombres"]

_CALIFICADORES: dict[Curso, object] = {}
_CERROJO = threading.Lock()


def _del_padre(desafio: str, curso: Curso):
    """The parent's own Calificador of ``curso`` (one per process), with ``desafio``'s tests
    loaded: it only gives their names and builds the results of a cut check (it never sees
    the reader's code)."""
    with _CERROJO:
        if curso not in _CALIFICADORES:
            _CALIFICADORES[curso] = calificador(curso.desafios, curso.runtime, curso.modulos)
        c = _CALIFICADORES[curso]
        c.pruebas(desafio, nuevo=False)
        return c


def nombres(desafio: str, curso: Curso) -> list[str]:
    """The names of ``desafio``'s tests, in order."""
    c = _del_padre(desafio, curso)
    with _CERROJO:
        return [n for n, _ in c.pruebas(desafio, nuevo=False)["PRUEBAS"]]


def calificar(desafio: str, codigo: str, curso: Curso, *, limite: float = LIMITE,
              margen: float = MARGEN, cpu: int = CPU, memoria: int = MEMORIA,
              salida: int = SALIDA, arranque: float = ARRANQUE) -> dict:
    """Grade ``codigo`` against ``desafio`` of ``curso`` in a child process: the result, in the
    engine's shape (see :mod:`widgets.calificador.resultado`). Raises :class:`NoArranco` if the
    child could not start grading."""
    padre = _del_padre(desafio, curso)
    hijo = empezar({"tarea": "calificar", "curso": curso.pedido(), "desafio": desafio,
                    "codigo": codigo, "limite": limite, "cpu": cpu, "memoria": memoria}, salida)
    try:
        fin = hijo.seguir(limite + margen, arranque)
    finally:
        hijo.cerrar()
    if fin.final is not None:
        return nombrar_memoria(fin.final, memoria)
    actual = fin.actual
    quien = next(iter(padre.a_escribir(desafio)), "Tu código") if actual else "Tu código"
    motivo = resultados.se_corto(actual) if actual else resultados.sin_cargar()
    if fin.muerte == "tiempo":
        veredicto = Veredicto("tiempo", limites.no_se_dejo_detener(quien, limite))
        motivo = resultados.no_termino(actual) if actual else motivo
    elif fin.muerte == "salida":
        veredicto = Veredicto("salida", texto_salida(salida, actual))
    else:
        veredicto = fin.veredicto(actual, cpu, memoria)
    with _CERROJO:
        return padre.cortado(desafio, fin.hechas, actual, veredicto, motivo)
