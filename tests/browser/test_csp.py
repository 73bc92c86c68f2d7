"""The course under a strict Content-Security-Policy: no inline code, no eval, no outside
origin. Served with the header, a lesson reads, steps its trace, answers a question and runs a
cell, and the browser reports no violation."""

import pytest
from playwright.sync_api import expect

from widgets.serve import CSP

pytestmark = pytest.mark.navegador


def test_a_lesson_works_under_the_strict_csp(sitio, servidor, pagina):
    assert "script-src 'self' 'wasm-unsafe-eval'" in CSP and "unsafe-inline" not in CSP
    violaciones = []
    pagina.on("console", lambda m: violaciones.append(m.text)
              if "Content Security Policy" in m.text or "Refused to" in m.text else None)
    base = servidor(sitio, csp=True)
    respuesta = pagina.goto(base + "el-bucle.html")
    assert respuesta.headers["content-security-policy"] == CSP

    traza = pagina.locator("bucle-traza").first
    traza.get_by_role("button", name="Siguiente", exact=True).click()
    expect(traza.get_by_text("Paso 2 de 17", exact=True)).to_be_visible()

    pregunta = pagina.locator("bucle-grupo bucle-pregunta").first  # one with options
    pregunta.get_by_role("radio").first.check()
    pregunta.get_by_role("button", name="Comprobar").click()
    expect(pregunta.get_by_role("status").first).not_to_be_empty()

    celda = pagina.locator("bucle-celda").first
    celda.get_by_role("button", name="Ejecutar", exact=True).click()
    salida = celda.get_by_role("status", name="Salida de la celda 1")
    expect(salida).to_contain_text("11 mensajes en 5 turnos", timeout=90_000)

    assert violaciones == []
    # The theme's dark-mode switch, moved out of the page, still runs: Furo sets data-theme.
    assert pagina.evaluate("document.body.dataset.theme") in ("auto", "light", "dark")
