"""The `desafio` directive."""

from sphinx.application import Sphinx


def setup_desafio(app: Sphinx) -> None:
    pass
