"""The `celda` directive."""

from sphinx.application import Sphinx


def setup_celda(app: Sphinx) -> None:
    pass
