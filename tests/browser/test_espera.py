"""Python in the worker waits for the reader (lib/espera.js): a permission question and input()
in a cell's output, answered by keyboard; Detener while it waits; a page without isolation,
where nothing waits. On the test site tests/sites/celdas/ (espera*.html)."""

import pytest
from playwright.sync_api import expect

from tests.browser.celdas import ESPERA, Celda
from tests.conftest import violaciones_axe

pytestmark = pytest.mark.navegador

SIN_AISLAMIENTO = (
    "EntradaNoDisponible: input() no puede leer del teclado: esta página no está aislada "
    "(cross-origin isolation) y sin eso Python no puede esperar a que escribas, así que escribe "
    'el valor directamente en el código, por ejemplo: nombre = "Ada"')


def pregunta(celda, nombre):
    """The question group of the cell, named by its question."""
    return celda.salida.get_by_role("group", name=nombre)


def test_a_cell_asks_twice_then_input_reads_a_line_all_by_keyboard(celdas_html, servidor, pagina):
    pagina.goto(servidor(celdas_html) + "espera.html")
    assert pagina.evaluate("crossOriginIsolated") is True
    celda = Celda(pagina, 1)
    celda.ejecutar()

    primera = pregunta(celda, "¿Permites escribir lista.txt?")
    expect(primera).to_be_visible(timeout=ESPERA)
    # What the cell printed before it asked is already shown.
    expect(celda.texto).to_have_text("antes de preguntar\n")
    expect(primera.locator("code")).to_have_text('escribir(ruta="lista.txt", texto="pan")')
    expect(primera.get_by_role("button", name="Permitir")).to_be_focused()
    assert violaciones_axe(pagina) == []
    pagina.keyboard.press("Tab")
    expect(primera.get_by_role("button", name="Denegar")).to_be_focused()
    pagina.keyboard.press("Enter")

    segunda = pregunta(celda, "¿Permites escribir notas.txt?")
    expect(segunda.get_by_role("button", name="Permitir")).to_be_focused()
    expect(primera).to_have_count(0)
    pagina.keyboard.press("Enter")

    celda.esperar_fin()
    expect(celda.texto).to_have_text(
        "antes de preguntar\n"
        "¿Permites escribir lista.txt? Denegado\n"
        "primera: False\n"
        "¿Permites escribir notas.txt? Permitido\n"
        "segunda: True\n")
    expect(celda.salida.get_by_role("group")).to_have_count(0)
    expect(celda.boton("Ejecutar")).to_be_visible()

    # input() in the next cell (the same page: the first one has run).
    celda = Celda(pagina, 2)
    celda.ejecutar()
    campo = celda.salida.get_by_role("textbox", name="¿Nombre?")
    expect(campo).to_be_focused(timeout=ESPERA)
    expect(pregunta(celda, "¿Nombre?").get_by_role("button", name="Enviar")).to_be_visible()
    pagina.keyboard.type("Ada Lovelace")
    pagina.keyboard.press("Enter")
    celda.esperar_fin()
    expect(celda.texto).to_have_text("¿Nombre? Ada Lovelace\nHola, Ada Lovelace.\n")
    expect(celda.texto.locator(".bucle-entrada")).to_have_text("¿Nombre? Ada Lovelace\n")


def test_detener_while_waiting_stops_the_cell_and_its_namespace_survives(celdas_html, servidor, pagina):
    pagina.goto(servidor(celdas_html) + "espera-detener.html")
    primera, espera, ultima = Celda(pagina, 1), Celda(pagina, 2), Celda(pagina, 3)
    primera.correr()
    expect(primera.texto).to_have_text("listo\n")

    espera.ejecutar()
    campo = espera.salida.get_by_role("textbox", name="Entrada")  # input() without a prompt
    expect(campo).to_be_focused(timeout=ESPERA)
    expect(espera.texto).to_have_text("esperando…\n")
    pagina.wait_for_timeout(500)  # it waits, with no timeout of its own
    expect(campo).to_be_visible()
    espera.boton("Detener").click()
    espera.esperar_fin()
    expect(espera.salida).to_contain_text("Ejecución detenida.")
    expect(espera.salida).not_to_contain_text("reiniciado")
    expect(espera.salida).not_to_contain_text("no llega aquí")
    expect(campo).to_have_count(0)
    expect(espera.boton("Ejecutar")).to_be_focused()

    # The same Python: what the first cell defined is still there, and the first cell does not
    # run again.
    ultima.correr()
    expect(ultima.texto).to_have_text("sigue aquí\n")
    expect(ultima.salida).not_to_contain_text("Antes se ejecuta")


def test_a_question_fits_a_phone(celdas_html, servidor, movil):
    movil.goto(servidor(celdas_html) + "espera.html")
    celda = Celda(movil, 1)
    celda.ejecutar()
    grupo = pregunta(celda, "¿Permites escribir lista.txt?")
    expect(grupo).to_be_visible(timeout=ESPERA)
    ancho = movil.evaluate("document.documentElement.scrollWidth")
    assert ancho <= 375, ancho
    caja = grupo.bounding_box()
    assert caja["x"] >= 0 and caja["x"] + caja["width"] <= 375, caja
    for nombre in ("Permitir", "Denegar"):
        assert grupo.get_by_role("button", name=nombre).bounding_box()["height"] >= 36


def test_a_long_write_is_shown_whole_in_a_box_that_scrolls_by_keyboard_too(celdas_html, servidor, pagina):
    """What a permission shows whole (partes, runtime/permisos.py's que_cambia) never makes the
    question taller than a screen: a long content scrolls in its box, which the keyboard reaches."""
    pagina.goto(servidor(celdas_html) + "espera-larga.html")
    celda = Celda(pagina, 1)
    celda.ejecutar()
    grupo = pregunta(celda, "¿Permites escribir larga.txt?")
    expect(grupo).to_be_visible(timeout=ESPERA)
    caja = grupo.get_by_role("group", name="larga.txt quedará así (40 líneas):")
    expect(caja.locator("span")).to_have_count(40)
    expect(caja.locator("span").first).to_have_text("línea 1")
    assert caja.evaluate("(c) => c.scrollHeight > c.clientHeight + 100")
    assert grupo.bounding_box()["height"] < 500, grupo.bounding_box()
    expect(grupo.get_by_role("button", name="Permitir")).to_be_focused()
    pagina.keyboard.press("Shift+Tab")
    expect(caja).to_be_focused()
    pagina.keyboard.press("End")
    expect(caja.locator("span").last).to_be_in_viewport()
    assert caja.evaluate("(c) => c.scrollTop > 0")
    assert violaciones_axe(pagina) == []
    grupo.get_by_role("button", name="Denegar").click()
    celda.esperar_fin()
    expect(celda.texto).to_have_text("¿Permites escribir larga.txt? Denegado\nlarga: False\n")


def test_without_isolation_nothing_waits_and_input_says_why(celdas_html, servidor, pagina):
    pagina.goto(servidor(celdas_html, aislamiento=False) + "espera.html")
    assert pagina.evaluate("crossOriginIsolated") is False
    permiso, nombre = Celda(pagina, 1), Celda(pagina, 2)
    permiso.correr()
    expect(permiso.texto).to_have_text("antes de preguntar\nprimera: None\nsegunda: None\n")
    expect(permiso.salida.get_by_role("group")).to_have_count(0)

    nombre.correr()
    expect(nombre.texto).to_contain_text("¿Nombre? \n")
    expect(nombre.texto).to_contain_text(SIN_AISLAMIENTO)
    expect(nombre.salida.get_by_role("textbox")).to_have_count(0)


def test_a_check_never_waits_for_the_reader(sitio_de_prueba, servidor, pagina):
    """Grading must never wait: a submission that asks the page gets None, and passes."""
    from tests.browser.test_desafio import SOLUCION, TOTAL, Desafio

    pagina.goto(servidor(sitio_de_prueba("desafios")))
    assert pagina.evaluate("crossOriginIsolated") is True
    pregunta_ = ('    from trabajador import preguntar_en_la_pagina\n'
                 '    if preguntar_en_la_pagina("¿Permites escribir lista.txt?", "escribir(…)") is not None:\n'
                 '        return ("preguntó", None, [])\n')
    firma = "def bucle(modelo, inicio, entorno, tope):\n"
    cuerpo = SOLUCION.replace(firma, firma + pregunta_)
    assert cuerpo != SOLUCION
    d = Desafio(pagina)
    d.escribir(cuerpo)
    d.comprobar(esperado=TOTAL)
    expect(pagina.get_by_role("group", name="¿Permites escribir lista.txt?")).to_have_count(0)
