"""What every directive does with the options an author wrote: unknown ones and values that do
not convert are rejected in Spanish with their line, as an :class:`Invalida`.

docutils and MyST would reject both in English ("Unknown option key", "Invalid option value").
A directive whose ``option_spec`` is an :class:`OpcionesDe` lets them through to ``run()``: an
unknown option as a :class:`_Desconocida`, a value its converter refused as a :class:`_NoVale`.
``run()`` calls :func:`rechazar_desconocidas`, which raises an :class:`Invalida` naming the
option, its line, the closest known name and the options there are, or what the value should
be. A directive reports it as ``self.reporter.error(fallo.mensaje, line=fallo.linea)``, so the
build says ``pagina.md:LINE: ERROR: ...``; :class:`widgets.base.directiva.Directiva` does all this.
"""

from __future__ import annotations

import difflib

from docutils.parsers.rst import directives


class Invalida(Exception):
    """What the author must fix, and the source line it is about (None: the directive's)."""

    def __init__(self, mensaje: str, linea: int | None = None):
        super().__init__(mensaje)
        self.mensaje = mensaje
        self.linea = linea


class _Desconocida(str):
    """The value of an option the directive does not know, kept so run() can name it."""


class _NoVale:
    """The value of an option that its converter refused, and why."""

    def __init__(self, valor, error: Exception):
        self.valor = (valor or "").strip()
        self.error = error


def si_o_no(valor) -> bool:
    """A yes/no option: ``sí`` (or ``si``) is True, ``no`` is False; anything else is refused."""
    texto = (valor or "").strip().lower()
    if texto in ("sí", "si"):
        return True
    if texto == "no":
        return False
    raise ValueError(texto)


#: What the value of an option with each docutils converter must be, in an author's words.
ESPERA = {
    si_o_no: "«sí» o «no»",
    directives.nonnegative_int: "un número entero, 0 o más",
    directives.positive_int: "un número entero mayor que 0",
    directives.unchanged_required: "un valor",
}


def _atrapar(convertir):
    """``convertir``, returning a :class:`_NoVale` instead of raising."""
    def convertir_o_no_vale(valor):
        try:
            return convertir(valor)
        except (ValueError, TypeError) as error:
            return _NoVale(valor, error)
    convertir_o_no_vale.original = convertir
    return convertir_o_no_vale


class OpcionesDe(dict):
    """An ``option_spec`` that lets unknown options and refused values through to ``run()``.

    ``OpcionesDe({"id": directives.unchanged})``: each converter is wrapped so that a value it
    refuses arrives as a :class:`_NoVale` (``flag`` is left as it is: MyST treats it apart).
    """

    def __init__(self, spec=()):
        super().__init__({nombre: c if c is directives.flag else _atrapar(c)
                          for nombre, c in dict(spec).items()})

    def __missing__(self, nombre):
        return _Desconocida


def rechazar_desconocidas(directiva, nombre_directiva: str | None = None) -> None:
    """Raise :class:`Invalida` for the first option of ``directiva`` that its ``option_spec``
    does not list, or whose value its converter refused."""
    nombre_directiva = nombre_directiva or directiva.name
    for nombre, valor in directiva.options.items():
        if isinstance(valor, _Desconocida):
            conocidas = sorted(dict.keys(directiva.option_spec))
            parecida = difflib.get_close_matches(nombre, conocidas, n=1)
            pista = f" ¿Querías decir «:{parecida[0]}:»?" if parecida else ""
            lista = ", ".join(f":{c}:" for c in conocidas)
            acepta = f" Las opciones que acepta son {lista}" if conocidas else " No acepta opciones"
            raise Invalida(f"opción desconocida «:{nombre}:» en {{{nombre_directiva}}}.{pista}"
                           f"{acepta}", linea_de_opcion(directiva, nombre))
        if isinstance(valor, _NoVale):
            convertir = getattr(directiva.option_spec[nombre], "original", None)
            espera = ESPERA.get(convertir)
            motivo = f"debe ser {espera}" if espera else str(valor.error)
            escrito = f" {valor.valor}" if valor.valor else ""
            raise Invalida(f"«:{nombre}:{escrito}» no vale en {{{nombre_directiva}}}: {motivo}",
                           linea_de_opcion(directiva, nombre))


def linea_de_opcion(directiva, nombre: str) -> int:
    """The source line of option ``:nombre:`` (the directive's line if it cannot be found)."""
    for i, linea in enumerate((directiva.block_text or "").splitlines()):
        if linea.lstrip().startswith(f":{nombre}:"):
            return directiva.lineno + i
    return directiva.lineno
