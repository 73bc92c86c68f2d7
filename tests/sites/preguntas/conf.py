"""A small site with every kind of question, for the browser tests (tests/browser/test_pregunta.py)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.sites.comun import configuracion

globals().update(configuracion("Preguntas", "pruebas"))
