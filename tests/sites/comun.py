"""What the small sites of the tests share in their conf.py: a course like lessons/ (MyST, Furo,
Spanish, the widgets), with its own title and course id.

    from tests.sites.comun import configuracion
    globals().update(configuracion("Celdas de prueba", "celdas-de-prueba"))
"""

from __future__ import annotations


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
        **mas,
    }
