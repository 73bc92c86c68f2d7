# El mundo de «Contrato anterior»: un modelo que responde lo que dice su guion.
# Se carga con exec(open_url("runtime/mundo.py").read()).


def texto(t):
    """Un bloque de texto de una respuesta del modelo."""
    return {"type": "text", "text": t}


class ModeloGuionizado:
    """Un modelo que responde, turno a turno, lo que dice su guion."""

    def __init__(self, respuestas):
        self.respuestas = list(respuestas)
        self.turno = 0

    def __call__(self, M):
        self.turno += 1
        return self.respuestas[self.turno - 1]
