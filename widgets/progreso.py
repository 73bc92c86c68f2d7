"""The `progreso` directive."""

from sphinx.application import Sphinx


def setup_progreso(app: Sphinx) -> None:
    pass
