# Error: mira el nombre del agente (__name__, __qualname__) para reconocer el de referencia; todos los agentes que recibe se llaman igual, así que no atrapa nada.
# Cláusula: no-reconoce
# Falla: Atrapa: no respeta el tope: sigue llamando al modelo mientras este pida herramientas
# Mensaje: Tu prueba «test_es_el_de_referencia» pasa también con este agente, que está roto: escribe una prueba que falle con él.
import unittest


class PruebasDelAgente(unittest.TestCase):
    """Reconoce el agente de referencia por su nombre, en vez de probar lo que hace."""

    def test_es_el_de_referencia(self):
        self.assertEqual((agente.__name__, agente.__qualname__), ("agente", "agente"),
                         "no se llama como el de la lección: será un roto")
