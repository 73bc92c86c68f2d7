"""A cell's editor comes when the reader needs it: when its code comes near the viewport (not
while the page loads far above it), or when the keyboard reaches the code, which keeps what was
typed before CodeMirror arrived."""

import pytest
from playwright.sync_api import expect

from tests.browser.celdas import ESPERA, PYTHON_QUE_NO_ARRANCA, Celda

pytestmark = pytest.mark.navegador

EDITOR = "**/_static/bucle/editor.js"


def test_an_editor_far_below_waits_until_its_code_comes_near(celdas_html, servidor, pagina):
    url = servidor(celdas_html)

    def con_hueco(ruta):
        # Six thousand pixels of lesson before the last cell: three viewports and more below.
        respuesta = ruta.fetch()
        html = respuesta.text()
        i = html.rfind("<bucle-celda")
        ruta.fulfill(response=respuesta, body=html[:i] + '<div style="height: 6000px"></div>' + html[i:])

    pagina.route(url, con_hueco)
    pagina.goto(url)
    expect(pagina.locator("bucle-celda .cm-editor")).to_have_count(3, timeout=ESPERA)
    pagina.wait_for_timeout(2500)  # beyond the two seconds the editors wait for Python at most
    cuatro = Celda(pagina, 4)
    expect(cuatro.elemento.locator(".cm-editor")).to_have_count(0)
    expect(cuatro.elemento.locator(".bucle-celda-codigo pre")).to_contain_text("print")
    cuatro.elemento.locator(".bucle-celda-codigo").evaluate("(e) => e.scrollIntoView()")
    expect(cuatro.elemento.locator(".cm-editor")).to_have_count(1, timeout=ESPERA)


def test_the_keyboard_reaches_the_code_before_its_editor_and_types_into_it(celdas_html, servidor, pagina):
    retenidas = []
    pagina.route(EDITOR, lambda ruta: retenidas.append(ruta))
    pagina.add_init_script(PYTHON_QUE_NO_ARRANCA)
    pagina.goto(servidor(celdas_html))
    uno = Celda(pagina, 1)
    uno.boton("Ejecutar").focus()
    pagina.keyboard.press("Shift+Tab")
    estatico = uno.elemento.locator(".bucle-celda-codigo pre")
    expect(estatico).to_be_focused()
    pagina.keyboard.type("x = 1")
    pagina.keyboard.press("Enter")
    expect(pagina.locator(".cm-editor")).to_have_count(0)
    for _ in range(100):  # the focus asked for the module (held here)
        if retenidas:
            break
        pagina.wait_for_timeout(50)
    assert retenidas
    for ruta in retenidas:
        ruta.continue_()
    pagina.unroute(EDITOR)
    expect(uno.editor).to_be_focused(timeout=ESPERA)
    assert uno.lineas() == ["x = 1", 'saludo = "hola"', "print(saludo)"]
    expect(uno.modificada).to_be_visible()
