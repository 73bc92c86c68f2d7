# Los agentes de «pruebas-del-agente» contra los que corren las pruebas del lector.
#
# CORRECTOS (los «trigos»): [(lo que lo distingue, agente)], el mismo contrato escrito de tres
# maneras (agente.py recorre los turnos con un for; agente_while.py los cuenta con un while;
# agente_recursivo.py se llama a sí mismo en cada turno). Las pruebas del lector deben pasar con
# todos: una prueba que mira cómo está escrito el agente, y no lo que hace, falla con alguno.
# ROTOS (la «paja»): los de rotos.py, cada uno con un solo fallo.
#
# El calificador carga este módulo de nuevo para cada pasada de las pruebas del lector: cada
# agente corre con módulos propios, sin nada que haya dejado la pasada anterior.

from .agente import agente as con_for
from .agente_recursivo import agente as recursivo
from .agente_while import agente as con_while
from .rotos import ROTOS

CORRECTOS = [
    ("que recorre los turnos con un for", con_for),
    ("que cuenta los turnos con un while", con_while),
    ("que se llama a sí mismo en cada turno", recursivo),
]

__all__ = ["CORRECTOS", "ROTOS"]
