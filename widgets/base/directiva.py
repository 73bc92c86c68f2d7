"""The base of every widget directive: options checked in Spanish, errors with file and line.

A directive subclasses :class:`Directiva`, lists its options in ``opciones`` (name →
converter, as a docutils ``option_spec``) and writes :meth:`Directiva.construir` instead of
``run``::

    class Celda(Directiva):
        has_content = True
        opciones = {"id": directives.unchanged}

        def construir(self):
            if not self.content:
                raise Invalida("la celda está vacía: …")           # at the directive's line
            ...
            raise Invalida("…", self.linea_de("id"))              # at the option's line
            return [nodo]

Before :meth:`construir` runs, an unknown option (``:ide:``) or a value its converter refuses
(``:pista-tras: tres``) is reported in Spanish at the option's line, with the closest known
name (see :mod:`widgets.base.opciones`). An :class:`Invalida` raised in :meth:`construir` becomes
``pagina.md:LINE: ERROR: mensaje`` and the directive produces nothing else; the build goes on,
and ``sphinx-build -W`` fails at the end, listing every error of the lesson.
"""

from __future__ import annotations

import traceback

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from .opciones import Invalida, OpcionesDe, linea_de_opcion, rechazar_desconocidas

__all__ = ["Directiva", "Invalida", "linea_en"]


class Directiva(SphinxDirective):
    """A widget directive: ``opciones`` in, :meth:`construir` out, errors in Spanish."""

    #: name → converter; the directive's ``option_spec`` is made from it.
    opciones: dict = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.option_spec = OpcionesDe(cls.opciones)

    def run(self) -> list[nodes.Node]:
        try:
            rechazar_desconocidas(self)
            return self.construir()
        except Invalida as fallo:
            return [self.reporter.error(fallo.mensaje, line=fallo.linea or self.lineno)]

    def construir(self) -> list[nodes.Node]:
        raise NotImplementedError

    def linea_de(self, opcion: str) -> int:
        """The source line of option ``:opcion:`` (the directive's when it is not written)."""
        return linea_de_opcion(self, opcion)

    def linea_del_contenido(self, linea: int) -> int:
        """The file's line of line ``linea`` (1-based) of the content. MyST counts
        content_offset from the directive's first line (options included); reStructuredText,
        from the file's."""
        if type(self.state).__module__.startswith("myst_parser"):
            return self.lineno + self.content_offset + linea
        return self.content_offset + linea

    def contenido_dentro(self, marca: str) -> list[nodes.Node]:
        """Parse the content with ``env.temp_data[marca]`` set, so that nested directives know
        what they are inside of (an ``explicacion`` inside a ``pregunta``)."""
        self.env.temp_data[marca] = True
        try:
            return self.parse_content_to_nodes()
        finally:
            self.env.temp_data.pop(marca, None)


def linea_en(error: BaseException, nombre: str) -> int | None:
    """The line of the author's code compiled as ``nombre`` where ``error`` happened (or its
    SyntaxError line)."""
    if isinstance(error, SyntaxError) and error.filename == nombre:
        return error.lineno
    lineas = [f.lineno for f in traceback.extract_tb(error.__traceback__) if f.filename == nombre]
    return lineas[-1] if lineas else None
