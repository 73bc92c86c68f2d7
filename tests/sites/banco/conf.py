"""A small course with the `banco` directive (lesson «Medir el agente»), for the directive's and
the page's tests: the noisy scripted model, two harnesses, a slow one, broken ones, a recording."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.sites.comun import configuracion

globals().update(configuracion("Banco de prueba", "banco-de-prueba", exclude_patterns=["medidas"]))
