"""A small site with step-through traces, for the tests of the `traza` directive."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

project = "Trazas de prueba"
language = "es"
extensions = ["myst_parser", "widgets"]
root_doc = "index"
source_suffix = {".md": "markdown"}
myst_enable_extensions = ["colon_fence", "deflist"]
html_theme = "furo"
html_title = "Trazas de prueba"
html_copy_source = False
html_show_sourcelink = False
# As in the course: ← and → turn pages, unless a widget keeps them.
html_theme_options = {"navigation_with_keys": True}
bucle_curso = "trazas-de-prueba"
