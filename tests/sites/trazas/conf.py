"""A small site with step-through traces, for the tests of the `traza` directive."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.sites.comun import configuracion

globals().update(configuracion("Trazas de prueba", "trazas-de-prueba",
                              # As in the course: ← and → turn pages, unless a widget keeps them.
                              html_theme_options={"navigation_with_keys": True}))
