"""A small site whose lesson opens as a notebook in JupyterLite (widgets.jupyterlite)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.sites.comun import configuracion

globals().update(configuracion("JupyterLite de prueba", "jupyterlite-de-prueba",
                              ["jupyterlite_sphinx", "widgets.jupyterlite"]))
