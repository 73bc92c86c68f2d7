"""A site with the challenge «bucle-con-tope», for the directive's and the page's tests."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

project = "Desafíos"
language = "es"
extensions = ["myst_parser", "widgets"]
myst_enable_extensions = ["colon_fence"]
html_theme = "furo"
html_copy_source = False
html_show_sourcelink = False
bucle_curso = "prueba-desafios"
