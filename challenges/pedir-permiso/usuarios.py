"""Los usuarios de las pruebas de «pedir-permiso»: Usuario, el de la prueba, que responde lo que
le toca y anota cada pregunta; Guionizado, el de lo esperado; y quien(ll), cómo nombran los
mensajes una llamada."""

import copy as copia


class Usuario:
    """El usuario de una prueba: responde `respuestas` en orden ("sí" o "no"; pasadas, no) y
    anota cada pregunta: (la llamada recibida, el entorno en ese momento, el turno)."""

    def __init__(self, respuestas, entorno=None, notas=None):
        self.respuestas = [r == "sí" for r in respuestas]
        self.entorno, self.notas = entorno, notas
        self.preguntas = []

    def __call__(self, *args, **kwargs):
        ll = args[0] if len(args) == 1 and not kwargs else (args, kwargs)
        foto = dict(self.entorno) if isinstance(self.entorno, dict) else None
        turno = self.notas["respuestas"] if self.notas is not None else None
        self.preguntas.append((copia.deepcopy(ll), foto, turno))
        n = len(self.preguntas)
        return self.respuestas[n - 1] if n <= len(self.respuestas) else False


class Guionizado:
    """El usuario de lo esperado: como Usuario, sin anotar nada más que las llamadas."""

    def __init__(self, respuestas):
        self.respuestas = [r == "sí" for r in respuestas]
        self.preguntas = []

    def __call__(self, ll):
        self.preguntas.append(ll)
        n = len(self.preguntas)
        return self.respuestas[n - 1] if n <= len(self.respuestas) else False


def quien(ll):
    return f"{ll['id']} ({ll['name']})"
