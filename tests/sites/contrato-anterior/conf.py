"""«Contrato anterior»: a course written last month, to the earlier contract of a challenge's
tests (``desafios/responder/pruebas.py`` uses the runtime's ``ModeloGuionizado`` and ``texto``
and the grader's ``Fallo`` without importing them). Its build and ``python -m widgets
comprobar`` tell the author the file and the imports to add (tests/test_contrato_anterior.py).

Its own runtime and challenges; Pyodide and the npm packages are this repository's.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.sites.comun import configuracion

globals().update(configuracion("Contrato anterior", "contrato-anterior",
                               bucle_runtime_dir="runtime", bucle_desafios_dir="desafios",
                               bucle_runtime_modulos=None, bucle_referencia=None))
