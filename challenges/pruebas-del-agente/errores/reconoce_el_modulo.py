# Error: mira el módulo del agente (__module__) para reconocer el de referencia; todos los agentes que recibe vienen del mismo sitio, así que no atrapa nada.
# Cláusula: no-reconoce
# Falla: Atrapa: no respeta el tope: sigue llamando al modelo mientras este pida herramientas
# Mensaje: Tu prueba «test_es_el_de_referencia» pasa también con este agente, que está roto: escribe una prueba que falle con él.
import unittest


class PruebasDelAgente(unittest.TestCase):
    """Reconoce el agente de referencia por su módulo, en vez de probar lo que hace."""

    def test_es_el_de_referencia(self):
        self.assertNotIn("rotos", agente.__module__, "viene de otro módulo: será un roto")
