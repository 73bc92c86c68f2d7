# Error: mira el código del agente (su __code__) para reconocer el de referencia; el agente que recibe es opaco, y leer su código es un error con cualquier agente.
# Cláusula: no-reconoce
# Falla: tus pruebas pasan con cada agente correcto
# Mensaje: «test_es_el_de_referencia» da un error: Prohibido: aquí no se puede usar __code__
import unittest

import inspect


class PruebasDelAgente(unittest.TestCase):
    """Reconoce el agente de referencia por su código, en vez de probar lo que hace."""

    def test_es_el_de_referencia(self):
        codigo = inspect.unwrap(agente).__code__
        self.assertIn("range", codigo.co_names, "no es el bucle de la lección: será un roto")
