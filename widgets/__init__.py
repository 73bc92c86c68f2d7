"""«El bucle»'s Sphinx extension: runnable cells, traces, questions and challenges in MyST.

``extensions = ["widgets"]`` in an author's ``conf.py``; ``"widgets.jupyterlite"`` adds «Abrir en
JupyterLite». The layout, one folder per role, is drawn in ARCHITECTURE.md.
"""

__version__ = "0.1.0"


def setup(app):
    # Imported when Sphinx loads the extension, not with the package: the grader
    # (``widgets.calificador``, in the command and in the page) never loads Sphinx.
    from .extension import setup_extension

    return {"version": __version__, **setup_extension(app)}
