"""The `pregunta` directive."""

from sphinx.application import Sphinx


def setup_pregunta(app: Sphinx) -> None:
    pass
