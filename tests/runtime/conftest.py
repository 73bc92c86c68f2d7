"""The fixtures of the tests of runtime/: a page's namespace and a copy of its files."""

import pytest

from tests.runtime.comun import cargar


@pytest.fixture
def rt():
    """El espacio de nombres de una página que cargó entorno.py y luego guionizado.py."""
    return cargar("entorno", "guionizado")


@pytest.fixture
def e(rt):
    return dict(rt["ENTORNO"])
