"""The `traza` directive."""

from sphinx.application import Sphinx


def setup_traza(app: Sphinx) -> None:
    pass
