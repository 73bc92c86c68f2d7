"""Fixtures the browser tests share (the browser, the pages and the server are in tests/conftest.py)."""

import pytest


@pytest.fixture(scope="module")
def celdas_html(sitio_de_prueba):
    return sitio_de_prueba("celdas")
