# Error: cuenta las pasadas en una variable de entorno; cada pasada empieza de cero, así que no atrapa nada.
# Cláusula: sin-memoria
# Falla: Atrapa: no respeta el tope: sigue llamando al modelo mientras este pida herramientas
# Mensaje: Tu prueba «test_solo_la_primera_pasada» pasa también con este agente, que está roto: escribe una prueba que falle con él.
import unittest

import os


class PruebasDelAgente(unittest.TestCase):
    """Cuenta las pasadas en una variable de entorno."""

    def test_solo_la_primera_pasada(self):
        vistas = int(os.environ.get("PASADAS_DEL_AGENTE", "0"))
        os.environ["PASADAS_DEL_AGENTE"] = str(vistas + 1)
        self.assertEqual(vistas, 0, "no es la primera pasada: será un agente roto")
