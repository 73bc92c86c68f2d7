"""What the reader's code touches while it runs: its ``sys.stdout`` and the functions the tests
hand it. They are defined here, in a module that holds nothing else, so that from their
``__globals__`` (``sys.stdout.write.__globals__``, ``modelo.__globals__``) nothing leads to the
grader or to the tests. Keep it that way: it imports nothing (what ``Salida`` needs comes in
its arguments).
"""


class Salida:
    """What the reader writes: the first ``guardada`` characters are kept; past ``tope``, the
    print raises ``inundacion``."""

    def __init__(self, guardada, tope, inundacion):
        self.guardada, self.tope, self.inundacion = guardada, tope, inundacion
        self.partes = []
        self.guardados = 0
        self.total = 0
        self.inundado = False

    def write(self, texto):
        texto = str(texto)
        self.total += len(texto)
        if self.guardados < self.guardada:
            trozo = texto[: self.guardada - self.guardados]
            self.partes.append(trozo)
            self.guardados += len(trozo)
        if self.total > self.tope:
            self.inundado = True
            raise self.inundacion()
        return len(texto)

    def flush(self):
        pass

    def isatty(self):
        return False

    def texto(self):
        texto = "".join(self.partes)
        return texto + ("…" if self.total > self.guardados else "")


def opaca(enviar, nombre):
    """A function that passes its arguments to ``enviar`` (a generator's send) and returns or
    raises what it answers."""
    def funcion(*argumentos, **nombrados):
        ok, valor = enviar((argumentos, nombrados))
        if ok:
            return valor
        raise valor

    funcion.__name__ = funcion.__qualname__ = nombre
    return funcion
