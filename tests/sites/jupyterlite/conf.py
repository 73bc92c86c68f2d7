"""A small site whose lesson opens as a notebook in JupyterLite (widgets.jupyterlite)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.sites.comun import configuracion  # noqa: E402

globals().update(configuracion("JupyterLite de prueba", "jupyterlite-de-prueba",
                              ["jupyterlite_sphinx", "widgets.jupyterlite"]))
# Without the course's service worker: with it, JupyterLite's notebook page can start under the
# course's worker instead of its own, and its kernel then fails to set up its files (a known
# problem, not solved yet: see the closing note of #16). This site tests JupyterLite alone.
bucle_sin_conexion = False
