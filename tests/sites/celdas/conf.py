"""A small site of runnable cells for the browser tests of the `celda` directive."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.sites.comun import configuracion

globals().update(configuracion("Celdas de prueba", "celdas-de-prueba"))
