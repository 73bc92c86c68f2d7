"""The model's widget as lesson 6 has it, with the start the lesson's conversations share, and one
cell: the site of ``make bench``'s model figures and of ``python -m bench.grabar``."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.sites.comun import configuracion

globals().update(configuracion("Modelo preparado", "modelo-preparado"))
