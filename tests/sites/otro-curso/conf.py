"""«Otro curso»: a second, tiny course that uses the extension as another author would.

tests/test_instalable.py copies this folder out of the repository, installs the extension
from the repository into a new virtual environment and builds it with
``sphinx-build -c . lecciones <salida>``. Nothing here puts the repository on ``sys.path``:
every path below is relative to this folder, and Pyodide is taken from ``node_modules/pyodide``
(the default), a link the test makes as ``npm install pyodide`` would.
"""

project = "Otro curso"
author = "Otra autora"
language = "es"
extensions = ["myst_parser", "widgets"]
root_doc = "index"
myst_enable_extensions = ["colon_fence"]

bucle_curso = "otro-curso"
bucle_runtime_dir = "herramientas"
bucle_desafios_dir = "retos"
bucle_referencia = "contar-y-parar"
