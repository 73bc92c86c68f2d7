"""A small site for the browser tests of the bridge to the model (tests/browser/test_puente.py):
a page that serves a stub model (sirve.md, through _static/prueba-modelo.js) and one that does
not (index.md), with cells that POST with urllib.request as runtime/api.py's enviar does."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.sites.comun import configuracion

globals().update(configuracion(
    "Puente de prueba", "puente-de-prueba",
    html_static_path=["_static"],
    html_js_files=[("prueba-modelo.js", {"type": "module"})],
))
