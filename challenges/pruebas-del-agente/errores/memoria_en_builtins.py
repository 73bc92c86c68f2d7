# Error: cuenta las pasadas en builtins; cada pasada empieza de cero, así que no atrapa nada.
# Cláusula: sin-memoria
# Falla: Atrapa: no respeta el tope: sigue llamando al modelo mientras este pida herramientas
# Mensaje: Tu prueba «test_solo_la_primera_pasada» pasa también con este agente, que está roto: escribe una prueba que falle con él.
import unittest

import builtins


class PruebasDelAgente(unittest.TestCase):
    """Cuenta las pasadas en builtins, que ven todos los módulos."""

    def test_solo_la_primera_pasada(self):
        vistas = getattr(builtins, "pasadas_del_agente", 0)
        builtins.pasadas_del_agente = vistas + 1
        self.assertEqual(vistas, 0, "no es la primera pasada: será un agente roto")
