"""Cells for every reader: no serious accessibility violation (light and dark), and a cell that works
on a phone."""

import json

import pytest
from playwright.sync_api import expect

from tests.browser.celdas import CURSO, Celda
from tests.conftest import violaciones_axe

pytestmark = pytest.mark.navegador


def test_a_page_with_cells_has_no_serious_accessibility_violation(celdas_html, servidor, pagina):
    pagina.goto(servidor(celdas_html))
    pagina.evaluate("([k, v]) => localStorage.setItem(k, v)", [
        f"bucle:{CURSO}:index:primera",
        json.dumps({"codigo": "print('la mía')", "original": "print('la de antes')"}),
    ])
    pagina.reload()
    expect(pagina.locator("bucle-celda .cm-content")).to_have_count(4)
    uno = Celda(pagina, 1)
    uno.correr()
    expect(uno.texto).to_have_text("la mía\n")
    assert violaciones_axe(pagina) == []
    pagina.emulate_media(color_scheme="dark")
    assert violaciones_axe(pagina) == []


def test_a_cell_works_on_a_phone(celdas_html, servidor, movil):
    movil.goto(servidor(celdas_html))
    uno = Celda(movil, 1)
    uno.boton("Ejecutar").tap()
    uno.esperar_fin()
    expect(uno.texto).to_have_text("hola\n")
    assert movil.evaluate("document.documentElement.scrollWidth") <= 375
    for nombre in ("Ejecutar", "Restablecer"):
        caja = uno.boton(nombre).bounding_box()
        assert caja["x"] >= 0 and caja["x"] + caja["width"] <= 375 and caja["height"] >= 24
