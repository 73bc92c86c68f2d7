"""The optional extension «Abrir en JupyterLite» (``"widgets.jupyterlite"`` in ``conf.py``): its
registrar. What it does is in :mod:`widgets.construccion.jupyterlite`."""

from sphinx.application import Sphinx

from . import __version__
from .construccion.jupyterlite import setup_jupyterlite


def setup(app: Sphinx) -> dict:
    setup_jupyterlite(app)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
