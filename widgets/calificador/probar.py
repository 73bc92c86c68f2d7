"""Running one test: what a test raises (:class:`Fallo`), what the reader's code earns
(:class:`Veredicto`), and :func:`probar`, which turns either into the test's result."""

from . import resultado


class Fallo(Exception):
    """A test does not hold: ``mensaje`` says what happened; ``turno``, at which model call."""

    def __init__(self, mensaje, turno=None):
        super().__init__(mensaje)
        self.mensaje = mensaje
        self.turno = turno


class Veredicto(Exception):
    """The reader's code did not get to give a result: an error, no time left, too much output…

    ``datos`` is ``{"tipo", "mensaje", "linea"}`` (the result's ``"error"``, see
    :mod:`.resultado`); tipo is "sintaxis", "error", "tiempo", "salida", "exit", "recursion",
    "falta" or "firma".
    """

    def __init__(self, tipo, mensaje, linea=None):
        super().__init__(mensaje)
        self.datos = resultado.error(tipo, mensaje, linea)

    def como_resultado(self, nombre, salida=""):
        """The result of test ``nombre`` that ended with this verdict."""
        return resultado.de_la_prueba(nombre, self.datos["tipo"], self.datos["mensaje"],
                                linea=self.datos["linea"], salida=salida)


def probar(nombre, prueba, envio):
    """Run test ``prueba`` (a function of the challenge's ``pruebas.py``) on ``envio``; return
    its result. A KeyboardInterrupt (the page asked to stop) goes through."""
    envio.salidas = []
    envio.lanzada = None
    try:
        prueba(envio)
        tipo, mensaje, extra = "ok", None, {}
    except Fallo as f:
        tipo, mensaje, extra = "fallo", f.mensaje, {"turno": f.turno}
    except Veredicto as v:
        return v.como_resultado(nombre, "".join(envio.salidas))
    except KeyboardInterrupt:
        raise
    except BaseException as e:
        lanzada, envio.lanzada = envio.lanzada, None
        if lanzada is not None and lanzada[0] is e:
            # The reader's function raised it (see Envio.funcion) and the test did not expect it.
            return lanzada[1].como_resultado(nombre, "".join(envio.salidas))
        if not isinstance(e, Exception):
            raise
        # A bug of the test: show it, without blaming the reader.
        tipo, extra = "interno", {}
        mensaje = f"error interno de la prueba (no es culpa de tu código): {type(e).__name__}: {e}"
    return resultado.de_la_prueba(nombre, tipo, mensaje, salida="".join(envio.salidas), **extra)
