# Error: sus pruebas llaman al agente pero no afirman nada, y callan cualquier excepción.
# Cláusula: afirma-algo
# Falla: Atrapa: no respeta el tope: sigue llamando al modelo mientras este pida herramientas
# Mensaje: Tus 5 pruebas pasan también con este agente, que está roto
import unittest


def se_cierra_la_pagina(ll):
    raise RuntimeError("se ha cerrado la página")


class PruebasDelAgente(unittest.TestCase):

    def test_terco(self):
        try:
            agente(ModeloGuionizado(guion_terco(3)), PEDIDO_TERCO, dict(ENTORNO), tope=3)
        except Exception:
            pass

    def test_sin_tope(self):
        try:
            agente(ModeloGuionizado(guion_terco(10)), PEDIDO_TERCO, dict(ENTORNO))
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

    def test_preguntar_que_falla(self):
        try:
            agente(ModeloGuionizado(guion_tortilla_denegada()), PEDIDO_TORTILLA, dict(ENTORNO),
                   preguntar=se_cierra_la_pagina)
        except Exception:
            pass
