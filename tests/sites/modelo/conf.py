"""A small site with the in-page model's download widget, for its browser tests."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.sites.comun import configuracion

globals().update(configuracion("Modelo de prueba", "modelo-de-prueba"))
