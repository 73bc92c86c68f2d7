# Error: cuenta las pasadas en un módulo que deja en sys.modules; cada pasada empieza de cero, así que no atrapa nada.
# Cláusula: sin-memoria
# Falla: Atrapa: no respeta el tope: sigue llamando al modelo mientras este pida herramientas
# Mensaje: Tu prueba «test_solo_la_primera_pasada» pasa también con este agente, que está roto: escribe una prueba que falle con él.
import unittest

import sys
import types


class PruebasDelAgente(unittest.TestCase):
    """Cuenta las pasadas en un módulo inventado, puesto en sys.modules."""

    def test_solo_la_primera_pasada(self):
        contador = sys.modules.setdefault("pasadas_del_agente", types.SimpleNamespace(n=0))
        contador.n += 1
        self.assertEqual(contador.n, 1, "no es la primera pasada: será un agente roto")
