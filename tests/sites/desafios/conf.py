"""A site with the challenge «bucle-con-tope», for the directive's and the page's tests."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.sites.comun import configuracion

globals().update(configuracion("Desafíos", "prueba-desafios"))
