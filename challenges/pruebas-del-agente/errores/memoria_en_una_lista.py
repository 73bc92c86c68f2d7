# Error: cuenta las pasadas en una lista de un módulo (unittest.__all__); cada pasada empieza de cero, así que no atrapa nada.
# Cláusula: sin-memoria
# Falla: Atrapa: no respeta el tope: sigue llamando al modelo mientras este pida herramientas
# Mensaje: Tu prueba «test_solo_la_primera_pasada» pasa también con este agente, que está roto: escribe una prueba que falle con él.
import unittest


class PruebasDelAgente(unittest.TestCase):
    """Cuenta las pasadas en una lista que un módulo guarda (unittest.__all__): el módulo y su
    nombre son los mismos, pero la lista cambia por dentro."""

    def test_solo_la_primera_pasada(self):
        vistas = unittest.__all__.count("pasadas_del_agente")
        unittest.__all__.append("pasadas_del_agente")
        self.assertEqual(vistas, 0, "no es la primera pasada: será un agente roto")
