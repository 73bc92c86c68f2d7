# Error: cuenta las pasadas en un archivo; cada pasada empieza de cero (el archivo que deja se borra), así que no atrapa nada.
# Cláusula: sin-memoria
# Falla: Atrapa: no respeta el tope: sigue llamando al modelo mientras este pida herramientas
# Mensaje: Tu prueba «test_solo_la_primera_pasada» pasa también con este agente, que está roto: escribe una prueba que falle con él.
import unittest

import os
import tempfile

#: Un archivo por proceso: dos calificaciones a la vez no comparten su cuenta.
ARCHIVO = os.path.join(tempfile.gettempdir(), f"pasadas-del-agente-{os.getpid()}.txt")


class PruebasDelAgente(unittest.TestCase):
    """Cuenta las pasadas en un archivo temporal."""

    def test_solo_la_primera_pasada(self):
        primera = not os.path.exists(ARCHIVO)
        with open(ARCHIVO, "a", encoding="utf-8") as f:
            f.write("otra pasada\n")
        self.assertTrue(primera, "no es la primera pasada: será un agente roto")
