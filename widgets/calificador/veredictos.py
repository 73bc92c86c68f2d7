"""A reader's exception (or syntax error) → the Spanish verdict, with the line of THEIR code,
never the grader's traceback."""

import traceback

from . import limites
from .limites import Inundacion, SinTiempo
from .muralla import Prohibido
from .probar import Veredicto

#: The file name the reader's code is compiled with (its lines are theirs).
ARCHIVO = "<tu código>"


def lineas_del_lector(tb):
    """The reader's lines in a traceback, outermost first; and the function the innermost one
    called (if the error came from elsewhere, like ``ejecutar``)."""
    lineas, llamada = [], None
    for marco, linea in traceback.walk_tb(tb):
        if marco.f_code.co_filename == ARCHIVO:
            lineas.append(linea)
            llamada = None
        elif lineas and llamada is None:
            llamada = marco.f_code.co_name
    return lineas, llamada


def cita(fuente, linea):
    """Line ``linea`` of the reader's code, indented, on a line of its own ("" if none)."""
    lineas = fuente.splitlines()
    texto = lineas[linea - 1].strip() if linea and linea <= len(lineas) else ""
    return f"\n    {texto}" if texto else ""


def durante(prueba):
    """When it happened: «mientras se calificaba «prueba»», or «mientras se cargaba» (None)."""
    return f"mientras se calificaba «{prueba}»" if prueba else "mientras se cargaba"


def termino_el_proceso(codigo, prueba):
    """The reader's code ended the whole process (``os._exit(codigo)``): the command's child
    dies, the page's Python stops; both say this."""
    return (f"tu código terminó el proceso con os._exit({codigo}) {durante(prueba)}: aquí no "
            f"se termina el programa; devuelve el resultado con return.")


def sin_tiempo(quien, limite, linea=None):
    iba = f" (iba por la línea {linea})" if linea else ""
    return Veredicto("tiempo", limites.sin_tiempo(quien, limite, iba), linea)


def inundacion(quien, donde="", texto="", linea=None):
    return Veredicto("salida", limites.inundacion(quien, donde, texto), linea)


def de_sintaxis(error, fuente):
    linea = error.lineno
    tipo = "de sangría" if isinstance(error, IndentationError) else "de sintaxis"
    donde = f" en la línea {linea}" if linea else ""
    return Veredicto("sintaxis", f"Tu código tiene un error {tipo}{donde}: {error.msg}."
                     f"{cita(fuente, linea)}", linea)


def veredicto(error, fuente, quien, agotado, inundado, limite):
    """The verdict for an exception that came out of the reader's code (``quien``: their
    function, or «Tu código» while it loads); ``agotado`` and ``inundado``: whether the watchdog
    or the output cap stopped it."""
    lineas, llamada = lineas_del_lector(error.__traceback__)
    linea = lineas[-1] if lineas else None
    if isinstance(error, RecursionError) and lineas:
        # The most repeated of the last ones: the call that repeats, not the «def» that
        # overflowed.
        ultimas = lineas[-50:]
        linea = max(reversed(ultimas), key=ultimas.count)
    donde = f" en la línea {linea}" if linea else ""
    texto = cita(fuente, linea)
    if agotado or isinstance(error, SinTiempo):
        return sin_tiempo(quien, limite, linea)
    if inundado or isinstance(error, Inundacion):
        return inundacion(quien, donde, texto, linea)
    if isinstance(error, SystemExit):
        return Veredicto("exit", f"{quien} llamó a sys.exit() (o a exit o quit){donde}: aquí no "
                         f"se termina el programa; devuelve el resultado con return.{texto}", linea)
    if isinstance(error, RecursionError):
        return Veredicto("recursion", f"{quien} se llama a sí mismo sin fin (RecursionError)"
                         f"{donde}: ¿una función que se llama a sí misma?{texto}", linea)
    if isinstance(error, EOFError):  # input(): stdin is empty while grading
        return Veredicto("error", f"{quien} pidió una entrada con input(){donde}: aquí nadie "
                         f"puede escribir; lo que necesita le llega como argumentos.{texto}", linea)
    if isinstance(error, Prohibido):
        return Veredicto("error", f"{quien} intentó usar {error.que}{donde}: mientras se "
                         f"califica, tu código solo trabaja con lo que recibe, sin mirar la "
                         f"pila, la memoria ni el interior de otras funciones.{texto}", linea)
    if llamada:
        donde += f" (dentro de {llamada})"
    mensaje = str(error)
    que = f": {mensaje}" if mensaje else "."
    return Veredicto("error", f"{quien} lanzó {type(error).__name__}{donde}{que}{texto}", linea)
