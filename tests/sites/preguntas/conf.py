"""A small site with every kind of question, for the browser tests (tests/browser/test_pregunta.py)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

project = "Preguntas"
language = "es"
extensions = ["myst_parser", "widgets"]
myst_enable_extensions = ["colon_fence"]
html_theme = "furo"
html_title = "Preguntas"
html_copy_source = False
html_show_sourcelink = False
bucle_curso = "pruebas"
