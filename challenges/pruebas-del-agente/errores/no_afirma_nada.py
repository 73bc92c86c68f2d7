# Error: sus pruebas llaman al agente pero no afirman nada, y callan cualquier excepción.
# Cláusula: afirma-algo
# Falla: Atrapa: no añade a M las observaciones de las llamadas
# Mensaje: Tus 4 pruebas pasan también con este agente, que está roto
import unittest


class PruebasDelAgente(unittest.TestCase):

    def test_tortilla(self):
        try:
            agente(ModeloGuionizado(guion_tortilla()), PEDIDO_TORTILLA, dict(ENTORNO),
                   preguntar=Respuestas(["sí"]))
        except Exception:
            pass

    def test_terco(self):
        try:
            agente(ModeloGuionizado(guion_terco(3)), PEDIDO_TERCO, dict(ENTORNO), tope=3)
        except Exception:
            pass

    def test_sin_contenido(self):
        try:
            agente(ModeloGuionizado(guion_sin_contenido()), PEDIDO_SIN_CONTENIDO, dict(ENTORNO))
        except Exception:
            pass

    def test_denegada(self):
        try:
            agente(ModeloGuionizado(guion_tortilla_denegada()), PEDIDO_TORTILLA, dict(ENTORNO))
        except Exception:
            pass
