"""A small site whose lesson opens as a notebook in JupyterLite (widgets.jupyterlite)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

project = "JupyterLite de prueba"
language = "es"
extensions = ["myst_parser", "widgets", "jupyterlite_sphinx", "widgets.jupyterlite"]
root_doc = "index"
source_suffix = {".md": "markdown"}
myst_enable_extensions = ["colon_fence", "deflist"]
html_theme = "furo"
html_title = "JupyterLite de prueba"
html_copy_source = False
html_show_sourcelink = False
bucle_curso = "jupyterlite-de-prueba"
