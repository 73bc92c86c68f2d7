"""«El bucle»'s Sphinx extension: runnable cells, traces, questions and challenges in MyST."""

__version__ = "0.1.0"


def setup(app):
    from .extension import setup_extension

    return setup_extension(app)
