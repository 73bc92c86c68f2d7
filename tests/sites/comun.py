"""What the small sites of the tests share in their conf.py: a course like lessons/ (MyST, Furo,
Spanish, the widgets), with its own title and course id.

    from tests.sites.comun import configuracion
    globals().update(configuracion("Celdas de prueba", "celdas-de-prueba"))
"""

from __future__ import annotations

from pathlib import Path

RAIZ = Path(__file__).resolve().parents[2]

#: The extension's path settings for a site whose conf.py is not at this repository's root:
#: this course's runtime, challenges and Pyodide (the defaults are relative to the confdir).
AJUSTES_DEL_REPO = {
    "bucle_runtime_dir": str(RAIZ / "runtime"),
    "bucle_desafios_dir": str(RAIZ / "challenges"),
    "bucle_pyodide_dir": str(RAIZ / "node_modules" / "pyodide"),
    "bucle_node_modules": str(RAIZ / "node_modules"),
    "bucle_referencia": "bucle-con-tope",
    # widgets.jupyterlite's wheel cache, shared with the course's build
    "bucle_jupyterlite_ruedas": str(RAIZ / "_build" / "ruedas-pyodide"),
    # widgets.construccion.modelo_local's cache (the model's wheel and GGUF), shared with the course's build
    "bucle_modelo_cache": str(RAIZ / "_build" / "modelo"),
    # the page's own wheels (pyodide-http), in the same cache
    "bucle_ruedas_dir": str(RAIZ / "_build" / "ruedas-pyodide"),
}


def configuracion(titulo: str, curso: str, extensiones=(), **mas) -> dict:
    """Sphinx settings of a test site named `titulo` whose storage keys use `curso`."""
    return {
        "project": titulo,
        "html_title": titulo,
        "bucle_curso": curso,
        "language": "es",
        "extensions": ["myst_parser", "widgets", *extensiones],
        "root_doc": "index",
        "source_suffix": {".md": "markdown"},
        "myst_enable_extensions": ["colon_fence", "deflist"],
        "html_theme": "furo",
        "html_copy_source": False,
        "html_show_sourcelink": False,
        **AJUSTES_DEL_REPO,
        **mas,
    }
