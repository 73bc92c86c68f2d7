# Error: cuenta las pasadas en un atributo de una clase de unittest; cada pasada empieza de cero, así que no atrapa nada.
# Cláusula: sin-memoria
# Falla: Atrapa: no respeta el tope: sigue llamando al modelo mientras este pida herramientas
# Mensaje: Tu prueba «test_solo_la_primera_pasada» pasa también con este agente, que está roto: escribe una prueba que falle con él.
import unittest


class PruebasDelAgente(unittest.TestCase):
    """Cuenta las pasadas en un atributo de unittest.TestCase, que su clase hereda."""

    def test_solo_la_primera_pasada(self):
        vistas = getattr(unittest.TestCase, "pasadas_del_agente", 0)
        unittest.TestCase.pasadas_del_agente = vistas + 1
        self.assertEqual(vistas, 0, "no es la primera pasada: será un agente roto")
