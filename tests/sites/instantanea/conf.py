"""A small site for the browser tests of the worker's memory snapshot (tests/browser/test_instantanea.py)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.sites.comun import configuracion

globals().update(configuracion("Instantánea de prueba", "instantanea-de-prueba"))
