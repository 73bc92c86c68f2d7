"""«Pedir permiso» in a real browser: the reader is the user. The lesson's cell «tu-permiso» runs
the loop with preguntar_al_lector; the page asks «¿Permites …?» with Permitir and Denegar while
Python waits, showing what the write would leave in the file and what it changes, and the
observations the model gets follow the reader's answers."""

import sys
import types

import pytest
from playwright.sync_api import expect

from tests.browser.celdas import ESPERA, Celda
from tests.conftest import violaciones_axe
from tests.lecciones.comun import ejecutar_leccion

pytestmark = pytest.mark.navegador

DENIEGA = "no se ha ejecutado: el usuario no lo ha permitido"


def lo_que_imprime(respuestas, monkeypatch):
    """The cell's output in CPython for a reader who answers ``respuestas``, in order."""
    dadas = []

    def preguntar_en_la_pagina(texto, detalle, partes=()):
        dadas.append(texto)
        return respuestas[len(dadas) - 1]
    monkeypatch.setitem(sys.modules, "trabajador",
                        types.SimpleNamespace(preguntar_en_la_pagina=preguntar_en_la_pagina))
    salidas, _ = ejecutar_leccion("pedir-permiso")
    return salidas[2].splitlines()


def test_the_reader_denies_then_allows_and_the_model_sees_both_observations(sitio, servidor, pagina,
                                                                            monkeypatch):
    esperado = lo_que_imprime([False, True], monkeypatch)
    # (the two observations of the turn that writes: the denial, then the write that ran)
    assert f"  resultado p3 (error): «{DENIEGA}»" in esperado
    assert any(linea.startswith("  resultado p4: «escrito notas.txt") for linea in esperado)

    pagina.goto(servidor(sitio) + "pedir-permiso.html")
    assert pagina.evaluate("crossOriginIsolated") is True
    celda = Celda(pagina, 3)
    celda.ejecutar()
    lista = celda.salida.get_by_role("group", name="¿Permites escribir lista.txt?")
    expect(lista).to_be_visible(timeout=ESPERA)
    expect(lista.locator("code")).to_contain_text("escribir(ruta='lista.txt'")
    # What would be written, whole, and what changes in the file that exists: one line goes,
    # the longer one comes.
    cambios = lista.get_by_role("group", name="Lo que cambia en lista.txt: 1 línea que se quita y 1 "
                                             "línea que se añade (- se quita, + se añade):")
    expect(cambios.locator("span")).to_have_text(["- pan, leche, patatas",
                                                  "+ pan, leche, patatas, huevos, cebolla"])
    lista.get_by_role("button", name="Denegar").click()
    notas = celda.salida.get_by_role("group", name="¿Permites escribir notas.txt?")
    expect(notas).to_be_visible()
    # The lesson's own example: the line nobody asked for, whole, in the content and as added.
    nueva = "Compra: faltan huevos y cebolla."
    contenido = notas.get_by_role("group", name="notas.txt quedará así (3 líneas):")
    expect(contenido.locator("span")).to_have_text(
        ["El sábado cenan los vecinos.", "Menú: gazpacho y tortilla.", nueva])
    anadida = notas.locator(".bucle-espera-pone")
    expect(anadida).to_have_text(f"+ {nueva}")
    expect(anadida).to_be_in_viewport()
    assert violaciones_axe(pagina) == []
    # On a phone too, each box holds its lines whole: they wrap, nothing runs off to the side.
    pagina.set_viewport_size({"width": 390, "height": 844})
    for caja in notas.locator("pre").all():
        assert caja.evaluate("(c) => c.scrollWidth <= c.clientWidth"), caja.inner_text()
    expect(anadida).to_have_text(f"+ {nueva}")
    notas.get_by_role("button", name="Permitir").click()
    celda.esperar_fin()

    salida = celda.texto.inner_text()
    assert "no se te puede preguntar" not in salida
    assert "¿Permites escribir lista.txt? Denegado" in salida
    assert "¿Permites escribir notas.txt? Permitido" in salida
    # Everything the cell printed is what CPython prints for the same answers.
    lineas = salida.splitlines()
    assert [linea for linea in lineas if linea in esperado] == esperado


def test_cambialo_tu_the_text_no_runs_the_write_and_the_question_says_so(sitio, servidor, pagina):
    """«Cámbialo tú»: in the cell ejecutar-con-permiso the reader changes `return False` to
    `return "no"` and runs it: d2 is written although the user said no, and d3 stops the cell
    with TypeError. The marked answer of cambialo-texto-no is that, and the page says Correcto."""
    import re

    pagina.goto(servidor(sitio) + "pedir-permiso.html")
    Celda(pagina, 1).correr()
    celda = Celda(pagina, 2)
    celda.elemento.scroll_into_view_if_needed()  # (its editor comes when its code is near)
    linea = celda.elemento.locator(".cm-line", has_text="return False")
    expect(linea).to_have_count(1, timeout=ESPERA)
    linea.click()
    pagina.keyboard.press("End")
    for _ in "False":
        pagina.keyboard.press("Backspace")
    pagina.keyboard.type('"no"')
    expect(celda.elemento.locator(".cm-line", has_text='return "no"')).to_have_count(1)
    celda.correr()
    expect(celda.salida).to_contain_text("resultado d2: «escrito lista.txt (9 caracteres)»")
    expect(celda.salida).to_contain_text("TypeError")

    q = pagina.locator("bucle-pregunta#cambialo-texto-no")
    q.get_by_role("radio", name=re.compile(r"^d2 se ejecuta")).check()
    q.get_by_role("button", name="Comprobar").click()
    expect(q.get_by_role("status")).to_contain_text("Correcto.")
