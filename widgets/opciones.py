"""What every directive does with what an author wrote: options unknown to it rejected in
Spanish with their line, and :class:`Invalida`, the error an author must fix.

docutils and MyST would reject an unknown option in English; a directive whose ``option_spec``
is an :class:`OpcionesDe` lets it through to ``run()``, which calls :func:`rechazar_desconocidas`
and reports, in Spanish, the option, its line, the closest known name and the list of options.
A directive reports an :class:`Invalida` as ``self.reporter.error(fallo.mensaje,
line=fallo.linea)``, so the build says ``pagina.md:LINE: ERROR: ...``.
"""

from __future__ import annotations

import difflib


class Invalida(Exception):
    """What the author must fix, and the source line it is about (None: the directive's)."""

    def __init__(self, mensaje: str, linea: int | None = None):
        super().__init__(mensaje)
        self.mensaje = mensaje
        self.linea = linea


class _Desconocida(str):
    """The value of an option the directive does not know, kept so run() can name it."""


class OpcionesDe(dict):
    """An ``option_spec`` that lets unknown options through to ``run()``.

    docutils and MyST would reject them in English; the directive rejects them in Spanish, with
    the line of the option and the closest known name.
    """

    def __missing__(self, nombre):
        return _Desconocida


def rechazar_desconocidas(directiva, nombre_directiva: str) -> None:
    """Raise for the first option of ``directiva`` that its ``option_spec`` does not list."""
    for nombre, valor in directiva.options.items():
        if isinstance(valor, _Desconocida):
            conocidas = sorted(dict.keys(directiva.option_spec))
            parecida = difflib.get_close_matches(nombre, conocidas, n=1)
            pista = f" ¿Querías decir «:{parecida[0]}:»?" if parecida else ""
            lista = ", ".join(f":{c}:" for c in conocidas)
            raise Invalida(
                f"opción desconocida «:{nombre}:» en {{{nombre_directiva}}}.{pista} "
                f"Las opciones que acepta son {lista}",
                linea_de_opcion(directiva, nombre),
            )


def linea_de_opcion(directiva, nombre: str) -> int:
    """The source line of option ``:nombre:`` (the directive's line if it cannot be found)."""
    for i, linea in enumerate((directiva.block_text or "").splitlines()):
        if linea.lstrip().startswith(f":{nombre}:"):
            return directiva.lineno + i
    return directiva.lineno
