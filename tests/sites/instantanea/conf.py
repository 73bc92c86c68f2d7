"""A small site for the browser tests of the worker's memory snapshot (tests/browser/test_instantanea.py)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

project = "Instantánea de prueba"
language = "es"
extensions = ["myst_parser", "widgets"]
root_doc = "index"
source_suffix = {".md": "markdown"}
myst_enable_extensions = ["colon_fence", "deflist"]
html_theme = "furo"
html_title = "Instantánea de prueba"
html_copy_source = False
html_show_sourcelink = False
bucle_curso = "instantanea-de-prueba"
