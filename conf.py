"""Sphinx configuration of «El bucle».

Built with ``sphinx-build -W -c . lessons _build/html`` (see the Makefile): the sources are the
lessons, this file stays at the top of the repository next to the rest of the course. The
extension ``widgets`` is installed into ``.venv`` by ``make`` (``pip install -e .``), as another
course would install it; every path below is relative to this folder (see docs/referencia.md).
"""

project = "El bucle"
author = "El equipo de «El bucle»"
copyright = "2026, " + author
language = "es"

# jupyterlite-sphinx builds the notebooks' site (lite/); widgets.jupyterlite makes one notebook per
# lesson, the «Abrir en JupyterLite» link, and keeps the lite site offline.
extensions = ["myst_parser", "widgets", "jupyterlite_sphinx", "widgets.jupyterlite"]

root_doc = "index"
source_suffix = {".md": "markdown"}
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

html_theme = "furo"
html_title = "El bucle"
html_static_path = []
html_copy_source = False
html_show_sourcelink = False
html_theme_options = {
    "navigation_with_keys": True,
}

# The widgets keep the reader's work in localStorage under this key.
bucle_curso = "el-bucle"
# What the page loads and what the challenges grade (these are the defaults, written out).
bucle_runtime_dir = "runtime"
# The runtime's modules, in order, are runtime/orden.txt (bucle_runtime_modulos's default).
bucle_desafios_dir = "challenges"
bucle_pyodide_dir = "node_modules/pyodide"
# The challenge whose solucion.py holds the loop every `traza` runs.
bucle_referencia = "bucle-con-tope"
html_favicon = "widgets/datos/favicon.svg"
